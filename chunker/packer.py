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

import functools
import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from chunker.config import ChunkerConfig
from chunker.fences import closing_line, fence_after, has_fence_marker
from chunker.models import UNCLOSED_FENCE, AddedText, Block, Chunk, Diagnostic, Heading
from chunker.sentences import hard_cuts, sentence_cuts, word_cuts
from chunker.sizes import Counter, make_counter
from chunker.sources import STEM_RE
from chunker.strategies import Section

# Strength of the boundary before a unit: the packer cuts at the strongest one in reach.
HEADING_BASE = 20  # before a heading of level L: HEADING_BASE - L
BLOCK = 10
INTRODUCED = 8  # a block after a paragraph ending with ':' that introduces it ("For example:")
JOINT = 6  # list item, table row, code line after a blank line
CODE_LINE_LOW_INDENT = 5
SENTENCE = 4
CODE_LINE = 3
WORD = 2
HARD = 0

PREFIX_SEPARATOR = "\n\n"
MAX_PREFIX_SHARE = 4
"""A context prefix takes at most 1/MAX_PREFIX_SHARE of max_chars (long headings are shortened)."""

_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)", re.MULTILINE)
"""A list item marker at the start of a line's text."""

_ZIFFER = re.compile(
    r"^\s*(?:\(X+\)\s*)?"  # "(XXXX) §§ 3 bis 6" (gesetze-im-internet.de placeholders)
    r"(§§?\s*\d+[a-z]?|(?:Art\.|Artikel|Article|Articolo|Статья)\s*\d+[a-z]?|\d{1,3}(?:\.\d+)*)(?:\.)?(?=\s|$)",
    re.IGNORECASE,
)
"""A heading's leading section number; a bare number has at most 3 digits before its first dot
(``2024 Release notes`` is a year, not a Ziffer)."""


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
            return re.sub(r"(§+)\s*", r"\1 ", re.sub(r"\s+", " ", match.group(1))).strip()
    return None


def slug(text: str, limit: int = 60) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[^\w§]+", "-", text).replace("§", "p").strip("-_")
    return text[:limit].rstrip("-_") or "x"


def context_prefix(path: Sequence[Heading], section: Section, title: str, content: str, cfg: ChunkerConfig) -> str:
    """The deterministic context line(s) put before a chunk's content for embedding."""
    mode = cfg.context_prefix
    limit = cfg.max_chars // MAX_PREFIX_SHARE
    if mode == "none":
        return ""
    if mode == "heading":
        line = f"{'#' * max(section.level, 1)} {section.title}"
        starts_with_it = content.startswith(line) or section.title in _leading_headings(content)
        return "" if starts_with_it else _shorten(line, limit)
    texts = _breadcrumb(path, section, cfg.context_depth)
    if mode == "blockquote":
        parts = [title, *texts] if not texts or texts[0] != title else texts
        return _no_fence(_shorten(f"> {cfg.context_label}: {' > '.join(parts)}", limit))
    if not texts:
        return (
            ""
            if not section.title or content.lstrip("# ").startswith(section.title)
            else _no_fence(_shorten(section.title, limit))
        )
    if texts[-1] in content:  # else it is no leading heading either (they are pieces of content)
        leading = _leading_headings(content)
        while texts and texts[-1] in leading:
            texts.pop()  # the chunk starts with that very heading line: never say it twice
    return _no_fence(_shorten(" > ".join(texts), limit))


_FENCE_RUN = re.compile(r"`{3,}|~{3,}")


def _no_fence(prefix: str) -> str:
    """A context line never opens a code fence: a heading that starts with ``` or ~~~ (plain text
    of ``# ```js example``) keeps two of them."""
    return _FENCE_RUN.sub(lambda m: m.group(0)[:2], prefix) if has_fence_marker(prefix) else prefix


def _breadcrumb(path: Sequence[Heading], section: Section, depth: int) -> list[str]:
    """The heading texts of a breadcrumb: the last ``depth`` of ``path``; when the path is deeper
    than that, the section's own heading first, then the deepest ``depth - 1`` (the section is
    what a chunk belongs to, so its name is never dropped)."""
    if depth <= 0:
        return []
    if section.level and section.blocks and path and path[-1].level >= section.level:
        # a heading of the section's level or deeper from before the section is not its context
        # (a question in bold after a question heading, in strategy faq)
        first_line = section.blocks[0].start_line
        path = [h for h in path if h.level < section.level or h.line >= first_line]
    tail = path[-depth:]
    if depth == 1 or len(path) <= depth or not section.level:
        return [h.text for h in tail]
    anchor = next((h for h in path if h.level == section.level and h.text == section.title), None)
    if anchor is None or anchor in tail:
        return [h.text for h in tail]
    return [anchor.text, *(h.text for h in path[-(depth - 1) :])]


def _leading_headings(content: str) -> set[str]:
    """Texts of the heading lines a chunk starts with (ATX ``#`` lines, or a first plain line);
    blank lines between them do not count."""
    found: set[str] = set()
    start = 0
    seen = 0
    while seen < 8 and start < len(content):  # the first 8 lines with text, one at a time
        end = content.find("\n", start)
        stripped = (content[start:] if end == -1 else content[start:end]).strip()
        if stripped:
            if stripped.startswith("#"):
                found.add(stripped.lstrip("#").strip())
            elif seen == 0:
                found.add(stripped)  # a setext or plain-text heading line
            else:
                break
            seen += 1
        if end == -1:
            break
        start = end + 1
    return found


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


class _SectionPacker:
    def __init__(self, source: str, section: Section, cfg: ChunkerConfig, title: str, measure: Counter = len) -> None:
        self.source = source
        self.section = section
        self.cfg = cfg
        self.title = title
        self.measure = measure
        """Size of a text in the configured unit (``len`` for characters)."""
        self.chars_mode = cfg.size_unit == "chars"
        self.diagnostics: list[Diagnostic] = []
        self.units: list[_Unit] = []
        blocks = section.blocks
        span = blocks[-1].end_offset - blocks[0].start_offset if blocks else 0
        # A context line is at most max_chars // MAX_PREFIX_SHARE characters: a section that fits
        # beside the longest possible one needs no prefix computed (most small sections).
        surely = span <= cfg.max_chars - cfg.max_chars // MAX_PREFIX_SHARE - len(PREFIX_SEPARATOR)
        self.fits_whole = self.chars_mode and bool(blocks) and (surely or span <= self.budget)
        """The section fits in the budget (in characters): one unit per block and one chunk, no
        size to compute for either (about half of all sections)."""
        self._unit_sums: list[int] = []
        self._gap_sums: list[int] = []
        self.fence_memo: tuple[int, int, tuple[str, str] | None] = (-1, 0, None)
        """(block start offset, offset, fence open there) of the last ``_nested_fence`` lookup."""
        self.line_memo: tuple[int, int, int] = (-1, 0, 0)
        """(block start offset, offset, line) of the last ``_line`` lookup: pieces of one split
        block are numbered in order, so counting on from there keeps it linear."""

    @functools.cached_property
    def budget(self) -> int:
        """max_chars less the section's longest context line (and its separator)."""
        section, cfg, measure = self.section, self.cfg, self.measure
        paths = {id(b.header_path): b.header_path for b in section.blocks}.values()  # blocks share path tuples
        prefixes = {context_prefix(path, section, self.title, "", cfg) for path in paths}
        longest_prefix = max((measure(p) for p in prefixes if p), default=0)
        return cfg.max_chars - (longest_prefix + measure(PREFIX_SEPARATOR) if longest_prefix else 0)

    def span(self, start: int, end: int) -> int:
        """Size of source[start:end] in the configured unit."""
        return end - start if self.chars_mode else self.measure(self.source[start:end])

    # -- units ---------------------------------------------------------------
    def build_units(self) -> None:
        units, span, fits_whole = self.units, self.span, self.fits_whole
        budget = 0 if fits_whole else self.budget
        glued_from: int | None = None  # start of the headings that stick to the next block
        introduces = False  # the previous block is a paragraph that ends with a colon
        for position, block in enumerate(self.section.blocks):
            start, end = block.start_offset, block.end_offset
            heading = block.kind == "heading"
            strength = HEADING_BASE - block.heading_level if heading and position else BLOCK
            if introduces and not heading and position:
                strength = INTRODUCED  # cut elsewhere if a block boundary is in reach
            introduces = block.kind == "paragraph" and _ends_with_colon(self.source, start, end)
            if not fits_whole:
                lead_from = glued_from
                lead = 0 if lead_from is None else span(lead_from, start)
                glued_from = (start if glued_from is None else glued_from) if heading else None
                size = span(start, end)
                if size > budget or (
                    lead_from is not None
                    and lead + size > budget
                    and self._splittable(block)
                    and self._over_max(lead_from, block)
                ):
                    self._split(block, strength)
                    continue
            units.append(_Unit(start, end, block, strength, heading))

    def _over_max(self, lead_from: int, block: Block) -> bool:
        """Whether the headings from ``lead_from`` and ``block`` after them, with the context prefix
        a chunk starting there gets, pass max_chars. The budget allows for the section's longest
        prefix; a chunk that starts with its headings often has a shorter one and fits whole."""
        content = self.source[lead_from : block.end_offset]
        prefix = context_prefix(block.header_path, self.section, self.title, content, self.cfg)
        return self.measure(_join(prefix, "", content)) > self.cfg.max_chars

    def _splittable(self, block: Block) -> bool:
        """Whether the block may be cut into pieces (it fits alone but not after its headings)."""
        if block.kind in ("math", "html", "heading", "thematic_break"):
            return False
        return self.cfg.split_oversize or not block.atomic

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
        elif block.kind == "list":
            self._split_item(block, block.start_offset, block.end_offset, strength, True, True)
        elif block.kind == "code" and block.fence is not None:
            self._split_code(block, strength)
        elif block.kind == "code":
            self._split_indented_code(block, strength)
        else:
            # force: a block that fits alone but not after its headings is cut at sentences too
            self._split_text(block, block.start_offset, block.end_offset, strength, True, True, force=True)

    def _split_at(self, block: Block, cuts: list[int], strength: int, joint: int, glue_first: bool = False) -> None:
        bounds = [*cuts, block.end_offset + 1]
        for k in range(len(cuts)):
            start, end = bounds[k], bounds[k + 1] - 1
            piece_strength = strength if k == 0 else joint
            first, last = k == 0, k == len(cuts) - 1
            reserve = self._added_before(block) if not first else 0
            if self.span(start, end) + reserve <= self.budget:
                self.units.append(_Unit(start, end, block, piece_strength, glue_first and k == 0, first, last))
            elif block.kind == "list":
                self._split_item(block, start, end, piece_strength, first, last)
            else:
                self._split_text(block, start, end, piece_strength, first, last)

    def _split_item(self, block: Block, start: int, end: int, strength: int, first: bool, last: bool) -> None:
        """One list item over budget, cut like paragraphs inside it: at its nested items and blank
        lines (a piece starts at the line's text, so it renders as a list or a paragraph, never as
        indented code), then at sentences, words, hard cuts."""
        src = self.source
        cuts: list[tuple[int, int]] = [(start, strength)]
        fenced = "code" in block.inner and has_fence_marker(src[start:end])
        opened = self._nested_fence(block, start) if fenced else None
        pos = src.find("\n", start, end)
        while pos != -1:
            line_start = pos + 1
            text_start = line_start
            while text_start < end and src[text_start] in " \t":
                text_start += 1
            after_blank = src[pos - 1 : pos] == "\n" or not src[src.rfind("\n", 0, pos) + 1 : pos].strip()
            if fenced:
                before = opened
                line_end = src.find("\n", line_start, end)
                opened = fence_after(src[line_start : end if line_end == -1 else line_end], opened)
                if before is not None:  # inside a nested code fence: only weak cuts between its lines
                    if opened is not None and text_start < end and src[text_start] != "\n":
                        cuts.append((line_start, CODE_LINE))
                    pos = src.find("\n", line_start, end)
                    continue
            if text_start < end and src[text_start] != "\n":
                if _LIST_MARKER.match(src, text_start):
                    cuts.append((text_start, JOINT - 1 if text_start - line_start < 4 else CODE_LINE))
                elif after_blank:
                    cuts.append((text_start, SENTENCE))
            pos = src.find("\n", line_start, end)
        self._emit_cuts(block, cuts, end, first, last)

    def _nested_fence(self, block: Block, offset: int) -> tuple[str, str] | None:
        """The code fence nested in ``block`` (a list or quote) that is open at ``offset``, as
        (marker run, opening line). Scans on from the previous call in the same block, so the
        pieces of a long list cost one pass."""
        memo_start, memo_offset, state = self.fence_memo
        if memo_start != block.start_offset or offset < memo_offset:
            memo_offset, state = block.start_offset, None
        state = fence_after(self.source[memo_offset:offset], state)
        self.fence_memo = (block.start_offset, offset, state)
        return state

    def _emit_cuts(self, block: Block, cuts: list[tuple[int, int]], end: int, first: bool, last: bool) -> None:
        """Units from (offset, strength) cuts ending at ``end``, trailing whitespace trimmed; a
        piece over budget is cut further like text."""
        src = self.source
        bounds = [c for c, _ in cuts[1:]] + [end]
        for k, (a, s) in enumerate(cuts):
            b = bounds[k]
            while b > a and src[b - 1].isspace():
                b -= 1
            is_first, is_last = first and k == 0, last and k == len(cuts) - 1
            if self.span(a, b) <= self.budget:
                self.units.append(_Unit(a, b, block, s, False, is_first, is_last))
            else:
                self._split_text(block, a, b, s, is_first, is_last)

    def _line_starts(self, start: int, end: int) -> list[int]:
        """Offsets of the lines of source[start:end], ``start`` first."""
        src = self.source
        starts = [start]
        pos = src.find("\n", start, end)
        while pos != -1:
            starts.append(pos + 1)
            pos = src.find("\n", pos + 1, end)
        return starts

    def _split_indented_code(self, block: Block, strength: int) -> None:
        """Indented code (no fence) between lines: a piece starts at a line with its indentation, so
        it is indented code again. Cuts after a blank line are preferred, then lines at the block's
        lowest indentation."""
        src = self.source
        starts = self._line_starts(block.start_offset, block.end_offset)
        lines = [
            src[a : (starts[k + 1] - 1 if k + 1 < len(starts) else block.end_offset)] for k, a in enumerate(starts)
        ]
        lowest = min((len(t) - len(t.lstrip(" \t")) for t in lines if t.strip()), default=0)
        cuts: list[tuple[int, int]] = [(block.start_offset, strength)]
        for k in range(1, len(starts)):
            line = lines[k]
            if not line.strip():
                continue  # a piece never starts with a blank line
            if not lines[k - 1].strip():
                cuts.append((starts[k], JOINT))
            elif len(line) - len(line.lstrip(" \t")) <= lowest:
                cuts.append((starts[k], CODE_LINE_LOW_INDENT))
            else:
                cuts.append((starts[k], CODE_LINE))
        self._emit_cuts(block, cuts, block.end_offset, True, True)

    def _split_code(self, block: Block, strength: int) -> None:
        assert block.fence is not None
        src = self.source
        # Units are lines; the opening fence sticks to the first code line, the closing to the last.
        starts = self._line_starts(block.start_offset, block.end_offset)
        if len(starts) <= 2:
            self._split_text(block, block.start_offset, block.end_offset, strength, True, True)
            return
        closed = bool(block.fence[1])
        line_bounds = starts[1:-1] if closed else starts[1:]  # cuts between code lines only
        cuts = [block.start_offset, *line_bounds[1:]]
        bounds = [*cuts, block.end_offset + 1]
        reserve = self.measure(block.fence[0] + "\n") + self.measure(self._closing_text(block) + "\n")
        code_lines = [src[a : b - 1] for a, b in pairwise(bounds[1:])]
        lowest = min((len(t) - len(t.lstrip(" \t")) for t in code_lines if t.strip()), default=0)
        for k in range(len(cuts)):
            start, end = bounds[k], bounds[k + 1] - 1
            if k == 0:
                piece_strength = strength
            else:
                prev_line_blank = not src[bounds[k - 1] : start].strip() or src[start - 2 : start] == "\n\n"
                line = src[start:end]
                if prev_line_blank:
                    piece_strength = JOINT
                elif line.strip() and len(line) - len(line.lstrip(" \t")) <= lowest:
                    piece_strength = CODE_LINE_LOW_INDENT
                else:
                    piece_strength = CODE_LINE
            first, last = k == 0, k == len(cuts) - 1
            if self.span(start, end) + reserve <= self.budget:
                self.units.append(_Unit(start, end, block, piece_strength, False, first, last))
            else:
                self._split_text(block, start, end, piece_strength, first, last, reserve)

    def _split_text(
        self,
        block: Block,
        start: int,
        end: int,
        strength: int,
        first: bool,
        last: bool,
        reserve: int = 0,
        force: bool = False,
    ) -> None:
        """Cut [start, end) at sentences, then words, then hard cuts, each piece within budget
        (with ``force``, at sentences even when the whole fits)."""
        budget = max(self.budget - reserve - (self._added_before(block) if block.kind == "table" else 0), 8)
        text = self.source[start:end]
        pieces: list[tuple[int, int, int]] = []  # (start, end, strength)
        self._cut(text, start, budget, strength, pieces, level=0, force=force)
        for k, (a, b, s) in enumerate(pieces):
            self.units.append(_Unit(a, b, block, s, False, first and k == 0, last and k == len(pieces) - 1))

    def _cut(
        self,
        text: str,
        base: int,
        budget: int,
        strength: int,
        out: list[tuple[int, int, int]],
        level: int,
        force: bool = False,
    ) -> None:
        if not force and self.measure(text) <= budget:
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
            if level == 2 or self.measure(trimmed) <= budget:
                out.append((base + a, base + a + len(trimmed), s))
            else:
                before = len(out)
                self._cut(trimmed, base + a, budget, s, out, level + 1)
                if len(out) == before:
                    out.append((base + a, base + a + len(trimmed), s))

    # -- sizes ----------------------------------------------------------------
    def _added_before(self, block: Block) -> int:
        """Size of the text a piece of ``block`` repeats before itself (table header, opening fence)."""
        return self.measure(_repeated_before(block, self.source))

    def _closing_text(self, block: Block) -> str:
        """The fence line that closes a piece of fenced ``block`` (as :func:`_draft` will add it)."""
        if block.fence is None:
            return ""
        opening = block.fence[0]
        stripped = opening.lstrip(" ")
        run = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
        return closing_line(opening, run)

    def _sums(self) -> None:
        """Prefix sums of unit sizes and of the gaps between units (token mode)."""
        units, source, measure = self.units, self.source, self.measure
        unit_sums = [0]
        gap_sums = [0]
        for k, unit in enumerate(units):
            unit_sums.append(unit_sums[-1] + measure(source[unit.start : unit.end]))
            if k:
                gap = source[units[k - 1].end : unit.start]
                gap_sums.append(gap_sums[-1] + (measure(gap) if gap else 0))
        self._unit_sums, self._gap_sums = unit_sums, gap_sums

    def size(self, i: int, e: int) -> int:
        """Size of the chunk made of units[i:e], with the text it adds, in the configured unit. In
        token mode: the units' token counts plus those of the gaps between them."""
        units = self.units
        first, last = units[i], units[e - 1]
        if self.chars_mode:
            size = last.end - first.start
        else:
            if len(self._unit_sums) != len(units) + 1:
                self._sums()
            size = self._unit_sums[e] - self._unit_sums[i] + self._gap_sums[e - 1] - self._gap_sums[i]
        return size + self._added_at_start(first) + self._added_at_end(last)

    def _added_at_start(self, unit: _Unit) -> int:
        """Size of the text a chunk starting with ``unit`` repeats before it (table header, fence)."""
        return 0 if unit.first else self._added_before(unit.block)

    def _added_at_end(self, unit: _Unit) -> int:
        """Size of the closing fence a chunk ending with ``unit`` (a piece of fenced code) adds."""
        if unit.last or unit.block.fence is None:
            return 0
        return self.measure(self._closing_text(unit.block) + "\n")

    # -- packing --------------------------------------------------------------
    def ranges(self) -> list[tuple[int, int]]:
        units = self.units
        n = len(units)
        cfg = self.cfg
        if self.fits_whole:
            return [(0, n)]
        budget = self.budget
        out: list[tuple[int, int]] = []
        chars_mode = self.chars_mode
        # In characters, size(i, e) is computed inline: the span plus the text added at each end.
        # Whole blocks add none; else what a chunk adds after each unit is looked up only once.
        spans_only = chars_mode and all(u.first and u.last for u in units)
        added_at_end = [0] * n if spans_only or not chars_mode else [self._added_at_end(u) for u in units]
        i = 0
        while i < n:
            chosen = -1
            candidates: list[tuple[int, int, int]] = []
            start_i = units[i].start
            added_at_start = self._added_at_start(units[i])
            for e in range(i + 1, n + 1):
                if chars_mode:
                    size = units[e - 1].end - start_i + added_at_start + added_at_end[e - 1]
                else:
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
                    # Never cross a sub-heading only to cut at a weaker boundary after it.
                    crossed = [
                        c for c in candidates if c[0] < chosen and c[2] > top and c[2] > BLOCK and c[1] >= cfg.min_chars
                    ]
                    if crossed:
                        strongest = max(c[2] for c in crossed)
                        chosen = max(c[0] for c in crossed if c[2] == strongest)
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


def pack(sections: Sequence[Section], source: str, cfg: ChunkerConfig, stem: str, title: str) -> PackResult:
    """Chunks of every section, in order, with ids, neighbours, context and keys."""
    drafts: list[_Draft] = []
    diagnostics: list[Diagnostic] = []
    measure = make_counter(cfg)
    for section in sections:
        packer = _SectionPacker(source, section, cfg, title, measure)
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
    part: int | None = None
    parts: int | None = None


def _draft(packer: _SectionPacker, i: int, e: int, diagnostics: list[Diagnostic]) -> _Draft:
    units = packer.units[i:e]
    source = packer.source
    first, last = units[0], units[-1]
    added: list[AddedText] = []
    if not first.first:
        repeated = _repeated_before(first.block, source)
        if not repeated and first.block.fence is None and "code" in first.block.inner:
            nested = packer._nested_fence(first.block, first.start)  # a piece that starts inside it reopens it
            if nested is not None:
                repeated = nested[1] + "\n"
        if repeated:
            added.append(AddedText("before", repeated))
    content = (added[0].text if added else "") + source[first.start : last.end]
    if has_fence_marker(content):
        still_open = fence_after(content)
        if still_open is not None:
            closing = "\n" + closing_line(still_open[1], still_open[0])
            added.append(AddedText("after", closing))
            content += closing
            # Reported only where the parser saw a fence left open, in a block that ends in this
            # chunk: not for a cut inside code, nor for backticks in indented code or HTML.
            if any(u.last and _left_open(u.block) for u in units):
                diagnostics.append(
                    Diagnostic(
                        "error" if packer.cfg.fail_on_broken_fence else "warning",
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
    path = blocks[-1].header_path  # that of the first body block; of the last heading if none
    for block in blocks:
        if block.kind != "heading":
            path = block.header_path
            break
    kind_set: set[str] = {b.kind for b in blocks}
    for block in blocks:
        if block.inner:
            kind_set |= block.inner
    if len(blocks) == 1 and blocks[0].atomic:
        kind_set.add("<atomic>")
    # Fields by position: a dataclass called with keywords takes about twice as long.
    return _Draft(
        packer,
        content,
        first.start,  # start
        last.end,  # end
        first.block.start_line if first.first else _line(packer, first.start, first.block),  # start_line
        last.block.end_line if last.last else _line(packer, last.end, last.block),  # end_line
        path,
        tuple(blocks),
        frozenset(kind_set),  # kinds
        tuple(added),  # added
        not first.first,  # continuation
        first.block if not first.first else (last.block if not last.last else None),  # split_block
    )


def _left_open(block: Block) -> bool:
    """Whether the parser saw a code fence in ``block`` that the source never closes (else a fence
    the conservative scan finds open is a cut, or backticks in indented code or HTML)."""
    if block.fence is not None:
        return not block.fence[1]
    return UNCLOSED_FENCE in block.inner


def _ends_with_colon(source: str, start: int, end: int) -> bool:
    """Whether source[start:end] ends with a colon, trailing whitespace aside."""
    while end > start and source[end - 1].isspace():
        end -= 1
    return end > start and source[end - 1] in ":："


def _repeated_before(block: Block, source: str) -> str:
    """The text a piece of ``block`` (not its first) repeats before itself: a table's header and
    delimiter rows, a fenced code block's opening fence line; else nothing."""
    if block.kind == "table" and block.joints:
        return source[block.start_offset : block.joints[0]]
    if block.kind == "code" and block.fence is not None:
        return block.fence[0] + "\n"
    return ""


def _line(packer: _SectionPacker, offset: int, block: Block) -> int:
    """1-based line of ``offset`` inside ``block``; counts on from the previous lookup in the same
    block (a 10 MB paragraph cut into thousands of pieces must not be rescanned for each)."""
    memo_block, memo_offset, memo_line = packer.line_memo
    if memo_block != block.start_offset or offset < memo_offset:
        memo_offset, memo_line = block.start_offset, block.start_line
    line = memo_line + packer.source.count("\n", memo_offset, offset)
    packer.line_memo = (block.start_offset, offset, line)
    return line


def _number_parts(drafts: list[_Draft]) -> None:
    """``part``/``parts`` of the block a draft continues (or else starts). Every draft holding a
    piece of a split block counts in its ``parts``, also one whose own part is that of an earlier
    block it ends (it then starts the next split block)."""
    groups: dict[int, list[_Draft]] = {}
    for draft in drafts:
        first, last = draft.blocks[0], draft.blocks[-1]
        if draft.start <= first.start_offset and draft.end >= last.end_offset:
            continue  # whole blocks only (the common case): holds no piece
        held = [b for b in (first, last) if draft.start > b.start_offset or draft.end < b.end_offset]
        for block in dict.fromkeys(held):
            groups.setdefault(id(block), []).append(draft)
    for block_id, members in groups.items():
        for k, draft in enumerate(members, start=1):
            if draft.split_block is not None and id(draft.split_block) == block_id:
                draft.part, draft.parts = k, len(members)


def key_base(stem_slug: str, ziffer: str | None, section: Section) -> str:
    """``<stem>/<ziffer or page-N or section heading>``, the second part slugged."""
    if ziffer:
        return f"{stem_slug}/{slug(ziffer)}"
    if section.page is not None:
        return f"{stem_slug}/page-{section.page}"
    return f"{stem_slug}/{slug(section.title)}"


def chunk_keys(bases: Sequence[str], sections: Sequence[int]) -> list[str]:
    """Stable keys: the base, plus ``@n`` for the n-th (n >= 2) section that yields the same base and
    ``~k`` for the k-th chunk of a section with several chunks of that base. Only a section's own
    chunks and same-named sections before it decide its keys, so editing an unrelated section
    leaves them alone. ``@`` and ``~`` never occur in a slug, so keys are unique."""
    occurrence: dict[str, list[int]] = {}
    per_section: dict[tuple[str, int], int] = {}
    for base, section in zip(bases, sections, strict=True):
        owners = occurrence.setdefault(base, [])
        if section not in owners:
            owners.append(section)
        per_section[(base, section)] = per_section.get((base, section), 0) + 1
    seen: dict[tuple[str, int], int] = {}
    keys: list[str] = []
    for base, section in zip(bases, sections, strict=True):
        n = occurrence[base].index(section) + 1
        seen[(base, section)] = seen.get((base, section), 0) + 1
        key = base if n == 1 else f"{base}@{n}"
        keys.append(key if per_section[(base, section)] == 1 else f"{key}~{seen[(base, section)]}")
    return keys


def _finish(drafts: list[_Draft], cfg: ChunkerConfig, stem: str) -> tuple[Chunk, ...]:
    count = len(drafts)
    ids = [f"chk_{k + 1:06d}" for k in range(count)]
    # The stem itself when it is a valid one (as every CLI stem is): keys of two documents never
    # meet, even for stems a slug would merge (user.guide / user-guide, or a long shared start).
    stem_slug = stem if STEM_RE.match(stem) else slug(stem)
    measure = drafts[0].packer.measure if drafts else len
    # drafts of one section share their path tuples and section: number and key each only once
    ziffer_memo: dict[int, str | None] = {}
    base_memo: dict[tuple[str | None, int], str] = {}
    ziffers: list[str | None] = []
    bases: list[str] = []
    for draft in drafts:
        path_id = id(draft.path)
        if path_id not in ziffer_memo:
            ziffer_memo[path_id] = ziffer_of(draft.path)
        ziffer = ziffer_memo[path_id]
        base_key = (ziffer, id(draft.packer.section))
        if base_key not in base_memo:
            base_memo[base_key] = key_base(stem_slug, ziffer, draft.packer.section)
        ziffers.append(ziffer)
        bases.append(base_memo[base_key])
    section_ids: dict[int, int] = {}
    for draft in drafts:
        section_ids.setdefault(id(draft.packer), len(section_ids))
    keys = chunk_keys(bases, [section_ids[id(d.packer)] for d in drafts])
    chunks: list[Chunk] = []
    previous: _Draft | None = None
    for k, draft in enumerate(drafts):
        key = keys[k]
        section = draft.packer.section
        prefix = context_prefix(draft.path, section, draft.packer.title, draft.content, cfg)
        overlap = ""
        if cfg.overlap_sentences and previous is not None and previous.packer is draft.packer:
            overlap = _overlap(previous.content, cfg.overlap_sentences)
        embedding = _join(prefix, overlap, draft.content)
        if overlap and measure(embedding) > cfg.max_chars:
            embedding = _join(prefix, "", draft.content)
        previous = draft
        size = measure(embedding)
        over = size > cfg.max_chars  # a range over the (conservative) budget may still fit its own prefix
        atomic = "<atomic>" in draft.kinds
        # Fields by position: a dataclass called with 28 keywords takes about four times as long.
        chunks.append(
            Chunk(
                ids[k],  # chunk_id
                k,  # chunk_index
                draft.content,  # content_original
                embedding,  # content_for_embedding
                "overflow" if over else ("atomic_block" if atomic else "section_fragment"),  # content_type
                draft.start_line,  # start_line
                draft.end_line,  # end_line
                draft.start,  # start_offset
                draft.end,  # end_offset
                draft.path,  # header_path
                section.title,  # section
                tuple([b.id for b in draft.blocks]),  # block_ids
                "code" in draft.kinds,  # has_code
                "table" in draft.kinds,  # has_table
                "math" in draft.kinds,  # has_math
                over,  # is_overflow
                size < cfg.min_chars,  # is_sparse
                ids[k - 1] if k else None,  # previous_chunk_id
                ids[k + 1] if k + 1 < count else None,  # next_chunk_id
                ziffers[k],  # ziffer
                section.page,  # page
                key,  # chunk_key
                hashlib.sha256(draft.content.encode("utf-8", "surrogatepass")).hexdigest(),  # content_hash
                draft.continuation,  # is_continuation
                draft.part,  # part
                draft.parts,  # parts
                draft.added,  # added_lines
                size,  # size
            )
        )
    return tuple(chunks)


def _join(prefix: str, overlap: str, content: str) -> str:
    return PREFIX_SEPARATOR.join([p for p in (prefix, overlap, content) if p])


def _overlap(previous: str, sentences: int) -> str:
    """The last ``sentences`` sentences of the previous chunk; none when they would carry a code
    fence line (a piece of code, or its closing line, would open a fence in this chunk)."""
    cuts = sentence_cuts(previous)
    if not cuts:
        return ""
    start = cuts[-sentences] if len(cuts) >= sentences else 0
    text = previous[start:].strip()
    return "" if has_fence_marker(text) else text
