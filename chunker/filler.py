"""Filler blocks: markup with no text a query could match.

Documentation pages carry blocks that render as something (or nothing) but hold no words of their
own: a lone media element (``<audio controls src="...">``, ``<img ...>``), a ``<script setup>`` of
imports or a ``<style>`` block, MDX ``import`` lines, a demo component (``<BetweenElements />``),
layout tags (``<div class="options-api">``), ``&nbsp;``, a Hugo shortcode or Liquid tag alone
(``{{< blog/integration-badge >}}``, ``{% include toc.html %}``). Alone in a chunk they make a retrieval unit
with nothing to retrieve, so the strategies and the packer put them with a neighbour. A page of
filler only (a site's section page holding ``{{< section-toc >}}``, ``{% include toc.html %}``, or
``<script setup>`` and ``<Home />``: no heading, no words) has no neighbour to go with: it gets no
chunk, its lines are a skipped range (reason ``filler-only``, so the run stays lossless) and an
``empty`` info entry says so, as for a page of frontmatter only. So does a page of headings only
(a section's ``index.md`` holding only its title, ``# Classes``: reason ``heading-only``).

A section whose body is build-time macros only (MDN's ``## Browser compatibility`` over ``{{Compat}}``,
``{{Specifications}}``, ``{{CSSSyntax}}``; a Hugo ``{{% include "x.md" %}}``; an mdBook code fence holding only
``{{#include ../listings/main.rs}}``), filler aside, has nothing to retrieve either: the site fills it in when
it builds (:func:`macro_section`; the ``headings`` strategy leaves it out as a skipped range). A macro inside
text (``{{ productName }}`` in a sentence or a heading) stays text, and so does one with a quoted argument,
which it renders (``{{jsxref("TypeError")}}``: a link of that text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from chunker.models import Block, SkippedRange
from chunker.template_tags import blanked

__all__ = [
    "FILLER_ONLY",
    "HEADING_ONLY",
    "MIN_LETTERS",
    "filler_page",
    "is_filler",
    "is_filler_text",
    "macro_only",
    "macro_section",
    "renders_nothing",
    "without_filler_page",
]

FILLER_ONLY = "filler-only"
"""The reason of the skipped range of a page of filler only."""
HEADING_ONLY = "heading-only"
"""The reason of the skipped range of a page of headings only (its title: a section's ``index.md``)."""
_TITLES_MAX = 16
"""A page of more blocks than this is no page of headings only (and the streamed path holds no more)."""

MIN_LETTERS = 8
"""Text with fewer letters or digits than this, once markup is removed, has no words of its own."""

_HIDDEN = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>|<!--.*?-->", re.IGNORECASE | re.DOTALL)
"""Elements whose content is not text (scripts, styles) and comments (the reference for :func:`_unhidden`)."""
_HIDDEN_OPEN = {
    "comment": re.compile(r"<!--"),
    "script": re.compile(r"<script\b", re.IGNORECASE),
    "style": re.compile(r"<style\b", re.IGNORECASE),
}
_HIDDEN_CLOSE = {
    "comment": re.compile(r"-->"),
    "script": re.compile(r"</script\s*>", re.IGNORECASE),
    "style": re.compile(r"</style\s*>", re.IGNORECASE),
}
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9A-Fa-f]+|\w+);")
_ESM = re.compile(r"^[ \t]*(?:import|export)\b.*$", re.MULTILINE)
"""MDX ``import`` / ``export`` lines (an ESM block is an HTML block)."""
_LETTER = re.compile(r"[^\W_]")
_MYST_COMMENT = re.compile(r"(?:[ \t]*%[^\n]*(?:\n|$))+")
"""Lines that all start with ``%``: MyST comment lines (mdit-py-plugins' ``myst_blocks``)."""
_KINDS = frozenset({"html", "paragraph"})
_OUTPUT = re.compile(r"\{\{[^{}\n\"'`]*\}\}")
"""A template output or macro call on one line with no quoted argument: ``{{Compat}}``, ``{{CSSSyntax}}``,
``{{ page.title }}``. One with a quoted argument renders it (``{{jsxref("TypeError")}}``: a link of that text,
``{{CSSSyntaxRaw(`<color>`)}}``): text."""
_INCLUDE = re.compile(r"[ \t]*\{\{#[\w-]+[ \t][^{}\n]*\}\}[ \t]*")
"""An mdBook directive line in a code fence: ``{{#include ../listings/main.rs}}``, ``{{#rustdoc_include x:y}}``."""
_FENCE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")


def is_filler_text(text: str, *, esm: bool = False) -> bool:
    """Whether ``text`` is markup only: fewer than :data:`MIN_LETTERS` letters or digits remain once
    scripts, styles, comments, tags and entities (and with ``esm``, import/export lines) are removed,
    and some markup was there (a short word like ``Example:`` is text, not filler)."""
    if "<" not in text and "&" not in text and "{%" not in text and not esm:
        return False
    rest = _unhidden(text)
    rest = blanked(rest) if "{" in rest else rest
    rest = _TAG.sub(" ", rest)
    rest = _ENTITY.sub(" ", rest)
    if esm:
        rest = _ESM.sub(" ", rest)
    if rest == text:
        return False
    return all(count < MIN_LETTERS for count, _ in enumerate(_LETTER.finditer(rest), 1))


_CLOSING_TAG = re.compile(r"</[A-Za-z][\w.:-]*\s*>")
_RULE_LINE = re.compile(r"^[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$", re.MULTILINE)


def renders_nothing(text: str) -> bool:
    """Whether ``text`` renders as nothing a reader sees but a rule: only HTML comments, scripts, styles,
    closing tags, template tags (shortcodes, Liquid tags: ``{% endcapture %}``) and thematic breaks. (An image
    or a component is filler too, but its attributes may hold a caption: not nothing.)"""
    rest = _unhidden(text)
    rest = blanked(rest) if "{" in rest else rest
    rest = _CLOSING_TAG.sub(" ", rest) if "</" in rest else rest
    rest = _RULE_LINE.sub(" ", rest)
    return rest.isspace() or not rest


def macro_section(blocks: Sequence[Block]) -> bool:
    """Whether a section's ``blocks`` are headings, filler and build-time macros only, with at least one macro
    block: a paragraph of macros (:func:`_macro_text`) or a code fence of mdBook directives only
    (:data:`_INCLUDE`). A block of text ends the test (most sections: at their first block after the
    heading)."""
    found = False
    for block in blocks:
        if block.kind == "heading":
            continue
        if "{" in block.content and _macro_block(block):
            found = True
        elif not is_filler(block):
            return False
    return found


_CALL = re.compile(r"\{\{[^{}\n]*\}\}")
"""A template output or macro call on one line, whatever its arguments: ``{{JSRef("Global_Objects", "Math")}}``."""


def macro_only(block: Block) -> bool:
    """Whether ``block`` is a paragraph of template outputs or macro calls only, whatever their arguments
    (:data:`_CALL`), tags and entities aside: ``{{JSRef("Global_Objects", "Math")}}``, ``{{CSSRef}}``,
    ``{{APIRef("DOM")}}{{SeeCompatTable}}``. Not filler (a macro with a quoted argument may render it as
    text, :func:`macro_section`), but no text of its own to stand alone as a chunk: before the first
    heading it goes with the first section (:func:`chunker.strategies.sections.carry_filler`)."""
    if block.kind != "paragraph" or "{{" not in block.content:
        return False
    rest = _CALL.sub(" ", block.content)
    if rest == block.content:
        return False
    rest = _ENTITY.sub(" ", _TAG.sub(" ", rest))
    return all(count < MIN_LETTERS for count, _ in enumerate(_LETTER.finditer(rest), 1))


def _macro_block(block: Block) -> bool:
    """A paragraph of build-time macros only (or an HTML block of template tag lines: ``{% include toc.html %}``),
    or a code fence holding only mdBook directives."""
    if block.kind in _KINDS:
        return _macro_text(block.content)
    if block.kind != "code" or not _FENCE.match(block.content):
        return False
    lines = [line for line in block.content.split("\n") if line.strip() and not _FENCE.match(line)]
    return bool(lines) and all(_INCLUDE.fullmatch(line) for line in lines)


def _macro_text(text: str) -> bool:
    """Whether ``text`` has fewer than :data:`MIN_LETTERS` letters or digits once template outputs without a
    quoted argument (:data:`_OUTPUT`), shortcodes, Liquid tags, tags and entities are removed, and held one."""
    rest = blanked(text)
    rest = _OUTPUT.sub(" ", rest)
    if rest == text:
        return False
    rest = _ENTITY.sub(" ", _TAG.sub(" ", _unhidden(rest)))
    return all(count < MIN_LETTERS for count, _ in enumerate(_LETTER.finditer(rest), 1))


def _unhidden(text: str) -> str:
    """``_HIDDEN.sub(" ", text)`` in linear time. The pattern tries its lazy ``.*?`` from every
    ``<!--`` (or ``<script``) to the end of the text when nothing closes it: 50,000 unclosed
    ``<!--`` on one line took minutes. Here an opening that nothing closes ends the search for its
    kind (no later one can be closed either: its closing would close this one)."""
    out: list[str] = []
    pos = 0
    live = dict(_HIDDEN_OPEN)
    found: dict[str, re.Match[str] | None] = {}
    while live:
        for kind in live:  # the next opening of each kind still possible, searched once per pass
            match = found.get(kind)
            if match is None or match.start() < pos:
                found[kind] = live[kind].search(text, pos)
        live = {kind: pattern for kind, pattern in live.items() if found[kind] is not None}
        if not live:
            break
        kind = min(live, key=lambda k: found[k].start())  # type: ignore[union-attr]
        start = found[kind].start()  # type: ignore[union-attr]
        body = found[kind].end()  # type: ignore[union-attr]
        if kind != "comment":
            gt = text.find(">", body)
            if gt < 0:  # no tag of either element can end: only comments remain possible
                live.pop("script", None)
                live.pop("style", None)
                continue
            body = gt + 1
        close = _HIDDEN_CLOSE[kind].search(text, body)
        if close is None:
            live.pop(kind)  # nothing closes it, so nothing closes a later one either
            continue
        out += [text[pos:start], " "]
        pos = close.end()
    out.append(text[pos:])
    return "".join(out)


def is_filler(block: Block) -> bool:
    """Whether an HTML block or a paragraph is filler (see :func:`is_filler_text`); a block of MyST
    comment lines (``% text``, an HTML block) is, like an HTML comment: it renders as nothing."""
    if block.kind not in _KINDS:
        return False
    content = block.content
    if block.kind == "html" and _MYST_COMMENT.fullmatch(content):
        return True
    return is_filler_text(content, esm=block.kind == "html")


def _page_filler(block: Block) -> bool:
    """Whether ``block`` may be part of a page of filler only: filler, or a thematic break."""
    return block.kind == "thematic_break" or is_filler(block)


def _held(block: Block, held: int) -> bool:
    """Whether ``block``, after ``held`` blocks, may be part of a page of filler only or of headings only."""
    return (block.kind == "heading" and held < _TITLES_MAX) or _page_filler(block)


def _titles(blocks: Sequence[Block]) -> bool:
    """Whether ``blocks`` are a page of headings only (and thematic breaks): a section's ``index.md``
    holding only its title (``# Classes``), as another site's holds it in its frontmatter."""
    if len(blocks) > _TITLES_MAX:
        return False
    return all(b.kind in ("heading", "thematic_break") for b in blocks) and any(b.kind == "heading" for b in blocks)


def filler_page(blocks: Sequence[Block]) -> tuple[tuple[Block, ...], tuple[SkippedRange, ...]]:
    """``blocks``, or none and one skipped range of them all when they are a page of filler only (reason
    :data:`FILLER_ONLY`: no heading, no words; see the module's docstring) or of headings only (reason
    :data:`HEADING_ONLY`: a chunk of a title alone has nothing to retrieve)."""
    if not blocks:
        return (), ()
    if _titles(blocks):
        reason = HEADING_ONLY
    elif all(map(_page_filler, blocks)) and any(map(is_filler, blocks)):
        reason = FILLER_ONLY
    else:
        return tuple(blocks), ()
    first, last = blocks[0], blocks[-1]
    return (), (SkippedRange(first.start_line, last.end_line, first.start_offset, last.end_offset, reason),)


def without_filler_page(blocks: Iterator[Block], left: list[SkippedRange]) -> Iterator[Block]:
    """:func:`filler_page` as the blocks pass: the leading filler blocks and headings are held until
    a block of text comes, then passed on; when none comes, the held blocks are skipped (their
    range appended to ``left``)."""
    held: list[Block] = []
    for block in blocks:
        if _held(block, len(held)):
            held.append(block)
            continue
        yield from held
        yield block
        yield from blocks
        return
    kept, skipped = filler_page(held)
    left.extend(skipped)
    yield from kept
