"""``<details>`` elements made of several top-level blocks: where one opens and which block closes it.

CommonMark ends an HTML block at a blank line, so a ``<details>`` element whose body has blank lines
is an HTML block that opens it (``<details>`` and its ``<summary>``), the body's blocks, and an HTML
block holding ``</details>``. The segmenter makes one container block of them (:mod:`chunker.segmenter`);
a heading in the body is part of it, as in a list item. An opening that no block closes before
another ``<details>`` opens (or before the end of the document) is no container: its blocks stay
what they are, so an unclosed ``<details>`` never swallows the rest of a document.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunker.parse.token import BlockToken

__all__ = ["dangling_details", "dangling_stops", "details_end", "opens_details"]

_OPEN = "<details"
_CLOSE = "</details>"


def opens_details(content: str) -> bool:
    """Whether an HTML block's text starts with a ``<details>`` tag."""
    head = content.lstrip()[:9].lower()
    return head.startswith(_OPEN) and (len(head) == 8 or not head[8].isalnum())


def _scan(tokens: Sequence[BlockToken], open_index: int, stop: int | None = None) -> int | None:
    """Index of the top-level HTML block that closes the ``<details>`` opened by ``tokens[open_index]``;
    -1 when none does before another ``<details>`` opens or the opening block closes it itself;
    None when none does before ``tokens[stop]`` (a block from there on may)."""
    if _CLOSE in tokens[open_index].content.lower():
        return -1
    for j in range(open_index + 1, len(tokens) if stop is None else stop):
        token = tokens[j]
        if token.level != 0 or token.map is None or token.type != "html_block":
            continue
        content = token.content
        if _CLOSE in content.lower():
            return j if not opens_details(content) else -1
        if opens_details(content):
            return -1
    return None


def details_end(tokens: Sequence[BlockToken], open_index: int) -> int | None:
    """Index of the top-level HTML block that closes a ``<details>`` opened (and not closed) by
    ``tokens[open_index]``; None when none does before another ``<details>`` opens or the end."""
    end = _scan(tokens, open_index)
    return end if end is not None and end >= 0 else None


def dangling_details(tokens: Sequence[BlockToken], stop: int | None = None) -> int | None:
    """Index of the first top-level ``<details>`` opening in ``tokens[:stop]`` that no block of them
    closes and no later opening cuts short: in a piece of a document cut at ``tokens[stop]`` (a
    heading), a closing block past the cut may close it, the heading inside it. None when none is."""
    end = len(tokens) if stop is None else stop
    for index in range(end):
        token = tokens[index]
        opening = token.level == 0 and token.type == "html_block" and token.map is not None
        if opening and opens_details(token.content) and _scan(tokens, index, end) is None:
            return index
    return None


def dangling_stops(tokens: Sequence[BlockToken]) -> list[int | None]:
    """``dangling_details(tokens, stop)`` for every ``stop`` in ``0..len(tokens)``, in one pass.

    At most one opening dangles at a stop: a later opening before the stop ends the scan of an
    earlier one. So the answer is the last opening whose scan nothing has ended yet. A caller that
    asks about every heading of a piece (:mod:`chunker.parse.pieces`) asks once, not once per
    heading (10,000 unclosed ``<details>`` between headings: quadratic)."""
    stops: list[int | None] = []
    pending: int | None = None
    for index, token in enumerate(tokens):
        stops.append(pending)
        if token.level != 0 or token.map is None or token.type != "html_block":
            continue
        content = token.content
        closes = _CLOSE in content.lower()
        opens = opens_details(content)
        if closes or opens:
            pending = None
        if opens and not closes:
            pending = index
    stops.append(pending)
    return stops
