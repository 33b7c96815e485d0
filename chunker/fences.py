"""Code-fence balance of a piece of Markdown, line by line.

The packer uses it to close a fence that a chunk leaves open (cut inside code, or a fence the
source never closes) and to reopen, in the next piece, a fence nested in a list or quote; the
validator uses it to prove that no chunk leaves a fence open. The scan is deliberately
conservative: container prefixes (``>``, list indentation) are stripped, so a fence inside a
quote or a list item counts too, and so does one opened on an item's or a definition's first line,
after its marker (``- ```py``, ``: ```sh``). A fence line is read as the site reads it once its templates ran
(:func:`chunker.template_tags.fence_view`: ``{% raw %}```bash``, ```` ```{% endraw %} ````).
"""

from __future__ import annotations

import re

from chunker.template_tags import fence_view

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_QUOTE_PREFIX = re.compile(r"^(?:\s*>\s?)+")
_ITEM_PREFIX = re.compile(r"^[ \t]*(?:(?:[-*+:~]|\d{1,9}[.)])[ \t]+)+")
"""List item or definition markers (``- ``, ``1. ``, ``: ``, ``~ ``) before an opening fence on the
item's or definition's first line (``- ```py``, ``: ```sh``): the fence opens there."""


_RUN = re.compile(r"(`{3,}|~{3,})")


def fence_step(text: str, fence: str) -> str | None:
    """The fence a line scan is in after the line ``text`` (its indentation removed) when the line is a fence
    line, else None: ``fence`` is the run that opened the current fence ("" outside one); a run opens one
    outside a fence and closes it inside when it is of the same character, as long, with nothing after it.
    The line scans of the container rules (:mod:`chunker.parse.mdc`, :mod:`chunker.parse.pandoc`) skip what
    a fence holds."""
    opened = _RUN.match(text)
    if opened is None:
        return None
    marks = opened.group(1)
    if not fence:
        return marks
    if marks[0] == fence[0] and len(marks) >= len(fence) and not text[len(marks) :].strip():
        return ""
    return fence


def has_fence_marker(text: str) -> bool:
    """Cheap pre-check: only text with a backtick or tilde run can hold a fence. A one-character
    test comes first (a memchr scan, ~4x faster than a three-character search on the corpus)."""
    return ("`" in text and "```" in text) or ("~" in text and "~~~" in text)


_SCANNED: dict[str, tuple[str, str] | None] = {}
""":func:`fence_after` of the texts scanned lately from no open fence: the packer scans the text of
each chunk that holds a fence marker (to close a fence it leaves open) and the validator then scans
the same text (6,196 of its 6,560 scans over the corpus); the second is answered from here."""
_SCANNED_CHARS = [0]
_SCANNED_MAX_CHARS = 1 << 21
"""The texts remembered hold at most this many characters in all (then they are forgotten)."""
_SCANNED_MAX_TEXT = 1 << 16
"""A longer text is not remembered (a chunk is ~max_chars; an overflow chunk may be much longer)."""


def fence_after(text: str, opened: tuple[str, str] | None = None) -> tuple[str, str] | None:
    """The fence open at the end of ``text`` as (marker run, opening line), given the fence
    ``opened`` before it (or None), so that a long text can be scanned piece by piece. Each line
    holding a run of three backticks or tildes is read once (found with ``str.find``, which a
    regular expression of the two runs is several times slower than)."""
    if opened is not None:
        return _scan(text, opened)
    if len(text) > _SCANNED_MAX_TEXT:
        return _scan(text, None)
    found = _SCANNED.get(text, _UNKNOWN)
    if found is _UNKNOWN:
        found = _scan(text, None)
        if _SCANNED_CHARS[0] + len(text) > _SCANNED_MAX_CHARS:
            _SCANNED.clear()
            _SCANNED_CHARS[0] = 0
        _SCANNED[text] = found
        _SCANNED_CHARS[0] += len(text)
    return found


_PREFIX: list[object] = ["", 0, None]
"""(source, a line start, the fence open there) where :func:`fence_open_at` stopped last."""


def fence_open_at(source: str, end: int) -> tuple[str, str] | None:
    """``fence_after(source[:end])``, resuming where the last call on the same ``source`` stopped when
    ``end`` lies past it: blocks asked in the order of their ends scan each line about once (a page of
    4,000 quotes that each leave a fence open scanned the source from its start for each: quadratic)."""
    text, start, state = _PREFIX
    if text is not source or not isinstance(start, int) or end < start:
        start, state = 0, None
    line = source.rfind("\n", start, end) + 1
    if line > start:
        state = _scan(source[start:line], state)  # type: ignore[arg-type]
        start = line
    _PREFIX[:] = [source, start, state]
    return _scan(source[start:end], state)  # type: ignore[arg-type]


_UNKNOWN = ("", "?")
"""Not a result :func:`_scan` gives (its run is never empty)."""


def _scan(text: str, opened: tuple[str, str] | None) -> tuple[str, str] | None:
    open_run, open_line = opened if opened is not None else ("", "")
    find = text.find
    ticks, tildes = find("```"), find("~~~")
    while ticks >= 0 or tildes >= 0:
        hit = ticks if tildes < 0 or 0 <= ticks < tildes else tildes
        start = text.rfind("\n", 0, hit) + 1
        line_end = find("\n", hit)
        if line_end == -1:
            line_end = len(text)
        if ticks >= 0:
            ticks = find("```", line_end) if ticks < line_end else ticks
        if tildes >= 0:
            tildes = find("~~~", line_end) if tildes < line_end else tildes
        line = text[start:line_end]
        if "{%" in line:
            line = fence_view(line)  # a template tag written on the fence line: the site removes it first
        stripped = _QUOTE_PREFIX.sub("", line) if ">" in line else line
        match = _FENCE.match(stripped) or _FENCE.match(stripped.lstrip())
        if match is None and not open_run:  # an opening after an item's marker; no closing line has one
            match = _FENCE.match(_ITEM_PREFIX.sub("", stripped, count=1))
        if match is None:
            continue
        run, rest = match.group(1), match.group(2)
        if not open_run:
            if run[0] == "`" and "`" in rest:
                continue
            open_run, open_line = run, line
        elif run[0] == open_run[0] and len(run) >= len(open_run) and not rest.strip():
            open_run, open_line = "", ""
    return (open_run, open_line) if open_run else None


def closing_line(opening: str, run: str) -> str:
    """The line that closes the fence opened by ``opening`` inside the same container: the
    opening's quote markers kept, any list marker (and a template tag before the run) turned into spaces,
    then the marker run."""
    opening = fence_view(opening)
    head = opening[: opening.find(run)] if run in opening else ""
    return "".join(c if c in " >" else " " for c in head) + run


def is_balanced(text: str) -> bool:
    return not has_fence_marker(text) or fence_after(text) is None
