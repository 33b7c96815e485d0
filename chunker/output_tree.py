"""The ``chunks/`` tree as a whole: its document folders, ids whose folders collide on a
case-insensitive file system, and symlinked folders on the way to a document's folder."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from chunker.errors import ChunkerError, OutputError, UsageError
from chunker.path_display import display_path
from chunker.sources import MAX_DEPTH, RESERVED_IDS, SourceFile


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


def collision_message(stem: str, collisions: Sequence[str]) -> str | None:
    """What the ``case-collision`` warning of ``stem`` says: for each clash (:func:`collision_index`),
    the part of its output folder that clashes, the folder itself (``Docs/a`` and ``docs/a``) or a
    folder it lies in (``faq/Actions`` in ``faq``, beside the folder of a document ``FAQ``)."""
    if not collisions:
        return None
    parts = stem.split("/")
    by_folder: dict[str, list[str]] = {}
    for other in collisions:
        by_folder.setdefault("/".join(parts[: other.count("/") + 1]), []).append(other)
    notes = [
        (f"output folder {stem!r}" if folder == stem else f"output folder {stem!r} lies in {folder!r}, which")
        + f" differs only in case from {', '.join(map(repr, others))}"
        for folder, others in by_folder.items()
    ]
    return "; ".join(notes) + ": on macOS and Windows they are the same folder"


def check_output_parents(out_dir: Path, stem: str) -> None:
    """Refuse to write below a symlinked folder of ``out_dir`` on the way to a document's folder
    (``chunks/guides`` linked elsewhere would put ``guides/x`` outside ``chunks/``)."""

    folder = out_dir
    for part in stem.split("/")[:-1]:
        folder = folder / part
        if os.path.islink(folder):
            raise OutputError(
                "an output folder on the way is a symlink; refused (chunker writes only into real folders)",
                path=display_path(folder),
            )


@dataclass(slots=True)
class OutputWalk:
    """What one walk of the output folder found (:func:`walk_output`)."""

    documents: list[str] = field(default_factory=list)
    """Ids of the document folders (folders holding a meta.json), sorted."""
    temporary: list[Path] = field(default_factory=list)
    """The writer's temporary files in folders below the top (:data:`~chunker.leftovers.TEMPORARY`), sorted."""
    ownerless: list[Path] = field(default_factory=list)
    """Folders below the top with chunks.json or report.json but no meta.json, sorted."""
    reserved: list[str] = field(default_factory=list)
    """Ids of the document folders inside chunker's own folders at the top (``_view``, ``_export``,
    ``_eval``): left by a release that still chunked documents of those names (``sources/_view.md``),
    sorted. Below an export folder (``_export`` holding the export's manifest) only ``_export`` itself."""


def walk_output(out_dir: Path) -> OutputWalk:
    """The document folders, temporary files and ownerless artifacts below ``out_dir``, listing each
    folder once. Hidden folders, symlinks and the export/eval folders at the top are not searched;
    at most :data:`~chunker.sources.MAX_DEPTH` levels."""
    from chunker.leftovers import ARTIFACTS, TEMPORARY

    found = OutputWalk()
    stack: list[tuple[str, str, int, bool]] = [(str(out_dir), "", 0, False)]
    while stack:
        folder, prefix, depth, reserved = stack.pop()
        documents = found.reserved if reserved else found.documents
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            if depth and os.path.isfile(os.path.join(folder, "meta.json")):
                documents.append(prefix[:-1])  # listed as a document folder all the same
            continue
        names: set[str] = set()
        meta = False
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name.startswith("."):
                    continue
                stem = prefix + entry.name
                if depth == 0 and entry.name in RESERVED_IDS:
                    _reserved_top(entry, found, stack)
                elif depth < MAX_DEPTH:
                    stack.append((entry.path, stem + "/", depth + 1, reserved))
                elif os.path.isfile(os.path.join(entry.path, "meta.json")):
                    documents.append(stem)  # not listed: too deep to search below
                continue
            names.add(entry.name)
            if not depth:
                continue
            if entry.name == "meta.json":
                meta = _is_file(entry)
            elif TEMPORARY.match(entry.name) and entry.is_file(follow_symlinks=False) and not reserved:
                found.temporary.append(Path(entry.path))
        if depth and meta:
            documents.append(prefix[:-1])
        if depth and not reserved and "meta.json" not in names and any(name in names for name in ARTIFACTS):
            found.ownerless.append(Path(folder))
    found.documents.sort()
    found.temporary.sort()
    found.ownerless.sort()
    found.reserved.sort()
    return found


def _reserved_top(entry: os.DirEntry[str], found: OutputWalk, stack: list[tuple[str, str, int, bool]]) -> None:
    """One of chunker's own folders at the top: searched for the document folders of an earlier
    release (``reserved``), all of it, save an export folder (its manifest says so), whose folders
    are the exports of every id: there only the folder itself is looked at (one stat a run)."""
    from chunker.export_manifest import MANIFEST

    if os.path.isfile(os.path.join(entry.path, MANIFEST)):
        if os.path.isfile(os.path.join(entry.path, "meta.json")):
            found.reserved.append(entry.name)
        return
    stack.append((entry.path, entry.name + "/", 1, True))


def _is_file(entry: os.DirEntry[str]) -> bool:
    """``os.path.isfile`` of the entry (through a symlink)."""
    try:
        return entry.is_file()
    except OSError:
        return False


def document_folders(out_dir: Path) -> list[str]:
    """Ids of the document folders below ``out_dir`` (folders holding a meta.json), sorted.
    Hidden folders, symlinks and the export/eval folders at the top are not searched; at most
    :data:`~chunker.sources.MAX_DEPTH` levels."""
    return walk_output(out_dir).documents


def refuse_output_in_sources(sources_dir: Path, out_dir: Path) -> tuple[Path, Path]:
    """The output folder may not be the sources folder or lie inside it: artifacts (and exported
    Markdown) would land among the sources, and the next run would read them as documents. Both
    folders resolved."""
    from chunker.summary import output_display

    sources = _resolved(sources_dir, UsageError, "the sources folder")
    out = _resolved(out_dir, OutputError, "the output folder")
    if out == sources or sources in out.parents:
        raise UsageError(
            f"the output folder {output_display(out_dir)} lies inside the sources folder {sources_dir}: "
            "choose an output folder outside it (--out)"
        )
    return sources, out


def refuse_ids_over_sources(
    sources_dir: Path, out_dir: Path, resolved: tuple[Path, Path], documents: Iterable[SourceFile]
) -> None:
    """When the output folder holds the sources folder (``--out .`` beside ``sources/``), no
    document's folder may be the sources folder, hold it or lie in it: the document ``sources``
    (``sources/sources.md``) would write its artifacts among the sources (and over any file named
    like them there). A :class:`UsageError` naming the first such id. ``resolved``: both folders
    as :func:`refuse_output_in_sources` resolved them."""
    sources, out = resolved
    if out not in sources.parents:
        return
    rel = sources.relative_to(out).as_posix()
    for doc in documents:
        stem = doc.stem
        where = "be" if stem == rel else "hold" if rel.startswith(stem + "/") else ""
        where = where or ("lie in" if stem.startswith(rel + "/") else "")
        if where:
            raise UsageError(
                f"its output folder {display_path(out_dir / stem)} would {where} the sources folder "
                f"{display_path(sources_dir)}: choose an output folder that does not hold the sources folder (--out)",
                path=doc.display,
            )


def _resolved(folder: Path, error: type[ChunkerError], what: str) -> Path:
    """``folder`` with its symlinks resolved; a symlink loop on the way is ``error`` naming it."""
    try:
        return folder.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python before 3.13)
        raise error(f"{what} cannot be resolved ({exc}): a symlink loop? Fix or remove it", path=str(folder)) from None
