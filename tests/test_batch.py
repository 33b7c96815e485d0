"""chunker batch with the local engine (needs pyarrow, a dev dependency): the same chunks as the
main command, a manifest that makes reruns incremental, bad documents as failed rows."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
from pathlib import Path
from typing import Any

import orjson
import pytest

pytest.importorskip("pyarrow")

from _batch import UTF16, batch_chunks, cli_chunks, make_corpus, manifest

from chunker import chunk_source
from chunker.batch import run_batch
from chunker.batch.listing import Listed
from chunker.batch.plan import plan
from chunker.batch.run import BatchOptions
from chunker.batch.work import run_group
from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.settings import Settings

GOLDEN = Path(__file__).resolve().parent / "golden"


def batch(src: Path, out: Path, **kw: object) -> dict[str, str]:
    """Run a batch with default settings; statuses by doc_id."""
    summary = run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(out), jobs=1, **kw))  # type: ignore[arg-type]
    return {d.stem: d.status for d in summary.documents}


@pytest.mark.parametrize("case", sorted(p.stem for p in GOLDEN.glob("*.md")))
def test_the_per_document_function_gives_the_chunks_json_of_the_main_command(case: str, tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(GOLDEN / f"{case}.md", src / f"{case}.md")
    code, found, _ = cli_chunks(src, tmp_path / "out")
    assert code == 0
    raw = (src / f"{case}.md").read_bytes()
    outcome = chunk_source(raw, doc_id=case, source_path=str(src / f"{case}.md"), config=ChunkerConfig())
    assert outcome.status == "chunked" and outcome.exit_code == 0
    assert outcome.artifacts["chunks.json"] == (tmp_path / "out" / case / "chunks.json").read_bytes()
    assert [c.to_dict() for c in outcome.chunks] == found[case]
    assert (tmp_path / "out" / case / "meta.json").read_bytes().count(outcome.fingerprint.encode()) == 1


def test_a_batch_run_gives_the_chunks_of_the_main_command_and_a_row_per_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    make_corpus(src)
    code, expected, err = cli_chunks(src, tmp_path / "cli", capsys)
    assert code == 3
    assert batch(src, tmp_path / "out") == {
        **{f"doc-{k:02d}": "new" for k in range(40)},
        "utf16": "failed",
        "empty": "new",
    }
    assert batch_chunks(tmp_path / "out") == {k: v for k, v in expected.items() if v}
    rows = manifest(tmp_path / "out")
    assert rows["utf16"]["exit_code"] == 3 and rows["utf16"]["message"] in err
    assert rows["utf16"]["message"].startswith(str(src / "utf16.md") + ":1: ")
    assert rows["empty"]["chunk_keys"] == [] and rows["empty"]["files"] == []
    assert rows["doc-07"]["chunk_keys"] == [c["chunk_key"] for c in expected["doc-07"]]
    assert rows["doc-07"]["source_sha256"] == hashlib.sha256((src / "doc-07.md").read_bytes()).hexdigest()


def _listing(n: int, size: int = 10, mtime: int = 1) -> list[Listed]:
    return [Listed(f"d{k:03d}", f"/s/d{k:03d}.md", f"s/d{k:03d}.md", size, mtime) for k in range(n)]


def test_the_plan_joins_the_listing_with_the_manifest_on_doc_id() -> None:
    before = _listing(40)
    old = {
        i.doc_id: {"doc_id": i.doc_id, "path": i.path, "size": 10, "mtime_ns": 1, "fingerprint": "F"} for i in before
    }
    now = [Listed(i.doc_id, i.path, i.display, 10, 2) for i in before[:37]]  # touched: new time only
    now += [Listed(i.doc_id, i.path, i.display, 12, 2) for i in before[37:39]]  # edited
    now.append(Listed("d100", "/s/d100.md", "s/d100.md", 5, 2))  # added; d039 deleted
    p = plan(now, old, lambda _: "F")
    assert [(t.item.doc_id, t.action) for t in p.tasks] == [(i.doc_id, "check") for i in now[:39]] + [("d100", "chunk")]
    assert not p.unchanged and [r["doc_id"] for r in p.removed] == ["d039"]
    assert len(plan(before[:39], old, lambda _: "F").unchanged) == 39
    other = plan(before, old, lambda d: "G" if d == "d005" else "F")
    assert [(t.item.doc_id, t.action) for t in other.tasks] == [("d005", "chunk")]
    assert all(t.action == "check" for t in plan(before, old, lambda _: "F", verify=True).tasks)
    kept = plan(now, old, lambda _: "F", keep_orphans=True)
    assert not kept.removed and [r["doc_id"] for r in kept.kept] == ["d039"]


def test_touch_37_edit_2_add_1_delete_1_chunks_3_and_removes_1(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 41, bad=False)
    batch(src, out)
    files = sorted(src.glob("doc-*.md"))
    for path in files[:37]:
        os.utime(path, ns=(path.stat().st_mtime_ns + 10**9,) * 2)  # touched: same bytes, new time
    for path in files[37:39]:
        path.write_text(path.read_text(encoding="utf-8") + "\nOne more paragraph.\n", encoding="utf-8")
    (src / "added.md").write_text("# Added\n\nA new document.\n", encoding="utf-8")
    files[40].unlink()
    statuses = batch(src, out)
    changed = {k: v for k, v in statuses.items() if v != "unchanged"}
    assert changed == {"doc-37": "changed", "doc-38": "changed", "added": "new", "doc-40": "removed"}
    assert len(statuses) == 42
    rows = manifest(out)
    assert rows["doc-40"]["status"] == "removed" and rows["doc-40"]["chunk_keys"]  # the keys a store must delete
    assert cli_chunks(src, tmp_path / "cli")[0] == 0
    assert batch_chunks(out) == cli_chunks(src, tmp_path / "cli")[1]
    assert "doc-40" not in batch(src, out) and "doc-40" not in manifest(out)  # reported removed once, then gone


def test_a_rerun_reads_nothing_and_rewrites_no_chunk_file(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 12)
    batch(src, out)
    parts = {p.name: p.stat().st_mtime_ns for p in (out / "chunks").iterdir()}
    done: list[int] = []
    summary = run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(out), jobs=1), lambda: done.append(1))
    assert done == []
    assert {d.status for d in summary.documents} == {"unchanged", "failed"}
    assert summary.exit_code == 3  # the failed document still fails the run, as in the main command
    assert {p.name: p.stat().st_mtime_ns for p in (out / "chunks").iterdir()} == parts


def test_verify_rehashes_files_whose_size_and_time_are_unchanged(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 3, bad=False)
    batch(src, out)
    path = src / "doc-01.md"
    info = path.stat()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("# Guide 1\n", "# Guide Z\n"), encoding="utf-8")  # same size
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert batch(src, out)["doc-01"] == "unchanged"  # size and time are the cheap signal
    assert batch(src, out, verify=True) == {"doc-00": "unchanged", "doc-01": "changed", "doc-02": "unchanged"}
    assert "Guide Z" in batch_chunks(out)["doc-01"][0]["content_for_embedding"]


def test_changed_options_rechunk_and_stale_chunk_files_are_deleted(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 5, bad=False)
    batch(src, out)
    first = {p.name for p in (out / "chunks").iterdir()}
    # max_chars alone leaves these small documents' chunks as they were: rebuilt, as the main command says
    settings = Settings(ChunkerConfig(max_chars=400, target_chars=300))
    summary = run_batch(settings, BatchOptions(str(src), str(out), jobs=1))
    assert {d.status for d in summary.documents} == {"rebuilt"}
    assert not first & {p.name for p in (out / "chunks").iterdir()}  # each row carries the fingerprint
    second = {p.name for p in (out / "chunks").iterdir()}
    settings = Settings(ChunkerConfig(max_chars=400, target_chars=300, context_prefix="none"))
    summary = run_batch(settings, BatchOptions(str(src), str(out), jobs=1))
    assert {d.status for d in summary.documents} == {"changed"}
    assert not second & {p.name for p in (out / "chunks").iterdir()}
    assert all(len(c["content_for_embedding"]) <= 400 for cs in batch_chunks(out).values() for c in cs)
    assert not any(c["content_for_embedding"].startswith("Guide") for cs in batch_chunks(out).values() for c in cs)


def test_keep_orphans_keeps_the_chunks_of_a_deleted_source(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 3, bad=False)
    batch(src, out)
    (src / "doc-02.md").unlink()
    assert batch(src, out, keep_orphans=True)["doc-02"] == "unchanged"
    assert "doc-02" in batch_chunks(out)
    assert batch(src, out)["doc-02"] == "removed"
    assert "doc-02" not in batch_chunks(out)


def test_process_pool_and_serial_runs_write_the_same_files(tmp_path: Path) -> None:
    src = tmp_path / "src"
    make_corpus(src, 40)
    outs = []
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(out), jobs=jobs, group_docs=8))
        outs.append({p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    # 42 documents in groups of 8: 6 groups, the last one (empty, utf16) without chunks
    assert len([n for n in outs[0] if n.startswith("chunks/")]) == 5
    assert outs[0] == outs[1]


def test_jsonl_output_holds_the_export_records_of_the_main_command(tmp_path: Path) -> None:
    from chunker.batch import read_chunk_records
    from chunker.export import export

    src = tmp_path / "src"
    make_corpus(src, 4, bad=False)
    assert run_cli(["--sources", str(src), "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    export(tmp_path / "cli", tmp_path / "exp", "jsonl")
    expected = [
        orjson.loads(line) for p in sorted((tmp_path / "exp").glob("*.jsonl")) for line in p.read_bytes().splitlines()
    ]
    batch(src, tmp_path / "out", fmt="jsonl")
    assert read_chunk_records(str(tmp_path / "out")) == expected
    # another format re-chunks every document into the chunks it had: rebuilt, not changed
    assert batch(src, tmp_path / "out", fmt="parquet") == {f"doc-{k:02d}": "rebuilt" for k in range(4)}
    assert batch(src, tmp_path / "out", fmt="parquet") == {f"doc-{k:02d}": "unchanged" for k in range(4)}
    (src / "doc-01.md").write_text("# Other\n\nAnother text.\n", encoding="utf-8")
    assert batch(src, tmp_path / "out", fmt="jsonl")["doc-01"] == "changed"


def test_the_chunk_schema_has_a_column_for_every_chunks_json_field() -> None:
    from chunker.batch.store import CHUNK_COLUMNS, chunk_schema

    outcome = chunk_source(b"# A\n\ntext\n", doc_id="a", source_path="a.md", config=ChunkerConfig())
    schema = chunk_schema()
    assert set(schema.names) == {*outcome.chunks[0].to_dict(), *CHUNK_COLUMNS}
    assert schema.metadata[b"schema_version"] == str(__import__("chunker").SCHEMA_VERSION).encode()


def test_a_file_shadowed_by_one_with_the_same_id_is_reported_and_hidden_files_are_skipped(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub" / ".hidden").mkdir(parents=True)
    (src / "sub" / "a.md").write_text("# A\n\nmd\n", encoding="utf-8")
    (src / "sub" / "a.txt").write_text("txt\n", encoding="utf-8")
    (src / "sub" / ".hidden" / "b.md").write_text("# B\n", encoding="utf-8")
    (src / "notes.rst").write_text("x\n", encoding="utf-8")
    summary = run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(tmp_path / "o3"), jobs=1))
    assert sorted((d.stem, d.status, d.display.endswith(".txt")) for d in summary.documents) == [
        ("sub/a", "new", False),
        ("sub/a", "shadowed", True),
    ]


def test_the_command_exits_with_the_worst_code_and_prints_the_files_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "ok.md").write_text("# Ok\n\nfine\n", encoding="utf-8")
    (src / "bad.md").write_bytes(UTF16)
    assert run_cli(["batch", "--sources", str(src), "--out", str(tmp_path / "out"), "--json"]) == 3
    captured = capsys.readouterr()
    data = orjson.loads(captured.out)
    assert data["counts"] == {"failed": 1, "new": 1}
    assert f"{src / 'bad.md'}:1: " in captured.err
    assert run_cli(["batch", "--sources", str(tmp_path / "nope"), "--out", str(tmp_path / "out")]) == 2
    assert f"source folder {tmp_path / 'nope'} not found; check --sources" in capsys.readouterr().err
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert run_cli(["batch", "--sources", str(src), "--out", str(tmp_path / "file"), "--quiet"]) == 4
    assert run_cli(["batch", "--sources", str(src), "--out", str(tmp_path / "o"), "--engine", "spark"]) == 2


def test_overrides_that_differ_only_in_policy_judge_each_document_by_its_own(tmp_path: Path) -> None:
    # fail_on_* options are outside the fingerprint, so two such overrides share one: each document
    # must still be judged by its own override, as the main command judges it
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    for name in ("strict", "lenient"):
        (src / f"{name}.md").write_text("# T\n\n## S\n\n```\nnever closed\n", encoding="utf-8")
    settings = Settings(
        ChunkerConfig(),
        documents=(("strict", {"fail_on_broken_fence": True}), ("lenient", {"fail_on_broken_fence": False})),
    )
    assert settings.for_stem("strict").fingerprint() == settings.for_stem("lenient").fingerprint()
    run_batch(settings, BatchOptions(str(src), str(out), jobs=1))
    rows = manifest(out)
    assert rows["strict"]["exit_code"] == 1
    assert rows["lenient"]["exit_code"] == 0


def _dying_run_group(group: Any) -> Any:
    """``run_group`` whose process dies (SIGKILL, as the out-of-memory killer sends) on a group
    holding doc-05."""
    if any(t.item.doc_id == "doc-05" for t in group.tasks):
        os.kill(os.getpid(), signal.SIGKILL)
    return run_group(group)


def test_a_document_that_kills_its_worker_fails_alone_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chunker.batch.engines as engines

    src = tmp_path / "src"
    make_corpus(src, 12, bad=False)
    monkeypatch.setattr(engines, "run_group", _dying_run_group)
    summary = run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(tmp_path / "out"), jobs=2, group_docs=4))
    by_id = {d.stem: d for d in summary.documents}
    assert {k: d.status for k, d in by_id.items() if k != "doc-05"} == {
        f"doc-{k:02d}": "new" for k in range(12) if k != 5
    }
    assert by_id["doc-05"].status == "failed"
    assert by_id["doc-05"].exit_code == 3
    assert "doc-05.md: the process chunking it died (SIGKILL: out of memory?)" in by_id["doc-05"].message
    assert summary.exit_code == 3
    # the group-mates of doc-05 were chunked alone: their chunks are there
    assert set(batch_chunks(tmp_path / "out")) == {f"doc-{k:02d}" for k in range(12) if k != 5}


def test_a_removed_document_counts_no_chunks_in_the_summary_as_in_the_main_command(tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 3, bad=False)
    first = run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(out), jobs=1))
    chunks = {d.stem: d.metrics["total_chunks"] for d in first.documents}
    (src / "doc-01.md").unlink()
    again = run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(out), jobs=1))
    removed = next(d for d in again.documents if d.stem == "doc-01")
    assert removed.status == "removed" and removed.metrics == {}  # the totals and the table count no chunks of it
    assert sum(d.metrics.get("total_chunks", 0) for d in again.documents) == chunks["doc-00"] + chunks["doc-02"]
    assert manifest(out)["doc-01"]["chunk_keys"]  # the manifest still lists its keys for a store to delete


def test_reading_back_a_batch_output_of_the_other_format_or_none_says_what_to_do(tmp_path: Path) -> None:
    # read_chunks of a mistyped folder gave an empty table; read_chunk_records of a Parquet output raised
    # 'JSONDecodeError: str is not valid UTF-8' from the Parquet bytes
    from chunker.batch import read_chunk_records, read_chunks
    from chunker.errors import OutputError

    src = tmp_path / "src"
    make_corpus(src, 2, bad=False)
    batch(src, tmp_path / "pq", fmt="parquet")
    batch(src, tmp_path / "jl", fmt="jsonl")
    assert read_chunks(str(tmp_path / "pq")).num_rows == len(read_chunk_records(str(tmp_path / "jl"))) > 0
    with pytest.raises(OutputError, match=r"pq: the chunks were written as Parquet; read them with read_chunks$"):
        read_chunk_records(str(tmp_path / "pq"))
    with pytest.raises(OutputError, match=r"jl: the chunks were written as JSON Lines; read them with read_chunk_rec"):
        read_chunks(str(tmp_path / "jl"))
    for reader in (read_chunks, read_chunk_records):
        with pytest.raises(OutputError, match=r"nope: no batch output here \(no documents/manifest.parquet\); run "):
            reader(str(tmp_path / "nope"))


def test_a_change_of_the_code_that_leaves_the_chunks_as_they_were_is_rebuilt_not_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the fingerprint holds the chunking code's digest; after a fix that moved one page of react-native-website,
    # batch called all 1,830 'changed', as it took a new fingerprint for new chunks
    import chunker.code_digest

    src = tmp_path / "src"
    make_corpus(src, 4, bad=False)
    batch(src, tmp_path / "out")
    rows = manifest(tmp_path / "out")
    for doc, row in rows.items():
        assert len(row["chunks_sha256"]) == 64, doc
    monkeypatch.setattr(chunker.code_digest, "_CODE_DIGEST", ["another version of the code"])
    (src / "doc-01.md").write_text("# Other\n\nAnother text.\n", encoding="utf-8")
    statuses = batch(src, tmp_path / "out")
    assert statuses == {"doc-00": "rebuilt", "doc-01": "changed", "doc-02": "rebuilt", "doc-03": "rebuilt"}
    assert batch(src, tmp_path / "out") == dict.fromkeys(statuses, "unchanged")
    # the digest is of the main command's chunks.json
    assert run_cli(["--sources", str(src), "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    after = manifest(tmp_path / "out")
    for doc, row in after.items():
        expected = hashlib.sha256((tmp_path / "cli" / doc / "chunks.json").read_bytes()).hexdigest()
        assert row["chunks_sha256"] == expected, doc


def test_a_manifest_written_before_chunks_sha256_still_tells_rebuilt_by_its_keys_and_hashes(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    src = tmp_path / "src"
    make_corpus(src, 3, bad=False)
    batch(src, tmp_path / "out", fmt="jsonl")
    path = tmp_path / "out" / "documents" / "manifest.parquet"
    table = pq.read_table(path)
    pq.write_table(table.drop_columns(["chunks_sha256"]).replace_schema_metadata(table.schema.metadata), path)
    assert batch(src, tmp_path / "out", fmt="parquet") == dict.fromkeys(manifest(tmp_path / "out"), "rebuilt")
