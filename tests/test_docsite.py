"""A slice of real documentation sites (tests/fixtures/docsite, licences beside it), chunked as a tree:
every page accounted for, no frontmatter in any chunk, every chunk's context names its document."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chunker.cli import run_cli
from chunker.inline import heading_text

SLICE = Path(__file__).resolve().parent / "fixtures" / "docsite"


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(SLICE / "sources", tmp_path / "sources")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert run_cli([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def pages(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".md", ".mdx"))


def test_every_page_of_the_slice_is_chunked_and_every_other_file_is_listed(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = run_json(capsys)
    docs = data["documents"]
    assert isinstance(docs, list)
    expected = {str(p.relative_to(site / "sources").with_suffix("")) for p in pages(site / "sources")}
    assert {d["stem"] for d in docs if d["status"] == "new"} == expected
    assert len(expected) == 11
    left_out = data["left_out"]
    assert isinstance(left_out, list)
    assert [(x["path"], x["reason"]) for x in left_out] == [
        ("sources/zola/themes/apollo/screenshot.png", "not-a-source")
    ]
    assert all((site / "chunks" / stem / "chunks.json").is_file() for stem in expected)
    assert set(run_json(capsys)["counts"]) == {"unchanged"}  # type: ignore[arg-type]
    assert set(run_json(capsys, "--check")["counts"]) == {"ok"}  # type: ignore[arg-type]


def test_no_chunk_holds_frontmatter_and_every_context_names_its_document(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_json(capsys)
    checked = 0
    for page in pages(site / "sources"):
        stem = str(page.relative_to(site / "sources").with_suffix(""))
        folder = site / "chunks" / stem
        chunks = json.loads((folder / "chunks.json").read_bytes())
        meta = json.loads((folder / "meta.json").read_bytes())
        report = json.loads((folder / "report.json").read_bytes())
        source = page.read_text(encoding="utf-8")
        if source.lstrip("\n").startswith(("---\n", "+++\n")):
            assert meta["document_metadata"], stem
            fm = [s for s in report["skipped"] if s["reason"] == "frontmatter"]
            assert len(fm) == 1
            end = fm[0]["end_offset"]
            assert all(c["start_offset"] >= end for c in chunks), stem
            block = source[:end]
            for line in block.splitlines()[1:-1]:
                if len(line) > 12:
                    assert all(line not in c["content_original"] for c in chunks), (stem, line)
        title = meta["document_metadata"].get("title")
        title = heading_text(title) if isinstance(title, str) else None
        if not title:
            h1 = [h["text"] for c in chunks for h in c["header_path"] if h["level"] == 1]
            title = h1[0] if h1 else stem.rsplit("/", 1)[-1]
        for chunk in chunks:
            assert title in chunk["content_for_embedding"], (stem, title)
            checked += 1
    assert checked > 40


def test_mdx_components_are_never_headings(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_json(capsys)
    chunks = json.loads((site / "chunks" / "jotai" / "index" / "chunks.json").read_bytes())
    sections = {h["text"] for c in chunks for h in c["header_path"]}
    assert not any("<" in s or "TOC" in s for s in sections)
    assert any('<TOC section="core" />' in c["content_original"] for c in chunks)
