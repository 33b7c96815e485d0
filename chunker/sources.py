"""Find source documents in the ``sources/`` tree, safely.

A document's id is its path relative to ``sources/`` without the extension, with ``/``
between folders: ``sources/guides/cms/umbraco.mdx`` is ``guides/cms/umbraco``, a flat
``sources/guide.md`` is ``guide``. Each part of the id is made from the file or folder name
by :func:`id_segment` (NFC; letters and digits of any script, ``.``, ``_`` and ``-`` kept; any
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

import difflib
import fnmatch
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from chunker.errors import SourceError, UsageError, shown

__all__ = [
    "EXTENSIONS",
    "MARKDOWN_EXTENSIONS",
    "MAX_DEPTH",
    "REASONS",
    "STEM_RE",
    "LeftOut",
    "Scan",
    "Selection",
    "Shadowed",
    "SourceFile",
    "ambiguous_message",
    "case_collisions",
    "check_inside",
    "collision_index",
    "discover",
    "find_source",
    "id_segment",
    "is_doc_id",
    "scan",
    "shown_path",
    "validate_stem",
]

STEM_MAX = 100
STEM_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,99}\Z")
"""A flat ASCII stem, as every flat ``sources/`` of earlier releases used (ids of that form are
unchanged)."""

ID_MAX = 1000
"""Characters of a document id at most (its output path and its chunk keys grow with it)."""
NAME_MAX = 240
"""Bytes of one part of an id at most (file systems allow 255 for a name, extension included)."""
MAX_DEPTH = 32
"""Folder levels below ``sources/`` that are read; a deeper folder is listed as left out."""

EXTENSIONS: tuple[str, ...] = (".md", ".markdown", ".mdx", ".txt")
MARKDOWN_EXTENSIONS: tuple[str, ...] = (".md", ".markdown", ".mdx")
AUTO_DIR = ("_output", "auto")
RESERVED_IDS = frozenset({"_export", "_eval"})
"""First parts of an id that name folders of ``chunks/`` the export and eval commands own."""

REASONS: dict[str, str] = {
    "hidden": "a hidden file or folder (name starts with '.'), not read",
    "not-a-source": "not a source type (sources are .md, .markdown, .mdx and .txt)",
    "excluded": "matches an exclude pattern of the config",
    "not-included": "matches no include pattern of the config",
    "reserved": "a folder chunker reserves (sources/_output/ apart from auto/, _export/, _eval/)",
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

_GLOB_CHARS = frozenset("*?[]{}")
_UNSAFE_RUN = re.compile(r"[^\w.\-]+")


def id_segment(name: str) -> str | None:
    """The part of a document id made from one file name (without extension) or folder name:
    NFC-normalised, every run of characters other than letters, digits, ``_``, ``.`` and ``-``
    replaced by one ``-``, trailing dots removed (Windows drops them). ``None`` when nothing
    usable is left or the name holds bytes that are not UTF-8."""
    if any("\udc80" <= c <= "\udcff" for c in name):
        return None
    text = _UNSAFE_RUN.sub("-", unicodedata.normalize("NFC", name).strip()).rstrip(".").lstrip("-")
    if not text or text in (".", "..", "-") or text.startswith("."):
        return None
    return text


def is_doc_id(value: str) -> bool:
    """Whether ``value`` is a document id as :func:`scan` makes them (each part unchanged by
    :func:`id_segment`, no empty part, at most :data:`ID_MAX` characters)."""
    if not value or len(value) > ID_MAX:
        return False
    return all(id_segment(part) == part for part in value.split("/"))


def validate_stem(stem: str) -> str:
    """``stem`` if it is a document id (or a bare name) in the form :func:`scan` gives ids, else
    :class:`UsageError` saying why; a path written as the file is (``guides/my guide``) is refused
    with the id to use instead (``guides/my-guide``)."""
    hint = "give a document id (its path below sources/ without extension, e.g. guides/setup) or a file name"
    if not stem:
        raise UsageError(f"the stem is empty; {hint}")
    quoted = shown(stem, 64)
    if "\x00" in stem:
        raise UsageError(f"invalid stem {quoted}: it contains a NUL character")
    if stem.startswith(("/", "\\")) or os.path.isabs(stem) or re.match(r"[A-Za-z]:[\\/]", stem):
        raise UsageError(f"invalid stem {quoted}: a document id is relative to sources/, not an absolute path; {hint}")
    if "\\" in stem:
        raise UsageError(f"invalid stem {quoted}: separate folders with '/', not '\\'")
    parts = stem.split("/")
    if any(p in (".", "..") for p in parts):
        raise UsageError(f"invalid stem {quoted}: it must not contain '.' or '..' as a folder")
    if len(stem) > ID_MAX:
        raise UsageError(f"invalid stem {quoted}: at most {ID_MAX} characters are allowed")
    if any(c in _GLOB_CHARS for c in stem):
        raise UsageError(f"invalid stem {quoted}: wildcards are not expanded; name one document")
    segments = [id_segment(p) for p in parts]
    if any(s is None for s in segments):
        raise UsageError(f"invalid stem {quoted}: an empty or unusable folder or file name; {hint}")
    if any(len(p.encode("utf-8", "surrogatepass")) > NAME_MAX for p in parts):
        raise UsageError(f"invalid stem {quoted}: a folder or file name is longer than {NAME_MAX} bytes")
    as_id = "/".join(s for s in segments if s is not None)
    if as_id != stem:
        raise UsageError(
            f"invalid stem {quoted}: not a document id (ids keep letters, digits, '.', '_' and '-'; "
            f"other characters become '-'): did you mean {as_id!r}?"
        )
    return stem


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One source document found under ``sources/``."""

    stem: str
    """The document id (``guides/cms/umbraco``); the path of its output folder below ``chunks/``."""
    path: Path
    """Path as found (symlinks not resolved)."""
    display: str
    """Path for messages: relative to the working directory where possible, e.g. ``sources/x.md``."""


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


def shown_path(path: str | Path) -> str:
    """``path`` as text that every writer takes: a byte of a file name that is not UTF-8 (which
    Python keeps as a lone surrogate, refused by JSON writers and terminals) is shown as ``\\xff``."""
    try:
        return os.fsencode(path).decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that no file name byte gives: from an escape
        return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (symlinks not resolved),
    shown by :func:`shown_path`."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, os.getcwd())
    except (OSError, ValueError):
        return shown_path(path)
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return shown_path(absolute)
    return shown_path(rel)


def _source_file(stem: str, path: Path) -> SourceFile:
    return SourceFile(stem=stem, path=path, display=display_path(path))


def _require_dir(sources_dir: Path) -> None:
    if not sources_dir.is_dir():
        raise UsageError(
            f"source folder {display_path(sources_dir)} not found; run from the folder that holds sources/"
        )


# -- include / exclude ------------------------------------------------------------


def _match_parts(pattern: Sequence[str], parts: Sequence[str]) -> bool:
    """Glob parts against path parts: ``*``/``?``/``[]`` within one part, ``**`` any number of parts."""
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_match_parts(rest, parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _match_parts(rest, parts[1:])


def glob_matches(pattern: str, rel: str) -> bool:
    """Whether ``pattern`` matches the path ``rel`` (relative to ``sources/``, ``/``-separated).
    A pattern without ``/`` matches a file or folder name at any depth (``node_modules``,
    ``*.draft.md``); one with ``/`` matches from the top (``blog/_drafts``, ``docs/**/old-*``);
    a trailing ``/`` is ignored."""
    pattern = pattern.strip().rstrip("/")
    parts = rel.split("/")
    if "/" not in pattern:
        return fnmatch.fnmatchcase(parts[-1], pattern)
    return _match_parts(pattern.lstrip("/").split("/"), parts)


@dataclass(frozen=True, slots=True)
class Selection:
    """Which files of the tree are sources: ``include`` (empty = every file of a source type) and
    ``exclude`` globs (see :func:`glob_matches`), from the config."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def excluded(self, rel: str) -> str | None:
        return next((p for p in self.exclude if glob_matches(p, rel)), None)

    def included(self, rel: str) -> bool:
        return not self.include or any(glob_matches(p, rel) for p in self.include)


# -- the walk -----------------------------------------------------------------------

_Rank = tuple[int, int]


@dataclass(slots=True)
class _Walk:
    sources_dir: Path
    selection: Selection
    ranked: dict[str, list[tuple[_Rank, str, Path]]] = field(default_factory=dict)
    left_out: list[LeftOut] = field(default_factory=list)

    def leave(self, path: Path, reason: str, detail: str = "", stem: str = "", folder: bool = False) -> None:
        self.left_out.append(LeftOut(display_path(path), reason, detail, stem, folder))

    def folder_kept(self, entry: os.DirEntry[str], rel: str, depth: int, at_sources_top: bool) -> bool:
        path = Path(entry.path)
        if entry.name.startswith("."):
            self.leave(path, "hidden", folder=True)
            return False
        if entry.is_symlink():
            self.leave(path, "symlinked-folder", f"to {os.path.realpath(path)}", folder=True)
            return False
        if at_sources_top and entry.name in RESERVED_IDS:
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
            why = "not UTF-8" if segment is None and any("\udc80" <= c <= "\udcff" for c in base) else ""
            self.leave(path, "invalid-name", why or ("too long" if segment else "no letters or digits"))
            return
        rank = (EXTENSIONS.index(ext.lower()), bias)
        self.ranked.setdefault(stem, []).append((rank, rel.rsplit(".", 1)[0], path))

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
    _require_dir(sources_dir)
    walk = _Walk(sources_dir, selection or Selection())
    auto = sources_dir.joinpath(*AUTO_DIR)
    if auto.is_dir() and not auto.is_symlink() and not sources_dir.joinpath(AUTO_DIR[0]).is_symlink():
        walk.tree(auto, 0)
    walk.tree(sources_dir, 1)
    found: list[SourceFile] = []
    shadowed: list[Shadowed] = []
    for stem, candidates in sorted(walk.ranked.items()):
        candidates.sort(key=lambda c: (c[0], c[1]))
        (_, best_name, best), *others = candidates
        chosen = _source_file(stem, best)
        found.append(chosen)
        for _, name, path in others:
            display = display_path(path)
            ambiguous = name != best_name
            shadowed.append(Shadowed(stem, display, chosen.display, ambiguous))
            reason = "ambiguous" if ambiguous else "shadowed"
            walk.left_out.append(LeftOut(display, reason, f"{chosen.display} has the id {stem!r}", stem))
    left_out = sorted(walk.left_out, key=lambda x: x.display)
    return Scan(found, left_out, shadowed)


def discover(sources_dir: Path, selection: Selection | None = None) -> list[SourceFile]:
    """Every source document under ``sources_dir``, one per id (lookup order wins), sorted by id."""
    return scan(sources_dir, selection).found


def _direct(sources_dir: Path, stem: str) -> SourceFile | None:
    """The file of the flat id ``stem`` by lookup order when its name is the id itself and no
    other name in its folder gives the same id (else ``None``: the full scan decides)."""
    auto = sources_dir.joinpath(*AUTO_DIR)
    for ext in EXTENSIONS:
        for root in (auto, sources_dir):
            path = root / f"{stem}{ext}"
            if os.path.islink(path) or os.path.isfile(path):
                return None if _namesakes(auto, stem) or _namesakes(sources_dir, stem) else _source_file(stem, path)
    return None


def _namesakes(folder: Path, stem: str) -> bool:
    """Whether ``folder`` holds a source whose name differs from ``stem`` but gives it as id."""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    for name in names:
        base, ext = os.path.splitext(name)
        if ext.lower() in EXTENSIONS and base != stem and id_segment(base) == stem:
            return True
    return False


def find_source(sources_dir: Path, stem: str, selection: Selection | None = None) -> SourceFile:
    """The source of ``stem`` (an id, or a bare file name when only one document has it);
    :class:`UsageError` naming candidates or close matches otherwise."""
    wanted = validate_stem(stem)
    selection = selection or Selection()
    if "/" not in wanted and wanted not in RESERVED_IDS | {AUTO_DIR[0]}:
        direct = _direct(sources_dir, wanted)
        name = direct.path.name if direct is not None else ""
        if direct is not None and selection.excluded(name) is None and selection.included(name):
            return direct
    _require_dir(sources_dir)
    scanned = scan(sources_dir, selection)
    for source in scanned.found:
        if source.stem == wanted:
            clash = [s.display for s in scanned.shadowed if s.stem == wanted and s.ambiguous]
            if clash:
                raise UsageError(ambiguous_message(wanted, source.display, clash))
            return source
    if "/" not in wanted:
        named = [s for s in scanned.found if s.stem.rsplit("/", 1)[-1] == wanted]
        if len(named) == 1:
            return named[0]
        if named:
            shown = ", ".join(s.stem for s in named[:10]) + (f" and {len(named) - 10} more" if len(named) > 10 else "")
            raise UsageError(f"stem {wanted!r} names {len(named)} documents ({shown}); give the whole id")
    for item in scanned.left_out:
        if item.stem == wanted or (not item.folder and _id_of_display(item.display, sources_dir) == wanted):
            raise UsageError(f"{item.display} is not chunked: {item.message}")
    for ext in EXTENSIONS:
        folder = sources_dir / f"{wanted}{ext}"
        if os.path.isdir(folder):
            raise UsageError(f"no source for stem '{wanted}': {display_path(folder)} is a folder, not a file")
    names = [s.stem for s in scanned.found]
    close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.6)
    if not close:
        folded = wanted.casefold()
        close = [n for n in names if n.casefold() == folded or n.rsplit("/", 1)[-1].casefold() == folded][:3]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    where = display_path(sources_dir)
    exts = ", ".join(EXTENSIONS)
    raise UsageError(
        f"no source for stem '{wanted}': no {wanted} with {exts} in {where}/ or {where}/_output/auto/{hint}"
    )


def _id_of_display(display: str, sources_dir: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(display), os.path.abspath(sources_dir))
    except ValueError:
        return ""
    return os.path.splitext(rel)[0].replace(os.sep, "/")


def ambiguous_message(stem: str, chosen: str, others: Iterable[str]) -> str:
    """Why an id that several different file names give is not chunked."""
    paths = ", ".join([chosen, *others])
    return f"document id {stem!r} is given by several files ({paths}); rename all but one"


def check_inside(path: Path, root: Path, display: str) -> None:
    """Raise :class:`SourceError` if ``path`` (through symlinks) resolves outside ``root``."""
    try:
        real = path.resolve()
        real_root = root.resolve()
    except (OSError, RuntimeError):
        raise SourceError("the source is a symlink loop; refused", path=display) from None
    if real == real_root or real_root in real.parents:
        return
    root_name = display_path(root).rstrip("/") + "/"
    raise SourceError(
        f"symlink points outside {root_name} (to {real}); refused: copy the file into {root_name} instead",
        path=display,
    )


def _fold(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def case_collisions(stem: str, out_dir: Path) -> list[str]:
    """Ids whose output folder equals ``stem``'s on a case-insensitive file system (macOS,
    Windows): entries of ``out_dir`` along the id's path that differ from it but equal it
    NFC-normalised and case-folded. A missing ``out_dir`` has none."""
    return collision_index([stem], out_dir, with_stems=False).get(stem, [])


def collision_index(stems: Iterable[str], out_dir: Path, *, with_stems: bool = True) -> dict[str, list[str]]:
    """:func:`case_collisions` of every id at once, listing each output folder once. With
    ``with_stems`` the ids collide with each other too (two sources whose folders would be one),
    not only with the entries already in ``out_dir``."""
    stems = list(stems)
    names: set[str] = set(stems) if with_stems else set()
    listed: set[str] = set()
    for stem in stems:
        parts = stem.split("/")
        for depth in range(len(parts)):
            parent = "/".join(parts[:depth])
            if parent in listed:
                continue
            listed.add(parent)
            try:
                entries = os.listdir(out_dir / parent if parent else out_dir)
            except OSError:
                continue
            names.update(f"{parent}/{e}" if parent else e for e in entries)
    groups: dict[str, list[str]] = {}
    for name in sorted(names):
        groups.setdefault(_fold(name), []).append(name)
    out: dict[str, list[str]] = {}
    for stem in stems:
        parts = stem.split("/")
        clashes: list[str] = []
        for depth in range(1, len(parts) + 1):
            prefix = "/".join(parts[:depth])
            clashes.extend(n for n in groups.get(_fold(prefix), []) if n != prefix)
        out[stem] = clashes
    return out


def check_output_parents(out_dir: Path, stem: str) -> None:
    """Refuse to write below a symlinked folder of ``out_dir`` on the way to a document's folder
    (``chunks/guides`` linked elsewhere would put ``guides/x`` outside ``chunks/``)."""
    from chunker.errors import OutputError

    folder = out_dir
    for part in stem.split("/")[:-1]:
        folder = folder / part
        if os.path.islink(folder):
            raise OutputError(
                "an output folder on the way is a symlink; refused (chunker writes only into real folders)",
                path=display_path(folder),
            )


def document_folders(out_dir: Path) -> list[str]:
    """Ids of the document folders below ``out_dir`` (folders holding a meta.json), sorted.
    Hidden folders, symlinks and the export/eval folders at the top are not searched; at most
    :data:`MAX_DEPTH` levels."""
    found: list[str] = []
    stack: list[tuple[str, str, int]] = [(str(out_dir), "", 0)]
    while stack:
        folder, prefix, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
                continue
            if depth == 0 and entry.name in RESERVED_IDS:
                continue
            stem = prefix + entry.name
            if os.path.isfile(os.path.join(entry.path, "meta.json")):
                found.append(stem)
            if depth < MAX_DEPTH:
                stack.append((entry.path, stem + "/", depth + 1))
    return sorted(found)
