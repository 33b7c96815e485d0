"""The frontmatter loader against the measured traps of the bad-input suite (fm_*.md, in tests/data/badinput)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunker import frontmatter_loaders
from chunker.config import ChunkerConfig
from chunker.frontmatter import FrontmatterResult, load_frontmatter
from chunker.parse import PIECE_CHARS, BlockTokens, read_document
from chunker.policy import judge

CFG = ChunkerConfig()
LENIENT = ChunkerConfig(fail_on_bad_frontmatter=False)
FM_FILES = (
    "fm_billion_laughs.md",
    "fm_deep_nesting_1000.md",
    "fm_duplicate_keys.md",
    "fm_list_root.md",
    "fm_malformed_flow.md",
    "fm_non_json_types.md",
    "fm_python_tag.md",
    "fm_self_alias.md",
    "fm_thematic_break_start.md",
)


@pytest.fixture
def badinput() -> Path:
    return Path(__file__).resolve().parent / "data" / "badinput"


def yaml_of(path: Path) -> str:
    """The text between the opening ``---`` and the next ``---`` line (its first line is file line 2)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == "---", f"{path.name} does not start with ---"
    end = lines.index("---", 1)
    return "\n".join(lines[1:end])


def load(badinput: Path, name: str, cfg: ChunkerConfig = CFG) -> FrontmatterResult:
    return load_frontmatter(yaml_of(badinput / name), 2, cfg)


def only(result: FrontmatterResult) -> Any:
    assert len(result.diagnostics) == 1, result.diagnostics
    return result.diagnostics[0]


def assert_removed(result: FrontmatterResult, code: str, severity: str = "error") -> None:
    """The block is removed with one finding ``code``, which the policy makes an error under
    ``fail_on_bad_frontmatter`` (the default) and a warning without it."""
    diag = only(result)
    assert diag.code == code
    assert judge(result.diagnostics, CFG)[0].severity == "error"
    assert judge(result.diagnostics, LENIENT)[0].severity == "warning"
    assert severity in ("error", "warning")
    assert result.metadata is None
    assert result.keep_as_body is False


def test_malformed_flow_sequence_is_an_error_naming_its_file_line(badinput: Path) -> None:
    result = load(badinput, "fm_malformed_flow.md")
    assert_removed(result, "frontmatter-invalid")
    diag = only(result)
    assert diag.line in (3, 4)
    assert "not valid YAML" in diag.message


def test_bad_frontmatter_is_a_warning_when_the_policy_does_not_fail(badinput: Path) -> None:
    assert_removed(load(badinput, "fm_malformed_flow.md", LENIENT), "frontmatter-invalid", "warning")
    assert_removed(load(badinput, "fm_billion_laughs.md", LENIENT), "frontmatter-aliases", "warning")


def test_diagnostic_lines_follow_the_first_line_of_the_block(badinput: Path) -> None:
    result = load_frontmatter(yaml_of(badinput / "fm_malformed_flow.md"), 12, CFG)
    assert only(result).line in (13, 14)


def test_oversize_frontmatter_is_refused_before_parsing() -> None:
    cfg = ChunkerConfig(max_frontmatter_bytes=1000)
    # Invalid YAML: reported as too large, not invalid, so it was never parsed.
    result = load_frontmatter("tags: [a, b\n" * 1000, 2, cfg)
    assert_removed(result, "frontmatter-too-large")
    assert only(result).line == 2
    assert "1000" in only(result).message


def test_frontmatter_size_is_counted_in_utf8_bytes() -> None:
    cfg = ChunkerConfig(max_frontmatter_bytes=1000)
    assert load_frontmatter("t: " + "a" * 990, 2, cfg).metadata == {"t": "a" * 990}
    assert_removed(load_frontmatter("t: " + "é" * 990, 2, cfg), "frontmatter-too-large")


def test_ten_megabytes_of_frontmatter_are_refused_without_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parsing(*args: object) -> None:
        raise AssertionError("the loader must not be built for oversize text")

    monkeypatch.setattr(frontmatter_loaders.Loader, "__init__", no_parsing)
    assert_removed(load_frontmatter("key: value\n" * 1_000_000, 2, CFG), "frontmatter-too-large")


def test_alias_bomb_is_refused_before_expansion(badinput: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    constructed: list[object] = []
    original = frontmatter_loaders.Loader.construct_object

    def counting(self: frontmatter_loaders.Loader, node: Any, deep: bool = False) -> Any:
        constructed.append(node)
        return original(self, node, deep)

    monkeypatch.setattr(frontmatter_loaders.Loader, "construct_object", counting)
    text = (badinput / "fm_billion_laughs.md").read_text(encoding="utf-8")
    yaml_text = text.split("---\n")[1]
    cfg = ChunkerConfig(max_frontmatter_nodes=100_000, max_frontmatter_bytes=10_000_000)  # the node cap decides
    result = load_frontmatter(yaml_text, 2, cfg)
    assert_removed(result, "frontmatter-aliases")
    assert constructed == []  # refused on the node graph: no Python object was built
    assert "max_frontmatter_nodes=100000" in only(result).message
    # l6 (file line 8) is the first anchor that expands past 100000 nodes (1 + 9 * 66430).
    assert only(result).line == 8
    assert only(load(badinput, "fm_billion_laughs.md")).line == 7  # l5 already passes the default 10000


def test_aliases_are_counted_expanded_against_the_node_limit() -> None:
    text = "base: &b [1, 2, 3]\nx: [*b, *b]\n"  # expanded: root, 2 keys, base 4, x 1 + 4 + 4 = 16 nodes
    assert load_frontmatter(text, 2, ChunkerConfig(max_frontmatter_nodes=16)).metadata == {
        "base": [1, 2, 3],
        "x": [[1, 2, 3], [1, 2, 3]],
    }
    assert_removed(load_frontmatter(text, 2, ChunkerConfig(max_frontmatter_nodes=15)), "frontmatter-aliases")


def test_self_referencing_alias_is_refused_as_a_cycle(badinput: Path) -> None:
    result = load(badinput, "fm_self_alias.md")
    assert_removed(result, "frontmatter-aliases")
    assert "cycle" in only(result).message
    assert only(result).line == 2


def test_nesting_1000_brackets_deep_is_refused_on_the_line_of_the_brackets(badinput: Path) -> None:
    result = load(badinput, "fm_deep_nesting_1000.md")
    assert_removed(result, "frontmatter-too-deep")
    assert only(result).line == 2


def test_nesting_past_the_python_recursion_limit_is_reported_not_raised() -> None:
    cfg = ChunkerConfig(max_frontmatter_depth=250)  # the highest depth a config may allow
    result = load_frontmatter("a: 1\nk: " + "[" * 700 + "]" * 700, 2, cfg)
    assert_removed(result, "frontmatter-too-deep")
    assert only(result).line == 3


def test_deep_block_indentation_is_refused_as_too_deep() -> None:
    text = "".join(" " * level + f"k{level}:\n" for level in range(100))
    assert_removed(load_frontmatter(text, 2, CFG), "frontmatter-too-deep")


def test_aliases_that_nest_past_the_depth_limit_are_refused() -> None:
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [[[*a{i - 1}]]]" for i in range(1, 8)]
    cfg = ChunkerConfig(max_frontmatter_depth=16)
    result = load_frontmatter("\n".join(lines), 2, cfg)
    assert_removed(result, "frontmatter-too-deep")
    assert "aliases" in only(result).message


def test_python_tag_is_refused_and_never_executed(
    badinput: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = load(badinput, "fm_python_tag.md")
    assert_removed(result, "frontmatter-invalid")
    assert only(result).line == 3
    assert "python/object/apply" in only(result).message
    assert not (tmp_path / "zqx_pwned_dir").exists()


def test_duplicate_key_keeps_the_last_value_with_a_warning(badinput: Path) -> None:
    result = load(badinput, "fm_duplicate_keys.md")
    assert result.metadata == {"title": "ZQXDUPKEY"}
    diag = only(result)
    assert (diag.code, diag.severity, diag.line) == ("frontmatter-duplicate-key", "warning", 3)
    assert "duplicate" in diag.message


def test_merge_key_overrides_are_not_duplicates() -> None:
    result = load_frontmatter("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  x: 3\n", 2, CFG)
    assert result == FrontmatterResult({"base": {"x": 1, "y": 2}, "other": {"x": 3, "y": 2}}, False, ())


def test_list_root_is_kept_as_body_text_with_a_warning(badinput: Path) -> None:
    result = load(badinput, "fm_list_root.md")
    diag = only(result)
    assert (result.metadata, result.keep_as_body) == (None, True)
    assert (diag.code, diag.severity, diag.line) == ("frontmatter-not-mapping", "warning", 2)
    assert "kept as body text" in diag.message


def test_thematic_break_intro_paragraph_is_kept_as_body_text(badinput: Path) -> None:
    result = load(badinput, "fm_thematic_break_start.md")
    assert (result.metadata, result.keep_as_body) == (None, True)
    assert only(result).code == "frontmatter-not-mapping"
    assert only(result).line == 3  # the intro line


def test_non_json_values_are_converted_so_orjson_can_serialise_them(badinput: Path) -> None:
    result = load(badinput, "fm_non_json_types.md")
    assert result.metadata == {
        "null": "null key",
        "1": "int key",
        "2024-01-02": "date key",
        "when": "2024-01-02T03:04:05+01:00",
        "blob": "aGVsbG8=",
        "set": ["a", "b"],
        "big": "1180591620717411303424",
        "nan": "nan",
    }
    assert orjson.loads(orjson.dumps(result.metadata)) == result.metadata
    diag = only(result)
    assert (diag.code, diag.severity, diag.line) == ("frontmatter-converted", "info", 2)
    for kind in ("date", "binary", "set", "64 bits", "nan"):
        assert kind in diag.message


def test_integers_keep_their_type_within_signed_64_bits() -> None:
    text = f"a: {2**63 - 1}\nb: {-(2**63)}\nc: {2**63}\nd: -.inf\ne: .inf\ntrue: t\n"
    assert load_frontmatter(text, 2, CFG).metadata == {
        "a": 2**63 - 1,
        "b": -(2**63),
        "c": str(2**63),
        "d": "-inf",
        "e": "inf",
        "true": "t",
    }


def test_ordinary_frontmatter_round_trips_in_file_order() -> None:
    text = (
        "title: Guide to Chunking\n"
        "tags: [rag, markdown]\n"
        "date: 2024-05-06\n"
        "author:\n"
        "  name: Ada\n"
        "  roles:\n"
        "    - editor\n"
        "    - reviewer\n"
        "draft: false\n"
        "weight: 1.5\n"
    )
    result = load_frontmatter(text, 2, CFG)
    expected = {
        "title": "Guide to Chunking",
        "tags": ["rag", "markdown"],
        "date": "2024-05-06",
        "author": {"name": "Ada", "roles": ["editor", "reviewer"]},
        "draft": False,
        "weight": 1.5,
    }
    assert result.metadata == expected
    assert list(result.metadata) == list(expected)
    assert orjson.loads(orjson.dumps(result.metadata)) == expected
    assert [d.code for d in result.diagnostics] == ["frontmatter-converted"]  # the date


@pytest.mark.parametrize("text", ["", "\n", "   \n", "~", "null", "# only a comment\n"])
def test_empty_or_null_frontmatter_gives_empty_metadata(text: str) -> None:
    assert load_frontmatter(text, 2, CFG) == FrontmatterResult({}, False, ())


def test_forbidden_characters_are_invalid_with_their_line() -> None:
    result = load_frontmatter("a: b\nc: \x00\n", 2, CFG)
    assert_removed(result, "frontmatter-invalid")
    assert only(result).line == 3


@pytest.mark.parametrize("name", FM_FILES)
def test_every_result_is_consistent_and_every_diagnostic_has_a_line(badinput: Path, name: str) -> None:
    for cfg in (CFG, LENIENT):
        result = load(badinput, name, cfg)
        if result.metadata is not None:
            orjson.dumps(result.metadata)
            assert not result.keep_as_body
        for diag in result.diagnostics:
            assert isinstance(diag.line, int) and diag.line >= 2, diag
            assert diag.code.startswith("frontmatter-")
            assert diag.message


def test_aliases_of_one_long_string_are_refused_past_the_byte_limit() -> None:
    yaml_text = 'a: &a "' + "x" * 60_000 + '"\nb: [' + ", ".join(["*a"] * 1000) + "]\n"
    result = load_frontmatter(yaml_text, 2, CFG)
    assert_removed(result, "frontmatter-aliases")
    assert "max_frontmatter_bytes" in only(result).message


@pytest.mark.parametrize(
    ("yaml_text", "line"),
    [
        ("title: ok\ndate: 2020-13-45\n", 3),
        ("x: !!float abc\n", 2),
        ("x: !!int abc\n", 2),
        ("a: 1\nx: !!timestamp garbage\n", 3),
        ("x: " + "9" * 5000 + "\n", 2),
        ("a: 1\nx: !!float\n", 3),  # an empty tagged value: IndexError in PyYAML (was exit 5)
        ("x: !!int\n", 2),
        ("!!float : x\n", 2),
        ("a: 1\nb: 2\nx: !!bool\n", 4),  # KeyError in PyYAML
        ("x: [1, !!int ]\n", 2),
    ],
)
def test_values_that_match_a_tag_but_cannot_be_built_are_refused_with_their_line(yaml_text: str, line: int) -> None:
    result = load_frontmatter(yaml_text, 2, CFG)
    assert_removed(result, "frontmatter-invalid")
    assert only(result).line == line


def test_an_integer_too_long_for_str_is_converted_without_error() -> None:
    result = load_frontmatter("x: " + ":".join(["59"] * 3000) + "\n", 2, CFG)
    assert result.metadata is not None and isinstance(result.metadata["x"], str)


@pytest.mark.parametrize(
    ("yaml_text", "line", "escape"),
    [
        ('title: "\\ud800"\n', 2, "\\ud800"),
        ('title: t\nmeta:\n  tags: [a, "b\\udfff"]\n', 4, "\\udfff"),
        ('title: t\n"key\\udc00": v\n', 3, "\\udc00"),
        ('a: &a "x\\ud800"\nb: [*a, *a]\n', 2, "\\ud800"),
        ('title: t\ntext: "one\\\n  two \\ud800"\n', 3, "\\ud800"),
    ],
)
def test_a_lone_surrogate_escape_in_a_value_or_key_is_refused_with_its_line(
    yaml_text: str, line: int, escape: str
) -> None:
    # PyYAML turns "\ud800" into a lone surrogate, which no JSON or UTF-8 writer takes (was exit 5).
    result = load_frontmatter(yaml_text, 2, CFG)
    assert_removed(result, "frontmatter-invalid")
    assert only(result).line == line
    assert escape in only(result).message and "surrogate" in only(result).message
    assert_removed(load_frontmatter(yaml_text, 2, LENIENT), "frontmatter-invalid", "warning")


def test_a_surrogate_pair_escape_is_refused_saying_which_escape_to_write_instead() -> None:
    result = load_frontmatter('title: "\\ud83d\\ude00"\n', 2, CFG)
    assert_removed(result, "frontmatter-invalid")
    assert "\\U0001f600" in only(result).message
    assert load_frontmatter('title: "\\U0001F600 \\u00e9"\n', 2, CFG).metadata == {"title": "\U0001f600 \u00e9"}


# -- libyaml fast path -----------------------------------------------------------

YAML_PIECES = ["title", "tags", ": ", ":", "\n", "  ", "- ", "[", "]", "{", "}", ", ", "a", "1", "2024-01-02",
               "&x ", "*x", "!!str ", "!!binary ", "'", '"', "#", "\t", "? ", "yes", "null", "~", "1e9", "<<: ",
               "é", "|\n  "]  # fmt: skip


def hardened(yaml_text: str, monkeypatch: pytest.MonkeyPatch) -> FrontmatterResult:
    with monkeypatch.context() as patched:
        patched.setattr(frontmatter_loaders, "CLoader", None)  # the pure-Python loader only
        return load_frontmatter(yaml_text, 2, CFG)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(YAML_PIECES), max_size=30).map("".join))
def test_the_libyaml_fast_path_never_changes_an_outcome(monkeypatch: pytest.MonkeyPatch, yaml_text: str) -> None:
    assert load_frontmatter(yaml_text, 2, CFG) == hardened(yaml_text, monkeypatch)


def test_a_plain_mapping_takes_the_fast_path_and_anything_else_the_hardened_loader() -> None:
    if frontmatter_loaders.CLoader is None:
        pytest.skip("PyYAML without libyaml")
    assert frontmatter_loaders.plain_mapping("title: Привет\ntags: [a, b]\ndate: x\n", CFG) == {
        "title": "Привет",
        "tags": ["a", "b"],
        "date": "x",
    }
    assert frontmatter_loaders.plain_mapping("a: 1\na: 2\n", CFG) is None  # a duplicate key: reported by the other
    assert frontmatter_loaders.plain_mapping("d: 2024-01-02\n", CFG) is None  # a date to convert: reported too
    assert frontmatter_loaders.plain_mapping("- a\n", CFG) is None  # not a mapping
    assert frontmatter_loaders.plain_mapping("[" * 2000, CFG) is None  # too many openers for libyaml's recursion


@pytest.mark.parametrize("piece_chars", [16, 120, PIECE_CHARS])
def test_the_frontmatter_closes_at_a_dash_line_at_column_0_also_when_parsed_in_pieces(piece_chars: int) -> None:
    # the '  ---' of the block scalar is inside the first piece of 120 characters, the closing '---' too;
    # with 16 characters the closing '---' is past the first piece
    yaml_text = "title: T\nnotes: |\n  a\n  ---\n  b\nend: e\n"
    text = "---\n" + yaml_text + "---\n" + "".join(f"# H{i}\n\ntext {i}\n\n" for i in range(40))
    doc = read_document(text, CFG)
    assert doc.metadata == yaml.safe_load(yaml_text)
    assert doc.body_start_line == yaml_text.count("\n") + 2
    pieces = list(BlockTokens(doc, CFG, piece_chars))
    assert len(pieces) > 1 or piece_chars == PIECE_CHARS
    assert [t for piece in pieces for t in piece] == [t for piece in BlockTokens(doc, CFG, None) for t in piece]


@pytest.mark.parametrize("text", ["---\ntitle: Guides\nweight: 2\n---\n", "+++\ntitle = 'Guides'\n+++\n\n\n"])
def test_a_page_of_frontmatter_only_is_an_info_entry_not_a_warning(text: str) -> None:
    # a site's section page (Hugo's _index.md, an index.md of only its title): no chunks, nothing wrong
    from chunker.pipeline import chunk_markdown

    result = chunk_markdown(text, ChunkerConfig(), "guides", "guides/_index.md")
    assert result.chunks == ()
    assert [(d.severity, d.code) for d in result.diagnostics.diagnostics] == [("info", "empty")]
    empty = chunk_markdown(" \n\n", ChunkerConfig(), "blank", "blank.md")  # no text at all stays a warning
    assert [(d.severity, d.code) for d in empty.diagnostics.diagnostics] == [("warning", "empty")]


def _chunked(text: str) -> tuple[list[str], dict[str, Any], list[str]]:
    from chunker.pipeline import chunk_markdown

    result = chunk_markdown(text, CFG, "task", "task.md")
    codes = [d.code for d in result.diagnostics.diagnostics]
    return [c.content_original for c in result.chunks], result.document_metadata, codes


def test_keys_closed_by_a_rule_without_an_opening_fence_are_metadata() -> None:
    # javascript.info's task pages: `importance: 5`, blank, `---`, then the page (no `---` on line 1)
    chunks, metadata, codes = _chunked("importance: 5\n\n---\n\n# Sort users\n\nWrite the function.\n")
    assert chunks == ["# Sort users\n\nWrite the function."]
    assert metadata == {"importance": 5}
    chunks, metadata, _ = _chunked("libs:\n  - lodash\n\n---\n\n# Currying\n\nText.\n")
    assert (chunks, metadata) == (["# Currying\n\nText."], {"libs": ["lodash"]})
    assert not [c for c in codes if c.startswith("frontmatter")]


@pytest.mark.parametrize(
    "text",
    [
        "Note: this is prose.\n\n---\n\nText.\n",  # not a lowercase key
        "status: draft\n---\n\nText.\n",  # a setext heading, not a block
        "importance: [open\n\n---\n\nText.\n",  # not YAML: the paragraph and the rule stay
        "see: the list below\nand more prose here\n\n---\n\nText.\n",  # a line of prose below the key
    ],
)
def test_prose_above_a_rule_is_not_taken_for_keys(text: str) -> None:
    chunks, metadata, codes = _chunked(text)
    assert metadata == {}
    assert "".join(chunks).replace("\n", "") == text.replace("\n", "")
    assert not [c for c in codes if c.startswith("frontmatter")]
