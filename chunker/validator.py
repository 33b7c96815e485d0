"""Stage 4: invariants and metrics of the chunks, checked against the source text.

Coverage is proven against the source itself, not against what the parser
returned: every non-whitespace character outside the frontmatter and the
skipped ranges must lie in exactly one chunk.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from chunker.config import ChunkerConfig
from chunker.fence_lines import fence_text, html_ranges
from chunker.fences import fence_after, is_balanced
from chunker.models import Block, Chunk, Diagnostic, Diagnostics, SkippedRange
from chunker.outline import LineToken
from chunker.policy import gated
from chunker.rendering import check_rendering
from chunker.sizes import Counter, make_counter

_NON_SPACE = re.compile(r"\S")


def _line_at(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def _embedding_balanced(chunk: Chunk) -> bool:
    """``is_balanced(chunk.content_for_embedding)``, given that ``content_original`` is balanced:
    when the embedding text is the original after lines without any backtick or tilde pair (the
    context prefix), those lines hold no fence line and the fence scan of both is the same."""
    original, embedding = chunk.content_original, chunk.content_for_embedding
    extra = len(embedding) - len(original)
    if extra >= 0 and embedding.endswith(original) and (extra == 0 or embedding[extra - 1] == "\n"):
        lead = embedding[:extra]
        if "``" not in lead and "~~" not in lead:
            return True
    return is_balanced(embedding)


def _fences_balanced(
    chunk: Chunk, blocks: Mapping[str, Block], mdx: bool, parsed: Mapping[int, Sequence[LineToken]]
) -> bool:
    """Whether the chunk leaves no code fence open. Where the line scan finds one open in MDX, its
    text is read again with its HTML (JSX) lines emptied (:mod:`chunker.fence_lines`: a fence line in
    a JSX block is none), as the packer read it; the text for embedding must then leave open what
    the original does."""
    original = chunk.content_original
    if is_balanced(original) and _embedding_balanced(chunk):
        return True
    if not mdx:
        return False
    held = [blocks[i] for i in chunk.block_ids if i in blocks]
    if not held:
        return False
    source = held[0].source

    def html(block: Block) -> list[tuple[int, int]]:
        tokens = parsed.get(block.start_offset)
        if tokens is None and block.outline is not None:
            tokens = block.outline.tokens()
        return html_ranges(source, block, tokens)

    text = fence_text(source, held, chunk.start_offset, chunk.end_offset, html)
    if text is None:
        return False
    before = sum(len(a.text) for a in chunk.added_lines if a.position == "before")
    after = before + chunk.end_offset - chunk.start_offset
    if fence_after(original[:before] + text + original[after:]) is not None:
        return False
    embedding = chunk.content_for_embedding
    return is_balanced(embedding) or fence_after(embedding) == fence_after(original)


def validate(
    source: str,
    blocks: Sequence[Block],
    chunks: Sequence[Chunk],
    skipped: Sequence[SkippedRange],
    cfg: ChunkerConfig,
    earlier: Sequence[Diagnostic] = (),
    decisions: dict[str, Any] | None = None,
    markdown: bool = True,
    parsed: Mapping[int, Sequence[LineToken]] | None = None,
) -> Diagnostics:
    """Diagnostics of a chunking: ``earlier`` findings of other stages plus every invariant. Findings
    that a ``fail_on_*`` option governs are left to :func:`chunker.policy.judge`. Pieces of a Markdown
    source (not of plain text) are checked to render as their source (:mod:`chunker.rendering`;
    ``parsed``: the tokens of blocks the packer parsed, by start offset)."""
    found: list[Diagnostic] = list(earlier)
    found.extend(_check_ids(chunks))
    found.extend(_check_slices(source, chunks))
    found.extend(_check_coverage(source, chunks, skipped))
    found.extend(_once(found, list(_check_chunks(blocks, chunks, cfg, parsed or {})), chunks))
    if markdown:
        found.extend(check_rendering(source, blocks, chunks, cfg, parsed or {}))
    return Diagnostics(tuple(found), _metrics(chunks, skipped, cfg), tuple(skipped), decisions or {})


def _once(found: list[Diagnostic], checked: list[Diagnostic], chunks: Sequence[Chunk]) -> list[Diagnostic]:
    """``checked`` without the overflow findings of chunks whose block the packer already reported
    as kept whole (its finding names the block's kind and line); that finding gets the chunk's id.
    An overflow is reported once. A packer's finding that no overflow chunk holds is removed from
    ``found``: the block it named fit after all (over the budget the packer cut for, which allows
    for the section's longest context line, but not over max_chars in its chunk; or link
    definitions that ride along uncounted)."""
    packer = sorted(
        ((d.line, k) for k, d in enumerate(found) if d.code == "overflow" and d.chunk_id is None and d.line is not None)
    )
    if not packer:
        return checked
    lines = [line for line, _ in packer]
    by_id = {c.chunk_id: c for c in chunks}
    out: list[Diagnostic] = []
    claimed: set[int] = set()
    for finding in checked:
        chunk = by_id.get(finding.chunk_id or "") if finding.code == "overflow" else None
        if chunk is None:
            out.append(finding)
            continue
        first, last = bisect_left(lines, chunk.start_line), bisect_right(lines, chunk.end_line)
        for _, k in packer[first:last]:
            found[k] = replace(found[k], chunk_id=chunk.chunk_id)
            claimed.add(k)
        if first == last:
            out.append(finding)
    for k in sorted((k for _, k in packer if k not in claimed), reverse=True):
        del found[k]
    return out


def _error(code: str, message: str, chunk: Chunk | None = None) -> Diagnostic:
    if chunk is None:
        return Diagnostic("error", code, message)
    return Diagnostic("error", code, message, chunk.start_line, chunk.chunk_id)


def _check_ids(chunks: Sequence[Chunk]) -> Iterator[Diagnostic]:
    """Unique ids; neighbours that match the order."""
    ids = [c.chunk_id for c in chunks]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        yield _error("duplicate-id", f"duplicate chunk ids: {', '.join(dupes[:5])}")
    for k, chunk in enumerate(chunks):
        expected_prev = ids[k - 1] if k else None
        expected_next = ids[k + 1] if k + 1 < len(ids) else None
        if chunk.previous_chunk_id != expected_prev or chunk.next_chunk_id != expected_next:
            yield _error("neighbors", "neighbors do not match the chunk order", chunk)


def _check_slices(source: str, chunks: Sequence[Chunk]) -> Iterator[Diagnostic]:
    """Each chunk is the exact source slice plus its declared added lines, in order, no overlap."""
    previous_end = -1
    for chunk in chunks:
        yield from slice_findings(source, chunk)
        if chunk.start_offset < previous_end:
            yield _error("overlap", "chunk overlaps the previous one or is out of order", chunk)
        previous_end = max(previous_end, chunk.end_offset)


def slice_findings(source: str, chunk: Chunk) -> Iterator[Diagnostic]:
    """The chunk is the exact source slice plus its declared added lines.

    ``added_lines`` lists added text in the order it stands in the chunk: the ``before`` texts from
    the start, the ``after`` texts from the end of the slice on (a fence's closing line, then the
    closing line of the container it lies in), so the ``after`` texts come off the end last first."""
    core = chunk.content_original
    added_lines = chunk.added_lines  # most chunks have none
    before = [a for a in added_lines if a.position == "before"] if added_lines else []
    after = [a for a in added_lines if a.position == "after"] if added_lines else []
    for added in [*before, *reversed(after)] if added_lines else ():
        if added.position == "before" and core.startswith(added.text):
            core = core[len(added.text) :]
        elif added.position == "after" and core.endswith(added.text):
            core = core[: len(core) - len(added.text)]
        else:
            yield _error("added-lines", "declared added text is not where it is declared", chunk)
    if core != source[chunk.start_offset : chunk.end_offset]:
        message = f"content_original is not the source slice [{chunk.start_offset}:{chunk.end_offset}]"
        yield _error("content-mismatch", message, chunk)


def _check_coverage(source: str, chunks: Sequence[Chunk], skipped: Sequence[SkippedRange]) -> Iterator[Diagnostic]:
    """Lossless coverage: no non-space text outside the chunks and the skipped ranges."""
    covered = sorted(
        [*((s.start_offset, s.end_offset) for s in skipped), *((c.start_offset, c.end_offset) for c in chunks)]
    )
    return coverage_findings(source, covered)


def coverage_findings(source: str, covered: Iterable[tuple[int, int]]) -> Iterator[Diagnostic]:
    """:func:`_check_coverage` of the ranges ``covered`` (chunks and skipped ranges), in sorted order."""
    lost_lines: list[int] = []
    position = 0
    for start, end in itertools.chain(covered, [(len(source), len(source))]):
        if start > position:
            match = _NON_SPACE.search(source, position, start)
            while match is not None and len(lost_lines) < 50:
                lost_lines.append(_line_at(source, match.start()))
                next_line = source.find("\n", match.start())
                if next_line == -1 or next_line >= start:
                    break
                match = _NON_SPACE.search(source, next_line, start)
        position = max(position, end)
    if lost_lines:
        shown = ", ".join(map(str, lost_lines[:10])) + (" ..." if len(lost_lines) > 10 else "")
        yield gated(
            "content-loss",
            f"{len(lost_lines)}{'+' if len(lost_lines) >= 50 else ''} source line(s) with text reach "
            f"no chunk and no skipped range: lines {shown}",
            lost_lines[0],
        )


def _check_chunks(
    blocks: Sequence[Block], chunks: Sequence[Chunk], cfg: ChunkerConfig, parsed: Mapping[int, Sequence[LineToken]]
) -> Iterator[Diagnostic]:
    """Per chunk: balanced fences, size within max_chars (or declared overflow), no orphan heading."""
    kinds = {b.id: b for b in blocks}
    measure = make_counter(cfg)  # recounted here: the validator trusts no size the packer recorded
    for chunk in chunks:
        yield from chunk_findings(chunk, kinds, measure, cfg, parsed)


def chunk_findings(
    chunk: Chunk,
    blocks: Mapping[str, Block],
    measure: Counter,
    cfg: ChunkerConfig,
    parsed: Mapping[int, Sequence[LineToken]] | None = None,
) -> Iterator[Diagnostic]:
    """:func:`_check_chunks` of one chunk (``blocks``: the blocks by id, ``measure``: the size counter,
    ``parsed``: the tokens the packer read, by block start offset)."""
    if not _fences_balanced(chunk, blocks, cfg.syntax == "mdx", parsed or {}):
        yield gated("broken-fence", "unbalanced code fence in the chunk", chunk.start_line, chunk.chunk_id)
    size = measure(chunk.content_for_embedding)  # in cfg.size_unit
    if size > cfg.max_chars and not chunk.is_overflow:
        yield _error("oversize", f"chunk has {size} {cfg.size_unit}, over max_chars {cfg.max_chars}", chunk)
    elif chunk.is_overflow:
        reason = overflow_reason(chunk, blocks, measure, cfg)
        message = f"overflow chunk of {size} {cfg.size_unit} (max_chars {cfg.max_chars}): {reason}"
        yield gated("overflow", message, chunk.start_line, chunk.chunk_id)
    last_block = blocks.get(chunk.block_ids[-1]) if chunk.block_ids else None
    if last_block is not None and last_block.kind == "heading" and not chunk.is_continuation:
        message = f"orphan heading: the chunk ends with a heading that has no body (line {chunk.end_line})"
        yield gated("orphan-heading", message, chunk.end_line, chunk.chunk_id)


def overflow_reason(chunk: Chunk, blocks: Mapping[str, Block], measure: Counter, cfg: ChunkerConfig) -> str:
    """Why an overflow chunk the packer reported nothing for is over max_chars, from what it holds:
    headings kept with the first piece of the block after them (a heading never ends a chunk), the
    lines it re-opens or closes around a piece, one block that cannot be split; and whether its own
    text would fit without its context line."""
    held = [blocks[i] for i in chunk.block_ids if i in blocks]
    lead = next((k for k, b in enumerate(held) if b.kind != "heading"), len(held))
    added = sum(measure(a.text) for a in chunk.added_lines)
    if 0 < lead < len(held):
        lines = held[0].start_line, held[lead - 1].end_line
        where = f"line {lines[0]}" if lines[0] == lines[1] else f"lines {lines[0]}-{lines[1]}"
        after = held[lead]
        whole = after.start_offset >= chunk.start_offset and after.end_offset <= chunk.end_offset
        reason = (
            f"the heading{'s' if lead > 1 else ''} at {where} kept with {'the' if whole else 'the first piece of the'} "
            f"{after.kind} at line {after.start_line} (a heading never ends a chunk alone)"
        )
    elif len(held) > 1:
        reason = f"{len(held)} blocks that no cut separates"
    elif held and chunk.added_lines:
        reason = f"a piece of a {held[0].kind} that cannot be cut smaller"
    else:
        reason = "one block that cannot be split"
    if added:
        reason += f", with {added} {cfg.size_unit} of lines it re-opens or closes"
    bare = measure(chunk.content_original)
    if bare <= cfg.max_chars < measure(chunk.content_for_embedding):
        reason += f"; its text alone has {bare}: the context line takes it over"
    return reason


def _metrics(chunks: Sequence[Chunk], skipped: Sequence[SkippedRange], cfg: ChunkerConfig) -> dict[str, Any]:
    metrics = Metrics(cfg)
    for chunk in chunks:
        metrics.add(chunk)
    return metrics.result(skipped)


class Metrics:
    """The metrics of report.json, summed chunk by chunk."""

    __slots__ = (
        "atomic",
        "cfg",
        "continuation",
        "count",
        "largest",
        "overflow",
        "smallest",
        "sparse",
        "total",
        "within",
    )

    def __init__(self, cfg: ChunkerConfig) -> None:
        self.cfg = cfg
        self.count = self.total = self.overflow = self.sparse = self.atomic = self.continuation = self.within = 0
        self.smallest: int | None = None
        self.largest = 0

    def add(self, chunk: Chunk) -> None:
        chars = len(chunk.content_for_embedding)  # chunk.chars
        self.count += 1
        self.total += chars
        if self.smallest is None or chars < self.smallest:
            self.smallest = chars
        if chars > self.largest:
            self.largest = chars
        self.overflow += chunk.is_overflow
        self.sparse += chunk.is_sparse
        self.atomic += chunk.content_type == "atomic_block"
        self.continuation += chunk.is_continuation
        cfg = self.cfg
        self.within += cfg.min_chars <= chunk.size <= cfg.max_chars  # budgets count in cfg.size_unit

    def result(self, skipped: Sequence[SkippedRange]) -> dict[str, Any]:
        count = self.count
        return {
            "total_chunks": count,
            "total_chars": self.total,
            "avg_chars": round(self.total / count, 1) if count else 0,
            "min_chars_actual": self.smallest or 0,
            "max_chars_actual": self.largest,
            "overflow_count": self.overflow,
            "sparse_count": self.sparse,
            "atomic_count": self.atomic,
            "continuation_count": self.continuation,
            "size_compliance": round(100 * self.within / count, 2) if count else 100.0,
            "skipped_lines": sum(s.end_line - s.start_line + 1 for s in skipped if s.reason != "frontmatter"),
        }
