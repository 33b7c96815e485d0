"""The block tokens of a document's body, parsed piece by piece as they are consumed.

A large document is parsed in pieces, so that the token list of the whole document (about 15 times
the text's size) never exists at once; the pieces give the tokens of the whole-document parse
(``bench/piece_identity.py``, ``tests/test_parser.py``). Where a piece cannot stand for the whole
parse, the parser itself parses the rest of the document in one go: the consumer never sees a
fallback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice

from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.models import Diagnostic
from chunker.parse.containers import unclosed_at
from chunker.parse.details import dangling_stops
from chunker.parse.document import ParsedDocument
from chunker.parse.markdown import tokenize
from chunker.parse.mdc import mdc_open_checker
from chunker.parse.templates import open_checker, page_env

__all__ = ["PIECE_CHARS", "BlockTokens"]

_DETAILS = re.compile("<details", re.IGNORECASE)

PIECE_CHARS = 1 << 18
"""A body longer than this is parsed in pieces of about this many characters."""

_ATX_LINE = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)", re.MULTILINE)
"""A line that may be an ATX heading (whether it is one, the parse says)."""

_GROW_LIMIT = 16
"""How many times ``piece_chars`` a growing piece may reach (:class:`BlockTokens` ``grow``)."""


class BlockTokens:
    """The block tokens of ``doc``'s body, one list per piece; token maps are document lines.

    Each piece is cut before a top-level ATX heading that is a safe boundary (see
    :func:`_split_index`). A piece with no safe boundary, or one that reaches the nesting limit
    (whose effect runs to the end of the input) or lowers it (the parser's recursion ran out), is
    replaced by one parse of the rest of the document from the piece's first line. With
    ``piece_chars=None`` the body is parsed whole. Iterating again parses again;
    :attr:`diagnostics` is complete once the iteration has reached the end."""

    nested = True
    """The pieces are markdown-it-py's whole token stream, nested tokens included."""

    def __init__(
        self, doc: ParsedDocument, cfg: ChunkerConfig, piece_chars: int | None = PIECE_CHARS, grow: bool = False
    ) -> None:
        self._doc = doc
        self._cfg = cfg
        self._piece_chars = piece_chars
        self._grow = grow
        """A piece with no safe boundary is parsed again twice as long, up to :data:`_GROW_LIMIT`
        times ``piece_chars`` (a parse of at most twice that is wasted), before the rest of the
        document is parsed in one piece."""
        self._limit: tuple[int, int] | None = None
        """(1-based line, nesting) where nesting first reached the limit."""

    def __iter__(self) -> Iterator[list[Token]]:
        self._limit = None
        text, starts, cfg = self._doc.text, self._doc.line_starts, self._cfg
        env = page_env(text)  # a piece's shortcodes closed in a later piece are the page's
        line = self._doc.body_start_line
        size = self._piece_chars
        largest = _GROW_LIMIT * self._piece_chars if self._grow and self._piece_chars else 0
        while line < len(starts):
            # The first piece keeps the frontmatter's lines as empty lines, so its maps are document
            # lines already; a later piece starts at its own first line and its maps are shifted.
            lead, offset = (line, 0) if line == self._doc.body_start_line else (0, line)
            start = starts[line]
            end = len(text) if size is None else _piece_end(text, start, size)
            piece = "\n" * lead + text[start:end] if lead or end < len(text) else text[start:]
            tokens, used = tokenize(piece, cfg, env)
            next_line = len(starts)
            if end < len(text):
                split = _split_index(tokens, piece, lead)
                boundary = tokens[split].map if split is not None else None
                if (
                    boundary is not None
                    and used == cfg.max_nesting
                    and _nesting_limit_line(islice(tokens, split), used) is None
                ):
                    next_line = offset + boundary[0]
                    del tokens[split:]
                elif size is not None and size < largest and boundary is None:
                    del piece, tokens
                    size *= 2  # the same lines again, and as many more
                    continue
                else:
                    piece = "\n" * lead + text[start:]  # the rest of the document in one parse
                    tokens, used = tokenize(piece, cfg, env)
            del piece
            limit = _nesting_limit_line(tokens, used)
            if limit is not None and self._limit is None:
                self._limit = (limit + offset, used)
            if offset:
                for token in tokens:
                    if (lines := token.map) is not None:
                        token.map = [lines[0] + offset, lines[1] + offset]
            yield tokens
            del tokens
            line = next_line
            size = self._piece_chars

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The nesting-limit warning, if the parse reached the limit."""
        if self._limit is None:
            return ()
        line, nesting = self._limit
        message = (
            f"blocks nested deeper than {nesting} levels from line {line}: "
            "their inner structure is not parsed, their text is kept"
        )
        return (Diagnostic("warning", "nesting-limit", message, line=line),)


def _piece_end(text: str, start: int, size: int) -> int:
    """Offset just past the first line that may be an ATX heading (:data:`_ATX_LINE`) from ``start +
    size`` on, if one starts before ``start + 2 * size``; else just past the line end at or after
    ``start + size`` (``len(text)`` if none). A piece that ends with a heading is cut at it: only
    that line is parsed again with the next piece, not the text since the piece's last heading."""
    if start + size >= len(text):
        return len(text)
    heading = _ATX_LINE.search(text, start + size, start + 2 * size)
    newline = text.find("\n", heading.start() if heading is not None else start + size)
    return len(text) if newline == -1 else newline + 1


def _split_index(tokens: Sequence[Token], piece: str, first: int) -> int | None:
    """Index of the last top-level ATX heading_open of a piece that is a safe boundary and lies
    after line ``first`` (the piece's first line of text), or None.

    Why the tokens before such a heading are those of the whole document: the heading line ends
    every block above it except blocks that search on for an end marker. Of those, fences and
    HTML blocks end at the end of the input when the marker is missing (they would cover the
    heading, so it would not be a heading), and only a
    ``$$`` math block *fails* when its end is missing: in the whole document it could find one
    past the piece. So the heading must come before the first ``$$`` of the piece. A ``:::`` or
    ``///`` container never closed in the piece ends before a heading, where in the whole document
    a closing line past the piece may close it (:mod:`chunker.parse.containers`): the heading must
    come before such a container too; and no ``<details>`` opened before it may be left unclosed
    there (one that a block past the heading closes holds the heading, :mod:`chunker.parse.details`),
    nor a template code block (:func:`chunker.parse.templates.open_at`) or an MDC component
    (:func:`chunker.parse.mdc.mdc_open_at`), each asked through one scan of the piece."""
    # Each marker is looked for only if its first character is in the piece: a search for one
    # character is many times faster than one for two (0.004 against 0.2-0.4 ms in 256 KB of text).
    dollars = piece.find("$$") if "$" in piece else -1
    unclosed = unclosed_at(tokens)
    details = "<" in piece and _DETAILS.search(piece) is not None
    may_open: bool | None = None  # whether a template code block or an MDC component may be open
    line_offsets: list[int] | None = None
    checks: tuple[Callable[[int], bool], Callable[[int], bool]] | None = None  # each scans the piece once
    dangling: list[int | None] | None = None  # the <details> left open at each token, one scan
    for index in range(len(tokens) - 1 if unclosed is None else unclosed - 1, 0, -1):
        token = tokens[index]
        if token.level != 0 or token.type != "heading_open" or not token.markup.startswith("#"):
            continue
        assert token.map is not None
        if dollars != -1 and not _line_before(piece, token.map[0], dollars):
            continue
        if may_open is None:
            may_open = ("{" in piece and ("{%" in piece or "{{" in piece)) or "::" in piece
        if may_open:
            if line_offsets is None or checks is None:
                line_offsets = [0, *(m.end() for m in re.finditer("\n", piece))]
                checks = (open_checker(piece), mdc_open_checker(piece))
            if checks[0](line_offsets[token.map[0]]) or checks[1](line_offsets[token.map[0]]):
                continue  # a template code block or MDC component open before it may close after it
        if details:
            if dangling is None:
                dangling = dangling_stops(tokens)
            if dangling[index] is not None:
                continue
        return index if token.map[0] > first else None
    return None


def _line_before(piece: str, line: int, offset: int) -> bool:
    """Whether 0-based ``line`` of ``piece`` starts at or before ``offset``."""
    return piece.count("\n", 0, offset) >= line


def _nesting_limit_line(tokens: Iterable[Token], nesting: int) -> int | None:
    """1-based line of the first token at the nesting limit (its inner structure is flattened)."""
    deepest = nesting - 1
    for token in tokens:
        if token.level >= deepest and token.map is not None:
            return token.map[0] + 1
    return None
