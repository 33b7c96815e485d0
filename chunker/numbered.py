"""Numbered headings: ``2.3 Title`` lines. In ``.txt`` sources (:mod:`chunker.plaintext`) and, under
``numbered_headings``, one-line Markdown paragraphs of that shape (``**7.3.2 Kapazität**``, a heading
written as a bold or plain line by a PDF conversion)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.models import Heading

MAX_HEADING_CHARS = 100
"""A numbered or ALL-CAPS heading line is at most this long (stripped)."""
MAX_HEADING_WORDS = 14
MAX_NUMBER_DEPTH_LEVEL = 6

_NUMBERED = re.compile(r"^[ \t]{0,3}(?P<num>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)[ \t]+(?P<title>\S.*?)[ \t]*$")
"""``2.3 Title`` / ``1. Title``; a component has at most 3 digits (``2024 Release`` is a year)."""
_SENTENCE_END = ".!?;:,…"
_EMPHASIS = re.compile(r"^[ \t]{0,3}(\*\*|__)(?P<inner>[^*_\n]+?)\1[ \t]*$")
"""A line that is one strong span: ``**7.3.2 Kapazität**``."""
_LEADING_NUMBER = re.compile(r"^(?:§+\s*)?(\d{1,3}(?:\.\d{1,3})*)\.?(?:\s|$)")


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



def markdown_numbered_heading(line: str, path: Sequence[Heading]) -> tuple[int, str] | None:
    """(level, title) when a one-line Markdown paragraph is a numbered heading written as a plain or
    bold line (``7.3.2 Kapazität``, ``**7.3.2 Kapazität**``), else None. Its level follows the
    headings above it: one level per number part below the nearest heading whose number is a prefix
    of its own (``## 7.3`` -> ``7.3.2`` is level 3), the level of the nearest one of as many parts
    (a sibling), else one more than its number of parts (as in ``.txt``)."""
    emphasis = _EMPHASIS.match(line)
    text = emphasis.group("inner").strip() if emphasis else line.strip()
    if not text[:1].isdigit() or (not emphasis and text.endswith(("*", "_"))):
        return None
    found = numbered_heading(text)
    if found is None:
        return None
    number = _LEADING_NUMBER.match(text)
    if number is None or "." not in number.group(1):
        return None  # ``1. Title`` alone is a list item in Markdown, not a paragraph
    own = number.group(1)
    for heading in reversed(path):
        other = _LEADING_NUMBER.match(heading.text)
        if other is None:
            continue
        if own.startswith(other.group(1) + "."):
            return min(heading.level + depth(own) - depth(other.group(1)), MAX_NUMBER_DEPTH_LEVEL), text
        if depth(other.group(1)) == depth(own):
            return heading.level, text
    return found[0], text
