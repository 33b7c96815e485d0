"""A run removes only folders it provably wrote, trusts an artifact only by its content, and
cleans (or reports) what killed runs leave behind."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest

from chunker import writer
from chunker.config import ChunkerConfig
from chunker.errors import UsageError
from chunker.runner import run
from chunker.settings import Settings
from chunker.summary import RunSummary

SETTINGS = Settings(defaults=ChunkerConfig(min_chars=1))
GUIDE = "# Guide\n\n## Install\n\nRun the installer and wait.\n\n## Usage\n\nCall the tool.\n"


def setup(tmp_path: Path, text: str = GUIDE) -> tuple[Path, Path]:
    sources = tmp_path / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    (sources / "g.md").write_text(text, encoding="utf-8")
    return sources, tmp_path / "chunks"


def full_run(sources: Path, out: Path, **kwargs: bool) -> RunSummary:
    return run(SETTINGS, sources, out, **kwargs)  # type: ignore[arg-type]


def fresh_chunks(tmp_path: Path, text: str) -> bytes:
    sources, out = setup(tmp_path / "fresh", text)
    assert full_run(sources, out).exit_code == 0
    return (out / "g" / "chunks.json").read_bytes()


def test_a_users_folder_that_merely_holds_a_meta_json_is_never_removed(tmp_path: Path) -> None:
    sources, _ = setup(tmp_path)
    site = tmp_path / "site"
    (site / "settings").mkdir(parents=True)
    (site / "settings" / "meta.json").write_text('{"theme":"dark"}\n', encoding="utf-8")
    summary = full_run(sources, site)
    assert summary.exit_code == 0
    assert (site / "settings" / "meta.json").read_text(encoding="utf-8") == '{"theme":"dark"}\n'
    assert not [d for d in summary.documents if d.status == "removed"]
    assert any("settings" in w and "left alone" in w for w in summary.warnings)
    assert full_run(sources, site, check=True).exit_code == 0  # not ours: not stale either


def test_an_orphaned_document_folder_of_ours_is_still_removed(tmp_path: Path) -> None:
    sources, out = setup(tmp_path)
    (sources / "old.md").write_text("# Old\n\ntext\n", encoding="utf-8")
    assert full_run(sources, out).exit_code == 0
    (sources / "old.md").unlink()
    summary = full_run(sources, out)
    assert [d.stem for d in summary.documents if d.status == "removed"] == ["old"]
    assert not (out / "old").exists()


def test_the_document_folders_of_a_nested_output_folder_are_not_orphans_of_the_outer_one(tmp_path: Path) -> None:
    # `--out out/chunks` then `--out out`: out/chunks/g is chunker's, but the folder of id "g" of another
    # output root, not of id "chunks/g" here; the outer run leaves it alone and says so
    sources, _ = setup(tmp_path)
    out = tmp_path / "out"
    assert full_run(sources, out / "chunks").exit_code == 0
    summary = full_run(sources, out)
    assert summary.exit_code == 0
    assert not [d for d in summary.documents if d.status == "removed"]
    assert (out / "chunks" / "g" / "chunks.json").is_file()
    assert any("chunks/g" in w and "another output folder" in w for w in summary.warnings)
    assert full_run(sources, out, check=True).exit_code == 0  # nothing stale either


@pytest.mark.parametrize("inside", [".", "chunks"])
def test_an_output_folder_inside_the_sources_is_refused(tmp_path: Path, inside: str) -> None:
    sources, _ = setup(tmp_path)
    with pytest.raises(UsageError, match="inside the sources folder"):
        full_run(sources, sources / inside)
    assert sorted(p.name for p in sources.iterdir()) == ["g.md"]


def test_a_same_length_hand_edit_of_chunks_json_is_repaired_by_a_plain_run(tmp_path: Path) -> None:
    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0
    path = out / "g" / "chunks.json"
    good = path.read_bytes()
    path.write_bytes(good.replace(b"installer", b"INSTALLER"))  # same size, text not in the source
    summary = full_run(sources, out)
    assert summary.exit_code == 0
    assert [d.status for d in summary.documents] == ["changed"]  # was 'unchanged', edit kept
    assert path.read_bytes() == good


def test_a_run_killed_between_renames_and_a_reverted_source_are_repaired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0
    (sources / "g.md").write_text(GUIDE.replace("wait", "WAIT"), encoding="utf-8")  # same size
    real = writer._commit
    calls = {"n": 0}

    def killed(tmp: str, path: Path, where: str) -> None:
        calls["n"] += 1
        real(tmp, path, where)
        if calls["n"] == 1:  # chunks.json is in place, meta.json and report.json are not
            raise KeyboardInterrupt

    monkeypatch.setattr(writer, "_commit", killed)
    with pytest.raises(KeyboardInterrupt):
        full_run(sources, out)
    monkeypatch.setattr(writer, "_commit", real)
    assert b"WAIT" in (out / "g" / "chunks.json").read_bytes()
    (sources / "g.md").write_text(GUIDE, encoding="utf-8")  # the source goes back
    summary = full_run(sources, out)
    assert [d.status for d in summary.documents] == ["changed"]
    assert (out / "g" / "chunks.json").read_bytes() == fresh_chunks(tmp_path, GUIDE)
    assert full_run(sources, out, check=True).exit_code == 0


def test_a_leftover_temporary_file_is_reported_by_check_and_removed_by_the_next_run(tmp_path: Path) -> None:
    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0
    leftover = out / "g" / ".chunks.json.k1ll3d.tmp"
    leftover.write_bytes(b"[" * 1000)
    checked = full_run(sources, out, check=True)
    assert checked.exit_code == 1  # was 0
    assert any(d.status == "stale" and ".chunks.json.k1ll3d.tmp" in d.message for d in checked.documents)
    assert leftover.exists()  # --check writes nothing
    summary = full_run(sources, out)  # the document itself is unchanged: its folder is not rewritten
    assert [d.status for d in summary.documents] == ["unchanged"]
    assert not leftover.exists()
    assert any("temporary file" in w for w in summary.warnings)


def test_a_temporary_file_in_a_folder_another_run_holds_is_not_touched(tmp_path: Path) -> None:
    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0
    busy = out / "g" / ".meta.json.w0rk1ng.tmp"
    busy.write_bytes(b"{")
    with writer.folder_lock(out / "g", "g"):
        full_run(sources, out)
    assert busy.exists()


def test_artifacts_without_a_meta_json_are_reported_and_left_alone(tmp_path: Path) -> None:
    sources, out = setup(tmp_path)
    crashed = out / "gone"
    crashed.mkdir(parents=True)
    data = b'[{"chunk_id": "chk_000001"}]\n'
    (crashed / "chunks.json").write_bytes(data)
    summary = full_run(sources, out)
    assert any("gone" in w and "no meta.json" in w for w in summary.warnings)
    assert hashlib.sha256((crashed / "chunks.json").read_bytes()).digest() == hashlib.sha256(data).digest()
    assert orjson.loads((out / "g" / "report.json").read_bytes())["artifacts"]


def test_a_run_resolves_the_sources_folder_once_and_walks_the_output_folder_once_for_orphans(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per-run work is done once, not once per document: the real sources folder (every document's
    check_inside compares with it) and the document folders searched for orphans and foreign folders."""
    import chunker.runner

    sources, out = setup(tmp_path)
    for k in range(4):
        (sources / f"d{k}.md").write_text(f"# D{k}\n\ntext {k}\n", encoding="utf-8")
    assert full_run(sources, out).exit_code == 0
    (sources / "d0.md").unlink()  # an orphan to remove
    site = out / "settings"
    site.mkdir()
    (site / "meta.json").write_text("{}\n", encoding="utf-8")  # a folder that is not ours
    resolved: list[Path] = []
    real_resolve = Path.resolve
    monkeypatch.setattr(Path, "resolve", lambda p, *a: (resolved.append(p), real_resolve(p, *a))[1])
    walks: list[Path] = []
    real_walk = chunker.runner.walk_output
    monkeypatch.setattr(chunker.runner, "walk_output", lambda o: (walks.append(o), real_walk(o))[1])
    summary = full_run(sources, out, force=True)
    assert [d.stem for d in summary.documents if d.status == "removed"] == ["d0"]
    assert any("settings" in w and "left alone" in w for w in summary.warnings)
    assert resolved.count(sources) == 2 and walks == [out]  # the output-in-sources check, the documents' one


def test_the_previous_state_of_a_folder_that_is_not_there_costs_no_file_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new document's folder does not exist: one stat says so, its artifacts are not opened one by one."""
    import chunker.freshness
    from chunker.freshness import Previous, read_previous

    sources, out = setup(tmp_path)
    assert full_run(sources, out).exit_code == 0
    before = read_previous(out / "g")
    assert before.intact and before.meta is not None
    monkeypatch.setattr(chunker.freshness, "load_json", lambda path: pytest.fail(f"read {path}"))
    assert read_previous(out / "new") == Previous(None, None, False)
    assert read_previous(out / "new" / "deeper") == Previous(None, None, False)
