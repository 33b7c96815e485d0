"""The labels of the components a chunk starts inside: a tab cut over two chunks names itself in the second.

A tab's label is on its opening line (``<TabItem value="ios" label="iOS">``, Mintlify's ``<Tab title="npm">``
and ``<Step title="Install">``, GitBook's ``{% tab title="Claude Code" %}``, Hugo's ``{{% tab name="Linux" %}}``
or ``{{< tab "Java" >}}``), which only the tab's first chunk holds: the chunks after it read as the same steps
for no platform in particular. A chunk that starts inside such an element, opened by a line of tags in the
same section before it and not closed there, embeds the labels of the elements it starts inside after its
context line (``Install > iOS``), outer first. ``:::`` containers, admonitions and ``<details>`` are blocks
whose pieces repeat their title line already (:mod:`chunker.pack.titles`).

Only the lines of HTML blocks made of tags alone are read (a JSX or HTML block, a template line of the
parse): the openers and closers of a section cut into several chunks, once per section.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.models import Block

__all__ = ["labels_within"]

_JSX = re.compile(r"<(/?)([A-Za-z][\w.:-]*)((?:[^<>\"'{}]|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)>")
_LIQUID = re.compile(r"\{%-?[ \t]*(end)?(\w+)([^%{}]*)-?%\}")
_HUGO = re.compile(r"\{\{([<%])[ \t]*(/?)[ \t]*([\w.-]+(?:/[\w.-]+)*)([^{}]*?)[>%]\}\}")
_ATTRIBUTE = re.compile(
    r"""(?<![\w.:-])(label|title|name|header|value)=(?:"([^"\n]*)"|'([^'\n]*)'|\{["'`]([^"'`\n]*)["'`]\})"""
)
_ORDER = {"label": 0, "title": 1, "name": 2, "header": 3, "value": 4}
"""The attribute naming an element, the first of these it has. A JSX or HTML element is named by its ``label`` or
``title`` only, and a tab (``TabItem``, ``Tab``) by its ``value`` too (a Docusaurus tab's label when it has no
``label``): a ``name`` there names something else (``<Diagram name="dom_tree">``)."""
_ELEMENT_ORDER = {"label": 0, "title": 1}
_TAB_ORDER = {"label": 0, "title": 1, "value": 4}
_POSITIONAL = re.compile(r"""[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'=]+)(?=\s|$))""")
"""A shortcode's first parameter: the tab's name (``{{< tab "Java" >}}``, ``{{% tab TypeScript %}}``)."""
_END_LIQUID = re.compile(r"\{%-?[ \t]*end(\w+)")
_END_HUGO = re.compile(r"\{\{[<%][ \t]*/[ \t]*([\w.-]+(?:/[\w.-]+)*)")
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
_MAX_TAG_BLOCK = 2000
"""A longer HTML block is not read for tags (a block of tags only is a few lines)."""

_Open = tuple[str, str]
"""An element open: (its name, its label or "")."""


def labels_within(blocks: Sequence[Block], source: str, starts: Sequence[int]) -> list[str]:
    """For each offset of ``starts`` (in order, each a chunk's start in the section of ``blocks``), the labels
    of the elements open there, outer first, joined by `` > `` ("" for none)."""
    out: list[str] = []
    stack: list[_Open] = []
    ended: tuple[frozenset[str], frozenset[str]] | None = None
    k = 0
    for start in starts:
        while k < len(blocks) and blocks[k].end_offset <= start:
            block = blocks[k]
            k += 1
            lines = _tag_lines(block, source)
            if lines:
                if ended is None:
                    ended = _ended(source)
                for line in lines:
                    _read(line, stack, ended)
        out.append(" > ".join(label for _, label in stack if label))
    return out


def _tag_lines(block: Block, source: str) -> list[str]:
    """The lines of ``block`` that may be tags: those of an HTML block (a few lines), or the last line of a
    paragraph, where a closing tag is text in CommonMark (``</Diagram>`` right under the caption it closes)."""
    start, end = block.start_offset, block.end_offset
    if block.kind == "html":
        if end - start > _MAX_TAG_BLOCK or source[start : start + 8].lstrip(" \t")[:1] not in ("<", "{"):
            return []
        return source[start:end].split("\n")
    if block.kind == "paragraph" and _may_close(source, start, end):
        return [source[source.rfind("\n", start, end) + 1 : end]]
    return []


def _may_close(source: str, start: int, end: int) -> bool:
    """Whether the paragraph ``source[start:end]`` may end with a line of closing tags."""
    last = source.rfind("\n", start, end) + 1
    return last > start and source[last : last + 8].lstrip(" \t")[:2] in ("</", "{%", "{{")


_ENDED: list[object] = ["", (frozenset(), frozenset())]
"""(the source, :func:`_ended` of it) of the last source asked: each section cut into chunks asks it in turn."""


def _ended(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names of the Liquid block tags (``{% endtab %}``) and the shortcodes (``{{% /tab %}}``) ``source``
    closes: an opening tag of another name opens nothing. Found once per source (:data:`_ENDED`), not once per
    section: a long page of many sections was scanned once per section."""
    if _ENDED[0] is not source:
        liquid = frozenset(_END_LIQUID.findall(source)) if "{%" in source else frozenset()
        hugo = frozenset(_END_HUGO.findall(source)) if "{{" in source else frozenset()
        _ENDED[:] = [source, (liquid, hugo)]
    return _ENDED[1]  # type: ignore[return-value]


def _read(line: str, stack: list[_Open], ended: tuple[frozenset[str], frozenset[str]]) -> None:
    """The elements ``line`` opens and closes, when it is made of tags only, applied to ``stack``."""
    for closes, name, rest in _tags(line.strip(), ended):
        if not closes:
            stack.append((name, _label(rest)))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                del stack[depth:]
                break


def _tags(text: str, ended: tuple[frozenset[str], frozenset[str]]) -> list[tuple[bool, str, str]]:
    """The tags that open or close an element on a line ``text`` of tags only, each (closes, name, what it holds
    after its name); none for a line with text."""
    tags: list[tuple[bool, str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos] == "<":
            jsx = _JSX.match(text, pos)
            if jsx is None:
                return []
            name, rest = jsx.group(2), jsx.group(3)
            if not (rest.rstrip().endswith("/") or name.lower() in _VOID):  # a self-closing tag opens nothing
                tags.append((bool(jsx.group(1)), name, ("\2" if "Tab" in name else "\1") + rest))
            pos = jsx.end()
        elif text.startswith("{%", pos):
            liquid = _LIQUID.match(text, pos)
            if liquid is None:
                return []
            if liquid.group(1) or liquid.group(2) in ended[0]:
                tags.append((bool(liquid.group(1)), liquid.group(2), liquid.group(3)))
            pos = liquid.end()
        elif text.startswith("{{", pos) and (hugo := _HUGO.match(text, pos)) is not None:
            if hugo.group(2) or hugo.group(3) in ended[1]:
                tags.append((bool(hugo.group(2)), hugo.group(3), "\0" + hugo.group(4)))  # \0: a shortcode's
            pos = hugo.end()
        elif text[pos] in " \t":
            pos += 1
        else:
            return []  # text on the line: no line of tags
    return tags


def _label(rest: str) -> str:
    """The label of an opening tag from what it holds after its name, led by one mark: U+0000 for a shortcode,
    U+0001 for a JSX or HTML element, U+0002 for a tab element. Its ``label``, ``title``, ``name``, ``header`` or
    ``value`` attribute (the first of those :data:`_ORDER` and the like allow, in that order), or a shortcode's
    first parameter."""
    order = _ELEMENT_ORDER if rest.startswith("\1") else _TAB_ORDER if rest.startswith("\2") else _ORDER
    best: tuple[int, str] | None = None
    for found in _ATTRIBUTE.finditer(rest):
        value = next((g for g in found.groups()[1:] if g is not None), "").strip()
        rank = order.get(found.group(1))
        if value and rank is not None and (best is None or rank < best[0]):
            best = (rank, value)
    if best is not None:
        return best[1]
    positional = _POSITIONAL.match(rest, 1) if rest.startswith("\0") else None
    if positional is not None:
        return next((g for g in positional.groups() if g is not None), "").strip()
    return ""
