"""Export the chunks of a run for other tools: one Markdown file per chunk, or JSON Lines.

Reads ``<chunks>/<stem>/chunks.json`` and ``meta.json`` as the main command wrote them (it does
not chunk: run ``chunker`` first) and writes, under ``<out>`` (the CLI's default: ``_export`` in the chunks folder):

File names are collision-free by construction: a folder of the id named like an exported file
(``001-intro.md``, ``data.jsonl``) is written with a ``+`` after it
(:func:`~chunker.export_manifest.export_folder`), so that no folder is a file's name and no two ids
share a folder or a file, in either format or both in one folder.

- ``md``: ``<out>/<stem>/NNN-<slug>.md`` per chunk: YAML frontmatter (kind, parent, parent_hash,
  section, section_path, ziffer, chunk_index, chunk_key, content_hash, page, then the document's
  own frontmatter fields under their own keys; a field whose name clashes goes under
  ``document``), a blank line, and the chunk's content_for_embedding. Files of earlier exports
  of that stem that the chunks no longer produce are removed (only those the manifest records).
- ``jsonl``: ``<out>/<stem>.jsonl``, one ``{"id", "text", "metadata"}`` object per chunk: id is
  the chunk_key, text the content_for_embedding, metadata everything else (plus parent,
  parent_hash, stem and the document's frontmatter under ``document``).

``<out>/.chunker-export.json`` lists the stems each format exported and the sha256 of every file
written; a full export removes the exports of listed stems that are no longer chunked (their
source is gone or switched off). Only a file the manifest records, with bytes unchanged since,
is ever overwritten or removed: any other file is left alone and reported, and a file to be
written that is someone else's stops the export unless forced (:mod:`chunker.ownership`).

Every file is written atomically and on disk before its rename (in batches synced at once:
:mod:`chunker.writer_batch`); the same chunks give the same bytes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from chunker.chunked import chunked_selection, chunked_stems, load_document
from chunker.errors import OutputError, UsageError
from chunker.export_manifest import (
    EXPORTED_MD,
    FORMATS,
    MANIFEST,
    ExportManifest,
    export_base,
    export_keys_by_stem,
    read_manifest,
)
from chunker.export_render import ChunkedDocument, Renderer, render, render_jsonl, render_markdown
from chunker.ownership import Files, exists, sha256_bytes

if TYPE_CHECKING:
    from chunker.writer_batch import SyncBatch


@dataclass(frozen=True, slots=True)
class ExportedDocument:
    """What the export wrote for one document."""

    stem: str
    written: tuple[Path, ...]
    removed: tuple[Path, ...] = ()
    """Files of earlier exports (written by an export, unedited since) that are no longer produced."""
    left_alone: tuple[Path, ...] = ()
    """Files named like exports that no export of this folder provably wrote: never touched."""
    unchanged: tuple[Path, ...] = ()
    """Files of :attr:`written` that already held the very bytes: not rewritten."""
    gone: bool = False
    """The document is no longer chunked (its export is removed); a document chunked into no chunk
    (frontmatter only) is exported, into no file in ``md``."""


# -- the export -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    """What an export will do to one document's files."""

    stem: str
    files: tuple[tuple[str, str], ...]
    """(key, sha256 of its bytes) of each file written: the bytes are rendered again to be written,
    so that an export holds one document's files at a time, not every document's."""
    stale: tuple[str, ...]
    """Files of earlier exports that are ours and no longer produced: removed."""
    left_alone: tuple[str, ...]
    """Files named like exports that are not provably ours: never touched, reported."""


def _listed_exports(out_dir: Path, base: str, fmt: str) -> list[str]:
    """Keys of the files that look like ``fmt`` exports of the document exported at ``base``
    (:func:`~chunker.export_manifest.export_base`), whoever wrote them."""
    if fmt == "jsonl":
        return [f"{base}.jsonl"] if exists(out_dir / f"{base}.jsonl") else []
    try:
        names = sorted(p.name for p in (out_dir / base).iterdir())
    except OSError:
        return []
    return [f"{base}/{name}" for name in names if EXPORTED_MD.match(name)]


def _plan(
    out_dir: Path,
    manifest: ExportManifest,
    recorded: Mapping[str, Sequence[str]],
    stem: str,
    fmt: str,
    files: list[tuple[str, str]],
) -> _Plan:
    """What exporting ``stem`` writes, removes (its earlier files: ``recorded`` in the manifest, by
    :func:`~chunker.export_manifest.export_keys_by_stem`, or found in its folder) and leaves alone."""
    keep = {key for key, _ in files}
    base = export_base(stem, fmt)
    candidates = set(recorded.get(base, ()))
    candidates.update(_listed_exports(out_dir, base, fmt))
    stale: list[str] = []
    left: list[str] = []
    for key in sorted(candidates - keep):
        state = manifest.files.classify(out_dir, key)
        if state == "ours":
            stale.append(key)
        elif state == "foreign":
            left.append(key)
    return _Plan(stem, tuple(files), tuple(stale), tuple(left))


def _refuse_foreign(out_dir: Path, plans: Sequence[_Plan], manifest: ExportManifest | None) -> None:
    """Stop before anything is written when a file to be written is someone else's."""
    files = manifest.files if manifest is not None else Files()
    foreign = [key for plan in plans for key, digest in plan.files if files.classify(out_dir, key, digest) == "foreign"]
    if manifest is None:
        foreign.insert(0, MANIFEST)
    if foreign:
        shown = ", ".join(str(out_dir / key) for key in foreign[:5])
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise OutputError(
            f"{len(foreign)} file(s) to be written are not chunker's exports (or were edited since): {shown}{more}; "
            "they are left alone: pass --force to overwrite them, or choose another --out",
            path=str(out_dir),
        )


def _write(out_dir: Path, key: str, data: bytes, batch: SyncBatch | None = None) -> bool:
    """Write ``data`` to ``out_dir/key`` atomically, unless the file holds these bytes already
    (reading a file back is far cheaper than an fsync'd replace); whether it was written.
    ``batch``: the file is staged unsynced and renamed at the batch's flush, after one sync of all
    the batch holds (:mod:`chunker.writer_batch`), not fsync'd and renamed on its own."""
    from chunker.writer import stage_parts, write_atomic

    path = out_dir / key
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass  # absent or unreadable: write it
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the export folder: {exc.strerror or exc}", path=str(path.parent)) from None
    if batch is None:
        write_atomic(path, data, display=str(path))
        return True
    batch.add(path, [(stage_parts(path, (data,), str(path), sync=False), path, str(path))], len(data))
    if batch.due:
        _flush(batch)
    return True


def _flush(batch: SyncBatch) -> None:
    """Sync and rename what ``batch`` holds; the first file that could not be renamed stops the export."""
    failed = batch.flush()
    if failed:
        raise next(iter(failed.values()))


def _remove(out_dir: Path, key: str) -> None:
    path = out_dir / key
    try:
        path.unlink()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot remove a stale export: {exc.strerror or exc}", path=str(path)) from None


def _apply(
    out_dir: Path, manifest: ExportManifest, plans: Sequence[_Plan], files_of: Callable[[str], list[tuple[str, bytes]]]
) -> set[str]:
    """Write and remove as planned (``files_of``: a document's files, rendered again, one document
    at a time); the keys left as they were (same bytes). The manifest is
    written first with the new hashes next to the old ones, so a kill at any point leaves every
    touched file recorded as ours. The files are written in batches, each synced at once before its
    renames (one ``syncfs`` for many files: an export of a tree writes thousands); the stale files
    are removed once every new file is in place."""
    from chunker.writer import sync_written
    from chunker.writer_batch import SyncBatch

    unchanged: set[str] = set()
    for plan in plans:
        for key, digest in plan.files:
            manifest.files.expect(key, digest)
    _write(out_dir, MANIFEST, manifest.to_bytes())
    folders: set[Path] = set()
    with SyncBatch(out_dir) as batch:
        for plan in plans:
            data = dict(files_of(plan.stem)) if plan.files else {}
            for key, digest in plan.files:
                if key not in data or sha256_bytes(data[key]) != digest:
                    raise OutputError(
                        f"the chunks of {plan.stem!r} changed while they were exported; export again",
                        path=str(out_dir),
                    )
                if _write(out_dir, key, data[key], batch):
                    folders.add((out_dir / key).parent)
                else:
                    unchanged.add(key)
                manifest.files.settle(key, digest)
        _flush(batch)
    sync_written(out_dir, folders, "run" if batch.synced_file_system else "full")
    for plan in plans:
        for key in plan.stale:
            _remove(out_dir, key)
            manifest.files.forget(key)
        for key in plan.left_alone:
            manifest.files.forget(key)  # edited since it was written: it is not ours any more
        if not plan.files:
            with contextlib.suppress(OSError):
                (out_dir / export_base(plan.stem, "md")).rmdir()  # an md folder, only when nothing else is in it
    return unchanged


class _SourcesGuard:
    """The export folder may not be a sources folder of the documents (their ``meta.json`` names
    their source) or lie inside one: the next run would chunk the exported Markdown as documents.
    :meth:`check` tests each document as it is read (each sources folder once)."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        try:
            self.out: Path | None = out_dir.resolve()
        except (OSError, RuntimeError):
            self.out = None  # writing says why
        self.roots: set[Path] = set()

    def check(self, doc: ChunkedDocument) -> ChunkedDocument:
        source = doc.meta.get("source_path")
        if self.out is None or not isinstance(source, str) or not source:
            return doc
        root = Path(source).parents[doc.stem.count("/")]
        if root.parts[-2:] == ("_output", "auto"):
            root = root.parent.parent
        if root in self.roots:
            return doc
        self.roots.add(root)
        try:
            real = root.resolve()
        except (OSError, RuntimeError):
            return doc
        if self.out == real or real in self.out.parents:
            raise UsageError(
                f"the export folder {self.out_dir} lies inside the sources folder {root} (of {doc.stem}): the next "
                "run would chunk the exported files as documents; choose an export folder outside it (--out)"
            )
        return doc


def export(
    chunks_dir: Path, out_dir: Path, fmt: str, stems: Sequence[str] = (), *, force: bool = False
) -> tuple[ExportedDocument, ...]:
    """Export the given stems (or every chunked document) in ``fmt``. A full export (no ``stems``)
    also removes the exports of documents it exported before that are no longer chunked.

    Only files this export folder's manifest records as written by an export (and unedited since)
    are overwritten or removed; a file to be written that is someone else's stops the export
    before anything is written, unless ``force``; other files named like exports are left alone
    and reported in :attr:`ExportedDocument.left_alone`."""
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    stems = chunked_selection(chunks_dir, stems)
    names = stems or chunked_stems(chunks_dir)
    if not names:
        raise UsageError(
            f"no chunked documents in {chunks_dir}; run `chunker` first, or give the folder it wrote with --chunks"
        )
    renderer: Renderer = render_markdown if fmt == "md" else render_jsonl

    def files_of(stem: str) -> list[tuple[str, bytes]]:
        return render(renderer, load_document(chunks_dir, stem), out_dir)

    # every document read and rendered before anything is written; only the hashes of its files kept
    guard = _SourcesGuard(out_dir)
    rendered: list[tuple[str, list[tuple[str, str]]]] = []
    for stem in names:
        doc = guard.check(load_document(chunks_dir, stem))
        rendered.append((stem, [(key, sha256_bytes(data)) for key, data in render(renderer, doc, out_dir)]))
    found = read_manifest(out_dir)
    if not force:
        _refuse_foreign(out_dir, [_Plan(stem, tuple(files), (), ()) for stem, files in rendered], found)
    manifest = found or ExportManifest()
    before = manifest.exports.get(fmt, [])
    gone = [] if stems else sorted(set(before) - set(names))
    recorded = export_keys_by_stem(manifest.files.hashes, fmt)
    plans = [_plan(out_dir, manifest, recorded, stem, fmt, files) for stem, files in rendered]
    plans += [_plan(out_dir, manifest, recorded, stem, fmt, []) for stem in gone]
    removed = set(gone)
    manifest.exports[fmt] = sorted({*before, *names}) if stems else sorted(names)
    unchanged = _apply(out_dir, manifest, plans, files_of)
    _write(out_dir, MANIFEST, manifest.to_bytes())
    return tuple(
        ExportedDocument(
            plan.stem,
            tuple(out_dir / key for key, _ in plan.files),
            tuple(out_dir / key for key in plan.stale),
            tuple(out_dir / key for key in plan.left_alone),
            tuple(out_dir / key for key, _ in plan.files if key in unchanged),
            plan.stem in removed,
        )
        for plan in plans
    )
