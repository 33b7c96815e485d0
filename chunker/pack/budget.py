"""One section being packed: its source, configuration, size unit and budget.

Every size is in the configured unit (characters, or tokens with ``size_unit: tokens``). The
budget is max_chars less the section's longest context line, so any chunk within it fits with
its prefix. A piece of a split block may carry text the source does not have at its place (a
repeated table header, the fence lines that re-open and close a code piece): the sizes here
allow for it.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import islice

from chunker.config import ChunkerConfig
from chunker.fence_lines import fence_text
from chunker.fences import closing_line, fence_after
from chunker.filler import MIN_LETTERS, is_filler
from chunker.models import Block, Diagnostic
from chunker.pack.block_lines import REOPENED, BlockLines
from chunker.pack.context import MAX_PREFIX_SHARE, PREFIX_SEPARATOR, SectionContext
from chunker.pack.repeats import closing_text, repeated_after, repeated_before
from chunker.pack.strength import Unit
from chunker.pack.tables import HEADER_SHARE, Padding, collapse, header_of
from chunker.sizes import Counter
from chunker.strategies import Section
from chunker.template_tags import closed_shortcodes

_LETTER = re.compile(r"[^\W_]")
"""A letter or digit (as :mod:`chunker.filler` counts them)."""


def reopens(block: Block) -> bool:
    """Whether a piece of ``block`` re-opens what it starts inside (:meth:`SectionSpace.reopen`):
    a list's or quote's containers, a container's title line (an HTML block's open elements, see
    :mod:`chunker.pack.split_html`), indented code's indentation."""
    return block.kind in REOPENED or block.frame is not None or (block.kind == "code" and block.fence is None)


class SectionSpace:
    """The section, where it sits, and what fits in one of its chunks."""

    def __init__(
        self, source: str, section: Section, index: int, cfg: ChunkerConfig, title: str, measure: Counter = len
    ) -> None:
        self.source = source
        self.section = section
        self.index = index
        """Position of the section in the document: its identity."""
        self.cfg = cfg
        self.title = title
        self.measure = measure
        """Size of a text in the configured unit (``len`` for characters)."""
        self.chars_mode = cfg.size_unit == "chars"
        closed = closed_shortcodes(source) if cfg.embedding_drop_template_tags else frozenset[str]()
        self.context = SectionContext(section, title, cfg, closed)
        """The context lines of the section's chunks, once per heading path."""
        blocks = section.blocks
        span = blocks[-1].end_offset - blocks[0].start_offset if blocks else 0
        # A context line is at most max_chars // MAX_PREFIX_SHARE characters: a section that fits
        # beside the longest possible one needs no prefix computed (most small sections).
        surely = span <= cfg.max_chars - cfg.max_chars // MAX_PREFIX_SHARE - len(PREFIX_SEPARATOR)
        self.fits_whole = self.chars_mode and bool(blocks) and (surely or span <= self.budget)
        """The section fits in the budget (in characters): one unit per block and one chunk, no
        size to compute for either (about half of all sections)."""
        self.notes: list[Diagnostic] = []
        """Warnings of the splitters (a table row kept whole as an overflow piece)."""
        self.fence_memo: tuple[int, list[int], list[tuple[str, str] | None]] = (-1, [], [])
        """(block start offset, line starts in order, the fence open at each) that ``nested_fence`` scanned to in
        that block: where a lookup resumes."""
        self.lines = BlockLines(source, cfg)
        """The structure of the section's list, quote and container blocks and the lines of what is
        nested in them (:mod:`chunker.pack.block_lines`)."""
        self.reopen_memo: dict[tuple[int, int], str] = {}
        self.leads: dict[tuple[int, int], str] = {}
        """(block start offset, offset) -> what a piece starting there re-opens in its text for embedding,
        where that differs (:attr:`chunker.pack.reopen.Structure.leads`)."""
        self.headers: dict[int, str] = {}
        """The header each split table repeats ("" when too long to repeat), by its start offset:
        one string for all its pieces."""
        self.html_closings: dict[tuple[int, int], str] = {}
        """(block start offset, piece end offset) -> the closing tags a piece of a split HTML block
        ending there adds (:mod:`chunker.pack.split_html`)."""
        self.unopened: set[tuple[int, int]] = set()
        """(block start offset, offset) of pieces whose containers are too many to re-open."""
        self.fillers: dict[int, bool] = {}
        """Whether a block is filler (:func:`chunker.filler.is_filler`), by its start offset."""
        padding = Padding(source, blocks, self.lines.nested_tables)
        self.padding = padding if padding else None
        """Padding of the section's tables (top-level and nested): not counted in sizes, collapsed for
        embedding; None when they have none (tested in the packer's inner loops: a ``None`` test, not a
        ``__bool__`` call)."""

    def fence_text(self, blocks: Sequence[Block], start: int, end: int) -> str | None:
        """``source[start:end]`` as the fence scan reads it in MDX, the HTML (JSX) lines emptied; None
        in Markdown, or when no such line holds a fence marker (:mod:`chunker.fence_lines`)."""
        if self.cfg.syntax != "mdx":
            return None
        return fence_text(self.source, blocks, start, end, self.lines.html)

    def filler(self, block: Block) -> bool:
        """:func:`chunker.filler.is_filler` of a block of the section, once per block (a block cut
        into many pieces is read whole for it, by each piece that starts with it)."""
        found = self.fillers.get(block.start_offset)
        if found is None:
            prose = block.kind == "paragraph" and self._prose_first(block)
            found = self.fillers[block.start_offset] = not prose and is_filler(block)
        return found

    def _prose_first(self, block: Block) -> bool:
        """Whether a paragraph is no filler by its start: it holds no ``<``, ``&`` or ``{`` (no markup),
        or :data:`chunker.filler.MIN_LETTERS` letters or digits come before the first: no markup
        :func:`chunker.filler.is_filler_text` removes (tags, comments, entities, template tags)
        starts before those (a paragraph is not copied and scanned for markup then)."""
        source, start, stop = self.source, block.start_offset, block.end_offset
        markup = False
        for char in "<&{":
            found = source.find(char, start, stop)
            if found >= 0:
                stop, markup = found, True
        if not markup:
            return True
        return next(islice(_LETTER.finditer(source, start, stop), MIN_LETTERS - 1, None), None) is not None

    @functools.cached_property
    def budget(self) -> int:
        """max_chars less the section's longest context line (and its separator)."""
        cfg, measure, context = self.cfg, self.measure, self.context
        paths = {id(b.header_path): b.header_path for b in self.section.blocks}.values()  # blocks share path tuples
        prefixes = {context.line(path, "") for path in paths}
        longest_prefix = max((measure(p) for p in prefixes if p), default=0)
        return cfg.max_chars - (longest_prefix + measure(PREFIX_SEPARATOR) if longest_prefix else 0)

    def too_large(self, chars: int, size: int, word: str = "chars") -> str:
        """How a block or piece of ``chars`` characters and ``size`` (in the configured unit) kept whole as an
        overflow chunk is over, its size in parentheses first (:meth:`sized`, :meth:`over`)."""
        return f"({self.sized(chars, size, word)}) {self.over(size)}"

    def sized(self, chars: int, size: int, word: str = "chars") -> str:
        """``chars`` named by ``word``, and ``size`` in tokens under ``size_unit: tokens``: 988 characters are
        not over a max_chars of 200 tokens, so a size in characters alone beside it read as a contradiction."""
        return f"{chars} {word}" if self.chars_mode else f"{chars} {word}, {size} tokens"

    def over(self, size: int) -> str:
        """How a block or piece of ``size`` (in the configured unit) kept whole as an overflow chunk is over:
        max_chars itself, or max_chars with the context line its chunk carries (a block of 990 characters under
        max_chars 1000 is not "larger than max_chars", one of 992 under 200 is, not only "with the context
        line")."""
        max_chars = self.cfg.max_chars
        limit = f"max_chars ({max_chars})" if self.chars_mode else f"max_chars ({max_chars} tokens)"
        if size > max_chars:
            return f"is larger than {limit}"
        return f"does not fit in {limit} with the chunk's context line"

    def span(self, start: int, end: int) -> int:
        """Size of source[start:end] in the configured unit, table padding not counted."""
        if self.chars_mode:
            return end - start - self.padding.saved(start, end) if self.padding else end - start
        text = self.padding.embed(self.source, start, end) if self.padding else None
        return self.measure(self.source[start:end] if text is None else text)

    def added_before(self, block: Block) -> int:
        """Size of the text a piece of ``block`` repeats before itself (table header, opening fence)."""
        return self.measure(self.repeated(block))

    def repeated(self, block: Block) -> str:
        """The text a piece of ``block`` (not its first) repeats before itself: a table's header
        (see :func:`table_header`), else :func:`repeated_before`."""
        if block.kind == "table":
            return self.table_header(block)
        return repeated_before(block, self.cfg.max_chars, self.measure)

    def table_header(self, block: Block) -> str:
        """The header a piece of table ``block`` repeats: its header and delimiter rows with the
        padding collapsed, or "" when that is over max_chars / HEADER_SHARE (:mod:`chunker.pack.tables`)."""
        header = self.headers.get(block.start_offset)
        if header is None:
            header = header_of(block, self.source)
            if self.measure(header) > self.cfg.max_chars // HEADER_SHARE:
                header = ""
            self.headers[block.start_offset] = header
        return header

    def added_at_start(self, unit: Unit) -> int:
        """Size of the text a chunk starting with ``unit`` repeats before it (table header, fence,
        the containers it re-opens)."""
        if unit.first:
            return 0
        if reopens(unit.block):
            return self.measure(self.said(unit.block, self.reopen(unit.block, unit.start)))
        return self.added_before(unit.block)

    def added_at(self, block: Block, offset: int) -> int:
        """Size of the text a piece of ``block`` starting at ``offset`` adds before itself."""
        if offset <= block.start_offset:
            return 0
        if reopens(block):
            return self.measure(self.said(block, self.reopen(block, offset)))
        return self.added_before(block)

    def said(self, block: Block, text: str) -> str:
        """The re-opened ``text`` before a piece of ``block`` as it is embedded: with the padding of a
        repeated header of a table nested in it collapsed (:func:`chunker.pack.tables.collapse`)."""
        return collapse(text) if "table" in block.inner and self.padding is not None else text

    def closing(self, unit: Unit) -> str:
        """The closing lines of ``:::`` containers (and template tag code) nested in a list or
        container that a chunk ending with ``unit`` (a piece) leaves open."""
        block = unit.block
        if unit.last or not reopens(block):
            return ""
        if block.kind == "html":
            return self.html_closings.get((block.start_offset, unit.end), "")
        structure = self.lines.structure(block)
        if structure is None or not (structure.containers or structure.tag_fences):
            return ""
        line_start = self.source.rfind("\n", 0, block.start_offset) + 1
        return structure.closing(unit.end - line_start, block.frame is not None) if structure is not None else ""

    def before(self, unit: Unit) -> str:
        """The text a chunk starting with ``unit`` adds before it."""
        if unit.first:
            return ""
        if reopens(unit.block):
            return self.reopen(unit.block, unit.start)
        return self.repeated(unit.block)

    def reopen(self, block: Block, offset: int) -> str:
        """What a piece of a list, quote or container starting at ``offset`` adds before itself to
        render in the containers it lies in (:mod:`chunker.pack.reopen`); when the block's structure
        is not known, or re-opening takes over max_chars, its title line and a nested
        fence open there."""
        if offset <= block.start_offset:
            return ""
        key = (block.start_offset, offset)
        text = self.reopen_memo.get(key)
        if text is not None:
            return text
        frame = repeated_before(block, self.cfg.max_chars, self.measure)
        line_start = self.source.rfind("\n", 0, block.start_offset) + 1
        structure = self.lines.structure(block)
        text = structure.reopened(frame, offset - line_start) if structure is not None else None
        if text is not None and len(text) > max(len(frame), self.cfg.max_chars):
            text = None  # dozens of nested containers: the markers alone would be over max_chars
            self.unopened.add(key)
        elif text is not None and structure is not None and structure.leads:
            led = structure.leads.get(structure.position(offset - line_start))
            if led is not None:
                self.leads[key] = led
        elif text is None and structure is not None and structure.refuses(offset - line_start):
            self.unopened.add(key)  # no re-opening renders as the source there
        if text is None:
            nested = self.nested_fence(block, offset) if "code" in block.inner and block.fence is None else None
            text = frame or (nested[1] + "\n" if nested is not None else "")
        self.reopen_memo[key] = text
        return text

    def can_start(self, block: Block, offset: int) -> bool:
        """Whether a piece of ``block`` may start at ``offset``: not inside a heading nested in it,
        nor where re-opening its containers would take more than max_chars (no piece there could
        render as it does in the source)."""
        if not reopens(block) or offset <= block.start_offset:
            return True
        structure = self.lines.structure(block)
        line_start = self.source.rfind("\n", 0, block.start_offset) + 1
        if structure is not None and structure.uncut(offset - line_start):
            return False
        self.reopen(block, offset)
        return (block.start_offset, offset) not in self.unopened

    def added_at_end(self, unit: Unit) -> int:
        """Size of the closing fence (or container line) a chunk ending with ``unit`` (a piece) adds."""
        if unit.last:
            return 0
        nested = self.closing(unit)
        if nested:
            return self.measure(nested + repeated_after(unit.block)) + 4
        if unit.block.frame is not None:
            return self.measure(repeated_after(unit.block)) + 4  # and a fence a child piece may close
        if unit.block.fence is None:
            return self.nested_closing(unit)
        return self.measure(closing_text(unit.block) + "\n")

    def nested_closing(self, unit: Unit) -> int:
        """Size of the fence line that closes the code fence nested in a list or quote that a piece
        ending with ``unit`` leaves open (the draft adds it: :func:`chunker.pack.drafts.make_draft`)."""
        block = unit.block
        if "code" not in block.inner or not reopens(block):
            return 0
        nested = self.nested_fence(block, unit.end)
        return 0 if nested is None else self.measure("\n" + closing_line(nested[1], nested[0]))

    def nested_fence(self, block: Block, offset: int) -> tuple[str, str] | None:
        """The code fence nested in ``block`` (a list or quote) that is open at ``offset``, as
        (marker run, opening line). Scans on from the nearest line start an earlier call in the same block
        scanned to, so the pieces of a long list cost about one pass, in whatever order the packer asks for
        them (it resumed from the last call only and went back to the block's start when asked for an offset
        before it: a definition list of 4,000 items with fences was scanned whole per chunk, 1.8 s)."""
        start, marks, states = self.fence_memo
        if start != block.start_offset:
            start, marks, states = block.start_offset, [block.start_offset], [None]
            self.fence_memo = (start, marks, states)
        k = bisect_right(marks, offset) - 1  # the nearest line start scanned to at or before offset
        at, state = marks[k], states[k]
        if at == offset:
            return state
        text = self.fence_text((block,), at, offset)
        state = fence_after(self.source[at:offset] if text is None else text, state)
        if self.source[offset - 1] == "\n":  # a scan resumes at a line start only: a line is read whole
            marks.insert(k + 1, offset)
            states.insert(k + 1, state)
        return state
