"""Stage 3: sections of blocks -> chunks.

Each section is packed on its own, so no chunk crosses a section boundary. A
section that fits in max_chars is one chunk. A longer one is cut into *units*
(blocks; the items, rows or lines of an oversize atomic block; the sentences,
words or hard cuts of an oversize paragraph) and packed greedily toward
target_chars, never over max_chars, at the strongest boundary in reach:
sub-heading > block > item/row/line > sentence > word > hard cut. A heading
(and a table's header) sticks to what follows it. Every chunk is a contiguous
slice of the source; the only text a chunk adds is declared in ``added_lines``
(a repeated table header, the fence lines that re-open or close a code piece).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from chunker.config import ChunkerConfig
from chunker.fences import has_fence_marker, open_fence
from chunker.models import AddedText, Block, Chunk, Diagnostic, Heading
from chunker.sentences import hard_cuts, sentence_cuts, word_cuts
from chunker.strategies import Section

# Strength of the boundary before a unit: the packer cuts at the strongest one in reach.
HEADING_BASE = 20  # before a heading of level L: HEADING_BASE - L
BLOCK = 10
JOINT = 6  # list item, table row, code line after a blank line
CODE_LINE_LOW_INDENT = 5
SENTENCE = 4
CODE_LINE = 3
WORD = 2
HARD = 0

PREFIX_SEPARATOR = "\n\n"
MAX_PREFIX_SHARE = 4
"""A context prefix takes at most 1/MAX_PREFIX_SHARE of max_chars (long headings are shortened)."""

_ZIFFER = re.compile(
    r"^\s*(§§?\s*\d+[a-z]?|(?:Art\.|Artikel|Article|Articolo|Статья)\s*\d+[a-z]?|\d+(?:\.\d+)*)(?:\.)?(?=\s|$)",
    re.IGNORECASE,
)


@dataclass(slots=True)
class _Unit:
    start: int
    end: int
    block: Block
    strength: int
    glue: bool = False
    """Must not be the last unit of a chunk (a heading, a table header)."""
    first: bool = True
    """Starts its block."""
    last: bool = True
    """Ends its block."""


@dataclass(frozen=True, slots=True)
class PackResult:
    chunks: tuple[Chunk, ...]
    diagnostics: tuple[Diagnostic, ...]


def ziffer_of(path: Sequence[Heading]) -> str | None:
    """Section number of the nearest numbered heading (``7.3.1``, ``§ 12``, ``Art. 3``)."""
    for heading in reversed(path):
        match = _ZIFFER.match(heading.text)
        if match:
            return re.sub(r"\s+", " ", match.group(1)).replace("§ ", "§ ").strip()
    return None


def slug(text: str, limit: int = 60) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[^\w§]+", "-", text).replace("§", "p").strip("-_")
    return text[:limit].rstrip("-_") or "x"


def context_prefix(
    path: Sequence[Heading], section: Section, title: str, content: str, cfg: ChunkerConfig
) -> str:
    """The deterministic context line(s) put before a chunk's content for embedding."""
    mode = cfg.context_prefix
    limit = cfg.max_chars // MAX_PREFIX_SHARE
    if mode == "none":
        return ""
    if mode == "heading":
        line = f"{'#' * max(section.level, 1)} {section.title}"
        return "" if content.startswith(line) else _shorten(line, limit)
    texts = [h.text for h in path][-cfg.context_depth :] if cfg.context_depth else []
    if mode == "blockquote":
        parts = [title, *texts] if not texts or texts[0] != title else texts
        return _shorten(f"> {cfg.context_label}: {' > '.join(parts)}", limit)
    if not texts:
        return "" if not section.title or content.lstrip("# ").startswith(section.title) else section.title
    if len(texts) == 1 and path and content.startswith("#") and content.split("\n", 1)[0].lstrip("# ").strip() == texts[0]:
        return ""  # the chunk starts with that very heading
    return _shorten(" > ".join(texts), limit)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


class _SectionPacker:
    def __init__(self, source: str, section: Section, cfg: ChunkerConfig, title: str) -> None:
        self.source = source
        self.section = section
        self.cfg = cfg
        self.title = title
        self.diagnostics: list[Diagnostic] = []
        longest_prefix = max(
            (len(context_prefix(b.header_path, section, title, "", cfg)) for b in section.blocks), default=0
        )
        self.budget = cfg.max_chars - (longest_prefix + len(PREFIX_SEPARATOR) if longest_prefix else 0)
        self.units: list[_Unit] = []

    # -- units ---------------------------------------------------------------
    def build_units(self) -> None:
        for position, block in enumerate(self.section.blocks):
            strength = HEADING_BASE - block.heading_level if block.kind == "heading" else BLOCK
            if position == 0:
                strength = BLOCK
            if block.chars <= self.budget:
                self.units.append(_Unit(block.start_offset, block.end_offset, block, strength, glue=block.kind == "heading"))
                continue
            self._split(block, strength)

    def _split(self, block: Block, strength: int) -> None:
        cfg = self.cfg
        splittable = cfg.split_oversize or not block.atomic
        if block.kind in ("math", "html") or not splittable:
            self.units.append(_Unit(block.start_offset, block.end_offset, block, strength))
            self.diagnostics.append(
                Diagnostic(
                    "warning",
                    "overflow",
                    f"{block.kind} block at line {block.start_line} ({block.chars} chars) is larger than max_chars "
                    f"({cfg.max_chars}) and is kept whole as an overflow chunk",
                    line=block.start_line,
                )
            )
            return
        if block.kind == "table" and block.joints:
            self._split_at(block, [block.start_offset, *block.joints], strength, JOINT, glue_first=True)
        elif block.kind == "list" and block.joints:
            self._split_at(block, [block.start_offset, *block.joints], strength, JOINT)
        elif block.kind == "code" and block.fence is not None:
            self._split_code(block, strength)
        else:
            self._split_text(block, block.start_offset, block.end_offset, strength, True, True)

    def _split_at(self, block: Block, cuts: list[int], strength: int, joint: int, glue_first: bool = False) -> None:
        bounds = [*cuts, block.end_offset + 1]
        for k in range(len(cuts)):
            start, end = bounds[k], bounds[k + 1] - 1
            piece_strength = strength if k == 0 else joint
            first, last = k == 0, k == len(cuts) - 1
            reserve = self._added_before(block) if not first else 0
            if end - start + reserve <= self.budget:
                self.units.append(_Unit(start, end, block, piece_strength, glue_first and k == 0, first, last))
            else:
                self._split_text(block, start, end, piece_strength, first, last)

    def _split_code(self, block: Block, strength: int) -> None:
        assert block.fence is not None
        src = self.source
        # Units are lines; the opening fence sticks to the first code line, the closing to the last.
        starts = [block.start_offset]
        pos = src.find("\n", block.start_offset, block.end_offset)
        while pos != -1:
            starts.append(pos + 1)
            pos = src.find("\n", pos + 1, block.end_offset)
        if len(starts) <= 2:
            self._split_text(block, block.start_offset, block.end_offset, strength, True, True)
            return
        closed = bool(block.fence[1])
        line_bounds = starts[1:-1] if closed else starts[1:]  # cuts between code lines only
        cuts = [block.start_offset, *line_bounds[1:]]
        bounds = [*cuts, block.end_offset + 1]
        reserve = len(block.fence[0]) + 1 + self._closing_len(block) + 1
        for k in range(len(cuts)):
            start, end = bounds[k], bounds[k + 1] - 1
            if k == 0:
                piece_strength = strength
            else:
                prev_line_blank = not src[bounds[k - 1] : start].strip() or src[start - 2 : start] == "\n\n"
                line = src[start:end]
                if prev_line_blank:
                    piece_strength = JOINT
                elif line[:1] not in (" ", "\t"):
                    piece_strength = CODE_LINE_LOW_INDENT
                else:
                    piece_strength = CODE_LINE
            first, last = k == 0, k == len(cuts) - 1
            if end - start + reserve <= self.budget:
                self.units.append(_Unit(start, end, block, piece_strength, False, first, last))
            else:
                self._split_text(block, start, end, piece_strength, first, last, reserve)

    def _split_text(
        self, block: Block, start: int, end: int, strength: int, first: bool, last: bool, reserve: int = 0
    ) -> None:
        """Cut [start, end) at sentences, then words, then hard cuts, each piece within budget."""
        budget = max(self.budget - reserve - (self._added_before(block) if block.kind == "table" else 0), 8)
        text = self.source[start:end]
        pieces: list[tuple[int, int, int]] = []  # (start, end, strength)
        self._cut(text, start, budget, strength, pieces, level=0)
        for k, (a, b, s) in enumerate(pieces):
            self.units.append(
                _Unit(a, b, block, s, False, first and k == 0, last and k == len(pieces) - 1)
            )

    def _cut(self, text: str, base: int, budget: int, strength: int, out: list[tuple[int, int, int]], level: int) -> None:
        if len(text) <= budget:
            out.append((base, base + len(text), strength))
            return
        if level == 0:
            cuts, piece_strength = sentence_cuts(text), SENTENCE
        elif level == 1:
            cuts, piece_strength = word_cuts(text), WORD
        else:
            cuts, piece_strength = hard_cuts(text, budget), HARD
        cuts = [c for c in cuts if not text.startswith(("```", "~~~"), c)]
        bounds = [0, *cuts, len(text)]
        for k in range(len(bounds) - 1):
            a, b = bounds[k], bounds[k + 1]
            piece = text[a:b]
            trimmed = piece.rstrip()
            s = strength if k == 0 else piece_strength
            if not trimmed:
                continue
            if len(trimmed) <= budget or level == 2:
                out.append((base + a, base + a + len(trimmed), s))
            else:
                before = len(out)
                self._cut(trimmed, base + a, budget, s, out, level + 1)
                if len(out) == before:
                    out.append((base + a, base + a + len(trimmed), s))

    # -- sizes ----------------------------------------------------------------
    def _added_before(self, block: Block) -> int:
        if block.kind == "table" and block.joints:
            return block.joints[0] - block.start_offset
        if block.kind == "code" and block.fence is not None:
            return len(block.fence[0]) + 1
        return 0

    def _closing_len(self, block: Block) -> int:
        if block.fence is None:
            return 0
        opening = block.fence[0]
        run = opening.lstrip(" ")
        marker = run[0] * (len(run) - len(run.lstrip(run[0])))
        return len(opening) - len(run) + len(marker)

    def size(self, i: int, e: int) -> int:
        units = self.units
        first, last = units[i], units[e - 1]
        size = last.end - first.start
        if not first.first:
            size += self._added_before(first.block)
        if not last.last and last.block.fence is not None:
            size += self._closing_len(last.block) + 1
        return size

    # -- packing --------------------------------------------------------------
    def ranges(self) -> list[tuple[int, int]]:
        units = self.units
        n = len(units)
        cfg = self.cfg
        budget = self.budget
        out: list[tuple[int, int]] = []
        i = 0
        while i < n:
            chosen = -1
            candidates: list[tuple[int, int, int]] = []
            for e in range(i + 1, n + 1):
                size = self.size(i, e)
                if size > budget:
                    break
                if e == n:
                    chosen = e
                    break
                if units[e - 1].glue:
                    continue
                candidates.append((e, size, units[e].strength))
            if chosen < 0:
                if candidates:
                    floor = max(cfg.target_chars // 2, cfg.min_chars)
                    good = [c for c in candidates if c[1] >= floor] or candidates
                    top = max(c[2] for c in good)
                    best = [c for c in good if c[2] == top]
                    chosen = min(best, key=lambda c: (abs(c[1] - cfg.target_chars), c[1]))[0]
                else:
                    chosen = i + 1  # one unit over budget: an overflow chunk
                    while chosen < n and units[chosen - 1].glue:
                        chosen += 1
            out.append((i, chosen))
            i = chosen
        if cfg.merge_short:
            out = self._merge_short(out)
        return out

    def _merge_short(self, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
        merged: list[tuple[int, int]] = []
        for rng in ranges:
            if merged:
                pi, pe = merged[-1]
                small = self.size(*rng) < self.cfg.min_chars or self.size(pi, pe) < self.cfg.min_chars
                if small and self.size(pi, rng[1]) <= self.budget:
                    merged[-1] = (pi, rng[1])
                    continue
            merged.append(rng)
        return merged


def pack(
    sections: Sequence[Section], source: str, cfg: ChunkerConfig, stem: str, title: str
) -> PackResult:
    """Chunks of every section, in order, with ids, neighbours, context and keys."""
    drafts: list[_Draft] = []
    diagnostics: list[Diagnostic] = []
    for section in sections:
        packer = _SectionPacker(source, section, cfg, title)
        packer.build_units()
        diagnostics.extend(packer.diagnostics)
        ranges = packer.ranges()
        drafts.extend(_draft(packer, i, e, diagnostics) for i, e in ranges)
    _number_parts(drafts)
    return PackResult(_finish(drafts, cfg, stem), tuple(diagnostics))


@dataclass(slots=True)
class _Draft:
    packer: _SectionPacker
    content: str
    start: int
    end: int
    start_line: int
    end_line: int
    path: tuple[Heading, ...]
    blocks: tuple[Block, ...]
    kinds: frozenset[str]
    added: tuple[AddedText, ...]
    continuation: bool
    split_block: Block | None
    over: bool
    part: int | None = None
    parts: int | None = None


def _draft(packer: _SectionPacker, i: int, e: int, diagnostics: list[Diagnostic]) -> _Draft:
    units = packer.units[i:e]
    source = packer.source
    first, last = units[0], units[-1]
    added: list[AddedText] = []
    if not first.first:
        block = first.block
        if block.kind == "table" and block.joints:
            added.append(AddedText("before", source[block.start_offset : block.joints[0]]))
        elif block.kind == "code" and block.fence is not None:
            added.append(AddedText("before", block.fence[0] + "\n"))
    content = (added[0].text if added else "") + source[first.start : last.end]
    if has_fence_marker(content):
        still_open = open_fence(content)
        if still_open is not None:
            closing = "\n" + _fence_indent(last.block) + still_open[0]
            added.append(AddedText("after", closing))
            content += closing
            cut_inside_code = not last.last and last.block.fence is not None
            if not cut_inside_code:
                diagnostics.append(
                    Diagnostic(
                        "warning",
                        "unclosed-fence",
                        f"a code fence in lines {first.block.start_line}-{last.block.end_line} is never closed; "
                        "the chunk closes it (declared in added_lines)",
                        line=last.block.start_line if last.block.kind == "code" else first.block.start_line,
                    )
                )
    blocks: list[Block] = []
    for unit in units:
        if not blocks or blocks[-1] is not unit.block:
            blocks.append(unit.block)
    body_blocks = [b for b in blocks if b.kind != "heading"]
    path = (body_blocks[0] if body_blocks else blocks[-1]).header_path
    kinds = frozenset({b.kind for b in blocks}.union(*(b.inner for b in blocks)))
    return _Draft(
        packer=packer,
        content=content,
        start=first.start,
        end=last.end,
        start_line=first.block.start_line if first.first else _line(source, first.start, first.block),
        end_line=last.block.end_line if last.last else _line(source, last.end, last.block),
        path=path,
        blocks=tuple(blocks),
        kinds=kinds if not (len(blocks) == 1 and blocks[0].atomic) else kinds | {"<atomic>"},
        added=tuple(added),
        continuation=not first.first,
        split_block=first.block if not first.first else (last.block if not last.last else None),
        over=packer.size(i, e) > packer.budget,
    )


def _fence_indent(block: Block) -> str:
    if block.fence is None:
        return ""
    opening = block.fence[0]
    return opening[: len(opening) - len(opening.lstrip(" "))]


def _line(source: str, offset: int, block: Block) -> int:
    return block.start_line + source.count("\n", block.start_offset, offset)


def _number_parts(drafts: list[_Draft]) -> None:
    groups: dict[int, list[_Draft]] = {}
    for draft in drafts:
        if draft.split_block is not None:
            groups.setdefault(id(draft.split_block), []).append(draft)
    for members in groups.values():
        for k, draft in enumerate(members, start=1):
            draft.part, draft.parts = k, len(members)


def _finish(drafts: list[_Draft], cfg: ChunkerConfig, stem: str) -> tuple[Chunk, ...]:
    count = len(drafts)
    ids = [f"chk_{k + 1:06d}" for k in range(count)]
    stem_slug = slug(stem)
    ziffers = [ziffer_of(d.path) for d in drafts]
    bases = [
        f"{stem_slug}/{slug(z) if z else slug(d.packer.section.title)}" for d, z in zip(drafts, ziffers, strict=True)
    ]
    totals: dict[str, int] = {}
    for base in bases:
        totals[base] = totals.get(base, 0) + 1
    seen: dict[str, int] = {}
    chunks: list[Chunk] = []
    previous: _Draft | None = None
    for k, draft in enumerate(drafts):
        base = bases[k]
        seen[base] = seen.get(base, 0) + 1
        key = base if totals[base] == 1 else f"{base}-{seen[base]}"
        section = draft.packer.section
        prefix = context_prefix(draft.path, section, draft.packer.title, draft.content, cfg)
        overlap = ""
        if cfg.overlap_sentences and previous is not None and previous.packer is draft.packer:
            overlap = _overlap(previous.content, cfg.overlap_sentences)
        embedding = _join(prefix, overlap, draft.content)
        if overlap and len(embedding) > cfg.max_chars:
            embedding = _join(prefix, "", draft.content)
        previous = draft
        over = draft.over or len(embedding) > cfg.max_chars
        atomic = "<atomic>" in draft.kinds
        chunks.append(
            Chunk(
                chunk_id=ids[k],
                chunk_index=k,
                content_original=draft.content,
                content_for_embedding=embedding,
                content_type="overflow" if over else ("atomic_block" if atomic else "section_fragment"),
                start_line=draft.start_line,
                end_line=draft.end_line,
                start_offset=draft.start,
                end_offset=draft.end,
                header_path=draft.path,
                section=section.title,
                block_ids=tuple(b.id for b in draft.blocks),
                has_code="code" in draft.kinds,
                has_table="table" in draft.kinds,
                has_math="math" in draft.kinds,
                is_overflow=over,
                is_sparse=len(embedding) < cfg.min_chars,
                previous_chunk_id=ids[k - 1] if k else None,
                next_chunk_id=ids[k + 1] if k + 1 < count else None,
                ziffer=ziffers[k],
                page=section.page,
                chunk_key=key,
                content_hash=hashlib.sha256(draft.content.encode("utf-8", "surrogatepass")).hexdigest(),
                is_continuation=draft.continuation,
                part=draft.part,
                parts=draft.parts,
                added_lines=draft.added,
                size=len(embedding),
            )
        )
    return tuple(chunks)


def _join(prefix: str, overlap: str, content: str) -> str:
    return PREFIX_SEPARATOR.join(p for p in (prefix, overlap, content) if p)


def _overlap(previous: str, sentences: int) -> str:
    cuts = sentence_cuts(previous)
    if not cuts:
        return ""
    start = cuts[-sentences] if len(cuts) >= sentences else 0
    return previous[start:].strip()
