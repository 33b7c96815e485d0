"""Sizes in characters or tokens: the packer, the validator and meta.json use the same unit."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from chunker.config import ChunkerConfig
from chunker.core import build_artifacts
from chunker.errors import ConfigError
from chunker.pipeline import chunk_markdown
from chunker.sizes import count_words, make_counter, tokenizer_counter

TEXT = "# Handbuch\n\n" + "\n\n".join(
    f"## Teil {k}\n\n" + " ".join(f"Wort{k}_{i} steht hier, gefolgt von mehr Text." for i in range(60))
    for k in range(1, 5)
)


@pytest.fixture(autouse=True)
def fresh_tokenizers() -> Iterator[None]:
    tokenizer_counter.cache_clear()
    yield
    tokenizer_counter.cache_clear()


def test_the_whitespace_tokenizer_counts_words() -> None:
    assert count_words("  zwei Wörter\n\n") == 2
    assert count_words("") == 0
    counter = make_counter(ChunkerConfig(size_unit="tokens", tokenizer="whitespace"))
    assert counter("a b\tc\nd") == 4


def test_chars_stay_the_default_unit() -> None:
    counter = make_counter(ChunkerConfig())
    assert counter("a b c") == 5


def test_with_tokens_every_chunk_fits_the_budget_in_words_though_not_in_characters() -> None:
    cfg = ChunkerConfig(size_unit="tokens", tokenizer="whitespace", max_chars=120, target_chars=90, min_chars=20)
    result = chunk_markdown(TEXT, cfg, "h", "h")
    assert not result.diagnostics.errors
    assert len(result.chunks) >= 8
    for chunk in result.chunks:
        assert chunk.size == len(chunk.content_for_embedding.split())
        assert chunk.size <= 120
        assert chunk.to_dict()["size"] == chunk.size
    assert max(c.chars for c in result.chunks) > 120  # the same budget in characters would be exceeded
    assert max(c.size for c in result.chunks) > 60  # packed toward the target, not cut tiny


def test_in_chars_mode_size_equals_chars() -> None:
    result = chunk_markdown(TEXT, ChunkerConfig(), "h", "h")
    assert all(c.size == c.chars for c in result.chunks)


def test_meta_json_reports_the_size_unit() -> None:
    cfg = ChunkerConfig(size_unit="tokens")
    result = chunk_markdown(TEXT, cfg, "h", "h")
    meta = orjson.loads(build_artifacts(result, cfg, "0" * 64)["meta.json"])
    assert meta["size_unit"] == "tokens"


def test_a_missing_tokenizer_file_is_a_config_error() -> None:
    cfg = ChunkerConfig(size_unit="tokens", tokenizer="/nonexistent/tokenizer.json")
    with pytest.raises(ConfigError, match="tokenizer"):
        chunk_markdown(TEXT, cfg, "h", "h")


def test_a_missing_tokenizers_package_is_a_config_error_that_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text("{}", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "tokenizers", None)
    with pytest.raises(ConfigError, match="pip install tokenizers"):
        make_counter(ChunkerConfig(size_unit="tokens", tokenizer=str(path)))


def test_a_missing_tiktoken_package_is_a_config_error_that_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(ConfigError, match="pip install tiktoken"):
        make_counter(ChunkerConfig(size_unit="tokens", tokenizer="tiktoken:cl100k_base"))


def test_a_tokenizer_json_is_used_when_tokenizers_is_installed(tmp_path: Path) -> None:
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    tok = tokenizers.Tokenizer(WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    counter = make_counter(ChunkerConfig(size_unit="tokens", tokenizer=str(path)))
    assert counter("a b, c") == 4  # Whitespace splits punctuation off


@pytest.mark.parametrize(
    ("package", "tokenizer", "where"),
    [
        ("tiktoken", "tiktoken:cl100k_base", "config.yaml:2: tokenizer"),
        ("tokenizers", "TOKENIZER_FILE", "config.yaml:2: tokenizer"),
        ("tiktoken", "OVERRIDE", "config.yaml:4: documents.b*: tokenizer"),
    ],
)
def test_a_tokenizer_whose_package_is_missing_is_refused_once_when_the_config_is_read(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    package: str,
    tokenizer: str,
    where: str,
) -> None:
    from chunker.cli import run_cli

    (tmp_path / "sources").mkdir()
    for name in ("a", "b", "c"):
        (tmp_path / "sources" / f"{name}.md").write_text(f"# {name}\n\nText.\n", encoding="utf-8")
    (tmp_path / "tokenizer.json").write_text("{}", encoding="utf-8")
    if tokenizer == "OVERRIDE":
        config = "documents:\n  b*:\n    size_unit: tokens\n    tokenizer: tiktoken:cl100k_base\n"
    else:
        config = f"size_unit: tokens\ntokenizer: {tokenizer.replace('TOKENIZER_FILE', 'tokenizer.json')}\n"
    (tmp_path / "config.yaml").write_text(config, encoding="utf-8")
    monkeypatch.setitem(sys.modules, package, None)
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count(f"needs the {package} package") == 1, err  # not once per document
    assert err.startswith(f"error: {where}: tokenizer "), err
    assert not (tmp_path / "chunks").exists()  # refused before anything is chunked
