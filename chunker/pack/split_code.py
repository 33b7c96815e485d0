"""Oversize code split between lines: fenced code re-opens and closes its fence in every piece;
indented code is cut where a piece stays indented code."""

from __future__ import annotations

import re
from itertools import pairwise

from chunker.models import Block
from chunker.pack.budget import SectionSpace
from chunker.pack.repeats import closing_text
from chunker.pack.split_text import emit_cuts, split_text
from chunker.pack.strength import CODE_LINE, CODE_LINE_LOW_INDENT, JOINT, SENTENCE, WORD, Strength, Unit

_COMMENT = re.compile(r"[ \t]*(?:#(?![!{\[])|//|/\*|\*/?(?:[ \t]|$)|-- |<!--|REM\b|rem\b)")
"""A line that is a comment in most languages (``#``, ``//``, ``/* */``, ``-- `` of SQL and Lua, ``<!--``,
``REM``): it describes the lines after it (``# Install the CRDs`` above the command)."""


def _by_comments(strength: Strength, before: str, line: str) -> Strength:
    """The strength of a cut between two code lines, given the line ``before`` it. A cut after a
    comment line, or after a line that opens a body (``$merged = @{``, ``fn main() {``), is weaker
    than any other cut between code lines: it would part a comment (or a block of comment lines)
    from the code it describes, or an opening line from its body. A cut before a comment line after
    code is stronger than the other cuts at its indentation (a comment opens the next step): at the
    block's lowest indentation as strong as one after a blank line; deeper in (a line of a function
    or a loop) still weaker than a cut at the lowest indentation."""
    opens = before.rstrip().endswith(_OPENS)
    after_comment = _COMMENT.match(before) is not None
    if (after_comment or opens) and line.strip():
        return WORD
    if _COMMENT.match(line) is not None and before.strip():
        return JOINT if strength >= CODE_LINE_LOW_INDENT else max(strength, SENTENCE)
    return strength


_OPENS = ("{", "(", "[", ":", "=>", "->")
"""Line ends that open a body (``return () => {``): the line after one (a comment too) is the body's first."""


def split_code(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    if block.fence is not None:
        _split_fenced(space, out, block, strength)
    else:
        _split_indented(space, out, block, strength)


def _line_starts(src: str, start: int, end: int) -> list[int]:
    """Offsets of the lines of src[start:end], ``start`` first."""
    starts = [start]
    pos = src.find("\n", start, end)
    while pos != -1:
        starts.append(pos + 1)
        pos = src.find("\n", pos + 1, end)
    return starts


def _split_indented(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    """Indented code (no fence) between lines: a piece starts at a line with its indentation, so
    it is indented code again. Cuts after a blank line are preferred, then lines at the block's
    lowest indentation."""
    src = space.source
    starts = _line_starts(src, block.start_offset, block.end_offset)
    lines = [src[a : (starts[k + 1] - 1 if k + 1 < len(starts) else block.end_offset)] for k, a in enumerate(starts)]
    lowest = min((len(t) - len(t.lstrip(" \t")) for t in lines if t.strip()), default=0)
    cuts: list[tuple[int, Strength]] = [(block.start_offset, strength)]
    for k in range(1, len(starts)):
        line = lines[k]
        if not line.strip():
            continue  # a piece never starts with a blank line
        if not lines[k - 1].strip():
            cuts.append((starts[k], JOINT))
        elif len(line) - len(line.lstrip(" \t")) <= lowest:
            cuts.append((starts[k], _by_comments(CODE_LINE_LOW_INDENT, lines[k - 1], line)))
        else:
            cuts.append((starts[k], _by_comments(CODE_LINE, lines[k - 1], line)))
    emit_cuts(space, out, block, cuts, block.end_offset, True, True)


def _split_fenced(space: SectionSpace, out: list[Unit], block: Block, strength: Strength) -> None:
    assert block.fence is not None
    src = space.source
    # Units are lines; the opening fence sticks to the first code line, the closing to the last.
    starts = _line_starts(src, block.start_offset, block.end_offset)
    reserve = space.measure(block.fence[0] + "\n") + space.measure(closing_text(block) + "\n")
    if reserve >= space.budget or len(starts) == 1 or (len(starts) == 2 and block.fence[1]):
        # fence lines over the budget (a long info string; a line of template tags before the run, read as the
        # site reads it), or no code between them: a piece would re-open a fence line over the budget (one
        # overflow chunk per word: 17,104 for one 35 KB opening line), or cut inside one (pieces that are no
        # fence, or a MemoryError); kept whole, one overflow chunk
        out.append(Unit(start=block.start_offset, end=block.end_offset, block=block, strength=strength))
        return
    if len(starts) <= 2:
        split_text(space, out, block, block.start_offset, block.end_offset, strength, True, True)
        return
    closed = bool(block.fence[1])
    line_bounds = starts[1:-1] if closed else starts[1:]  # cuts between code lines only
    cuts = [block.start_offset, *line_bounds[1:]]
    bounds = [*cuts, block.end_offset + 1]
    code_lines = [src[a : b - 1] for a, b in pairwise(bounds[1:])]
    lowest = min((len(t) - len(t.lstrip(" \t")) for t in code_lines if t.strip()), default=0)
    for k in range(len(cuts)):
        start, end = bounds[k], bounds[k + 1] - 1
        if k == 0:
            piece_strength = strength
        else:
            prev_line_blank = not src[bounds[k - 1] : start].strip() or src[start - 2 : start] == "\n\n"
            line = src[start:end]
            if prev_line_blank:
                piece_strength = JOINT
            elif line.strip() and len(line) - len(line.lstrip(" \t")) <= lowest:
                piece_strength = CODE_LINE_LOW_INDENT
            else:
                piece_strength = CODE_LINE
            if not prev_line_blank:
                before_line = src[max(src.rfind("\n", bounds[k - 1], start - 1) + 1, bounds[k - 1]) : start - 1]
                piece_strength = _by_comments(piece_strength, before_line, line)
        first, last = k == 0, k == len(cuts) - 1
        before = len(out)
        if space.span(start, end) + reserve <= space.budget:
            out.append(Unit(start=start, end=end, block=block, strength=piece_strength, first=first, last=last))
        else:  # cut between its code: the fence lines are never cut, they start the first piece and end the last
            a = starts[1] if first else start
            b = starts[-1] - 1 if last and closed else end
            if b <= a or not src[a:b].strip():
                a, b = start, end
            split_text(space, out, block, a, b, piece_strength, first, last, reserve)
            out[before].start, out[-1].end = start, end
