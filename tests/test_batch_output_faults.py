"""``chunker batch`` on an output that fails or is shared: a full disk leaves no temporary file
behind, two runs on one local output take turns, and chunk files that are gone are written again
(before, a run's garbage collection deleted another run's new chunk files and both exited 0: the
manifest listed files that no longer existed, and every later run carried that over)."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyarrow")

from _batch import batch_chunks, make_corpus

from chunker.batch import run_batch
from chunker.batch.run import BatchOptions
from chunker.batch.store import _write_atomic, collect_garbage
from chunker.config import ChunkerConfig
from chunker.errors import OutputError
from chunker.settings import Settings


def _batch(src: Path, out: Path) -> Any:
    return run_batch(Settings(ChunkerConfig()), BatchOptions(str(src), str(out), jobs=1))


class _FullDisk:
    """The local file system, save that a write stops after its first 100 bytes with ENOSPC."""

    def __init__(self) -> None:
        from pyarrow import fs as pafs

        self.real = pafs.LocalFileSystem()

    def create_dir(self, path: str, recursive: bool = True) -> None:
        self.real.create_dir(path, recursive=recursive)

    def open_output_stream(self, path: str) -> Any:
        real = self.real.open_output_stream(path)

        class Stream:
            def __enter__(self) -> Stream:
                return self

            def __exit__(self, *exc: object) -> None:
                real.close()

            def write(self, data: bytes) -> None:
                real.write(data[:100])
                raise OSError(errno.ENOSPC, "No space left on device")

        return Stream()

    def move(self, src: str, dest: str) -> None:
        self.real.move(src, dest)

    def delete_file(self, path: str) -> None:
        self.real.delete_file(path)


def test_a_write_that_fails_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A run that filled the disk left its .tmp-PID-part-*.parquet (224 KB on a 256 KB tmpfs): the
    disk stayed full and every later run failed the same way."""
    with pytest.raises(OutputError, match=r"cannot write .*part\.parquet.*No space left"):
        _write_atomic(_FullDisk(), f"{tmp_path}/chunks/part.parquet", b"x" * 1000)
    assert os.listdir(tmp_path / "chunks") == []


def test_temporary_files_of_a_killed_run_are_collected(tmp_path: Path) -> None:
    (tmp_path / "chunks").mkdir()
    (tmp_path / "documents").mkdir()
    (tmp_path / "chunks" / ".tmp-99-part-a.parquet").write_bytes(b"x")
    (tmp_path / "documents" / ".tmp-99-manifest.parquet").write_bytes(b"x")
    (tmp_path / "documents" / "manifest.parquet").write_bytes(b"x")
    from pyarrow import fs as pafs

    assert collect_garbage(pafs.LocalFileSystem(), str(tmp_path), []) == 2
    assert os.listdir(tmp_path / "documents") == ["manifest.parquet"]


def test_a_run_holds_the_output_locked(tmp_path: Path) -> None:
    """Another run on the same local output waits for it (then 'busy', exit 4), as the main command's."""
    make_corpus(tmp_path / "src", count=3, bad=False)
    out = tmp_path / "out"
    held: list[bool] = []

    def progress() -> None:
        fd = os.open(out / ".lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)
        except BlockingIOError:
            held.append(True)
        finally:
            os.close(fd)

    run_batch(Settings(ChunkerConfig()), BatchOptions(str(tmp_path / "src"), str(out), jobs=1), progress)
    assert held and all(held)


def test_chunk_files_that_are_gone_are_written_again(tmp_path: Path) -> None:
    make_corpus(tmp_path / "src", count=6, bad=False)
    out = tmp_path / "out"
    _batch(tmp_path / "src", out)
    before = batch_chunks(out)
    for part in (out / "chunks").iterdir():
        part.unlink()
    summary = _batch(tmp_path / "src", out)
    assert batch_chunks(out) == before
    warned = {d.stem for d in summary.documents if any(x.code == "files-missing" for x in d.diagnostics)}
    assert warned == set(before)
