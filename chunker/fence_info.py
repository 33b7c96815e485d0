"""A line written as a backtick fence whose info string holds a backtick: no fence in CommonMark.

CommonMark forbids a backtick in the info string of a backtick fence, so ````` ````smart header="The `x`
syntax" ````` is the first line of a paragraph, not the opening of a block. The site's own renderer may read
it as one (javascript.info writes its ``smart``/``warn`` boxes so); CommonMark, and so the chunks, do not:
the fence line meant to close the box opens a fence of its own, and from there the fence lines pair
differently than written (text becomes code, headings included, up to the end of the page when nothing
closes the last one). The chunks stay exact slices that render as the document does under CommonMark;
this finding names the line so that the source can be fixed for both readings (a tilde fence, or an info
string without backticks).
"""

from __future__ import annotations

import re

from chunker.models import Block, Diagnostic

__all__ = ["fence_info_finding"]

_OPENER = re.compile(r"^ {0,3}(`{3,})([^`\n]*`[^\n]*)$", re.MULTILINE)
"""A line that starts with a run of three or more backticks and holds another backtick after it."""
_RUN = re.compile(r"`+")
_MAX_SCANNED = 1 << 20
"""Longer paragraphs are not looked into (bounded time)."""


def fence_info_finding(block: Block) -> Diagnostic | None:
    """``fence-info-backtick`` for a paragraph holding a line that reads as a backtick fence with a
    backtick in its info string, unless a later run of the same length closes it as a code span."""
    if block.kind != "paragraph" or block.end_offset - block.start_offset > _MAX_SCANNED:
        return None
    source, start, end = block.source, block.start_offset, block.end_offset
    if source.find("```", start, end) < 0:
        return None
    text = source[start:end]
    for match in _OPENER.finditer(text):
        run = len(match.group(1))
        if any(len(later.group()) == run for later in _RUN.finditer(text, match.end(1))):
            continue  # a code span: ```` ``` `x` ``` ````
        line = block.start_line + text.count("\n", 0, match.start())
        fence = "~" * run
        message = (
            f"line {line} ({match.group().strip()[:50]!r}) is no code fence: CommonMark allows no backtick in "
            "the info string of a backtick fence, so it is paragraph text and the fence lines after it pair "
            f"otherwise than written (text read as code, headings included); a tilde fence ({fence}) or an "
            "info string without backticks reads the same everywhere"
        )
        return Diagnostic("warning", "fence-info-backtick", message, line=line)
    return None
