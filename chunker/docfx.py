"""What docfx (Microsoft Learn) writes as Markdown lines and renders as structure: tab headings
(``# [Bash](#tab/bash)``), and the directive lines that open and close a part of a page (``::: zone
pivot="x"`` ... ``::: zone-end``, ``::: moniker range=">=x"`` ... ``::: moniker-end``, ``:::row:::`` /
``:::column:::`` ... ``:::column-end:::`` / ``:::row-end:::``), which CommonMark reads as a paragraph
(:mod:`chunker.parse.containers` keeps them text)."""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["directive_kind", "directive_lines", "is_directive", "is_tab_heading"]

_TAB = re.compile(r"[ \t]*\[[^\[\]\n]*\]\(#tab/[A-Za-z0-9-]+(?:\+[A-Za-z0-9-]+)*(?:/[A-Za-z0-9-]*)?\)[ \t]*")
"""A heading's inline text that is one link to ``#tab/<id>[/<condition>]`` (the ``href`` pattern of docfx's
``TabGroupAggregator``, which takes such a heading for a tab's title)."""

_OPENING = re.compile(
    r"[ \t]*(?::::?[ \t]*(?:zone|moniker)[ \t]+[^\n]*\S|:::[ \t]*row[ \t]*:::|:::[ \t]*column(?:[ \t][^\n]*)?:::)[ \t]*"
)
_CLOSING = re.compile(r"[ \t]*:::[ \t]*(?:(?:zone|moniker)-end|(?:row|column)-end[ \t]*:::)[ \t]*")
_DIRECTIVE = re.compile(
    r"[ \t>]*:::[ \t]*(?:[A-Za-z][\w-]*(?:[ \t][^\n]*)?:::|(?:zone|moniker)(?:-end|[ \t][^\n]*)?"
    r"|(?:image|code|video)[ \t]+[\w-]+=[\"'][^\n]*)[ \t]*"
)
"""A docfx directive line (:mod:`chunker.parse.containers` reads it as text): one ending in ``:::`` (``:::image
...:::``, ``:::code ...:::``, ``:::row:::``, ``:::column-end:::``), a zone's or moniker's line, or an image's line of
attributes not ending in ``:::`` (``:::image type="complex" source="..."`` over its description)."""
_MAX = 400
"""A longer paragraph is no directive lines (and is not matched)."""


def is_tab_heading(raw: str) -> bool:
    """Whether a heading of inline text ``raw`` is a docfx tab's title (``[Bash](#tab/bash)``)."""
    return raw[:1] in "[ \t" and "#tab/" in raw and _TAB.fullmatch(raw) is not None


def is_directive(line: str) -> bool:
    """Whether ``line`` is a docfx directive line (:data:`_DIRECTIVE`), not a ``:::`` container's opening."""
    return len(line) <= _MAX and _DIRECTIVE.fullmatch(line) is not None


def directive_kind(line: str) -> Literal["open", "close", ""]:
    """``open`` for a directive line that opens a part (``::: moniker range=">=x"``), ``close`` for one that closes
    one (``::: moniker-end``), else ""."""
    if ":::" not in line[:8] or len(line) > _MAX:
        return ""
    return "open" if _OPENING.fullmatch(line) else "close" if _CLOSING.fullmatch(line) else ""


def directive_lines(text: str) -> Literal["open", "close", ""]:
    """For a paragraph ``text`` of docfx directive lines only: ``open`` when its last line opens a part
    (``::: zone pivot="windows"``, ``:::row:::`` then ``:::column span="":::``), which goes with what follows
    it; ``close`` when every line closes one (``:::column-end:::`` then ``:::row-end:::``, ``::: moniker-end``),
    which goes with what precedes it; else ""."""
    if len(text) > _MAX or ":::" not in text[:8]:
        return ""
    lines = text.strip("\n").split("\n")
    if all(_CLOSING.fullmatch(line) for line in lines):
        return "close"
    if _OPENING.fullmatch(lines[-1]) and all(_OPENING.fullmatch(x) or _CLOSING.fullmatch(x) for x in lines[:-1]):
        return "open"
    return ""
