"""Heading text and the skip lists answer as without their pre-tests: a heading's plain text skips the
heading-id pattern when it holds no ``{`` and the inline parse when it holds no markup character; the
skip lists normalise only a heading whose case-folded text holds one of their entries."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.inline import (
    _ATTRIBUTE_LIST,
    _BRACKET_ID,
    _EDGE_INVISIBLE,
    _HEADING_ID,
    _HTML_COMMENT,
    _KEPT,
    _KEPT_BACK,
    _TEMPLATE_TAG,
    MAX_HEADING_CHARS,
    _collect,
    _inline_parser,
    _references,
    heading_text,
    shown_wikilinks,
)
from chunker.strategies.headings import _skip_options, _skipped, normalise_heading


def every_pattern(raw: str) -> str:
    """heading_text with every pattern applied and every markup test made by ``in``."""
    raw = _HEADING_ID.sub("", _BRACKET_ID.sub("", raw[:MAX_HEADING_CHARS]))
    kept: list[str] = []
    tags_only: list[str] = []
    if "{" in raw:

        def tag(match: re.Match[str]) -> str:
            if match.group(1) is None or "\ue000" in raw:
                if not match.group().startswith("{#"):
                    tags_only.append(match.group())
                return " "
            kept.append(match.group(1))
            return _KEPT.format(len(kept) - 1)

        raw = _ATTRIBUTE_LIST.sub(" ", _TEMPLATE_TAG.sub(tag, raw))
    raw = shown_wikilinks(raw)
    comments = " ".join(m.group(1) for m in _HTML_COMMENT.finditer(raw))
    raw = _HTML_COMMENT.sub(" ", raw)
    if not any(c in raw for c in "*_`[]!<&\\$"):
        text = raw
    else:
        out: list[str] = []
        env = _references(raw, frozenset()) if "]" in raw else {}  # '[a][]' is a link whatever is defined
        _collect(_inline_parser().parseInline(raw, env), out)
        text = "".join(out)
    if kept:
        text = _KEPT_BACK.sub(lambda m: kept[int(m.group(1))], text)
    if comments and not text.strip():
        text = comments
    elif tags_only and not text.strip():
        text = " ".join(tags_only)
    return " ".join(text.split()).strip(_EDGE_INVISIBLE + " ")


HEADING_PIECES = [
    "a", "Title", " ", "\t", "\u00a0", "{#id}", "{/* c */}", "{", "}", "#", "{{ x }}", "{% t %}", "{{< s >}}",
    "{: .x}", "{ data-x }", "<!--", "-->", "*", "_", "`", "[", "]", "(x)", "!", "<b>", "&amp;", "\\", "$", "\ue000",
    "é", "{% data x %}", "{# c #}", "{{% h \"x\" %}}", "[[", "]]", "|", "\u200b", "\ufeff",
]  # fmt: skip


@given(st.lists(st.sampled_from(HEADING_PIECES), max_size=14).map("".join))
def test_heading_text_is_that_of_every_pattern(raw: str) -> None:
    assert heading_text(raw) == every_pattern(raw)


def test_heading_ids_and_markup_are_still_removed() -> None:
    assert heading_text("Setup {#setup}") == "Setup"
    assert heading_text("**Bold** and `code`") == "Bold and code"
    assert heading_text("Plain words") == "Plain words"


SKIP_PIECES = [
    "indice", "Indice", "INDICE", "sommario", "Sommario", "bibliografia", "2.", "IV", " ", ":", "-", "–", "§",
    "(", ")", "_", "!", "ß", "Straße", "SS", "e\u0301", "é", "İ", "ﬁ", "ndice", "a",
]  # fmt: skip

SKIP_LISTS = st.one_of(
    st.just(_skip_options(ChunkerConfig())),
    st.lists(st.lists(st.sampled_from(SKIP_PIECES), max_size=4).map("".join), max_size=4).map(
        lambda entries: {normalise_heading(e): "skip_headings" for e in entries}
    ),
)


@given(SKIP_LISTS, st.lists(st.sampled_from(SKIP_PIECES), max_size=8).map("".join))
def test_a_heading_is_skipped_as_its_normalised_text_says(skip: dict[str, str], text: str) -> None:
    assert _skipped(skip, text) == skip.get(normalise_heading(text))


def test_the_default_skip_list_still_finds_its_headings() -> None:
    skip = _skip_options(ChunkerConfig())
    assert _skipped(skip, "2. Sommario:") == "skip_headings"
    assert _skipped(skip, "Bibliografia") == "skip_headings"
    assert _skipped(skip, "Introduzione") is None
    assert _skipped({}, "Sommario") is None
