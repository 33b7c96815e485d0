"""Filling: a section's units grouped into chunks, greedily toward target_chars, never over the
budget, cut at the strongest boundary in reach (text-splitter's ``ChunkCapacity { desired, max }``)."""

from __future__ import annotations

from chunker.pack.budget import SectionSpace
from chunker.pack.junk import absorb_junk, defer_definitions
from chunker.pack.openers import glue_openers
from chunker.pack.strength import BLOCK, INTRODUCED, INTRODUCED_PIECE, Strength, Unit
from chunker.pack.subsections import group_ends, subsection_floor


class _Sizes:
    """Size of the chunk made of units[i:e], with the text it adds, in the configured unit. In
    token mode: the units' token counts plus those of the gaps between them (prefix sums, built
    on first use)."""

    def __init__(self, space: SectionSpace, units: list[Unit]) -> None:
        self.space = space
        self.units = units
        self._unit_sums: list[int] = []
        self._gap_sums: list[int] = []

    def _sums(self) -> None:
        units, source, measure = self.units, self.space.source, self.space.measure
        unit_sums = [0]
        gap_sums = [0]
        for k, unit in enumerate(units):
            unit_sums.append(unit_sums[-1] + self.space.span(unit.start, unit.end))
            if k:
                gap = source[units[k - 1].end : unit.start]
                gap_sums.append(gap_sums[-1] + (measure(gap) if gap else 0))
        self._unit_sums, self._gap_sums = unit_sums, gap_sums

    def __call__(self, i: int, e: int) -> int:
        units, space = self.units, self.space
        first, last = units[i], units[e - 1]
        if space.chars_mode:
            size = last.end - first.start - (space.padding.saved(first.start, last.end) if space.padding else 0)
        else:
            if len(self._unit_sums) != len(units) + 1:
                self._sums()
            size = self._unit_sums[e] - self._unit_sums[i] + self._gap_sums[e - 1] - self._gap_sums[i]
        return size + space.added_at_start(first) + space.added_at_end(last)


def ranges(space: SectionSpace, units: list[Unit]) -> list[tuple[int, int]]:
    """Chunks as (first unit, end unit) ranges, in order, covering every unit."""
    n = len(units)
    cfg = space.cfg
    floor = subsection_floor(cfg.subsection_chars, cfg.min_chars)
    if space.fits_whole:  # packed by units only when cut before a subsection (pack_section)
        ends = [n] if floor is None else group_ends(units, _Sizes(space, units), floor, space.section.level)
        return list(zip([0, *ends[:-1]], ends, strict=True))
    size_of = _Sizes(space, units)
    glue_openers(space, units, size_of)
    ends = [n] if floor is None else group_ends(units, size_of, floor, space.section.level)
    # In characters, a chunk's size is computed inline: the span plus the text added at each end.
    # Whole blocks add none; else what a chunk adds after each unit is looked up only once.
    spans_only = space.chars_mode and all(u.first and u.last for u in units)
    added_at_end = [0] * n if spans_only or not space.chars_mode else [space.added_at_end(u) for u in units]
    out: list[tuple[int, int]] = []
    i = 0
    for stop in ends:
        _fill(space, units, i, stop, added_at_end, size_of, out)
        i = stop
    if cfg.merge_short:
        out = _merge_short(out, size_of, cfg.min_chars, space.budget)
        if len(out) > 1:
            out = absorb_junk(out, units, space.source, size_of, space.budget, cfg.min_chars, space.filler)
            out = defer_definitions(out, units, space.source, size_of, space.budget)
    return out


def _fill(
    space: SectionSpace,
    units: list[Unit],
    i: int,
    n: int,
    added_at_end: list[int],
    size_of: _Sizes,
    out: list[tuple[int, int]],
) -> None:
    """The chunks of units[i:n], appended to ``out``."""
    cfg = space.cfg
    while i < n:
        chosen, candidates = _reach(space, units, i, n, added_at_end, size_of)
        if chosen < 0:
            if candidates:
                chosen = _choose(candidates, cfg.target_chars, cfg.min_chars)
                chosen = _keep_lead_in(units, chosen, candidates, size_of, space.budget, cfg.min_chars)
            else:
                chosen = i + 1  # one unit over budget: an overflow chunk
                while chosen < n and units[chosen - 1].glue:
                    chosen += 1
        out.append((i, chosen))
        i = chosen


def _reach(
    space: SectionSpace, units: list[Unit], i: int, n: int, added_at_end: list[int], size_of: _Sizes
) -> tuple[int, list[tuple[int, int, Strength]]]:
    """The chunks of units[i:n] that may start at unit ``i``: ``(n, [])`` when all the rest fits, else
    ``(-1, candidates)``, each ``(end unit, size, strength of the boundary there)``, shortest first."""
    budget, chars_mode = space.budget, space.chars_mode and not space.padding
    candidates: list[tuple[int, int, Strength]] = []
    start_i = units[i].start
    added_at_start = space.added_at_start(units[i])
    for e in range(i + 1, n + 1):
        size = units[e - 1].end - start_i + added_at_start + added_at_end[e - 1] if chars_mode else size_of(i, e)
        if size > budget:
            break
        if e == n:
            return e, candidates
        if units[e - 1].glue:
            continue
        candidates.append((e, size, units[e].strength))
    return -1, candidates


def _choose(candidates: list[tuple[int, int, Strength]], target: int, minimum: int) -> int:
    """The end unit of the chunk: among candidates of at least half the target (or min_chars), the
    strongest boundary, nearest the target; but never cross a sub-heading only to cut at a
    weaker boundary after it."""
    floor = max(target // 2, minimum)
    chosen, top = _best(candidates, target, floor)
    if chosen < 0:  # none of at least the floor: among all
        chosen, top = _best(candidates, target, -1)
    strongest, crossed = -1, chosen
    for end, size, strength in candidates:  # the strongest sub-heading before it, the last of those
        if end < chosen and strength > top and strength > BLOCK and size >= minimum and strength >= strongest:
            if strength > strongest or end > crossed:
                crossed = end
            strongest = strength
    return crossed if strongest >= 0 else chosen


def _best(candidates: list[tuple[int, int, Strength]], target: int, floor: int) -> tuple[int, int]:
    """(end unit, strength) of the candidate of at least ``floor`` at the strongest boundary,
    nearest the target (the shorter on a tie, the first on an equal one); (-1, -1) for none. One pass,
    no lists: it ran once per chunk."""
    chosen, top, off, best_size = -1, -1, 0, 0
    for end, size, strength in candidates:
        if size < floor:
            continue
        distance = abs(size - target)
        if strength > top or (strength == top and (distance < off or (distance == off and size < best_size))):
            chosen, top, off, best_size = end, strength, distance, size
    return chosen, top


def _keep_lead_in(
    units: list[Unit],
    chosen: int,
    candidates: list[tuple[int, int, Strength]],
    size_of: _Sizes,
    budget: int,
    minimum: int,
) -> int:
    """A cut right after a lead-in (a paragraph ending with ':') moves before the lead-in when the
    lead-in and the first piece of what it introduces fit in one chunk and the chunk left before
    stays at least ``minimum`` long: the lead-in goes with its block."""
    if chosen >= len(units) or units[chosen].strength not in (INTRODUCED, INTRODUCED_PIECE):
        return chosen
    lead = chosen - 1
    before, after = units[lead], units[chosen]
    if before.block.kind != "paragraph" or not before.last or not after.first or after.block is before.block:
        return chosen  # a boundary of that strength inside a block (a nested item, a code line)
    earlier = [c for c in candidates if c[0] == lead and c[1] >= minimum]
    if earlier and size_of(lead, chosen + 1) <= budget:
        return lead
    return chosen


def _merge_short(ranges: list[tuple[int, int]], size_of: _Sizes, minimum: int, budget: int) -> list[tuple[int, int]]:
    """Two neighbouring chunks, either under min_chars, merged when together they fit the budget."""
    merged: list[tuple[int, int]] = []
    for rng in ranges:
        if merged:
            pi, pe = merged[-1]
            small = size_of(*rng) < minimum or size_of(pi, pe) < minimum
            if small and size_of(pi, rng[1]) <= budget:
                merged[-1] = (pi, rng[1])
                continue
        merged.append(rng)
    return merged
