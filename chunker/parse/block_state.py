"""The block parser's state made cheaper, its values unchanged: line caches from C-level string
methods, tokens created by setting their fields, line ranges cut without a loop per character.

Used by the ``fast_block_state`` speed-up (:mod:`chunker.parse.speedups`), which installs
:func:`fast_state_class` only when its state equals markdown-it's own on samples.
"""

from __future__ import annotations

import dataclasses
from itertools import accumulate, repeat
from operator import add, sub
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.token import Token

__all__ = ["MARKER_SAMPLE", "TOKEN_FIELDS", "fast_state_class", "line_markers"]


def line_markers(src: str) -> tuple[list[int], list[int], list[int], list[int]]:
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


MARKER_SAMPLE = "a\n  b\n\t c\n \t\td\n\n   \n x \t\n\t\n \t "
"""Lines that exercise every branch of markdown-it's marker loop (checked against it once)."""

TOKEN_FIELDS = ("type", "tag", "nesting", "attrs", "map", "level", "children", "content", "markup", "info", "meta",
                "block", "hidden")  # fmt: skip
"""markdown-it's ``Token`` fields, which the fast state's ``push`` sets by hand."""


def _line_start(state: StateBlock, line: int, indent: int, stop: int) -> tuple[int, int]:
    """Where ``getLines`` takes ``line`` from when it strips ``indent`` columns, and how many
    columns of a tab it keeps as spaces: markdown-it's own loop over the line's indentation (used
    where that indentation holds a tab)."""
    src, start = state.src, state.bMarks[line]
    first, line_indent, shift = start, 0, state.tShift[line]
    while first < stop and line_indent < indent:
        char = src[first]
        if char == " " or char == "\t":
            line_indent += 4 - (line_indent + state.bsCount[line]) % 4 if char == "\t" else 1
        elif first - start < shift:
            line_indent += 1
        else:
            break
        first += 1
    return first, line_indent - indent if line_indent > indent else 0


def _get_lines(self: StateBlock, begin: int, end: int, indent: int, keepLastLF: bool) -> str:  # noqa: N803
    """markdown-it's ``StateBlock.getLines`` (lines ``begin`` to ``end``, each without its first
    ``indent`` columns) without its loop over every character of the indentation: where no tab is
    among a line's first ``indent`` characters, each counts one column, so the characters stripped
    are the ``tShift`` first ones (spaces, or a list item's marker) and the spaces after them, up to
    ``indent``. A line with such a tab takes markdown-it's loop (:func:`_line_start`). One line (half
    the calls: paragraphs of one line, in list items most of all) is cut without a list to join."""
    if begin >= end:
        return ""
    src, b_marks, e_marks = self.src, self.bMarks, self.eMarks
    last = end - 1
    last_stop = e_marks[last] + 1 if keepLastLF else e_marks[last]
    if not indent:
        if begin == last:
            return src[b_marks[last] : last_stop]
        parts = [src[b_marks[line] : e_marks[line] + 1] for line in range(begin, last)]
        parts.append(src[b_marks[last] : last_stop])
        return "".join(parts)
    t_shift, find = self.tShift, src.find
    if begin == last:
        start = b_marks[last]
        if find("\t", start, start + indent) != -1:
            first, pad = _line_start(self, last, indent, last_stop)
            return " " * pad + src[first:last_stop] if pad else src[first:last_stop]
        shift = t_shift[last]
        if indent <= shift:
            first = start + indent
        else:
            first = start + shift
            spaces = src[first : start + indent]
            first += len(spaces) - len(spaces.lstrip(" "))
        return src[first if first < last_stop else last_stop : last_stop]
    parts = []
    for line in range(begin, end):
        start = b_marks[line]
        stop = e_marks[line] + 1 if line < last else last_stop
        if find("\t", start, start + indent) != -1:
            first, pad = _line_start(self, line, indent, stop)
            parts.append(" " * pad + src[first:stop] if pad else src[first:stop])
            continue
        shift = t_shift[line]
        if indent <= shift:
            first = start + indent
        else:
            first = start + shift
            spaces = src[first : start + indent]
            first += len(spaces) - len(spaces.lstrip(" "))
        parts.append(src[first if first < stop else stop : stop])
    return "".join(parts)


def fast_state_class(md: MarkdownIt) -> type[StateBlock] | None:
    """A ``StateBlock`` that computes its line caches with :func:`line_markers`, creates tokens by
    setting their fields directly (``Token(...)`` through its dataclass ``__init__`` and
    ``__post_init__`` plus ``push``'s own updates cost twice as much, and the block parse creates
    half a million tokens over the corpus) and cuts line ranges with :func:`_get_lines`. None unless
    ``Token`` has exactly the known fields and the state equals markdown-it's own on samples
    (other attributes of the state are set by its own ``__init__``)."""
    if tuple(f.name for f in dataclasses.fields(Token)) != TOKEN_FIELDS:
        return None
    new_token = Token.__new__

    class FastStateBlock(StateBlock):
        def __init__(self, src: str, md: MarkdownIt, env: Any, tokens: list[Token]) -> None:
            super().__init__("", md, env, tokens)
            self.src = src
            self.bMarks, self.eMarks, self.tShift, self.sCount = line_markers(src)
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

        getLines = _get_lines  # noqa: N815 (markdown-it's name)

    for sample in (MARKER_SAMPLE, MARKER_SAMPLE + "\n", "", "\n", " ", "x"):
        stock, fast = StateBlock(sample, md, {}, []), FastStateBlock(sample, md, {}, [])
        if vars(stock) != vars(fast):
            return None
    return FastStateBlock
