"""Document folders an earlier release wrote into chunker's own folders (``chunks/_view`` of a
``sources/_view.md``, before ``_view`` was ``chunker view``'s folder): a run removes their artifacts
(only those it provably wrote) and keeps the folder's other files; ``--check`` reports them stale."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import orjson

from chunker.chunked import chunked_stems
from chunker.config import ChunkerConfig
from chunker.runner import run
from chunker.settings import Settings
from chunker.view import build_view

SETTINGS = Settings(defaults=ChunkerConfig())


def _old_release_folder(out: Path, source_stem: str, old_id: str) -> Path:
    """Move ``source_stem``'s artifacts to ``out/old_id``, as a release that chunked that id wrote them."""
    folder = out / old_id
    folder.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(out / source_stem), folder)
    meta = orjson.loads((folder / "meta.json").read_bytes())
    meta["stem"] = old_id
    (folder / "meta.json").write_bytes(orjson.dumps(meta))
    report = orjson.loads((folder / "report.json").read_bytes())
    report["artifacts"]["meta.json"] = hashlib.sha256((folder / "meta.json").read_bytes()).hexdigest()
    (folder / "report.json").write_bytes(orjson.dumps(report))
    return folder


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    sources, out = tmp_path / "sources", tmp_path / "chunks"
    sources.mkdir()
    for name in ("a", "v", "w", "e"):
        (sources / f"{name}.md").write_text(f"# {name}\n\nText of {name}.\n", encoding="utf-8")
    assert run(SETTINGS, sources, out).exit_code == 0
    _old_release_folder(out, "v", "_view")
    _old_release_folder(out, "w", "_view/x")
    _old_release_folder(out, "e", "_eval")
    for name in ("v", "w", "e"):
        (sources / f"{name}.md").unlink()
    (sources / "_view.md").write_text("# v\n\nText of v.\n", encoding="utf-8")  # reserved now: left out
    return sources, out


def test_artifacts_of_an_earlier_release_in_chunkers_own_folders_are_removed(tmp_path: Path) -> None:
    """Before: never seen (the walk skipped _view, _export, _eval), so chunks/_view/chunks.json stayed,
    read by whatever globs chunks/*/chunks.json, beside the view's pages."""
    sources, out = _tree(tmp_path)
    build_view(out, out / "_view", base=tmp_path)
    foreign = out / "_eval" / "notes.txt"
    foreign.write_text("mine", encoding="utf-8")
    checked = run(SETTINGS, sources, out, check=True)
    stale = sorted(d.stem for d in checked.documents if d.status == "stale")
    assert stale == ["_eval", "_view", "_view/x"]
    assert checked.exit_code == 1
    summary = run(SETTINGS, sources, out)
    assert summary.exit_code == 0
    assert sorted(d.stem for d in summary.documents if d.status == "removed") == ["_eval", "_view", "_view/x"]
    assert any("earlier release" in note for note in summary.warnings)
    assert not (out / "_view" / "chunks.json").exists()
    assert not (out / "_view" / "x").exists()
    assert (out / "_view" / "index.html").is_file()  # the view's pages stay
    assert (out / "_view" / "docs").is_dir()
    assert foreign.read_text(encoding="utf-8") == "mine"
    assert not (out / "_eval" / "meta.json").exists()
    assert chunked_stems(out) == ("a",)
    again = run(SETTINGS, sources, out)
    assert [d.status for d in again.documents] == ["unchanged"]


def test_a_folder_chunker_did_not_write_is_left_alone(tmp_path: Path) -> None:
    """A meta.json in _view that no report.json of chunker's vouches for is not touched, nor reported."""
    sources, out = _tree(tmp_path)
    (out / "_view" / "report.json").write_bytes(b"{}")
    summary = run(SETTINGS, sources, out)
    assert (out / "_view" / "meta.json").is_file()
    assert "_view" not in [d.stem for d in summary.documents]


def test_an_export_folder_is_not_searched_below_its_top(tmp_path: Path) -> None:
    """_export with the export's manifest: its folders are exports of every id; only _export itself is looked at."""
    from chunker.output_tree import walk_output

    _, out = _tree(tmp_path)
    _old_release_folder(out, "a", "_export")
    (out / "_export" / ".chunker-export.json").write_text("{}", encoding="utf-8")
    (out / "_export" / "deep").mkdir()
    (out / "_export" / "deep" / "meta.json").write_text("{}", encoding="utf-8")
    assert walk_output(out).reserved == ["_eval", "_export", "_view", "_view/x"]
