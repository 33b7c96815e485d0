"""The block structure of one block, kept from the document's own parse.

The packer re-opens the containers a piece cut from inside a list, quote or container lies in
(:mod:`chunker.pack.reopen`), and the validator compares the block structure of a piece with its
source's (:mod:`chunker.rendering`). Both read the block tokens of the source block; the segmenter
has them while it makes the block, so it keeps them here instead of either parsing the block again.

Only what those two read is kept, compactly: every block token of the block but ``inline`` (whose
content is a copy of the text), as its type (markdown-it-py's strings, shared), its nesting, its
line map relative to the block's first line, and a list item's marker. That is about 20 bytes a
token, a few tokens a list item; a document keeps at most :func:`budget` tokens in outlines (a
block past that gets none and is parsed again where needed), so memory stays a fraction of the
text's size whatever the document.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Protocol

__all__ = ["LineToken", "Outline", "OutlineToken", "budget", "make_outline"]


class LineToken(Protocol):
    """The attributes of a markdown-it-py ``Token`` an outline keeps (and :class:`OutlineToken` has)."""

    @property
    def type(self) -> str: ...
    @property
    def nesting(self) -> int: ...
    @property
    def map(self) -> list[int] | None: ...
    @property
    def markup(self) -> str: ...
    @property
    def info(self) -> str: ...


class OutlineToken:
    """One token of an outline, with the attributes of markdown-it-py's ``Token`` that the
    re-opening and the rendering check read (``map`` relative to the block's first line)."""

    __slots__ = ("info", "map", "markup", "nesting", "type")

    def __init__(self, kind: str, nesting: int, line_map: list[int] | None, info: str, markup: str) -> None:
        self.type = kind
        self.nesting = nesting
        self.map = line_map
        self.info = info
        self.markup = markup


class Outline:
    """The block tokens of one block (``inline`` left out), lines counted from the block's first."""

    __slots__ = ("_markers", "_numbers", "_types", "end")

    def __init__(self, types: tuple[str, ...], numbers: array[int], markers: dict[int, tuple[str, str]]) -> None:
        self._types = types
        self._numbers = numbers
        """Three per token: nesting, first line, line after the last (-1, -1 without a map)."""
        self._markers = markers
        """(info, markup) of the list items and of code written as template tags (its closing tag
        line), by token index."""
        self.end = 1 << 30
        """The block's line count: maps are clipped to it (a parse of the block alone ends there;
        the document's tokens may run on over blank lines the block leaves out)."""

    def __len__(self) -> int:
        return len(self._types)

    def tokens(self) -> list[OutlineToken]:
        """The tokens, as objects with ``type``, ``nesting``, ``map``, ``info`` and ``markup``."""
        return list(self._iter())

    def _iter(self) -> Iterator[OutlineToken]:
        numbers, markers, end = self._numbers, self._markers, self.end
        for k, kind in enumerate(self._types):
            nesting, first, last = numbers[3 * k], numbers[3 * k + 1], numbers[3 * k + 2]
            info, markup = markers.get(k, ("", ""))
            line_map = None if first < 0 else [min(first, end), min(last, end)]
            yield OutlineToken(kind, nesting, line_map, info, markup)


def make_outline(tokens: Sequence[LineToken], start: int, stop: int, first_line: int) -> Outline:
    """The outline of ``tokens[start:stop]``, lines relative to document line ``first_line``."""
    types: list[str] = []
    numbers: list[int] = []
    markers: dict[int, tuple[str, str]] = {}
    body_rows = False
    for token in tokens[start:stop]:
        kind = token.type
        if kind == "inline":
            continue
        if kind == "tbody_close" and not body_rows and types and types[-1] == "tbody_open":
            _rows(numbers, types)  # a top-level table's body keeps no row tokens: one per line
        body_rows = kind == "tr_open"
        if kind == "list_item_open" or (kind == "fence" and token.markup[:1] == "{"):
            markers[len(types)] = (token.info, token.markup)
        types.append(kind)
        line_map = token.map
        if line_map is None:
            numbers += (token.nesting, -1, -1)
        else:
            numbers += (token.nesting, line_map[0] - first_line, line_map[1] - first_line)
    return Outline(tuple(types), array("i", numbers), markers)


def _rows(numbers: list[int], types: list[str]) -> None:
    """Row tokens of the ``tbody`` just opened in ``types``, one row per line of its map: the
    parse keeps none in the body of a top-level table (:func:`chunker.parse.markdown.tokenize`),
    and a container made of top-level blocks (a ``<details>`` element) reads its rows as a list
    item's table's: where its pieces may start, and their shapes in the rendering check."""
    first, last = numbers[-2], numbers[-1]
    for row in range(first, last) if first >= 0 else ():
        types += ("tr_open", "tr_close")
        numbers += (1, row, row + 1, -1, -1, -1)


def budget(text_chars: int) -> int:
    """How many outline tokens a document of ``text_chars`` characters keeps at most: one per 16
    characters (about 1.3 bytes a character), and 4,096 for any document."""
    return 4096 + text_chars // 16
