"""Cuts that kept a piece from rendering as its source slice, found on real documents (German laws
of the shared corpus, the CommonMark spec at small budgets): each document below is chunked at a
range of budgets and no piece may carry a ``rendering-changed`` finding."""

# ruff: noqa: E501  (the documents below are real Markdown with long lines)
from __future__ import annotations

import chunker.rendering_rules as rendering_rules
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


FOOTNOTE = """# Verordnung

Text mit Fußnote.[^f1]

[^f1]:     Diese Rechtsverordnung ist eine Ausbildungsordnung im Sinne des § 4
    des Berufsbildungsgesetzes. Die Ausbildungsordnung und der damit
    abgestimmte, von der Ständigen Konferenz der Kultusminister der Länder
    in der Bundesrepublik Deutschland beschlossene, Rahmenlehrplan für die
    Berufsschule werden als Beilage zum Bundesanzeiger veröffentlicht. Die
    Verordnung tritt am Tag nach der Verkündung in Kraft; zugleich tritt die
Verordnung über die Berufsausbildung vom 1. Juni 1990 außer Kraft.

## Eingangsformel

Auf Grund des § 4 Absatz 1 in Verbindung mit § 5 des Berufsbildungsgesetzes verordnet das Ministerium.
"""


def test_pieces_of_a_one_paragraph_footnote_reopen_its_label_and_indentation() -> None:
    # the later pieces of the note lost its label: "des Berufsbildungsgesetzes. Die ..." read as a
    # paragraph of its own; each re-opens "[^f1]:" and the indentation of the note's lines
    assert _findings(FOOTNOTE) == []
    reopened = [
        c
        for m in BUDGETS
        for c in _run(FOOTNOTE, m).chunks
        if c.start_offset > FOOTNOTE.index("[^f1]:") and c.start_offset < FOOTNOTE.index("## Eingang")
    ]
    assert reopened
    for chunk in reopened:
        before = "".join(a.text for a in chunk.added_lines if a.position == "before")
        # on the label's line the label and its spaces, on a later line the label and 4 to 7 columns
        assert before == "[^f1]:     " or (before.startswith("[^f1]:\n    ") and len(before) <= 14), before
        assert _path(chunk.content_original, before.count("\n")) == ("footnote_reference", "paragraph")


def _path(text: str, line: int) -> tuple[str, ...]:
    return shapes(markdown_parser(64).parse(text), 0)[line][0]


LONG_DEFINITION = """# Bürgerliches Gesetzbuch

Zuletzt geändert durch
:   Art. 4 Abs. 6 G v. 7.5.2021 I 850

Änderung durch
:   Art. 1 G v. 4.5.2021 I 882 (Nr. 21) textlich nachgewiesen, dokumentarisch noch nicht abschließend bearbeitet, und Art. 2 G v. 12.5.2021 I 1082 (Nr. 24) ebenso, dokumentarisch noch nicht abschließend bearbeitet
    und Art. 3 G v. 9.6.2021 I 1666 (Nr. 31), textlich nachgewiesen, dokumentarisch noch nicht
abschließend bearbeitet. Weitere Änderungen sind nicht berücksichtigt.

Stand: Ersetzt V 860-5-75 v. 24.6.2021 BAnz AT 25.06.2021 V1
"""


def test_pieces_of_a_definition_over_budget_reopen_its_term_and_marker() -> None:
    # a definition cut like text lost its term and marker: "I 882 (Nr. 21) ..." read as a paragraph
    assert _findings(LONG_DEFINITION) == []
    start, end = LONG_DEFINITION.index(":   Art. 1 G"), LONG_DEFINITION.index("Stand:")
    pieces = [c for m in BUDGETS for c in _run(LONG_DEFINITION, m).chunks if start < c.start_offset < end]
    assert pieces
    for chunk in pieces:
        before = "".join(a.text for a in chunk.added_lines if a.position == "before")
        assert before.startswith("Änderung durch\n: ") and not before[len("Änderung durch\n: ") :].strip()
        assert _path(chunk.content_original, 1) == ("dl", "dd", "paragraph")


def test_a_term_and_its_definition_marker_are_never_cut_apart() -> None:
    for m in BUDGETS:
        for chunk in _run(LONG_DEFINITION, m).chunks:
            assert not chunk.content_original.startswith(":"), (m, chunk.content_original[:40])


LINK_LABEL_ITEMS = """# Changelog

### Enhancements

* [`needless_pass_by_ref_mut`]: Changed the default of [`array-size-threshold`] to `16kb` (from `512kb`) and no longer lints public functions
  [#13485](https://github.com/rust-lang/rust-clippy/pull/13485)
* [`large_const_arrays`]: Changed the default of [`array-size-threshold`] to `16kb` (from `512kb`)
  [#13485](https://github.com/rust-lang/rust-clippy/pull/13485)

[^1]: related: <https://coq.inria.fr/refman/language/core/coinductive.html#top-level-definitions-of-corecursive-functions>
"""


def test_no_piece_ends_with_a_link_label_that_would_read_as_a_definition() -> None:
    # a piece ending "* [`large_const_arrays`]: Changed" holds a link reference definition (to
    # "Changed"), and one ending "[^1]:" an empty footnote, where the source has text
    assert _findings(LINK_LABEL_ITEMS) == []
    for m in BUDGETS:
        for chunk in _run(LINK_LABEL_ITEMS, m).chunks:
            last = chunk.content_original.rstrip().split("\n")[-1]
            assert not last.endswith(("]: Changed", "[^1]:")), (m, last)


NUMBER_BEFORE_NBSP = """# Anlage

*    *   Ausreichend bemessene Halle oder überdachter Platz in Abhängigkeit von
        den zu untersuchenden Fahrzeugen
        (z. B. nur Fahrzeuge bis zu einer bestimmten zul. Gesamtmasse).


*    *   3.\xa0Grube, Hebebühnen oder Rampe mit ausreichender Länge und
        Beleuchtungsmöglichkeit sowie mit Einrichtung zum Freiheben der Achsen
        oder Spieldetektoren
"""


def test_no_piece_ends_with_a_number_that_a_no_break_space_follows() -> None:
    # "3.\xa0Grube": a piece ending with "3." ends with an empty ordered list item
    assert _findings(NUMBER_BEFORE_NBSP) == []


TAB_NESTED = """# サーバコンポーネント

#### 制限事項
* サーバコンポーネントはユーザによるインタラクションをサポートできません。イベントハンドラはクライアントで登録されトリガされる必要があるためです。
\t* 例えば、`onClick` のようなイベントハンドラはクライアントコンポーネントでのみ定義できます。
* サーバコンポーネントではほとんどのフックを使用できません。
\t* サーバコンポーネントがレンダーされるとき、その出力は本質的にクライアントでレンダーすべきコンポーネントのリストになります。
"""


def test_a_piece_starting_at_an_item_indented_with_a_tab_keeps_its_level() -> None:
    # the nested items are indented with a tab: the re-opening gave up on tabs, and the piece's
    # "* 例えば" became an item of the outer list; it re-opens with the tab as spaces
    assert _findings(TAB_NESTED) == []
    starts = [
        c
        for m in BUDGETS
        for c in _run(TAB_NESTED, m).chunks
        if c.start_offset == TAB_NESTED.index("* 例えば") or c.start_offset == TAB_NESTED.index("\t* 例えば")
    ]
    assert starts
    for chunk in starts:
        line = next(k for k, t in enumerate(chunk.content_original.split("\n")) if "例えば" in t)
        assert _path(chunk.content_original, line)[:4] == ("bullet_list", "list_item", "bullet_list", "list_item")


CONTAINER_IN_ITEM = """# Backend integration

4. Render the tags for the entry point.

   ::: details Pseudo implementation of `importedChunks`
   An example pseudo implementation of `importedChunks` in TypeScript (This will
   need to be adapted for your programming language and templating language):

   ```ts
   function importedChunks(manifest: Manifest, name: string): Chunk[] {
     const seen = new Set<string>()
     return getImportedChunks(manifest[name])
   }
   ```

   :::

   :::info Chunk Import Maps Support (Experimental)

   If you are using the experimental `build.chunkImportMap` option, you also need to inject the import map into the HTML.

   :::
"""


def test_no_piece_starts_with_the_closing_line_of_a_container_in_a_list_item() -> None:
    # the closing ":::" went to the next piece, where it read as paragraph text
    assert _findings(CONTAINER_IN_ITEM) == []
    for m in BUDGETS:
        for chunk in _run(CONTAINER_IN_ITEM, m).chunks:
            own = chunk.content_original[len("".join(a.text for a in chunk.added_lines if a.position == "before")) :]
            assert own.strip() != ":::" and not own.lstrip().startswith(":::\n"), (m, own[:30])


NESTED_LEAVES = """# Search

In a SERP table, this is what appears on the rightmost column.

> | item type | item path             | ***description*** (this part)                       |
> | --------- | --------------------- | --------------------------------------------------- |
> | function  | my_crate::my_function | This function gets the name of an integer with Data |
> | struct    | my_crate::MyStruct    | This struct holds the name of an integer with Data  |

- The shortcuts of the editor:

  | Function                              | ISE Shortcut   | VSCode Shortcut  |
  | ------------------------------------- | -------------- | ---------------- |
  | Interrupt and break debugger          | Ctrl+B         | F6               |
  | Execute current line/highlighted text | F8             | F8               |
  | List available snippets               | Ctrl+J         | Ctrl+Alt+J       |

> <!-- CAN'T EXTRACT SEE https://github.com/rust-lang/mdBook/issues/1127 because
> the output of this listing is not the output of the program when it runs -->
> Note that the entire instance must be mutable; Rust doesn't allow us to mark
> only certain fields as mutable.

:::tip Prefer a video course?

<div style={{position:"relative",paddingTop:"56.25%"}}>
  <iframe
    src="https://app.egghead.io/lessons/redux-course-introduction-and-application-walk-through-for-rtk-query-basics/embed?af=7pnhj6"
    title="RTK Query Video course at Egghead: Course Introduction and Application Walk through for RTK Query Basics"
    allowfullscreen
  ></iframe>
</div>

:::
"""


def test_html_blocks_and_tables_nested_in_containers_are_cut_where_their_pieces_render_as_they_do() -> None:
    # a piece starting inside a nested HTML block read as text or indented code, one starting
    # inside a nested table's row as a paragraph: no piece starts there (a table too large is one
    # overflow piece; a piece starting at a body row re-opens the header rows)
    assert _findings(NESTED_LEAVES) == []
    lines = NESTED_LEAVES.split("\n")
    for m in BUDGETS:
        for chunk in _run(NESTED_LEAVES, m).chunks:
            line = lines[chunk.start_line - 1]
            line_start = NESTED_LEAVES.rfind("\n", 0, chunk.start_offset) + 1
            text_start = line_start + len(line) - len(line.lstrip(" >"))
            assert "|" not in line or chunk.start_offset in (line_start, text_start), (m, line)
            assert not line.lstrip(" >").startswith(("src=", "title=", "allowfullscreen", "the output")), (m, line)


CONTAINER_HASH_LINE = """# Quick start

:::warning Примечание при использовании в production
На данный момент в примерах используется сборка Vue для разработки. Если вы собираетесь использовать Vue без этапа
сборки в production, обязательно ознакомьтесь с [руководством по развертыванию](/guide/best-practices/production-deployment
#without-build-tools).
:::
"""


def test_a_line_starting_with_a_hash_but_no_heading_leaves_a_container_open() -> None:
    # "#without-build-tools" is text: a container it follows is still a container (the check read
    # a piece starting there as a paragraph outside it)
    line = next(k for k, t in enumerate(CONTAINER_HASH_LINE.split("\n")) if t.startswith("#without"))
    assert _path(CONTAINER_HASH_LINE, line)[0] == "container_block"
    assert _findings(CONTAINER_HASH_LINE) == []


ITEM_IN_DEFINITION = """# Anlage

§ 3 Geltungsbereich
:   1. Diese Verordnung gilt für Kraftfahrzeuge und ihre Anhänger, die auf öffentlichen Straßen in Betrieb gesetzt werden sollen,
    soweit nicht die Straßenverkehrs-Zulassungs-Ordnung etwas anderes bestimmt
    oder eine Ausnahme genehmigt ist.
"""


def test_an_item_opened_on_a_definitions_first_line_reopens_with_the_term() -> None:
    assert _findings(ITEM_IN_DEFINITION) == []


TERM_SHAPED_LINE = """# Verordnung

Stand: Die V tritt gem. § 19 Abs. 1 idF d. Art. 1 Nr. 8 V v. 12.11.2021 BAnz AT 12.11.2021 V1 u. d. Art. 2 Nr. 9 V v. 16.12.2021 BAnz AT 17.12.2021 V1 am 31.3.2022 außer Kraft
Zuletzt geändert durch
:   Art. 1 V v. 11.2.2022 BAnz AT 11.02.2022 V1
"""


def test_no_piece_starts_on_a_paragraph_line_that_a_definition_marker_follows() -> None:
    # the three lines are one paragraph (a term is one line): a piece starting on "Zuletzt
    # geändert durch" made it a term and ":   Art. 1" its definition
    line_start = TERM_SHAPED_LINE.index("Zuletzt")
    line_end = TERM_SHAPED_LINE.index("\n", line_start)
    for m in BUDGETS:
        for chunk in _run(TERM_SHAPED_LINE, m).chunks:
            assert not line_start <= chunk.start_offset <= line_end, (m, chunk.content_original[:40])
    assert not rendering_rules.opens_no_block("Zuletzt geändert durch\n:   Art. 1 V")
    assert rendering_rules.opens_no_block("Zuletzt geändert durch\nArt. 1 V")


# Found by tests/test_properties.py (hypothesis, not derandomized) at max_chars 40: a table's lines after
# a nested item's paragraph continue it lazily (a table cannot start on a lazy line), so they are text.
LAZY_DELIMITER_ROW = (
    "  * § 3 a_b 1. 1. Gamma.\n    * § 3 Gamma. alpha [link](u) число\n"
    "| h0 | h1 | h2 |\n|:-:|--:|:-:|\n|  | Gamma. a_b 1. |  |\n"
)


def test_a_lazy_delimiter_row_in_a_nested_item_is_cut_before_its_line_not_inside_it() -> None:
    # Its one "word" of marks was joined to the words around it, so no word cut was left near it and
    # it was hard-cut inside: '|:' and then '-' alone in a chunk, an empty list item.
    cfg = ChunkerConfig(max_chars=40, target_chars=1, min_chars=1, strategy="recursive", section_level=1)
    result = chunk_markdown(LAZY_DELIMITER_ROW, cfg, "doc", "doc.md")
    assert [d.message for d in result.diagnostics.diagnostics if d.code == "rendering-changed"] == []
    row = LAZY_DELIMITER_ROW.index("|:-:|")
    assert row in {c.start_offset for c in result.chunks}
    assert not [c for c in result.chunks if row < c.start_offset < row + len("|:-:|--:|:-:|")]


LONG_LAZY_ROW = "- alpha\n|:--|:--|--|---|:--|--:|--|--|:--|--:|---|:--|:--|--|-|--|-|--|:--|:--|--|--|--:|\n"


def test_no_piece_of_a_line_cut_inside_is_alone_a_marker_or_a_rule() -> None:
    # A line of marks longer than the budget is hard-cut; a piece cut again for what it re-opens ends
    # inside the line, and the part after its last cut ('---', '-') is a line of its own in its chunk:
    # a thematic break or an empty item, where the source has paragraph text.
    for m in range(40, 80):
        cfg = ChunkerConfig(max_chars=m, target_chars=m // 2, min_chars=1, context_prefix="none")
        result = chunk_markdown(LONG_LAZY_ROW, cfg, "doc", "doc.md")
        assert [d.message for d in result.diagnostics.diagnostics if d.code == "rendering-changed"] == [], m
