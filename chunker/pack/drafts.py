"""Drafts: the chunks of a section before ids, keys and context lines, with the text they add.

A draft is a contiguous slice of the source; the only text it adds is declared in ``added`` (a
repeated table header, the fence lines that re-open or close a code piece, the
containers a piece cut from inside a list, quote or container re-opens: ``reopen``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chunker.fences import closing_line, fence_after, has_fence_marker
from chunker.filler import is_filler
from chunker.models import JSX_CODE, AddedText, Block, Diagnostic, Heading
from chunker.pack.budget import SectionSpace
from chunker.pack.context import SectionContext
from chunker.pack.repeats import repeated_after
from chunker.pack.strength import Unit
from chunker.pack.tables import collapse
from chunker.parse.myst_fences import markdown_directive
from chunker.strategies import Section


@dataclass(slots=True, kw_only=True)
class Draft:
    section: Section
    section_index: int
    """Position of the section in the document (its identity: chunks never cross it)."""
    content: str
    start: int
    end: int
    start_line: int
    end_line: int
    path: tuple[Heading, ...]
    context: SectionContext
    """The section's context lines (:class:`chunker.pack.context.SectionContext`)."""
    blocks: tuple[Block, ...]
    kinds: frozenset[str]
    """Kinds of the blocks and of what they nest, plus ``<atomic>`` for one atomic block."""
    added: tuple[AddedText, ...]
    continuation: bool
    split_block: Block | None
    part: int | None = None
    parts: int | None = None
    embed: str | None = None
    """The content for embedding when it differs from ``content`` (table padding collapsed; without
    link definitions carried silently or the tags a piece of an HTML block re-opens and closes)."""
    within: str = ""
    """The labels of the elements (tabs, steps) the draft starts inside, opened before it in its section
    (:mod:`chunker.pack.within`): said after its context line."""


def whole_draft(space: SectionSpace, diagnostics: list[Diagnostic]) -> Draft:
    """The draft of a section that fits whole (:attr:`SectionSpace.fits_whole`): its blocks, made
    without units (what :func:`make_draft` gives for the one range of one whole unit per block: no
    text repeated before or after, none silent)."""
    source = space.source
    blocks = tuple(space.section.blocks)
    first, last = blocks[0], blocks[-1]
    start, end = first.start_offset, last.end_offset
    content = source[start:end]
    added: tuple[AddedText, ...] = ()
    if has_fence_marker(content):
        closing = _closing_fence(space, content, "", blocks, start, end)
        if closing:  # a fence the source never closes is reported once, by its block (pipeline)
            added = (AddedText("after", closing),)
            content += closing
    embed = space.padding.embed(source, start, end) if space.padding else None
    if embed is not None and added:
        embed += added[0].text
    return Draft(
        section=space.section,
        section_index=space.index,
        content=content,
        start=start,
        end=end,
        start_line=first.start_line,
        end_line=space.lines.line_at(max(start, last.start_offset, end - 1), last),  # last character
        path=_path_of(blocks, space.filler),
        context=space.context,
        blocks=blocks,
        kinds=_kinds_of(blocks),
        added=added,
        continuation=False,
        split_block=None,
        embed=embed,
    )


def _closing_fence(
    space: SectionSpace, content: str, before: str, blocks: Sequence[Block], start: int, end: int
) -> str:
    """The line that closes a code fence that ``content`` (``before``, then the source from ``start``
    to ``end``, of ``blocks``) leaves open ("" when none is). Where the line scan finds one open, it
    reads the text again with the lines the parse read as HTML, indented code or math emptied
    (:meth:`SectionSpace.fence_text`): a fence line inside a JSX block neither opens nor closes one."""
    still_open = fence_after(content)
    if still_open is not None:
        text = space.fence_text(blocks, start, end)
        if text is not None:
            still_open = fence_after(before + text)
    return "" if still_open is None else "\n" + closing_line(still_open[1], still_open[0])


def _inner_fence(content: str) -> str:
    """The line closing the code fence that ``content`` leaves open inside the MyST directive fences it leaves
    open (```` ````{tip} ```` then ```` ```python ````), which the scan of fences reads as code, ("" when none
    is): the container's closing lines close the directives."""
    opened = fence_after(content)
    while opened is not None and markdown_directive(opened[1]):
        at = content.rfind(opened[1])
        content = content[at + len(opened[1]) :]
        opened = fence_after(content)
    return "" if opened is None else "\n" + closing_line(opened[1], opened[0])


def make_draft(space: SectionSpace, units: list[Unit], diagnostics: list[Diagnostic]) -> Draft:
    """The draft of one chunk made of ``units`` (a range of the section's units)."""
    source = space.source
    first, last = units[0], units[-1]
    added: list[AddedText] = []
    quiet: list[AddedText] = []  # the tags a piece of an HTML block re-opens and closes: not embedded
    repeated = space.before(first)  # a table's header, a fence, the containers a piece starts inside
    if repeated:
        added.append(AddedText("before", repeated))
        if first.block.kind == "html":
            quiet.append(added[-1])
    content = (added[0].text if added else "") + source[first.start : last.end]
    blocks, silent = _blocks_of(units)
    closing = space.closing(last) + (repeated_after(last.block) if not last.last else "")
    if has_fence_marker(content):
        fence = _closing_fence(space, content, repeated, blocks, first.start, last.end)
        if fence and closing and fence_after(content + closing) is None:
            fence = _inner_fence(content)  # a MyST directive fence read as a container: its closing line closes it
        if fence:  # a cut inside code, or a fence the source never closes (reported by its block)
            added.append(AddedText("after", fence))
            content += fence
    if closing:
        added.append(AddedText("after", closing))
        content += closing
        if last.block.kind == "html":
            quiet.append(added[-1])
    a, b = first.start, last.end
    if silent:
        spoken = [u for u in units if not u.silent]
        if spoken:
            a, b = spoken[0].start, spoken[-1].end
    embed = space.padding.embed(source, a, b) if space.padding else None
    if embed is None and (silent or quiet):
        embed = source[a:b]  # silent definitions, re-opened tags: in the content, not in what is embedded
    if embed is not None:
        said = [x for x in added if all(x is not q for q in quiet)]
        before = "".join(collapse(x.text) for x in said if x.position == "before")
        embed = before + embed + "".join(x.text for x in said if x.position == "after")
    led = space.leads.get((first.block.start_offset, first.start)) if repeated and not quiet else None
    if led is not None and space.cfg.embedding_item_leads:
        embed = _led(space, led, repeated, content) if embed is None else _led(space, led, repeated, embed, collapse)
    line_at = space.lines.line_at
    return Draft(
        section=space.section,
        section_index=space.index,
        content=content,
        start=first.start,
        end=last.end,
        start_line=first.block.start_line if first.first else line_at(first.start, first.block),
        end_line=line_at(max(first.start, last.block.start_offset, last.end - 1), last.block),  # last character
        path=_path_of(blocks, space.filler),
        context=space.context,
        blocks=tuple(blocks),
        kinds=_kinds_of(blocks),
        added=tuple(added),
        continuation=not first.first,
        split_block=first.block if not first.first else (last.block if not last.last else None),
        embed=embed,
    )


def _led(
    space: SectionSpace, led: str, repeated: str, embed: str, said: Callable[[str], str] = lambda text: text
) -> str:
    """``embed`` (what a draft re-opening ``repeated`` before its piece embeds, that text as ``said``
    makes it) with the re-opened items' first words (``led``: :meth:`chunker.pack.reopen.Structure.lead`)
    where it re-opens their markers alone; ``embed`` itself when that does not fit the section's budget
    (the chunk's size, with its context line, stays within max_chars) or it does not start as expected."""
    before = said(repeated)
    if not embed.startswith(before):
        return embed
    text = said(led) + embed[len(before) :]
    return text if space.measure(text) <= space.budget else embed


def _blocks_of(units: list[Unit]) -> tuple[list[Block], bool]:
    """The blocks of ``units`` in order, and whether any unit is silent (one pass over them)."""
    blocks: list[Block] = []
    silent = False
    previous: Block | None = None
    for unit in units:
        block = unit.block
        if block is not previous:
            blocks.append(block)
            previous = block
        if unit.silent:
            silent = True
    return blocks, silent


def _path_of(blocks: Sequence[Block], filler: Callable[[Block], bool] = is_filler) -> tuple[Heading, ...]:
    """The heading path of the first body block (filler before a heading aside, a run of filler
    blocks as much as one: the strategies put it with that heading's section); of the last heading
    if none. Blocks after the first body block are not looked at, and ``filler`` (the section's
    :meth:`SectionSpace.filler`) tests a block once for all the pieces of it: testing every block
    of every draft took 3 % of the library's time over the shared corpus. One pass: a run of filler
    blocks is read once, not once from each of its blocks (8,000 ``<br>`` blocks before a heading
    took 2.6 s, 32 million filler tests)."""
    count = len(blocks)
    k = 0
    while k < count:
        block = blocks[k]
        if block.kind == "heading":
            k += 1
            continue
        if not filler(block):
            return block.header_path
        after = k + 1  # the first block after the run of filler that ``block`` starts
        while after < count and blocks[after].kind != "heading" and filler(blocks[after]):
            after += 1
        if after == count or blocks[after].kind != "heading":
            return block.header_path  # filler followed by a body block (or nothing) is the body
        k = after + 1  # the run goes with the heading after it
    return blocks[-1].header_path


def _kinds_of(blocks: Sequence[Block]) -> frozenset[str]:
    kind_set: set[str] = {b.kind for b in blocks}
    for block in blocks:
        if block.inner:
            kind_set |= block.inner
    if JSX_CODE in kind_set:
        kind_set.add("code")  # code fences in a JSX block (chunker.parse.mdx): has_code
    if len(blocks) == 1 and blocks[0].atomic:
        kind_set.add("<atomic>")
    return frozenset(kind_set)


def number_parts(drafts: list[Draft]) -> None:
    """``part``/``parts`` of the block a draft continues (or else starts). Every draft holding a
    piece of a split block counts in its ``parts``, also one whose own part is that of an earlier
    block it ends (it then starts the next split block)."""
    groups: dict[int, list[Draft]] = {}
    for draft in drafts:
        first, last = draft.blocks[0], draft.blocks[-1]
        if draft.start <= first.start_offset and draft.end >= last.end_offset:
            continue  # whole blocks only (the common case): holds no piece
        for block in (first,) if first is last else (first, last):  # by identity: a Block hashes its joints
            if draft.start > block.start_offset or draft.end < block.end_offset:
                groups.setdefault(id(block), []).append(draft)
    for block_id, members in groups.items():
        for k, draft in enumerate(members, start=1):
            if draft.split_block is not None and id(draft.split_block) == block_id:
                draft.part, draft.parts = k, len(members)
