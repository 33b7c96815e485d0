"""Output and memory stay bounded on small hostile inputs; end_line is the line of a chunk's last
character; max_chunks_per_document is the last guard."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import chunker.pack as pack_module
from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def deep_quote(levels: int) -> str:
    return "# Quote\n\n" + "".join("> " * level + f"level {level}\n" for level in range(1, levels + 1))


def test_a_deep_quote_is_packed_from_a_few_units_per_line_not_one_per_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    text = deep_quote(400)  # 160 KB: 80,000 quote markers
    counts: list[int] = []
    real = pack_module.build_units

    def counting(space: object) -> object:
        units, notes = real(space)  # type: ignore[arg-type]
        counts.append(len(units))
        return units, notes

    monkeypatch.setattr(pack_module, "build_units", counting)
    result = chunk_markdown(text, ChunkerConfig(), "q", "q.md")
    assert sum(counts) <= 4 * text.count("\n")  # a few per line; was one per "> " (80,000)
    slices = "".join(text[c.start_offset : c.end_offset] for c in result.chunks)
    assert slices.count(">") == text.count(">")  # the markers a piece re-opens are declared added text
    added = sum(a.text.count(">") for c in result.chunks for a in c.added_lines)
    assert "".join(c.content_original for c in result.chunks).count(">") == text.count(">") + added
    assert max(c.chars for c in result.chunks) <= ChunkerConfig().max_chars


def _unit_counts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counts: list[int] = []
    real = pack_module.build_units

    def counting(space: object) -> object:
        units, notes = real(space)  # type: ignore[arg-type]
        counts.append(len(units))
        return units, notes

    monkeypatch.setattr(pack_module, "build_units", counting)
    return counts


_SMALL = {"max_chars": 200, "target_chars": 120, "min_chars": 20}


@pytest.mark.parametrize(("words", "coarse"), [(1_500, False), (8_000, True)], ids=["9KB", "48KB"])
def test_a_line_of_words_over_64_budgets_is_packed_from_units_of_an_eighth_of_a_budget(
    monkeypatch: pytest.MonkeyPatch, words: int, coarse: bool
) -> None:
    text = "lorem ipsum " * (words // 2)  # one paragraph, no sentence end: cut between words
    cfg = ChunkerConfig.from_mapping(_SMALL)
    counts = _unit_counts(monkeypatch)
    result = chunk_markdown(text, cfg, "w", "w.md")
    if coarse:  # was one unit per word (8,000)
        assert sum(counts) <= len(text) // (cfg.max_chars // 8 - 10)
    else:  # prose of normal length: a unit per word, as ever
        assert sum(counts) == words
    assert max(c.chars for c in result.chunks) <= cfg.max_chars
    assert all(text[c.start_offset : c.end_offset] == c.content_original for c in result.chunks)
    assert all(text[c.end_offset] == " " for c in result.chunks[:-1])  # cut between words
    assert "".join(c.content_original for c in result.chunks).replace(" ", "") == text.replace(" ", "")
    assert min(c.chars for c in result.chunks[:-1]) >= cfg.target_chars // 2


@pytest.mark.slow
def test_a_4_mb_deep_quote_peaks_under_10_times_its_size_plus_a_fixed_base(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    source = tmp_path / "sources" / "quote.md"
    source.write_text(deep_quote(2000), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunker", "--stem", "quote", "--quiet"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, err
    peak = usage.ru_maxrss * 1024
    size = source.stat().st_size
    assert peak <= 10 * size + 120 * 2**20, f"peak RSS {peak:,} for {size:,} bytes"  # was 500 MB


def _last_line(text: str, end: int) -> int:
    return text.count("\n", 0, end - 1) + 1


@pytest.mark.parametrize(
    "body",
    [
        "".join(f"{i}. " + "word " * 30 + "\n\n\n\n" for i in range(1, 40)),  # items apart by blank lines
        "~~~\n" + "".join(f"```\nline {i}\n```\n\n" for i in range(200)) + "~~~\n",  # code cut at blank lines
    ],
    ids=["loose-list", "code-with-blank-lines"],
)
def test_end_line_is_the_line_of_the_last_character_of_every_chunk(body: str) -> None:
    text = "# T\n\n## S\n\n" + body
    chunks = chunk_markdown(text, ChunkerConfig(), "t", "t.md").chunks
    assert len(chunks) > 2
    assert [c.end_line for c in chunks] == [_last_line(text, c.end_offset) for c in chunks]


def test_more_chunks_than_max_chunks_per_document_fail_the_document_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "many.md").write_text(
        "# M\n\n" + "".join(f"## S{i}\n\ntext {i}\n\n" for i in range(10)), encoding="utf-8"
    )
    (tmp_path / "config.yaml").write_text("max_chunks_per_document: 5\nmin_chars: 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--stem", "many", "--quiet"]) == 3
    err = capsys.readouterr().err
    assert "many.md" in err and "more than max_chunks_per_document (5)" in err
    assert not (tmp_path / "chunks" / "many" / "chunks.json").exists()
    (tmp_path / "config.yaml").write_text("max_chunks_per_document: 50\nmin_chars: 1\n", encoding="utf-8")
    assert run_cli(["--stem", "many", "--quiet"]) == 0


def test_ten_thousand_plain_frontmatter_keys_are_reported_as_too_many_nodes_not_as_aliases() -> None:
    text = "---\n" + "".join(f"k{i}: v\n" for i in range(10_000)) + "---\n# T\n\ntext\n"
    result = chunk_markdown(text, ChunkerConfig(max_frontmatter_bytes=10**6), "f", "f.md")
    found = [d for d in result.diagnostics.diagnostics if d.code.startswith("frontmatter-")]
    assert [d.code for d in found] == ["frontmatter-too-large"]
    assert "more than max_frontmatter_nodes=10000 nodes" in found[0].message
    assert "alias" not in found[0].message


def _unclosed_comment_document(sections: int) -> str:
    return "<!-- draft\n\n# Title\n\n" + "".join(f"## S{i}\n\nSome text of section {i}.\n\n" for i in range(sections))


@pytest.mark.parametrize("sections", [2_000, pytest.param(300_000, marks=pytest.mark.slow)], ids=["80KB", "12MB"])
def test_an_unclosed_html_comment_on_line_1_is_cut_like_text_with_a_warning(sections: int) -> None:
    text = _unclosed_comment_document(sections)
    result = chunk_markdown(text, ChunkerConfig(), "c", "c.md")
    assert max(c.chars for c in result.chunks) <= ChunkerConfig().max_chars  # was one chunk of the whole file
    assert len(result.chunks) > sections // 40
    found = [d for d in result.diagnostics.diagnostics if d.code == "unclosed-html-comment"]
    assert len(found) == 1 and found[0].line == 1
    assert not [d for d in result.diagnostics.diagnostics if d.severity == "error"]
