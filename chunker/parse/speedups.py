"""The block parse made cheaper, its tokens unchanged: seven speed-ups that reach into markdown-it-py.

Each one leans on markdown-it-py internals (``ruler.__cache__``, the rule functions' globals,
``ParserBlock.parse``, ``Token``'s fields), so :func:`install` checks its preconditions, installs
what holds and returns the names of what is active; the parser warns about any that is not
(``markdown.markdown_parser``). The chain speed-ups (paragraph terminators, first-character
dispatch) are rebuilt whenever the block ruler recompiles its chains, so a later ``enable``,
``disable`` or ``use`` on the parser keeps them; :func:`active` reports what is in place at any time.

Tokens are checked against stock markdown-it-py in ``tests/test_parser.py`` and, over the corpus,
by ``bench/token_identity.py``. The versions they are tested on are pinned in ``pyproject.toml``.
"""

from __future__ import annotations

import dataclasses
import re
import types
from collections.abc import Callable
from itertools import accumulate, repeat
from operator import add, sub
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.parser_block import ParserBlock
from markdown_it.ruler import Ruler
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token

__all__ = ["SPEED_UPS", "active", "install"]

SPEED_UPS = (
    "quiet_rules",
    "reference_reject",
    "lheading_reject",
    "paragraph_terminators",
    "first_char_dispatch",
    "fast_block_state",
    "normalize_skip",
)
"""Every speed-up, by name: what :func:`install` returns when all of them hold."""

_MARK = "chunker_speed_up"
"""Attribute naming the speed-up a function of ours stands for (how :func:`active` finds them)."""

BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _mark(fn: Any, name: str) -> Any:
    setattr(fn, _MARK, name)
    return fn


def _is(fn: Any, name: str) -> bool:
    return getattr(getattr(fn, "__func__", fn), _MARK, None) == name


# -- quiet_rules --------------------------------------------------------------------------------


class _Silent:
    """Stands for the ``LOGGER`` of markdown-it's block rules in our copies of them: each rule
    logs a debug line on entry (2.3 M calls over the corpus, ~5 % of the parse)."""

    @staticmethod
    def debug(*args: object, **kwargs: object) -> None:
        return None


def _logs(fn: Any) -> bool:
    return isinstance(fn, types.FunctionType) and "LOGGER" in fn.__code__.co_names


def _quiet_copy(fn: Any) -> Any:
    """A block rule that reads ``LOGGER`` from its module: the same code with a globals dict in
    which ``LOGGER`` is :class:`_Silent` (markdown-it's modules and loggers are left alone)."""
    if not _logs(fn) or fn.__globals__.get("LOGGER") is _Silent:
        return fn
    copy = types.FunctionType(
        fn.__code__, {**fn.__globals__, "LOGGER": _Silent}, fn.__name__, fn.__defaults__, fn.__closure__
    )
    copy.__kwdefaults__ = fn.__kwdefaults__
    return copy


def _quiet(ruler: Ruler[Any]) -> None:
    for rule in ruler.__rules__:
        rule.fn = _quiet_copy(rule.fn)


# -- reference_reject, lheading_reject ----------------------------------------------------------

_LABEL_RUN = re.compile(r"(?:[^\[\]\\\n]|\\[^\n])*")
"""What markdown-it's ``reference`` rule skips before the ``[`` or ``]`` that decides a label."""
_SETEXT_SCAN_LINES = 32
"""How far the ``lheading`` speed-up looks for an underline or an empty line before it hands the
paragraph to markdown-it's rule. Unbounded, it scanned every line up to the next empty one from every
paragraph: a list or sections without empty lines took time quadratic in their length (16,000 list
items: 37 s). Bounded, its work per paragraph is constant; markdown-it's rule stops where the
paragraph ends. At 32 the corpus parses as fast as with the unbounded scan (8: 4 % slower)."""


def _rule(ruler: Ruler[Any], name: str) -> Any:
    return next((r.fn for r in ruler.__rules__ if r.name == name), None)


def _reject_references(ruler: Ruler[BlockRule]) -> None:
    """``reference`` answers False at once for a line that cannot start a definition (no ``[``,
    or a label that ends without ``]:``)."""
    original = _rule(ruler, "reference")
    if original is None or _is(original, "reference_reject"):
        return

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
        return bool(original(state, start_line, end_line, silent))

    ruler.at("reference", _mark(reference, "reference_reject"), {"alt": []})


def _reject_lheadings(ruler: Ruler[BlockRule]) -> None:
    """markdown-it's setext rule runs the paragraph terminators on every line of every paragraph
    before the paragraph rule does the same again. It can only succeed if a line of the paragraph
    it would scan starts with '-' or '=': when the next empty line comes first, answer False at
    once. This scan does not see where a terminator ends the paragraph, so it looks at most
    :data:`_SETEXT_SCAN_LINES` lines ahead and leaves longer ones to markdown-it's rule."""
    original = _rule(ruler, "lheading")
    if original is None or _is(original, "lheading_reject"):
        return

    def lheading(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        src, b_marks, t_shift, e_marks, s_count = state.src, state.bMarks, state.tShift, state.eMarks, state.sCount
        indent = state.blkIndent
        line = start_line + 1
        stop = min(end_line, line + _SETEXT_SCAN_LINES)
        while line < stop:
            pos = b_marks[line] + t_shift[line]
            if pos >= e_marks[line]:
                return False  # an empty line ends the paragraph
            if indent <= s_count[line] <= indent + 3 and src[pos] in "-=":
                return bool(original(state, start_line, end_line, silent))
            line += 1
        if line < end_line:
            return bool(original(state, start_line, end_line, silent))
        return False

    ruler.at("lheading", _mark(lheading, "lheading_reject"), {"alt": []})


# -- paragraph_terminators, first_char_dispatch (rebuilt on every compile of the chains) --------

_TERMINATOR_FIRST_CHARS = frozenset("`~>*-_+#<0123456789:/!?[{")
"""First characters with which a line can start a block that interrupts a paragraph (fence,
blockquote, hr, list, html_block, heading, container, admonition, footnote definition); a table
interrupts it only if the next line starts with '|', '-' or ':' (its delimiter row)."""
_KNOWN_TERMINATORS = frozenset(
    {
        "table",
        "fence",
        "blockquote",
        "hr",
        "list",
        "html_block",
        "heading",
        "container_block",
        "container_blocks",
        "admonition",
        "footnote_def",
        "template_code",
        "mdc_block",
    }
)

_FIRST_CHARS = {
    "math_block": "$",
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
    "container_block": ":",
    "container_blocks": "/",
    "admonition": "!?",
    "content_tab": "=",
    "template_code": "{",
    "mdc_block": ":",
    "footnote_def": "[",
    "attr": "{",
}
"""The characters a line must start with (after its indentation) for each of these block rules to
accept it: each rule returns False at once on any other."""


def _fast_paragraph_terminators(ruler: Ruler[BlockRule]) -> None:
    """The paragraph (and setext) rules ask every terminator rule about every line of a paragraph.
    One combined terminator asks, in markdown-it's order, only the known ones
    (:data:`_KNOWN_TERMINATORS`) that can accept the line's first character (:data:`_FIRST_CHARS`;
    the table rule when the next line starts as a delimiter row), and terminators added by plugins
    about every line. (Terminators are asked in silent mode: a yes or no.)"""
    cache = ruler.__cache__
    assert cache is not None
    chain = [r for r in ruler.__rules__ if r.enabled and "paragraph" in r.alt]
    if [r.fn for r in chain] != cache.get("paragraph", []):
        return
    unknown = tuple(r.fn for r in chain if r.name not in _KNOWN_TERMINATORS)

    def rules_for(char: str) -> tuple[Any, ...]:
        return tuple(r.fn for r in chain if r.name not in _FIRST_CHARS or char in _FIRST_CHARS[r.name])

    by_char = {c: rules_for(c) for c in _TERMINATOR_FIRST_CHARS}
    table_or_unknown = rules_for("")  # a line no known rule but the table's can start

    def terminator(state: StateBlock, line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[line] + state.tShift[line]
        rules = by_char.get(src[pos]) if pos < len(src) else None
        if rules is None:
            rules = unknown
            after = line + 1
            if after < end_line:
                pos = state.bMarks[after] + state.tShift[after]
                if pos < len(src) and src[pos] in "|-:":
                    rules = table_or_unknown
        for rule in rules:  # noqa: SIM110 (a loop: any() over a generator costs a frame per paragraph line)
            if rule(state, line, end_line, silent):
                return True
        return False

    cache["paragraph"] = [_mark(terminator, "paragraph_terminators")]


def _dispatch_by_first_character(ruler: Ruler[BlockRule]) -> None:
    """The block parser tries every rule in turn on every block start; most return False on the
    first character. One dispatcher tries, in markdown-it's order, only the rules that can accept
    the line: those of :data:`_FIRST_CHARS` whose characters include its first one, and every other
    rule (table, code, lheading, paragraph, plugins' rules) always."""
    cache = ruler.__cache__
    assert cache is not None
    enabled = [r for r in ruler.__rules__ if r.enabled]
    if [r.fn for r in enabled] != cache.get("", []):
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

    cache[""] = [_mark(dispatch, "first_char_dispatch")]


class _BlockRuler(Ruler[BlockRule]):
    """markdown-it's block ruler, which rebuilds the chain speed-ups (and quiets new rules) each time
    it compiles its chains: after ``enable``, ``disable``, ``at``, ``before`` or a plugin's ``use``."""

    def __compile__(self) -> None:
        _quiet(self)
        super().__compile__()
        _fast_paragraph_terminators(self)
        _dispatch_by_first_character(self)


# -- fast_block_state ---------------------------------------------------------------------------


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
    half a million tokens over the corpus. Installed only when ``Token`` has exactly the known
    fields, markdown-it's own state gives the same caches on samples, and its parse the same tokens
    (other attributes of the state are set by its own ``__init__``)."""
    if tuple(f.name for f in dataclasses.fields(Token)) != _TOKEN_FIELDS:
        return
    new_token = Token.__new__

    class FastStateBlock(StateBlock):
        def __init__(self, src: str, md: MarkdownIt, env: Any, tokens: list[Token]) -> None:
            super().__init__("", md, env, tokens)
            self.src = src
            self.bMarks, self.eMarks, self.tShift, self.sCount = _line_markers(src)
            self.bsCount = [0] * len(self.bMarks)
            self.lineMax = len(self.bMarks) - 1

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
    md.block.parse = types.MethodType(_mark(block_parse, "fast_block_state"), md.block)  # type: ignore[method-assign]


# -- normalize_skip -------------------------------------------------------------------------------


def _skip_needless_normalize(md: MarkdownIt) -> None:
    """markdown-it's ``normalize`` core rule rewrites line breaks to ``\\n`` and NUL to U+FFFD with
    two regex substitutions that copy the whole text; a text with neither (every text the pipeline
    hands over has its line breaks normalised already) is left as it is."""
    ruler = md.core.ruler
    original = _rule(ruler, "normalize")
    if original is None or _is(original, "normalize_skip"):
        return

    def normalize(state: StateCore) -> None:
        if "\r" in state.src or "\0" in state.src:
            original(state)

    ruler.at("normalize", _mark(normalize, "normalize_skip"))


# -- install, active --------------------------------------------------------------------------------


def install(md: MarkdownIt) -> tuple[str, ...]:
    """Install every speed-up whose preconditions hold on ``md``; the names of those now active
    (all of :data:`SPEED_UPS` on the supported markdown-it-py versions)."""
    ruler = md.block.ruler
    if type(ruler) is Ruler:
        ruler.__class__ = _BlockRuler
    _quiet(ruler)
    _reject_references(ruler)
    _reject_lheadings(ruler)
    ruler.__cache__ = None  # compiled again, with the chain speed-ups, on the next parse
    _fast_block_state(md)
    _skip_needless_normalize(md)
    return active(md)


def active(md: MarkdownIt) -> tuple[str, ...]:
    """The speed-ups in place on ``md`` now (the block ruler's chains are compiled if they are not)."""
    ruler = md.block.ruler
    found = {
        "quiet_rules": all(not _logs(r.fn) or r.fn.__globals__.get("LOGGER") is _Silent for r in ruler.__rules__),
        "reference_reject": _is(_rule(ruler, "reference"), "reference_reject"),
        "lheading_reject": _is(_rule(ruler, "lheading"), "lheading_reject"),
        "paragraph_terminators": [_is(fn, "paragraph_terminators") for fn in ruler.getRules("paragraph")] == [True],
        "first_char_dispatch": [_is(fn, "first_char_dispatch") for fn in ruler.getRules("")] == [True],
        "fast_block_state": _is(md.block.parse, "fast_block_state"),
        "normalize_skip": _is(_rule(md.core.ruler, "normalize"), "normalize_skip"),
    }
    return tuple(name for name in SPEED_UPS if found[name])
