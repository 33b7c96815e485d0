"""Pieces cut inside footnotes and definitions nested in other containers re-open them
(:mod:`chunker.pack.reopen`): a footnote nested in a list item or a definition re-opens as its label
line up to its label; a definition's marker line is found past the terms of its own list only (a
definition whose first line opens a nested term: ``:   Term`` over ``    ~ its definition``). Before,
such pieces re-opened nothing and rendered as a bare paragraph (bench/fuzz_containers.py)."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def _changed(text: str, budgets: range) -> list[str]:
    out = []
    for m in budgets:
        cfg = ChunkerConfig(max_chars=m, target_chars=max(1, m // 2), min_chars=1)
        result = chunk_markdown(text, cfg, "d", "d.md")
        out += [f"{m}: {d.message}" for d in result.diagnostics.diagnostics if d.code == "rendering-changed"]
    return out


def _added(text: str, m: int) -> list[str]:
    cfg = ChunkerConfig(max_chars=m, target_chars=max(1, m // 2), min_chars=1)
    return [a.text for c in chunk_markdown(text, cfg, "d", "d.md").chunks for a in c.added_lines]


FOOTNOTE_IN_ITEM = (
    "# T\n\n> 4.  [^1]: Beta eta\n"
    ">         Nu zeta iota zeta zeta pi alpha lambda kappa omicron gamma. Theta delta gamma omicron.\n"
    ">         Nu alpha pi rho eta alpha beta alpha. Mu iota epsilon rho xi gamma nu.\n"
)
FOOTNOTE_IN_DEFINITION = (
    "# T\n\nEta alpha\n:   [^7]: Beta xi\n\n        ::: warning Careful\n"
    "        Mu delta lambda omicron zeta iota xi epsilon. Rho rho eta zeta lambda eta zeta.\n"
    "        Omicron nu pi lambda nu xi. Kappa iota kappa nu.\n        :::\n"
)
DEFINITIONS_THREE_DEEP = (
    "# T\n\nDelta\n:   Kappa zeta eta\n    ~ Pi omicron eta\n"
    "        :   Epsilon eta xi delta theta mu. Iota omicron iota. Nu kappa nu alpha kappa eta!\n"
    "            Alpha alpha iota lambda iota eta delta delta beta. Alpha omicron gamma epsilon.\n"
)


def test_a_footnote_in_a_list_item_re_opens_its_label() -> None:
    assert _changed(FOOTNOTE_IN_ITEM, range(40, 200, 7)) == []
    assert any(a.startswith("> 4.  [^1]:\n") for a in _added(FOOTNOTE_IN_ITEM, 80))


def test_a_footnote_on_a_definitions_line_re_opens_term_and_label() -> None:
    assert _changed(FOOTNOTE_IN_DEFINITION, range(40, 200, 7)) == []
    assert any(a.startswith("Eta alpha\n:   [^7]:\n") for a in _added(FOOTNOTE_IN_DEFINITION, 80))


def test_a_definition_three_deep_re_opens_every_term() -> None:
    assert _changed(DEFINITIONS_THREE_DEEP, range(40, 200, 7)) == []
    added = _added(DEFINITIONS_THREE_DEEP, 80)
    assert any(a.startswith("Delta\n:   Kappa zeta eta\n    ~ Pi omicron eta\n        :") for a in added), added
