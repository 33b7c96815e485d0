"""Where a component's scope ends: the heading path after the closing line of an element a heading sits in.

A heading inside an element (``<Steps>`` / ``### Step three`` / ``</Steps>``, ``<TabItem>`` / ``## macOS`` /
``</TabItem>``, ``{% stepper %}`` / ``## First step`` / ``{% endstepper %}``, ``{{< tabs >}}`` / ``### On Linux``
/ ``{{< /tabs >}}``) is the element's child, as MDX, Docusaurus, Mintlify, GitBook and Hugo render it: it names
what follows it inside the element, and the element's closing tag ends that. The text after ``</Steps>`` is
the element's sibling: it sits under the headings that were open where the element opened (the step's box, the
tab panel, a ``<div class="composition-api">`` that shows for one API only, ends there). So the heading path
after a line that closes an element is the path of the line that opened it.

Read are the lines the segmenter makes blocks of their own: lines of start tags only (``<Tabs>``, ``<TabItem
value="ios">``, ``<div class="options-api">``: :data:`START_TAGS`), of end tags only, of Liquid/Jinja block tags
the page closes (``{% step %}`` / ``{% endstep %}``; control flow such as ``{% if %}`` or ``{% for %}`` wraps no
element and is not read) and of paired Hugo shortcodes (``{{% tab name="Linux" %}}`` / ``{{% /tab %}}``). A
closing line restores the path only for an element whose opening line was read (``</div>`` closing a ``<div>``
opened inside other markup changes nothing). ``:::`` and MDC ``::`` containers and ``<details>`` are one block
each, headings inside included: nothing to do for them.
"""

from __future__ import annotations

import re

from chunker.models import Heading

__all__ = ["END_TAGS", "START_TAGS", "Scopes"]

START_TAGS = re.compile(
    r"(?:[ \t]*(?:<(?!(?:area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)\b)[A-Za-z][\w.:-]*"
    r"(?:\s(?:[^<>/\"']|\"[^\"<>]*\"|'[^'<>]*')*)?>[ \t]*)+(?:\n|$))+",
    re.IGNORECASE,
)
"""Lines of HTML start tags only, none of a void element (``<div class="composition-api">``, ``<Tabs>``): an
HTML block that opens elements and holds nothing else (a ``/`` counts in a quoted attribute value only)."""
END_TAGS = re.compile(r"(?:[ \t]*(?:</[A-Za-z][\w.:-]*[ \t]*>[ \t]*)+(?:\n|$))+")
"""Lines of end tags only (``</TabItem>``, ``</div></details>``)."""
_TAG = re.compile(r"<(/?)([A-Za-z][\w.:-]*)")
_LIQUID_LINES = re.compile(r"(?:[ \t]*(?:\{%-?[ \t]*\w+(?:[^%\n]|%(?!\}))*%\}[ \t]*)+(?:\n|$))+")
"""Lines of Liquid/Jinja block tags only (``{% step %}``, ``{% endstepper %}``)."""
_LIQUID = re.compile(r"\{%-?[ \t]*(\w+)")
_SHORTCODE_LINES = re.compile(r"(?:[ \t]*(?:\{\{([<%])(?:[^\n{}]|\{(?!\{)|\}(?!\}))*?[>%]\}\}[ \t]*)+(?:\n|$))+")
"""Lines of Hugo shortcodes only (``{{< tabs >}}``, ``{{% /tab %}}``)."""
_SHORTCODE = re.compile(r"\{\{[<%][ \t]*(/?)[ \t]*([\w.-]+(?:/[\w.-]+)*)")
_END_NAME = re.compile(r"\{%-?[ \t]*end(\w+)")
_SHORTCODE_CLOSE = re.compile(r"\{\{[<%][ \t]*/[ \t]*([\w.-]+(?:/[\w.-]+)*)")
_CONTROL = frozenset(
    [
        "if",
        "ifversion",
        "elsif",
        "elif",
        "else",
        "unless",
        "case",
        "when",
        "for",
        "while",
        "tablerow",
        "raw",
        "comment",
        "capture",
        "block",
        "macro",
        "call",
        "filter",
        "with",
        "autoescape",
        "set",
        "trans",
        "blocktrans",
        "spaceless",
        "verbatim",
    ]
)
"""Liquid/Jinja tags of control flow, capture and templating: they wrap no element of the rendered page (a
heading inside ``{% ifversion ghes %}`` goes on naming what follows ``{% endif %}``)."""
MAX_SPAN = 600
"""A longer block is not read (tag lines are short; the reading then stays cheap on any input)."""
MAX_OPEN = 64
"""The open elements kept, innermost last: opening one more forgets the outermost, so that a closing line reads at
most this many (100,000 ``<div>`` lines then as many ``</span>`` ones read each stack whole: quadratic)."""


class Scopes:
    """The elements open at the current line whose opening line was read, each with the heading path where it
    opened (innermost last), and the names of the block tags and shortcodes the document closes."""

    __slots__ = ("closed", "closed_codes", "open", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.open: list[tuple[str, tuple[Heading, ...]]] = []
        self.closed: frozenset[str] | None = None
        """The names of the block tags the document closes (``note`` of ``{% endnote %}``), once asked."""
        self.closed_codes: frozenset[str] | None = None
        """The names of the shortcodes the document closes (``tab`` of ``{{% /tab %}}``), once asked."""

    def closed_tags(self) -> frozenset[str]:
        if self.closed is None:
            self.closed = frozenset(m.group(1) for m in _END_NAME.finditer(self.text))
        return self.closed

    def closed_shortcodes(self) -> frozenset[str]:
        if self.closed_codes is None:
            self.closed_codes = frozenset(_SHORTCODE_CLOSE.findall(self.text))
        return self.closed_codes

    def read(self, start: int, end: int, path: tuple[Heading, ...]) -> tuple[Heading, ...] | None:
        """Reads ``text[start:end]``, a block of tag lines of one syntax, made under ``path``: the elements it
        opens are pushed with ``path``; for one that closes open elements, returns the path where the outermost
        of them opened (what follows it sits under), else None."""
        if end - start > MAX_SPAN:
            return None
        text = self.text
        head = text[start : start + 8].lstrip(" \t")[:2]
        tags: list[tuple[bool, str]]
        if head == "</":
            if END_TAGS.fullmatch(text, start, end) is None:
                return None
            tags = [(True, m.group(2)) for m in _TAG.finditer(text, start, end)]
        elif head[:1] == "<":
            if START_TAGS.fullmatch(text, start, end) is None:
                return None
            tags = [(False, m.group(2)) for m in _TAG.finditer(text, start, end)]
        elif head == "{%":
            if _LIQUID_LINES.fullmatch(text, start, end) is None:
                return None
            closed = self.closed_tags()
            tags = [
                (True, name[3:]) if name.startswith("end") else (False, name)
                for name in _LIQUID.findall(text, start, end)
            ]
            tags = [(ends, name) for ends, name in tags if name not in _CONTROL and (ends or name in closed)]
        elif head == "{{":
            if _SHORTCODE_LINES.fullmatch(text, start, end) is None:
                return None
            codes = self.closed_shortcodes()
            tags = [(bool(closing), name) for closing, name in _SHORTCODE.findall(text, start, end)]
            tags = [(ends, name) for ends, name in tags if ends or name in codes]
        else:
            return None
        found: tuple[Heading, ...] | None = None
        opened = self.open
        for ends, name in tags:
            if not ends:
                opened.append((name, path if found is None else found))
                if len(opened) > MAX_OPEN:
                    del opened[0]
            elif (outer := self._close(name)) is not None:
                found = outer
        return found

    def opening_lines(self, start: int, end: int, path: tuple[Heading, ...]) -> None:
        """Reads the lines waiting over a heading (``text[start:end]``: start tags, template lines that open,
        labels), one at a time: the elements they open are pushed with ``path``, the path above the heading."""
        text = self.text
        while start < end:
            stop = text.find("\n", start, end)
            stop = end if stop < 0 else stop
            if stop > start:
                self.read(start, stop, path)
            start = stop + 1

    def _close(self, name: str) -> tuple[Heading, ...] | None:
        """Pops the innermost open element of ``name`` (and those opened inside it): the path where it opened,
        or None when none of that name is open (one never opened changes nothing)."""
        opened = self.open
        at = len(opened) - 1
        while at >= 0 and opened[at][0] != name:
            at -= 1
        if at < 0:
            return None
        found = opened[at][1]
        del opened[at:]
        return found
