"""One walk of the output folder finds its document folders, temporary files and ownerless
artifacts (chunker/output_tree.py, walk_output), listing each folder once; it finds what the two
walks it replaced found (their code is kept here as the reference)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chunker.leftovers import ARTIFACTS, TEMPORARY, find_leftovers
from chunker.output_tree import document_folders, walk_output
from chunker.sources import MAX_DEPTH, RESERVED_IDS


def old_document_folders(out_dir: Path) -> list[str]:
    found: list[str] = []
    stack: list[tuple[str, str, int]] = [(str(out_dir), "", 0)]
    while stack:
        folder, prefix, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
                continue
            if depth == 0 and entry.name in RESERVED_IDS:
                continue
            stem = prefix + entry.name
            if os.path.isfile(os.path.join(entry.path, "meta.json")):
                found.append(stem)
            if depth < MAX_DEPTH:
                stack.append((entry.path, stem + "/", depth + 1))
    return sorted(found)


def old_leftovers(out_dir: Path) -> tuple[list[Path], list[Path]]:
    temporary: list[Path] = []
    ownerless: list[Path] = []
    stack: list[tuple[str, int]] = [(str(out_dir), 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        names = set()
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                hidden = entry.name.startswith(".") or (depth == 0 and entry.name in RESERVED_IDS)
                if not hidden and depth < MAX_DEPTH:
                    stack.append((entry.path, depth + 1))
                continue
            names.add(entry.name)
            if depth and TEMPORARY.match(entry.name) and entry.is_file(follow_symlinks=False):
                temporary.append(Path(entry.path))
        if depth and "meta.json" not in names and any(name in names for name in ARTIFACTS):
            ownerless.append(Path(folder))
    return sorted(temporary), sorted(ownerless)


def touch(path: Path, data: bytes = b"{}\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def hostile_tree(tmp_path: Path) -> Path:
    out = tmp_path / "chunks"
    for doc in ("a", "b", "guides/c", "guides/c/d", "_export/x", "_eval/y", ".hidden/z", "deep/_export"):
        touch(out / doc / "meta.json")
        touch(out / doc / "chunks.json")
    touch(out / "a" / ".chunks.json.123-1.tmp")
    touch(out / "guides" / ".report.json.k1ll3d.tmp")
    touch(out / ".meta.json.9-9.tmp")  # at the top: not a document folder's
    touch(out / "_export" / "x" / ".chunks.json.1-1.tmp")  # below a reserved folder: not searched
    touch(out / "ownerless" / "report.json")
    touch(out / "ownerless-chunks" / "chunks.json")
    (out / "folder-meta" / "meta.json").mkdir(parents=True)  # a folder named meta.json
    touch(out / "folder-meta" / "chunks.json")
    touch(tmp_path / "elsewhere" / "meta.json")
    os.symlink(tmp_path / "elsewhere", out / "linked-folder")  # never followed
    (out / "meta-link").mkdir()
    os.symlink(tmp_path / "elsewhere" / "meta.json", out / "meta-link" / "meta.json")  # counts, as isfile
    (out / "dangling").mkdir()
    os.symlink(tmp_path / "nowhere", out / "dangling" / "meta.json")
    touch(out / "dangling" / "report.json")
    os.symlink(tmp_path / "elsewhere", out / "a" / ".meta.json.5-5.tmp")  # a symlink: not a temporary file
    deep = out
    for level in range(MAX_DEPTH + 3):
        deep = deep / f"l{level}"
        touch(deep / "meta.json")
        touch(deep / f".chunks.json.{level}-0.tmp")
    touch(out / "chunks.json")  # at the top: no folder of a document
    return out


def test_the_walk_finds_what_the_two_walks_it_replaced_found(tmp_path: Path) -> None:
    out = hostile_tree(tmp_path)
    walked = walk_output(out)
    assert walked.documents == old_document_folders(out) == document_folders(out)
    assert (walked.temporary, walked.ownerless) == old_leftovers(out)
    found = find_leftovers(out)
    assert (found.temporary, found.ownerless) == old_leftovers(out)
    assert "meta-link" in walked.documents and "dangling" not in walked.documents
    assert len([d for d in walked.documents if d.startswith("l0/")]) == MAX_DEPTH  # depth 1 .. 32
    assert {p.name for p in walked.ownerless} == {"ownerless", "ownerless-chunks", "folder-meta"}


def test_an_unlistable_folder_with_a_meta_json_is_a_document_folder_all_the_same(tmp_path: Path) -> None:
    out = tmp_path / "chunks"
    touch(out / "locked" / "meta.json")
    os.chmod(out / "locked", 0o100)  # can be entered, not listed
    try:
        if os.access(out / "locked", os.R_OK):
            pytest.skip("this user lists any folder (root)")
        assert walk_output(out).documents == old_document_folders(out) == ["locked"]
    finally:
        os.chmod(out / "locked", 0o755)


def test_a_run_lists_each_folder_of_the_output_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chunker.config import ChunkerConfig
    from chunker.runner import run
    from chunker.settings import Settings

    sources = tmp_path / "sources"
    sources.mkdir()
    for k in range(3):
        (sources / f"d{k}.md").write_text(f"# D{k}\n\ntext {k}\n", encoding="utf-8")
    out = tmp_path / "chunks"
    settings = Settings(defaults=ChunkerConfig(min_chars=1))
    assert run(settings, sources, out).exit_code == 0
    listed: list[str] = []
    real = os.scandir

    def scandir(path: str) -> object:
        listed.append(str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    assert run(settings, sources, out).exit_code == 0
    below = sorted(p for p in listed if Path(p) == out or Path(p).parent == out)
    assert below == sorted([str(out), *(str(out / f"d{k}") for k in range(3))])  # was each twice
