"""TOML (+++) and JSON ({ on line 1) frontmatter: metadata, never chunk text, same limits as YAML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _hostile import assert_contract, run_source
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.parse.frontmatter import detect_frontmatter
from chunker.pipeline import chunk_markdown
from chunker.plaintext import chunk_text
from chunker.text import compute_line_starts

BODY = "\n## Section\n\nZQXBODY text of the page.\n"


def chunked(text: str, cfg: ChunkerConfig | None = None) -> tuple[dict[str, object], str, list[tuple[str, str, int]]]:
    result = chunk_markdown(text, cfg or ChunkerConfig(), stem="doc", source_path="doc.md")
    joined = "\n".join(c.content_for_embedding for c in result.chunks)
    found = [(d.severity, d.code, d.line or 0) for d in result.diagnostics.diagnostics if "frontmatter" in d.code]
    return result.document_metadata, joined, found


def test_toml_frontmatter_goes_to_the_metadata_and_never_into_a_chunk() -> None:
    text = '+++\ntitle = "Archetypes"\ndraft = false\nweight = 3\n[params]\nicon = "x"\n+++\n' + BODY
    meta, joined, found = chunked(text)
    assert meta == {"title": "Archetypes", "draft": False, "weight": 3, "params": {"icon": "x"}}
    assert "+++" not in joined and "draft" not in joined and "ZQXBODY" in joined
    assert found == []


def test_json_frontmatter_in_hugo_style_goes_to_the_metadata() -> None:
    text = '{\n  "title": "JSON page",\n  "tags": ["a", "b"],\n  "nested": {\n    "k": 1\n  }\n}\n' + BODY
    meta, joined, found = chunked(text)
    assert meta == {"title": "JSON page", "tags": ["a", "b"], "nested": {"k": 1}}
    assert "tags" not in joined and '"title"' not in joined and "ZQXBODY" in joined
    assert found == []


def test_a_one_line_json_object_is_frontmatter() -> None:
    meta, joined, _ = chunked('{ "title": "One line" }\n' + BODY)
    assert meta == {"title": "One line"} and "One line" not in joined.split("\n", 1)[1]


@pytest.mark.parametrize(
    "text",
    [
        "{{< note >}}\nA Hugo shortcode, not JSON.\n{{< /note >}}\n",
        "{/* an MDX comment */}\n\n# Title\n",
        "{#anchor}\n\nText\n",
        "++++\nnot toml\n++++\n",
        " +++\nindented\n+++\n",
    ],
)
def test_lines_that_only_look_like_a_fence_are_not_frontmatter(text: str) -> None:
    starts = compute_line_starts(text)
    assert detect_frontmatter(text, starts) is None
    meta, joined, _ = chunked(text)
    assert meta == {} and joined.replace(" ", "").count("\n") >= 0
    assert text.split("\n")[0].strip() in joined


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('+++\ntitle = "ok"\ntitle2 = "unterminated\n+++\n' + BODY, 3),
        ('+++\ntitle = "a"\ntitle = "b"\n+++\n' + BODY, 3),
        ("+++\n[a]\nx = 1\n[a]\ny = 2\n+++\n" + BODY, 4),
        ('{\n  "title": "x",\n  "bad": ,\n}\n' + BODY, 3),
        ('{\n  "title": "x",\n}\n' + BODY, 3),
        ('{\n  "n": ' + "7" * 5000 + "\n}\n" + BODY, 1),
        ('{\n  "title": "\\ud800"\n}\n' + BODY, 1),
    ],
)
def test_malformed_toml_or_json_is_an_error_naming_its_line_and_the_block_never_reaches_a_chunk(
    text: str, line: int
) -> None:
    meta, joined, found = chunked(text)
    assert meta == {}
    assert [(s, line_) for s, code, line_ in found if code == "frontmatter-invalid"] == [("error", line)]
    assert "ZQXBODY" in joined and "title" not in joined and "+++" not in joined


def test_under_the_lenient_policy_malformed_toml_is_a_warning() -> None:
    _, _, found = chunked('+++\nx = "\n+++\n' + BODY, ChunkerConfig(fail_on_bad_frontmatter=False))
    assert found == [("warning", "frontmatter-invalid", 2)]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("+++\nk = '" + "v" * 70_000 + "'\n+++\n" + BODY, "frontmatter-too-large"),
        ('{\n  "k": "' + "v" * 70_000 + '"\n}\n' + BODY, "frontmatter-too-large"),
        ("+++\nk = " + "[" * 100 + "]" * 100 + "\n+++\n" + BODY, "frontmatter-too-deep"),
        ('{\n  "k": ' + "[" * 100 + "]" * 100 + "\n}\n" + BODY, "frontmatter-too-deep"),
        ('{\n  "k": ' + "[" * 20_000 + "]" * 20_000 + "\n}\n" + BODY, "frontmatter-too-deep"),
        ("+++\nk = [" + ", ".join(["1"] * 11_000) + "]\n+++\n" + BODY, "frontmatter-too-large"),
    ],
)
def test_toml_and_json_keep_the_yaml_limits(text: str, code: str) -> None:
    meta, joined, found = chunked(text)
    assert meta == {}
    assert [c for _, c, _ in found] == [code]
    assert "ZQXBODY" in joined and "vvvv" not in joined and "[[[" not in joined


def test_dates_nan_and_duplicate_json_keys_are_converted_or_reported() -> None:
    meta, _, found = chunked("+++\nd = 2024-01-02\nt = 2024-01-02T03:04:05Z\nf = nan\n+++\n" + BODY)
    assert meta == {"d": "2024-01-02", "t": "2024-01-02T03:04:05+00:00", "f": "nan"}
    assert found == [("info", "frontmatter-converted", 2)]
    meta, _, found = chunked('{\n  "a": 1,\n  "a": 2,\n  "n": NaN\n}\n' + BODY)
    assert meta == {"a": 2, "n": "nan"}
    assert {c for _, c, _ in found} == {"frontmatter-duplicate-key", "frontmatter-converted"}


@pytest.mark.parametrize("opener", ["+++", "{"])
def test_an_unclosed_toml_or_json_block_is_kept_as_body_with_a_warning(opener: str) -> None:
    text = f'{opener}\n"title" = "x"\n\nno closing line ZQXBODY\n'
    meta, joined, found = chunked(text)
    assert meta == {} and "ZQXBODY" in joined and opener in joined
    assert found == [("warning", "frontmatter-unclosed", 1)]


@pytest.mark.parametrize("text", ['\n+++\ntitle = "Apollo"\n+++\n', '\n\n{\n  "title": "Apollo"\n}\n'])
def test_blank_lines_before_a_toml_or_json_block_are_allowed_as_zola_and_hugo_do(text: str) -> None:
    meta, joined, found = chunked(text + BODY)
    assert meta == {"title": "Apollo"} and found == []
    assert "+++" not in joined and '"title"' not in joined


def test_blank_lines_before_yaml_are_allowed_as_hugo_does() -> None:
    # kubernetes/website: 4 blog posts open with a blank line; read as a rule and a setext heading, their
    # metadata was the first chunks' section ('layout: blog title: "Announcing etcd 3.4" date: ...')
    text = '\n\n---\nlayout: blog\ntitle: "Announcing etcd 3.4"\nslug: etcd\n---\n' + BODY
    meta, joined, found = chunked(text)
    assert meta == {"layout": "blog", "title": "Announcing etcd 3.4", "slug": "etcd"} and found == []
    assert "layout" not in joined and "---" not in joined
    assert joined.startswith("Announcing etcd 3.4\n\n## Section")


def test_an_indented_opener_on_line_1_is_read_as_hugo_reads_it() -> None:
    # kubernetes/website ru/docs/tutorials/_index.md opens with '    ---': indented code and a setext heading
    # of the metadata in CommonMark, the page's frontmatter on the site
    meta, joined, found = chunked("    ---\ntitle: Руководства\nweight: 60\n---\n" + BODY)
    assert meta == {"title": "Руководства", "weight": 60} and found == []
    assert joined.startswith("Руководства\n\n## Section") and "weight" not in joined
    meta, joined, found = chunked("    ---\n\n    code, then a rule\n---\n" + BODY)
    assert meta == {} and found == [] and "    code, then a rule" in joined


@pytest.mark.parametrize(
    "text",
    ["\n---\n\nA rule, then prose.\n\n---\n", "\n---\n- a list\n- of items\n---\n", "\n---\nnever: closed\n"],
)
def test_after_blank_lines_a_dashes_line_is_frontmatter_only_when_closed_over_a_mapping(text: str) -> None:
    meta, joined, found = chunked(text + BODY)
    assert meta == {} and found == []
    assert joined.count("---") == text.count("---") and "ZQXBODY" in joined


def test_after_blank_lines_invalid_yaml_is_body_text_without_an_error() -> None:
    meta, joined, found = chunked('\n---\ntitle: "open\n---\n' + BODY)
    assert meta == {} and found == [] and 'title: "open' in joined


def test_a_malformed_block_after_blank_lines_names_its_own_line() -> None:
    _, _, found = chunked('\n\n+++\nok = 1\nbad = "\n+++\n' + BODY)
    assert found == [("error", "frontmatter-invalid", 5)]


def test_plain_text_sources_read_toml_frontmatter_too() -> None:
    result = chunk_text('+++\ntitle = "Notes"\n+++\nZQXBODY plain text.\n', ChunkerConfig(), "notes", "notes.txt")
    assert result.document_metadata == {"title": "Notes"}
    assert all("+++" not in c.content_original for c in result.chunks)


def test_the_toml_title_is_the_document_title() -> None:
    from chunker.pipeline import document_title

    meta, _, _ = chunked('+++\ntitle = "Umbraco"\n+++\n' + BODY)
    assert document_title(meta, "doc") == "Umbraco"


def test_the_cli_fails_a_malformed_toml_block_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run_source(tmp_path, ('+++\ntitle = "ok"\nbroken = \n+++\n' + BODY).encode(), capsys, monkeypatch)
    assert_contract(out, "any", line="3")
    assert out.code == 1 and "sources/doc.md:3" in out.stderr and "TOML" in out.stderr
    assert "ZQXBODY" in out.chunk_text() and "broken" not in out.chunk_text()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=10), json_values, min_size=1, max_size=6))
def test_any_json_object_on_top_is_metadata_and_none_of_its_text_is_chunked(data: dict[str, object]) -> None:
    block = json.dumps(data, indent=2, ensure_ascii=True)
    meta, joined, found = chunked(block + "\n" + BODY)
    assert found == [] and meta == data
    assert joined.count("ZQXBODY") == 1 and block not in joined
