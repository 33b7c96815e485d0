"""What a team feeding a vector store from chunks/ reads: the messages of the fail_on_* gates
(eyes14's trial on prometheus/docs)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from _locks import lock_held_briefly

from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def _overflow_messages(text: str, cfg: ChunkerConfig) -> list[str]:
    result = chunk_markdown(text, cfg, "d", "d.md")
    return [d.message for d in result.diagnostics.diagnostics if d.code == "overflow"]


def test_a_block_under_max_chars_is_not_called_larger_than_max_chars() -> None:
    # prometheus/docs' PromCon post under max_chars 1000: a tweet's HTML block of 990 characters is
    # over only with its chunk's context line; it said "(990 chars) is larger than max_chars (1000)"
    html = '<blockquote class="tweet"><p>' + "w" * 950 + "</p></blockquote>"
    text = f"# PromCon 2016 - It's a wrap!\n\n## What happened\n\nSome words.\n\n{html}\n\nMore words.\n"
    cfg = ChunkerConfig(max_chars=1000, target_chars=800, min_chars=80)
    found = _overflow_messages(text, cfg)
    assert len(found) == 1, found
    assert "is larger than max_chars" not in found[0], found
    assert f"({len(html)} chars) does not fit in max_chars (1000) with the chunk's context line" in found[0], found


def test_a_block_over_max_chars_is_still_larger_than_max_chars() -> None:
    html = '<blockquote class="tweet"><p>' + "w" * 1100 + "</p></blockquote>"
    text = f"# Title\n\n## What happened\n\n{html}\n"
    found = _overflow_messages(text, ChunkerConfig(max_chars=1000, target_chars=800, min_chars=80))
    assert len(found) == 1 and f"({len(html)} chars) is larger than max_chars (1000)" in found[0], found


README = Path(__file__).resolve().parent.parent / "README.md"


def _sync_recipe() -> str:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"^A sync of a store from them.*?^```python\n(.*?)^```\n", text, re.S | re.M)
    assert found, "no store sync recipe in README.md"
    return found.group(1)


class _Store:
    """A dict as the vector store of README's sync recipe: id -> (embedding_hash, metadata)."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[str, dict[str, Any]]] = {}
        self.embedded: list[str] = []

    def hashes(self) -> dict[str, str]:
        return {i: h for i, (h, _) in self.rows.items()}

    def upsert(self, records: list[dict[str, Any]]) -> None:
        self.embedded += [r["id"] for r in records]
        self.rows.update({r["id"]: (r["metadata"]["embedding_hash"], r["metadata"]) for r in records})

    def update_metadata(self, records: list[dict[str, Any]]) -> None:
        self.rows.update({r["id"]: (self.rows[r["id"]][0], r["metadata"]) for r in records})

    def delete(self, ids: list[str]) -> None:
        for i in ids:
            del self.rows[i]


def _sync(tmp_path: Path, store: _Store) -> None:
    chunks = tmp_path / "chunks"
    assert run_cli(["--sources", str(tmp_path / "docs"), "--out", str(chunks), "--quiet"]) == 0
    assert run_cli(["export", "--format", "jsonl", "--chunks", str(chunks), "--quiet"]) == 0
    paths = sorted((chunks / "_export").glob("**/*.jsonl"))
    records = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines()]
    store.embedded = []
    exec(compile(_sync_recipe(), "README.md", "exec"), {"records": records, "store": store})
    assert set(store.rows) == {r["id"] for r in records}
    assert all(store.rows[r["id"]] == (r["metadata"]["embedding_hash"], r["metadata"]) for r in records)


def test_the_readme_sync_recipe_reembeds_by_embedding_hash_and_deletes_what_disappeared(tmp_path: Path) -> None:
    # a new page title changes every chunk's context line, not its content_hash: re-embedded; a
    # section added above another moves the lines of the chunks below it: metadata only; a page
    # deleted: its keys deleted
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    body = "".join(f"## Part {k}\n\n" + f"Words of part {k} of the guide. " * 12 + "\n\n" for k in range(3))
    (docs / "guide" / "setup.md").write_text(f"---\ntitle: Setup\n---\n\n{body}", encoding="utf-8")
    (docs / "old.md").write_text("# Old page\n\n## Gone\n\nThis page goes away in the next commit.\n", encoding="utf-8")
    (docs / "keep.md").write_text("# Keep\n\n## Intro\n\nAn intro of the page kept.\n\n" + body, encoding="utf-8")
    store = _Store()
    _sync(tmp_path, store)
    first = dict(store.rows)
    assert len(store.embedded) == len(first)

    (docs / "guide" / "setup.md").write_text(f"---\ntitle: Installing it\n---\n\n{body}", encoding="utf-8")
    (docs / "old.md").unlink()
    (docs / "keep.md").write_text(
        "# Keep\n\n## Intro\n\nAn intro of the page kept, now longer.\n\n" + body, encoding="utf-8"
    )
    _sync(tmp_path, store)
    setup = {i for i in first if i.startswith("guide/setup/")}
    assert set(store.embedded) == setup | {"keep/intro"}, store.embedded
    assert not any(i.startswith("old/") for i in store.rows)
    moved = [i for i in store.rows if i.startswith("keep/part-")]
    assert moved and all(store.rows[i][1]["start_offset"] != first[i][1]["start_offset"] for i in moved)
    assert all(store.rows[i][1]["content_hash"] == first[i][1]["content_hash"] for i in setup)


@pytest.mark.parametrize("mode", ["--quiet", "--json"])
def test_a_ci_log_names_the_option_that_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    # a CI step runs 'chunker --quiet' or 'chunker --json > summary.json': stderr held the error lines
    # only, and the summary line naming the fail_on_* option (and how to make them warnings) was never
    # printed; a warning or an error no option makes (duplicate ids) is not named there
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fence.md").write_text("# Fence\n\n## Part\n\n```go\nfunc main() {}\n", encoding="utf-8")
    (docs / "ok.md").write_text("# Ok\n\n## Part\n\nText of the part.\n\n##\n\nMore.\n", encoding="utf-8")
    assert run_cli(["--sources", str(docs), "--out", str(tmp_path / "chunks"), mode]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (
        "errors by code: unclosed-fence 1 in 1 document (fail_on_broken_fence: false in the config makes them warnings)"
    ), err
    assert not any("empty-heading" in line for line in err), err


@pytest.mark.parametrize("quiet", [False, True])
def test_a_run_waiting_for_another_runs_lock_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, quiet: bool
) -> None:
    # two CI jobs on one output folder: the second waited up to 30 s without a word, a step that
    # seemed to hang; it says so on stderr once (not with --quiet), then runs when the lock is free
    docs, out = tmp_path / "docs", tmp_path / "chunks"
    docs.mkdir()
    out.mkdir()
    (docs / "a.md").write_text("# A\n\n## Part\n\nText of the part.\n", encoding="utf-8")
    with lock_held_briefly(out, monkeypatch):
        code = run_cli(["--sources", str(docs), "--out", str(out), "--json", *(["--quiet"] if quiet else [])])
    assert code == 0
    err = capsys.readouterr().err
    said = "another chunker run holds the output folder; waiting up to 30 s for it to finish"
    assert (said in err) != quiet, err
    assert err.count("warning:") == (0 if quiet else 1), err


@pytest.mark.parametrize("mode", ["--quiet", "--json"])
def test_a_gate_turned_off_prints_no_findings_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    # fail_on_broken_fence: false makes the finding a warning: --quiet and --json print nothing about it
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "fence.md").write_text("# Fence\n\n## Part\n\n```go\nfunc main() {}\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text("fail_on_broken_fence: false\n", encoding="utf-8")
    args = ["--sources", str(docs), "--out", str(tmp_path / "chunks"), "--config", str(config), mode]
    assert run_cli(args) == 0
    assert capsys.readouterr().err == ""
