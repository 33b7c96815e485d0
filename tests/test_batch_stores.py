"""chunker batch against an object store it cannot reach or that has no such bucket: one line naming
the store without the credentials of its URI, and the exit code of the side that failed (3 for the
sources, 4 for the output), never an internal error. No server needed: nothing listens on port 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunker.batch.listing import shown_uri
from chunker.cli import run_cli

pytest.importorskip("pyarrow.fs")

UNREACHABLE = "endpoint_override=127.0.0.1:1&scheme=http&region=us-east-1"


def _s3(path: str) -> str:
    from pyarrow import fs

    try:
        fs.S3FileSystem  # noqa: B018
    except AttributeError:
        pytest.skip("this pyarrow is built without S3")
    return f"s3://KEYID:SECRETKEY@{path}?{UNREACHABLE}"


def test_a_uri_is_shown_without_its_credentials_and_options() -> None:
    assert shown_uri("s3://KEYID:SECRET@bucket/docs?endpoint_override=h:9") == "s3://bucket/docs"
    assert shown_uri("gs://bucket/team@site/docs") == "gs://bucket/team@site/docs"
    assert shown_uri("docs/guides") == "docs/guides"


def test_sources_in_a_store_that_cannot_be_reached_exit_3_named_without_credentials(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run_cli(["batch", "--sources", _s3("bucket/docs"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 3, err
    assert err.startswith("error: cannot list the sources s3://bucket/docs: ")
    assert "SECRETKEY" not in err and "internal error" not in err
    assert not (tmp_path / "out").exists()


def test_an_output_store_that_cannot_be_reached_exits_4_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    code = run_cli(["batch", "--sources", str(tmp_path / "docs"), "--out", _s3("bucket/chunks"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 4, err
    assert err.startswith("error: cannot read the output bucket/chunks: ")
    assert "SECRETKEY" not in err and "internal error" not in err
