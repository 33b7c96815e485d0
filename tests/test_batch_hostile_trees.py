"""``chunker batch`` on source trees and outputs the main command was hardened against: a local
tree is walked as the main command walks it (symlinked folders listed, not followed; names that are
not UTF-8 left out, named), and a manifest that is not a regular file is refused, not opened."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from chunker.batch.listing import list_sources
from chunker.batch.store import MANIFEST, read_manifest
from chunker.errors import OutputError


def _doc(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# T\n\nZQX text.\n", encoding="utf-8")


def test_a_symlinked_folder_is_left_out_not_followed(tmp_path: Path) -> None:
    """``loop -> .`` was followed 40 deep (41 documents of one file); three such links never ended."""
    _doc(tmp_path / "src" / "ok.md")
    os.symlink(".", tmp_path / "src" / "loop")
    _, listing = list_sources(str(tmp_path / "src"))
    assert [item.doc_id for item in listing.found] == ["ok"]
    assert [(x.reason, x.folder) for x in listing.left_out] == [("symlinked-folder", True)]


def test_a_name_that_is_not_utf8_is_left_out_and_named(tmp_path: Path) -> None:
    """``caf\\xe9.md`` (Latin-1) made the listing raise UnicodeDecodeError: exit 5."""
    _doc(tmp_path / "src" / "ok.md")
    (tmp_path / "src").joinpath(os.fsdecode(b"caf\xe9.md")).write_bytes(b"# T\n\nx\n")
    _, listing = list_sources(str(tmp_path / "src"))
    assert [item.doc_id for item in listing.found] == ["ok"]
    assert [(x.reason, x.detail) for x in listing.left_out] == [("invalid-name", "not UTF-8")]
    assert "caf\\xe9.md" in listing.left_out[0].display


def test_files_that_are_no_regular_files_are_not_listed(tmp_path: Path) -> None:
    _doc(tmp_path / "src" / "ok.md")
    os.mkfifo(tmp_path / "src" / "fifo.md")
    os.symlink("/dev/null", tmp_path / "src" / "null.md")
    os.symlink(tmp_path / "gone.md", tmp_path / "src" / "dangling.md")
    _, listing = list_sources(str(tmp_path / "src"))
    assert [item.doc_id for item in listing.found] == ["ok"]


def test_a_manifest_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    """A FIFO in its place blocked the run for ever; a device is refused the same way, unopened."""
    from pyarrow import fs as pafs

    (tmp_path / "documents").mkdir()
    os.symlink("/dev/null", tmp_path / MANIFEST)
    with pytest.raises(OutputError, match=r"manifest.*not a regular file"):
        read_manifest(pafs.LocalFileSystem(), str(tmp_path))


def test_names_that_differ_only_in_nfc_and_nfd_are_told_apart(tmp_path: Path) -> None:
    """The shadowed warning named both files alike: 'sources/café.md: ... sources/café.md has the same
    document id'."""
    import unicodedata

    from chunker.batch import run_batch
    from chunker.batch.run import BatchOptions
    from chunker.config import ChunkerConfig
    from chunker.settings import Settings

    for form in ("NFC", "NFD"):
        _doc(tmp_path / "src" / unicodedata.normalize(form, "café.md"))
    summary = run_batch(Settings(ChunkerConfig()), BatchOptions(str(tmp_path / "src"), str(tmp_path / "out"), jobs=1))
    (shadowed,) = [d for d in summary.documents if d.status == "shadowed"]
    message = shadowed.diagnostics[0].message
    assert "cafe\\u0301.md" in shadowed.display + message and "NFC or NFD" in message
