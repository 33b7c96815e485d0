"""The walk of the ``sources/`` tree (:func:`scan`): every source document by the lookup order of
:mod:`chunker.sources`, every file or folder that is not one with its reason, shadowed and ambiguous
files. It reads no symlinked folder and no folder deeper than :data:`~chunker.sources.MAX_DEPTH`."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from chunker.doc_ids import ID_MAX, id_segment
from chunker.path_display import Displays
from chunker.selection import Selection, glob_matches
from chunker.sources import (
    ARTIFACT_NAMES,
    AUTO_DIR,
    EXTENSIONS,
    MAX_DEPTH,
    RESERVED_IDS,
    LeftOut,
    SourceFile,
    require_dir,
)

__all__ = ["Scan", "Shadowed", "discover", "scan"]

_Rank = tuple[int, int]


@dataclass(slots=True)
class _Walk:
    sources_dir: Path
    selection: Selection
    ranked: dict[str, list[tuple[_Rank, str, Path, bool]]] = field(default_factory=dict)
    left_out: list[LeftOut] = field(default_factory=list)
    display: Displays = field(default_factory=Displays)
    used: set[str] = field(default_factory=set)
    """The ``exclude`` globs that left something out and the ``include`` globs that matched a source file."""

    def leave(self, path: Path, reason: str, detail: str = "", stem: str = "", folder: bool = False) -> None:
        self.left_out.append(LeftOut(self.display(path), reason, detail, stem, folder))

    def folder_kept(self, entry: os.DirEntry[str], rel: str, depth: int, at_sources_top: bool) -> bool:
        path = Path(entry.path)
        if entry.name.startswith("."):
            self.leave(path, "hidden", folder=True)
            return False
        if entry.is_symlink():
            self.leave(path, "symlinked-folder", f"to {os.path.realpath(path)}", folder=True)
            return False
        if at_sources_top and entry.name.casefold() in RESERVED_IDS:
            self.leave(path, "reserved", folder=True)
            return False
        if at_sources_top and entry.name == AUTO_DIR[0]:
            self.output_folder(path)
            return False
        pattern = self.selection.excluded(rel)
        if pattern is not None:
            self.used.add(pattern)
            self.leave(path, "excluded", repr(pattern), folder=True)
            return False
        if depth > MAX_DEPTH:
            self.leave(path, "too-deep", folder=True)
            return False
        return True

    def output_folder(self, path: Path) -> None:
        """``sources/_output/``: only its ``auto/`` folder is read (walked on its own)."""
        try:
            inner = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError as exc:
            self.leave(path, "unreadable", exc.strerror or type(exc).__name__, folder=True)
            return
        for item in inner:
            if item.name == AUTO_DIR[1] and item.is_symlink():
                self.leave(Path(item.path), "symlinked-folder", f"to {os.path.realpath(item.path)}", folder=True)
            elif item.name != AUTO_DIR[1]:
                self.leave(Path(item.path), "reserved", folder=_is_dir(item))

    def file(self, entry: os.DirEntry[str], rel: str, id_prefix: str, bias: int) -> None:
        path = Path(entry.path)
        if entry.name.startswith("."):
            self.leave(path, "hidden")
            return
        base, ext = os.path.splitext(entry.name)
        segment = id_segment(base)
        stem = f"{id_prefix}{segment}" if segment is not None else ""
        is_source = ext.lower() in EXTENSIONS
        pattern = self.selection.excluded(rel)
        if pattern is not None:
            self.used.add(pattern)
            self.leave(path, "excluded", repr(pattern), stem if is_source else "")
            return
        if not is_source:
            self.leave(path, "not-a-source", ext or "no extension")
            return
        if not self.selection.included(rel):
            self.leave(path, "not-included", "", stem)
            return
        if self.selection.include and not self.used.issuperset(self.selection.include):
            self.used.update(p for p in self.selection.include if p not in self.used and glob_matches(p, rel))
        if segment is None or len(stem) > ID_MAX:
            why = _undecoded(base) if segment is None and any("\udc80" <= c <= "\udcff" for c in base) else ""
            self.leave(path, "invalid-name", why or ("too long" if segment else "nothing usable is left of it"))
            return
        clash = _reserved_part(stem)
        if clash:
            self.leave(path, "reserved", clash, stem)
            return
        rank = (EXTENSIONS.index(ext.lower()), bias)
        self.ranked.setdefault(stem, []).append((rank, rel.rsplit(".", 1)[0], path, not entry.is_symlink()))

    def tree(self, top: Path, bias: int) -> None:
        """Every entry below ``top`` (iteratively: a deep tree cannot exhaust the stack)."""
        stack: list[tuple[Path, str, str, int]] = [(top, "", "", 0)]
        while stack:
            folder, rel_prefix, id_prefix, depth = stack.pop()
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError as exc:
                self.leave(folder, "unreadable", exc.strerror or type(exc).__name__, folder=True)
                continue
            below: list[tuple[Path, str, str, int]] = []
            for entry in entries:
                rel = rel_prefix + entry.name
                if _is_dir(entry):
                    at_top = bias == 1 and depth == 0
                    if not self.folder_kept(entry, rel, depth + 1, at_top):
                        continue
                    segment = id_segment(entry.name)
                    if segment is None:
                        self.leave(Path(entry.path), "invalid-name", "no usable folder name", folder=True)
                        continue
                    below.append((Path(entry.path), rel + "/", f"{id_prefix}{segment}/", depth + 1))
                else:
                    self.file(entry, rel, id_prefix, bias)
            stack.extend(reversed(below))


def _undecoded(base: str) -> str:
    """Why a name with bytes the file system encoding could not decode gives no id: they are not
    UTF-8, or Python reads names in a locale that is not UTF-8 (``LC_ALL=C`` with ``PYTHONUTF8=0``)."""
    encoding = sys.getfilesystemencoding()
    if encoding.lower().replace("-", "") == "utf8":
        return "not UTF-8"
    try:
        os.fsencode(base).decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    return f"not {encoding}, the locale's encoding of file names (run under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)"


def _reserved_part(stem: str) -> str:
    """Why the output folder of the id ``stem`` would be one chunker keeps for something else (the
    export's or eval's folder, a file of another document's folder), or ``""``. A file's name is
    case-folded (``Chunks.json`` is ``chunks.json`` on macOS and Windows)."""
    first, *below = stem.split("/")
    if first.casefold() in RESERVED_IDS:
        return f"chunks/{first.casefold()}/ is the {first[1:].casefold()} command's folder"
    for part in below:
        if part.casefold() in ARTIFACT_NAMES:
            return f"{part} is a file of the document folder above it"
    return ""


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder, or a symlink to one; a symlink loop is a file (reading it says why it fails)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Shadowed:
    """A source file left out because another file has the same id."""

    stem: str
    display: str
    chosen: str
    """Display path of the file that is chunked under this id."""
    ambiguous: bool
    """The two files have different names that give one id (``a b.md``, ``a-b.md``): the run refuses
    to choose between them (an error); otherwise the documented lookup order chose."""


@dataclass(frozen=True, slots=True)
class Scan:
    """What :func:`scan` found under ``sources/``."""

    found: list[SourceFile]
    """One source per id, by lookup order, sorted by id."""
    left_out: list[LeftOut]
    """Every file or folder of the tree that is not a source, with its reason."""
    shadowed: list[Shadowed]
    """Files with the id of a file that comes first in lookup order."""
    used: frozenset[str] = frozenset()
    """The ``exclude`` globs that left a file or folder out, the ``include`` globs that matched a source file."""

    @property
    def refused(self) -> list[str]:
        """Display paths of files whose name gives no usable id."""
        return [x.display for x in self.left_out if x.reason == "invalid-name"]


def scan(sources_dir: Path, selection: Selection | None = None) -> Scan:
    """Every source document under ``sources_dir``, and every file that will not be chunked."""
    require_dir(sources_dir)
    walk = _Walk(sources_dir, selection or Selection())
    auto = sources_dir.joinpath(*AUTO_DIR)
    if auto.is_dir() and not auto.is_symlink() and not sources_dir.joinpath(AUTO_DIR[0]).is_symlink():
        walk.tree(auto, 0)
    walk.tree(sources_dir, 1)
    found: list[SourceFile] = []
    shadowed: list[Shadowed] = []
    for stem, candidates in sorted(walk.ranked.items()):
        candidates.sort(key=lambda c: (c[0], c[1]))
        (_, best_name, best, plain), *others = candidates
        chosen = SourceFile(stem, best, walk.display(best), plain)
        found.append(chosen)
        for _, name, path, _ in others:
            display = walk.display(path)
            ambiguous = name != best_name
            shadowed.append(Shadowed(stem, display, chosen.display, ambiguous))
            reason = "ambiguous" if ambiguous else "shadowed"
            walk.left_out.append(LeftOut(display, reason, f"{chosen.display} has the id {stem!r}", stem))
    left_out = sorted(walk.left_out, key=lambda x: x.display)
    return Scan(found, left_out, shadowed, frozenset(walk.used))


def discover(sources_dir: Path, selection: Selection | None = None) -> list[SourceFile]:
    """Every source document under ``sources_dir``, one per id (lookup order wins), sorted by id."""
    return scan(sources_dir, selection).found
