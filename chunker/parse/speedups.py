"""The block parse made cheaper, its tokens unchanged: speed-ups that reach into markdown-it-py.

Each one leans on markdown-it-py internals (``ruler.__cache__``, the rule functions' globals,
``ParserBlock.parse``, ``StateBlock`` and ``Token``'s fields: :mod:`chunker.parse.block_state`), so
:func:`install` checks its preconditions, installs what holds and returns the names of what is
active; the parser warns about any that is not (``markdown.markdown_parser``). The chain speed-ups
(paragraph terminators, first-character dispatch) are rebuilt whenever the block ruler recompiles
its chains, so a later ``enable``, ``disable`` or ``use`` on the parser keeps them; :func:`active`
reports what is in place at any time.

Tokens are checked against stock markdown-it-py in ``tests/test_parser.py`` and, over the corpus,
by ``bench/token_identity.py``. The versions they are tested on are pinned in ``pyproject.toml``.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.parser_block import ParserBlock
from markdown_it.ruler import Ruler
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_core.state_core import StateCore
from markdown_it.utils import OptionsDict

from chunker.parse import block_state, rule_speedups

__all__ = ["SPEED_UPS", "active", "install"]

SPEED_UPS = (
    "quiet_rules",
    "reference_reject",
    "lheading_reject",
    "paragraph_terminators",
    "blockquote_terminators",
    "list_terminators",
    "reference_terminators",
    "first_char_dispatch",
    "fast_block_state",
    "normalize_skip",
    "options_get",
    "table_split",
    "plain_links",
    "quote_lazy_cut",
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


# -- lheading_reject ----------------------------------------------------------

_SETEXT_SCAN_LINES = 32
"""How far the ``lheading`` speed-up looks for an underline or an empty line before it hands the
paragraph to markdown-it's rule. Unbounded, it scanned every line up to the next empty one from every
paragraph: a list or sections without empty lines took time quadratic in their length (16,000 list
items: 37 s). Bounded, its work per paragraph is constant; markdown-it's rule stops where the
paragraph ends. At 32 the corpus parses as fast as with the unbounded scan (8: 4 % slower)."""


def _rule(ruler: Ruler[Any], name: str) -> Any:
    return next((r.fn for r in ruler.__rules__ if r.name == name), None)


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

_SPACES = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
"""Every character ``str.strip()`` removes (``str.isspace``): a line's indentation is spaces and tabs
only, so a line whose first character is another of these (a no-break space, a form feed) starts
with it, and a rule that strips the line sees what follows."""

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
    "template_line": "{",
    "mdc_block": ":",
    "pandoc_div": ":",
    "myst_fence": "`",
    "mdx_wrapped_heading": "<",
    "footnote_def": "[",
    "attr": "{",
    "myst_line_comment": "%",
    "myst_block_break": "+",
    "myst_target": "(" + _SPACES,
}
"""The characters a line must start with (after its indentation) for each of these block rules to
accept it, asked as a block or as a terminator: each rule returns False at once on any other
(MyST's target rule strips the line before it looks for its ``(``)."""

_TABLE = "table"
_DELIMITER_ROW = "|-:"
"""The table rule accepts a line only if the next line starts with one of these (its delimiter row)."""
_CODE = "code"
"""The indented code rule accepts a line only if it is indented by 4 or more columns past the block's."""


def _tables(rules: list[tuple[str, Any]], table: bool, code: bool) -> dict[str, tuple[Any, ...]]:
    """The rules of a chain to ask about a line, by its first character (key ``""``: any other
    character), in the chain's order: rules not in :data:`_FIRST_CHARS` are asked about every line,
    the table rule where ``table`` (the next line starts a delimiter row), the code rule where
    ``code`` (the line is indented as code)."""

    def rules_for(char: str) -> tuple[Any, ...]:
        return tuple(
            fn
            for name, fn in rules
            if (name not in _FIRST_CHARS or (char and char in _FIRST_CHARS[name]))
            and (table or name != _TABLE)
            and (code or name != _CODE)
        )

    return {c: rules_for(c) for c in ["", *dict.fromkeys("".join(_FIRST_CHARS.values()))]}


def _fast_terminators(ruler: Ruler[BlockRule], alt: str) -> None:
    """The paragraph (and setext) rules ask every terminator rule about every line of a paragraph,
    the quote rule about every lazy line of a quote (``alt`` names the chain). One combined
    terminator asks, in markdown-it's order, only those that can accept the line (:func:`_tables`).
    (Terminators are asked in silent mode: a yes or no.) For quotes this matters most where
    markdown-it-py is quadratic: each quote followed by lazy lines asks about every line up to the
    next blank one (``> # H`` / ``text`` repeated 1,000 times: 2.2 s, 2,000 times: 8.9 s before)."""
    cache = ruler.__cache__
    assert cache is not None
    chain = [r for r in ruler.__rules__ if r.enabled and alt in r.alt]
    if [r.fn for r in chain] != cache.get(alt, []):
        return
    named = [(r.name, r.fn) for r in chain]
    plain, with_table = _tables(named, False, True), _tables(named, True, True)
    plain_other, table_other = plain[""], with_table[""]

    def terminator(state: StateBlock, line: int, end_line: int, silent: bool) -> bool:
        src, b_marks, t_shift = state.src, state.bMarks, state.tShift
        size = len(src)
        below = line + 1
        if below < end_line and (pos := b_marks[below] + t_shift[below]) < size and src[pos] in _DELIMITER_ROW:
            by_char, other = with_table, table_other
        else:
            by_char, other = plain, plain_other
        pos = b_marks[line] + t_shift[line]
        for rule in by_char.get(src[pos], other) if pos < size else other:
            if rule(state, line, end_line, silent):
                return True
        return False

    cache[alt] = [_mark(terminator, f"{alt}_terminators")]


def _dispatch_by_first_character(ruler: Ruler[BlockRule]) -> None:
    """The block parser tries every rule in turn on every block start; most return False on the
    first character. One dispatcher tries, in markdown-it's order, only the rules that can accept
    the line (:func:`_tables`)."""
    cache = ruler.__cache__
    assert cache is not None
    enabled = [r for r in ruler.__rules__ if r.enabled]
    if [r.fn for r in enabled] != cache.get("", []):
        return
    named = [(r.name, r.fn) for r in enabled]
    by_flags = [[_tables(named, table, code) for code in (False, True)] for table in (False, True)]

    def dispatch(state: StateBlock, line: int, end_line: int, silent: bool) -> bool:
        src, b_marks, t_shift = state.src, state.bMarks, state.tShift
        below = line + 1
        table = below < end_line and (pos := b_marks[below] + t_shift[below]) < len(src) and src[pos] in _DELIMITER_ROW
        by_char = by_flags[table][state.sCount[line] - state.blkIndent >= 4]
        rules = by_char.get(src[b_marks[line] + t_shift[line]])
        for rule in by_char[""] if rules is None else rules:  # noqa: SIM110
            if rule(state, line, end_line, silent):
                return True
        return False

    cache[""] = [_mark(dispatch, "first_char_dispatch")]


_TERMINATED = ("paragraph", "blockquote", "list", "reference")
"""The chains of terminators made one :func:`_fast_terminators` each: asked by the paragraph (and
setext) rule about every line of a paragraph, by the quote rule about every lazy line, by the list
rule about every line that may start its next item, by the reference rule about each line a
definition goes on to."""


class _BlockRuler(Ruler[BlockRule]):
    """markdown-it's block ruler, which rebuilds the chain speed-ups (and quiets new rules) each time
    it compiles its chains: after ``enable``, ``disable``, ``at``, ``before`` or a plugin's ``use``."""

    def __compile__(self) -> None:
        _quiet(self)
        super().__compile__()
        for alt in _TERMINATED:
            _fast_terminators(self, alt)
        _dispatch_by_first_character(self)


# -- fast_block_state ---------------------------------------------------------------------------


def _fast_block_state(md: MarkdownIt) -> None:
    """The block parser's state is :func:`chunker.parse.block_state.fast_state_class`'s: installed
    when that class can be made and markdown-it's parse with it gives the same tokens on a sample."""
    state_class = block_state.fast_state_class(md)
    if state_class is None:
        return
    parse = ParserBlock.parse
    block_parse = types.FunctionType(
        parse.__code__, {**parse.__globals__, "StateBlock": state_class}, parse.__name__, parse.__defaults__
    )
    if block_parse(md.block, _PARSE_SAMPLE, md, {}, []) != parse(md.block, _PARSE_SAMPLE, md, {}, []):
        return
    md.block.parse = types.MethodType(_mark(block_parse, "fast_block_state"), md.block)  # type: ignore[method-assign]


_PARSE_SAMPLE = "# a\n\n- b\n  > c\n\n| x |\n|---|\n| y |\n\n```py\nz\n```\n\n    code\n\ntext\n===\n"


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


# -- options_get ------------------------------------------------------------------------------------


class _Options(OptionsDict):
    """markdown-it's options, with the dict's ``get``: ``Mapping.get`` goes through ``__getitem__`` and
    a ``try``, and the list rule asks ``options.get("tasklists")`` for every list and list item."""

    def get(self, key: str, default: Any = None) -> Any:
        return self._options.get(key, default)


def _fast_options(md: MarkdownIt) -> None:
    if type(md.options) is OptionsDict:
        md.options.__class__ = _Options


# -- install, active --------------------------------------------------------------------------------


def install(md: MarkdownIt) -> tuple[str, ...]:
    """Install every speed-up whose preconditions hold on ``md``; the names of those now active
    (all of :data:`SPEED_UPS` on the supported markdown-it-py versions)."""
    ruler = md.block.ruler
    if type(ruler) is Ruler:
        ruler.__class__ = _BlockRuler
    _quiet(ruler)
    rule_speedups.reject_references(ruler)
    rule_speedups.install_table_split(ruler)
    rule_speedups.cut_lazy_quotes(ruler)
    _reject_lheadings(ruler)
    ruler.__cache__ = None  # compiled again, with the chain speed-ups, on the next parse
    _fast_block_state(md)
    _skip_needless_normalize(md)
    _fast_options(md)
    rule_speedups.install_link_normalizer(md)
    return active(md)


def active(md: MarkdownIt) -> tuple[str, ...]:
    """The speed-ups in place on ``md`` now (the block ruler's chains are compiled if they are not)."""
    ruler = md.block.ruler
    found = {
        "quiet_rules": all(not _logs(r.fn) or r.fn.__globals__.get("LOGGER") is _Silent for r in ruler.__rules__),
        "reference_reject": _is(_rule(ruler, "reference"), "reference_reject"),
        "lheading_reject": _is(_rule(ruler, "lheading"), "lheading_reject"),
        **{
            f"{alt}_terminators": [_is(fn, f"{alt}_terminators") for fn in ruler.getRules(alt)] == [True]
            for alt in _TERMINATED
        },
        "first_char_dispatch": [_is(fn, "first_char_dispatch") for fn in ruler.getRules("")] == [True],
        "fast_block_state": _is(md.block.parse, "fast_block_state"),
        "normalize_skip": _is(_rule(md.core.ruler, "normalize"), "normalize_skip"),
        "options_get": type(md.options) is _Options,
        "table_split": rule_speedups.table_split_active(ruler),
        "plain_links": rule_speedups.plain_links_active(md),
        "quote_lazy_cut": _is(_rule(ruler, "blockquote"), "quote_lazy_cut"),
    }
    return tuple(name for name in SPEED_UPS if found[name])
