"""Find source documents in the ``sources/`` tree, safely.

A document's id is its path relative to ``sources/`` without the extension, with ``/``
between folders: ``sources/guides/cms/umbraco.mdx`` is ``guides/cms/umbraco``, a flat
``sources/guide.md`` is ``guide``. Each part of the id is made from the file or folder name
by :func:`~chunker.doc_ids.id_segment` (NFC; letters and digits of any script, ``.``, ``_`` and ``-`` kept; any
other run of characters becomes one ``-``), so the id is safe as a folder path under
``chunks/`` and inside a chunk key. Files under ``sources/_output/auto/`` overlay the tree
(their id is relative to that folder and they come first in lookup order). For one id:

1. ``.md``, then ``.markdown``, ``.mdx``, ``.txt``;
2. for each extension, ``sources/_output/auto/<id>`` before ``sources/<id>``.

A file that the order puts behind another is *shadowed* (a warning); two different names
that give the same id (``a b.md`` and ``a-b.md``) are refused rather than chosen by sort
order. Every file or folder that is not a source is listed by :func:`scan` with its reason
(:data:`REASONS`).
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from chunker.doc_ids import ID_MAX, id_segment
from chunker.errors import SourceError, UsageError
from chunker.selection import Selection

__all__ = [
    "AUTO_DIR",
    "EXTENSIONS",
    "FAILING_REASONS",
    "MARKDOWN_EXTENSIONS",
    "MAX_DEPTH",
    "REASONS",
    "RESERVED_IDS",
    "LeftOut",
    "Scan",
    "Shadowed",
    "SourceFile",
    "ambiguous_message",
    "check_inside",
    "discover",
    "display_path",
    "require_dir",
    "scan",
    "shown_path",
    "source_file",
]

MAX_DEPTH = 32
"""Folder levels below ``sources/`` that are read; a deeper folder is listed as left out."""

EXTENSIONS: tuple[str, ...] = (".md", ".markdown", ".mdx", ".txt")
MARKDOWN_EXTENSIONS: tuple[str, ...] = (".md", ".markdown", ".mdx")
AUTO_DIR = ("_output", "auto")
RESERVED_IDS = frozenset({"_export", "_eval", "_view"})
"""First parts of an id that name folders of ``chunks/`` the export, eval and view commands own (in
any case: ``_Export`` is ``_export`` on macOS and Windows)."""
ARTIFACT_NAMES = frozenset({"chunks.json", "meta.json", "report.json"})
"""Names of a document's files in its folder: no part of an id below the first may be one (the
folder of ``a/chunks.json`` would be the file ``chunks.json`` of the document ``a``)."""

REASONS: dict[str, str] = {
    "hidden": "a hidden file or folder (name starts with '.'), not read",
    "not-a-source": "not a source type (sources are .md, .markdown, .mdx and .txt)",
    "excluded": "matches an exclude pattern of the config",
    "not-included": "matches no include pattern of the config",
    "reserved": (
        "a name chunker reserves (sources/_output/ apart from auto/; _export, _eval and _view at the top, folders of "
        "chunks/; chunks.json, meta.json and report.json below it, the files of a document's folder)"
    ),
    "symlinked-folder": "a symlink to a folder is not followed",
    "too-deep": f"a folder more than {MAX_DEPTH} levels below sources/, not read",
    "invalid-name": "its name gives no usable document id",
    "shadowed": "another file has the same id and comes first in lookup order",
    "ambiguous": "another file name gives the same id",
    "unreadable": "a folder that cannot be listed",
}
"""Why a file or folder of the tree is not chunked (the ``reason`` of :class:`LeftOut`)."""

FAILING_REASONS = frozenset({"invalid-name", "ambiguous", "too-deep", "unreadable"})
"""Reasons that fail the run (exit 2): a file that looks like a source could not be chunked."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One source document found under ``sources/``."""

    stem: str
    """The document id (``guides/cms/umbraco``); the path of its output folder below ``chunks/``."""
    path: Path
    """Path as found (symlinks not resolved)."""
    display: str
    """Path for messages: relative to the working directory where possible, e.g. ``sources/x.md``."""
    walked: bool = False
    """Found by :func:`scan` as a file that is no symlink, in folders that are none (the walk follows
    no symlinked folder): its path lies inside ``sources/`` as it is, with no need to resolve it
    (:func:`check_inside`)."""


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A file or folder of the tree that is not chunked, and why."""

    display: str
    reason: str
    """A key of :data:`REASONS`."""
    detail: str = ""
    """What exactly (the pattern that matched, the id it clashes with)."""
    stem: str = ""
    """The id it would have had, where it has one."""
    folder: bool = False
    """A whole folder left out (its contents are not read)."""

    @property
    def message(self) -> str:
        return f"{REASONS[self.reason]}{': ' + self.detail if self.detail else ''}"

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.display, "reason": self.reason}
        if self.folder:
            out["folder"] = True
        if self.stem:
            out["id"] = self.stem
        out["message"] = self.message
        return out


_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters of a file name that a terminal or a log would act on rather than show: C0 and C1
controls (``ESC [2J`` clears the screen, ``ESC ]0;`` retitles the window, a newline forges a line of
its own) and the bidirectional overrides (U+202E shows ``gpj.md`` for ``dm.jpg``)."""


def shown_path(path: str | Path) -> str:
    """``path`` as text that every writer takes and every reader sees as it is: a byte of a file
    name that is not UTF-8 (which Python keeps as a lone surrogate, refused by JSON writers and
    terminals) is shown as ``\\xff``, a control character or bidirectional override as ``\\x1b`` or
    ``\\u202e``."""
    try:
        text = os.fsencode(path).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that no file name byte gives: from an escape
        text = str(path).encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROLS.sub(_escaped, text) if _CONTROLS.search(text) else text


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (symlinks not resolved),
    shown by :func:`shown_path`."""
    shown = _display_text(path)
    return shown_path(path if shown is None else shown)


def _display_text(path: Path | str) -> str | None:
    """What :func:`display_path` shows, before :func:`shown_path`; None when the working directory
    is gone (the path is shown as it is)."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, os.getcwd())
    except (OSError, ValueError):
        return None
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return absolute
    return rel


class _Displays:
    """:func:`display_path` of many paths in few folders: each folder's once, then joined with the
    name (a name from a folder listing has no separator and is never ``.`` or ``..``, so that is
    what ``display_path`` gives; a folder below the working directory gives one below it too)."""

    def __init__(self) -> None:
        self._folders: dict[str, str | None] = {}

    def __call__(self, path: Path) -> str:
        folder, name = os.path.split(path)
        if not name or name in (".", ".."):
            return display_path(path)
        if folder not in self._folders:
            self._folders[folder] = _display_text(folder or ".")
        shown = self._folders[folder]
        if shown is None:
            return shown_path(path)
        return shown_path(name if shown == "." else os.path.join(shown, name))


def source_file(stem: str, path: Path, walked: bool = False) -> SourceFile:
    """The :class:`SourceFile` of ``path`` under the id ``stem``."""
    return SourceFile(stem=stem, path=path, display=display_path(path), walked=walked)


def require_dir(sources_dir: Path) -> None:
    """:class:`UsageError` unless ``sources_dir`` is a folder."""
    if sources_dir.is_dir():
        return
    shown = display_path(sources_dir)
    if sources_dir.exists():
        raise UsageError(
            f"the sources folder {shown} is not a folder: give the folder that holds it (--sources) "
            "and select one document with --stem or --doc"
        )
    where = "run from the folder that holds sources/" if sources_dir == Path("sources") else "check --sources"
    raise UsageError(f"source folder {shown} not found; {where}")


# -- the walk -----------------------------------------------------------------------

_Rank = tuple[int, int]


@dataclass(slots=True)
class _Walk:
    sources_dir: Path
    selection: Selection
    ranked: dict[str, list[tuple[_Rank, str, Path, bool]]] = field(default_factory=dict)
    left_out: list[LeftOut] = field(default_factory=list)
    display: _Displays = field(default_factory=_Displays)

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
            self.leave(path, "excluded", repr(pattern), stem if is_source else "")
            return
        if not is_source:
            self.leave(path, "not-a-source", ext or "no extension")
            return
        if not self.selection.included(rel):
            self.leave(path, "not-included", "", stem)
            return
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
    return Scan(found, left_out, shadowed)


def discover(sources_dir: Path, selection: Selection | None = None) -> list[SourceFile]:
    """Every source document under ``sources_dir``, one per id (lookup order wins), sorted by id."""
    return scan(sources_dir, selection).found


def ambiguous_message(stem: str, chosen: str, others: Iterable[str]) -> str:
    """Why an id that several different file names give is not chunked. Names that look the same
    (``Café`` composed and decomposed, NFC and NFD) are shown with the decomposed characters escaped."""
    names = [chosen, *others]
    if len(set(names)) < len(names) or len({unicodedata.normalize("NFC", n) for n in names}) < len(names):
        names = [n if unicodedata.is_normalized("NFC", n) else _decomposed(n) for n in names]
        hint = " (they differ only in how their accents are encoded, NFC or NFD)"
    else:
        hint = ""
    return f"document id {stem!r} is given by several files ({', '.join(names)}){hint}; rename all but one"


def _decomposed(name: str) -> str:
    """``name`` with its combining marks escaped: ``Cafe\\u0301`` for a decomposed ``Café``."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.combining(c) else c for c in name)


def check_inside(path: Path, root: Path, display: str, real_root: Path | None = None) -> None:
    """Raise :class:`SourceError` if ``path`` (through symlinks) resolves outside ``root``;
    ``real_root``: ``root`` resolved, when the caller did it once for many paths."""
    try:
        real = path.resolve()
        if real_root is None:
            real_root = root.resolve()
    except (OSError, RuntimeError):
        raise SourceError("the source is a symlink loop; refused", path=display) from None
    if real == real_root or real_root in real.parents:
        return
    root_name = display_path(root).rstrip("/") + "/"
    missing = "" if os.path.exists(real) else ", which does not exist"
    raise SourceError(
        f"symlink points outside {root_name} (to {real}{missing}); refused: copy the file into {root_name} instead",
        path=display,
    )

