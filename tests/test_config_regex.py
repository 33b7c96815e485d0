"""Regular expressions of the config that would hang a run or cut a page at every character are
refused when the config is read (exit 2 naming the option), not met while chunking."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError

NESTED = [r"(a+)+$", r"(\w+\s?)+:", r"(x+x+)+y", r"(?:a*)*b", r"(\d+\.?)+x", r"^(\s*\w+)*$", r"(a+){1,30}$"]
OVERLAPPING = [
    r"(a|aa)+$",
    r"(a|a)+$",
    r"(\d|\d\d)+x",
    r"(a|ab|b)+c",
    r"(.|\s)+x",
    r"(\w+|\d)+x",
    r"(.*,)+x",
    r"(.+\.)+x",
    r"(?:\s*\|\s*)+x",
    r"(?:a|a?)+b",
    r"((a{1,9}){1,9}){1,9}$",
]
FINE = [
    r"(\d+\.)+\d+",
    r"Seite \d+ von \d+",
    r"<!--\s*page:?\s*(\d+)\s*-->",
    r"(?>\w+\s?)+:",
    r"(?:a+)++",
    r"(\w|\d)+x",
    r"(?i)(a|A)+$",
    r"(ab|ac)+d",
    r"(a|ab)+c",
    r"(?:\s|&nbsp;)+x",
    r"(\d{1,3}\.){3}\d{1,3}",
    r"(?:[A-Z][a-z]+ )+",
    r"\[\d+(?:,\s*\d+)*\]",
    r"^\s*-\s*\d+\s*-\s*$",
    r"(a{3})+$",
    r"(-aa)*\wb",
    r"(\w\d\d)*a",
    r"(?:x,{2,5},a){2,5}",
]


@pytest.mark.parametrize("pattern", NESTED)
def test_a_repeat_of_a_repeat_with_nothing_fixed_between_is_refused(pattern: str) -> None:
    """``(a+)+$`` against a line of 40 'a' and a '!' backtracks 2^40 times: the run never ended
    (embedding_drop_lines), or took 42 s CPU on a 30-'x' line (page_marker_pattern '(x+x+)+y')."""
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*backtrack"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": ["ok", pattern]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*backtrack"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


@pytest.mark.parametrize("pattern", OVERLAPPING)
def test_a_repeat_of_overlapping_alternatives_is_refused(pattern: str) -> None:
    """``(a|aa)+$`` reads a run of n 'a' in fib(n) ways: a 40-'a' line and a '!' took about 28 s CPU
    and each further 'a' 1.6 x as long; ``(a|ab|b)+c`` over 28 characters 76 s; ``(.*,)+x``, the
    inner ``.*`` reading the commas too, 2^n. (``(\\w|\\d)+`` is one character class to ``re``: fine.)"""
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*backtrack"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*overlap"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


def test_many_patterns_are_checked_quickly() -> None:
    """5,000 running headers (``Seite \\d+ von \\d+ – Dokument N``) took 14 s to check; a loop over one
    character item needs no search. Asserted by the work done, not by time: no positions are built."""
    import chunker.regex_risk as risk

    built: list[str] = []
    real = risk._loops_ambiguously
    try:
        risk._loops_ambiguously = lambda parsed, pattern: built.append(pattern) or real(parsed, pattern)  # type: ignore[assignment]
        risk.backtracking_risk.cache_clear()
        ChunkerConfig.from_mapping({"embedding_drop_lines": [f"Seite \\d+ von \\d+ – Dokument {i}" for i in range(50)]})
    finally:
        risk._loops_ambiguously = real
    assert built == []


def test_a_pattern_too_large_to_check_is_kept() -> None:
    """A list of 5,000 words is not searched for loops (it has none); the check stays quick."""
    words = r"\b(?:" + "|".join(f"w{i}ord" for i in range(5000)) + r")\b"
    ChunkerConfig.from_mapping({"embedding_drop_lines": [words]})


@pytest.mark.parametrize("pattern", FINE)
def test_repeats_with_a_fixed_part_or_atomic_are_kept(pattern: str) -> None:
    ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})
    ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


@pytest.mark.parametrize("pattern", ["", "x*", "^", "(?m)^", "(page)?"])
def test_a_page_marker_that_matches_the_empty_string_is_refused(pattern: str) -> None:
    """'' cut a 3.8 KB page into 2,563 chunks of a character or two."""
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*empty"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})
