"""Numbered headings: ``2.3 Title`` lines. In ``.txt`` sources (:mod:`chunker.plaintext`) and, under
``numbered_headings``, one-line Markdown paragraphs of that shape (``**7.3.2 Kapazität**``, a heading
written as a bold or plain line by a PDF conversion)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from chunker.models import Heading

MAX_HEADING_CHARS = 100
"""A numbered or ALL-CAPS heading line is at most this long (stripped)."""
MAX_HEADING_WORDS = 14
MAX_NUMBER_DEPTH_LEVEL = 6

_NUMBERED = re.compile(r"^[ \t]{0,3}(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)[ \t]+(?P<title>\S.*?)[ \t]*$")
"""``2.3 Title`` / ``1. Title``; a component has at most 3 digits (``2024 Release`` is a year)."""
_SENTENCE_END = ".!?;:,…"
_EMPHASIS = re.compile(r"^[ \t]{0,3}(?:(\*\*|__)[^*_\n]+?\1[ \t]*)+$")
"""A line of strong spans only: ``**7.3.2 Kapazität**``, or the number and the title as spans of their own
(``**7.3.2** **Kapazität**``, ``**7.3.2****Kapazität**``: a PDF's number and title are runs of their own)."""
_STRONG_SPAN = re.compile(r"(\*\*|__)([^*_\n]+?)\1")
_LEADING_NUMBER = re.compile(r"^(?:§+\s*)?(\d{1,3}(?:\.\d{1,3})*)\.?(?:\s|$)")
_DOTTED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)\.?(?:\s|$)")
"""A number of two or more parts (``4.1``, ``7.3.2.``): one that says its depth. A ``§`` is no such number (``§ 2``
follows ``§ 1`` across the parts of a law), nor is a bare one (``4 Lagerung``, ``3 Gründe``)."""


def depth(number: str) -> int:
    return number.count(".") + 1


def numbered_heading(line: str) -> tuple[int, str] | None:
    """(heading level, title) when the line has the shape of a numbered heading, else None.
    ``1.`` -> 2, ``2.3`` -> 3, ``7.3.1.1`` -> 5 (at most 6)."""
    match = _NUMBERED.match(line)
    if match is None:
        return None
    title = match.group("title")
    stripped = line.strip()
    if not title[0].isupper() or len(stripped) > MAX_HEADING_CHARS or len(stripped.split()) > MAX_HEADING_WORDS:
        return None
    if stripped[-1] in _SENTENCE_END:
        return None
    number = match.group("num")
    if "." not in number and not match.group("dot"):
        return None  # ``3 Title``: a bare number is no heading
    return min(depth(number) + 1, MAX_NUMBER_DEPTH_LEVEL), stripped



def strong_line_text(line: str) -> str | None:
    """The text of a line of strong spans only (:data:`_EMPHASIS`), the spans joined by a space
    (``**7.3.2****Kapazität**`` -> ``7.3.2 Kapazität``), else None."""
    if _EMPHASIS.match(line) is None:
        return None
    return " ".join(span[1].strip() for span in _STRONG_SPAN.findall(line))


def markdown_numbered_heading(line: str, path: Sequence[Heading]) -> tuple[int, str] | None:
    """(level, title) when a one-line Markdown paragraph is a numbered heading written as a plain or
    bold line (``7.3.2 Kapazität``, ``**7.3.2 Kapazität**``), else None. Its level follows the
    headings above it: one level per number part below the nearest heading whose number is a prefix
    of its own (``## 7.3`` -> ``7.3.2`` is level 3), the level of the nearest one of as many parts
    (a sibling), else one more than its number of parts (as in ``.txt``)."""
    emphasis = strong_line_text(line)
    text = emphasis if emphasis is not None else line.strip()
    if not text[:1].isdigit() or (emphasis is None and text.endswith(("*", "_"))):
        return None
    found = numbered_heading(text)
    if found is None:
        return None
    number = _LEADING_NUMBER.match(text)
    if number is None or "." not in number.group(1):
        return None  # ``1. Title`` alone is a list item in Markdown, not a paragraph
    level = _level_by_number(number.group(1), path)
    return (found[0] if level is None else level), text


def _level_by_number(number: str, path: Sequence[Heading]) -> int | None:
    """The level a heading numbered ``number`` takes under the numbered headings of ``path``: one level per
    number part below the nearest whose number is a prefix of its own, the level of the nearest of as many
    parts, else None."""
    for heading in reversed(path):
        other = _LEADING_NUMBER.match(heading.text)
        if other is None:
            continue
        if number.startswith(other.group(1) + "."):
            return min(heading.level + depth(number) - depth(other.group(1)), MAX_NUMBER_DEPTH_LEVEL)
        if depth(other.group(1)) == depth(number):
            return heading.level
    return None


def numbered_atx_level(title: str, markup: int, path: Sequence[Heading], markups: Mapping[int, int]) -> int:
    """The level of a Markdown heading (``#`` .. ``######``, or setext) of text ``title`` and markup
    level ``markup`` under ``numbered_headings``: a PDF conversion often writes every heading at one
    level (``## 4 Lagerung``, ``## 4.1 Oberkörperhochlagerung``, ``## 4.1.3 Klinische Frage``), the
    numbering carrying the depth. A heading numbered in two or more parts (:data:`_DOTTED_NUMBER`)
    takes its level from the numbered headings above it as a numbered line does
    (:func:`markdown_numbered_heading`): one level per number part below the nearest whose number is
    a prefix of its own, the level of the nearest of as many parts, else its markup level. An
    unnumbered heading written at the markup level of the nearest numbered heading above it, when
    that one was moved deeper than its markup (the document's headings are flat), is one level below
    it (``## Empfehlung 1.1`` under ``## 4.1.3 ...``); any other heading keeps its markup level.
    ``markups``: the markup level of each numbered heading on the path, by its line."""
    own = _DOTTED_NUMBER.match(title)
    if own is not None:
        level = _level_by_number(own.group(1), path)
        return markup if level is None else level
    if _LEADING_NUMBER.match(title) is not None:
        return markup  # ``4 Lagerung``, ``§ 2``: a number that says no depth, at its markup level
    for heading in reversed(path):
        if _LEADING_NUMBER.match(heading.text) is None:
            continue
        written = markups.get(heading.line)
        if written is not None and heading.level > written == markup:
            return min(heading.level + 1, MAX_NUMBER_DEPTH_LEVEL)
        return markup
    return markup


MIN_FOOTNOTE_WORDS = 6


def footnote_heading(level: int, title: str) -> bool:
    """Whether an ``#`` heading under ``numbered_headings`` is a line of text that a PDF conversion left
    starting with the document's ``#`` footnote mark, unescaped (docling): ``# = prospektive Studie; ## =
    retrospektive Studie``, ``# individuelle Grenzwerte können nach Volumenoptimierung ... bestimmt werden``.
    Read as a heading, it would head the path of every chunk up to the next ``#``. Such a line starts with
    ``=`` or ``+``, or is a phrase of at least :data:`MIN_FOOTNOTE_WORDS` words starting with a lowercase
    letter (``# iPhone User Guide`` is a title)."""
    if level != 1 or not title:
        return False
    if title[0] in "=+":
        return True
    return title[0].islower() and len(title.split()) >= MIN_FOOTNOTE_WORDS
