"""Regular expressions of the config that would hang a run or cut a page at every character are
refused when the config is read (exit 2 naming the option), not met while chunking."""

from __future__ import annotations

from pathlib import Path

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
    r"Seite \d+ von \d+",
    r"<!--\s*page:?\s*(\d+)\s*-->",
    r"(?:a+)++",
    r"(\d{1,3}\.){3}\d{1,3}",
    r"(?:[A-Z][a-z]+ )+",
    r"\[\d+(?:,\s*\d+)*\]",
    r"^\s*-\s*\d+\s*-\s*$",
    r"(?:x,{2,5},a){2,5}",
    r"(?m)^[ \t]*\d+[ \t]*$",
    r"- \d+ -",
]
FINE_AS_LINE = [
    r"(?>\w+\s?)+:",  # searched: each start reads the run of words again (n^2, 0.41 s at 20,000 'a')
    r"(\d+\.)+\d+",
    r"(\w|\d)+x",
    r"(?i)(a|A)+$",
    r"(ab|ac)+d",
    r"(a|ab)+c",
    r"(?:\s|&nbsp;)+x",
    r"(a{3})+$",
    r"(-aa)*\wb",
    r"(\w\d\d)*a",
    r"\s*x\s*$",
    r"\d+x",
    r".*CONFIDENTIAL.*",
    r".*CONFIDENTIAL.*$",
    r"VDE-AR-N 4110 .*",
    r"\s*-?\s*\d+",
    r"\s*\d*\s*x",
]
"""Fine against one line (``embedding_drop_lines``: a stripped line, so a leading ``\\s*`` reads nothing),
but a page marker is searched for at every position of a document, and a loop at the start reads the
same run again from each."""
POLYNOMIAL = [
    r"x\s*-?\s*\d+",
    r"Seite\s*\d*\s*von\s*\d+",
    r".*a.*a.*a",
    r".*Seite.*von.*",
    r"x+x+y",
    r"\w+\s*\w+$",
    r"[a-z]+\d*[a-z0-9]+",
    r"(?:- )?\s*\d+\s*(?: -)?\s*\d*",
]
SEARCHED = [r"\d+x", r"[ \t]*<!-- page (\d+) -->", r"(?m)^\s*\d+\s*$", r"(\d+\.)+\d+", r"\s*x\s*$", r"(ab|ac)+d"]


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
    character item needs no search, and loops with a fixed item between them that neither reads need
    no positions. Asserted by the work done, not by time: no positions are built for them (the page
    marker, one pattern searched for, is walked)."""
    import chunker.regex_risk as risk

    built: list[str] = []
    real = risk.Positions
    try:
        risk.Positions = lambda state, pattern, **kw: built.append(pattern) or real(state, pattern, **kw)  # type: ignore[assignment,misc]
        risk.backtracking_risk.cache_clear()
        ChunkerConfig.from_mapping({"embedding_drop_lines": [f"Seite \\d+ von \\d+ – Dokument {i}" for i in range(50)]})
    finally:
        risk.Positions = real  # type: ignore[misc]
    assert [pattern for pattern in built if "Seite" in pattern] == []


def test_a_pattern_too_large_to_check_is_refused() -> None:
    """A list of 5,000 words has more positions than the check walks: what it cannot prove cheap is
    refused (it passed before), and quickly, with the advice to split it."""
    words = r"\b(?:" + "|".join(f"w{i}ord" for i in range(5000)) + r")\b"
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*too large to be checked.*split"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": [words]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*too large to be checked"):
        ChunkerConfig.from_mapping({"page_marker_pattern": words})


FEW_WAYS_EACH_TIME = [
    r"(?:a?){25}a{25}",
    "a?" * 25 + "a" * 25,
    r"((a|aa){10}){4}",
    r"(?>x)" + "a?" * 25 + "a" * 25,
    r"\b(?:" + "|".join(f"w{i}ord" for i in range(150)) + r")\b",
]
"""Each reads one short run in more than 100 ways with no loop that repeats the choice, so the checks
of repeated ways let them pass: python3.11 re.fullmatch of ``(a?){24}a{24}`` on 47 'a' and a '!'
0.93 s, x4 per two more (about 9 hours at 40); ``((a|aa){10}){4}`` on 40 'a' and a '!' 9.6 s."""


@pytest.mark.parametrize("pattern", FEW_WAYS_EACH_TIME)
def test_a_pattern_that_reads_a_run_in_too_many_ways_is_refused(pattern: str) -> None:
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*backtrack"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": ["ok", pattern]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*backtrack"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


ATOMIC_HOLES = [r"(?:\d*a?+){11}", r"(?:a?+(?:a|ab)?)+", r"(?:(?:ab)?+[ab]?\d*){13}a?a"]
"""An atomic group or possessive repeat was a position no character reads: what it reads, and that it
may read nothing (``a?+``), were not seen (python3.11 re.fullmatch of ``(?:\\d*a?+){11}`` on 3,000
digits and a '!' did not end in 60 s); a random fuzz of 21,325 accepted patterns found 97 such."""


@pytest.mark.parametrize("pattern", ATOMIC_HOLES)
def test_an_atomic_part_is_read_as_what_it_reads(pattern: str) -> None:
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*backtrack"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*backtrack"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


def test_a_loop_of_a_part_that_reads_nothing_is_two_ways_to_read_nothing() -> None:
    """``((ab)?)*`` reads nothing with no iteration or with one that reads nothing: inside a repeat,
    two ways each time round (python3.11 re.fullmatch of ``(?:\\d\\d{4}(?:(?:ab)?)*)*[ab]`` on 3,000
    digits did not end in 1 s; found by bench/fuzz_regex.py)."""
    pattern = r"(?:\d\d{4}(?:(?:ab)?)*)*[ab]"
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*backtrack"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})
    ChunkerConfig.from_mapping({"embedding_drop_lines": [r"(?:-\s?)*x", r"(?:,\s*)*$"]})


@pytest.mark.parametrize("pattern", [r".{3,19}(?:[ab]*){3}", r"[ab]+(?:(?:\s+(?:a?)+(?:a|b))*a??)(?:a|b)?"])
def test_a_bounded_any_run_at_the_end_and_a_last_empty_iteration_are_seen(pattern: str) -> None:
    """Found by bench/fuzz_regex.py --seed 2 (over 1 s on 3,000 'a' / 'a ' x 1,500): ``.{3,19}`` where the
    pattern may end was taken for a ``.*`` that accepts whatever follows (its paths were dropped), and
    ``(a?)+`` after an 'a' may stop or read nothing once more, two ways out of the loop."""
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*backtrack"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})


def test_an_atomic_run_at_a_searched_start_is_refused() -> None:
    """``(?>\\w+\\s?)+:`` searched: each start reads the run of words again (re.search 0.10 / 0.41 s at
    10,000 / 20,000 'a'): kept as a line's pattern, refused as a page marker."""
    ChunkerConfig.from_mapping({"embedding_drop_lines": [r"(?>\w+\s?)+:"]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*searched for at every position"):
        ChunkerConfig.from_mapping({"page_marker_pattern": r"(?>\w+\s?)+:"})


def test_the_ways_of_a_refused_pattern_exceed_the_bound() -> None:
    """The bound is the one documented: the walk of the paths alive at once counts more than
    MAX_WAYS for these, and at most that for the kept ones."""
    import sre_parse

    from chunker.regex_positions import Positions
    from chunker.regex_ways import MAX_WAYS, too_many_ways

    def alive(pattern: str) -> bool:
        parsed = sre_parse.parse(pattern)
        graph = Positions(parsed.state, pattern, line=True, unroll=True)
        frag = graph.seq(parsed)
        return too_many_ways(graph, [frag.first], set(), line=True)

    assert MAX_WAYS == 100
    assert alive("a?" * 7 + "a" * 7)  # 7 choose 3 + ... : 128 ways over 'aaaaaaa'
    assert not alive("a?" * 6 + "a" * 6)  # 64
    assert not alive(r"(\d{1,3}\.){3}\d{1,3}")


@pytest.mark.parametrize("pattern", FINE)
def test_repeats_with_a_fixed_part_or_atomic_are_kept(pattern: str) -> None:
    ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})
    ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


@pytest.mark.parametrize("pattern", FINE_AS_LINE)
def test_a_loop_at_the_start_is_fine_against_one_line(pattern: str) -> None:
    ChunkerConfig.from_mapping({"embedding_drop_lines": [pattern]})


@pytest.mark.parametrize("pattern", POLYNOMIAL)
def test_two_loops_that_share_a_run_are_refused(pattern: str) -> None:
    """``x\\s*-?\\s*\\d+`` tries every way to share the spaces after the x between its two ``\\s*``:
    python3.11 re.fullmatch 0.027 / 0.11 / 0.43 s at 2,000 / 4,000 / 8,000 spaces (x4 per doubling:
    about 2 hours for a line of a million); ``.*a.*a.*a`` n^3 on 'a' x n and a 'b'."""
    with pytest.raises(ConfigError, match=r"embedding_drop_lines.*two repeats read the same characters"):
        ChunkerConfig.from_mapping({"embedding_drop_lines": ["ok", pattern]})
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*backtrack for hours"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


@pytest.mark.parametrize("pattern", SEARCHED)
def test_a_page_marker_whose_start_rereads_a_run_is_refused(pattern: str) -> None:
    """``\\d+x`` searched through a run of n digits reads the run once per position: re.search
    0.007 / 0.027 / 0.108 s at 2,000 / 4,000 / 8,000 digits (n^2)."""
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*searched for at every position"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})


def test_the_refused_item_is_named_by_its_line(tmp_path: Path) -> None:
    """The message names the config file's line of the pattern, not only the key's."""
    from chunker.settings import load_settings

    config = tmp_path / "config.yaml"
    config.write_text('max_chars: 1200\nembedding_drop_lines:\n  - "Seite \\\\d+"\n  - "x\\\\s*-?\\\\s*\\\\d+"\n')
    with pytest.raises(ConfigError) as caught:
        load_settings(config)
    assert f"{config}:4:" in str(caught.value)
    assert "item 2" in str(caught.value)


@pytest.mark.parametrize("pattern", ["", "x*", "^", "(?m)^", "(page)?"])
def test_a_page_marker_that_matches_the_empty_string_is_refused(pattern: str) -> None:
    """'' cut a 3.8 KB page into 2,563 chunks of a character or two."""
    with pytest.raises(ConfigError, match=r"page_marker_pattern.*empty"):
        ChunkerConfig.from_mapping({"page_marker_pattern": pattern})
