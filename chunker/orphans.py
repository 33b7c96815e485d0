"""Document folders whose source is gone, and what killed runs left in the output folder.

Only folders chunker provably wrote (:func:`chunker.leftovers.owned`) are ever removed; with
``--check`` what a run would remove is reported as stale instead. Folders that merely hold a
meta.json, and ownerless artifacts, are left alone and said out loud.
"""

from __future__ import annotations

from pathlib import Path

from chunker.errors import EXIT_OK, EXIT_VALIDATION, ChunkerError
from chunker.output_tree import OutputWalk, walk_output
from chunker.summary import DocOutcome, output_display


def orphan_outcomes(
    out_dir: Path, stems: set[str], check: bool, candidates: list[Path] | None = None
) -> list[DocOutcome]:
    """Orphaned document folders removed, or with ``check`` reported as stale. ``candidates``:
    :func:`orphan_candidates`, when the caller has them."""
    if not check:
        return remove_orphans(out_dir, stems, candidates)
    stale: list[DocOutcome] = []
    for entry in orphan_folders(out_dir, stems, candidates):
        display = output_display(entry)
        stem = _doc_id(entry, out_dir)
        message = f"{display}: stale: " + (
            f"{_RESERVED_NOTE} (a run would remove its artifacts)"
            if _in_reserved(stem)
            else "no source document has its id now (the file is gone or renamed, or include/exclude leaves it "
            "out; a run would remove the folder)"
        )
        stale.append(DocOutcome(stem, display, "stale", EXIT_VALIDATION, message=message))
    return stale


def gone_outcomes(
    out_dir: Path, stems: set[str], check: bool, notes: list[str], walked: OutputWalk | None = None
) -> list[DocOutcome]:
    """:func:`orphan_outcomes` and, added to ``notes``, :func:`foreign_folder_notes`, from one walk
    of ``out_dir`` (``walked``, when the caller has it; the notes are made first: removing orphans
    leaves the folders they name)."""
    candidates = orphan_candidates(out_dir, stems, walked)
    notes.extend(foreign_folder_notes(out_dir, stems, candidates))
    outcomes = orphan_outcomes(out_dir, stems, check, candidates)
    notes.extend(
        f"{o.display}: removed {_RESERVED_NOTE}; the folder's other files stay"
        for o in outcomes
        if o.status == "removed" and _in_reserved(o.stem)
    )
    return outcomes


def kept_orphan_notes(out_dir: Path, stems: set[str], walked: OutputWalk | None = None) -> list[str]:
    """With ``--keep-orphans``: the document folders a run would have removed, said once (a kept
    folder still feeds whatever reads ``chunks/``)."""
    kept = orphan_folders(out_dir, stems, orphan_candidates(out_dir, stems, walked))
    if not kept:
        return []
    shown = ", ".join(output_display(p) for p in kept[:5]) + (" ..." if len(kept) > 5 else "")
    return [f"kept {len(kept)} output folder(s) whose id no source document has now (--keep-orphans): {shown}"]


def foreign_folder_notes(out_dir: Path, stems: set[str], candidates: list[Path] | None = None) -> list[str]:
    """Folders holding a meta.json whose source is gone but that chunker provably did not write:
    left alone, said out loud. ``candidates``: :func:`orphan_candidates`, when the caller has them."""
    from chunker.leftovers import owned

    notes: list[str] = []
    for entry in orphan_candidates(out_dir, stems) if candidates is None else candidates:
        if not owned(entry):
            notes.append(
                f"{output_display(entry)}: holds a meta.json but no report.json of chunker's that matches it: "
                "not a document folder of chunker's, left alone"
            )
        elif not owned(entry, _doc_id(entry, out_dir)):
            notes.append(
                f"{output_display(entry)}: a document folder of another output folder (its meta.json records "
                "another id): left alone"
            )
    return notes


def leftover_outcomes(
    out_dir: Path, check: bool, notes: list[str], walked: OutputWalk | None = None
) -> list[DocOutcome]:
    """Temporary files of killed runs (removed; with ``check`` stale) and ownerless artifacts
    (reported: nothing proves they are ours). ``walked``: the walk of ``out_dir``, when the caller
    has it (made before orphans were removed: a temporary file removed with its folder is not
    removed again, and an orphan's folder holds a meta.json, so it is never ownerless)."""
    from chunker.leftovers import remove_temporary

    if not out_dir.is_dir():
        return []
    found = walk_output(out_dir) if walked is None else walked
    stale: list[DocOutcome] = []
    if check:
        for path in found.temporary:
            display = output_display(path)
            message = f"{display}: stale: a temporary file left by a killed run (a run would remove it)"
            stale.append(DocOutcome(path.parent.name, display, "stale", EXIT_VALIDATION, message=message))
    else:
        removed = remove_temporary(found.temporary)
        if removed:
            shown = ", ".join(output_display(p) for p in removed[:5]) + (" ..." if len(removed) > 5 else "")
            notes.append(f"removed {len(removed)} temporary file(s) left by a killed run: {shown}")
    notes.extend(
        f"{output_display(folder)}: holds chunks.json or report.json but no meta.json (left by a killed run?): "
        "left alone; remove it, or restore its source and run again"
        for folder in found.ownerless
    )
    return stale


_RESERVED_NOTE = "artifacts of an earlier release, whose id is now one of chunker's own folders (_view, _export, _eval)"


def _in_reserved(stem: str) -> bool:
    from chunker.sources import RESERVED_IDS

    return stem.split("/", 1)[0] in RESERVED_IDS


def orphan_candidates(out_dir: Path, stems: set[str], walked: OutputWalk | None = None) -> list[Path]:
    """Folders below ``out_dir`` holding a meta.json whose id is not in ``stems``, deepest first, and
    the document folders an earlier release wrote into chunker's own folders (``chunks/_view`` of a
    ``sources/_view.md``, :attr:`OutputWalk.reserved`) that it provably wrote: their ids are never
    chunked again, and whatever reads ``chunks/*/chunks.json`` would read them. ``walked``: the walk of
    ``out_dir``, when the caller has it."""
    from chunker.leftovers import owned

    if not out_dir.is_dir():
        return []
    found = walk_output(out_dir) if walked is None else walked
    gone = [out_dir / stem for stem in found.documents if stem not in stems]
    gone += [out_dir / stem for stem in found.reserved if owned(out_dir / stem, stem)]
    return sorted(gone, key=lambda p: (-len(p.parts), p))


def orphan_folders(out_dir: Path, stems: set[str], candidates: list[Path] | None = None) -> list[Path]:
    """Document folders below ``out_dir`` whose id is not in ``stems`` and that chunker provably
    wrote (report.json records the sha256 of meta.json), deepest first (a folder's own orphaned
    sub-documents go before it). Only these are ever removed. ``candidates``: :func:`orphan_candidates`."""
    from chunker.leftovers import owned

    if candidates is None:
        candidates = orphan_candidates(out_dir, stems)
    return [entry for entry in candidates if owned(entry, _doc_id(entry, out_dir))]


def _doc_id(folder: Path, out_dir: Path) -> str:
    return folder.relative_to(out_dir).as_posix()


def out_dir_of(folder: Path, stem: str) -> Path:
    """The output root of a document folder (``chunks/`` for ``chunks/a/b`` and id ``a/b``)."""
    root = folder
    for _ in stem.split("/"):
        root = root.parent
    return root


def remove_document_folder(folder: Path, out_dir: Path) -> None:
    """Remove a document's artifacts; the folder goes too unless other documents' folders lie
    in it, and so do the folders above it that are left empty (up to ``out_dir``)."""
    from chunker.folder_removal import remove_folder

    stem = _doc_id(folder, out_dir)
    remove_folder(folder, output_display(folder), keep_subfolders=True, keep_others=_in_reserved(stem))
    parent = folder.parent
    root = out_dir.resolve()
    while parent.resolve() != root and root in parent.resolve().parents:
        try:
            parent.rmdir()  # only when empty
        except OSError:
            break
        parent = parent.parent


def remove_orphans(out_dir: Path, stems: set[str], candidates: list[Path] | None = None) -> list[DocOutcome]:
    """Remove document folders whose source is gone (only folders that hold our meta.json)."""
    removed: list[DocOutcome] = []
    for entry in orphan_folders(out_dir, stems, candidates):
        display = output_display(entry)
        stem = _doc_id(entry, out_dir)
        try:
            remove_document_folder(entry, out_dir)
            removed.append(DocOutcome(stem, display, "removed", EXIT_OK))
        except ChunkerError as exc:
            removed.append(DocOutcome(stem, display, "failed", exc.exit_code, message=str(exc)))
    return removed
