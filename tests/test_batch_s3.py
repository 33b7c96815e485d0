"""chunker batch on an ``s3://`` source and output: a local moto server (127.0.0.1, no network)
behind pyarrow's S3 file system. Needs ``moto[server]`` (CI installs it in the Ray step); skips
without it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _batch import UTF16, cli_chunks, document

from chunker.batch import read_chunks, run_batch
from chunker.batch.run import BatchOptions
from chunker.batch.store import CHUNK_COLUMNS
from chunker.config import ChunkerConfig
from chunker.settings import Settings

pytestmark = pytest.mark.s3


@pytest.fixture(scope="module")
def s3() -> Iterator[tuple[Any, str]]:
    server_mod = pytest.importorskip("moto.server")
    from pyarrow import fs

    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    options = f"endpoint_override={host}:{port}&scheme=http&region=us-east-1&allow_bucket_creation=true"
    filesys = fs.S3FileSystem(
        access_key="test",
        secret_key="test",
        endpoint_override=f"{host}:{port}",
        scheme="http",
        region="us-east-1",
        allow_bucket_creation=True,
    )
    yield filesys, options
    server.stop()


def test_an_s3_source_gives_the_chunks_of_the_main_command_and_reruns_incrementally(
    s3: tuple[Any, str], tmp_path: Path
) -> None:
    filesys, options = s3
    local = tmp_path / "src"
    (local / "guides").mkdir(parents=True)
    filesys.create_dir("docs")
    files = {f"doc-{k}.md": document(k).encode() for k in range(5)} | {"utf16.md": UTF16}
    for name, data in files.items():
        (local / name).write_bytes(data)
        with filesys.open_output_stream(f"docs/{name}") as out:
            out.write(data)
    src, out = f"s3://test:test@docs?{options}", f"s3://test:test@chunks?{options}"
    summary = run_batch(Settings(ChunkerConfig()), BatchOptions(src, out, jobs=2))
    statuses = {d.stem: (d.status, d.display) for d in summary.documents}
    assert statuses["utf16"] == ("failed", "s3://docs/utf16.md")  # no credentials or endpoint in messages
    assert {s for s, _ in statuses.values()} == {"new", "failed"} and summary.exit_code == 3
    _, expected, _ = cli_chunks(local, tmp_path / "cli")
    found: dict[str, list[dict[str, Any]]] = {}
    for row in read_chunks(out).to_pylist():
        found.setdefault(row["doc_id"], []).append({k: v for k, v in row.items() if k not in CHUNK_COLUMNS})
    assert found == expected
    again = run_batch(Settings(ChunkerConfig()), BatchOptions(src, out, jobs=2))
    assert {d.status for d in again.documents} == {"unchanged", "failed"}
    filesys.delete_file("docs/doc-3.md")
    last = {d.stem: d.status for d in run_batch(Settings(ChunkerConfig()), BatchOptions(src, out, jobs=1)).documents}
    assert last["doc-3"] == "removed" and "doc-3" not in {r["doc_id"] for r in read_chunks(out).to_pylist()}
