"""Junk pieces: chunks with no text a query could match, merged into a neighbour of their section.

Three kinds, common at the ends of documentation sections:

- a piece made only of link reference definitions (``[label]: https://...``), which render as
  nothing (the parser makes no block of them: they are ``raw`` blocks), or of footnote definitions
  that hold only a link (``[^3]: <https://...>``);
- a piece that is one link or URL and (almost) nothing else (``[Try it in the Playground](https://...)``
  with a long URL, HTML tags around it aside); or two or more links and nothing else (a pair of
  playground links, a short list of links), which goes into a neighbour only when it fits whole (else
  it stays: a list of links is the content of its section);
- a piece of filler blocks only (:mod:`chunker.filler`: a lone ``<audio>`` or ``<img>``, a demo
  component, layout tags, closing tags, HTML comments) or thematic breaks, alone or after its headings.

Such a piece goes into the chunk before it (or after it) when both fit the budget; else it is
shared between both (cut between its definitions); else the cut before it moves back (or the one
after it moves forward) so that it takes a neighbouring block along, as long as that cut is no
weaker than the one it replaces and both chunks stay real. A piece that none of this places and that holds
nothing to read (link reference definitions about as long as a chunk at the end of a long section, a link
within the page, ``**[⬆ back to top](#contents)**``, after a list that fills a chunk, a ``---`` rule, closing
tags ``</TabItem>`` ``</Tabs>`` after a code block that fills one, a licence comment longer than a chunk, a
``<script>``, Liquid tags ``{% endcapture %}``) is carried by the chunk before it (or after it; up to
:data:`SILENT_BUDGETS` budgets of them per chunk, so that a chunk's text stays bounded) without counting toward its
size: its units are marked ``silent``, kept in that chunk's ``content_original`` (where its links resolve, its
elements close) and left out of its ``content_for_embedding``: it has no words a query could match. A piece of
one link elsewhere (its text may name a guide), of two or more links (a list of links is the content of its
section) or of other filler (an image or a component whose attributes hold a caption) is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import islice

from chunker.filler import is_filler, renders_nothing
from chunker.models import Block
from chunker.pack.strength import BLOCK, Unit

__all__ = ["absorb_junk", "defer_definitions", "is_junk"]

_DEFINITION = re.compile(r"[ ]{0,3}\[(?:[^\]\\\n]|\\.)++\]:")
"""The start of a link reference definition."""
_LINK = re.compile(
    r"!?\[(?:[^\[\]\n]|\[[^\]\n]*\])*\]\([^)\s]*(?:\s[^)]*)?\)|<[A-Za-z][\w+.-]*:[^>\s]*>|\b[A-Za-z][\w+.-]*://\S+"
)
"""A Markdown link or image, an autolink, a bare URL."""
_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s[^<>]*)?/?>")
_LETTER = re.compile(r"[^\W_]")
MIN_LETTERS = 8
"""A piece with one link and fewer letters or digits than this besides is junk."""

SILENT_BUDGETS = 2
"""A chunk carries at most this many budgets of link definitions without counting them."""

Sizes = Callable[[int, int], int]
"""Size of the chunk made of units[i:e]."""
Filler = Callable[[Block], bool]
_FILLER_KINDS = frozenset({"html", "paragraph"})
"""The kinds :func:`chunker.filler.is_filler` may find filler (it tests only these)."""


def is_junk(units: Sequence[Unit], source: str, filler: Filler = is_filler) -> bool:
    """Whether the units make a junk piece (see the module's docstring)."""
    return _kind(units, 0, len(units), source, filler) is not None


def _kind(units: Sequence[Unit], i: int, e: int, source: str, filler: Filler) -> str | None:
    """Of the piece units[i:e]: ``definitions``, ``filler``, ``link`` (one link or URL, hardly any
    other text), ``links`` (two or more and hardly any other text), or None for a piece with text of
    its own."""
    if _definition(units[i], source) and all(_definition(units[k], source) for k in range(i + 1, e)):
        return "definitions"
    if _markup_only(units, i, e, filler):
        return "filler"
    start, end = units[i].start, units[e - 1].end
    if source.find("](", start, end) < 0 and source.find("://", start, end) < 0:
        return None
    if _prose_first(source, start, end):
        return None
    return _link_kind(source, start, end)


def _link_start(source: str, start: int, end: int) -> int:
    """An offset no link, URL or tag of ``source[start:end]`` starts before: a Markdown link or image
    starts at its ``[`` (or the ``!`` before it), an autolink or tag at its ``<``, a bare URL at its
    scheme, which runs back from the first ``://`` over word characters and ``+.-``."""
    bound = end
    bracket = source.find("[", start, end)
    if bracket >= 0:
        bound = max(bracket - 1, start)
    angle = source.find("<", start, bound)
    if angle >= 0:
        bound = angle
    scheme = source.find("://", start, end)  # its scheme may start before the bound found so far
    if scheme >= 0:
        while scheme > start and (source[scheme - 1].isalnum() or source[scheme - 1] in "_+.-"):
            scheme -= 1
        bound = min(bound, scheme)
    return bound


def _prose_first(source: str, start: int, end: int) -> bool:
    """Whether ``source[start:end]`` has :data:`MIN_LETTERS` letters or digits before any link, URL
    or tag could start: then it is no link piece, whatever its links (the pattern search for them,
    with the markup removed between them, took about a tenth of the packer's time over the shared
    corpus, mostly in pieces of prose with a link further on)."""
    stop = _link_start(source, start, end)
    return next(islice(_LETTER.finditer(source, start, stop), MIN_LETTERS - 1, None), None) is not None


def _link_kind(source: str, start: int, end: int) -> str | None:
    """``link``, ``links`` or None for ``source[start:end]`` (see :func:`_kind`): links, and fewer than
    MIN_LETTERS letters between them; the scan stops as soon as the answer is known."""
    text = source[start:end]
    links = letters = pos = 0
    for link in _LINK.finditer(text):
        letters += _letters(_TAG.sub(" ", text[pos : link.start()]), MIN_LETTERS - letters)
        if letters >= MIN_LETTERS:
            return None
        links += 1
        pos = link.end()
    letters += _letters(_TAG.sub(" ", text[pos:]), MIN_LETTERS - letters)
    if not links or letters >= MIN_LETTERS:
        return None
    return "link" if links == 1 else "links"


def comments_only(source: str, start: int, end: int) -> bool:
    """Whether ``source[start:end]`` is HTML comments and whitespace only (one pass, no backtracking)."""
    pos = start
    while True:
        while pos < end and source[pos] in " \t\n":
            pos += 1
        if pos == end:
            return True
        if not source.startswith("<!--", pos, end):
            return False
        close = source.find("-->", pos + 4, end)
        if close < 0:
            return False
        pos = close + 3


def _letters(text: str, limit: int) -> int:
    """How many letters or digits ``text`` holds, counting up to ``limit``."""
    return sum(1 for _ in islice(_LETTER.finditer(text), max(limit, 0)))


def _fewer_letters(text: str, limit: int) -> bool:
    """Whether ``text`` holds fewer than ``limit`` letters or digits (stops at the limit)."""
    return next(islice(_LETTER.finditer(text), limit - 1, None), None) is None


def _markup_only(units: Sequence[Unit], i: int, e: int, filler: Filler) -> bool:
    """Whether units[i:e] are whole filler blocks (:mod:`chunker.filler`), alone or after their
    headings; ``filler`` tests a block (the section's :meth:`SectionSpace.filler`, which tests
    each block once)."""
    found = False
    for k in range(i, e):
        unit = units[k]
        block = unit.block
        if not (unit.first and unit.last):
            return False
        if block.kind == "heading":
            continue
        if block.kind == "thematic_break":  # a rule: a line across the page
            found = True
            continue
        if block.kind not in _FILLER_KINDS or not filler(block):
            return False
        found = True
    return found


def _definition(unit: Unit, source: str) -> bool:
    """A link reference definition (a ``raw`` block's), or a footnote definition that is only a link."""
    block = unit.block
    if block.kind == "raw":
        return _DEFINITION.match(source, unit.start) is not None
    frame = block.frame
    if block.kind != "container" or frame is None or frame[1] or not frame[0].lstrip().startswith("[^"):
        return False
    body = source[unit.start : unit.end].replace(frame[0], " ", 1)
    return _fewer_letters(_TAG.sub(" ", _LINK.sub(" ", body)), MIN_LETTERS)


def absorb_junk(
    ranges: list[tuple[int, int]],
    units: Sequence[Unit],
    source: str,
    size_of: Sizes,
    budget: int,
    minimum: int,
    filler: Filler = is_filler,
) -> list[tuple[int, int]]:
    """The chunk ranges of a section with every junk piece merged into, or given a block of, a
    neighbour (``filler``: :func:`chunker.filler.is_filler`, or the section's memo of it)."""
    out = list(ranges)
    m = 0
    while m < len(out) and len(out) > 1:
        i, e = out[m]
        kind = _kind(units, i, e, source, filler)
        if kind is None:
            m += 1
            continue
        if m > 0 and size_of(out[m - 1][0], e) <= budget:
            out[m - 1 : m + 1] = [(out[m - 1][0], e)]
            continue
        if m + 1 < len(out) and size_of(i, out[m + 1][1]) <= budget:
            out[m : m + 2] = [(i, out[m + 1][1])]
            continue
        if kind == "links":  # a list of links is content of its own when no neighbour takes it whole
            m += 1
            continue
        if 0 < m < len(out) - 1:
            cut = _shared(out[m - 1][0], i, e, out[m + 1][1], units, size_of, budget)
            if cut is not None:
                out[m - 1 : m + 2] = [(out[m - 1][0], cut), (cut, out[m + 1][1])]
                continue
        if m > 0:
            cut = _back(out[m - 1][0], i, e, units, source, size_of, budget, minimum)
            if cut is not None:
                out[m - 1 : m + 1] = [(out[m - 1][0], cut), (cut, e)]
                m += 1
                continue
        if m + 1 < len(out):
            cut = _forward(i, e, out[m + 1][1], units, source, size_of, budget, minimum)
            if cut is not None:
                out[m : m + 2] = [(i, cut), (cut, out[m + 1][1])]
                m += 1
                continue
        if _silent(kind, source, units[i].start, units[e - 1].end):
            j = m - 1 if m > 0 else m + 1  # carried by a neighbour without counting: no words to retrieve
            held = [k for k in range(*out[j]) if units[k].silent]
            carried = size_of(held[0], held[-1] + 1) if held else 0
            if carried + size_of(i, e) <= SILENT_BUDGETS * budget:
                for unit in units[i:e]:
                    unit.silent = True
                out[min(j, m) : max(j, m) + 1] = [(out[min(j, m)][0], out[max(j, m)][1])]
                continue
        m += 1
    return out


def _silent(kind: str, source: str, start: int, end: int) -> bool:
    """Whether a junk piece of ``kind`` that no neighbour takes is carried by one without counting: link
    definitions, a link within the page, and filler that renders as nothing (:func:`chunker.filler.renders_nothing`)."""
    if kind == "definitions":
        return True
    if kind == "link":
        return source.find("](#", start, end) >= 0
    return kind == "filler" and renders_nothing(source[start:end])


def defer_definitions(
    ranges: list[tuple[int, int]], units: Sequence[Unit], source: str, size_of: Sizes, budget: int
) -> list[tuple[int, int]]:
    """The chunk ranges with a block of link reference definitions that starts a chunk right above a
    heading moved to the chunk before (carried without counting where it does not fit there, as
    :func:`absorb_junk` carries them): they end the subsection above them, and first in a chunk
    they gave it their heading path for the subsection after them."""
    out = list(ranges)
    for m in range(1, len(out)):
        i, e = out[m]
        if e - i < 2 or not _heads_definitions(units, i, source):
            continue
        pi = out[m - 1][0]
        if size_of(pi, i + 1) > budget:
            held = [k for k in range(pi, i) if units[k].silent]
            carried = size_of(held[0], held[-1] + 1) if held else 0
            if carried + size_of(i, i + 1) > SILENT_BUDGETS * budget:
                continue
            units[i].silent = True
        out[m - 1], out[m] = (pi, i + 1), (i + 1, e)
    return out


def _heads_definitions(units: Sequence[Unit], i: int, source: str) -> bool:
    """Whether ``units[i]`` is a whole block of link reference definitions right above a heading."""
    unit = units[i]
    return (
        i + 1 < len(units)
        and unit.block.kind == "raw"
        and unit.first
        and unit.last
        and units[i + 1].block.kind == "heading"
        and _definition(unit, source)
    )


def _allowed(units: Sequence[Unit], cut: int, replaced: int) -> bool:
    """Whether a cut before ``units[cut]`` may replace the one before ``units[replaced]``."""
    strength = units[cut].strength
    return not units[cut - 1].glue and (strength >= BLOCK or strength >= units[replaced].strength)


def _shared(pi: int, i: int, e: int, ne: int, units: Sequence[Unit], size_of: Sizes, budget: int) -> int | None:
    """A cut inside the junk piece i..e-1 (between its definitions) such that the chunk before takes
    its first part and the chunk after its rest."""
    for cut in range(i + 1, e):
        if size_of(pi, cut) > budget:
            return None
        if not units[cut - 1].glue and size_of(cut, ne) <= budget:
            return cut
    return None


def _back(
    pi: int, i: int, e: int, units: Sequence[Unit], source: str, size_of: Sizes, budget: int, minimum: int
) -> int | None:
    """The latest cut in the chunk before (units pi..i-1) after which the junk piece i..e-1 takes
    the rest of that chunk along."""
    for cut in range(i - 1, pi, -1):
        if size_of(cut, e) > budget:
            return None
        if (
            _allowed(units, cut, i)
            and size_of(pi, cut) >= minimum
            and not is_junk(units[cut:e], source)
            and not is_junk(units[pi:cut], source)
        ):
            return cut
    return None


def _forward(
    i: int, e: int, ne: int, units: Sequence[Unit], source: str, size_of: Sizes, budget: int, minimum: int
) -> int | None:
    """The earliest cut in the chunk after (units e..ne-1) up to which the junk piece i..e-1 takes
    that chunk's first units along."""
    for cut in range(e + 1, ne):
        if size_of(i, cut) > budget:
            return None
        if (
            _allowed(units, cut, e)
            and size_of(cut, ne) >= minimum
            and not is_junk(units[i:cut], source)
            and not is_junk(units[cut:ne], source)
        ):
            return cut
    return None
