"""Find source documents by stem, safely.

A stem is a file name without extension, never a path: :func:`validate_stem`
refuses anything that could leave ``sources/`` or ``chunks/`` (``..``, ``/``,
absolute paths, globs, NUL, over-long names). Lookup order for a stem, shared
by :func:`find_source` and :func:`discover`:

1. ``sources/_output/auto/<stem>.md``
2. ``sources/<stem>.md``
3. ``sources/_output/auto/<stem>.txt``
4. ``sources/<stem>.txt``
5. deeper folders of ``sources/``: ``.md`` before ``.txt`` in one folder. A stem found in two
   different subfolders is refused (:func:`find_source` raises, a full run fails that stem)
   rather than chosen by path order; every file left out is listed by :func:`scan`.

Hidden files and folders (name starting with ``.``) are ignored, and so is
``sources/_output/`` apart from its ``auto/`` folder.
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from chunker.errors import SourceError, UsageError

__all__ = [
    "EXTENSIONS",
    "STEM_RE",
    "Scan",
    "Shadowed",
    "SourceFile",
    "ambiguous_message",
    "case_collisions",
    "check_inside",
    "collision_index",
    "discover",
    "find_source",
    "scan",
    "shown_path",
    "validate_stem",
]

STEM_MAX = 100
STEM_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,99}\Z")
"""A safe stem: ASCII letters, digits, ``.``, ``_``, ``-``; starts alphanumeric; at most 100 characters.
A stem must also not contain ``..`` (checked by :func:`validate_stem`)."""

EXTENSIONS: tuple[str, ...] = (".md", ".txt")
AUTO_DIR = ("_output", "auto")

_GLOB_CHARS = frozenset("*?[]{}")


def _show(stem: str) -> str:
    """The stem for a message: quoted, escaped, and shortened when long."""
    shown = repr(stem[:60])
    return f"{shown}... ({len(stem)} characters)" if len(stem) > 60 else shown


def validate_stem(stem: str) -> str:
    """Return ``stem`` if it is a safe document name, else raise :class:`UsageError` saying why."""
    hint = "give the name of a file in sources/ without its extension, e.g. --stem guide"
    if not stem:
        raise UsageError(f"the stem is empty; {hint}")
    shown = _show(stem)
    if "\x00" in stem:
        raise UsageError(f"invalid stem {shown}: it contains a NUL character")
    if stem.startswith(("/", "\\")) or os.path.isabs(stem) or re.match(r"[A-Za-z]:[\\/]", stem):
        raise UsageError(f"invalid stem {shown}: a stem is a file name, not an absolute path; {hint}")
    if "/" in stem or "\\" in stem:
        raise UsageError(f"invalid stem {shown}: a stem is a file name, not a path (no '/' or '\\'); {hint}")
    if ".." in stem:
        raise UsageError(f"invalid stem {shown}: it must not contain '..'")
    if len(stem) > STEM_MAX:
        raise UsageError(f"invalid stem {shown}: at most {STEM_MAX} characters are allowed")
    if any(c in _GLOB_CHARS for c in stem):
        raise UsageError(f"invalid stem {shown}: wildcards are not expanded; name one document")
    if not STEM_RE.match(stem):
        raise UsageError(
            f"invalid stem {shown}: use only ASCII letters, digits, '.', '_' and '-', starting with a letter or digit"
        )
    return stem


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One source document found under ``sources/``."""

    stem: str
    """File name without extension; the name of its output folder."""
    path: Path
    """Path as found (symlinks not resolved)."""
    display: str
    """Path for messages: relative to the working directory where possible, e.g. ``sources/x.md``."""


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


def _candidates(sources_dir: Path, stem: str) -> list[Path]:
    auto = sources_dir.joinpath(*AUTO_DIR)
    out: list[Path] = []
    for ext in EXTENSIONS:
        out.append(auto / f"{stem}{ext}")
        out.append(sources_dir / f"{stem}{ext}")
    return out


def _is_candidate(path: Path) -> bool:
    """A file, or a symlink (even dangling or pointing outside: reading it reports why it fails)."""
    return os.path.islink(path) or os.path.isfile(path)


def _require_dir(sources_dir: Path) -> None:
    if not sources_dir.is_dir():
        raise UsageError(
            f"source folder {display_path(sources_dir)} not found; run from the folder that holds sources/"
        )


_Rank = tuple[int, int, int, str]


def _walk(
    start: Path, sources_dir: Path, top_bias: int, ranked: dict[str, list[tuple[_Rank, Path]]], refused: list[str]
) -> None:
    """Rank every source file below ``start``; ``top_bias`` orders the top folders (auto/ 0, sources/ 1)."""
    for root, dirs, files in os.walk(start, followlinks=False):
        here = Path(root)
        rel = here.relative_to(sources_dir).parts
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if here == sources_dir:
            # _output/ is searched only through its auto/ folder, walked separately.
            dirs[:] = [d for d in dirs if d != AUTO_DIR[0]]
        top = here == start
        for name in sorted(files):
            stem, ext = os.path.splitext(name)
            if name.startswith(".") or ext not in EXTENSIONS:
                continue
            path = here / name
            try:
                validate_stem(stem)
            except UsageError:
                refused.append(display_path(path))
                continue
            ext_rank = EXTENSIONS.index(ext)
            rank = (0, ext_rank * 2 + top_bias, 0, "") if top else (1, ext_rank, len(rel), path.as_posix())
            ranked.setdefault(stem, []).append((rank, path))


@dataclass(frozen=True, slots=True)
class Shadowed:
    """A source file left out because another file has the same stem."""

    stem: str
    display: str
    chosen: str
    """Display path of the file that is chunked under this stem."""
    ambiguous: bool
    """Both files lie in different subfolders of ``sources/``: only the paths' sort order would choose
    between them, so the run refuses to guess (an error); otherwise the documented lookup order chose."""


@dataclass(frozen=True, slots=True)
class Scan:
    """What :func:`scan` found under ``sources/``."""

    found: list[SourceFile]
    """One source per stem, by lookup order, sorted by stem."""
    refused: list[str]
    """Display paths of files whose name is not a valid stem."""
    shadowed: list[Shadowed]
    """Files with the stem of a file that comes first in lookup order."""


def scan(sources_dir: Path) -> Scan:
    """Every source document under ``sources_dir``, and the files that will not be chunked."""
    _require_dir(sources_dir)
    ranked: dict[str, list[tuple[_Rank, Path]]] = {}
    refused: list[str] = []
    auto = sources_dir.joinpath(*AUTO_DIR)
    if auto.is_dir():
        _walk(auto, sources_dir, 0, ranked, refused)
    _walk(sources_dir, sources_dir, 1, ranked, refused)
    found: list[SourceFile] = []
    shadowed: list[Shadowed] = []
    for stem, candidates in sorted(ranked.items()):
        candidates.sort()
        (best_rank, best), *others = candidates
        chosen = _source_file(stem, best)
        found.append(chosen)
        for rank, path in others:
            ambiguous = best_rank[0] == 1 and rank[0] == 1 and path.parent != best.parent
            shadowed.append(Shadowed(stem, display_path(path), chosen.display, ambiguous))
    return Scan(found, sorted(set(refused)), shadowed)


def discover(sources_dir: Path) -> list[SourceFile]:
    """Every source document under ``sources_dir``, one per stem (lookup order wins), sorted by stem.

    Files whose name is not a valid stem, and files with the stem of one that comes first, are
    left out; :func:`scan` lists them.
    """
    return scan(sources_dir).found


def find_source(sources_dir: Path, stem: str) -> SourceFile:
    """The source of ``stem`` by lookup order; :class:`UsageError` naming close matches when missing."""
    validate_stem(stem)
    for path in _candidates(sources_dir, stem):
        if _is_candidate(path):
            return _source_file(stem, path)
    _require_dir(sources_dir)
    scanned = scan(sources_dir)
    for source in scanned.found:
        if source.stem == stem:
            clash = [s.display for s in scanned.shadowed if s.stem == stem and s.ambiguous]
            if clash:
                raise UsageError(ambiguous_message(stem, source.display, clash))
            return source
    folders = [p for p in _candidates(sources_dir, stem) if p.is_dir()]
    if folders:
        raise UsageError(f"no source for stem '{stem}': {display_path(folders[0])} is a folder, not a file")
    names = [s.stem for s in scanned.found]
    close = difflib.get_close_matches(stem, names, n=3, cutoff=0.6)
    if not close:
        folded = stem.casefold()
        close = [n for n in names if n.casefold() == folded][:3]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    where = display_path(sources_dir)
    raise UsageError(
        f"no source for stem '{stem}': looked for {stem}.md and {stem}.txt in {where}/_output/auto/ and {where}/{hint}"
    )


def ambiguous_message(stem: str, chosen: str, others: Iterable[str]) -> str:
    """Why a stem found in several subfolders of ``sources/`` is not chunked."""
    paths = ", ".join([chosen, *others])
    return f"stem {stem!r} names several files in subfolders of sources/ ({paths}); rename all but one"


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
    """Names in ``out_dir`` that differ from ``stem`` but equal it NFC-normalised and case-folded.

    On case-insensitive file systems (macOS, Windows) such a name and ``stem`` are one folder.
    Any entry counts (a file of that name collides as well); a missing ``out_dir`` has none.
    """
    return collision_index([stem], out_dir, with_stems=False).get(stem, [])


def collision_index(stems: Iterable[str], out_dir: Path, *, with_stems: bool = True) -> dict[str, list[str]]:
    """:func:`case_collisions` of every stem at once, with one listing of ``out_dir``. With
    ``with_stems`` the stems collide with each other too (two sources whose folders would be one),
    not only with the entries already in ``out_dir``."""
    stems = list(stems)
    try:
        names = set(os.listdir(out_dir))
    except OSError:
        names = set()
    if with_stems:
        names.update(stems)
    groups: dict[str, list[str]] = {}
    for name in sorted(names):
        groups.setdefault(_fold(name), []).append(name)
    return {stem: [n for n in groups.get(_fold(stem), []) if n != stem] for stem in stems}
