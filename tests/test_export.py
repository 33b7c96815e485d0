"""`chunker export`: Markdown files with frontmatter and JSON Lines, read back."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
import yaml

from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.errors import UsageError
from chunker.export import export
from chunker.runner import run
from chunker.settings import Settings

GUIDE = """---
title: Handbuch
author: Team Doku
section: Vorspann
---
# Handbuch

## § 1 Geltungsbereich

Diese Regeln gelten für alle.

## § 2 Pflichten

Jeder hält sich daran. Es gibt keine Ausnahmen.

## Anhang

| a | b |
|---|---|
| 1 | 2 |
"""


def chunked(tmp_path: Path, text: str = GUIDE) -> tuple[Path, Path]:
    sources = tmp_path / "sources"
    sources.mkdir(exist_ok=True)
    (sources / "guide.md").write_text(text, encoding="utf-8")
    out = tmp_path / "chunks"
    summary = run(Settings(defaults=ChunkerConfig()), sources, out, ("guide",))
    assert summary.exit_code == 0
    return sources, out


def read_chunks(out: Path) -> list[dict[str, object]]:
    data = orjson.loads((out / "guide" / "chunks.json").read_bytes())
    assert isinstance(data, list)
    return data


def split_frontmatter(text: str) -> tuple[dict[str, object], str]:
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    data = yaml.safe_load(head)
    assert isinstance(data, dict)
    return data, body


def test_md_export_writes_one_file_per_chunk_whose_frontmatter_parses_back(tmp_path: Path) -> None:
    _, out = chunked(tmp_path)
    chunks = read_chunks(out)
    meta = orjson.loads((out / "guide" / "meta.json").read_bytes())
    target = tmp_path / "export"
    export(out, target, "md")
    files = sorted((target / "guide").iterdir())
    assert len(files) == len(chunks) >= 3
    for path, chunk in zip(files, chunks, strict=True):
        assert path.name.startswith(f"{int(str(chunk['chunk_index'])) + 1:03d}-")
        front, body = split_frontmatter(path.read_text(encoding="utf-8"))
        assert body == f"\n{chunk['content_for_embedding']}\n"
        assert front["kind"] == "chunk"
        assert front["parent"] == meta["source_path"]
        assert front["parent_hash"] == meta["parent_hash"]
        for key in ("section", "ziffer", "chunk_index", "chunk_key", "content_hash", "page"):
            assert front[key] == chunk[key]
        assert front["author"] == "Team Doku"  # inherited from the document's frontmatter
        assert front["document"] == {"section": "Vorspann"}  # a clashing field is kept apart
    ziffers = [split_frontmatter(p.read_text(encoding="utf-8"))[0]["ziffer"] for p in files]
    assert "§ 1" in ziffers and "§ 2" in ziffers


def test_md_export_removes_stale_files_of_the_stem_and_nothing_else(tmp_path: Path) -> None:
    _, out = chunked(tmp_path)
    target = tmp_path / "export"
    export(out, target, "md", ["guide"])
    before = {p.name for p in (target / "guide").iterdir()}
    (target / "guide" / "notes.txt").write_text("mine", encoding="utf-8")
    shorter = GUIDE.split("## Anhang")[0]
    chunked(tmp_path, shorter)
    done = export(out, target, "md", ["guide"])
    after = {p.name for p in (target / "guide").iterdir()}
    assert "notes.txt" in after
    assert {p.name for p in done[0].removed} == before - after
    assert done[0].removed, "the Anhang chunk's file must be removed"
    assert not any("anhang" in name for name in after)


def test_jsonl_export_lines_load_with_id_text_and_metadata(tmp_path: Path) -> None:
    _, out = chunked(tmp_path)
    chunks = read_chunks(out)
    target = tmp_path / "export"
    export(out, target, "jsonl")
    lines = (target / "guide.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(chunks)
    for line, chunk in zip(lines, chunks, strict=True):
        record = json.loads(line)
        assert set(record) == {"id", "text", "metadata"}
        assert record["id"] == chunk["chunk_key"]
        assert record["text"] == chunk["content_for_embedding"]
        assert record["metadata"]["content_hash"] == chunk["content_hash"]
        assert record["metadata"]["parent"].endswith("guide.md")
        assert record["metadata"]["document"]["author"] == "Team Doku"
        assert "content_for_embedding" not in record["metadata"]


def test_jsonl_records_load_as_langchain_documents(tmp_path: Path) -> None:
    documents = pytest.importorskip("langchain_core.documents")
    _, out = chunked(tmp_path)
    export(out, tmp_path / "export", "jsonl")
    with (tmp_path / "export" / "guide.jsonl").open(encoding="utf-8") as fh:
        docs = [
            documents.Document(id=r["id"], page_content=r["text"], metadata=r["metadata"]) for r in map(json.loads, fh)
        ]
    assert docs[0].id == read_chunks(out)[0]["chunk_key"]


def test_export_without_chunks_says_to_run_chunker_first(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="run `chunker --doc guide` first"):
        export(tmp_path / "chunks", tmp_path / "export", "md", ["guide"])


def test_the_export_command_exits_0_and_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = chunked(tmp_path)
    target = tmp_path / "export"
    code = run_cli(["export", "--format", "jsonl", "--chunks", str(out), "--out", str(target)])
    assert code == 0
    assert (target / "guide.jsonl").is_file()
    code = run_cli(["export", "--format", "md", "--chunks", str(out), "--out", str(target), "--stem", "missing"])
    assert code == 2
    assert "--stem 'missing': no chunks of this document" in capsys.readouterr().err
    code = run_cli(["export", "--format", "pdf", "--chunks", str(out), "--out", str(target)])
    assert code == 2


def test_a_hand_edited_chunks_json_is_exported_by_position_or_refused_naming_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = chunked(tmp_path)
    path = out / "guide" / "chunks.json"
    chunks = read_chunks(out)
    chunks[0]["chunk_index"] = "first"
    path.write_bytes(orjson.dumps(chunks))
    done = export(out, tmp_path / "export", "md", ["guide"])
    assert done[0].written[0].name.startswith("001-")
    path.write_bytes(b"{}")
    code = run_cli(["export", "--format", "md", "--chunks", str(out), "--out", str(tmp_path / "export")])
    assert code == 2
    assert f"{out / 'guide'}: artifacts of 'guide' have an unexpected shape" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["md", "jsonl"])
def test_a_full_export_removes_the_exports_of_documents_no_longer_chunked_and_nothing_else(
    tmp_path: Path, fmt: str
) -> None:
    sources, out = chunked(tmp_path)
    (sources / "other.md").write_text("# Other\n\nSome text of another document.\n", encoding="utf-8")
    assert run(Settings(defaults=ChunkerConfig()), sources, out).exit_code == 0
    target = tmp_path / "export"
    target.mkdir()
    (target / "mine.jsonl").write_text("{}\n", encoding="utf-8")  # not ours: never touched
    export(out, target, fmt)
    exported = {p.name for p in target.iterdir()}
    assert {"guide.jsonl", "other.jsonl"} <= exported if fmt == "jsonl" else {"guide", "other"} <= exported
    (sources / "other.md").unlink()
    assert run(Settings(defaults=ChunkerConfig()), sources, out).exit_code == 0  # removes chunks/other
    done = export(out, target, fmt)
    assert [d.stem for d in done if d.removed and not d.written] == ["other"]
    assert [d.stem for d in done if d.gone] == ["other"]
    left = {p.name for p in target.iterdir()}
    assert "other.jsonl" not in left and "other" not in left
    assert "mine.jsonl" in left and ("guide.jsonl" in left if fmt == "jsonl" else "guide" in left)


@pytest.mark.parametrize("fmt", ["md", "jsonl"])
def test_a_document_of_no_chunks_is_exported_not_reported_gone(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sources, out = chunked(tmp_path)
    (sources / "section.md").write_text("---\ntitle: A section page\n---\n", encoding="utf-8")  # frontmatter only
    assert run(Settings(defaults=ChunkerConfig()), sources, out).exit_code == 0
    target = tmp_path / "export"
    args = ["export", "--format", fmt, "--chunks", str(out), "--out", str(target)]
    assert run_cli(args) == 0
    printed = capsys.readouterr().out
    assert "no longer chunked" not in printed and f"export {fmt}: 2 document(s)" in printed
    assert run_cli([*args, "--verbose"]) == 0
    printed = capsys.readouterr().out
    assert "no longer chunked" not in printed
    assert f"section: {0 if fmt == 'md' else 1} file(s)" in printed  # md: a file per chunk, jsonl: one per document
    (sources / "section.md").unlink()
    assert run(Settings(defaults=ChunkerConfig()), sources, out).exit_code == 0
    assert run_cli(args) == 0
    assert f"export {fmt}: 1 document(s)" in capsys.readouterr().out


def test_chunk_keys_of_documents_whose_stems_slug_alike_never_meet(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    long = "a" * 70
    for stem in ("user.guide", "user-guide", "User_Guide", f"{long}1", f"{long}2"):
        (sources / f"{stem}.md").write_text("# Guide\n\n## Setup\n\nInstall it.\n", encoding="utf-8")
    out = tmp_path / "chunks"
    assert run(Settings(defaults=ChunkerConfig()), sources, out).exit_code in (0, 1)  # case collision warns
    done = export(out, tmp_path / "export", "jsonl")
    ids = [json.loads(line)["id"] for d in done for p in d.written for line in p.read_text().splitlines()]
    assert len(ids) == 5 and len(set(ids)) == len(ids)


@pytest.mark.parametrize("fmt", ["md", "jsonl"])
def test_hand_edited_artifacts_nested_too_deeply_to_export_exit_2_naming_the_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    _, out = chunked(tmp_path)
    path = out / "guide" / "chunks.json"
    chunks = read_chunks(out)
    deep: object = "x"
    for _ in range(600):
        deep = [deep]
    chunks[0]["section_path"] = deep
    path.write_text(json.dumps(chunks), encoding="utf-8")
    code = run_cli(["export", "--format", fmt, "--chunks", str(out), "--out", str(tmp_path / "export")])
    assert code == 2
    assert "the artifacts of 'guide' hold values that cannot be exported" in capsys.readouterr().err


def test_export_keys_are_indexed_by_the_id_they_export_nested_ids_too() -> None:
    from chunker.export_manifest import export_keys_by_stem

    keys = ["a.jsonl", "guides/cms/umbraco.jsonl", "a/001-intro.md", "guides/cms/umbraco/002-x.md", "notes.txt"]
    assert export_keys_by_stem(keys, "jsonl") == {"a": ["a.jsonl"], "guides/cms/umbraco": ["guides/cms/umbraco.jsonl"]}
    by_id = export_keys_by_stem(keys, "md")
    assert by_id == {"a": ["a/001-intro.md"], "guides/cms/umbraco": ["guides/cms/umbraco/002-x.md"]}


def _tree(tmp_path: Path, names: list[str]) -> Path:
    sources = tmp_path / "sources"
    for i, name in enumerate(names):
        (sources / name).parent.mkdir(parents=True, exist_ok=True)
        (sources / name).write_text(f"# Doc {i}\n\nText of document {i} ZQX{i}.\n", encoding="utf-8")
    out = tmp_path / "chunks"
    assert run(Settings(defaults=ChunkerConfig()), sources, out).exit_code == 0
    return out


def test_ids_named_like_exported_files_export_into_folders_of_their_own(tmp_path: Path) -> None:
    """``x.md`` beside ``x/001-intro.md.md``: the first document's file ``x/001-intro.md`` was the second's
    folder (exit 4, "cannot create the export folder: File exists"); ``y.md`` beside ``y.jsonl/z.md``, both
    formats in one folder, the same. A folder named like an exported file gets a ``+``."""
    out = _tree(tmp_path, ["x.md", "x/001-intro.md.md", "y.md", "y.jsonl/z.md", "DATA.JSONL.md", "data/k.md"])
    target = tmp_path / "export"
    for fmt in ("md", "jsonl"):
        assert run_cli(["export", "--format", fmt, "--chunks", str(out), "--out", str(target)]) == 0
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file())
    assert files == [
        ".chunker-export.json",
        "DATA.JSONL+/001-doc-4.md",
        "DATA.JSONL.jsonl",
        "data/k.jsonl",
        "data/k/001-doc-5.md",
        "x.jsonl",
        "x/001-doc-0.md",
        "x/001-intro.md+/001-doc-1.md",
        "x/001-intro.md.jsonl",
        "y.jsonl",
        "y.jsonl+/z.jsonl",
        "y.jsonl+/z/001-doc-3.md",
        "y/001-doc-2.md",
    ]
    texts = "\n".join(p.read_text(encoding="utf-8") for p in target.rglob("*") if p.is_file())
    assert all(f"ZQX{i}" in texts for i in range(6))


def test_an_escaped_folder_is_kept_and_removed_like_any_other(tmp_path: Path) -> None:
    """A second export rewrites nothing; a document gone removes its files from the escaped folder."""
    out = _tree(tmp_path, ["x.md", "x/001-intro.md.md"])
    target = tmp_path / "export"
    export(out, target, "md")
    again = export(out, target, "md")
    assert all(doc.unchanged == doc.written for doc in again)
    (tmp_path / "sources" / "x" / "001-intro.md.md").unlink()
    assert run(Settings(defaults=ChunkerConfig()), tmp_path / "sources", out).exit_code == 0
    done = {doc.stem: doc for doc in export(out, target, "md")}
    assert done["x/001-intro.md"].gone
    assert [p.relative_to(target).as_posix() for p in done["x/001-intro.md"].removed] == [
        "x/001-intro.md+/001-doc-1.md"
    ]
    assert not (target / "x" / "001-intro.md+").exists()
    assert (target / "x" / "001-doc-0.md").is_file()


@pytest.mark.parametrize(
    ("stem", "md", "jsonl"),
    [
        ("a/b", "a/b", "a/b"),
        ("001-x.md", "001-x.md+", "001-x.md"),
        ("a.jsonl/b", "a.jsonl+/b", "a.jsonl+/b"),
        ("A.JSONL+/b", "A.JSONL++/b", "A.JSONL++/b"),
        ("v/0001-X.MD/w", "v/0001-X.MD+/w", "v/0001-X.MD+/w"),
        ("01-x.md/w", "01-x.md/w", "01-x.md/w"),
    ],
)
def test_export_bases_escape_exactly_the_file_like_folders(stem: str, md: str, jsonl: str) -> None:
    from chunker.export_manifest import export_base

    assert (export_base(stem, "md"), export_base(stem, "jsonl")) == (md, jsonl)
