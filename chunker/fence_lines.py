"""Which lines of a piece of an MDX source can open or close a code fence: those the parse read so.

The line scan of :mod:`chunker.fences` reads every line holding a run of three backticks or tildes
as a fence line. In MDX, a JSX block (:mod:`chunker.parse.mdx`) holds a fence across blank lines and,
where the fence never closes, ends at its first blank line; an HTML block ends at a blank line
whatever fence line it holds. Either way the parser reads no fence in it: such a line neither opens a
fence nor closes one, and a chunk that closed it would make the JSX block run on over the blank
lines after it. :func:`fence_text` gives the scan a piece's text with those lines emptied, so that the
fence a draft closes (:mod:`chunker.pack.drafts`), the size the budget allows for it
(:mod:`chunker.pack.budget`) and the validator's balance check follow the tokens.

The lines come from the blocks: a top-level HTML block whole; in a list, quote or container, the
``html_block`` tokens of its parse (its outline, or what the caller parsed). A block whose tokens
are not known is read as the line scan reads it. Markdown keeps the line scan: there a fence line
right under an HTML block's closing tag is text of the block to CommonMark but a fence to kramdown,
which renders Jekyll's pages, and the chunks pair the fence lines as kramdown does
(``tests/test_fences.py``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence

from chunker.fences import has_fence_marker
from chunker.models import Block
from chunker.outline import LineToken

__all__ = ["HtmlRanges", "fence_text", "holds_html", "html_ranges"]

HtmlRanges = Callable[[Block], Sequence[tuple[int, int]]]
"""The offset ranges of a block's HTML lines (:func:`html_ranges`, which a caller keeps per block)."""

_CONTAINERS = frozenset({"list", "blockquote", "container"})
_PAST = 1 << 62
"""An offset past any text (the end of a range that :func:`bisect_right` places after its start)."""


def holds_html(block: Block) -> bool:
    """Whether ``block`` is an HTML block or may hold one."""
    if block.kind == "html":
        return True
    return (block.frame is not None or block.kind in _CONTAINERS) and "html" in block.inner


def _html_lines(tokens: Iterable[LineToken]) -> list[tuple[int, int]]:
    """The line ranges (first, after last; relative to the block's first line) of the HTML blocks
    among ``tokens``, in order."""
    out: list[tuple[int, int]] = []
    for token in tokens:
        if token.type == "html_block" and token.map is not None:
            a, b = token.map
            if out and a < out[-1][1]:
                out[-1] = (out[-1][0], max(b, out[-1][1]))
            elif a < b:
                out.append((a, b))
    return out


def html_ranges(source: str, block: Block, tokens: Sequence[LineToken] | None) -> list[tuple[int, int]]:
    """The offset ranges of ``block``'s HTML lines (whole lines, in order): all of an HTML block, else
    its ``html_block`` tokens' (``tokens``: its block tokens, lines relative to its first; None when
    not known: no range then)."""
    if block.kind == "html":
        return [(block.start_offset, block.end_offset)]
    if not tokens:
        return []
    lines = _html_lines(tokens)
    if not lines:
        return []
    out: list[tuple[int, int]] = []
    line, at = 0, source.rfind("\n", 0, block.start_offset) + 1
    end = block.end_offset
    for a, b in lines:
        while line < a and at < end:
            at = source.find("\n", at, end) + 1 or end
            line += 1
        first = at
        while line < b and at < end:
            at = source.find("\n", at, end) + 1 or end
            line += 1
        if first < at:
            out.append((first, at))
    return out


def fence_text(source: str, blocks: Iterable[Block], start: int, end: int, html: HtmlRanges) -> str | None:
    """``source[start:end]`` (of an MDX source) with the HTML lines of ``blocks`` emptied, their line
    breaks kept; None when none of them in the range holds a fence marker (the line scan then reads
    the text itself)."""
    parts: list[str] = []
    position = start
    for block in blocks:
        if block.end_offset <= start or block.start_offset >= end or not holds_html(block):
            continue
        if not has_fence_marker(source[max(start, block.start_offset) : min(end, block.end_offset)]):
            continue
        ranges = html(block)
        k = max(0, bisect_right(ranges, (position, _PAST)) - 1)  # the first range that may reach past start
        for index in range(k, len(ranges)):
            a, b = ranges[index]
            if a >= end:
                break
            a, b = max(a, position), min(b, end)
            if a < b and has_fence_marker(source[a:b]):
                parts += (source[position:a], "\n" * source.count("\n", a, b))
                position = b
    if not parts:
        return None
    parts.append(source[position:end])
    return "".join(parts)
