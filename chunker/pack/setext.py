"""Lines a re-opened paragraph line (a definition's term) would read as its setext underline.

markdown-it's setext heading rule runs before the definition list's: a term is a paragraph line to
it, and a line of ``-`` or ``=`` after it, before a blank line, at most 3 columns right of the
paragraph (past quote markers), makes term and definition one heading. In the source a blank line
came between; a piece re-opening the term puts its own lines (and re-opened item markers) there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_UNDERLINE = re.compile(r"(?:[ ]*>)*( *)(?:-+|=+)[ \t]*")
"""A line of ``-`` or ``=`` (a setext underline's shape); group 1: its indentation past quote markers."""
_INDENT = re.compile(r"(?:[ ]*>)*( *)")
NONE = 1 << 30
"""No underline (an indentation past any)."""


def indent(text: str) -> int:
    """Columns of spaces before a line's text, past its quote markers."""
    match = _INDENT.match(text)
    return len(match.group(1)) if match else 0


def underline(text: str) -> int:
    """The indentation of a line of ``-`` or ``=`` (past its quote markers), :data:`NONE` for another line."""
    match = _UNDERLINE.fullmatch(text)
    return len(match.group(1)) if match else NONE


def underlines_ahead(lines: list[str]) -> list[int]:
    """By line: the indentation of the least indented line of ``-`` or ``=`` after it before the
    next blank line (a quote's ``>`` alone is blank, or a quote's start to a paragraph outside it,
    but not 4 or more columns in: there it continues a paragraph less indented, a term re-opened
    before a quote in a definition, ``Term`` over ``:   > a`` and ``    >``), :data:`NONE` for none.
    One pass, backwards."""
    ahead, least = [NONE] * len(lines), NONE
    for n in range(len(lines) - 1, -1, -1):
        ahead[n] = least
        text = lines[n]
        blank = not text.strip(" >\t") and (">" not in text or len(text) - len(text.lstrip(" ")) < 4)
        least = NONE if blank else min(least, underline(text))
    return ahead


def underlined(term: str, lines: Iterable[str], ahead: int) -> bool:
    """Whether paragraph line ``term`` followed by ``lines`` (and by source lines whose least
    indented underline is ``ahead``) reads as a setext heading."""
    limit = indent(term) + 3
    return ahead <= limit or any(underline(text.rstrip("\n")) <= limit for text in lines)
