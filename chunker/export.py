"""Export the chunks of a run for other tools: one Markdown file per chunk, or JSON Lines.

Reads ``<chunks>/<stem>/chunks.json`` and ``meta.json`` as the main command wrote them (it does
not chunk: run ``chunker`` first) and writes, under ``<out>`` (default ``chunks/_export``):

- ``md``: ``<out>/<stem>/NNN-<slug>.md`` per chunk: YAML frontmatter (kind, parent, parent_hash,
  section, section_path, ziffer, chunk_index, chunk_key, content_hash, page, then the document's
  own frontmatter fields under their own keys; a field whose name clashes goes under
  ``document``), a blank line, and the chunk's content_for_embedding. Files of earlier exports
  of that stem that the chunks no longer produce are removed.
- ``jsonl``: ``<out>/<stem>.jsonl``, one ``{"id", "text", "metadata"}`` object per chunk: id is
  the chunk_key, text the content_for_embedding, metadata everything else (plus parent,
  parent_hash, stem and the document's frontmatter under ``document``).

``<out>/.chunker-export.json`` lists the stems each format exported; a full export removes the
exports of listed stems that are no longer chunked (their source is gone or switched off).

Every file is written atomically; the same chunks give the same bytes.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from chunker.errors import OutputError, UsageError
from chunker.sources import validate_stem

Format = Literal["md", "jsonl"]
FORMATS: tuple[str, ...] = ("md", "jsonl")

MD_FIELDS: tuple[str, ...] = (
    "section",
    "section_path",
    "ziffer",
    "chunk_index",
    "chunk_key",
    "content_hash",
    "page",
)
"""Chunk fields copied into the frontmatter of an exported Markdown file (after kind, parent, parent_hash)."""

_EXPORTED_MD = re.compile(r"^\d{3,}-[^/]*\.md$")
"""Names of the files an ``md`` export writes: only these are ever removed as stale."""


@dataclass(frozen=True, slots=True)
class ExportedDocument:
    """What the export wrote for one document."""

    stem: str
    written: tuple[Path, ...]
    removed: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class ChunkedDocument:
    """The artifacts of one document as the main command wrote them."""

    stem: str
    chunks: tuple[dict[str, Any], ...]
    meta: dict[str, Any]

    @property
    def parent(self) -> str:
        return str(self.meta.get("source_path", ""))

    @property
    def parent_hash(self) -> str:
        return str(self.meta.get("parent_hash", ""))

    @property
    def document_metadata(self) -> dict[str, Any]:
        value = self.meta.get("document_metadata")
        return value if isinstance(value, dict) else {}


def _load_json(path: Path, stem: str) -> Any:
    import orjson

    hint = f"run `chunker --stem {stem}` first"
    try:
        return orjson.loads(path.read_bytes())
    except FileNotFoundError:
        raise UsageError(f"no {path.name} for document {stem!r}; {hint}", path=str(path)) from None
    except OSError as exc:
        raise UsageError(f"cannot read {path.name}: {exc.strerror or exc}", path=str(path)) from None
    except orjson.JSONDecodeError:
        raise UsageError(
            f"{path.name} is not valid JSON; run `chunker --force --stem {stem}`", path=str(path)
        ) from None


def load_document(chunks_dir: Path, stem: str) -> ChunkedDocument:
    """The chunks and meta of ``stem``; a missing or unreadable artifact says to run ``chunker`` first."""
    folder = chunks_dir / validate_stem(stem)
    if not folder.is_dir():
        raise UsageError(f"no chunks for document {stem!r} in {chunks_dir}; run `chunker --stem {stem}` first")
    meta = _load_json(folder / "meta.json", stem)
    chunks = _load_json(folder / "chunks.json", stem)
    if not isinstance(meta, dict) or not isinstance(chunks, list) or not all(isinstance(c, dict) for c in chunks):
        raise UsageError(
            f"artifacts of {stem!r} have an unexpected shape; run `chunker --force --stem {stem}`", path=str(folder)
        )
    return ChunkedDocument(stem, tuple(chunks), meta)


def chunked_stems(chunks_dir: Path) -> tuple[str, ...]:
    """Stems with artifacts in ``chunks_dir`` (folders holding a meta.json), sorted."""
    if not chunks_dir.is_dir():
        raise UsageError(f"no chunks folder {chunks_dir}; run `chunker` first")
    try:
        entries = list(chunks_dir.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot list the chunks folder: {exc.strerror or exc}", path=str(chunks_dir)) from None
    return tuple(
        sorted(
            entry.name
            for entry in entries
            if entry.is_dir() and not entry.name.startswith((".", "_")) and (entry / "meta.json").is_file()
        )
    )


# -- md -------------------------------------------------------------------------------


def file_name(chunk: dict[str, Any], position: int, width: int) -> str:
    """``NNN-<slug>.md``: 1-based position, then the last part of the chunk key."""
    from chunker.pack.keys import slug

    key = str(chunk.get("chunk_key") or chunk.get("section") or "chunk")
    tail = key.rsplit("/", 1)[-1]
    return f"{position + 1:0{width}d}-{slug(tail, 60)}.md"


def frontmatter(doc: ChunkedDocument, chunk: dict[str, Any]) -> dict[str, Any]:
    """The frontmatter mapping of one exported chunk, in a fixed key order."""
    data: dict[str, Any] = {"kind": "chunk", "parent": doc.parent, "parent_hash": doc.parent_hash}
    for name in MD_FIELDS:
        data[name] = chunk.get(name)
    clashes: dict[str, Any] = {}
    for key, value in doc.document_metadata.items():
        if key in data or key == "document":
            clashes[key] = value
        else:
            data[key] = value
    if clashes:
        data["document"] = clashes
    return data


def markdown_file(doc: ChunkedDocument, chunk: dict[str, Any]) -> bytes:
    import yaml

    head = yaml.safe_dump(frontmatter(doc, chunk), allow_unicode=True, sort_keys=False, width=1_000_000)
    body = str(chunk.get("content_for_embedding", ""))
    return f"---\n{head}---\n\n{body}\n".encode("utf-8", "surrogatepass")


def export_markdown(doc: ChunkedDocument, out_dir: Path) -> ExportedDocument:
    from chunker.writer import write_atomic

    folder = out_dir / doc.stem
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the export folder: {exc.strerror or exc}", path=str(folder)) from None
    width = max(3, len(str(len(doc.chunks))))
    written: list[Path] = []
    for position, chunk in enumerate(doc.chunks):
        path = folder / file_name(chunk, position, width)
        write_atomic(path, markdown_file(doc, chunk), display=str(path))
        written.append(path)
    keep = {p.name for p in written}
    removed: list[Path] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise OutputError(f"cannot list the export folder: {exc.strerror or exc}", path=str(folder)) from None
    for entry in entries:
        if entry.name not in keep and _EXPORTED_MD.match(entry.name) and entry.is_file() and not entry.is_symlink():
            try:
                entry.unlink()
            except OSError as exc:
                raise OutputError(f"cannot remove a stale export: {exc.strerror or exc}", path=str(entry)) from None
            removed.append(entry)
    return ExportedDocument(doc.stem, tuple(written), tuple(removed))


# -- jsonl ----------------------------------------------------------------------------


def jsonl_record(doc: ChunkedDocument, chunk: dict[str, Any]) -> dict[str, Any]:
    """``{"id": chunk_key, "text": content_for_embedding, "metadata": everything else}``."""
    metadata = {k: v for k, v in chunk.items() if k not in ("chunk_key", "content_for_embedding")}
    metadata.update(
        {
            "chunk_key": chunk.get("chunk_key"),
            "stem": doc.stem,
            "parent": doc.parent,
            "parent_hash": doc.parent_hash,
            "document": doc.document_metadata,
        }
    )
    return {"id": chunk.get("chunk_key"), "text": chunk.get("content_for_embedding", ""), "metadata": metadata}


def export_jsonl(doc: ChunkedDocument, out_dir: Path) -> ExportedDocument:
    import orjson

    from chunker.writer import write_atomic

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the export folder: {exc.strerror or exc}", path=str(out_dir)) from None
    path = out_dir / f"{doc.stem}.jsonl"
    data = b"".join(orjson.dumps(jsonl_record(doc, c)) + b"\n" for c in doc.chunks)
    write_atomic(path, data, display=str(path))
    return ExportedDocument(doc.stem, (path,))


MANIFEST = ".chunker-export.json"
"""In the export folder: the stems each format has exported, so that a full export can remove the
exports of documents that are no longer chunked, and never touches a file it did not write."""


def _read_manifest(out_dir: Path) -> dict[str, list[str]]:
    import orjson

    try:
        data = orjson.loads((out_dir / MANIFEST).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: [s for s in v if isinstance(s, str)] for k, v in data.items() if k in FORMATS and isinstance(v, list)}


def remove_export(out_dir: Path, stem: str, fmt: str) -> tuple[Path, ...]:
    """Remove what an export in ``fmt`` wrote for ``stem`` (only files named as the export names them)."""
    try:
        validate_stem(stem)
    except UsageError:
        return ()  # a hand-edited manifest: never a path
    if fmt == "jsonl":
        targets = [out_dir / f"{stem}.jsonl"]
    else:
        folder = out_dir / stem
        try:
            targets = sorted(p for p in folder.iterdir() if _EXPORTED_MD.match(p.name))
        except OSError:
            targets = []
    removed: list[Path] = []
    for path in targets:
        if path.is_file() and not path.is_symlink():
            try:
                path.unlink()
            except OSError as exc:
                raise OutputError(f"cannot remove a stale export: {exc.strerror or exc}", path=str(path)) from None
            removed.append(path)
    if fmt == "md":
        with contextlib.suppress(OSError):
            (out_dir / stem).rmdir()  # only when nothing else is left in it
    return tuple(removed)


def _export_one(
    writer: Callable[[ChunkedDocument, Path], ExportedDocument], doc: ChunkedDocument, out_dir: Path
) -> ExportedDocument:
    """``writer(doc, out_dir)``; hand-edited artifacts whose values no writer takes (nested past the
    JSON or YAML writer's depth) are a usage error naming the document, not an internal error."""
    import orjson
    import yaml

    try:
        return writer(doc, out_dir)
    except (RecursionError, orjson.JSONEncodeError, yaml.YAMLError) as exc:
        raise UsageError(
            f"the artifacts of {doc.stem!r} hold values that cannot be exported ({type(exc).__name__}); "
            f"run `chunker --force --stem {doc.stem}`",
            path=str(out_dir),
        ) from None


def export(chunks_dir: Path, out_dir: Path, fmt: str, stems: Sequence[str] = ()) -> tuple[ExportedDocument, ...]:
    """Export the given stems (or every chunked document) in ``fmt``. A full export (no ``stems``)
    also removes the exports of documents it exported before that are no longer chunked."""
    import orjson

    from chunker.writer import write_atomic

    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {fmt!r}; use one of {', '.join(FORMATS)}")
    names = tuple(stems) or chunked_stems(chunks_dir)
    if not names:
        raise UsageError(f"no chunked documents in {chunks_dir}; run `chunker` first")
    documents = [load_document(chunks_dir, stem) for stem in names]  # all found before anything is written
    writer = export_markdown if fmt == "md" else export_jsonl
    done = [_export_one(writer, doc, out_dir) for doc in documents]
    manifest = _read_manifest(out_dir)
    before = manifest.get(fmt, [])
    if stems:
        manifest[fmt] = sorted({*before, *names})
    else:
        gone = sorted(set(before) - set(names))
        done += [ExportedDocument(stem, (), remove_export(out_dir, stem, fmt)) for stem in gone]
        manifest[fmt] = sorted(names)
    write_atomic(out_dir / MANIFEST, orjson.dumps(manifest, option=orjson.OPT_SORT_KEYS) + b"\n", display=str(out_dir))
    return tuple(done)
