"""The source of one ``--stem``: an id, or a bare file name when only one document has it.

A flat id whose file is there by name is found without walking the tree; anything else is
looked up in a full :func:`~chunker.source_walk.scan`, and a miss names candidates or close matches.
"""

from __future__ import annotations

import difflib
import os
from collections import Counter
from pathlib import Path

from chunker.doc_ids import id_segment, validate_stem
from chunker.errors import UsageError
from chunker.errors import shown as quoted
from chunker.path_display import display_path
from chunker.selection import Selection
from chunker.source_walk import Scan, scan
from chunker.sources import (
    AUTO_DIR,
    EXTENSIONS,
    RESERVED_IDS,
    SourceFile,
    ambiguous_message,
    require_dir,
    source_file,
)


def _direct(sources_dir: Path, stem: str) -> SourceFile | None:
    """The file of the flat id ``stem`` by lookup order when its name is the id itself and no
    other name in its folder gives the same id (else ``None``: the full scan decides)."""
    auto = sources_dir.joinpath(*AUTO_DIR)
    for ext in EXTENSIONS:
        for root in (auto, sources_dir):
            path = root / f"{stem}{ext}"
            if os.path.islink(path) or os.path.isfile(path):
                return None if _namesakes(auto, stem) or _namesakes(sources_dir, stem) else source_file(stem, path)
    return None


def _flat(folder: Path) -> bool:
    """Whether ``folder`` holds no folder a document could lie in (only files and hidden entries):
    then a file there by name is the only document of that name."""
    try:
        with os.scandir(folder) as entries:
            return not any(e.name[:1] != "." and e.is_dir() for e in entries)
    except OSError:
        return False


def by_name(stem: str) -> bool:
    """Whether ``stem`` was given with ``--stem``: a file name, which every document of that name
    answers to (the one whose id it also is among them), not an id."""
    return getattr(stem, "option", "") == "--stem"


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


class Wanted(str):
    """A ``--stem`` or ``--doc`` value that remembers its option, so a message names the option the
    user typed (``--doc 'guides/x': ...``), not the other one."""

    option: str = ""

    def __new__(cls, value: str, option: str) -> Wanted:
        made = super().__new__(cls, value)
        made.option = option
        return made


def label(stem: str) -> str:
    """``--doc 'guides/x'`` for a value given with an option (:class:`Wanted`), else ``document 'x'``."""
    option = getattr(stem, "option", "")
    return f"{option} {quoted(str(stem), 64)}" if option else f"document {quoted(str(stem), 64)}"


def find_sources(sources_dir: Path, stems: list[str], selection: Selection | None = None) -> list[SourceFile]:
    """:func:`find_source` of each of ``stems`` (repeats once), the tree scanned at most once: 3,000
    ``--doc`` ids in a tree scanned it 3,000 times (over 300 s)."""
    scans: list[Scan] = []
    return [find_source(sources_dir, stem, selection, scans) for stem in dict.fromkeys(stems)]


def find_source(
    sources_dir: Path, stem: str, selection: Selection | None = None, scans: list[Scan] | None = None
) -> SourceFile:
    """The source of ``stem`` (an id, or a bare file name when only one document has it);
    :class:`UsageError` naming candidates or close matches otherwise. ``scans`` keeps the scan of the
    tree for the next call (:func:`find_sources`)."""
    wanted = _validated(stem, sources_dir)  # a plain str from here on: it becomes the SourceFile's id
    selection = selection or Selection()
    if "/" not in wanted and wanted.casefold() not in RESERVED_IDS | {AUTO_DIR[0]}:
        direct = _direct(sources_dir, wanted)
        name = direct.path.name if direct is not None else ""
        alone = not by_name(stem) or _flat(sources_dir)  # a name: no document below may share it
        if direct is not None and alone and selection.excluded(name) is None and selection.included(name):
            return direct
    scans = [] if scans is None else scans
    if not scans:
        require_dir(sources_dir)
        scans.append(scan(sources_dir, selection))
    scanned = scans[0]
    if by_name(stem) and "/" not in wanted:
        _refuse_shared_name(stem, [s for s in scanned.found if s.stem.rsplit("/", 1)[-1] == wanted])
    for source in scanned.found:
        if source.stem == wanted:
            clash = [s.display for s in scanned.shadowed if s.stem == wanted and s.ambiguous]
            if clash:
                raise UsageError(ambiguous_message(wanted, source.display, clash))
            return source
    if "/" not in wanted:
        named = [s for s in scanned.found if s.stem.rsplit("/", 1)[-1] == wanted]
        _refuse_shared_name(stem, named)
        if named:
            return named[0]
    for item in scanned.left_out:
        if item.stem == wanted or (not item.folder and _id_of_display(item.display, sources_dir) == wanted):
            raise UsageError(f"{item.display} is not chunked: {item.message}")
    for ext in EXTENSIONS:
        folder = sources_dir / f"{wanted}{ext}"
        if os.path.isdir(folder):
            raise UsageError(f"{label(stem)}: {display_path(folder)} is a folder, not a source file")
    raise _no_source(stem, [s.stem for s in scanned.found], sources_dir)


def _refuse_shared_name(stem: str, named: list[SourceFile]) -> None:
    """:class:`UsageError` listing the ids when several documents have the file name ``stem``."""
    if len(named) > 1:
        shown = ", ".join(s.stem for s in named[:10]) + (f" and {len(named) - 10} more" if len(named) > 10 else "")
        raise UsageError(f"{label(stem)} names {len(named)} documents ({shown}); select one with --doc ID")


def _no_source(stem: str, ids: list[str], sources_dir: Path) -> UsageError:
    """The error for an id or name that no source has: what was looked for, and the documents of a
    folder of that name, else the id a path or a name with its extension names, else the closest
    ids or names."""
    wanted = str(stem)
    inside = [doc_id for doc_id in ids if doc_id.startswith(f"{wanted}/")]
    if inside:  # a folder of documents: one document is selected by its id
        shown = ", ".join(inside[:3]) + (f" and {len(inside) - 3} more" if len(inside) > 3 else "")
        return UsageError(
            f"{label(stem)}: {display_path(sources_dir / wanted)} is a folder of {len(inside)} "
            f"document(s) ({shown}), not a document; select one with --doc ID, or run without --stem/--doc for all"
        )
    where = display_path(sources_dir)
    exts = ", ".join(EXTENSIONS)
    if "/" in wanted:
        looked = f"looked for {where}/{wanted} with {exts}, and below {where}/_output/auto/"
        looked = f"no source document has this id ({looked})"
    else:
        looked = f"no source document has this id or file name (looked for {wanted} with {exts} in {where}/ "
        looked += "and its folders)"
    as_id = id_of_path(wanted, sources_dir)
    note = ""
    if as_id != wanted:  # a path, or a name with its extension
        what = "a stem is a file name" if getattr(stem, "option", "") == "--stem" else "an id is the path below"
        note = f"; {what} {where + '/ ' if what.endswith('below') else ''}without extension"
        if as_id in ids:
            return UsageError(f"{label(stem)}: {looked}{note}: did you mean {as_id!r}?")
    close = close_matches(as_id, ids)
    if "/" not in as_id:  # a name was given: suggest names (with their id), which --stem takes
        names = Counter(doc_id.rsplit("/", 1)[-1] for doc_id in ids)
        close = [_as_name(doc_id, names) for doc_id in close]
    else:
        close = [repr(doc_id) for doc_id in close]
    if close:
        hint = f"did you mean {' or '.join(close) if len(close) < 3 else ', '.join(close[:-1]) + ' or ' + close[-1]}?"
    else:
        hint = f"no id of the {len(ids)} source document(s) is close to it"
    return UsageError(f"{label(stem)}: {looked}{note}; {hint}")


def close_matches(wanted: str, ids: list[str]) -> list[str]:
    """Up to 3 ids close to ``wanted``: whole ids; for a bare name, ids whose file name is close
    (``nexjs`` -> ``usage/nextjs``); else ids equal to it but for case."""
    close = difflib.get_close_matches(wanted, ids, n=3, cutoff=0.6)
    if not close and "/" not in wanted:
        by_name: dict[str, list[str]] = {}
        for doc_id in ids:
            by_name.setdefault(doc_id.rsplit("/", 1)[-1], []).append(doc_id)
        named = difflib.get_close_matches(wanted, list(by_name), n=3, cutoff=0.7)
        close = [doc_id for name in named for doc_id in by_name[name]][:3]
    if not close:
        folded = wanted.casefold()
        close = [n for n in ids if n.casefold() == folded or n.rsplit("/", 1)[-1].casefold() == folded][:3]
    return close


def _as_name(doc_id: str, names: Counter[str]) -> str:
    """``'nextjs' (usage/nextjs)`` when no other document has that file name, else the id itself."""
    name = doc_id.rsplit("/", 1)[-1]
    if name == doc_id or names[name] > 1:
        return repr(doc_id)
    return f"{name!r} ({doc_id})"


def _id_of_display(display: str, sources_dir: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(display), os.path.abspath(sources_dir))
    except ValueError:
        return ""
    return os.path.splitext(rel)[0].replace(os.sep, "/")


def _validated(stem: str, sources_dir: Path) -> str:
    """``stem`` as an id (:func:`~chunker.doc_ids.validate_stem`); refused, the message names the id of
    the source file it names as a path (``--doc ../docs/en/a.md``), if it names one."""
    try:
        return str(validate_stem(stem))
    except UsageError as exc:
        meant = _id_of_file(str(stem), sources_dir)
        if meant is None:
            raise
        raise UsageError(
            f"{exc}; that is the file of the document {meant!r}: select it with --doc {quoted(meant)}"
        ) from None


def _id_of_file(value: str, sources_dir: Path) -> str | None:
    """The id of the source file ``value`` names as a path from the working directory (``../docs/en/a.md``,
    an absolute path) when it lies below ``sources_dir``, else None: what a value refused as an id meant."""
    try:
        path = Path(value)
        if not path.is_file():
            return None
        rel = os.path.relpath(path.resolve(), sources_dir.resolve()).replace(os.sep, "/")
    except (OSError, ValueError):
        return None
    base, ext = os.path.splitext(rel)
    if rel.startswith("../") or ext.lower() not in EXTENSIONS:
        return None
    parts = [id_segment(part) for part in base.split("/")]
    return None if None in parts else "/".join(p for p in parts if p is not None)


def id_of_path(pattern: str, sources_dir: Path | None = None) -> str:
    """``pattern`` (a ``documents:`` key, a ``--stem``) read as a path to a source: leading ``./``
    and the sources folder's name or path removed, ``\\`` as ``/``, a source extension dropped
    (``./sources/a/b.md`` -> ``a/b``)."""
    text = pattern.replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    prefixes = ["sources/"]
    if sources_dir is not None:
        prefixes[:0] = [f"{sources_dir.as_posix().rstrip('/')}/", f"{sources_dir.name}/"]
    for prefix in prefixes:
        if prefix != "/" and text.startswith(prefix):
            text = text[len(prefix) :]
            break
    base, ext = os.path.splitext(text)
    return base if base and ext.lower() in EXTENSIONS else text


def selected(stems: list[str] | None, docs: list[str] | None) -> tuple[str, ...]:
    """The documents a command is limited to: ``--stem`` names (a file name without extension, never a
    path) and ``--doc`` ids (a path below sources/ without extension), in the order given."""
    for stem in stems or ():
        if "/" in stem:
            raise UsageError(
                f"--stem {quoted(stem)}: a stem is a file name, not a path; "
                f"select the document at that path with --doc {quoted(id_of_path(stem))} (its id: the path "
                "below sources/ without extension)"
            )
    return (*(Wanted(s, "--stem") for s in stems or ()), *(Wanted(d, "--doc") for d in docs or ()))
