"""Stage 1: Markdown text -> block tokens with source maps, and the frontmatter.

markdown-it-py with tables and dollarmath; the frontmatter is found by
:mod:`chunker.parse.frontmatter`. The ``inline`` core rule
is disabled: chunking needs block structure only, and the inline parser is where
pathological input costs seconds and gigabytes. Chunk text is always cut from
the source by line maps, never rebuilt from token content, so whatever the
parser skips (reference definitions, text past the nesting limit) stays in the
source and the segmenter keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add, sub
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

from chunker.config import ChunkerConfig
from chunker.models import Diagnostic, SkippedRange
from chunker.parse.frontmatter import read_frontmatter
from chunker.text import compute_line_starts


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A parsed document: the text, its block tokens and its frontmatter."""

    text: str
    tokens: Sequence[Token]
    line_starts: Sequence[int]
    """Offset of the first character of every line (lines end at ``\\n`` only)."""
    body_start_line: int = 0
    """0-based index of the first line after the frontmatter."""
    metadata: dict[str, Any] = field(default_factory=dict)
    frontmatter: SkippedRange | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    nesting_limit_hit: int | None = None
    """1-based line where nesting went past ``max_nesting`` (structure below it is flattened)."""
    more_tokens: Iterable[Sequence[Token]] = ()
    """Tokens of the rest of a large document, one list per piece, parsed only when iterated
    (maps are document lines, like those of ``tokens``); empty when ``tokens`` hold everything.
    Iterating raises :class:`WholeParseNeededError` when the pieces cannot stand for the whole parse."""

    def line_end(self, index: int) -> int:
        """Offset just past the text of 0-based line ``index`` (before its newline)."""
        if index + 1 < len(self.line_starts):
            return self.line_starts[index + 1] - 1
        return len(self.text) - 1 if self.text.endswith("\n") else len(self.text)


@lru_cache(maxsize=8)
def markdown_parser(max_nesting: int) -> MarkdownIt:
    """The block parser; cached, since building it costs more than parsing a small file. Frontmatter
    is found by :mod:`chunker.parse.frontmatter` (one rule for Markdown and plain text), not by
    markdown-it's front_matter plugin, whose closing rule differs."""
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"maxNesting": max_nesting}).enable("table")
    md.use(dollarmath_plugin)
    md.core.ruler.disable(["inline", "text_join"])  # text_join only joins inline children
    _speed_up(md)
    return md


# -- speed-ups of the block parse: same tokens as markdown-it-py's own (checked as told in bench/README.md) --

_LABEL_RUN = re.compile(r"(?:[^\[\]\\\n]|\\[^\n])*")
"""What markdown-it's ``reference`` rule skips before the ``[`` or ``]`` that decides a label."""
_SETEXT_SCAN_LINES = 32
"""How far the ``lheading`` speed-up looks for an underline or an empty line before it hands the
paragraph to markdown-it's rule. Unbounded, it scanned every line up to the next empty one from every
paragraph: a list or sections without empty lines took time quadratic in their length (16,000 list
items: 37 s). Bounded, its work per paragraph is constant; markdown-it's rule stops where the
paragraph ends. At 32 the corpus parses as fast as with the unbounded scan (8: 4 % slower)."""


class _Silent:
    """Stands for the ``LOGGER`` of markdown-it's block rules in our copies of them: each rule
    logs a debug line on entry (2.3 M calls over the corpus, ~5 % of the parse)."""

    @staticmethod
    def debug(*args: object, **kwargs: object) -> None:
        return None


def _quiet_copy(fn: Any) -> Any:
    """A block rule that reads ``LOGGER`` from its module: the same code with a globals dict in
    which ``LOGGER`` is :class:`_Silent` (markdown-it's modules and loggers are left alone)."""
    import types

    if not isinstance(fn, types.FunctionType) or "LOGGER" not in fn.__code__.co_names:
        return fn
    copy = types.FunctionType(
        fn.__code__, {**fn.__globals__, "LOGGER": _Silent}, fn.__name__, fn.__defaults__, fn.__closure__
    )
    copy.__kwdefaults__ = fn.__kwdefaults__
    return copy


def _speed_up(md: MarkdownIt) -> None:
    """The block parse made cheaper, its tokens unchanged (``tests/test_parser.py``,
    ``bench/token_identity.py``): block rules without their debug logging; ``reference`` and
    ``lheading`` rejecting at once what they can never accept; the paragraph terminators and the
    block rules asked only when the line's first character allows; the state's line caches and
    tokens built at C speed; ``normalize`` skipped when there is nothing to normalise."""
    from markdown_it.rules_block.state_block import StateBlock

    block = md.block
    for rule in block.ruler.__rules__:
        rule.fn = _quiet_copy(rule.fn)
    block.ruler.__compile__()
    original_reference = next(r.fn for r in block.ruler.__rules__ if r.name == "reference")

    def reference(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[start_line] + state.tShift[start_line]
        end = state.eMarks[start_line]
        if pos < end:
            if src[pos] != "[":
                return False
            stop = _LABEL_RUN.match(src, pos + 1, end).end()  # type: ignore[union-attr]
            if stop < end:
                char = src[stop]
                if char == "[" or (char == "]" and (stop + 1 >= end or src[stop + 1] != ":")):
                    return False
        return original_reference(state, start_line, end_line, silent)

    block.ruler.at("reference", reference, {"alt": []})

    original_lheading = next(r.fn for r in block.ruler.__rules__ if r.name == "lheading")

    def lheading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        # markdown-it's setext rule runs the paragraph terminators on every line of every paragraph
        # before the paragraph rule does the same again. It can only succeed if a line of the
        # paragraph it would scan starts with '-' or '=': when the next empty line comes first,
        # answer False at once. This scan does not see where a terminator ends the paragraph, so it
        # looks at most _SETEXT_SCAN_LINES lines ahead and leaves longer ones to markdown-it's rule.
        src, b_marks, t_shift, e_marks, s_count = state.src, state.bMarks, state.tShift, state.eMarks, state.sCount
        indent = state.blkIndent
        line = start_line + 1
        stop = min(end_line, line + _SETEXT_SCAN_LINES)
        while line < stop:
            pos = b_marks[line] + t_shift[line]
            if pos >= e_marks[line]:
                return False  # an empty line ends the paragraph
            if indent <= s_count[line] <= indent + 3 and src[pos] in "-=":
                return original_lheading(state, start_line, end_line, silent)
            line += 1
        if line < end_line:
            return original_lheading(state, start_line, end_line, silent)
        return False

    block.ruler.at("lheading", lheading, {"alt": []})
    _fast_paragraph_terminators(md)
    _dispatch_by_first_character(md)
    _fast_block_state(md)
    _skip_needless_normalize(md)


def _skip_needless_normalize(md: MarkdownIt) -> None:
    """markdown-it's ``normalize`` core rule rewrites line breaks to ``\\n`` and NUL to U+FFFD with
    two regex substitutions that copy the whole text; a text with neither (every text the pipeline
    hands over has its line breaks normalised already) is left as it is."""
    from markdown_it.rules_core.state_core import StateCore

    ruler = md.core.ruler
    original = next(r.fn for r in ruler.__rules__ if r.name == "normalize")

    def normalize(state: StateCore) -> None:
        if "\r" in state.src or "\0" in state.src:
            original(state)

    ruler.at("normalize", normalize)


def _line_markers(src: str) -> tuple[list[int], list[int], list[int], list[int]]:
    """markdown-it's per-line caches (``bMarks``, ``eMarks``, ``tShift``, ``sCount``), computed
    with one ``split`` and C-level string methods instead of a Python loop over every line and its
    indentation. Like markdown-it: a last line without ``\\n`` that holds only spaces and tabs gets
    no marker; the fake entry past the last line is added."""
    lines = src.split("\n")
    if lines[-1].strip(" \t") == "":
        lines.pop()  # the empty text after a final newline, or a last line of only blanks
    lengths = list(map(len, lines))
    b_marks = list(accumulate([n + 1 for n in lengths], initial=0))
    b_marks[-1] = len(src)
    e_marks = list(map(add, b_marks, lengths))
    e_marks.append(len(src))
    t_shift = list(map(sub, lengths, map(len, map(str.lstrip, lines, repeat(" \t")))))
    s_count = t_shift.copy()
    if "\t" in src:
        for i, shift in enumerate(t_shift):
            if shift and "\t" in lines[i][:shift]:
                offset = 0
                for char in lines[i][:shift]:
                    offset += 4 - offset % 4 if char == "\t" else 1
                s_count[i] = offset
    t_shift.append(0)
    s_count.append(0)
    return b_marks, e_marks, t_shift, s_count


_MARKER_SAMPLE = "a\n  b\n\t c\n \t\td\n\n   \n x \t\n\t\n \t "
"""Lines that exercise every branch of markdown-it's marker loop (checked against it once)."""


_TOKEN_FIELDS = ("type", "tag", "nesting", "attrs", "map", "level", "children", "content", "markup", "info", "meta",
                 "block", "hidden")  # fmt: skip
"""markdown-it's ``Token`` fields, which :func:`_fast_block_state` sets by hand."""
_PARSE_SAMPLE = "# a\n\n- b\n  > c\n\n| x |\n|---|\n| y |\n\n```py\nz\n```\n\n    code\n\ntext\n===\n"


def _fast_block_state(md: MarkdownIt) -> None:
    """The block parser's state computes its line caches with :func:`_line_markers`, and creates
    tokens by setting their fields directly: ``Token(...)`` through its dataclass ``__init__`` and
    ``__post_init__`` plus ``push``'s own updates cost twice as much, and the block parse creates
    half a million tokens over the corpus. Installed only when markdown-it's own state gives the
    same caches on samples, and its parse the same tokens (other attributes of the state are set by
    its own ``__init__``); tokens by hand only when ``Token`` has exactly the known fields."""
    import dataclasses
    import types

    from markdown_it.parser_block import ParserBlock
    from markdown_it.rules_block.state_block import StateBlock

    new_token = Token.__new__
    known_token = tuple(f.name for f in dataclasses.fields(Token)) == _TOKEN_FIELDS

    class FastStateBlock(StateBlock):
        def __init__(self, src: str, md: MarkdownIt, env: Any, tokens: list[Token]) -> None:
            super().__init__("", md, env, tokens)
            self.src = src
            self.bMarks, self.eMarks, self.tShift, self.sCount = _line_markers(src)
            self.bsCount = [0] * len(self.bMarks)
            self.lineMax = len(self.bMarks) - 1

        if known_token:

            def push(self, ttype: str, tag: str, nesting: Literal[-1, 0, 1]) -> Token:
                token = new_token(Token)
                token.type, token.tag, token.nesting = ttype, tag, nesting
                token.attrs, token.map, token.children = {}, None, None
                token.content = token.markup = token.info = ""
                token.meta, token.block, token.hidden = {}, True, False
                if nesting < 0:
                    self.level -= 1  # closing tag
                token.level = self.level
                if nesting > 0:
                    self.level += 1  # opening tag
                self.tokens.append(token)
                return token

    for sample in (_MARKER_SAMPLE, _MARKER_SAMPLE + "\n", "", "\n", " ", "x"):
        stock, fast = StateBlock(sample, md, {}, []), FastStateBlock(sample, md, {}, [])
        if vars(stock) != vars(fast):
            return
    parse = ParserBlock.parse
    block_parse = types.FunctionType(
        parse.__code__, {**parse.__globals__, "StateBlock": FastStateBlock}, parse.__name__, parse.__defaults__
    )
    if block_parse(md.block, _PARSE_SAMPLE, md, {}, []) != parse(md.block, _PARSE_SAMPLE, md, {}, []):
        return
    md.block.parse = types.MethodType(block_parse, md.block)  # type: ignore[method-assign]


_TERMINATOR_FIRST_CHARS = frozenset("`~>*-_+#<0123456789")
"""First characters with which a line can start a block that interrupts a paragraph (fence,
blockquote, hr, list, html_block, heading); a table interrupts it only if the next line starts
with '|', '-' or ':' (its delimiter row)."""
_KNOWN_TERMINATORS = frozenset({"table", "fence", "blockquote", "hr", "list", "html_block", "heading"})


def _fast_paragraph_terminators(md: MarkdownIt) -> None:
    """The paragraph (and setext) rules ask every terminator rule about every line of a paragraph.
    One combined terminator answers False at once for a line that none of them can accept, judged
    by the line's first character (and the next line's, for tables); other lines go to the rules
    as before. Installed only when the terminators are exactly the known ones."""
    from markdown_it.rules_block.state_block import StateBlock

    ruler = md.block.ruler
    names = {r.name for r in ruler.__rules__ if r.enabled and "paragraph" in r.alt}
    if not names <= _KNOWN_TERMINATORS:
        return
    chain = list(ruler.getRules("paragraph"))
    first_chars = _TERMINATOR_FIRST_CHARS

    def terminator(state: StateBlock, line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[line] + state.tShift[line]
        if pos >= len(src) or src[pos] not in first_chars:
            after = line + 1
            if after >= end_line:
                return False
            pos = state.bMarks[after] + state.tShift[after]
            if pos >= len(src) or src[pos] not in "|-:":
                return False
        return any(rule(state, line, end_line, silent) for rule in chain)

    cache = ruler.__cache__
    assert cache is not None
    cache["paragraph"] = [terminator]


_FIRST_CHARS = {
    "math_block": "$",
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
}
"""The characters a line must start with (after its indentation) for each of these block rules to
accept it: each rule returns False at once on any other."""


def _dispatch_by_first_character(md: MarkdownIt) -> None:
    """The block parser tries every rule in turn on every block start; most return False on the
    first character. One dispatcher tries, in markdown-it's order, only the rules that can accept
    the line: those of :data:`_FIRST_CHARS` whose characters include its first one, and every other
    rule (table, code, lheading, paragraph) always."""
    from markdown_it.rules_block.state_block import StateBlock

    ruler = md.block.ruler
    enabled = [r for r in ruler.__rules__ if r.enabled]
    chain = list(ruler.getRules(""))
    if [r.fn for r in enabled] != chain:
        return
    named = [(r.name, r.fn) for r in enabled]

    def rules_for(char: str) -> tuple[Any, ...]:
        return tuple(fn for name, fn in named if name not in _FIRST_CHARS or char in _FIRST_CHARS[name])

    by_char = {c: rules_for(c) for c in "".join(_FIRST_CHARS.values())}
    other = rules_for("")

    def dispatch(state: StateBlock, line: int, end_line: int, silent: bool) -> bool:
        for rule in by_char.get(state.src[state.bMarks[line] + state.tShift[line]], other):
            if rule(state, line, end_line, silent):
                return True
        return False

    cache = ruler.__cache__
    assert cache is not None
    cache[""] = [dispatch]


def _tokenize(text: str, cfg: ChunkerConfig) -> tuple[list[Token], int]:
    """Tokens and the nesting limit that was used (lowered if the parser's recursion runs out)."""
    nesting = cfg.max_nesting
    while True:
        try:
            return markdown_parser(nesting).parse(text), nesting
        except RecursionError:
            if nesting <= 8:
                raise
            nesting = max(8, nesting // 2)


class WholeParseNeededError(Exception):
    """A piece of a large document hit what only the whole parse may decide (the nesting limit,
    a lowered nesting): parse the document whole instead."""


PIECE_CHARS = 1 << 18
"""Documents longer than this are parsed in pieces of about this many characters (see
:func:`parse`), so that the token list of the whole document never exists at once."""


def _piece_end(text: str, start: int, size: int) -> int:
    """Offset just past the line end at or after ``start + size`` (``len(text)`` if none)."""
    if start + size >= len(text):
        return len(text)
    newline = text.find("\n", start + size)
    return len(text) if newline == -1 else newline + 1


def _split_index(tokens: Sequence[Token], piece: str) -> int | None:
    """Index of the last top-level ATX heading_open of a piece (not on its first line) that is a
    safe boundary, or None.

    Why the tokens before such a heading are those of the whole document: the heading line ends
    every block above it except blocks that search on for an end marker. Of those, fences and
    HTML blocks end at the end of the input when the marker is missing (they would cover the
    heading, so it would not be a heading), front matter only opens on line 0, and only a
    ``$$`` math block *fails* when its end is missing: in the whole document it could find one
    past the piece. So the heading must come before the first ``$$`` of the piece."""
    dollars = piece.find("$$")
    for index in range(len(tokens) - 1, 0, -1):
        token = tokens[index]
        if token.level != 0 or token.type != "heading_open" or not token.markup.startswith("#"):
            continue
        assert token.map is not None
        if dollars != -1 and not _line_before(piece, token.map[0], dollars):
            continue
        return index if token.map[0] > 0 else None
    return None


def _line_before(piece: str, line: int, offset: int) -> bool:
    """Whether 0-based ``line`` of ``piece`` starts at or before ``offset``."""
    return piece.count("\n", 0, offset) >= line


def _nesting_limit_line(tokens: Iterable[Token], nesting: int) -> int | None:
    deepest = nesting - 1
    for token in tokens:
        if token.level >= deepest and token.map is not None:
            return token.map[0] + 1
    return None


def _later_pieces(
    text: str, starts: Sequence[int], first_line: int, cfg: ChunkerConfig, nesting: int
) -> Iterator[list[Token]]:
    """Token lists of ``text`` from line ``first_line`` (a safe boundary) on, piece by piece."""
    line = first_line
    while line < len(starts):
        offset = starts[line]
        end = _piece_end(text, offset, PIECE_CHARS)
        piece = text[offset:end]
        tokens, used = _tokenize(piece, cfg)
        split = _split_index(tokens, piece) if end < len(text) else None
        if split is None and end < len(text):
            piece = text[offset:]  # no safe boundary: the rest in one parse
            tokens, used = _tokenize(piece, cfg)
            end = len(text)
        del piece
        if split is not None:
            boundary = tokens[split].map
            assert boundary is not None
            next_line = line + boundary[0]
            del tokens[split:]
        else:
            next_line = len(starts)
        if used != nesting or _nesting_limit_line(tokens, used) is not None:
            raise WholeParseNeededError(f"line {line + 1}")
        if line:
            for token in tokens:
                if token.map is not None:
                    token.map = [token.map[0] + line, token.map[1] + line]
        yield tokens
        del tokens
        line = next_line


def parse(text: str, cfg: ChunkerConfig, *, in_pieces: bool = False) -> ParsedDocument:
    """Tokens of ``text`` (newlines already normalised to ``\\n``) and its frontmatter.

    With ``in_pieces``, a document longer than :data:`PIECE_CHARS` is parsed piece by piece,
    each piece cut before a top-level ATX heading line (see :func:`_split_index`): ``tokens``
    holds the first piece's and ``more_tokens`` yields the others as it is iterated."""
    starts = compute_line_starts(text)
    fm = read_frontmatter(text, starts, cfg)
    body_start = fm.body_start_line
    head_end = _piece_end(text, 0, PIECE_CHARS) if in_pieces else len(text)
    if body_start and starts[body_start - 1] >= head_end:
        return parse(text, cfg)  # front matter not closed in the first piece: parse the document whole
    head = text[:head_end] if head_end < len(text) else text
    if body_start:
        # The frontmatter's lines as empty lines: markdown-it starts where the body does, line numbers unchanged.
        head = "\n" * body_start + (head[starts[body_start] :] if body_start < len(starts) else "")
    tokens, nesting = _tokenize(head, cfg)
    more: Iterator[list[Token]] | None = None
    if head_end < len(text):
        split = _split_index(tokens, head)
        if split is None or nesting != cfg.max_nesting:
            return parse(text, cfg)
        boundary = tokens[split].map
        assert boundary is not None
        del tokens[split:]
        more = _later_pieces(text, starts, boundary[0], cfg, nesting)
    del head
    diagnostics = list(fm.diagnostics)
    limit_line = _nesting_limit_line(tokens, nesting)
    if limit_line is not None and more is not None:
        return parse(text, cfg)
    if limit_line is not None:
        diagnostics.append(
            Diagnostic(
                "warning",
                "nesting-limit",
                f"blocks nested deeper than {nesting} levels from line {limit_line}: "
                "their inner structure is not parsed, their text is kept",
                line=limit_line,
            )
        )
    return ParsedDocument(
        text=text,
        tokens=tokens,
        line_starts=starts,
        body_start_line=body_start,
        metadata=fm.metadata,
        frontmatter=fm.skipped,
        diagnostics=tuple(diagnostics),
        nesting_limit_hit=limit_line,
        more_tokens=() if more is None else more,
    )
