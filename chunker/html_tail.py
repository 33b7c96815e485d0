"""An HTML block that goes on after its element closes: where CommonMark and kramdown part.

CommonMark ends an HTML block that opens with a block-level tag (``<div>``, ``<p>``, ``<table>``...) only at a
blank line; kramdown, Jekyll's Markdown, ends it at the element's closing tag. A Jekyll page's "```ruby" right
under ``</div>`` is therefore a fence on the site and HTML text to chunker's parser, whose next fence line then
opens code that runs to the end of the page (its headings become code, its sections one). The chunks stay exact
slices and render as the document does under CommonMark; the finding names the lines so that the page can be
fixed for both readings (a blank line after the closing tag).
"""

from __future__ import annotations

import re
from functools import lru_cache

from chunker.models import Block, Diagnostic

BLOCK_TAGS = frozenset((
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
    "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
    "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe",
    "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p",
    "param", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
    "track", "ul",
))  # fmt: skip
"""CommonMark's HTML block start condition 6: the block-level tags whose block ends at a blank line."""

_OPENING = re.compile(r" {0,3}<([A-Za-z][A-Za-z0-9]*)(?=[\s/>]|$)")
_MAX_SCANNED = 1 << 20
"""Longer HTML blocks are not looked into (bounded time; such a block is no layout ``<div>``)."""


@lru_cache(maxsize=64)
def _tags(name: str) -> re.Pattern[str]:
    """Opening and closing tags of one element name (group 1: ``/`` of a closing tag; group 2: ``/`` of a
    self-closing one)."""
    return re.compile(rf"<(/?){name}(?=[\s/>]|$)(?:[^<>]*?(/)>)?", re.IGNORECASE)


_ELEMENT = re.compile(r"\s*<([A-Za-z][\w-]*)")
_TEMPLATE_LINE = re.compile(
    r"(?:\{\{<[^{}]*>\}\}|\{\{%[^{}]*%\}\}"
    r"|\{\{-?[ \t]*(?:if|else|end|range|with|define|block|template|break|continue)\b[^{}]*\}\}|[ \t])+"
)
"""A line of Hugo shortcodes (``{{< /tab >}}``) or Go template actions that render no text (``{{ end }}``, ``{{- if
$show -}}``), as Liquid tags (``{% endif %}``): no Markdown in either reading. An output (``{{ page.title }}``) is
text."""
_CAPTURE = re.compile(r"\{%-?[ \t]*(set|capture|comment|highlight|codeblock)\b([^%\n]*)%\}")
"""A Liquid/Nunjucks tag whose body up to its end tag is no Markdown where it stands: a capture (``{% set
codeBlock %}``, ``{% capture x %}``: text kept for later, rendering nothing here), a comment, or code
(``{% highlight %}``, Hexo's ``{% codeblock %}``); ``{% set x = 1 %}`` has no body."""
_VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                   "track", "wbr"))  # fmt: skip


def _tail_line(lines: list[str]) -> int | None:
    """The first line that kramdown reads as Markdown: outside every element (after the first one closes,
    a line opening a tag starts the next element, as kramdown reads a new HTML block), not blank and no
    closing tag, comment, Liquid tag or template line (:data:`_TEMPLATE_LINE`), nor a line of a template body
    that renders nothing there (:data:`_CAPTURE`)."""
    comment, depth, tags = False, 0, _tags("p")
    body: re.Pattern[str] | None = None  # the end tag of the template body the line is in
    for index, line in enumerate(lines):
        if comment:
            comment = "-->" not in line
            continue
        if body is not None:
            body = None if body.search(line) else body
            continue
        if depth <= 0:
            stripped = line.lstrip()
            if stripped.startswith("<!--"):
                comment = "-->" not in stripped
                continue
            capture = _CAPTURE.match(stripped)
            if capture is not None and not (capture.group(1) == "set" and "=" in capture.group(2)):
                end = _end_tag(capture.group(1))
                body = None if end.search(line, capture.end() + len(line) - len(stripped)) else end
                continue
            element = _ELEMENT.match(line)
            if element is None:
                if stripped and not stripped.startswith(("</", "{%")) and _TEMPLATE_LINE.fullmatch(stripped) is None:
                    return index
                continue
            name = element.group(1).lower()
            if name in _VOID:
                continue
            tags, depth = _tags(re.escape(name)), 0
        depth = _depth(depth, tags, line)
    return None


@lru_cache(maxsize=8)
def _end_tag(name: str) -> re.Pattern[str]:
    return re.compile(rf"\{{%-?[ \t]*end{name}[ \t]*-?%\}}")


def _depth(depth: int, tags: re.Pattern[str], line: str) -> int:
    """The element's nesting depth after ``line``."""
    for tag in tags.finditer(line):
        depth += -1 if tag.group(1) else 0 if tag.group(2) else 1
    return depth


def _closing_line(lines: list[str], tags: re.Pattern[str]) -> int | None:
    """The line on which the element opened on the first line closes, if before the last line."""
    depth = 0
    for index, line in enumerate(lines[:-1]):
        depth = _depth(depth, tags, line)
        if depth <= 0:
            return index
    return None


def html_tail_finding(block: Block) -> Diagnostic | None:
    """``html-tail`` for a top-level HTML block that opens with a block-level element and holds a line of
    Markdown (to kramdown) outside every element once it has closed, before the blank line that ends it."""
    if block.kind != "html" or block.end_offset - block.start_offset > _MAX_SCANNED:
        return None
    source = block.source
    first_end = source.find("\n", block.start_offset, block.end_offset)
    if first_end < 0:
        return None  # one line: nothing after it
    opening = _OPENING.match(source, block.start_offset, first_end)
    if opening is None or opening.group(1).lower() not in BLOCK_TAGS:
        return None
    lines = source[block.start_offset : block.end_offset].split("\n")
    closing = _closing_line(lines, _tags(opening.group(1)))
    if closing is None:
        return None
    tail = _tail_line(lines[closing + 1 :])
    if tail is None:
        return None
    line = block.start_line + closing + 1 + tail
    message = (
        f"the HTML block of lines {block.start_line}-{block.end_line} closes its <{opening.group(1)}> on line "
        f"{block.start_line + closing}, but CommonMark goes on to the blank line: line {line} "
        f"({lines[closing + 1 + tail].strip()[:40]!r}) is read as HTML, where kramdown (Jekyll) reads Markdown; "
        f"a blank line after line {block.start_line + closing} makes both read it as Markdown"
    )
    return Diagnostic("warning", "html-tail", message, line=line)
