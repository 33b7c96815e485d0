"""Cuts that kept a piece from rendering as its source slice, found on real documents (German laws
of the shared corpus, the CommonMark spec at small budgets): each document below is chunked at a
range of budgets and no piece may carry a ``rendering-changed`` finding."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.parse.markdown import markdown_parser
from chunker.pipeline import chunk_markdown
from chunker.rendering import shapes

BUDGETS = range(100, 400, 20)


def _run(text: str, max_chars: int) -> ChunkingResult:
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
    return chunk_markdown(text, cfg, "doc", "doc.md")


def _findings(text: str) -> list[str]:
    return [
        f"max_chars {m}: {d.message}"
        for m in BUDGETS
        for d in _run(text, m).diagnostics.diagnostics
        if d.code == "rendering-changed"
    ]


NUMBER_IN_TEXT = """# Gesetz

## § 3

2.  Zur Schadstoffgruppe 4 gehören Fahrzeuge,

    a)  die in den Anwendungsbereich der Richtlinie 2005/55/EG des
        Europäischen Parlaments und des Rates vom 28. September 2005 fallen,
        wenn sie die Grenzwerte einhalten, die im Amtsblatt (ABl. EU Nr. L 275 S.
        1) in der jeweils zuletzt geänderten Fassung veröffentlicht sind, und
        die Prüfung nach dem vorgeschriebenen Verfahren bestanden haben.
"""


def test_a_number_continuing_a_paragraph_in_a_list_item_never_starts_a_piece() -> None:
    # "1) in der ..." continues the paragraph of item 2 (a)-lines are text, and the line is
    # indented four columns past the item's content): a piece starting there reads as a new list
    assert _findings(NUMBER_IN_TEXT) == []
    starts = {c.start_offset for m in BUDGETS for c in _run(NUMBER_IN_TEXT, m).chunks}
    assert NUMBER_IN_TEXT.index("1) in der") not in starts


INDENTED_CODE_IN_ITEM = """# Gesetz

## § 10

2.
    b)  Beiträge des Steuerpflichtigen

        aa) zum Aufbau einer eigenen kapitalgedeckten Altersversorgung, wenn der
            Vertrag nur die Zahlung einer monatlichen, auf das Leben des
            Steuerpflichtigen bezogenen lebenslangen Leibrente nicht vor
            Vollendung des 62. Lebensjahres oder zusätzlich die ergänzende
            Absicherung des Eintritts der Berufsunfähigkeit vorsieht. Der Anspruch
            auf Waisenrente darf längstens für den Zeitraum bestehen, in dem der
            Rentenberechtigte die Voraussetzungen erfüllt.
"""


def test_a_piece_starting_inside_indented_code_of_a_list_item_stays_code() -> None:
    # item 2's content starts at column 3: the "aa)" lines, 8 and 12 columns in, are indented code
    line = next(k for k, t in enumerate(INDENTED_CODE_IN_ITEM.split("\n")) if "Vollendung" in t)
    assert shapes(markdown_parser(64).parse(INDENTED_CODE_IN_ITEM), 0)[line][0][-1] == "code_block"
    assert _findings(INDENTED_CODE_IN_ITEM) == []


DEFINITIONS = "# Änderungen\n\n" + "".join(
    f"Änderung durch\n:   Art. {k} G v. 4.5.2021 I {800 + k} (Nr. 21) textlich nachgewiesen\n\n" for k in range(12)
)


def test_a_definition_list_split_before_its_terms_passes_the_check() -> None:
    # mdit-py-plugins' deflist maps a term [a, a] and the definition after it from line a on
    assert _findings(DEFINITIONS) == []
    assert any(len(_run(DEFINITIONS, m).chunks) > 2 for m in BUDGETS)


def test_a_term_line_has_the_shape_of_a_term() -> None:
    lines = DEFINITIONS.split("\n")
    got = shapes(markdown_parser(64).parse(DEFINITIONS), 0)
    for k, line in enumerate(lines):
        if line == "Änderung durch":
            assert got[k] == (("dl", "dt"), k)
        elif line.startswith(":"):
            assert got[k][0] == ("dl", "dd", "paragraph")
