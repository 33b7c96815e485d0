"""Pages a site generator does not publish (``draft: true``, ``published: false``) are left out by
``skip_drafts``: reported as ``draft``, their chunks of an earlier run removed, the same in ``--check``,
``--jobs`` and ``chunker batch``; a frontmatter that cannot be read is chunked with today's findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker.cli import run_cli
from chunker.config import ChunkerConfig
from chunker.core import chunk_source
from chunker.errors import ConfigError
from chunker.unpublished import draft_reason

CFG = ChunkerConfig()
PAGE = "# Guide\n\nSome text about the guide, long enough to be a chunk of its own.\n"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("---\ntitle: A\ndraft: true\n---\n" + PAGE, "draft: true"),  # Hugo, Docusaurus, Astro, MkDocs Material
        ("+++\ntitle = 'A'\ndraft = true\n+++\n" + PAGE, "draft: true"),  # Hugo, Zola (TOML)
        ('{\n  "title": "A",\n  "draft": true\n}\n' + PAGE, "draft: true"),  # Hugo (JSON)
        ("---\nlayout: post\npublished: false\n---\n" + PAGE, "published: false"),  # Jekyll, Hexo
        ("---\nDraft: yes\n---\n" + PAGE, "Draft: true"),  # any case; YAML 1.1's yes
        ("---\ndraft: 'True'\n---\n" + PAGE, "draft: 'True'"),  # written as a string
        ("\ufeff---\r\ndraft: true\r\n---\r\n" + PAGE.replace("\n", "\r\n"), "draft: true"),  # BOM, CRLF
        ("\n\n+++\ndraft = true\n+++\n" + PAGE, "draft: true"),  # blank lines before a TOML block
    ],
)
def test_a_page_its_frontmatter_marks_a_draft_is_named_with_its_key_and_value(text: str, reason: str) -> None:
    assert draft_reason(text, CFG) == reason
    outcome = chunk_source(text.encode(), doc_id="a", source_path="a.md", config=CFG)
    assert (outcome.status, outcome.exit_code, outcome.chunks, dict(outcome.artifacts)) == ("draft", 0, (), {})


@pytest.mark.parametrize(
    "text",
    [
        "---\ndraft: false\npublished: true\n---\n" + PAGE,
        "---\ntitle: Draft\n---\n" + PAGE,  # the word elsewhere
        PAGE + "\ndraft: true\n",  # in the body, not in a frontmatter
        "---\n---\ndraft: true\n",  # an empty frontmatter, the line below it is body text
        "```\ndraft: true\n```\n",
        "---\ndraft: 1\n---\n" + PAGE,  # 1 is no boolean
        "---\ndraft:\n  - true\n---\n" + PAGE,
        "---\nunlisted: true\n---\n" + PAGE,  # Docusaurus: published, only not in the sidebar
    ],
)
def test_pages_that_are_no_draft_are_chunked(text: str) -> None:
    assert draft_reason(text, CFG) is None
    assert chunk_source(text.encode(), doc_id="a", source_path="a.md", config=CFG).status == "chunked"


def test_the_option_names_its_keys_and_values_nested_keys_and_none() -> None:
    cfg = ChunkerConfig.from_mapping({"skip_drafts": {"status": ["draft", "hidden"], "build.render": "never"}})
    assert draft_reason("---\nstatus: Hidden\n---\n" + PAGE, cfg) == "status: 'Hidden'"
    assert draft_reason("---\nbuild:\n  render: never\n---\n" + PAGE, cfg) == "build.render: 'never'"
    assert draft_reason("---\ndraft: true\n---\n" + PAGE, cfg) is None  # the defaults replaced
    off = ChunkerConfig.from_mapping({"skip_drafts": {}})
    assert draft_reason("---\ndraft: true\n---\n" + PAGE, off) is None
    assert off.to_dict()["skip_drafts"] == {} and CFG.to_dict()["skip_drafts"] == {
        "draft": [True],
        "published": [False],
    }
    assert off.fingerprint() != CFG.fingerprint()  # changing it re-decides every page


@pytest.mark.parametrize(
    ("text", "expected", "line"),
    [
        ("skip_drafts: false\n", "must be a mapping of frontmatter key: value (draft: true) ({} chunks every page)", 1),
        ("skip_drafts:\n", "({} chunks every page), got None", 1),
        ("max_chars: 900\nskip_drafts:\n  draft: [true, 1.5]\n", "draft: must be true, false, an integer", 2),
        ("documents:\n  blog/*:\n    skip_drafts: [draft]\n", "must be a mapping of frontmatter key", 3),
    ],
)
def test_a_skip_drafts_of_the_wrong_shape_is_refused_naming_file_and_line(
    tmp_path: Path, text: str, expected: str, line: int
) -> None:
    from chunker.settings import load_settings

    (tmp_path / "config.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path / "config.yaml")
    assert str(info.value).startswith(f"{tmp_path / 'config.yaml'}:{line}: "), str(info.value)
    assert expected in str(info.value)


def _site(root: Path) -> Path:
    src = root / "src"
    (src / "blog").mkdir(parents=True)
    (src / "guide.md").write_text(PAGE, encoding="utf-8")
    (src / "blog" / "post.md").write_text("---\ntitle: Post\n---\n" + PAGE, encoding="utf-8")
    (src / "blog" / "wip.md").write_text("+++\ntitle = 'Wip'\ndraft = true\n+++\n" + PAGE, encoding="utf-8")
    return src


def _run(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, object], str]:
    capsys.readouterr()
    argv = ["--sources", str(root / "src"), "--out", str(root / "out"), "--json", "--jobs", "1", *extra]
    code = run_cli(argv)
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def _statuses(summary: dict[str, object]) -> dict[str, str]:
    documents = summary["documents"]
    assert isinstance(documents, list)
    return {d["stem"]: d["status"] for d in documents}


def test_a_run_leaves_a_draft_out_and_counts_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _site(tmp_path)
    code, summary, _ = _run(tmp_path, capsys)
    assert code == 0
    assert _statuses(summary) == {"blog/post": "new", "blog/wip": "draft", "guide": "new"}
    assert summary["counts"] == {"new": 2, "draft": 1}
    assert not (tmp_path / "out" / "blog" / "wip").exists()
    # the next run: nothing to do, the draft still a draft; --check agrees (exit 0)
    assert _statuses(_run(tmp_path, capsys)[1])["blog/wip"] == "draft"
    code, summary, _ = _run(tmp_path, capsys, "--check")
    assert code == 0 and _statuses(summary) == {"blog/post": "ok", "blog/wip": "draft", "guide": "ok"}
    # the table's totals line says so
    capsys.readouterr()
    assert run_cli(["--sources", str(tmp_path / "src"), "--out", str(tmp_path / "out")]) == 0
    assert "3 documents (2 unchanged, 1 draft)" in capsys.readouterr().out


def test_a_page_that_becomes_a_draft_loses_its_chunks_and_check_says_stale_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _site(tmp_path)
    _run(tmp_path, capsys)
    chunks = json.loads((tmp_path / "out" / "guide" / "chunks.json").read_text(encoding="utf-8"))
    (src / "guide.md").write_text("---\ndraft: true\n---\n" + PAGE, encoding="utf-8")
    code, summary, err = _run(tmp_path, capsys, "--check")
    assert code == 1 and _statuses(summary)["guide"] == "stale"
    assert "guide.md: stale: draft: true in its frontmatter: a draft now, whose chunks a run removes" in err
    assert (tmp_path / "out" / "guide" / "chunks.json").exists()  # --check writes nothing
    capsys.readouterr()
    assert run_cli(["--sources", str(src), "--out", str(tmp_path / "out"), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "removed the chunks of" in out and "guide.md (draft: true in its frontmatter; skip_drafts leaves" in out
    assert not (tmp_path / "out" / "guide").exists()
    code, summary, _ = _run(tmp_path, capsys, "--check")
    assert code == 0 and _statuses(summary)["guide"] == "draft"
    # published again: chunked again, as new
    (src / "guide.md").write_text(PAGE, encoding="utf-8")
    code, summary, _ = _run(tmp_path, capsys)
    assert _statuses(summary)["guide"] == "new"
    assert json.loads((tmp_path / "out" / "guide" / "chunks.json").read_text(encoding="utf-8")) == chunks


def _drafts(summary: dict[str, object]) -> dict[str, object]:
    documents = summary["documents"]
    assert isinstance(documents, list)
    return {d["stem"]: d["draft"] for d in documents}


def test_the_json_summary_names_the_key_and_value_that_leave_a_draft_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _site(tmp_path)
    _, summary, _ = _run(tmp_path, capsys)
    assert _drafts(summary) == {"blog/post": None, "blog/wip": "draft: true", "guide": None}
    # a page that becomes a draft: --check says stale, and why, to a program too
    (src / "guide.md").write_text("---\nPublished: false\n---\n" + PAGE, encoding="utf-8")
    code, summary, _ = _run(tmp_path, capsys, "--check")
    assert code == 1 and _statuses(summary)["guide"] == "stale"
    assert _drafts(summary) == {"blog/post": None, "blog/wip": "draft: true", "guide": "Published: false"}
    _, summary, _ = _run(tmp_path, capsys)
    assert _statuses(summary)["guide"] == "draft" and _drafts(summary)["guide"] == "Published: false"


def test_a_library_caller_reads_why_a_page_is_a_draft_from_its_findings() -> None:
    outcome = chunk_source(("---\ndraft: true\n---\n" + PAGE).encode(), doc_id="a", source_path="a.md", config=CFG)
    assert outcome.status == "draft" and outcome.draft == "draft: true"
    assert [(d.severity, d.code, d.message) for d in outcome.diagnostics] == [
        ("info", "draft", "draft: true in its frontmatter: left out (skip_drafts)")
    ]


def test_the_delta_counts_the_chunks_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _site(tmp_path)
    _run(tmp_path, capsys)
    (src / "blog" / "post.md").write_text("---\npublished: false\n---\n" + PAGE, encoding="utf-8")
    _, summary, _ = _run(tmp_path, capsys)
    documents = summary["documents"]
    assert isinstance(documents, list)
    post = next(d for d in documents if d["stem"] == "blog/post")
    assert (post["status"], post["chunks_delta"], post["errors"]) == (
        "draft",
        {"added": 0, "removed": 1, "unchanged": 0},
        [],
    )


def test_turning_the_option_off_chunks_drafts_and_on_again_removes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _site(tmp_path)
    config = tmp_path / "c.yaml"
    config.write_text("documents:\n  blog/*:\n    skip_drafts: {}\n", encoding="utf-8")
    _, summary, _ = _run(tmp_path, capsys, "--config", str(config))
    assert _statuses(summary)["blog/wip"] == "new"
    assert (tmp_path / "out" / "blog" / "wip" / "chunks.json").exists()
    config.write_text("documents:\n  guide:\n    max_chars: 1200\n", encoding="utf-8")
    _, summary, _ = _run(tmp_path, capsys, "--config", str(config))
    # the option is in the fingerprint: the pages it changed for are chunked again (into the same chunks)
    assert _statuses(summary) == {"blog/post": "rebuilt", "blog/wip": "draft", "guide": "unchanged"}
    assert not (tmp_path / "out" / "blog" / "wip").exists()


def test_workers_leave_drafts_out_as_the_run_in_one_process_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _site(tmp_path)
    _, summary, _ = _run(tmp_path, capsys, "--jobs", "2")
    assert _statuses(summary) == {"blog/post": "new", "blog/wip": "draft", "guide": "new"}


def test_a_draft_whose_frontmatter_cannot_be_read_is_chunked_with_the_error_of_today(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _site(tmp_path)
    (src / "bad.md").write_text("---\ndraft: true\ntags: [a\n---\n" + PAGE, encoding="utf-8")
    code, summary, _ = _run(tmp_path, capsys)
    assert code == 1 and _statuses(summary)["bad"] == "new"
    documents = summary["documents"]
    assert isinstance(documents, list)
    errors = next(d for d in documents if d["stem"] == "bad")["errors"]
    assert [(e["code"], e["line"]) for e in errors] == [("frontmatter-invalid", 3)]


def test_batch_leaves_drafts_out_as_the_main_command_does(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from chunker.batch import read_chunks, run_batch
    from chunker.batch.run import BatchOptions
    from chunker.settings import Settings

    src = _site(tmp_path)
    out = tmp_path / "batch"
    settings = Settings(ChunkerConfig())
    summary = run_batch(settings, BatchOptions(str(src), str(out), jobs=1))
    assert {d.stem: d.status for d in summary.documents} == {"blog/post": "new", "blog/wip": "draft", "guide": "new"}
    assert {r["doc_id"] for r in read_chunks(str(out)).to_pylist()} == {"blog/post", "guide"}
    (src / "guide.md").write_text("---\ndraft: true\n---\n" + PAGE, encoding="utf-8")
    summary = run_batch(settings, BatchOptions(str(src), str(out), jobs=1))
    assert {d.stem: d.status for d in summary.documents} == {
        "blog/post": "unchanged",
        "blog/wip": "draft",
        "guide": "draft",
    }
    assert {r["doc_id"] for r in read_chunks(str(out)).to_pylist()} == {"blog/post"}
    drafts = {d["stem"]: d["draft"] for d in summary.to_dict()["documents"]}
    assert drafts == {"blog/post": None, "blog/wip": "draft: true", "guide": "draft: true"}  # as the main command
    summary = run_batch(settings, BatchOptions(str(src), str(out), jobs=1, verify=True))
    assert {d.stem: d.status for d in summary.documents}["guide"] == "draft"  # a carried row stays a draft


def test_a_long_frontmatter_is_read_whole_and_a_fence_line_cut_by_the_first_read_closes_nothing() -> None:
    keys = "".join(f"key{k}: value {k}\n" for k in range(400))  # ~7 KB: beyond the first 4 KiB read
    assert draft_reason("---\n" + keys + "draft: true\n---\n" + PAGE, CFG) == "draft: true"
    # a line '---x' across the 4096th character: no frontmatter closes there, the block is never closed
    filler = "a: " + "b" * (4096 - 3 - 16 - 4) + "\n"
    text = "---\ndraft: true\n" + filler + "---x\n" + PAGE
    assert text.index("---x") < 4096 < text.index("---x") + 4
    assert draft_reason(text, CFG) is None
    assert chunk_source(text.encode(), doc_id="a", source_path="a.md", config=CFG).status == "chunked"
