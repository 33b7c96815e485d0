"""``section_level: auto``: the heading level a document is cut at, chosen from its heading profile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chunker.models import TAB_LEVEL, Block

AUTO_MIN_HEADINGS = 3
"""A level with fewer headings is not chosen when a shallower level with more will do."""
AUTO_TEXT_SHARE = 0.9
"""``auto`` picks the shallowest level L such that this share of the body text sits directly under
headings of level <= L (deeper headings then hold only occasional text)."""


def level_profile(blocks: Sequence[Block]) -> dict[int, tuple[int, float]]:
    """Per heading level L (0: before any heading): the number of headings of level L and the share
    of the body text whose innermost heading has level L."""
    counts = [0] * 7
    chars = [0] * 7
    level = 0
    for block in blocks:
        if block.kind == "heading":
            if block.heading_level == TAB_LEVEL:
                continue  # a docfx tab: its text is the text of the heading above its group
            level = block.heading_level
            counts[level] += 1
        else:
            chars[level] += block.chars
    total = sum(chars)
    return {lvl: (counts[lvl], chars[lvl] / total if total else 0.0) for lvl in range(7) if counts[lvl] or chars[lvl]}


def choose_section_level(blocks: Sequence[Block]) -> tuple[int, dict[str, Any]]:
    """The finest heading level that structures the document consistently, and the evidence.

    Sections open at every heading of level <= L, so L must be deep enough that the text sits
    directly under headings it opens sections at (``§`` headings at levels 4, 5 and 6 of a law all
    need L = 6), and need not go deeper than where AUTO_TEXT_SHARE of the text is. A level with
    fewer than AUTO_MIN_HEADINGS headings (a level that appears twice) yields to the deepest
    shallower level with enough headings that holds at least half of the text."""
    profile = level_profile(blocks)
    evidence: dict[str, Any] = {
        "levels": {
            str(lvl): {"headings": n, "text_share": round(share, 3)} for lvl, (n, share) in profile.items() if lvl
        },
        "rule": f"shallowest level under which {AUTO_TEXT_SHARE:.0%} of the text sits directly",
    }
    if not any(lvl for lvl in profile if lvl):
        evidence["fallback"] = "no headings"
        return 2, evidence
    cumulative = 0.0
    chosen = max(profile)
    shares: dict[int, float] = {}
    for lvl in range(7):
        cumulative += profile.get(lvl, (0, 0.0))[1]
        shares[lvl] = cumulative
    for lvl in range(1, 7):
        if shares[lvl] >= AUTO_TEXT_SHARE - 1e-9:
            chosen = lvl
            break
    if profile.get(chosen, (0, 0.0))[0] < AUTO_MIN_HEADINGS:
        fallback = [
            lvl for lvl in range(1, chosen) if profile.get(lvl, (0, 0.0))[0] >= AUTO_MIN_HEADINGS and shares[lvl] >= 0.5
        ]
        if fallback:
            evidence["fewer_than_min_headings"] = chosen
            chosen = max(fallback)
    return chosen, evidence
