"""Policy at the edge: findings have fixed codes, the fail_on_* options decide their severity,
and the options fingerprint holds only what changes the chunks."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import chunker
from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.models import Diagnostic
from chunker.policy import GATES, POLICY_OPTIONS, exit_code, gated, judge

ORPHAN = "# Doc\n\nBody.\n\n## A\n\nText.\n\n### Empty\n"


def test_every_fail_on_option_governs_some_finding_and_nothing_else_does() -> None:
    fail_on = {f.name for f in fields(ChunkerConfig) if f.name.startswith("fail_on_")}
    assert fail_on == POLICY_OPTIONS == set(GATES.values())


def test_judge_maps_a_gated_finding_to_the_severity_of_its_option_and_leaves_others_alone() -> None:
    found = (
        gated("overflow", "big", 3),
        Diagnostic("error", "oversize", "too big", 4),
        Diagnostic("warning", "empty", "e"),
    )
    strict = judge(found, ChunkerConfig(fail_on_overflow=True))
    assert [d.severity for d in strict] == ["error", "error", "warning"]
    assert exit_code(strict) == 1
    lenient = judge(strict, ChunkerConfig())  # judged again under another policy
    assert [d.severity for d in lenient] == ["warning", "error", "warning"]
    assert exit_code(lenient[:1]) == 0
    assert lenient[0].line == 3 and lenient[0].message == "big"


def test_a_finding_no_option_governs_cannot_be_built_as_gated() -> None:
    with pytest.raises(ValueError, match="oversize"):
        gated("oversize", "x")


def test_the_fingerprint_ignores_options_that_change_no_chunk() -> None:
    base = ChunkerConfig()
    assert ChunkerConfig(fail_on_overflow=True).fingerprint() == base.fingerprint()
    assert ChunkerConfig(fail_on_broken_fence=False, fail_on_bad_frontmatter=False).fingerprint() == base.fingerprint()
    assert ChunkerConfig(tokenizer="tiktoken:cl100k_base").fingerprint() == base.fingerprint()  # size_unit: chars
    assert ChunkerConfig(max_file_bytes=1000).fingerprint() == base.fingerprint()
    assert ChunkerConfig(max_chars=1000).fingerprint() != base.fingerprint()
    assert ChunkerConfig(size_unit="tokens").fingerprint() != base.fingerprint()
    assert (
        ChunkerConfig(size_unit="tokens", tokenizer="tiktoken:cl100k_base").fingerprint()
        != ChunkerConfig(size_unit="tokens").fingerprint()
    )


def test_the_fingerprint_holds_the_chunker_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = ChunkerConfig().fingerprint()
    monkeypatch.setattr(chunker, "__version__", "99.0.0")
    assert ChunkerConfig().fingerprint() != before
    monkeypatch.setattr(chunker, "SCHEMA_VERSION", 99)
    assert ChunkerConfig().fingerprint() != before


def test_the_fingerprint_holds_the_code_that_makes_chunks_not_the_front_ends(tmp_path: Path) -> None:
    # a fix of the packer landed without a release kept every existing output as it was (same version, same
    # fingerprint) until --force: the fingerprint now holds a digest of the package's chunking modules
    import shutil

    from chunker.code_digest import code_digest

    package = tmp_path / "chunker"
    shutil.copytree(Path(chunker.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    first = code_digest(str(package))
    assert first == code_digest()  # the same source, wherever it lies
    for front_end in ("cli.py", "report_table.py", "export_render.py", "view/render.py", "batch/listing.py"):
        (package / front_end).write_text((package / front_end).read_text("utf-8") + "# a message changed\n", "utf-8")
        assert code_digest(str(package)) == first, front_end
    for chunking in ("pack/fill.py", "segmenter.py", "parse/markdown.py", "runner_streamed.py"):
        before = code_digest(str(package))
        (package / chunking).write_text((package / chunking).read_text("utf-8") + "# a fix\n", "utf-8")
        assert code_digest(str(package)) != before, chunking
    (package / "pack" / "new_stage.py").write_text("X = 1\n", "utf-8")  # a module added
    assert code_digest(str(package)) not in (first, before)


def test_a_run_after_a_change_of_the_code_chunks_every_document_again(
    make_work: Callable[..., Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunker.code_digest

    make_work({"a.md": "# A\n\nText of a.\n", "b/c.md": "# C\n\nText of c.\n"})
    assert run_cli(["--json"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(chunker.code_digest, "_CODE_DIGEST", ["another version of the code"])
    assert run_cli(["--check", "--quiet"]) == 1  # what a run would write now may differ: stale
    capsys.readouterr()
    for expected in ("rebuilt", "unchanged"):  # chunked again into the same chunks, once
        assert run_cli(["--json"]) == 0
        statuses = {d["stem"]: d["status"] for d in json.loads(capsys.readouterr().out)["documents"]}
        assert statuses == {"a": expected, "b/c": expected}


def test_a_tokenizer_file_counts_by_its_content_not_its_path(tmp_path: Path) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text('{"model": 1}', encoding="utf-8")
    two.write_text('{"model": 1}', encoding="utf-8")
    first = ChunkerConfig(size_unit="tokens", tokenizer=str(one)).fingerprint()
    assert ChunkerConfig(size_unit="tokens", tokenizer=str(two)).fingerprint() == first
    two.write_text('{"model": 2}', encoding="utf-8")
    assert ChunkerConfig(size_unit="tokens", tokenizer=str(two)).fingerprint() != first
    # under size_unit: chars the tokenizer counts nothing
    assert ChunkerConfig(tokenizer=str(two)).fingerprint() == ChunkerConfig().fingerprint()


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    return make_work({"orphan.md": ORPHAN})


def _state(folder: Path) -> tuple[int, int]:
    info = (folder / "chunks.json").stat()
    return info.st_ino, info.st_mtime_ns


def _report(folder: Path) -> Any:
    """report.json without the hash of meta.json (which holds the time of creation)."""
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    del data["artifacts"]["meta.json"]
    return data


def _meta(folder: Path) -> Any:
    data = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    data.pop("created_at")
    return data


def test_a_policy_only_change_re_judges_the_exit_code_without_rewriting_chunks(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = work / "chunks" / "orphan"
    assert run_cli([]) == 0
    chunks_before = _state(folder)
    assert [w["code"] for w in _report(folder)["warnings"]] == ["orphan-heading"]

    (work / "config.yaml").write_text("fail_on_orphan_heading: true\n", encoding="utf-8")
    capsys.readouterr()
    assert run_cli(["--json"]) == 1
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["documents"][0]["status"] == "unchanged"
    assert [e["code"] for e in summary["documents"][0]["errors"]] == ["orphan-heading"]
    assert _state(folder) == chunks_before
    rejudged, meta = _report(folder), _meta(folder)
    assert [e["code"] for e in rejudged["errors"]] == ["orphan-heading"]
    assert meta["config"]["fail_on_orphan_heading"] is True
    assert run_cli([]) == 1  # and stays failed on a rerun, still without rewriting

    assert _state(folder) == chunks_before
    assert run_cli(["--force"]) == 1  # what a full re-chunking writes is what the re-judging wrote
    assert _state(folder) == chunks_before  # the same chunks.json bytes: the file is kept
    assert _report(folder) == rejudged
    assert _meta(folder) == meta

    (work / "config.yaml").write_text("fail_on_orphan_heading: false\n", encoding="utf-8")
    chunks_before = _state(folder)
    assert run_cli([]) == 0
    assert _state(folder) == chunks_before
    assert _report(folder)["errors"] == []


def test_a_tokenizer_change_under_chars_keeps_the_chunks_and_records_the_option(work: Path) -> None:
    folder = work / "chunks" / "orphan"
    assert run_cli([]) == 0
    chunks_before = _state(folder)
    (work / "config.yaml").write_text("tokenizer: tiktoken:cl100k_base\n", encoding="utf-8")
    assert run_cli([]) == 0
    assert _state(folder) == chunks_before
    assert _meta(folder)["config"]["tokenizer"] == "tiktoken:cl100k_base"
    assert run_cli(["--check"]) == 0
