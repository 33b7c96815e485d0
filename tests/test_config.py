"""Config values are checked against the declared types (Literals included), naming file and key."""

from __future__ import annotations

from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from chunker.config import STRATEGY_NAMES, ChunkerConfig, StrategyName
from chunker.errors import ConfigError
from chunker.settings import EvalSettings, Settings, load_settings, override_matches
from chunker.strategies import STRATEGIES


def load(tmp_path: Path, text: str) -> object:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return load_settings(path)


def test_one_list_of_strategy_names_and_every_name_has_its_function() -> None:
    assert STRATEGY_NAMES == get_args(StrategyName) == tuple(STRATEGIES)
    assert get_type_hints(ChunkerConfig)["strategy"] == StrategyName


@pytest.mark.parametrize(
    ("text", "where", "expected", "line"),
    [
        ("strategy: bogus\n", "strategy", "must be one of headings, recursive, faq, pages, off, got 'bogus'", 1),
        ("context_prefix: quote\n", "context_prefix", "must be one of breadcrumb, heading, blockquote, none", 1),
        ("size_unit: words\n", "size_unit", "must be one of chars, tokens, got 'words'", 1),
        ("section_level: top\n", "section_level", "must be an integer or 'auto', got 'top'", 1),
        ("atomic_types: [table, note]\n", "atomic_types", "each one of table, code, list, math, html", 1),
        ("atomic_types: table\n", "atomic_types", "must be a list of items", 1),
        ("skip_headings: [a, 3]\n", "skip_headings", "must be a list of strings, got 3", 1),
        ("max_chars: many\n", "max_chars", "max_chars: must be an integer, got 'many'", 1),
        ("merge_short: 1\n", "merge_short", "must be true or false, got 1", 1),
        ("documents:\n  faq:\n    strategy: qa\n", "documents.faq: strategy", "got 'qa'", 3),
        ("eval:\n  model: 5\n", "eval.model", "eval.model: must be a string or empty, got 5", 2),
        ("eval:\n  modle: x\n", "eval", "unknown eval option 'modle' (known: model)", 2),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_naming_file_and_key(
    tmp_path: Path, text: str, where: str, expected: str, line: int
) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'config.yaml'}:{line}: {where}"), message
    assert expected in message
    assert f"'{where.rsplit(' ', 1)[-1].rsplit('.', 1)[-1]}' must be" not in message  # the key is named once


def test_an_error_names_the_line_of_its_key_in_a_longer_file(tmp_path: Path) -> None:
    text = "# options\nmax_chars: 1200\n\ndocuments:\n  guide:\n    strategy: faq\n  notes:\n    min_chars: few\n"
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    assert str(info.value) == f"{tmp_path / 'config.yaml'}:8: documents.notes: min_chars: must be an integer, got 'few'"


def test_an_inherited_value_in_a_relation_error_names_the_line_of_the_value_it_clashes_with(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, "# budgets\nmax_chars: 100\n")
    # target_chars is not in the file: the line named is that of max_chars, which the error names too
    assert str(info.value).startswith(f"{tmp_path / 'config.yaml'}:2: 'target_chars': must lie between")
    assert "(target_chars is inherited: set it too)" in str(info.value)
    with pytest.raises(ConfigError) as info:
        load(tmp_path, "documents:\n  a:\n    max_chars: 60\n")
    assert str(info.value) == (
        f"{tmp_path / 'config.yaml'}:3: documents.a: 'min_chars': min_chars (80) is greater than max_chars (60) "
        "(min_chars is inherited: set it too)"
    )


def test_an_unknown_top_level_key_is_told_the_closest_option_or_section(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, "max_chars: 900\nincludes: ['*.md']\n")
    assert (
        str(info.value) == f"{tmp_path / 'config.yaml'}:2: unknown option 'includes' (did you mean include, exclude?)"
    )


def test_a_config_file_that_is_not_utf8_is_refused_naming_its_line(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_bytes(b"max_chars: 900\n# caf\xe9\n")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path / "config.yaml")
    assert str(info.value) == (
        f"{tmp_path / 'config.yaml'}:2: invalid UTF-8 byte 0xe9 (the config file must be UTF-8; re-save it as UTF-8)"
    )


def test_values_of_the_declared_types_are_taken() -> None:
    cfg = ChunkerConfig.from_mapping(
        {"strategy": False, "section_level": "auto", "atomic_types": ["code", "math"], "skip_headings": {"b", "a"}}
    )
    assert cfg.strategy == "off"  # YAML's unquoted off
    assert cfg.section_level == "auto"
    assert cfg.atomic_types == ("code", "math")
    assert cfg.skip_headings == ("a", "b")
    assert ChunkerConfig.from_mapping({"section_level": 4}).section_level == 4


def test_a_config_built_in_python_is_checked_against_its_literals_too() -> None:
    with pytest.raises(ConfigError, match="'strategy': must be one of"):
        ChunkerConfig(strategy="bogus")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="'atomic_types'"):
        ChunkerConfig(atomic_types=("table", "note"))  # type: ignore[arg-type]


def test_eval_settings_are_typed_fields(tmp_path: Path) -> None:
    settings = load(tmp_path, "eval:\n  model: models/e5\n")
    assert settings.eval == EvalSettings(model="models/e5")  # type: ignore[attr-defined]
    assert load(tmp_path, "max_chars: 1000\n").eval == EvalSettings()  # type: ignore[attr-defined]


def test_an_override_key_matches_its_stem_or_its_glob() -> None:
    assert override_matches("faq", "faq")
    assert override_matches("reg-*", "reg-1")
    assert not override_matches("reg-*", "faq")
    assert not override_matches("[", "x")


@pytest.mark.parametrize(
    ("text", "key", "line", "first"),
    [
        ("max_chars: 1000\nmin_chars: 50\nmax_chars: 1300\n", "max_chars", 3, 1),
        ("documents:\n  a:\n    strategy: faq\n  a:\n    strategy: recursive\n", "documents.a", 4, 2),
        ("documents:\n  a:\n    strategy: faq\n    strategy: recursive\n", "documents.a.strategy", 4, 3),
        ("{max_chars: 1000, 'max_chars': 900}\n", "max_chars", 1, 1),
        ("eval:\n  model: a\n  model: b\n", "eval.model", 3, 2),
    ],
)
def test_a_key_given_twice_is_refused_naming_file_line_and_key(
    tmp_path: Path, text: str, key: str, line: int, first: int
) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    assert str(info.value) == (
        f"{tmp_path / 'config.yaml'}:{line}: duplicate key '{key}' (first at line {first}); "
        "YAML keeps only the last value"
    )
    assert info.value.exit_code == 2


def test_merge_keys_and_the_same_key_in_two_mappings_are_no_duplicates(tmp_path: Path) -> None:
    text = "documents:\n  a: &o\n    max_chars: 900\n  b:\n    <<: *o\n    max_chars: 1000\n"
    settings = load(tmp_path, text)
    assert [dict(o) for _, o in settings.documents] == [{"max_chars": 900}, {"max_chars": 1000}]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "where", "expected", "line"),
    [
        ("documents: {'*': null}\n", "documents.*", "no options (nothing under the key)", 1),
        # options indented one level too little: YAML reads them as keys of their own
        ("max_chars: 900\ndocuments:\n  guide:\n  notes:\n    strategy: faq\n", "documents.guide", "no options", 3),
        ("documents:\n  guide: {}\n", "documents.guide", "no options (got {})", 2),
        ("documents:\n  guide: []\n", "documents.guide", "no options (got [])", 2),
        ("documents:\n  guide: ''\n", "documents.guide", "no options (got '')", 2),
        ("documents:\n  guide: off\n", "documents.guide", "write 'strategy: off' indented below the key", 2),
        ("documents:\n  guide: 0\n", "documents.guide", "options must be a mapping of key: value, got int", 2),
        ("documents: []\n", "documents", "must map a document id or glob to options, got []", 1),
        ("max_chars: 900\ndocuments: false\n", "documents", "must map a document id or glob to options, got False", 2),
        ("documents: ''\n", "documents", "got ''", 1),
    ],
)
def test_a_documents_entry_without_options_or_of_the_wrong_type_is_refused_naming_file_line_and_key(
    tmp_path: Path, text: str, where: str, expected: str, line: int
) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'config.yaml'}:{line}: {where}: "), message
    assert expected in message


def test_empty_sections_of_the_config_file_mean_none_as_documented(tmp_path: Path) -> None:
    settings = load(tmp_path, "documents:\ninclude:\neval:\n")
    assert isinstance(settings, Settings)
    assert settings.documents == () and settings.include == () and settings.eval == EvalSettings()
    assert settings.exclude == ("node_modules",)  # not given: the default
    settings = load(tmp_path, "exclude:\n")
    assert isinstance(settings, Settings) and settings.exclude == ()  # given empty: nothing excluded


def test_a_documents_entry_without_options_fails_the_command_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chunker.cli import run_cli

    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "guide.md").write_text("# Guide\n\nText.\n", encoding="utf-8")
    config = tmp_path / "c.yaml"
    config.write_text("documents:\n  '*':\n", encoding="utf-8")
    argv = ["--sources", str(tmp_path / "sources"), "--out", str(tmp_path / "chunks"), "--config", str(config)]
    assert run_cli(argv) == 2
    assert f"{config}:2: documents.*: no options" in " ".join(capsys.readouterr().err.split())
    assert not (tmp_path / "chunks").exists()


@pytest.mark.parametrize(
    ("text", "where", "line"),
    [
        ("excluded_block_prefixes: ['TODO:', '']\n", "'excluded_block_prefixes'", 1),
        ("skip_headings:\n  - indice\n  - '  '\n", "'skip_headings'", 3),
        (
            "documents:\n  notes:\n    excluded_section_headings: ['']\n",
            "documents.notes: 'excluded_section_headings'",
            3,
        ),
        ("embedding_drop_lines:\n  - 'Seite \\d+'\n  - ''\n", "'embedding_drop_lines'", 3),
    ],
)
def test_an_empty_item_in_a_list_of_headings_prefixes_or_patterns_is_refused_naming_its_line(
    tmp_path: Path, text: str, where: str, line: int
) -> None:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'config.yaml'}:{line}: {where}"), message
    assert "is empty and matches nothing; remove it" in message
