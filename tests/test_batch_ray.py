"""chunker batch --engine ray on a local cluster (num_cpus=2), one cluster for the whole session.

Marked ``ray`` (deselected by default): ``pip install -e '.[ray]' && python -m pytest -q -m ray``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _batch import batch_chunks, cli_chunks, make_corpus, manifest

from chunker.batch import run_batch
from chunker.batch.run import BatchOptions
from chunker.config import ChunkerConfig
from chunker.settings import Settings

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray


@pytest.fixture(scope="session")
def cluster() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


def run(src: Path, out: Path, **kw: Any) -> tuple[dict[str, str], int, int]:
    """(statuses by doc_id, documents processed by workers, exit code) of a Ray batch run."""
    done: list[int] = []
    opts = BatchOptions(str(src), str(out), engine="ray", group_docs=8, **kw)
    summary = run_batch(Settings(ChunkerConfig()), opts, lambda: done.append(1))
    return {d.stem: d.status for d in summary.documents}, len(done), summary.exit_code


def test_ray_gives_the_chunks_of_the_main_command_and_of_the_local_engine(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "src", tmp_path / "ray"
    make_corpus(src)
    code, expected, err = cli_chunks(src, tmp_path / "cli", capsys)
    statuses, processed, exit_code = run(src, out)
    assert processed == 42 and exit_code == code == 3
    assert [k for k, v in statuses.items() if v == "failed"] == ["utf16"]
    assert batch_chunks(out) == {k: v for k, v in expected.items() if v}
    rows = manifest(out)
    assert rows["utf16"]["message"] in err and rows["utf16"]["exit_code"] == 3
    assert [k for k, r in rows.items() if r["status"] != "failed" and not r["chunk_keys"]] == ["empty"]
    local = tmp_path / "local"
    run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(local), jobs=1, group_docs=8))
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert files == {p.relative_to(local).as_posix(): p.read_bytes() for p in sorted(local.rglob("*")) if p.is_file()}


def test_a_ray_rerun_processes_nothing_and_a_deletion_is_reported_removed(cluster: Any, tmp_path: Path) -> None:
    src, out = tmp_path / "src", tmp_path / "out"
    make_corpus(src, 10)
    run(src, out)
    statuses, processed, _ = run(src, out)
    assert processed == 0 and set(statuses.values()) == {"unchanged", "failed"}
    (src / "doc-03.md").unlink()
    statuses, processed, _ = run(src, out)
    assert processed == 0 and statuses["doc-03"] == "removed"
    assert manifest(out)["doc-03"]["chunk_keys"] and "doc-03" not in batch_chunks(out)
