"""Which blocks and lines of a page are ESM statements (``import``/``export``), read after the parse.

The MDX block rules (:mod:`chunker.parse.mdx`) make every top-level statement an ``html`` block of its
own; this module tells which of those a page leads with (left out of the chunks like frontmatter),
which closed Docusaurus ``mdx-code-block`` fences hold only statements, and, before any parse,
whether a ``.md`` page is written in MDX (it opens with an import, or imports a component it uses).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunker.fences import fence_after
from chunker.models import Block, SkippedRange

__all__ = ["ESM", "esm_left_out", "imports_used", "is_esm", "mdx_code_block_body", "opens_with_import"]

ESM = re.compile(r"(?:import|export)(?:\s|\{|\*|$)")
"""The start of an ``import`` or ``export`` statement."""
_ONE_IMPORT = (
    r"""(?>import[ \t]+(?:type[ \t]+)?(?:[\w$]+[ \t]*(?:,[ \t]*)?)?(?:(?:\{[^}\n]*\}|\*[ \t]+as[ \t]+[\w$]+)[ \t]*)?"""
    r"""from[ \t]+(?:"[^"\n]+"|'[^'\n]+'))"""
)
_IMPORT_FROM = re.compile(rf"{_ONE_IMPORT}[ \t]*(?:;[ \t]*{_ONE_IMPORT}[ \t]*)*(?:;[ \t]*)?$")
"""Whole JavaScript ``import ... from '...'`` statements on their line (``import Tabs from '@theme/Tabs';``),
one or several (``import Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem';``, as a
Docusaurus site's pages may write them). Linear time: no run of blanks can be split two ways, and a
statement, whose end is fixed by its quoted module name, is atomic (the former pattern read 20 statements
and a stray word on one line in 3^20 ways, and a name then 8,000 blanks in 8,000^3)."""
_HEAD = 1 << 16
"""How far into a ``.md`` page :func:`opens_with_import` looks (frontmatter included)."""


def esm_left_out(blocks: Sequence[Block]) -> tuple[tuple[Block, ...], tuple[SkippedRange, ...]]:
    """The blocks without the leading ESM statements (the ``import``/``export`` blocks of an MDX
    source before its first other block), and those statements as skipped ranges (reason
    ``mdx-esm``): code for the page's build, not its content, left out of the chunks like
    frontmatter (``keep_mdx_esm`` keeps them). So are the ``<script>`` and ``<style>`` elements among
    them (reason ``page-script``: a VitePress page's ``<script setup>`` of imports and component state,
    its ``<style>``; in Markdown too), which the page runs or applies and never shows. A statement or
    element after content (below a heading) stays in its chunk: a chunk is one slice of the source,
    which a left-out line inside it would break. Only an ``html`` block can be one: in Markdown, an
    ``import`` line is a paragraph."""
    count = 0
    reasons: list[str] = []
    while count < len(blocks):
        block = blocks[count]
        if block.kind == "html" and _SCRIPT.fullmatch(block.source, block.start_offset, block.end_offset):
            reasons.append("page-script")
        elif (is_esm if block.kind == "html" else _esm_fence)(block):
            reasons.append("mdx-esm")
        else:
            break
        count += 1
    if not count:
        return tuple(blocks), ()
    left = tuple(
        SkippedRange(b.start_line, b.end_line, b.start_offset, b.end_offset, reason)
        for b, reason in zip(blocks[:count], reasons, strict=True)
    )
    return tuple(blocks[count:]), left


_SCRIPT = re.compile(r" {0,3}<(script|style)(?=[\s>])[^>]*>.*?</\1[ \t]*>[ \t]*", re.IGNORECASE | re.DOTALL)
"""An HTML block of one ``<script>`` or ``<style>`` element, closed on its last line."""


_MDX_CODE_BLOCK = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*mdx-code-block[ \t]*")
"""The opening line of a Docusaurus ``mdx-code-block`` fence: MDX the site renders, not code."""
_ESM_LINE = re.compile(r"(?:import|export)(?:\s|\{|\*|$)|\s*$|\s+\S|[}\]][^\n]*$")
"""A line of an ESM statement: its first line, a blank, an indented continuation or a closing brace."""


def mdx_code_block_body(block: Block) -> str | None:
    """The lines inside ``block`` when it is a closed Docusaurus ``mdx-code-block`` fence (MDX the site
    renders, not code: ```mdx-code-block, ``</TabItem>``, ```), else None."""
    if block.kind != "code" or block.fence is None or not block.fence[1]:
        return None
    if _MDX_CODE_BLOCK.fullmatch(block.fence[0]) is None:
        return None
    content = block.content
    first, last = content.find("\n"), content.rfind("\n")
    return content[first + 1 : last] if 0 <= first < last else None


def _esm_fence(block: Block) -> bool:
    """Whether ``block`` is a closed ``mdx-code-block`` fence holding import/export statements only
    (Docusaurus 2 pages wrap their imports so: ```mdx-code-block, ``import Tabs from '@theme/Tabs';``,
    ```), which the site renders as the statements themselves: left out like them."""
    body = mdx_code_block_body(block)
    if not body:
        return False
    lines = body.split("\n")
    return ESM.match(lines[0]) is not None and all(_ESM_LINE.match(line) for line in lines)


def is_esm(block: Block) -> bool:
    """Whether ``block`` (an ``html`` block: the MDX rule makes one of each top-level statement) is an
    ``import``/``export`` statement."""
    start = block.start_offset
    return block.source.startswith(("import", "export"), start) and bool(ESM.match(block.source, start))


_IMPORTED = re.compile(r"import[ \t]+(?:type[ \t]+)?(.*?)[ \t]*from[ \t]")
_ALIASED = re.compile(r"(?:\*|[\w$]+)[ \t]+as[ \t]+")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_CODE_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_RAW_OPEN = re.compile(r" {0,3}<(?:script|style)(?:[\s>]|$)", re.IGNORECASE)
_RAW_CLOSE = re.compile(r"</(?:script|style)>", re.IGNORECASE)
_USE = re.compile(r"[<{]([A-Za-z_$][\w$]*)")
"""A name used as a component or in an expression (``<X``, ``{X``), read whole: it is a use of an imported name
when that name is all of it (one look-up in a set: an alternation of the names, tried at every ``<`` and ``{``,
cost the page's length times their count, 1.6 s for 100,000 ``{N`` and 3,000 names)."""


def imports_used(text: str) -> bool:
    """Whether a top-level line of ``text`` (column 0, outside code fences) is a whole
    ``import X from '...'`` statement and a name it imports is used as a component or expression
    (``<X``, ``{X``) outside code below it: a ``.md`` page written in MDX that imports below its
    intro (Docusaurus: ``import TOCInline from '@theme/TOCInline';`` after a heading, then
    ``<TOCInline toc={toc} />``). In CommonMark such a line is a paragraph of code and the tag
    raw HTML of an element nobody defines; no prose page has both. Imports in the first 64 KiB."""
    head = text[:_HEAD]
    if "\nimport" not in head:
        return False
    names: set[str] = set()
    fence = ""
    script = False  # inside a <script> or <style> element (VitePress's <script setup> imports)
    previous = ""
    for line in head.splitlines():
        before, previous = previous, line
        opening = _CODE_FENCE.match(line)
        if opening is not None and not script:
            run = opening.group(1)
            if not fence:
                fence = run
            elif run[0] == fence[0] and len(run) >= len(fence) and not line[opening.end() :].strip():
                fence = ""
            continue
        if fence:
            continue
        if script or _RAW_OPEN.match(line):
            script = _RAW_CLOSE.search(line) is None
            continue
        if not line.startswith("import") or before.strip():
            continue  # a statement of its own, after a blank line (not a paragraph's next line)
        if _IMPORT_FROM.match(line):
            for clause in _IMPORTED.finditer(line):
                names.update(_NAME.findall(_ALIASED.sub("", clause.group(1))))
    names.discard("type")
    if not names:
        return False
    state, done = None, 0
    for match in _USE.finditer(text):  # outside code: the fence state carried from one use to the next
        if match.group(1) not in names:
            continue
        state, done = fence_after(text[done : match.start()], state), match.start()
        if state is None:
            return True
    return False


def opens_with_import(text: str) -> bool:
    """Whether the first line after the frontmatter (and blank lines) of ``text`` is a whole
    ``import X from '...'`` statement: a page written in MDX, as Docusaurus reads its ``.md`` pages
    (``import Tabs from '@theme/Tabs';`` then ``<Tabs>``). In CommonMark that line would be a
    paragraph of code; no prose page opens with one. Only the first 64 KiB are read."""
    head = text[:_HEAD]
    if "import" not in head:
        return False
    from chunker.parse.frontmatter import detect_frontmatter
    from chunker.text import compute_line_starts

    starts = compute_line_starts(head)
    span = detect_frontmatter(head, starts)
    line = 0
    if span is not None:
        if span.close_line is None:
            return False
        line = span.end_line
    while line < len(starts):
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(head)
        if head[starts[line] : end].strip():
            return _IMPORT_FROM.match(head, starts[line], end) is not None
        line += 1
    return False
