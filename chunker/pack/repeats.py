"""The text a piece of a split block carries that the source does not have at its place: the
opening line it repeats before itself (a fence, a container's title), the closing line it repeats
after itself, and the fence line that closes a code piece. :class:`chunker.pack.budget.SectionSpace`
counts them in sizes; the drafts write them."""

from __future__ import annotations

from chunker.fences import closing_line
from chunker.models import Block
from chunker.pack.titles import bounded_title
from chunker.parse.templates import is_template_fence
from chunker.sizes import Counter

__all__ = ["closing_text", "repeated_after", "repeated_before"]


def repeated_before(block: Block, max_chars: int, measure: Counter = len) -> str:
    """The text a piece of ``block`` (not its first) repeats before itself: a fenced code block's
    opening fence line, a container's title line (a long title shortened: :mod:`chunker.pack.titles`);
    else nothing (a table's header: :meth:`SectionSpace.table_header`)."""
    if block.kind == "code" and block.fence is not None:
        return block.fence[0] + "\n"
    if block.frame is not None:
        title = bounded_title(block.frame[0], max_chars, measure)
        return title + ("\n\n" if block.frame[1] == "</details>" else "\n")
    return ""


def repeated_after(block: Block) -> str:
    """The closing line a piece of a container (not its last) repeats after itself, if it has one;
    for code written as template tags, the closing tag (a backtick fence is closed by the draft)."""
    if block.kind == "code" and block.fence is not None and is_template_fence(block.fence[0]):
        return "\n" + block.fence[1]
    if block.frame is None or not block.frame[1]:
        return ""
    return ("\n\n" if block.frame[1] == "</details>" else "\n") + block.frame[1]


def closing_text(block: Block) -> str:
    """The fence line that closes a piece of fenced ``block`` (as a draft will add it)."""
    if block.fence is None:
        return ""
    opening = block.fence[0]
    if is_template_fence(opening):
        return block.fence[1]  # the closing tag (:mod:`chunker.parse.templates`)
    stripped = opening.lstrip(" ")
    run = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
    return closing_line(opening, run)
