"""Code-fence balance of a piece of Markdown, line by line.

The packer uses it to close a fence that a chunk leaves open (an unclosed fence
in the source), the validator to prove that no chunk does. The scan is
deliberately conservative: container prefixes (``>``, list indentation) are
stripped, so a fence inside a quote or a list item counts too.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_QUOTE_PREFIX = re.compile(r"^(?:\s*>\s?)+")
_RUN = re.compile(r"```|~~~")
"""What a fence line holds somewhere: a run of three backticks or tildes."""


def has_fence_marker(text: str) -> bool:
    """Cheap pre-check: only text with a backtick or tilde run can hold a fence."""
    return "```" in text or "~~~" in text


def open_fence(text: str) -> tuple[str, int] | None:
    """The fence left open at the end of ``text`` as (marker, line index), else None."""
    open_run = ""
    open_line = 0
    index = counted = 0
    line_end = -1
    for hit in _RUN.finditer(text):  # only lines with a run of three can be fence lines
        if hit.start() < line_end:
            continue  # a second run on a line already looked at
        start = text.rfind("\n", 0, hit.start()) + 1
        line_end = text.find("\n", hit.start())
        if line_end == -1:
            line_end = len(text)
        index += text.count("\n", counted, start)
        counted = start
        stripped = _QUOTE_PREFIX.sub("", text[start:line_end])
        match = _FENCE.match(stripped) or _FENCE.match(stripped.lstrip())
        if match is None:
            continue
        run, rest = match.group(1), match.group(2)
        if not open_run:
            if run[0] == "`" and "`" in rest:
                continue  # not a fence: a backtick fence's info string has no backtick
            open_run, open_line = run, index
        elif run[0] == open_run[0] and len(run) >= len(open_run) and not rest.strip():
            open_run = ""
    return (open_run, open_line) if open_run else None


def is_balanced(text: str) -> bool:
    return not has_fence_marker(text) or open_fence(text) is None
