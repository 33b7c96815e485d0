"""Openers: units that introduce what follows them, so no chunk may end with one.

The packer already keeps a top-level heading, an HTML block that only opens elements and a table's
header with what follows (``Unit.glue``). The pieces of a split list item or container have the
same openers inside them: a heading in a list item, a ``:::info`` / ``!!! note`` / ``<details>`` /
``<summary>`` line, a ``{% raw %}`` line (a template tag that opens a block or a branch: ``{% ifversion ghes %}``,
``{% else %}``, a site's own ``{% note %}`` that the page closes with ``{% endnote %}``), a line that only opens
elements (``<Sandpack>``, ``<div class="x">``) at the end of a paragraph, a lead-in (a line ending with ``:``)
right before the block it introduces (a list, code, a table, a paragraph), a list item's first line
whose nested items start the next unit, a definition's term (the unit before a ``:   definition`` line),
the unit before a closing template tag (``{% endraw %}``), and a caption right above a code fence: a line
of one HTML element holding a label (``<span class="filename">Filename: src/main.rs</span>``, ``<h3>Bad</h3>``)
or a label and a file name (``Filename: src/main.rs``, ``**File:** app.py``), which names the code below it.
Such a unit sticks to the next one too, whenever both (with the headings and openers already stuck before it) fit in
one chunk: else a cut after it stays allowed, so that nothing goes over the budget. (A chunk that
starts with the opener may pass the budget, which allows for the section's longest context line,
when it fits in max_chars with its own.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from chunker.docfx import directive_kind, is_directive
from chunker.fences import fence_after, has_fence_marker
from chunker.pack.budget import SectionSpace
from chunker.pack.context import join
from chunker.pack.strength import Strength, Unit

__all__ = ["glue_openers", "opener"]

_HEADING = re.compile(r"[ \t>]*#{1,6}(?:[ \t]|$)")
_CONTAINER = re.compile(r"[ \t>]*(?::::+[ \t]*[^:\s]|!!!|\?\?\?|///[ \t]*[^/\s]|<details\b|<summary\b)", re.IGNORECASE)
_OPEN_TAGS = re.compile(r"[ \t>]*(?:<([A-Za-z][\w.:-]*)(?:\s(?:[^<>/\"']|\"[^\"<>]*\"|'[^'<>]*')*)?>[ \t]*)+")
"""A line of start tags only; a ``/`` counts in a quoted attribute value (``file-name="src/main.rs"``),
elsewhere it closes the element (``<br/>``)."""
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
_INTRODUCED = re.compile(r"[ \t>]*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|```|~~~|\|)")
"""The start of what a lead-in introduces: a list item, a code fence, a table row."""
_ITEM = re.compile(r"([ \t>]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
"""A list item's first line (its indentation, container prefixes included, in group 1)."""
_CLOSER = re.compile(r"(?:\{%-?[ \t]*end\w*[ \t]*-?%\}|\{\{[<%][ \t]*/[^{}\n]*[>%]\}\})\s*")
"""A unit of one closing template tag (``{% endraw %}`` after the fence it wraps, ``{% endcapture %}``,
Hugo's ``{{< /tab >}}``): the unit before it sticks to it, as to what an opener introduces."""
_TEMPLATE_OPEN = re.compile(r"[ \t>]*\{%-?[ \t]*(\w+)\b[^%{}\n]*-?%\}[ \t]*")
"""A line of one Liquid/Jinja tag: an opener of what follows, as a line of HTML start tags, when the tag opens a
block or a branch (:func:`_template_opener`)."""
_BLOCK_TAGS = frozenset(
    {"raw", "highlight", "capture", "comment", "if", "unless", "for", "case", "tab", "tabs", "ifversion"}
    | {"else", "elsif", "elif", "when"}
)
"""Tags that open a block (Liquid's and Jinja's, GitHub Docs' ``{% ifversion ghes %}`` closed by ``{% endif %}``)
or the branch below them (``{% else %}``, ``{% elsif x %}``, ``{% when x %}``)."""
_END_TAG = re.compile(r"\{%-?[ \t]*end(\w+)")
_ENDED: list[object] = ["", (frozenset(), frozenset())]
"""(the source, the names of the block tags and of the shortcodes it closes) of the last source asked
(:func:`_ended`)."""


_SHORTCODE_OPEN = re.compile(r"[ \t>]*\{\{([<%])[ \t]*(\w[\w.-]*(?:/[\w.-]+)*)(?:[ \t][^{}\n]*)?(?<!/)[>%]\}\}[ \t]*")
"""A line of one opening Hugo shortcode (``{{% alert title="Note" %}}``, ``{{< tabpane text=true >}}``), not a
self-closing one (``{{< tab header="a" />}}``)."""
_SHORTCODE_CLOSE = re.compile(r"\{\{[<%][ \t]*/[ \t]*(\w[\w./-]*)")


def _template_opener(line: str, source: str) -> bool:
    """Whether ``line`` is one template tag that opens a block or a branch: one of :data:`_BLOCK_TAGS`, or a
    site's own block tag that the page closes (``{% note %}`` of ``{% endnote %}``, ``{% windows %}`` of
    ``{% endwindows %}``, Hugo's ``{{% alert %}}`` of ``{{% /alert %}}``, ``{{< tabpane >}}`` of ``{{< /tabpane
    >}}``); a tag the page never closes (``{% include x %}``, ``{% data x %}``, ``{{< figure src=x >}}``) opens
    nothing."""
    match = _TEMPLATE_OPEN.fullmatch(line)
    if match is None:
        shortcode = _SHORTCODE_OPEN.fullmatch(line) if "{{" in line else None
        return shortcode is not None and shortcode.group(2) in _ended(source)[1]
    name = match.group(1)
    return name in _BLOCK_TAGS or (not name.startswith("end") and name in _ended(source)[0])


def _ended(source: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``x`` of the ``{% endx %}`` tags and of the closing shortcodes (``{{< /x >}}``, ``{{% /x %}}``)
    of ``source``, found once per source (a section's cuts ask it in turn)."""
    if _ENDED[0] is not source:
        ended = frozenset(m.group(1) for m in _END_TAG.finditer(source))
        closed = frozenset(m.group(1) for m in _SHORTCODE_CLOSE.finditer(source)) if "{{" in source else frozenset()
        _ENDED[:] = [source, (ended, closed)]
    return _ENDED[1]  # type: ignore[return-value]


_DEFINITION = re.compile(r":[ \t]+\S")
"""A definition's first line (``term`` / ``:   definition`` of Python-Markdown, kramdown, Pandoc, PHP Markdown
Extra): the unit before it ends with its term. (A term the parser reads as a block of its own, an HTML comment
such as MkDocs Material's ``<!-- md:option x -->``, is a unit of its own.)"""
_CAPTION_ELEMENT = re.compile(r"[ \t>]*<([A-Za-z][\w-]*)(?:\s[^<>]*)?>[^<>\n]{1,120}</\1[ \t]*>[ \t]*")
"""A caption line of one HTML element and its label: ``<span class="filename">Filename: src/main.rs</span>``."""
_CAPTION_FILE = re.compile(
    r"[ \t>]*[*_]{0,2}[^\W\d_][\w .-]{0,30}?:[*_]{0,2}[ \t]+[*_`]{0,2}[\w./\\~-]*\.\w+[*_`]{0,2}[ \t]*"
)
"""A caption line of a label and a file name: ``Filename: src/main.rs``, ``Файл: src/lib.rs``, ``**File:** app.py``."""
_FENCE = re.compile(r"[ \t>]*(?:```|~~~)")
_OPENER_STARTS = frozenset("#:!?/<-*+{")
"""The characters after a line's ``[ \t>]*`` with which :data:`_HEADING`, :data:`_CONTAINER`,
:data:`_ITEM` (or a digit) and :data:`_OPEN_TAGS` can match."""

_HEADING_6 = Strength.HEADING_6
_MARKERS = re.compile(r"[ \t>]*")
"""What ``line.lstrip(" \t>")`` strips (see :func:`_may_open`)."""

Sizes = Callable[[int, int], int]


def opener(units: Sequence[Unit], k: int, source: str) -> bool:
    """Whether ``units[k]`` ends with an opener of what ``units[k + 1]`` holds, or the next unit is a closing
    template tag that ends what ``units[k]`` is in (see the module)."""
    following = units[k + 1]
    if following.strength < _HEADING_6 and _closes(following, source):
        return True
    return _opens(units, k, source)


def _opens(units: Sequence[Unit], k: int, source: str) -> bool:
    """Whether ``units[k]`` ends with an opener of what ``units[k + 1]`` holds."""
    unit, following = units[k], units[k + 1]
    if following.strength >= _HEADING_6 or unit.block.kind == "code":
        return False
    end = unit.end
    while end > unit.start and source[end - 1] in " \t\n":
        end -= 1
    line_start = source.rfind("\n", unit.start, end) + 1 or unit.start
    while source[end - 1] == ">" and unit.block.kind == "blockquote" and not source[line_start:end].strip(" \t>"):
        if line_start <= unit.start:
            return False  # only blank quote lines: no text, no opener (the line before is not the unit's)
        end = line_start - 1  # a blank line of the quote ends the unit: its last line of text counts
        while end > unit.start and source[end - 1] in " \t\n":
            end -= 1
        line_start = source.rfind("\n", unit.start, end) + 1 or unit.start
    if line_start >= end:
        return False
    if _FENCE.match(source, following.start) is not None and _caption(source[line_start:end]):
        return not _in_code(unit, line_start, source)  # a caption of the code below it
    if _defines(following, source):
        return not _in_code(unit, line_start, source)  # the term of the definition that follows
    head = line_start
    if source[head] in " \t>":
        markers = _MARKERS.match(source, line_start, end)
        head = markers.end() if markers is not None else line_start
    last = source[end - 1]
    if not (
        (head < end and (source[head] in _OPENER_STARTS or source[head].isdigit()))
        or ((last in ":：" or last.isspace()) and _lead_in(source[line_start:end]))
    ):
        return False  # most lines (as _may_open, without slicing the line)
    line = source[line_start:end]
    if _lead_in(line):
        opens = _introduces(units[k + 1], source)
    elif _CONTAINER.match(line) or _template_opener(line, source):
        # a docfx directive opens only a part (::: zone pivot="x"), not '::: zone-end' nor ':::image ...:::'
        opens = not is_directive(line) or directive_kind(line.lstrip(" \t>")) == "open"
    elif (item := _ITEM.match(line)) is not None:
        # a piece of a nested item starts at its text, past its indentation: count the columns before it
        column = _indent(unit, source) if line_start == unit.start else 0
        deeper = _indent(following, source) > column + len(item.group(1))
        opens = deeper and _ITEM.match(source, following.start) is not None
    elif _HEADING.match(line):
        opens = unit.block.kind != "paragraph"  # in a paragraph, a '#' line is text
    else:
        tags = _OPEN_TAGS.fullmatch(line)
        opens = tags is not None and tags.group(1).lower() not in _VOID
    return opens and not _in_code(unit, line_start, source)


def _caption(line: str) -> bool:
    """Whether ``line`` is a caption of the code fence below it (:data:`_CAPTION_ELEMENT`, :data:`_CAPTION_FILE`)."""
    return _CAPTION_ELEMENT.fullmatch(line) is not None or _CAPTION_FILE.fullmatch(line) is not None


def _closes(unit: Unit, source: str) -> bool:
    """Whether the unit is one closing template tag (:data:`_CLOSER`)."""
    return source.startswith("{", unit.start) and _CLOSER.fullmatch(source, unit.start, unit.end) is not None


def _defines(unit: Unit, source: str) -> bool:
    """Whether the unit starts with a definition's first line (:data:`_DEFINITION`)."""
    return source.startswith(":", unit.start) and _DEFINITION.match(source, unit.start) is not None


def _may_open(line: str) -> bool:
    """Whether ``line`` may be an opener: a lead-in, or a line whose first character after its
    container markers is one :data:`_OPENER_STARTS` or a digit. The patterns of :func:`opener` ran
    on every unit of every section cut into pieces (~116,000 over the shared corpus); this test
    spares them most lines."""
    head = line.lstrip(" \t>")[:1]
    return head in _OPENER_STARTS or head.isdigit() or _lead_in(line)


def _lead_in(line: str) -> bool:
    """A line ending with a colon (not a ``:::`` closing line)."""
    stripped = line.rstrip()
    return stripped.endswith((":", "：")) and len(stripped) > 1 and stripped[-2] != ":"


def _introduces(unit: Unit, source: str) -> bool:
    """Whether a lead-in introduces ``unit``: the start of any block (a list, code, a table, and as
    well a paragraph: a command reference's ``- Create an archive:`` over the paragraph holding the
    command), or a list item, fence or table row inside a piece."""
    if unit.first:
        return True
    return _INTRODUCED.match(source, unit.start) is not None


def _indent(unit: Unit, source: str) -> int:
    """Columns before the unit's first character on its line (a piece starts at the line's text)."""
    return unit.start - (source.rfind("\n", 0, unit.start) + 1)


def _in_code(unit: Unit, line_start: int, source: str) -> bool:
    """Whether the line at ``line_start`` sits inside a code fence of the unit's block."""
    block = unit.block
    if block.kind not in ("list", "container", "blockquote") or "code" not in block.inner:
        return False
    text = source[block.start_offset : line_start]
    return has_fence_marker(text) and fence_after(text) is not None


def glue_openers(space: SectionSpace, units: Sequence[Unit], size_of: Sizes) -> None:
    """Marks every opener unit as glue when it fits in one chunk with what it sticks to."""
    source = space.source
    chain = 0  # first unit of the run of glue units ending at k
    for k in range(len(units) - 1):
        unit = units[k]
        if not unit.glue and opener(units, k, source):
            end = k + 1
            while end < len(units) - 1 and units[end].glue:
                end += 1
            if size_of(chain, end + 1) <= space.budget or _fits_max(space, units[chain : end + 1]):
                unit.glue = True
        if not unit.glue:
            chain = k + 1


def _fits_max(space: SectionSpace, units: Sequence[Unit]) -> bool:
    """Whether whole blocks fit in max_chars with the context line a chunk of them gets (the
    budget allows for the section's longest one): the packer then makes them one chunk."""
    if not all(u.first and u.last for u in units):
        return False
    content = space.source[units[0].start : units[-1].end]
    block = units[-1].block
    prefix = space.context.line(block.header_path, content)
    return space.measure(join(prefix, "", content)) <= space.cfg.max_chars
