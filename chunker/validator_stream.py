"""The validator's checks (:func:`chunker.validator.validate`) a section at a time, for chunks that
are made and written one section after the other (:mod:`chunker.streamed`).

Per chunk as it comes: the exact slice and its added lines, overlap with the chunk before, fences,
size, orphan headings, the rendering check, the metrics. What needs the whole document is kept
compact: the ranges the chunks cover (two integers a chunk) for the coverage proof, the chunk ids
that are not the ones their position gives (none, unless a stage has a bug) for the duplicate-id
check. The findings come out in the whole validator's order and words.
"""

from __future__ import annotations

import heapq
import re
from array import array
from collections.abc import Iterator, Mapping, Sequence

from chunker.config import ChunkerConfig
from chunker.models import Block, Chunk, Diagnostic, SkippedRange
from chunker.outline import LineToken
from chunker.pack.chunks import chunk_id
from chunker.rendering import check_rendering
from chunker.sizes import make_counter
from chunker.validator import Metrics, _error, _once, chunk_findings, coverage_findings, slice_findings

__all__ = ["StreamChecks"]

_CHUNK_ID = re.compile(r"chk_(\d{6,})")


class StreamChecks:
    """The checks of one document's chunks, fed a section at a time (:meth:`section`) and each
    chunk once its neighbours are final (:meth:`emitted`); :meth:`findings` at the end."""

    def __init__(self, source: str, cfg: ChunkerConfig, markdown: bool = True) -> None:
        self.source = source
        self.cfg = cfg
        self.markdown = markdown
        self.measure = make_counter(cfg)  # recounted here: the validator trusts no size the packer recorded
        self.metrics = Metrics(cfg)
        self.packer: list[Diagnostic] = []
        """The packer's findings, their overflow findings given the id of the chunk that holds them."""
        self.ids: list[Diagnostic] = []
        self.slices: list[Diagnostic] = []
        self.checked: list[Diagnostic] = []
        self.rendering: list[Diagnostic] = []
        self.previous_end = -1
        self.starts = array("q")
        self.ends = array("q")
        self.ordered = True
        """Whether the chunks' ranges came in sorted order (they do, unless a stage has a bug)."""
        self.count = 0
        self.previous_id: str | None = None
        self.last: Chunk | None = None
        self.odd_ids: dict[int, str] = {}
        """Position -> id of the chunks whose id is not :func:`chunk_id` of their position."""

    def section(
        self,
        blocks: Sequence[Block],
        chunks: Sequence[Chunk],
        packer: list[Diagnostic],
        parsed: Mapping[int, Sequence[LineToken]],
    ) -> None:
        """Check the chunks of one section (``blocks``: its blocks, ``packer``: the packer's findings
        on it, ``parsed``: the tokens the packer read, by block start offset)."""
        source = self.source
        kinds = {b.id: b for b in blocks}
        starts, ends = self.starts, self.ends
        for chunk in chunks:
            if chunk.added_lines or chunk.content_original != source[chunk.start_offset : chunk.end_offset]:
                self.slices.extend(slice_findings(source, chunk))  # (else it finds nothing)
            if chunk.start_offset < self.previous_end:
                self.slices.append(_error("overlap", "chunk overlaps the previous one or is out of order", chunk))
            self.previous_end = max(self.previous_end, chunk.end_offset)
            if starts and (chunk.start_offset, chunk.end_offset) < (starts[-1], ends[-1]):
                self.ordered = False
            starts.append(chunk.start_offset)
            ends.append(chunk.end_offset)
            self.metrics.add(chunk)
        checked = [d for chunk in chunks for d in chunk_findings(chunk, kinds, self.measure, self.cfg, parsed)]
        self.checked.extend(_once(packer, checked, chunks))
        self.packer.extend(packer)
        if self.markdown:
            self.rendering.extend(check_rendering(source, blocks, chunks, self.cfg, parsed, kinds))

    def emitted(self, chunk: Chunk) -> None:
        """Check the ids of a chunk as it is handed on (its ``next_chunk_id`` final): the ``k``-th
        follows the one before and, unless a stage has a bug, is :func:`chunk_id` ``(k)``."""
        if self.last is not None:
            self._neighbours(self.last, chunk.chunk_id)
        k = self.count
        if chunk.chunk_id != chunk_id(k):
            self.odd_ids[k] = chunk.chunk_id
        self.count += 1
        self.last = chunk

    def _neighbours(self, chunk: Chunk, next_id: str | None) -> None:
        if chunk.previous_chunk_id != self.previous_id or chunk.next_chunk_id != next_id:
            self.ids.append(_error("neighbors", "neighbors do not match the chunk order", chunk))
        self.previous_id = chunk.chunk_id

    def findings(self, skipped: Sequence[SkippedRange]) -> list[Diagnostic]:
        """The validator's findings after every chunk is checked and emitted, in its order: ids,
        slices, coverage, per-chunk checks, rendering."""
        if self.last is not None:
            self._neighbours(self.last, None)
            self.last = None
        found = [*self._duplicates(), *self.ids, *self.slices]
        found.extend(coverage_findings(self.source, self._covered(skipped)))
        found.extend(self.checked)
        found.extend(self.rendering)
        return found

    def _duplicates(self) -> Iterator[Diagnostic]:
        """:func:`chunker.validator._check_ids`' duplicate-id finding, from the ids that are not their
        position's (every other id is unique: it names its own position)."""
        if not self.odd_ids:
            return
        counts: dict[str, int] = {}
        for identity in self.odd_ids.values():
            counts[identity] = counts.get(identity, 0) + 1
        for identity in counts:
            match = _CHUNK_ID.fullmatch(identity)
            k = int(match.group(1)) - 1 if match else -1
            if 0 <= k < self.count and k not in self.odd_ids and chunk_id(k) == identity:
                counts[identity] += 1  # also the id of the chunk at that position
        dupes = sorted(i for i, n in counts.items() if n > 1)
        if dupes:
            yield _error("duplicate-id", f"duplicate chunk ids: {', '.join(dupes[:5])}")

    def _covered(self, skipped: Sequence[SkippedRange]) -> Iterator[tuple[int, int]]:
        """The chunks' and skipped ranges, sorted, made as they are read."""
        ranges = sorted((s.start_offset, s.end_offset) for s in skipped)
        chunks: Iterator[tuple[int, int]] = zip(self.starts, self.ends, strict=True)
        if not self.ordered:
            chunks = iter(sorted(chunks))
        return heapq.merge(ranges, chunks)
