"""The vector-store recipes of README.md ("Scaling out"), run as written on a batch output.

They need their store's package (lancedb, chromadb) and skip without it; CI installs lancedb in the
Ray step: ``python -m pytest -q -m store``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from _batch import make_corpus

from chunker.batch import run_batch
from chunker.batch.run import BatchOptions
from chunker.config import ChunkerConfig
from chunker.settings import Settings

pytestmark = pytest.mark.store

README = Path(__file__).resolve().parent.parent / "README.md"


def recipe(name: str) -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"^### Recipe: {name}\n.*?^```python\n(.*?)^```\n", text, re.S | re.M)
    assert found, f"no recipe {name} in README.md"
    return found.group(1)


def run_recipe(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "recipe"}
    exec(compile(code, "README.md", "exec"), namespace)
    return namespace


@pytest.mark.parametrize(("name", "module"), [("LanceDB", "lancedb"), ("Chroma", "chromadb")])
def test_the_recipe_upserts_by_chunk_key_reembeds_only_changed_chunks_and_deletes_removed_keys(
    name: str, module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip(module)
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "src"
    make_corpus(src, 6, bad=False)
    opts = BatchOptions(str(src), "build/chunks", jobs=1)
    run_batch(Settings(ChunkerConfig()), opts)
    code = recipe(name)
    first = run_recipe(code)
    total = len(first["fresh"])
    assert total > 6 and first["gone"] == []
    again = run_recipe(code)
    assert len(again["fresh"]) == 0 and again["gone"] == []
    assert first["known"] == {}  # an empty store before the first run
    stored = run_recipe(code)["known"]
    doc2 = {k for k in stored if k.startswith("doc-02/")}
    doc4 = {k for k in stored if k.startswith("doc-04/")}
    assert len(stored) == total and doc2 and doc4
    path = src / "doc-02.md"
    path.write_text(path.read_text(encoding="utf-8").replace("# Guide 2\n", "# Handbook 2\n"), encoding="utf-8")
    (src / "doc-04.md").unlink()
    run_batch(Settings(ChunkerConfig()), opts)
    changed = run_recipe(code)
    now = run_recipe(code)["known"]
    new2 = {k for k in now if k.startswith("doc-02/")}
    assert len(new2) == len(doc2) and new2 != doc2  # the key of the title's own section follows the title
    assert {r["chunk_key"] for r in _rows(changed["fresh"])} == new2  # the title is in every context line
    assert set(changed["gone"]) == doc4 | (doc2 - new2)
    assert set(now) == (set(stored) - doc4 - doc2) | new2


def _rows(fresh: Any) -> list[dict[str, Any]]:
    return fresh if isinstance(fresh, list) else list(fresh.to_pylist())
