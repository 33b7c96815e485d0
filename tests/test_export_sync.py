"""An export of a docs tree writes thousands of files (one per chunk in ``md``): they are synced in
batches before their renames, not fsync'd one by one (a newcomer's ``chunker export --format md``
over a 289-page MkDocs tree, 1,888 files, spent most of its wall time in fsyncs)."""

from __future__ import annotations

from pathlib import Path

from chunker.config import ChunkerConfig
from chunker.export import export
from chunker.runner import run
from chunker.settings import Settings

SECTIONS = 60


def _chunked(tmp_path: Path, changed: str = "") -> Path:
    sources = tmp_path / "sources"
    sources.mkdir(exist_ok=True)
    for doc in ("a", "b"):
        body = "".join(f"## Part {k}\n\nThe text of part {k} of {doc}{changed}.\n\n" for k in range(SECTIONS))
        (sources / f"{doc}.md").write_text(f"# {doc}\n\n{body}", encoding="utf-8")
    out = tmp_path / "chunks"
    assert run(Settings(defaults=ChunkerConfig(min_chars=1, merge_short=False)), sources, out).exit_code == 0
    return out


def test_an_export_of_many_files_is_not_an_fsync_per_file(tmp_path: Path, fsyncs: list[int]) -> None:
    out = _chunked(tmp_path)
    fsyncs.clear()  # the run's own: only the export's count
    done = export(out, tmp_path / "vault", "md")
    files = sum(len(d.written) for d in done)
    assert files == 2 * SECTIONS
    # one sync of the batch (syncfs, or an fsync per file where there is none) and one per folder,
    # never a file's fsync and its folder's fsync for every file
    assert len(fsyncs) < 1.5 * files
    assert all(p.read_text(encoding="utf-8").endswith(".\n") for d in done for p in d.written)
    assert not [p for p in (tmp_path / "vault").rglob("*") if p.name.endswith(".tmp")]


def test_a_changed_export_replaces_every_file_and_removes_the_stale_ones(tmp_path: Path) -> None:
    out = _chunked(tmp_path)
    vault = tmp_path / "vault"
    first = export(out, vault, "md")
    out = _chunked(tmp_path, changed=", changed")
    second = export(out, vault, "md")
    assert [d.written for d in second] == [d.written for d in first]
    assert all(", changed." in p.read_text(encoding="utf-8") for d in second for p in d.written[1:])
    sources = tmp_path / "sources"
    (sources / "b.md").write_text("# b\n\n## Part 0\n\nshort now.\n", encoding="utf-8")
    assert run(Settings(defaults=ChunkerConfig(min_chars=1, merge_short=False)), sources, out).exit_code == 0
    third = {d.stem: d for d in export(out, vault, "md")}
    assert len(third["b"].written) < len(first[1].written)
    assert sorted(p.name for p in (vault / "b").iterdir()) == sorted(p.name for p in third["b"].written)
    assert set(third["b"].removed) == set(first[1].written) - set(third["b"].written)
