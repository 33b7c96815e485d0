"""README's recipe for loading the JSONL export of a whole tree ("Export for vector stores"), run as
written: the export is one file per document in folders as the ids are, and the recipe reads them all."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from chunker.cli import run_cli

README = Path(__file__).resolve().parent.parent / "README.md"


def recipe() -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"to load a whole tree, read\s+them all.*?^```python\n(.*?)^```\n", text, re.S | re.M)
    assert found, "no recipe for loading a tree's JSONL export in README.md"
    return found.group(1)


def test_the_tree_export_recipe_reads_every_chunk_of_every_document(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    for rel in ("index.md", "guide/setup.md", "guide/deep/api.md", "blog/post.md"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        body = "".join(f"## Part {k}\n\n" + f"Text of part {k} of {rel}. " * 12 + "\n\n" for k in range(3))
        (src / rel).write_text(f"# {rel}\n\n{body}", encoding="utf-8")
    assert run_cli(["--sources", str(src), "--out", str(tmp_path / "chunks"), "--quiet"]) == 0
    assert run_cli(["export", "--format", "jsonl", "--chunks", str(tmp_path / "chunks"), "--quiet"]) == 0
    namespace: dict[str, Any] = {"__name__": "recipe"}
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        exec(compile(recipe(), "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    keys = [r["id"] for r in namespace["records"]]
    chunks = sorted((tmp_path / "chunks").glob("**/chunks.json"))
    assert len(chunks) == 4
    assert len(keys) == len(set(keys)) == sum(len(json.loads(p.read_bytes())) for p in chunks)
    assert {k.split("/")[0] for k in keys} == {"index", "guide", "blog"}
    assert any(k.startswith("guide/deep/api/") for k in keys)
