"""The output of a batch run: ``chunks/`` (one row per chunk, Parquet or JSON Lines) and
``documents/manifest.parquet`` (one row per document), through any ``pyarrow.fs`` file system.

Chunk files are immutable and named by what they hold, so a retried task writes the same file
with the same bytes. The manifest is written last and lists each document's chunk file: a file
that no manifest row names (a retried or interrupted task's, or one whose documents all changed)
is never read, and is deleted after the manifest is written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chunker import SCHEMA_VERSION, __version__
from chunker.errors import OutputError

__all__ = [
    "CHUNK_COLUMNS",
    "MANIFEST",
    "chunk_schema",
    "collect_garbage",
    "manifest_schema",
    "read_chunks",
    "read_manifest",
    "write_chunk_part",
    "write_manifest",
]

MANIFEST = "documents/manifest.parquet"


def chunk_schema() -> Any:
    import pyarrow as pa

    s, i64 = pa.string(), pa.int64()
    flags = pa.struct([(name, pa.bool_()) for name in FLAG_NAMES])
    fields = [
        ("doc_id", s),
        ("source_uri", s),
        ("chunk_id", s),
        ("chunk_index", i64),
        ("chunk_key", s),
        ("content_hash", s),
        ("embedding_hash", s),
        ("content_original", s),
        ("content_for_embedding", s),
        ("content_type", s),
        ("chars", i64),
        ("size", i64),
        ("start_line", i64),
        ("end_line", i64),
        ("start_offset", i64),
        ("end_offset", i64),
        ("header_path", pa.list_(pa.struct([("level", i64), ("text", s)]))),
        ("section", s),
        ("section_path", s),
        ("ziffer", s),
        ("page", i64),
        ("block_ids", pa.list_(s)),
        ("flags", flags),
        ("part", i64),
        ("parts", i64),
        ("added_lines", pa.list_(pa.struct([("position", s), ("text", s)]))),
        (
            "assets",
            pa.list_(
                pa.struct(
                    [
                        ("kind", s),
                        ("src", s),
                        ("alt", s),
                        ("title", s),
                        ("line", i64),
                        ("path", s),
                        ("exists", pa.bool_()),
                    ]
                )
            ),
        ),
        ("neighbors", pa.struct([("previous_chunk_id", s), ("next_chunk_id", s)])),
        ("parent_hash", s),
        ("fingerprint", s),
        ("chunker_version", s),
    ]
    meta = {"schema_version": str(SCHEMA_VERSION), "chunker_version": __version__}
    return pa.schema(fields, metadata=meta)


FLAG_NAMES = ("has_code", "has_table", "has_math", "is_overflow", "is_sparse", "is_continuation")
CHUNK_COLUMNS = ("doc_id", "source_uri", "parent_hash", "fingerprint", "chunker_version")
"""Columns of a chunk row besides the chunks.json fields."""


def manifest_schema() -> Any:
    import pyarrow as pa

    s, i64, strings = pa.string(), pa.int64(), pa.list_(pa.string())
    fields = [
        ("doc_id", s),
        ("path", s),
        ("source_uri", s),
        ("source_sha256", s),
        ("size", i64),
        ("mtime_ns", i64),
        ("fingerprint", s),
        ("status", s),
        ("exit_code", i64),
        ("message", s),
        ("diagnostics", s),
        ("metrics", s),
        ("chunk_keys", strings),
        ("embedding_hashes", strings),
        ("chunks_sha256", s),
        ("files", strings),
        ("chunker_version", s),
    ]
    return pa.schema(fields)


TMP_PREFIX = ".tmp-"


def _write_atomic(filesys: Any, path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then move it into place; a write that fails
    (a full disk) removes its temporary file, so that the next run finds the space it took."""
    folder, name = path.rsplit("/", 1)
    tmp = f"{folder}/{TMP_PREFIX}{os.getpid()}-{name}"
    try:
        filesys.create_dir(folder, recursive=True)
        with filesys.open_output_stream(tmp) as out:
            out.write(data)
        filesys.move(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            filesys.delete_file(tmp)
        raise OutputError(f"cannot write {path}: {exc}") from None


def _parquet_bytes(table: Any) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


def write_chunk_part(filesys: Any, out_root: str, rows: Sequence[Mapping[str, Any]], fmt: str, key: str) -> str:
    """Write the chunk rows of one task; returns the file's name (relative to ``out_root``).
    ``key`` identifies the task's input (document ids, sha256s, fingerprints), so the same input
    gives the same name and the same bytes."""
    name = f"chunks/part-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}.{fmt}"
    if fmt == "jsonl":
        import orjson

        data = b"".join(orjson.dumps(row) + b"\n" for row in rows)
    else:
        import pyarrow as pa

        data = _parquet_bytes(pa.Table.from_pylist(list(rows), schema=chunk_schema()))
    _write_atomic(filesys, f"{out_root}/{name}", data)
    return name


def write_manifest(filesys: Any, out_root: str, rows: Sequence[Mapping[str, Any]], fmt: str) -> None:
    import pyarrow as pa

    schema = manifest_schema().with_metadata(
        {"schema_version": str(SCHEMA_VERSION), "chunker_version": __version__, "format": fmt}
    )
    ordered = sorted(rows, key=lambda r: str(r["doc_id"]))
    _write_atomic(filesys, f"{out_root}/{MANIFEST}", _parquet_bytes(pa.Table.from_pylist(ordered, schema=schema)))


def read_manifest(filesys: Any, out_root: str) -> tuple[dict[str, dict[str, Any]], str | None]:
    """(manifest rows by doc_id, the format the chunks were written in); empty when there is none."""
    import pyarrow.parquet as pq
    from pyarrow import fs as pafs

    path = f"{out_root}/{MANIFEST}"
    try:
        kind = filesys.get_file_info(path).type
    except OSError as exc:  # a store that cannot be reached, or refuses the credentials
        raise OutputError(f"cannot read the output {out_root}: {exc}") from None
    if kind == pafs.FileType.NotFound:
        return {}, None
    if kind != pafs.FileType.File:  # a FIFO blocked the run for ever, a device gave no end
        why = "not a regular file (remove the output folder to start over)"
        raise OutputError(f"cannot read the manifest {path}: {why}")
    try:
        with filesys.open_input_file(path) as fh:
            table = pq.ParquetFile(fh).read()  # not pq.read_table: pyarrow.dataset imports pandas where installed
    except Exception as exc:  # pyarrow raises ArrowInvalid / OSError for a damaged file
        raise OutputError(f"cannot read the manifest {path}: {exc} (remove the output folder to start over)") from None
    meta = table.schema.metadata or {}
    fmt = meta.get(b"format", b"parquet").decode()
    return {str(r["doc_id"]): r for r in table.to_pylist()}, fmt


def live_files(manifest: Iterable[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Chunk file -> the documents whose current chunks it holds."""
    files: dict[str, set[str]] = {}
    for row in manifest:
        for name in row.get("files") or ():
            files.setdefault(name, set()).add(str(row["doc_id"]))
    return files


def _files_in(filesys: Any, folder: str) -> list[Any]:
    from pyarrow import fs as pafs

    try:
        if filesys.get_file_info(folder).type != pafs.FileType.Directory:
            return []
        listed = filesys.get_file_info(pafs.FileSelector(folder))
    except OSError as exc:
        raise OutputError(f"cannot list the files in {folder}: {exc}") from None
    return [info for info in listed if info.type == pafs.FileType.File]


def collect_garbage(filesys: Any, out_root: str, manifest: Iterable[Mapping[str, Any]]) -> int:
    """Delete files under ``chunks/`` that no manifest row lists, and temporary files a killed run
    left in ``documents/``; returns how many."""
    keep = live_files(manifest)
    stale = [info for info in _files_in(filesys, f"{out_root}/chunks") if "chunks/" + info.base_name not in keep]
    stale += [info for info in _files_in(filesys, f"{out_root}/documents") if info.base_name.startswith(TMP_PREFIX)]
    for info in stale:
        try:
            filesys.delete_file(info.path)
        except OSError as exc:
            raise OutputError(f"cannot remove the stale chunk file {info.path}: {exc}") from None
    return len(stale)


def without_missing_files(
    filesys: Any, out_root: str, manifest: dict[str, dict[str, Any]]
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The manifest rows whose chunk files are all there, and the ids of the others (their files were
    deleted: by hand, or by another run on the same output): those documents are chunked again."""
    present = {"chunks/" + info.base_name for info in _files_in(filesys, f"{out_root}/chunks")}
    kept: dict[str, dict[str, Any]] = {}
    lost: list[str] = []
    for doc_id, row in manifest.items():
        if all(name in present for name in row.get("files") or ()):
            kept[doc_id] = row
        else:
            lost.append(doc_id)
    return kept, lost


_READERS = {"parquet": ("Parquet", "read_chunks"), "jsonl": ("JSON Lines", "read_chunk_records")}


def _written(filesys: Any, root: str, out: str, fmt: str) -> dict[str, dict[str, Any]]:
    """The manifest of the batch output ``out``, written in ``fmt``: an :class:`OutputError` naming what
    to do when there is none (a mistyped ``out`` read as an empty table) or the chunks are in the other
    format (``read_chunk_records`` of a Parquet output failed decoding its bytes as JSON)."""
    from chunker.batch.listing import shown_uri

    manifest, found = read_manifest(filesys, root)
    if found is None:
        raise OutputError(
            f"{shown_uri(out)}: no batch output here (no {MANIFEST}); run chunker batch --out {shown_uri(out)} first"
        )
    if found != fmt:
        kind, reader = _READERS.get(found, (found, "the reader of that format"))
        raise OutputError(f"{shown_uri(out)}: the chunks were written as {kind}; read them with {reader}")
    return manifest


def read_chunks(out: str) -> Any:
    """Every current chunk of a batch output folder or URI (Parquet), as one ``pyarrow.Table``
    ordered by ``doc_id`` and ``chunk_index``: the files the manifest lists, each filtered to the
    documents it lists them for."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from chunker.batch.listing import filesystem

    filesys, root, _ = filesystem(out)
    manifest = _written(filesys, root, out, "parquet")
    tables = []
    for name, docs in sorted(live_files(manifest.values()).items()):
        with filesys.open_input_file(f"{root}/{name}") as fh:
            table = pq.ParquetFile(fh).read()
        tables.append(table.filter(pc.is_in(table["doc_id"], value_set=pa.array(sorted(docs)))))
    if not tables:
        return chunk_schema().empty_table()
    return pa.concat_tables(tables).sort_by([("doc_id", "ascending"), ("chunk_index", "ascending")])


def read_chunk_records(out: str) -> list[dict[str, Any]]:
    """Every current export record (``{"id", "text", "metadata"}``) of a JSON Lines batch output."""
    import orjson

    from chunker.batch.listing import filesystem

    filesys, root, _ = filesystem(out)
    manifest = _written(filesys, root, out, "jsonl")
    records: list[dict[str, Any]] = []
    for name, docs in sorted(live_files(manifest.values()).items()):
        with filesys.open_input_stream(f"{root}/{name}") as fh:
            lines = bytes(fh.read()).splitlines()
        records.extend(r for r in map(orjson.loads, lines) if r["metadata"]["stem"] in docs)
    return sorted(records, key=lambda r: (r["metadata"]["stem"], r["metadata"]["chunk_index"]))
