"""The parent-document recipe of README.md ("Export for vector stores"), run as written."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings

README = Path(__file__).resolve().parent.parent / "README.md"


def recipe() -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"^\*\*Parent-document retrieval\*\*.*?^```python\n(.*?)^```\n", text, re.S | re.M)
    assert found, "no parent-document recipe in README.md"
    return found.group(1)


SOURCE = "\ufeff---\r\ntitle: Regel\r\n---\r\n\r\n# Regel\r\n\r\nVorwort.\r\n\r\n" + "".join(
    f"## {n} Abschnitt\r\n\r\n" + "Die Anlage muss geprüft werden. " * (60 if n == 2 else 3) + "\r\n\r\n"
    f"### {n}.1 Unterabschnitt\r\n\r\nNachweis.\r\n\r\n"
    for n in range(1, 5)
)


def run_recipe(work: Path) -> dict[str, Any]:
    code = recipe().replace('"chunks/tar_ms"', '"chunks/regel"')
    namespace: dict[str, Any] = {"__name__": "recipe"}
    cwd = Path.cwd()
    os.chdir(work)
    try:
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    return namespace


def test_every_chunk_gets_the_whole_section_it_belongs_to(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "regel.md").write_bytes(SOURCE.encode("utf-8"))
    assert run(Settings(ChunkerConfig()), tmp_path / "sources", tmp_path / "chunks").exit_code == 0
    found = run_recipe(tmp_path)
    parents, chunks = found["parents"], found["chunks"]
    text = SOURCE.lstrip("\ufeff").replace("\r\n", "\n")
    sections = {c["section"] for c in chunks}
    assert len(chunks) > len(sections)  # section 2 has several chunks, each section an H3
    for chunk in chunks:
        parent = parents[chunk["chunk_key"]]
        assert chunk["content_original"] in parent
        assert parent.startswith(f"## {chunk['section']}") or chunk["section"] == "Regel"
    assert len(set(parents.values())) == len(sections) == 5
    assert parents[chunks[-1]["chunk_key"]] == text[text.index("## 4 Abschnitt") :].rstrip("\n")


def test_a_changed_source_is_detected(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "regel.md").write_bytes(SOURCE.encode("utf-8"))
    assert run(Settings(ChunkerConfig()), tmp_path / "sources", tmp_path / "chunks").exit_code == 0
    (tmp_path / "sources" / "regel.md").write_text("# Regel\n\nNeu.\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="source changed"):
        run_recipe(tmp_path)
