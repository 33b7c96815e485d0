"""Editor notes: blocks that are left out of the chunks like frontmatter (``skip_comments``,
``excluded_block_prefixes``).

A note is a whole top-level block, so leaving it out keeps every chunk one slice of the source: a
chunk ends before it and the next one starts after it, and the block is a skipped range in
``report.json`` (the lossless check still balances). Comments written inside a paragraph or a list
stay in their chunk's ``content_original`` and are left out of its ``content_for_embedding``
(:func:`without_inline_comments`).
"""

from __future__ import annotations

import re

from chunker.config import ChunkerConfig
from chunker.models import Block

_HTML_COMMENTS = re.compile(r"[ \t]*<!--.*?-->(?:\s*<!--.*?-->)*\s*", re.DOTALL)
"""An HTML block of comments only (``<!-- TODO -->``, several lines, several comments)."""
_LINK_COMMENTS = re.compile(
    r"(?:[ \t]{0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>)(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?[ \t]*(?:\n|$))+\s*"
)
"""Link reference definitions to ``#`` or ``<>`` only: the comment idiom of Markdown
(``[//]: # (text)``, ``[//]: # "text"``, ``[comment]: <> (text)``), which renders as nothing."""
_LEAD = re.compile(r"[\s>*_~`]*")
"""Markers before a block's first word: quote markers, emphasis (``> **Note:**``)."""


def note_reason(block: Block, cfg: ChunkerConfig) -> str | None:
    """Why ``block`` is left out as an editor note, or None when it is content."""
    if cfg.skip_comments and block.kind in ("html", "raw"):
        pattern = _HTML_COMMENTS if block.kind == "html" else _LINK_COMMENTS
        if pattern.fullmatch(block.source, block.start_offset, block.end_offset):
            return "comment (skip_comments)"
    if cfg.excluded_block_prefixes and block.kind in ("paragraph", "blockquote", "html", "container"):
        head = block.source[block.start_offset : min(block.end_offset, block.start_offset + 400)]
        head = _LEAD.sub("", head, count=1).casefold()
        for prefix in cfg.excluded_block_prefixes:
            wanted = _LEAD.sub("", prefix, count=1).casefold()
            if wanted and head.startswith(wanted):
                return f"block starting with {prefix!r} (excluded_block_prefixes)"
    return None


_FENCE_LINE = re.compile(r"^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})")
_INLINE_COMMENT = re.compile(r"<!--(?:(?!-->).)*?-->", re.DOTALL)
_CODE_SPAN = re.compile(r"(`+).*?\1", re.DOTALL)


def without_inline_comments(text: str) -> str:
    """``text`` (what a chunk embeds) without the HTML comments left inside its paragraphs, lists and
    HTML (``<!-- yaspeller ignore:start -->``) under ``skip_comments``; comments in code (fenced code,
    code spans) stay, and so does one that holds a fence run. A line left blank by a removal goes."""
    if "<!--" not in text:
        return text
    out: list[str] = []
    stretch: list[str] = []  # lines outside fenced code, joined so that a comment may span lines
    fence = ""
    for line in text.split("\n"):
        opening = _FENCE_LINE.match(line)
        if fence or opening:
            if stretch:
                out.extend(_stripped("\n".join(stretch)))
                stretch = []
            out.append(line)
            if fence and opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            elif not fence and opening:
                fence = opening.group(1)
            continue
        stretch.append(line)
    if stretch:
        out.extend(_stripped("\n".join(stretch)))
    return "\n".join(out)


def _stripped(text: str) -> list[str]:
    """The lines of ``text`` with its comments outside code spans removed; a line that held only
    comments goes, and so does a blank line that would then follow another."""
    if "<!--" not in text:
        return text.split("\n")
    spans = [m.span() for m in _CODE_SPAN.finditer(text)] if "`" in text else []

    def drop(match: re.Match[str]) -> str:
        inside = any(a <= match.start() < b for a, b in spans)
        return match.group(0) if inside or "```" in match.group(0) or "~~~" in match.group(0) else "\x00"

    out: list[str] = []
    dropped = False
    for line in _INLINE_COMMENT.sub(drop, text).split("\n"):
        if "\x00" in line:
            line = line.replace("\x00", "")
            if not line.strip():
                dropped = True
                continue
        if not line.strip() and dropped and (not out or not out[-1].strip()):
            continue
        dropped = False
        out.append(line)
    return out
