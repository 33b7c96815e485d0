"""The frame of a block: the opening and closing lines of fenced code and of containers
(admonitions, ``:::`` and ``///`` blocks, footnote definitions), read from the source lines a
block token spans. A piece of a split block re-opens its frame (:mod:`chunker.pack.reopen`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.parse import ParsedDocument
from chunker.parse.containers import CONTAINER_MARKERS
from chunker.parse.token import BlockToken
from chunker.template_tags import fence_view

__all__ = ["callout_title", "doc_line", "fence_closed", "fence_lines", "frame_lines", "least_run", "marker_run"]


def _closes(line: str, marker: str) -> bool:
    """Whether ``line`` (stripped) is a closing fence for ``marker`` (the opening's run; for code
    written as a template tag, its closing tag line: :mod:`chunker.parse.templates`)."""
    if marker.startswith("{"):
        return line == marker
    if "{%" in line:
        line = fence_view(line).strip()  # ```` ```{% endraw %} ````: the site removes the tag first
    return line.startswith(marker) and set(line) == {marker[0]}


def fence_closed(fence: BlockToken, text: str, starts: Sequence[int]) -> bool:
    """Whether a nested fence's last line closes it (container prefixes ``>`` and spaces aside)."""
    assert fence.map is not None
    first, last = fence.map
    if last - first < 2 or last > len(starts):
        return False
    end = starts[last] - 1 if last < len(starts) else len(text)
    return _closes(text[starts[last - 1] : end].strip().lstrip("> \t").rstrip(), fence.markup)


def fence_lines(
    token: BlockToken, text: str, starts: Sequence[int], first: int, last: int, doc: ParsedDocument
) -> tuple[str, str]:
    """(opening line, closing line) of a fenced code block; closing is "" when never closed."""
    opening = text[starts[first] : doc.line_end(first)]
    if last - first < 2:
        return opening, ""
    closing = text[starts[last - 1] : doc.line_end(last - 1)].strip()
    return opening, closing if _closes(closing, token.markup) else ""


def doc_line(doc: ParsedDocument, index: int) -> str:
    """Line ``index`` (0-based) of the document, without its line break."""
    return doc.text[doc.line_starts[index] : doc.line_end(index)]


def marker_run(line: str, marker: str, least: int = 3) -> bool:
    """Whether ``line`` is a container's closing line: ``least`` (three, two for an MDC component
    opened with ``::``) or more ``marker`` characters."""
    stripped = line.strip()
    return len(stripped) >= least and set(stripped) == {marker}


def frame_lines(token: BlockToken, first: int, last: int, doc: ParsedDocument) -> tuple[str, str] | None:
    """(opening line, closing line or "") of an admonition or ``:::`` container on lines first..last-1;
    a footnote definition's label (``[^1]:``); None for a definition list, split only before a term."""
    if token.type == "dl_open":
        return None
    if token.type == "footnote_reference_open":
        line = doc_line(doc, first)
        return line[: line.index("]:") + 2], ""
    # the closing line keeps its indentation, as the opening line does: an MDC component (``  ::callout``) is
    # closed only by a line at its own indentation (``  ::``)
    closing = doc_line(doc, last - 1).rstrip() if last - first >= 2 else ""
    marker = CONTAINER_MARKERS.get(token.type)
    return doc_line(doc, first), closing if marker and marker_run(closing, marker, least_run(token)) else ""


def least_run(token: BlockToken) -> int:
    """The fewest markers of a container's closing line: two for an MDC component (``::name``), else three."""
    return 2 if token.markup == "::" else 3


_CALLOUT = re.compile(r"\{[^}]*\.callout-[\w-]+")
"""A Pandoc div's attributes naming a Quarto callout class (``{.callout-note collapse="true"}``)."""


def callout_title(tokens: Sequence[BlockToken], i: int, doc: ParsedDocument) -> str:
    """The heading line a Quarto callout (``::: {.callout-note}``, the container opened by ``tokens[i]``) opens
    with, its first block (``## Title``: the callout's title, not a section of the page), else
    "" (a setext heading too). The pieces of a split callout repeat it after the opening line, as an admonition's pieces
    repeat its title."""
    token = tokens[i]
    if "callout" not in token.info or _CALLOUT.search(token.info) is None or i + 1 >= len(tokens):
        return ""
    heading = tokens[i + 1]
    if heading.type != "heading_open" or heading.map is None or heading.map[1] - heading.map[0] != 1:
        return ""
    return doc_line(doc, heading.map[0])
