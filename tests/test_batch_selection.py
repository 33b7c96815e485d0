"""``chunker batch`` selects its sources with the config's ``include`` and ``exclude`` globs, as the
main command does: a docs tree configured to leave out drafts and templates must not get them into
the Parquet output (a newcomer's run over a MkDocs tree found them indexed by batch only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from chunker.batch.listing import entries_to_listing
from chunker.cli import run_cli
from chunker.selection import Selection

pytest.importorskip("pyarrow")

TREE = {
    "index.md": "# Home\n\nWelcome to the docs.\n",
    "guide/setup.md": "# Setup\n\nInstall it.\n",
    "guide/old-setup.md": "# Old setup\n\nDo not read.\n",
    "blog/posts/live.md": "# Live\n\nA post.\n",
    "blog/_drafts/wip.md": "# Draft\n\nNot yet.\n",
    "widgets/_template.md": "# Template\n\nCopy me.\n",
    "node_modules/pkg/readme.md": "# Pkg\n\nVendored.\n",
    "robots.txt": "User-agent: *\n",
}
CONFIG = 'exclude: [node_modules, robots.txt, "_template.md", blog/_drafts, "guide/old-*"]\n'


def _tree(root: Path) -> Path:
    src = root / "docs"
    for rel, text in TREE.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    (root / "config.yaml").write_text(CONFIG, encoding="utf-8")
    return src


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(capsys.readouterr().out)
    return data


def test_batch_chunks_the_documents_the_main_command_chunks_under_exclude(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _tree(tmp_path)
    config = str(tmp_path / "config.yaml")
    assert run_cli(["--sources", str(src), "--out", str(tmp_path / "chunks"), "--config", config, "--json"]) == 0
    main = {d["stem"] for d in _json(capsys)["documents"]}
    assert main == {"index", "guide/setup", "blog/posts/live"}
    args = ["batch", "--sources", str(src), "--out", str(tmp_path / "build"), "--config", config, "--json"]
    assert run_cli([*args, "--jobs", "1"]) == 0
    data = _json(capsys)
    assert {d["stem"] for d in data["documents"]} == main
    assert data["left_out_counts"] == {"excluded": 5}
    assert {(x["id"], x["reason"]) for x in data["left_out"]} == {
        ("robots", "excluded"),
        ("widgets/_template", "excluded"),
        ("blog/_drafts/wip", "excluded"),
        ("node_modules/pkg/readme", "excluded"),
        ("guide/old-setup", "excluded"),
    }
    wip = next(x for x in data["left_out"] if x["id"] == "blog/_drafts/wip")
    assert wip["message"] == "matches an exclude pattern of the config: 'blog/_drafts'"


def test_batch_prints_what_the_globs_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _tree(tmp_path)
    args = ["batch", "--sources", str(src), "--out", str(tmp_path / "build"), "--config", str(tmp_path / "config.yaml")]
    assert run_cli([*args, "--jobs", "1"]) == 0
    assert "5 entries of the source tree left out (excluded 5)" in capsys.readouterr().out


def test_include_keeps_only_matching_files_and_a_listing_left_empty_says_why() -> None:
    entries = [(f"/s/{rel}", 10, 1) for rel in ("guide/a.md", "guide/deep/b.md", "blog/c.md", "d.md")]
    listing = entries_to_listing(entries, "/s", lambda rel: rel, Selection(include=("guide/**",)))
    assert [x.doc_id for x in listing.found] == ["guide/a", "guide/deep/b"]
    assert [(x.stem, x.reason) for x in listing.left_out] == [("blog/c", "not-included"), ("d", "not-included")]
    # a folder excluded by name leaves out what lies below it, however deep
    listing = entries_to_listing(entries, "/s", lambda rel: rel, Selection(exclude=("deep",)))
    assert [x.doc_id for x in listing.found] == ["blog/c", "d", "guide/a"]


def test_a_batch_whose_globs_leave_nothing_is_refused_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "a.md").write_text("# A\n\ntext\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text("exclude: ['*.md']\n", encoding="utf-8")
    args = ["batch", "--sources", str(src), "--out", str(tmp_path / "b"), "--config", str(tmp_path / "config.yaml")]
    assert run_cli(args) == 2
    assert "(1 left out by the include/exclude globs)" in capsys.readouterr().err


def test_batch_ids_are_the_main_commands_ids_for_names_an_id_does_not_keep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "docs"
    for rel in ("Über uns/Café & Bar.md", "guide/CON.md", "ref/[.md", "plain/page.md"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(f"# {rel}\n\n## Part\n\nText of {rel}.\n", encoding="utf-8")
    assert run_cli(["--sources", str(src), "--out", str(tmp_path / "chunks"), "--json"]) == 0
    main = {d["stem"] for d in _json(capsys)["documents"]}
    assert main == {"Über-uns/Café-Bar", "guide/CON_", "ref/_left-square-bracket", "plain/page"}
    assert run_cli(["batch", "--sources", str(src), "--out", str(tmp_path / "b"), "--jobs", "1", "--json"]) == 0
    assert {d["stem"] for d in _json(capsys)["documents"]} == main
    from chunker.batch import read_chunks

    keys = set(read_chunks(str(tmp_path / "b")).column("chunk_key").to_pylist())
    written = (tmp_path / "chunks").glob("**/chunks.json")
    expected = {c["chunk_key"] for p in written for c in orjson.loads(p.read_bytes())}
    assert keys == expected and "Über-uns/Café-Bar/part" in keys
    listing = entries_to_listing([("/s/-.-.md", 1, 1), ("/s/ok.md", 1, 1)], "/s", lambda rel: rel)
    assert [x.doc_id for x in listing.found] == ["ok"]
    assert [(x.display, x.reason) for x in listing.left_out] == [("-.-.md", "invalid-name")]


@pytest.mark.parametrize(
    "config",
    [
        "exclude: [node_modules, blog/_draft]\n",  # a folder's name mistyped
        "exclude:\n  - node_modules\n  - guide/setup\n",  # an id for a file: globs match names with the extension
        "exclude: [docs/guide/old-setup.md]\n",  # written from the folder above the sources folder
        "exclude: [blog, blog/posts/live.md]\n",  # below a folder another glob leaves out
        "include: ['guide/**', 'reference/**']\n",  # a place the tree does not have
        "documents:\n  guide/setpu:\n    max_chars: 900\n",  # a key that matches no document
    ],
)
def test_batch_warns_of_the_config_as_the_main_command_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, config: str
) -> None:
    # the main command named a glob that did nothing, or a documents: key that matched none; batch, over
    # the same folder and config, said nothing (the eyes11 trial's leftover)
    _tree(tmp_path)
    (tmp_path / "config.yaml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["--sources", "docs", "--json"]) == 0
    expected = _json(capsys)["warnings"]
    assert len(expected) == 1 and expected[0].startswith("config.yaml:")
    assert run_cli(["batch", "--sources", "docs", "--out", "build", "--jobs", "1", "--json"]) == 0
    assert _json(capsys)["warnings"] == expected
    assert run_cli(["batch", "--sources", "docs", "--out", "build", "--jobs", "1"]) == 0
    assert f"warning: {expected[0]}" in capsys.readouterr().out.replace("\n", " ").replace("  ", " ")


def test_a_batch_glob_that_leaves_out_only_files_of_no_source_type_did_something(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _tree(tmp_path)
    (src / "guide" / "img").mkdir()
    (src / "guide" / "img" / "shot.png").write_bytes(b"\x89PNG")
    (src / "logo.svg").write_text("<svg/>", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text("exclude: [guide/img, logo.svg, ./logo.svg, guide/gone]\n", encoding="utf-8")
    args = ["batch", "--sources", str(src), "--out", str(tmp_path / "b"), "--config", str(config), "--json"]
    assert run_cli([*args, "--jobs", "1"]) == 0
    (warning,) = _json(capsys)["warnings"]
    assert "exclude 'guide/gone' leaves nothing out" in warning
    listing = entries_to_listing(
        [("/s/a/x.png", 1, 1), ("/s/b.md", 1, 1)], "/s", lambda rel: rel, Selection(("b.md", "c/**"), ("a",))
    )
    # include 'b.md' selected a source, 'c/**' none; 'a' is a glob of names, which no warning is about
    assert listing.used == {"b.md"}
