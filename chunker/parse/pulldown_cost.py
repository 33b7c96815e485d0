"""Which bodies the pulldown-cmark path leaves to markdown-it-py for their parse's memory.

pyromark's ``events_with_range`` runs pulldown-cmark over the whole body in Rust before its first
event is read, in memory that grows with the items of pulldown-cmark's tree (:func:`too_many_events`).
"""

from __future__ import annotations

__all__ = ["EVENT_BYTES", "PARSE_BASE", "PARSE_BYTES", "too_many_events"]

EVENT_BYTES = 120
"""Bytes of pyromark's memory per character of :data:`_EVENT_CHARS`, at most (measured, below)."""
PARSE_BYTES = 16
"""pyromark's memory per byte of the body allowed before the body goes to markdown-it-py."""
PARSE_BASE = 1 << 20
"""pyromark's memory allowed on top of :data:`PARSE_BYTES` per byte."""
_EVENT_CHARS = b"*_[]`<|&!\\$>-+#~.)\n\r"
"""Characters at which pulldown-cmark may start an item of its tree: inline markers (emphasis, links,
code, HTML, entities, escapes, math, strikethrough), table cells, list, quote and heading markers
(``.`` and ``)`` of ordered ones), line ends."""


def too_many_events(data: bytes, blank_lines: int = 0) -> bool:
    """Whether pyromark's memory for a body (``data``: its UTF-8 bytes, the first ``blank_lines``
    of them the empty lines standing for frontmatter) may exceed :data:`PARSE_BYTES` per byte plus
    :data:`PARSE_BASE`: such a body is parsed by markdown-it-py (the same blocks:
    ``bench/parser_diff.py``).

    Why the rule is this one (peak RSS of ``pyromark.events_with_range`` alone, one process per
    file): pulldown-cmark has no block-only mode, and its memory grows with the items of its tree,
    not with the body's size: 3-11 x the body for the shared corpus's documents of 150 KB and more,
    13 x for table_100k_rows, 39-49 x for inline_unclosed_links_50k, inline_star_a_100k,
    emphasis_ladder and inline_open_brackets_100k, 58 x for nest_list_line_100k, 37 x for a line
    of 200,000 ``1. `` and 16-48 x for 1.6 MB of one-character lines, items, quote lines,
    headings, ``$a$`` or ``&amp;``. Per character of :data:`_EVENT_CHARS` that is 48-115 bytes
    for those inputs and 67-139 for the corpus's (whose text between the markers weighs too):
    :data:`EVENT_BYTES` bounds the first. :data:`PARSE_BYTES` is the command's peak on the
    corpus's largest documents on this path, 11.6-16.2 x over the base, where the parse is not
    the peak (markdown-it-py's path: 12.1-26.8 x); a higher estimate sends no document of the
    shared corpus or of the doc set to markdown-it-py (the nearest, en-clippy's CHANGELOG,
    estimates 17.5 x 449 KB: 7.9 MB against 8.2 MB allowed) and every dense input of the hostile
    suite (``bench/hostile_memory.py --badinput``: 21-120 x). :data:`PARSE_BASE` keeps small
    documents on pulldown-cmark whatever they hold: a body under 10 KB is not even counted.
    The count is one C pass over the bytes (``bytes.translate``: 16 ms for the 7.6 MB of the
    73 German laws, whose parse needs the bytes anyway)."""
    size = len(data) - blank_lines
    if size * (EVENT_BYTES - PARSE_BYTES) <= PARSE_BASE:
        return False  # a marker is one byte: never over
    markers = len(data) - len(data.translate(None, _EVENT_CHARS)) - blank_lines
    return markers * EVENT_BYTES > PARSE_BYTES * size + PARSE_BASE
