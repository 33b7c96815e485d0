"""`chunker export` never removes or overwrites a file it did not write (manifest with sha256)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from chunker import export as export_module
from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.errors import OutputError
from chunker.export import export
from chunker.export_manifest import MANIFEST
from chunker.runner import run
from chunker.settings import Settings

DOC = "# G\n\n## One\n\nx\n"
LONG = "# G\n\n## One\n\nfirst section text.\n\n## Two\n\nsecond section text.\n\n## Three\n\nthird section text.\n"


def chunked(tmp_path: Path, text: str = DOC, stem: str = "g") -> Path:
    sources = tmp_path / "sources"
    sources.mkdir(exist_ok=True)
    (sources / f"{stem}.md").write_text(text, encoding="utf-8")
    out = tmp_path / "chunks"
    assert run(Settings(defaults=ChunkerConfig(min_chars=1)), sources, out, (stem,)).exit_code == 0
    return out


def test_md_export_leaves_a_users_numbered_file_in_the_stem_folder_alone_and_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = chunked(tmp_path)
    vault = tmp_path / "vault"
    (vault / "g").mkdir(parents=True)
    mine = vault / "g" / "001-my-notes.md"
    mine.write_text("mine\n", encoding="utf-8")
    code = run_cli(["export", "--format", "md", "--chunks", str(out), "--out", str(vault)])
    assert code == 0
    assert mine.read_text(encoding="utf-8") == "mine\n"
    captured = capsys.readouterr()
    assert "stale removed" not in captured.out
    assert f"left alone: {mine}" in captured.err
    done = export(out, vault, "md")
    assert done[0].left_alone == (mine,) and done[0].removed == ()


def test_jsonl_export_refuses_to_overwrite_a_file_it_did_not_write_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = chunked(tmp_path)
    vault = tmp_path / "vault"
    vault.mkdir()
    theirs = vault / "g.jsonl"
    theirs.write_text("mine\n", encoding="utf-8")
    code = run_cli(["export", "--format", "jsonl", "--chunks", str(out), "--out", str(vault)])
    assert code == 4
    assert theirs.read_text(encoding="utf-8") == "mine\n"
    assert str(theirs) in capsys.readouterr().err
    assert not (vault / MANIFEST).exists()  # nothing was written at all
    assert run_cli(["export", "--format", "jsonl", "--chunks", str(out), "--out", str(vault), "--force"]) == 0
    assert orjson.loads(theirs.read_bytes().splitlines()[0])["id"] == "g/one"
    assert run_cli(["export", "--format", "jsonl", "--chunks", str(out), "--out", str(vault)]) == 0  # ours now


def test_an_export_file_edited_by_hand_is_neither_overwritten_nor_removed(tmp_path: Path) -> None:
    out = chunked(tmp_path, LONG)
    vault = tmp_path / "vault"
    first = export(out, vault, "md")[0].written
    assert len(first) >= 3
    edited, last = first[0], first[-1]
    edited.write_text(edited.read_text(encoding="utf-8") + "my note\n", encoding="utf-8")
    with pytest.raises(OutputError, match="pass --force"):
        export(out, vault, "md")
    last.write_text("my own text\n", encoding="utf-8")
    chunked(tmp_path, LONG.split("## Three")[0])  # the last chunk's file becomes stale
    done = export(out, vault, "md", force=True)[0]
    assert last.read_text(encoding="utf-8") == "my own text\n"
    assert done.left_alone == (last,) and done.removed == ()


def test_stale_exports_that_are_ours_are_still_removed(tmp_path: Path) -> None:
    out = chunked(tmp_path, LONG)
    vault = tmp_path / "vault"
    first = export(out, vault, "md")[0].written
    chunked(tmp_path, LONG.split("## Three")[0])
    done = export(out, vault, "md")[0]
    assert done.removed == (first[-1],) and not first[-1].exists()


def test_an_export_killed_part_way_is_redone_without_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = chunked(tmp_path, LONG)
    vault = tmp_path / "vault"
    export(out, vault, "md")
    chunked(tmp_path, LONG.replace("text.", "text, changed."))
    real = export_module._write
    calls = {"n": 0}

    def dying(root: Path, key: str, data: bytes, *batch: Any) -> bool:
        calls["n"] += 1
        if calls["n"] == 3:  # the manifest, one new file, then the kill
            raise KeyboardInterrupt
        return real(root, key, data, *batch)

    monkeypatch.setattr(export_module, "_write", dying)
    with pytest.raises(KeyboardInterrupt):
        export(out, vault, "md")
    monkeypatch.setattr(export_module, "_write", real)
    done = export(out, vault, "md")[0]
    assert all("changed" in p.read_text(encoding="utf-8") for p in done.written[1:])
    assert done.left_alone == ()


@pytest.mark.parametrize("fmt", ["md", "jsonl"])
def test_an_export_of_unchanged_chunks_rewrites_no_file(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = chunked(tmp_path, LONG)
    vault = tmp_path / "vault"
    first = export(out, vault, fmt)[0]
    assert first.unchanged == ()
    files = [*first.written, vault / MANIFEST]
    inodes = {p: p.stat().st_ino for p in files}  # an atomic replace makes a new inode
    again = export(out, vault, fmt)[0]
    assert again.written == first.written and again.unchanged == first.written
    assert {p: p.stat().st_ino for p in files} == inodes
    chunked(tmp_path, LONG.replace("second section text.", "second section, changed."))
    changed = export(out, vault, fmt)[0]
    rewritten = [p for p in changed.written if p not in changed.unchanged]
    assert any("changed" in p.read_text(encoding="utf-8") for p in rewritten)  # what changed is written
    capsys.readouterr()
    assert run_cli(["export", "--format", fmt, "--chunks", str(out), "--out", str(vault)]) == 0
    assert f"({len(changed.written)} unchanged)" in capsys.readouterr().out


def test_a_file_in_place_of_the_manifest_that_is_not_one_is_not_overwritten(tmp_path: Path) -> None:
    out = chunked(tmp_path)
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / MANIFEST).write_text("my settings\n", encoding="utf-8")
    with pytest.raises(OutputError, match=MANIFEST):
        export(out, vault, "jsonl")
    assert (vault / MANIFEST).read_text(encoding="utf-8") == "my settings\n"


def test_a_hand_edited_manifest_never_makes_a_file_outside_the_export_ours(tmp_path: Path) -> None:
    out = chunked(tmp_path)
    vault = tmp_path / "vault"
    export(out, vault, "md")
    precious = tmp_path / "precious.md"
    precious.write_text("keep\n", encoding="utf-8")
    numbered = tmp_path / "001-numbered.md"
    numbered.write_text("keep\n", encoding="utf-8")
    digest = export_module.sha256_bytes(b"keep\n")
    data = orjson.loads((vault / MANIFEST).read_bytes())
    data["files"]["../precious.md"] = [digest]
    data["files"]["g/../../precious.md"] = [digest]
    data["exports"]["md"].append("..")
    (vault / MANIFEST).write_bytes(orjson.dumps(data))
    (out / "g" / "meta.json").unlink()  # g is no longer chunked: a full export removes its files
    with pytest.raises(Exception, match="no chunked documents"):
        export(out, vault, "md")
    chunked(tmp_path, DOC, stem="h")
    export(out, vault, "md")
    assert precious.read_text(encoding="utf-8") == "keep\n"
    assert numbered.read_text(encoding="utf-8") == "keep\n"
    assert ".." not in orjson.loads((vault / MANIFEST).read_bytes())["exports"]["md"]
