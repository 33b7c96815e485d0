"""Oversize text cut at sentences, then words, then hard cuts; and cuts turned into units.

Every other splitter ends here for a piece that is still over budget.
"""

from __future__ import annotations

import re

from chunker.models import Block
from chunker.pack.budget import SectionSpace, reopens
from chunker.pack.strength import HARD, SENTENCE, WORD, Strength, Unit
from chunker.policy import gated
from chunker.sentences import link_safe_hard_cuts, link_spans, outside_links, sentence_cuts, word_cuts

_STARTS_BLOCK = re.compile(
    r"(?:[-*+]|\d{1,9}[.)]|#{1,6})(?:[ \t]|$)"  # a list item, an ATX heading
    r"|>"  # a quote
    r"|(?:[=]+|[-]+|(?:[-*_][ \t]*){3,})[ \t]*$"  # a setext underline, a thematic break
    r"|<[A-Za-z/!?]"  # an HTML block (a tag alone on its line is one)
    r"|\{"  # an MDX expression (and an attribute line, '{ .class }', where attributes are read)
    r"|\[(?:[^\]\\\n]++|\\.)++\]:"  # a link reference definition (possessive: see below)
    r"|\$\$|:::|!!!|\?\?\?|///|===[+!]?[ \t]+\""  # display math, a container, an admonition or a content tab
    r"|%|\+[ \t]*\+[ \t]*\+|\([^\n]{1,256}?\)=[ \t]*$",  # a MyST comment, block break or target (bounded)
    re.MULTILINE,
)
"""Text that, at the start of a piece, would open another block than the paragraph text it is in
the source: no cut puts it there (``a thunk + action creators`` is not cut before ``+``, a line
``---`` is not cut from the heading it underlines). The label's quantifiers are possessive (the two
alternatives cannot match the same text, and neither a ``]``, so backtracking could find no other
match): with ``+`` the engine kept ~130 bytes of backtracking state per character tried, 13 MB for
each cut tried in a 100 KB run of ``[``."""


def split_paragraph(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """A paragraph (quote, heading...) over budget: at sentences, words, hard cuts. It is cut at
    sentences even when it fits alone but not after its headings. A thematic break (a line of
    ``-``, ``*`` or ``_``, only its length over budget) is one overflow piece: a part of it would be
    text."""
    if block.kind == "thematic_break":
        out.append(Unit(start=block.start_offset, end=block.end_offset, block=block, strength=strength))
        space.notes.append(
            gated(
                "overflow",
                f"thematic break at line {block.start_line} "
                f"{space.too_large(block.chars, space.span(block.start_offset, block.end_offset), 'characters')} "
                "and is kept whole as an overflow chunk",
                line=block.start_line,
            )
        )
        return
    split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True, force=True)


def split_text(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    start: int,
    end: int,
    strength: Strength,
    first: bool,
    last: bool,
    reserve: int = 0,
    force: bool = False,
) -> None:
    """Cut [start, end) at sentences, then words, then hard cuts, each piece within budget
    (with ``force``, at sentences even when the whole fits)."""
    extra = reserve
    if block.kind == "table":
        reserve += space.added_before(block)
    elif reopens(block):
        reserve += space.added_at(block, min(start + 1, end))  # what the pieces after the first re-open
    budget = max(space.budget - reserve, 8)
    text = space.source[start:end]
    pieces: list[tuple[int, int, Strength]] = []  # (start, end, strength)
    _cut(space, block, text, start, budget, strength, pieces, level=0, force=force)
    if reopens(block) and block.kind != "table" and len(pieces) > 1:
        pieces = _refit(space, block, pieces, extra)
    for k, (a, b, s) in enumerate(pieces):
        out.append(
            Unit(start=a, end=b, block=block, strength=s, first=first and k == 0, last=last and k == len(pieces) - 1)
        )


_REFITS = 3
"""How often a piece is cut again for what it re-opens (each round's pieces start on other lines)."""


def _refit(
    space: SectionSpace, block: Block, pieces: list[tuple[int, int, Strength]], extra: int
) -> list[tuple[int, int, Strength]]:
    """The pieces, each that does not fit with what it re-opens where it starts cut again for that:
    the budget was reduced for what a piece re-opens one character into the text, and a piece
    starting on a later line may re-open more (a footnote's label line re-opens ``[`` there, its
    later lines the label, a line break and 4 columns: pieces up to 12 characters over max_chars).
    A piece that cannot be cut smaller stays (an overflow piece, as before)."""
    budget = space.budget - extra
    for _ in range(_REFITS):
        out: list[tuple[int, int, Strength]] = []
        changed = False
        for a, b, s in pieces:
            added = space.added_at(block, a)
            if a <= block.start_offset or space.span(a, b) + added <= budget:
                out.append((a, b, s))
                continue
            again: list[tuple[int, int, Strength]] = []
            _cut(space, block, space.source[a:b], a, max(budget - added, 8), s, again, level=0)
            changed = changed or len(again) > 1
            out.extend(again if len(again) > 1 else [(a, b, s)])
        pieces = out
        if not changed:
            break
    return pieces


def _cut(
    space: SectionSpace,
    block: Block,
    text: str,
    base: int,
    budget: int,
    strength: Strength,
    out: list[tuple[int, int, Strength]],
    level: int,
    force: bool = False,
) -> None:
    measure = space.measure
    if not force and measure(text) <= budget:
        out.append((base, base + len(text), strength))
        return
    spacing = _spacing(space, text, budget)
    links = link_spans(text)  # never cut inside a link or URL
    if level == 0:
        cuts, piece_strength = outside_links(sentence_cuts(text, spacing), links), SENTENCE
    elif level == 1:
        cuts, piece_strength = outside_links(word_cuts(text, join_marks=True, spacing=spacing), links), WORD
    else:
        cuts, piece_strength = link_safe_hard_cuts(text, budget, links), HARD
    src = space.source
    esm = _ESM_START if space.cfg.syntax == "mdx" else None  # in MDX, 'import x' at a line's start is code
    # What follows a cut is read in the source, not in ``text``: a piece cut again (``_refit``) ends
    # before the rest of its line, and '1' at its end is '1. ' in the chunk that goes on from there.
    cuts = [
        c
        for c in _off_table_headers(src, base, _past_spaces(text, cuts))
        if not src.startswith(("```", "~~~"), base + c)
        and not _STARTS_BLOCK.match(src, base + c)
        and not (esm is not None and esm.match(src, base + c))
        and not _after_markers(src, base + c, base)
        and not _in_title_line(src, base + c)
        and space.can_start(block, base + c)
    ]
    cuts = _no_bare_openers(src, text, base, cuts)
    bounds = [0, *cuts, len(text)]
    for k in range(len(bounds) - 1):
        a, b = bounds[k], bounds[k + 1]
        piece = text[a:b]
        trimmed = piece.rstrip()
        s = strength if k == 0 else piece_strength
        if not trimmed:
            continue
        if level == 2 or measure(trimmed) <= budget:
            out.append((base + a, base + a + len(trimmed), s))
            if level == 2 and measure(trimmed) > budget:
                _long_link(space, block, base + a, trimmed)
        else:
            before = len(out)
            _cut(space, block, trimmed, base + a, budget, s, out, level + 1)
            if len(out) == before:
                out.append((base + a, base + a + len(trimmed), s))


def _no_bare_openers(src: str, text: str, base: int, cuts: list[int]) -> list[int]:
    """The cuts less those whose piece, read up to its own end, opens a block. The checks above read
    what follows a cut in the source, but a piece that ends inside its first line (the text being cut
    ends there, at a cut of the level above) is that part of the line alone in its chunk: the hard cut
    ``|:`` / ``-`` of a delimiter row ``|:-:|`` lazily continuing a list item's paragraph left ``-``
    alone, an empty list item. Such a cut is dropped (its piece stays with the one before). Only pieces
    within one line are matched again: one regex match per such cut, none for the others."""
    out: list[int] = []
    end = len(text)
    for c in reversed(cuts):
        stop = end
        while stop > c and text[stop - 1] in " \t\n":
            stop -= 1
        if text.find("\n", c, stop) == -1 and _STARTS_BLOCK.match(src, base + c, base + stop):
            continue
        out.append(c)
        end = c
    out.reverse()
    return out


_ESM_START = re.compile(r"(?:import|export)(?:\s|\{|\*|$)")
"""Text that, at the start of an MDX piece, is an ``import``/``export`` statement (:mod:`chunker.parse.mdx`)."""

_TITLE_LINE = re.compile(r"[ \t>]*(?:!!!|\?\?\?|:::|///|===[+!]?[ \t]+\"|%)")
"""The start of a container's title line (``!!! note "Title"``, ``::: tip``, ``=== "Tab"``) or of a MyST
comment line (``% note``: its text after a cut would be a paragraph)."""


def _in_title_line(src: str, pos: int) -> bool:
    """Whether ``pos`` lies inside a container's title line (or a MyST comment line), past its marker: a
    piece starting there leaves the marker alone at the end of the piece before (``!!!`` / ``Success
    "Expected output"``)."""
    start = src.rfind("\n", max(0, pos - _TITLE_WINDOW), pos) + 1
    if start == 0 and pos > _TITLE_WINDOW:
        return False  # a line this long is text: not looked back along (cuts in a long line stay linear)
    return src[start : start + 1] in _TITLE_FIRST and _TITLE_LINE.match(src, start, pos) is not None


_TITLE_FIRST = frozenset(" \t>!?:/=%")
_TITLE_WINDOW = 256


def _long_link(space: SectionSpace, block: Block, start: int, text: str) -> None:
    """Warns of a piece that is a link or URL (or display math or an HTML/JSX block nested in a list,
    quote or container, or text of one where no piece may start and render as in the source) longer
    than the budget: it is kept whole."""
    line = space.lines.line_at(start, block)
    html = None if _MATH_LINE.search(text) else _nested_html(space, block, line, text)
    measured = space.measure(text)
    sized = space.sized(len(text), measured, "characters")
    if html is not None:
        kind = "quote" if block.kind == "blockquote" else block.kind
        what = f"an HTML or JSX block at line {html} in the {kind} at line {block.start_line}"
        size = f"(its piece from line {line}, {sized}, holds no line a piece may start at)"
    else:
        if _MATH_LINE.search(text):
            what = "display math"
        elif link_spans(text) or not reopens(block):
            what = "a link or URL"
        else:
            what = f"text of a {block.kind} where no piece can start and render as in the source"
        what, size = f"{what} at line {line}", f"({sized})"
    space.notes.append(
        gated(
            "overflow",
            f"{what} {size} {space.over(measured)} and is kept whole as an overflow chunk",
            line=line,
        )
    )


_MATH_LINE = re.compile(r"^[ \t>]*\$\$", re.MULTILINE)


def _nested_html(space: SectionSpace, block: Block, line: int, text: str) -> int | None:
    """The line of the first HTML or JSX block nested in ``block`` that starts in the piece (from
    ``line``), when no link in the piece is longer than the budget; else None."""
    if block.kind not in ("list", "blockquote", "container"):
        return None
    first = line - block.start_line
    last = first + text.count("\n")
    nested = [k for k in space.lines.html_lines(block) or () if first <= k <= last]
    if not nested or any(space.measure(text[a:b]) > space.budget for a, b in link_spans(text)):
        return None
    return block.start_line + min(nested)


def _past_spaces(text: str, cuts: list[int]) -> list[int]:
    """The cuts moved past the whitespace at them (a hard cut may fall on a line break): a piece
    starts with text, never with the end of the line before it."""
    out: list[int] = []
    n = len(text)
    for c in cuts:
        while c < n and text[c] in " \t\n":
            c += 1
        if c < n and (not out or c > out[-1]):
            out.append(c)
    return out


_DELIMITER_ROW = re.compile(r"[ \t>]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")


_DEFINITION_LINE = re.compile(r"[ \t>]*[:~][ \t]+\S")
"""A line that, after a one-line paragraph, makes it a definition list's term (``:   text``)."""


def _off_table_headers(src: str, base: int, cuts: list[int]) -> list[int]:
    """The cuts (offsets into ``src`` less ``base``) not on a line followed by a table's delimiter
    row (``|---|``) or a definition's marker (``: text``, also after one blank line): text there
    is a paragraph's in the source, but a piece starting on that line would be a table, or a
    definition's term. The lines after are read in the source, not in the text being cut: a
    piece cut again at words or hard cuts ends at its line's end, and the line that follows it
    still follows the piece in a chunk."""
    out: list[int] = []
    end, header = -1, False  # end of the current cut's line (in src); whether it heads a block
    for c in cuts:
        if base + c > end:
            end = src.find("\n", base + c)
            if end < 0:
                out.extend(k for k in cuts if k >= c)
                break
            header = _heads_block(src, end)
        if not header:
            out.append(c)
    return out


def _heads_block(src: str, end: int) -> bool:
    """Whether the line ending at ``end`` (a line break) becomes a table's header or a definition's
    term by the lines after it."""
    after = src.find("\n", end + 1)
    row = src[end + 1 : len(src) if after < 0 else after]
    if ("|" in row and _DELIMITER_ROW.fullmatch(row) is not None) or _DEFINITION_LINE.match(row):
        return True
    if row.strip(" \t>") or after < 0:
        return False
    stop = src.find("\n", after + 1)
    return bool(_DEFINITION_LINE.match(src[after + 1 : len(src) if stop < 0 else stop]))


_MARKERS_ONLY = re.compile(
    r"(?P<markers>[^\S\n]*(?:(?:>|[-*+:~]|\d{1,9}[.)])[^\S\n]*)*)"
    r"(?:\d{0,9}|(?P<label>\[(?P<note>\^)?(?:[^\]\\\n]|\\.)+\]:)"
    r"[^\S\n]*(?:\S+(?:[^\S\n]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[^\S\n]*)?)"
)
"""A line's start of only container markers (``> 1.  ``, ``> 1`` cut inside the marker, a
definition's ``:``), or of them and a link label (``[label]:``, ``[^note]:``) with at most one word
and a title after it: a piece ending there would end with an empty list item, a blank quote line,
or a link reference definition or empty footnote where the source has text (``* [lint]: Changed``
of ``* [lint]: Changed the default``). Any whitespace but a line break separates them
(``3.\xa0Grube``)."""
_ITEM_MARKER = re.compile(r"[-*+:~]|\d{1,9}[.)]")
_MARKERS_WINDOW = 256


def _after_markers(src: str, pos: int, floor: int) -> bool:
    """Whether the line of ``pos`` has only container markers (or a link label) before it. A link
    label (not a footnote's) counts only where a definition could start: after a list marker, on
    the first line of the text being cut (from ``floor``), or after a blank line; on a line that
    continues a paragraph it is text (``[x]: y`` cannot interrupt a paragraph)."""
    start = src.rfind("\n", max(0, pos - _MARKERS_WINDOW), pos) + 1
    if start == 0 and pos > _MARKERS_WINDOW:
        return False  # a long text before it on its line: not only markers
    match = _MARKERS_ONLY.fullmatch(src, start, pos)
    if match is None or src[start:pos].isspace() or start >= pos:
        return False
    if not match.group("label") or match.group("note") or _ITEM_MARKER.search(match.group("markers")):
        return True
    previous = src.rfind("\n", 0, start - 1) + 1
    return start <= floor or not src[previous : max(previous, start - 1)].strip(" \t>")


COARSE_AFTER = 64
"""Text longer than this many budgets (in characters, ~4 per token) is cut into coarser units."""
COARSE_UNITS = 8
"""Coarse units are at most a budget / 8 apart (plus the word the cut waits for)."""


def _spacing(space: SectionSpace, text: str, budget: int) -> int:
    """The least distance, in characters, between two cuts of ``text``: 0 (every sentence or
    word) for prose of normal length; for pathological prose (a 50 MB line of words) units of
    ``target_chars / k``, ``k`` the fewest that keeps them within an eighth of a budget: the units
    stay few (memory linear in the input with a small constant) and, a chunk being ``k`` of them,
    it still comes out near ``target_chars``."""
    factor = 1 if space.chars_mode else 4
    chars, target = factor * budget, factor * min(space.cfg.target_chars, budget)
    if len(text) <= COARSE_AFTER * chars:
        return 0
    per_target = -(-target * COARSE_UNITS // chars)  # ceil: units per target
    return max(1, target // per_target)


def emit_cuts(
    space: SectionSpace,
    out: list[Unit],
    block: Block,
    cuts: list[tuple[int, Strength]],
    end: int,
    first: bool,
    last: bool,
) -> None:
    """Units from (offset, strength) cuts ending at ``end``, trailing whitespace trimmed; a
    piece over budget is cut further like text."""
    src = space.source
    cuts = [cut for k, cut in enumerate(cuts) if not k or space.can_start(block, cut[0])]
    bounds = [c for c, _ in cuts[1:]] + [end]
    for k, (a, s) in enumerate(cuts):
        b = bounds[k]
        while b > a and src[b - 1].isspace():
            b -= 1
        is_first, is_last = first and k == 0, last and k == len(cuts) - 1
        if space.span(a, b) + (0 if is_first else space.added_at(block, a)) <= space.budget:
            out.append(Unit(start=a, end=b, block=block, strength=s, first=is_first, last=is_last))
        else:
            split_text(space, out, block, a, b, s, is_first, is_last)
