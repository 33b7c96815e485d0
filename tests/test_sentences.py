"""Cut positions for long prose: sentences (ru, de, it, en), words, hard cuts."""

from __future__ import annotations

import itertools
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.sentences import hard_cuts, sentence_cuts, word_cuts

SAMPLE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # (language, title, sentences with their trailing whitespace): text is "".join(sentences).
    ("en", "plain_ends", ("It works. ", "Does it? ", "Yes! ", "Good.")),
    ("en", "titles_and_names", ("Mr. Smith met Dr. Watson and Prof. Moriarty. ", "Mrs. Hudson was out.")),
    ("en", "initials", ("J. R. R. Tolkien wrote it. ", "Then he slept.")),
    ("en", "eg_ie_lowercase", ("Use a tool, e.g. cargo, or i.e. rustc. ", "Done.")),
    ("en", "etc_then_capital", ("We need apples, pears, etc. ", "The rest can wait.")),
    ("en", "etc_then_lowercase", ("Apples, pears, etc. are fruit. ", "Ok.")),
    ("en", "version_numbers", ("Rust 1.70.0 is out, with pi at 3.14 still. ", "Update now.")),
    ("en", "quoted_end", ('He said "stop." ', "She did.")),
    ("en", "bracketed_end", ("See the appendix (chapter 7.) ", "It has more.")),
    ("en", "ellipsis_and_interrobang", ("Wait... ", "What?! ", "Nothing… ", "Fine.")),
    ("en", "markdown_code_start", ("Run the build. ", "`cargo build` compiles it.")),
    ("en", "soft_line_break", ("The first line ends here.\n", "The second line starts here.")),
    ("en", "blank_line", ("a paragraph without a period\n\n", "another one")),
    ("de", "z_b_and_d_h", ("Das ist z. B. ein Test, d. h. ein Versuch. ", "Er klappt.")),
    ("de", "u_a_bzw_vgl", ("Gemeint sind u. a. Ärzte bzw. Apotheker, vgl. Nr. 5. ", "Übrigens gilt das.")),
    ("de", "paragraph_references", ("Es gilt § 12 Abs. 3 Satz 2. ", "Außerdem gilt Art. 5 GG.")),
    ("de", "ordinal_date", ("Am 3. Oktober 1990 kam die Einheit. ", "Das war am 12.02.2021 anders.")),
    ("de", "ca_and_capital", ("Es kostet ca. 20 Euro. ", "Öffnungszeiten sind flexibel.")),
    ("de", "german_quotes", ("Er rief: „Halt!“ ", "Dann ging er.")),
    ("de", "numbered_list_inline", ("Folgendes ist zu tun. ", "1. Antrag stellen. ", "2. Bescheid abwarten.")),
    ("ru", "plain", ("Это первое предложение. ", "Это второе! ", "А это третье?")),
    ("ru", "te_and_td", ("Языки, т. е. Rust и т. д. важны. ", "Всё ясно.")),
    ("ru", "initials", ("Книгу написала А. В. Кузнецова. ", "Её читают.")),
    ("ru", "year_and_street", ("В 1990 г. Москва изменилась, ул. Ленина тоже. ", "Стр. 5 об этом.")),
    ("ru", "guillemets", ("Он сказал: «Привет.» ", "«Пока», — ответили ему.")),
    ("ru", "sm_and_im", ("См. главу 5, театр им. Пушкина. ", "Дальше.")),
    ("it", "plain", ("Questo è il primo. ", "È vero? ", "Sì.")),
    ("it", "es_ecc", ("Alcuni componenti, es. Button, ecc. Sono utili. ", "Vediamo.")),
    ("it", "titles", ("Il dott. Rossi e il sig. Bianchi sono qui. ", "Entrate.")),
    ("it", "pag_and_art", ("Vedi pag. 12 e art. 3. ", "Fine.")),
    ("it", "capital_accent", ("La sintassi è semplice. ", "È anche potente.")),
)
"""Hand-checked splits; bench/sentences.py scores other splitters on the same cases."""


def _pieces(text: str, cuts: list[int]) -> list[str]:
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


def _assert_valid_cuts(text: str, cuts: list[int]) -> None:
    assert all(0 < k < len(text) for k in cuts)
    assert all(a < b for a, b in itertools.pairwise(cuts))
    assert "".join(_pieces(text, cuts)) == text


@pytest.mark.parametrize(
    ("language", "sentences"), [(c[0], c[2]) for c in SAMPLE], ids=[f"{c[0]}-{c[1]}" for c in SAMPLE]
)
def test_the_multilingual_sample_splits_where_a_reader_would(language: str, sentences: tuple[str, ...]) -> None:
    text = "".join(sentences)
    assert _pieces(text, sentence_cuts(text)) == list(sentences)


@pytest.mark.parametrize(
    "abbreviation",
    ["z. B.", "d. h.", "u. a.", "bzw.", "Nr.", "Abs.", "vgl.", "ca.", "Dr.", "Prof.", "Mr.", "Mrs.", "e.g.", "i.e.",
     "vs.", "т. е.", "т. д.", "т. п.", "и т. д.", "г.", "ул.", "д.", "им.", "стр.", "см.", "пр.", "es.", "ecc.",
     "pag.", "sig.", "dott.", "art.", "Art.", "St.", "DR.", "NR."],
)  # fmt: skip
def test_a_common_abbreviation_before_a_capital_does_not_end_a_sentence(abbreviation: str) -> None:
    text = f"Siehe {abbreviation} Müller und Ёлкин. Next one."
    assert _pieces(text, sentence_cuts(text)) == ["Siehe " + abbreviation + " Müller und Ёлкин. ", "Next one."]


def test_etc_ends_a_sentence_only_before_a_capital() -> None:
    assert sentence_cuts("apples etc. and more") == []
    assert _pieces("apples etc. The end", sentence_cuts("apples etc. The end")) == ["apples etc. ", "The end"]


@pytest.mark.parametrize("number", ["7.3.1", "3.14", "12.02.2021", "1.000.000", "v2.0"])
def test_dots_inside_numbers_are_not_sentence_ends(number: str) -> None:
    text = f"Value {number} Here and {number}x There"
    assert sentence_cuts(text) == []


def test_a_number_at_the_end_of_a_sentence_still_ends_it() -> None:
    text = "The version is 7.3.1. Upgrade soon."
    assert _pieces(text, sentence_cuts(text)) == ["The version is 7.3.1. ", "Upgrade soon."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('She said "yes." Then left.', ['She said "yes." ', "Then left."]),
        ("Он сказал «да.» Потом ушёл.", ["Он сказал «да.» ", "Потом ушёл."]),
        ("It ends (really.) Then more.", ["It ends (really.) ", "Then more."]),
        ("**Note.** Read this.", ["**Note.** ", "Read this."]),
        ("First. „Zweiter“ Satz.", ["First. ", "„Zweiter“ Satz."]),
        ("First. «Второе» тоже.", ["First. ", "«Второе» тоже."]),
        ("First. [Link](x) here.", ["First. ", "[Link](x) here."]),
        ("First. (Aside.) Then.", ["First. ", "(Aside.) ", "Then."]),
        ("Tail. - item two", ["Tail. ", "- item two"]),
    ],
)
def test_closing_and_opening_quotes_and_brackets_stay_with_their_sentence(text: str, expected: list[str]) -> None:
    assert _pieces(text, sentence_cuts(text)) == expected


def test_a_blank_line_is_always_a_cut_even_without_a_period() -> None:
    text = "one line\n\nzwei\n  \n  drei.\n\nvier"
    assert _pieces(text, sentence_cuts(text)) == ["one line\n\n", "zwei\n  \n  ", "drei.\n\n", "vier"]


def test_leading_and_trailing_whitespace_give_no_empty_piece() -> None:
    assert sentence_cuts("\n\nStart. End.\n\n") == [9]
    assert word_cuts("  a b  ") == [4]


def test_a_one_megabyte_paragraph_without_sentence_ends_falls_back_to_word_cuts() -> None:
    text = "слово Wort parola word " * 45_000
    assert len(text) > 1_000_000
    assert sentence_cuts(text) == []
    cuts = word_cuts(text)
    _assert_valid_cuts(text, cuts)
    assert len(cuts) == 4 * 45_000 - 1
    assert all(text[k - 1] == " " and text[k] != " " for k in cuts)


def test_x_dot_repeated_has_no_sentence_cut_and_no_word_cut() -> None:
    text = "x." * 500_000
    assert sentence_cuts(text) == []
    assert word_cuts(text) == []
    assert len(hard_cuts(text, 1000)) == 999


def test_word_cuts_start_every_word_after_whitespace_of_any_kind() -> None:
    text = "a\tb\n c\u00a0d"
    assert _pieces(text, word_cuts(text)) == ["a\t", "b\n ", "c\u00a0", "d"]


def _assert_hard_pieces(text: str, size: int) -> list[str]:
    cuts = hard_cuts(text, size)
    _assert_valid_cuts(text, cuts)
    pieces = _pieces(text, cuts)
    assert all(len(p) <= size for p in pieces)
    for piece in pieces:
        for line in piece.split("\n"):
            assert not line.startswith(("```", "~~~")), piece
    return pieces


@pytest.mark.parametrize("size", [7, 8, 9, 10, 13])
def test_hard_cuts_never_start_a_piece_with_a_fence_run(size: int) -> None:
    text = "ab```cd~~~~ef``````gh" * 20
    _assert_hard_pieces(text, size)


def test_hard_cuts_keep_combining_marks_and_zwj_sequences_whole() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    text = ("e\u0301" + family + "x\U0001f44d\U0001f3fd") * 50
    for size in range(6, 20):
        for k in hard_cuts(text, size):
            assert unicodedata.category(text[k])[0] != "M"
            assert "\u200d" not in (text[k - 1], text[k])
            assert not "\U0001f3fb" <= text[k] <= "\U0001f3ff"
        _assert_hard_pieces(text, size)


def test_hard_cuts_may_cut_inside_a_fence_run_if_no_piece_starts_with_three_of_it() -> None:
    text = "ab``````cd"
    cuts = hard_cuts(text, 5)
    assert _pieces(text, cuts) == ["ab```", "```cd"] or all(not p.startswith("```") for p in _pieces(text, cuts))
    _assert_hard_pieces(text, 5)


def test_hard_cuts_let_the_size_win_over_an_unbreakable_sequence_longer_than_it() -> None:
    text = "a" + "\u0301" * 30
    assert hard_cuts(text, 10) == [10, 20, 30]


def test_hard_cuts_of_short_text_is_empty_and_size_must_be_positive() -> None:
    assert hard_cuts("abc", 3) == []
    with pytest.raises(ValueError, match="size >= 1"):
        hard_cuts("abc", 0)


_ALPHABET = st.sampled_from([*'aZ .!?…»«"„“()[]`~\n\t\u0301\u200dÄёЁ1é*-#', "z. B.", "т. е.", "Dr.", "e.g."])


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=80))
def test_sentence_and_word_cuts_are_increasing_inside_the_text_and_lossless(parts: list[str]) -> None:
    text = "".join(parts)
    for cuts in (sentence_cuts(text), word_cuts(text)):
        _assert_valid_cuts(text, cuts)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=80), size=st.integers(min_value=1, max_value=20))
def test_hard_cuts_are_increasing_lossless_and_within_size(parts: list[str], size: int) -> None:
    text = "".join(parts)
    cuts = hard_cuts(text, size)
    _assert_valid_cuts(text, cuts)
    assert all(len(p) <= size for p in _pieces(text, cuts))


def _thinned(cuts: list[int], spacing: int) -> list[int]:
    kept: list[int] = []
    for k in cuts:
        if k - (kept[-1] if kept else 0) >= spacing:
            kept.append(k)
    return kept


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_ALPHABET, max_size=80), spacing=st.integers(min_value=1, max_value=12))
def test_cuts_with_a_spacing_are_those_at_least_that_far_after_the_previous_one_kept(
    parts: list[str], spacing: int
) -> None:
    text = "".join(parts)
    for cut, options in (
        (sentence_cuts, {}),
        (word_cuts, {}),
        (word_cuts, {"join_marks": True}),
    ):
        every = cut(text, **options)  # type: ignore[operator]
        spaced = cut(text, spacing=spacing, **options)  # type: ignore[operator]
        _assert_valid_cuts(text, spaced)
        assert spaced == _thinned(every, spacing)


def test_a_spacing_of_a_hundred_leaves_one_word_cut_per_hundred_characters() -> None:
    text = "word " * 2_000
    assert len(word_cuts(text)) == 1_999
    spaced = word_cuts(text, spacing=100)
    assert len(spaced) == 99
    assert all(b - a == 100 for a, b in itertools.pairwise([0, *spaced]))
