"""Editor notes: blocks that are left out of the chunks like frontmatter (``skip_comments``: HTML, MDX,
Markdown link and MyST ``%`` comments; ``excluded_block_prefixes``).

A note is a whole top-level block, so leaving it out keeps every chunk one slice of the source: a
chunk ends before it and the next one starts after it, and the block is a skipped range in
``report.json`` (the lossless check still balances). Comments written inside a paragraph or a list
stay in their chunk's ``content_original`` and are left out of its ``content_for_embedding``
(:func:`chunker.pack.cleanup.embedded`).
"""

from __future__ import annotations

import re

from chunker.config import ChunkerConfig
from chunker.models import Block

_HTML_COMMENTS = re.compile(r"[ \t]*<!--(?:(?!-->).)*-->(?:\s*<!--(?:(?!-->).)*-->)*\s*", re.DOTALL)
"""An HTML block of comments only (``<!-- TODO -->``, several lines, several comments). A comment
never runs past its first ``-->``, so a line of many comments and then text fails in linear time."""
_MDX_COMMENTS = re.compile(
    r"[ \t]*\{[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\}(?:\s*\{[ \t]*/\*(?:(?!\*/).)*\*/[ \t]*\})*\s*", re.DOTALL
)
"""An MDX block of comments only (``{/* TODO */}``, several lines, several comments): MDX's only comment, an
expression holding a comment alone, which renders as nothing. A JSX block is an ``html`` block; in Markdown the
same text is a paragraph, never matched."""
_LINK_COMMENTS = re.compile(
    r"(?:[ \t]{0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>)(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?[ \t]*(?:\n|$))+\s*"
)
"""Link reference definitions to ``#`` or ``<>`` only: the comment idiom of Markdown
(``[//]: # (text)``, ``[//]: # "text"``, ``[comment]: <> (text)``), which renders as nothing."""
_MYST_COMMENTS = re.compile(r"(?![ \t]*%[A-Za-z_]\w*%)(?:[ \t]*%[^\n]*(?:\n|$))+\s*")
"""A block of MyST comment lines only (``% TODO``, mdit-py-plugins' ``myst_blocks``; Sphinx + MyST-Parser,
Jupyter Book, mystmd), which render as nothing; not one that opens with a Windows variable (``%APPDATA%
holds ...``), the text of a paragraph in any other Markdown."""
_LEAD = re.compile(r"[\s>*_~`]*")
"""Markers before a block's first word: quote markers, emphasis (``> **Note:**``)."""


COMMENT = "comment (skip_comments)"


def note_reason(block: Block, cfg: ChunkerConfig) -> str | None:
    """Why ``block`` is left out as an editor note, or None when it is content."""
    if cfg.skip_comments and block.kind in ("html", "raw"):
        source, start, end = block.source, block.start_offset, block.end_offset
        head = source[start : start + 4].lstrip(" \t")[:1]
        if head == "%":
            # an odd '%%' opens an Obsidian comment that goes on below (:func:`opens_comment`)
            if source.count("%%", start, end) % 2 == 0 and _myst_comment(source, start, end):
                return COMMENT
        else:
            pattern = _LINK_COMMENTS if block.kind == "raw" else _MDX_COMMENTS if head == "{" else _HTML_COMMENTS
            if pattern.fullmatch(source, start, end):
                return COMMENT
    return _excluded(block, cfg)


def _myst_comment(source: str, start: int, end: int) -> bool:
    """Whether ``source[start:end]``, an ``html`` block of ``%`` lines, is a block of MyST comments
    (:data:`_MYST_COMMENTS`) after a blank line, a heading or the start of the text: after a line of
    text, a paragraph of any other Markdown goes on there (``50`` / ``% of them``)."""
    if _MYST_COMMENTS.fullmatch(source, start, end) is None:
        return False
    before = source.rfind("\n", 0, max(start - 1, 0))
    line = source[before + 1 : max(start - 1, 0)]
    return start == 0 or not line.strip() or line.lstrip(" \t")[:1] == "#"


def _excluded(block: Block, cfg: ChunkerConfig) -> str | None:
    """Why ``block`` is left out by ``excluded_block_prefixes``, or None."""
    if cfg.excluded_block_prefixes and block.kind in ("paragraph", "blockquote", "html", "container"):
        head = block.source[block.start_offset : min(block.end_offset, block.start_offset + 400)]
        head = _LEAD.sub("", head, count=1).casefold()
        for prefix in cfg.excluded_block_prefixes:
            wanted = _LEAD.sub("", prefix, count=1).casefold()
            if wanted and head.startswith(wanted):
                return f"block starting with {prefix!r} (excluded_block_prefixes)"
    return None


def opens_comment(block: Block) -> bool:
    """Whether ``block`` opens an Obsidian comment it does not close (a line ``%%`` or ``%% text``, which the parser
    reads as a MyST comment line): the comment runs on over the blocks below, blank lines and all, up to the
    block that ends with the closing ``%%`` (:func:`closes_comment`)."""
    if block.kind not in ("html", "paragraph"):
        return False
    text = block.source[block.start_offset : block.end_offset]
    return text.lstrip(" \t").startswith("%%") and text.count("%%") % 2 == 1


def closes_comment(block: Block) -> bool | None:
    """Whether ``block`` closes an open Obsidian comment: True for a paragraph or a line ``%%`` that ends with its
    closing ``%%``; False for a block the comment goes on over (no ``%%`` of its own left open); None for a block
    the comment cannot be read over (a heading, a paragraph going on after its closing ``%%``, a list or code
    holding an odd ``%%``): the comment is then taken for text, as it is when the document ends before it
    closes."""
    if block.kind == "heading":
        return None
    text = block.source[block.start_offset : block.end_offset]
    if text.count("%%") % 2 == 0:
        return False
    return True if block.kind in ("html", "paragraph") and text.rstrip().endswith("%%") else None
