"""The pure per-document core: source bytes in, a :class:`DocumentOutcome` out.

:func:`chunk_source` decodes one document, chooses Markdown or plain text, chunks and
validates it and builds its three artifacts (``chunks.json``, ``meta.json``, ``report.json``)
in memory. It reads and writes no file: the CLI's runner finds sources, decides freshness,
calls it and writes what it returns; other drivers (a distributed engine, a library user) call
the same function, so their chunks cannot drift from the CLI's. A bad document is a failed
outcome with the CLI's message and exit code, never an exception.
"""

from __future__ import annotations

import hashlib
import io
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from chunker import SCHEMA_VERSION, __version__
from chunker.config import ChunkerConfig
from chunker.errors import EXIT_INTERNAL, EXIT_OK, EXIT_SOURCE, ChunkerError, SourceError
from chunker.gcpause import collector_paused
from chunker.models import Chunk, ChunkingResult, Diagnostic, Heading
from chunker.policy import exit_code
from chunker.sources import plain_text
from chunker.unpublished import draft_note, draft_reason

if TYPE_CHECKING:
    from chunker.reader import SourceText

__all__ = [
    "DocumentOutcome",
    "OutcomeStatus",
    "Part",
    "build_artifacts",
    "check_chunk_count",
    "chunk_decoded",
    "chunk_source",
    "chunks_bytes",
    "chunks_parts",
    "describe_failure",
    "dumps",
    "fingerprint_of",
    "options_of",
    "other_artifacts",
    "read_json",
    "released_parts",
    "streamed_parts",
    "with_diagnostics",
]

OutcomeStatus = Literal["chunked", "off", "draft", "failed"]
"""``chunked``: artifacts built; ``off``: ``strategy: off``, no chunks; ``draft``: left out by
``skip_drafts`` (its frontmatter marks it a draft), no chunks; ``failed``: see ``message``."""


@dataclass(frozen=True, slots=True)
class DocumentOutcome:
    """What :func:`chunk_source` made of one document."""

    doc_id: str
    """The document's id (the stem in the CLI): the prefix of every ``chunk_key``."""
    source_path: str
    """The path shown in messages and recorded in the artifacts."""
    status: OutcomeStatus
    exit_code: int
    """0, or 1 for validator errors under the ``fail_on_*`` policies, or the failure's exit code."""
    source_sha256: str
    """sha256 of the raw bytes as given (BOM and original newlines included)."""
    fingerprint: str
    """The options fingerprint of ``config`` (recorded in meta.json)."""
    result: ChunkingResult | None = None
    """The chunks and diagnostics; ``None`` unless ``status`` is ``chunked``."""
    artifacts: Mapping[str, bytes] = field(default_factory=dict)
    """``chunks.json``, ``meta.json``, ``report.json`` (in that order: report.json, which carries
    the sha256 of the other two, is written last); empty unless ``status`` is ``chunked``."""
    message: str = ""
    """For a failed document: the error, naming the file and, where it has one, the line."""
    draft: str = ""
    """For a draft: the frontmatter key and value that leave it out (``draft: true``)."""

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        return self.result.chunks if self.result is not None else ()

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The findings of the chunks; for a draft, the ``info`` finding naming its key and value."""
        if self.result is not None:
            return self.result.diagnostics.diagnostics
        return (draft_note(self.draft),) if self.draft else ()

    @property
    def metrics(self) -> dict[str, Any]:
        return self.result.diagnostics.metrics if self.result is not None else {}


@collector_paused
def chunk_source(
    raw: bytes,
    *,
    doc_id: str,
    source_path: str,
    config: ChunkerConfig,
    notes: Sequence[Diagnostic] = (),
    build: bool = True,
) -> DocumentOutcome:
    """Chunk one document given as bytes. ``source_path`` ending in ``.txt`` selects the plain-text reader
    (not under ``syntax: pandoc``: :func:`chunker.sources.plain_text`), anything else is Markdown. ``notes``
    are findings of the caller (e.g. an output folder that clashes in case) that go into report.json with the
    others. ``build`` false: the outcome holds no artifacts; the caller makes them from the result as it
    writes them (:func:`chunks_parts`, :func:`other_artifacts`), so chunks.json is never held whole.

    Never raises for a bad document: undecodable bytes, a file over ``max_file_bytes``, structure
    nested too deeply, an exhausted memory and internal errors all give a ``failed`` outcome.
    The garbage collector is paused meanwhile (:mod:`chunker.gcpause`)."""
    try:
        from chunker.reader import decode_source

        data = decode_source(raw, source_path, config.max_file_bytes)
    except Exception as exc:
        code, message = describe_failure(exc, source_path)
        fingerprint = ""
        with suppress(Exception):
            fingerprint = fingerprint_of(config)
        return DocumentOutcome(
            doc_id, source_path, "failed", code, hashlib.sha256(raw).hexdigest(), fingerprint, message=message
        )
    return chunk_decoded(data, doc_id=doc_id, source_path=source_path, config=config, notes=notes, build=build)


@collector_paused
def chunk_decoded(
    data: SourceText,
    *,
    doc_id: str,
    source_path: str,
    config: ChunkerConfig,
    notes: Sequence[Diagnostic] = (),
    build: bool = True,
    drafts_checked: bool = False,
) -> DocumentOutcome:
    """:func:`chunk_source` of a source already decoded (:func:`chunker.reader.decode_source`), for
    a caller that drops the raw bytes first (they were as large as the text, all through the run).
    ``drafts_checked``: the caller found it no draft (:func:`chunker.unpublished.draft_reason`)."""
    fingerprint = ""
    try:
        fingerprint = fingerprint_of(config)
        if config.strategy == "off":
            return DocumentOutcome(doc_id, source_path, "off", EXIT_OK, data.sha256, fingerprint)
        if not drafts_checked and (draft := draft_reason(data.text, config)) is not None:
            return DocumentOutcome(doc_id, source_path, "draft", EXIT_OK, data.sha256, fingerprint, draft=draft)
        result = _chunk(data.text, config, doc_id, source_path, data.text_sha256)
        extra = [*data.diagnostics, *notes]
        if extra:
            result = with_diagnostics(result, extra)
        code = exit_code(result.diagnostics.diagnostics)
        artifacts = build_artifacts(result, config, data.sha256) if build else {}
        return DocumentOutcome(doc_id, source_path, "chunked", code, data.sha256, fingerprint, result, artifacts)
    except Exception as exc:
        code, message = describe_failure(exc, source_path)
        return DocumentOutcome(doc_id, source_path, "failed", code, data.sha256, fingerprint, message=message)


def _chunk(
    text: str, config: ChunkerConfig, doc_id: str, source_path: str, text_sha256: str | None = None
) -> ChunkingResult:
    # imported here: a driver that only checks freshness needs no parser
    if plain_text(source_path, config.syntax):
        from chunker.plaintext import chunk_text

        return _within_limit(chunk_text(text, config, doc_id, source_path), config, source_path)
    from chunker.pipeline import chunk_markdown

    result = chunk_markdown(text, config, doc_id, source_path, text_sha256=text_sha256)
    return _within_limit(result, config, source_path)


def _within_limit(result: ChunkingResult, config: ChunkerConfig, source_path: str) -> ChunkingResult:
    """The last guard on output size: more chunks than ``max_chunks_per_document`` fail the document."""
    check_chunk_count(len(result.chunks), config, source_path)
    return result


def check_chunk_count(count: int, config: ChunkerConfig, source_path: str) -> None:
    """Raise the error of a document of ``count`` chunks, more than ``max_chunks_per_document``."""
    if count > config.max_chunks_per_document:
        raise SourceError(
            f"{count:,} chunks, more than max_chunks_per_document ({config.max_chunks_per_document:,}); "
            "raise it in config.yaml or split the document",
            path=source_path,
        )


def describe_failure(exc: Exception, source_path: str) -> tuple[int, str]:
    """The exit code and message of an exception raised while reading, chunking or writing one
    document; errors other than :class:`ChunkerError` are named without a traceback."""
    if isinstance(exc, ChunkerError):
        return exc.exit_code, str(exc)
    if isinstance(exc, RecursionError):
        return EXIT_SOURCE, f"{source_path}: structure nested too deeply to parse"
    if isinstance(exc, MemoryError):
        return (
            EXIT_SOURCE,
            f"{source_path}: out of memory while chunking; lower max_file_bytes or split the document",
        )
    # a bug: name the document, say so without a traceback
    return (
        EXIT_INTERNAL,
        f"{source_path}: internal error: {type(exc).__name__}: {exc} (please report it with the input)",
    )


def with_diagnostics(result: ChunkingResult, extra: Sequence[Diagnostic]) -> ChunkingResult:
    diagnostics = replace(result.diagnostics, diagnostics=(*extra, *result.diagnostics.diagnostics))
    return replace(result, diagnostics=diagnostics)


# -- artifacts --------------------------------------------------------------------


def dumps(value: Any) -> bytes:
    """The JSON bytes of every artifact: indented by two, one final newline."""
    import orjson

    return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)


def read_json(path: Path) -> tuple[bytes, Any]:
    """The bytes of an artifact file and their JSON value. Raises OSError when the file cannot be
    read (``FileNotFoundError`` when it is absent; a FIFO or device is refused,
    :func:`~chunker.regular.read_regular`) and ValueError when it is not JSON."""
    import orjson

    from chunker.regular import read_regular

    data = read_regular(path)
    return data, orjson.loads(data)


_BATCH = 256
"""Chunks serialised at a time by :func:`chunks_parts`."""


Part = bytes | memoryview
"""A part of an artifact's bytes as :func:`chunks_parts` gives them (a view of a batch's output:
no copy of it is made)."""


def chunks_parts(result: ChunkingResult) -> Iterator[Part]:
    """The ``chunks.json`` bytes of a result in parts, a batch of chunks at a time: ``dumps`` of
    the list of chunk objects, so that a writer can hash and write them as they come and neither
    every chunk's dict nor the whole output exists at once."""
    return _serialised(result.chunks, None)


def released_parts(chunks: list[Chunk]) -> Iterator[Part]:
    """:func:`chunks_parts` of ``chunks``, a list the caller hands over: each batch is dropped from
    it once serialised (the list ends empty). The chunks go as the output is written, and with them
    the UTF-8 copy that serialising leaves on each string that is not ASCII (orjson encodes a str
    through CPython's cached UTF-8 form, which lives as long as the str)."""
    chunks.reverse()  # batches are taken from the end
    return _serialised(chunks, chunks)


def _serialised(chunks: Sequence[Chunk], owned: list[Chunk] | None) -> Iterator[Part]:
    import orjson

    if not chunks:
        yield dumps([])
        return
    paths: dict[int, tuple[list[dict[str, Any]], str]] = {}  # chunks of a section share their path
    kept: dict[int, tuple[Heading, ...]] = {}  # the paths of released chunks: their ids stay theirs
    first = True
    for i in range(0, len(chunks), _BATCH):
        if owned is None:
            batch = chunks[i : i + _BATCH]
        else:
            batch = owned[-_BATCH:][::-1]
            del owned[-_BATCH:]
            kept.update((id(c.header_path), c.header_path) for c in batch)
        part = orjson.dumps([c.to_dict(paths) for c in batch], option=orjson.OPT_INDENT_2)
        del batch
        yield b"[\n" if first else b",\n"
        yield memoryview(part)[2:-2]  # the items, without the list's "[\n" and "\n]"
        first = False
        del part
    yield b"\n]\n"


def streamed_parts(chunks: Iterable[Chunk]) -> Iterator[Part]:
    """:func:`chunks_parts` of chunks as they come (:class:`chunker.streamed.StreamedChunks`): a
    batch is read, serialised and dropped before the next is taken, so the chunks never all exist."""
    import orjson

    source = iter(chunks)
    batch = list(itertools.islice(source, _BATCH))
    if not batch:
        yield dumps([])
        return
    first = True
    while batch:
        paths: dict[int, tuple[list[dict[str, Any]], str]] = {}  # per batch: its chunks keep their paths alive
        part = orjson.dumps([c.to_dict(paths) for c in batch], option=orjson.OPT_INDENT_2)
        del batch, paths
        yield b"[\n" if first else b",\n"
        yield memoryview(part)[2:-2]  # the items, without the list's "[\n" and "\n]"
        first = False
        del part
        batch = list(itertools.islice(source, _BATCH))
    yield b"\n]\n"


def chunks_bytes(result: ChunkingResult) -> bytes:
    """The ``chunks.json`` bytes of a result (:func:`chunks_parts` into one growing buffer; peak:
    the output plus one batch)."""
    buf = io.BytesIO()
    for part in chunks_parts(result):
        buf.write(part)
    return buf.getvalue()  # hands over the buffer without a copy


def build_artifacts(result: ChunkingResult, cfg: ChunkerConfig, raw_sha256: str) -> dict[str, bytes]:
    """The three artifact files of one document; report.json carries the hashes of the other two."""
    chunks = chunks_bytes(result)
    return {
        "chunks.json": chunks,
        **other_artifacts(result, cfg, raw_sha256, hashlib.sha256(chunks).hexdigest(), len(chunks)),
    }


def other_artifacts(
    result: ChunkingResult,
    cfg: ChunkerConfig,
    raw_sha256: str,
    chunks_sha256: str,
    chunks_size: int,
    total_chunks: int | None = None,
) -> dict[str, bytes]:
    """``meta.json`` and ``report.json`` of a result whose ``chunks.json`` has the given sha256
    and size (:func:`build_artifacts` without chunks.json, for a writer that streams it);
    ``total_chunks``: their number, when the result no longer holds them (:func:`released_parts`)."""
    meta = dumps(
        {
            "stem": result.stem,
            "source_path": result.source_path,
            "source_sha256": raw_sha256,
            "parent_hash": result.source_sha256,
            "total_chunks": len(result.chunks) if total_chunks is None else total_chunks,
            "strategy": result.strategy,
            "size_unit": cfg.size_unit,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "chunker_version": __version__,
            "schema_version": SCHEMA_VERSION,
            "fingerprint": fingerprint_of(cfg),
            "config": options_of(cfg),
            "document_metadata": result.document_metadata,
        }
    )
    report = dumps(
        {
            "stem": result.stem,
            "source_path": result.source_path,
            **result.diagnostics.to_dict(),
            "artifacts": {
                "chunks.json": chunks_sha256,
                "meta.json": hashlib.sha256(meta).hexdigest(),
            },
            "artifact_sizes": {"chunks.json": chunks_size, "meta.json": len(meta)},
        }
    )
    return {"meta.json": meta, "report.json": report}


_MEMO: dict[int, tuple[ChunkerConfig, str, dict[str, Any]]] = {}


def _memo(cfg: ChunkerConfig) -> tuple[ChunkerConfig, str, dict[str, Any]]:
    """(cfg, its fingerprint, its options as recorded in meta.json), computed once per config
    object: documents share one, and recomputing costs a third of an incremental no-op run."""
    cached = _MEMO.get(id(cfg))
    if cached is None or cached[0] is not cfg:
        if len(_MEMO) >= 256:
            _MEMO.clear()
        cached = _MEMO[id(cfg)] = (cfg, cfg.fingerprint(), cfg.to_dict())
    return cached


def fingerprint_of(cfg: ChunkerConfig) -> str:
    """``cfg.fingerprint()``, memoised per config object."""
    return _memo(cfg)[1]


def options_of(cfg: ChunkerConfig) -> dict[str, Any]:
    """``cfg.to_dict()`` (meta.json's ``config``), memoised per config object; do not modify it."""
    return _memo(cfg)[2]
