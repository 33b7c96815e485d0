"""The streamed pipeline (chunker/streamed.py, what a run writes with) gives the whole pipeline's
chunks.json and findings byte for byte, holding one section at a time."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunker.streamed as streamed_module
from chunker.config import ChunkerConfig
from chunker.core import chunk_source, chunks_bytes, streamed_parts
from chunker.models import Block
from chunker.pipeline import chunk_markdown
from chunker.runner_streamed import ContentHashes
from chunker.streamed import StreamedChunks, streamable

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _whole(text: str, cfg: ChunkerConfig, stem: str = "doc", path: str = "doc.md") -> tuple[bytes, bytes]:
    result = chunk_markdown(text, cfg, stem, path)
    return chunks_bytes(result), orjson.dumps(result.diagnostics.to_dict())


def _streamed(text: str, cfg: ChunkerConfig, stem: str = "doc", path: str = "doc.md") -> tuple[bytes, bytes]:
    stream = StreamedChunks(text, cfg, stem, path)
    data = b"".join(bytes(part) for part in streamed_parts(stream))
    return data, orjson.dumps(stream.result().diagnostics.to_dict())


_words = st.sampled_from(["alpha", "Beta", "§ 3", "1.2", "Art. 7", "Indice", "x", "Über", "`code`", "[link](a.md)"])
_heading_text = st.lists(_words, min_size=0, max_size=3).map(" ".join)


@st.composite
def _documents(draw: st.DrawFn) -> str:
    parts: list[str] = []
    if draw(st.booleans()):
        title = draw(st.sampled_from(["", "title: Front Title\n", "Title: 'Other'\n", "other: 1\n"]))
        parts.append(f"---\n{title}---\n")
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.integers(0, 9))
        if kind <= 3:
            parts.append("#" * draw(st.integers(1, 4)) + " " + draw(_heading_text))
        elif kind == 4:
            parts.append(draw(_heading_text) or "Setext" + "\n" + draw(st.sampled_from(["===", "---"])))
        elif kind == 5:
            parts.append("```\n# not a heading\n" + "code line\n" * draw(st.integers(0, 30)) + "```")
        elif kind == 6:
            parts.append("- item one\n- item two " + "word " * draw(st.integers(0, 60)))
        elif kind == 7:
            parts.append("| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * draw(st.integers(0, 20)))
        elif kind == 8:
            parts.append(draw(st.sampled_from(["::: note\ninside", "![img](pic.png)", "<div>\nhtml\n</div>", "##"])))
        else:
            parts.append("Sentence with words. " * draw(st.integers(1, 40)))
    return "\n\n".join(parts) + draw(st.sampled_from(["", "\n", "\n\n"]))


_configs = st.fixed_dictionaries(
    {
        "section_level": st.integers(1, 4),
        "max_chars": st.sampled_from([120, 300, 1500]),
        "context_prefix": st.sampled_from(["breadcrumb", "blockquote", "heading", "none"]),
        "overlap_sentences": st.integers(0, 1),
        "skip_headings": st.sampled_from([[], ["Indice"], ["alpha"]]),
        "skip_pre_heading": st.booleans(),
    }
)


def _config(options: dict[str, Any]) -> ChunkerConfig:
    options = {**options, "target_chars": options["max_chars"] * 2 // 3, "min_chars": 20}
    return ChunkerConfig.from_mapping(options)


@settings(max_examples=300, deadline=None)
@given(_documents(), _configs, st.sampled_from([None, 40]))
def test_streamed_chunks_and_findings_are_the_whole_pipelines(
    text: str, options: dict[str, Any], piece: int | None
) -> None:
    cfg = _config(options)
    assert streamable(cfg, "doc.md")
    old = streamed_module.PIECE_CHARS, streamed_module.SMALL_PIECES_FROM
    if piece is not None:  # many parsed pieces, a heading near every boundary
        streamed_module.PIECE_CHARS, streamed_module.SMALL_PIECES_FROM = piece, 0
    try:
        assert _streamed(text, cfg) == _whole(text, cfg)
    finally:
        streamed_module.PIECE_CHARS, streamed_module.SMALL_PIECES_FROM = old


def _corpus_files(limit: int | None) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    files = sorted(p for p in CORPUS.rglob("*.md") if p.name != "SOURCES.md")
    return files[:: max(1, len(files) // limit)] if limit else files


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not here")
@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
def test_streamed_equals_whole_on_real_documents(parser: str) -> None:
    cfg = ChunkerConfig.from_mapping({"parser": parser})
    small = ChunkerConfig.from_mapping({"parser": parser, "section_level": 3, "max_chars": 500, "target_chars": 300})
    for path in _corpus_files(40):
        text = path.read_text(encoding="utf-8")
        for config in (cfg, small):
            assert _streamed(text, config, path.stem, str(path)) == _whole(text, config, path.stem, str(path)), path


def _counting(blocks: Iterator[Block], seen: list[int]) -> Iterator[Block]:
    for block in blocks:
        seen[0] += 1
        yield block


@pytest.mark.parametrize(
    ("tail", "waits"),
    [("", False), ("# Late title\n\ntext\n", True), ("```\n# a comment in code\n```\n", True)],
)
def test_the_first_chunk_comes_before_the_document_is_read_unless_an_h1_may_follow(
    monkeypatch: pytest.MonkeyPatch, tail: str, waits: bool
) -> None:
    """Sections wait for the document's title (its first H1) only while a line ahead could hold
    one: a document with none hands its first chunk on after its first sections."""
    text = "".join(f"## Part {k}\n\nText of part {k}.\n\n" for k in range(300)) + tail
    seen = [0]
    real = streamed_module.iter_blocks
    monkeypatch.setattr(streamed_module, "iter_blocks", lambda *a, **k: _counting(real(*a, **k), seen))
    stream = StreamedChunks(text, ChunkerConfig(), "doc", "doc.md")
    chunks = iter(stream)
    first = next(chunks)
    total_blocks = 600 + (2 if tail else 0)
    assert (seen[0] >= total_blocks - 1) is waits
    rest = list(chunks)
    whole = chunk_markdown(text, ChunkerConfig(), "doc", "doc.md").chunks
    assert [first, *rest] == list(whole)
    assert (first.content_for_embedding.startswith("Late title")) is (tail.startswith("# Late"))


def test_what_goes_the_whole_way() -> None:
    assert streamable(ChunkerConfig(), "a.md") and streamable(ChunkerConfig(), "a.mdx")
    assert not streamable(ChunkerConfig(), "a.txt")
    assert not streamable(ChunkerConfig.from_mapping({"section_level": "auto"}), "a.md")
    for strategy in ("recursive", "faq", "pages", "off"):
        assert not streamable(ChunkerConfig.from_mapping({"strategy": strategy}), "a.md")


def test_a_run_writes_what_the_library_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chunker.cli import run_cli

    text = "---\ntitle: Guide\n---\n" + "".join(f"## § {k} Rule\n\n{'Words here. ' * 30}\n\n" for k in range(700))
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "guide.md").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--quiet"]) == 0
    folder = tmp_path / "chunks" / "guide"
    report = orjson.loads((folder / "report.json").read_bytes())
    library = chunk_source(text.encode(), doc_id="guide", source_path=report["source_path"], config=ChunkerConfig())
    assert (folder / "chunks.json").read_bytes() == library.artifacts["chunks.json"]
    built = orjson.loads(library.artifacts["report.json"])
    for key in ("artifacts", "artifact_sizes"):
        report.pop(key), built.pop(key)  # meta.json holds its time of creation
    assert report == built


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_run_hashes_the_text_again_only_when_it_differs_from_the_raw_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, newline: str
) -> None:
    """parent_hash is the sha256 of the normalised text: for a source without BOM and CR that is
    the sha256 of its bytes, which the run has; the text is hashed only for the others."""
    from chunker.cli import run_cli
    from chunker.text import text_sha256

    hashed: list[str] = []
    monkeypatch.setattr(streamed_module, "text_sha256", lambda text: hashed.append(text) or text_sha256(text))
    text = "# Guide\n\n" + "".join(f"## Part {k}\n\nWords, words.\n\n" for k in range(5))
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "guide.md").write_bytes(text.replace("\n", newline).encode())
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--quiet"]) == 0
    meta = orjson.loads((tmp_path / "chunks" / "guide" / "meta.json").read_bytes())
    assert meta["parent_hash"] == hashlib.sha256(text.encode()).hexdigest()
    assert len(hashed) == (newline != "\n")


def test_a_document_over_the_chunk_limit_fails_as_in_the_library_and_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from chunker.cli import run_cli

    text = "".join(f"## Part {k}\n\nText.\n\n" for k in range(30))
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "many.md").write_text(text, encoding="utf-8")
    (tmp_path / "config.yaml").write_text("max_chunks_per_document: 10\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = run_cli([])
    out = capsys.readouterr()
    cfg = ChunkerConfig.from_mapping({"max_chunks_per_document": 10})
    library = chunk_source(text.encode(), doc_id="many", source_path="sources/many.md", config=cfg)
    assert library.status == "failed" and "30 chunks, more than max_chunks_per_document (10)" in library.message
    assert code == library.exit_code
    assert "30 chunks, more than max_chunks_per_document (10)" in out.out + out.err
    assert not (tmp_path / "chunks" / "many").exists()


def test_content_hashes_are_counted_once_each_in_order() -> None:
    values = [hashlib.sha256(str(k % 7).encode()).hexdigest() for k in range(40)]
    hashes = ContentHashes()
    for value in values:
        hashes.add(value)
    assert [d.hex() for d in hashes.distinct()] == list(dict.fromkeys(values))
