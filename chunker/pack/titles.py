"""A container's title as the pieces after its first repeat it: bounded.

Every piece of a split admonition, ``:::`` / ``///`` container, content tab or ``<details>``
re-opens the container with its title line (declared in ``added_lines``), so the piece renders
as the container it came from and says what it belongs to. A title is usually a few words; a
long one (a ``<summary>`` holding a whole question, 290 characters) repeated before each piece at
a small budget left ~60 characters of body per piece, cutting code lines at words. A repeated
title therefore takes at most ``1/TITLE_SHARE`` of max_chars, as a context line does: a longer
one is shortened at a word, ending with ``…`` (the first piece keeps the title whole: it is the
source's own line). The title's syntax stays whole, so the shortened line opens the same
container: the text between quotes (``!!! note "…"``, ``=== "…"``), the text after a ``:::`` /
``///`` container's name, a ``<summary>``'s text (its inline tags dropped). A line whose title
cannot be told from its syntax (MDC props ``::name{...}``) is repeated as it is.
"""

from __future__ import annotations

import re

from chunker.sizes import Counter

__all__ = ["TITLE_SHARE", "bounded_title"]

TITLE_SHARE = 4
"""A repeated container title takes at most 1/TITLE_SHARE of max_chars."""

_ELLIPSIS = "…"
_SUMMARY = re.compile(r"(<summary\b[^>]*>)(.*?)(</summary\s*>)", re.IGNORECASE | re.DOTALL)
_DETAILS = re.compile(r"[ \t]*<details\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_MARKER = re.compile(
    r"[ \t>]*(?::{3,}|/{3,}|`{3,}|!!!|\?\?\?\+?|===[+!]?)[ \t]*(?:\{[\w.-]+\}|[\w.-]+)?(?:[ \t]*\|)?[ \t]*"
)
"""A container line's marker and name (``:::tip``, ``:::{note}``, ``/// details |``, ``!!! note``)."""


def bounded_title(opening: str, max_chars: int, measure: Counter = len) -> str:
    """``opening`` (a container's title line, or a ``<details>`` element's opening HTML block) as a
    piece repeats it: itself when it takes at most max_chars / TITLE_SHARE, else shortened."""
    limit = max_chars // TITLE_SHARE
    if measure(opening) <= limit:
        return opening
    if _DETAILS.match(opening):
        return _details(opening, limit, measure)
    quoted = _quoted(opening)
    if quoted is not None:
        head, text, tail = quoted
        return _fit(head, text, tail, limit, measure)
    marker = _MARKER.match(opening)
    if marker is None or "{" in opening[marker.end() :]:
        return opening  # no title told by its syntax (MDC props, a footnote label)
    head = opening[: marker.end()]
    text = opening[marker.end() :]
    return _fit(head, text, "", limit, measure) if text.strip() else opening


def _details(opening: str, limit: int, measure: Counter) -> str:
    """A ``<details>`` opening block shortened: its tag, and its ``<summary>`` with the text cut."""
    tag = _DETAILS.match(opening)
    assert tag is not None
    summary = _SUMMARY.search(opening, tag.end())
    head = tag.group(0)
    if measure(head) > limit:
        head = head.lstrip()[:8] + ">"  # ``<details`` with its attributes left out
    if summary is None:
        return head
    text = " ".join(_TAG.sub("", summary.group(2)).split())
    return _fit(f"{head}\n{summary.group(1)}", text, summary.group(3), limit, measure)


def _quoted(line: str) -> tuple[str, str, str] | None:
    """(head with the opening quote, title, closing quote and the rest) of a line whose title is
    quoted (``!!! note "Title"``, ``=== "Tab"``); None when it has no quoted text."""
    first = line.find('"')
    last = line.rfind('"')
    marker = _MARKER.match(line)
    if first < 0 or last <= first + 1 or marker is None or "{" in line[marker.end() : first]:
        return None
    return line[: first + 1], line[first + 1 : last], line[last:]


def _fit(head: str, text: str, tail: str, limit: int, measure: Counter) -> str:
    """``head + text + tail`` with ``text`` cut at a word and ``…`` so that the whole fits in ``limit``
    (the text dropped whole, but for ``…``, when not even one word fits)."""
    words = text.split()
    low, high = 0, len(words)
    while low < high:  # the most words that fit
        mid = (low + high + 1) // 2
        if measure(head + " ".join(words[:mid]) + _ELLIPSIS + tail) <= limit:
            low = mid
        else:
            high = mid - 1
    return head + " ".join(words[:low]) + _ELLIPSIS + tail
