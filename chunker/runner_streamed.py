"""One document of a run through the streamed pipeline (:mod:`chunker.streamed`): its chunks are
made a section at a time and written to chunks.json as they come (:func:`chunker.core.streamed_parts`
into :func:`chunker.writer_stream.write_streamed`), so neither its blocks nor its chunks are ever
held together; meta.json and report.json follow from the counts and findings at the end.

The artifacts are those :func:`chunker.core.chunk_decoded` and the runner's writer make of the whole
pipeline's result, byte for byte; a document that fails midway leaves the previous artifacts (the
writer renames nothing before the end) and no folder it created.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chunker.config import ChunkerConfig
from chunker.core import Part, check_chunk_count, other_artifacts, streamed_parts, with_diagnostics
from chunker.folder_locks import LOCK_NAME
from chunker.freshness import Previous, changed_others, previous_hashes
from chunker.models import Chunk, ChunkingResult, Diagnostic
from chunker.policy import exit_code
from chunker.sources import SourceFile
from chunker.summary import DocOutcome, Status

if TYPE_CHECKING:
    from chunker.reader import SourceText
    from chunker.writer_stream import Finish

__all__ = ["ContentHashes", "goes_streamed", "write_streamed_document"]

StreamWriter = Callable[[Path, Iterable[Part], "Finish"], bool]


def goes_streamed(cfg: ChunkerConfig, source_path: str) -> bool:
    """Whether a run writes the document through the streamed pipeline
    (:func:`chunker.streamed.streamable`)."""
    from chunker.streamed import streamable

    return streamable(cfg, source_path)


def write_streamed_document(
    source: SourceFile,
    data: SourceText,
    cfg: ChunkerConfig,
    notes: Sequence[Diagnostic],
    state: Previous,
    folder: Path,
    write: StreamWriter,
) -> DocOutcome:
    """Chunk ``data`` (a :func:`~chunker.streamed.streamable` document) and write its artifacts
    with ``write`` (only those that changed). Raises what chunking or writing raises."""
    from chunker.streamed import StreamedChunks

    stream = StreamedChunks(data.text, cfg, source.stem, source.display, text_sha256=data.text_sha256)
    hashes = ContentHashes()
    limit = cfg.max_chunks_per_document

    def chunks() -> Iterator[Chunk]:
        for chunk in stream:
            if stream.count <= limit:  # past it, only counted: the error names the number
                hashes.add(chunk.content_hash)
                yield chunk
        check_chunk_count(stream.count, cfg, source.display)

    results: list[ChunkingResult] = []
    digest: list[str] = []

    def finish(chunks_sha256: str, chunks_size: int) -> tuple[bool, dict[str, bytes]]:
        result = stream.result()
        extra = [*data.diagnostics, *notes]
        if extra:
            result = with_diagnostics(result, extra)
        results.append(result)
        digest.append(chunks_sha256)
        others = other_artifacts(result, cfg, data.sha256, chunks_sha256, chunks_size, stream.count)
        return changed_others(state, chunks_sha256, others)

    existed = folder.exists()
    try:
        wrote = write(folder, streamed_parts(chunks()), finish)
    except BaseException:
        if not existed:
            _remove_new_folder(folder)
        raise
    result = results[0]
    same = state.chunks_sha256 == digest[0]
    status: Status = "new" if state.meta is None else ("rebuilt" if same else "changed")
    found = result.diagnostics.diagnostics
    return DocOutcome(
        source.stem,
        source.display,
        status,
        exit_code(found),
        result.diagnostics.metrics,
        found,
        delta=hashes.delta(state, same),
        wrote=wrote,
    )


class ContentHashes:
    """The chunks' content hashes as 32-byte digests in one buffer (a set of their hex strings
    takes ~140 bytes a chunk), and the runner's count of chunks added, removed and unchanged."""

    __slots__ = ("data",)

    def __init__(self) -> None:
        self.data = bytearray()

    def add(self, content_hash: str) -> None:
        self.data += bytes.fromhex(content_hash)

    def distinct(self) -> Iterator[bytes]:
        """Each digest once, in the order first added. Only digests whose first 8 bytes are shared
        (the same text in several chunks) are held in a set to tell them apart."""
        data = self.data
        count = len(data) // 32
        heads = sorted(int.from_bytes(data[32 * k : 32 * k + 8]) for k in range(count))
        shared_heads = {a for a, b in itertools.pairwise(heads) if a == b}
        del heads
        seen: set[bytes] = set()
        for k in range(count):
            digest = bytes(data[32 * k : 32 * k + 32])
            if int.from_bytes(digest[:8]) in shared_heads:
                if digest in seen:
                    continue
                seen.add(digest)
            yield digest

    def delta(self, previous: Previous, same: bool) -> dict[str, int]:
        """:func:`chunker.runner._delta` of these hashes."""
        if same:
            return {"added": 0, "removed": 0, "unchanged": sum(1 for _ in self.distinct())}
        old = previous_hashes(previous)
        count = unchanged = 0
        for digest in self.distinct():
            count += 1
            unchanged += digest.hex() in old
        return {"added": count - unchanged, "removed": len(old) - unchanged, "unchanged": unchanged}


def _remove_new_folder(folder: Path) -> None:
    """Remove the folder the writer created for a document that failed midway (it holds at most
    the lock file): the whole pipeline fails before any folder is made."""
    with contextlib.suppress(OSError):
        (folder / LOCK_NAME).unlink(missing_ok=True)
        folder.rmdir()
