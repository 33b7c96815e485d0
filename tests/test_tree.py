"""Sources as a tree: ids are paths below sources/, outputs mirror them; include/exclude; every
file left out is listed; orphans, --check, incremental runs and export work on the tree."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chunker.cli import run_cli


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A docs-site tree: _index.md and index.md in several folders, .mdx, .markdown, spaces."""
    src = tmp_path / "sources"
    write(src / "_index.md", "# Home\n\nWelcome ZQXHOME.\n")
    write(src / "guides" / "_index.md", "# Guides\n\nAll guides ZQXGUIDES.\n")
    write(src / "guides" / "cms" / "umbraco.mdx", "## Publishing\n\nPublish ZQXUMBRACO.\n")
    write(src / "guides" / "cms" / "index.md", "# CMS\n\nCMS index ZQXCMS.\n")
    write(src / "ref" / "index.md", "# Reference\n\nRef ZQXREF.\n")
    write(src / "ref" / "old notes.markdown", "# Old notes\n\nNotes ZQXNOTES.\n")
    write(src / "ref" / "logo.png", "png")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def summary(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> dict[str, object]:
    capsys.readouterr()
    assert run_cli([*args, "--json"]) == code
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def statuses(data: dict[str, object]) -> dict[str, str]:
    docs = data["documents"]
    assert isinstance(docs, list)
    return {d["stem"]: d["status"] for d in docs}


IDS = {"_index", "guides/_index", "guides/cms/index", "guides/cms/umbraco", "ref/index", "ref/old-notes"}


def test_every_page_of_a_tree_is_chunked_into_a_folder_mirroring_its_path(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = summary(capsys)
    assert statuses(data) == dict.fromkeys(IDS, "new")
    for doc_id in IDS:
        folder = site / "chunks" / doc_id
        meta = json.loads((folder / "meta.json").read_bytes())
        chunks = json.loads((folder / "chunks.json").read_bytes())
        assert meta["stem"] == doc_id
        assert all(c["chunk_key"].startswith(doc_id + "/") for c in chunks)
    keys = [c["chunk_key"] for d in IDS for c in json.loads((site / "chunks" / d / "chunks.json").read_bytes())]
    assert len(keys) == len(set(keys))
    assert data["left_out"] == [
        {"path": "sources/ref/logo.png", "reason": "not-a-source", "message": data["left_out"][0]["message"]}  # type: ignore[index]
    ]
    assert data["left_out_counts"] == {"not-a-source": 1}


def test_a_second_run_is_incremental_and_check_passes_on_the_tree(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary(capsys)
    assert set(statuses(summary(capsys)).values()) == {"unchanged"}
    assert set(statuses(summary(capsys, "--check")).values()) == {"ok"}
    write(site / "sources" / "guides" / "cms" / "umbraco.mdx", "## Publishing\n\nChanged ZQXUMBRACO.\n")
    assert statuses(summary(capsys, "--check", code=1))["guides/cms/umbraco"] == "stale"
    assert statuses(summary(capsys))["guides/cms/umbraco"] == "changed"


def test_a_removed_page_is_an_orphan_and_its_folder_goes_but_not_the_folders_of_pages_below_it(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(site / "sources" / "guides.md", "# Guides page\n\nZQXPAGE.\n")  # id 'guides', above guides/_index
    summary(capsys)
    assert (site / "chunks" / "guides" / "chunks.json").is_file()
    (site / "sources" / "guides.md").unlink()
    (site / "sources" / "ref" / "index.md").unlink()
    (site / "sources" / "ref" / "old notes.markdown").unlink()
    stale = statuses(summary(capsys, "--check", code=1))
    assert stale["guides"] == stale["ref/index"] == stale["ref/old-notes"] == "stale"
    assert statuses(summary(capsys))["guides"] == "removed"
    assert not (site / "chunks" / "guides" / "chunks.json").exists()
    assert (site / "chunks" / "guides" / "_index" / "chunks.json").is_file()
    assert (site / "chunks" / "guides" / "cms" / "umbraco" / "chunks.json").is_file()
    assert not (site / "chunks" / "ref").exists()  # emptied folders above an orphan go too


def test_doc_takes_an_id_stem_a_bare_name_and_an_ambiguous_name_lists_candidates(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert statuses(summary(capsys, "--doc", "guides/cms/umbraco")) == {"guides/cms/umbraco": "new"}
    assert statuses(summary(capsys, "--stem", "umbraco")) == {"guides/cms/umbraco": "unchanged"}
    assert statuses(summary(capsys, "--stem", "old-notes")) == {"ref/old-notes": "new"}
    capsys.readouterr()
    assert run_cli(["--stem", "index"]) == 2
    err = capsys.readouterr().err
    assert "names 2 documents" in err and "guides/cms/index" in err and "ref/index" in err
    assert run_cli(["--doc", "ref/old notes"]) == 2
    assert "did you mean 'ref/old-notes'" in capsys.readouterr().err
    # a stem is a name: a path is refused, naming the option that takes one
    assert run_cli(["--stem", "guides/cms/umbraco"]) == 2
    assert "a stem is a file name, not a path; select the document at that path with --doc" in (capsys.readouterr().err)


def test_include_and_exclude_globs_leave_files_out_and_each_is_listed_with_its_reason(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(site / "sources" / "node_modules" / "pkg" / "README.md", "# pkg\n")
    write(site / "sources" / "blog" / "_drafts" / "soon.md", "# Soon\n")
    write(site / "config.yaml", "exclude: [node_modules, blog/_drafts, '*.markdown']\ninclude: ['**/*.md*']\n")
    data = summary(capsys)
    assert set(statuses(data)) == IDS - {"ref/old-notes"}
    reasons = {x["path"]: x["reason"] for x in data["left_out"]}  # type: ignore[attr-defined, index]
    assert reasons == {
        "sources/node_modules": "excluded",
        "sources/blog/_drafts": "excluded",
        "sources/ref/old notes.markdown": "excluded",
        "sources/ref/logo.png": "not-a-source",
    }
    capsys.readouterr()
    assert run_cli(["--doc", "ref/old-notes"]) == 2
    assert "sources/ref/old notes.markdown is not chunked: matches an exclude pattern" in capsys.readouterr().err


def test_a_glob_written_from_the_sources_folder_with_a_leading_dot_slash_matches_from_the_top(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # './ref/index.md' is how a path below the sources folder is written; it matched nothing (a part '.')
    write(site / "config.yaml", "exclude: ['./ref/index.md', './guides/cms/']\n")
    data = summary(capsys)
    assert set(statuses(data)) == IDS - {"ref/index", "guides/cms/umbraco", "guides/cms/index"}
    assert data["warnings"] == []
    write(site / "sources" / "a" / "ref" / "index.md", "# Other\n\nBody.\n")  # rooted: not below another folder
    assert "a/ref/index" in statuses(summary(capsys))


@pytest.mark.parametrize(
    ("config", "warning"),
    [
        (  # an id for a file: globs match file names with their extension
            "exclude:\n  - node_modules\n  - ref/index\n",
            "config.yaml:3: exclude 'ref/index' leaves nothing out: no file or folder the run reads below sources/ "
            "matches it; did you mean 'ref/index.md'? (a glob matches a file with its extension)",
        ),
        (  # written from the folder above the sources folder
            "exclude: [sources/guides/cms/umbraco.mdx]\n",
            "config.yaml:1: exclude 'sources/guides/cms/umbraco.mdx' leaves nothing out: no file or folder the run "
            "reads below sources/ matches it; did you mean 'guides/cms/umbraco.mdx'? (globs are read from the "
            "sources folder)",
        ),
        (  # below a folder another glob leaves out
            "exclude: [guides, guides/cms/index.md]\n",
            "config.yaml:1: exclude 'guides/cms/index.md' leaves nothing out: no file or folder the run reads below "
            "sources/ matches it; exclude 'guides' leaves out its folder guides already",
        ),
        (  # a place the tree does not have
            "include: ['ref/**', 'reference/**']\n",
            "config.yaml:1: include 'reference/**' selects no source file: no .md, .markdown, .mdx, .qmd, .Rmd, "
            ".Rmarkdown, .txt file the run reads below sources/ matches it",
        ),
    ],
)
def test_a_glob_of_a_place_that_does_nothing_is_a_warning_naming_its_line_and_what_it_may_mean(
    site: Path, capsys: pytest.CaptureFixture[str], config: str, warning: str
) -> None:
    write(site / "config.yaml", config)
    data = summary(capsys)
    assert data["warnings"] == [warning]
    capsys.readouterr()
    assert run_cli([]) == 0
    assert f"warning: {warning}" in capsys.readouterr().out.replace("\n", " ").replace("  ", " ")
    assert run_cli(["--doc", "ref/old-notes", "--json"]) == 0  # a run of some documents says nothing of globs
    assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_globs_of_names_and_globs_that_did_something_are_no_warning(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a name glob matching nothing today is kept for the day it does (node_modules, the default, in every tree);
    # an include glob that says again what another one selects did select files
    write(site / "config.yaml", "exclude: [node_modules, '*.draft.md', 'ref/*.png']\ninclude: ['**/*.md*', 'ref/**']\n")
    data = summary(capsys)
    assert data["warnings"] == []
    assert {x["path"]: x["reason"] for x in data["left_out"]} == {"sources/ref/logo.png": "excluded"}  # type: ignore[attr-defined, index]


def test_a_run_whose_only_candidates_were_left_out_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "sources" / "node_modules" / "a.md", "# A\n")
    write(tmp_path / "sources" / "notes.rst", "Notes\n")
    monkeypatch.chdir(tmp_path)
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "chunker"], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False
    )
    assert done.returncode == 2  # nothing to chunk: refused, unless --allow-empty
    assert "no source documents" in done.stderr
    assert "all 2 entries of the source tree left out (excluded 1, not-a-source 1)" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "chunker", "--allow-empty"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0
    assert "all 2 entries of the source tree left out (excluded 1, not-a-source 1)" in done.stderr


def test_export_and_its_removal_work_on_nested_ids(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary(capsys)
    assert run_cli(["export", "--format", "jsonl"]) == 0
    lines = (site / "chunks" / "_export" / "guides" / "cms" / "umbraco.jsonl").read_text(encoding="utf-8")
    assert json.loads(lines.splitlines()[0])["id"].startswith("guides/cms/umbraco/")
    assert run_cli(["export", "--format", "md"]) == 0
    assert list((site / "chunks" / "_export" / "guides" / "cms" / "umbraco").glob("*.md"))
    (site / "sources" / "guides" / "cms" / "umbraco.mdx").unlink()
    summary(capsys)
    assert run_cli(["export", "--format", "jsonl"]) == 0
    assert not (site / "chunks" / "_export" / "guides" / "cms" / "umbraco.jsonl").exists()
    assert (site / "chunks" / "_export" / "guides" / "cms" / "index.jsonl").exists()


def test_eval_finds_cases_by_tree_id(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = {
        "id": "c1",
        "doc": "guides/cms/umbraco",
        "query": "publish ZQXUMBRACO",
        "expected_doc_section": "Publishing",
        "expected_text_contains": "ZQXUMBRACO",
    }
    write(site / "cases.jsonl", json.dumps(case) + "\n")
    capsys.readouterr()
    assert run_cli(["eval", "--cases", "cases.jsonl", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["totals"]["section_hit_at_k"] == 1.0
    assert result["chunks"]["documents"] == {"guides/cms/umbraco": 1}


# -- hostile paths -------------------------------------------------------------------


def test_a_symlinked_folder_is_listed_and_not_followed_and_a_file_link_out_of_the_tree_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = write(tmp_path / "outside" / "secret.md", "# S\n\nZQXSECRET\n")
    write(tmp_path / "sources" / "ok.md", "# Ok\n\nBody.\n")
    (tmp_path / "sources" / "linked").symlink_to(tmp_path / "outside")
    (tmp_path / "sources" / "deep").mkdir()
    (tmp_path / "sources" / "deep" / "leak.md").symlink_to(secret)
    monkeypatch.chdir(tmp_path)
    data = summary(capsys, code=3)
    assert statuses(data) == {"ok": "new", "deep/leak": "failed"}
    assert {(x["path"], x["reason"]) for x in data["left_out"]} == {("sources/linked", "symlinked-folder")}  # type: ignore[attr-defined, index]
    for path in (tmp_path / "chunks").rglob("*.json"):
        assert "ZQXSECRET" not in path.read_text(encoding="utf-8")


def test_a_symlinked_output_folder_on_the_way_is_refused(
    site: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (site / "chunks").mkdir()
    (site / "chunks" / "guides").symlink_to(elsewhere)
    data = summary(capsys, code=4)
    assert statuses(data)["guides/cms/umbraco"] == "failed"
    assert list(elsewhere.iterdir()) == []


def test_names_that_differ_only_in_case_are_chunked_apart_and_reported_as_colliding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "sources" / "Docs" / "a.md", "# A\n\nUpper.\n")
    write(tmp_path / "sources" / "docs" / "a.md", "# a\n\nLower.\n")
    monkeypatch.chdir(tmp_path)
    data = summary(capsys)
    assert statuses(data) == {"Docs/a": "new", "docs/a": "new"}
    docs = {d["stem"]: d for d in data["documents"]}  # type: ignore[attr-defined]
    assert all(any(w["code"] == "case-collision" for w in d["warnings"]) for d in docs.values())


def test_a_document_beside_a_folder_of_its_name_in_another_case_names_the_folder_that_clashes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Redux's docs: FAQ.md and the folder faq/ of the FAQ pages
    write(tmp_path / "sources" / "FAQ.md", "# FAQ\n\nIndex.\n")
    write(tmp_path / "sources" / "faq" / "Actions.md", "# Actions\n\nText.\n")
    monkeypatch.chdir(tmp_path)
    data = summary(capsys)
    warnings = {d["stem"]: [w["message"] for w in d["warnings"]] for d in data["documents"]}  # type: ignore[attr-defined]
    assert warnings["faq/Actions"] == [
        "output folder 'faq/Actions' lies in 'faq', which differs only in case from 'FAQ': "
        "on macOS and Windows they are the same folder"
    ]
    assert warnings["FAQ"] == []  # no folder 'faq' yet, and no document of that id


def test_a_very_deep_tree_is_read_to_its_limit_and_the_rest_is_listed_as_too_deep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunker.sources import MAX_DEPTH

    folder = tmp_path / "sources"
    for level in range(MAX_DEPTH + 3):
        folder = folder / f"d{level}"
        write(folder / "page.md", f"# Level {level}\n\nBody.\n")
    monkeypatch.chdir(tmp_path)
    data = summary(capsys, code=2)
    chunked = [s for s, status in statuses(data).items() if status == "new"]
    assert len(chunked) == MAX_DEPTH
    deep = [x for x in data["left_out"] if x["reason"] == "too-deep"]  # type: ignore[attr-defined, index]
    assert len(deep) == 1 and deep[0]["folder"] is True
    assert run_cli(["--doc", "d0/" + "/".join(f"d{k}" for k in range(1, 40)) + "/page"]) == 2


def test_dot_dot_in_a_stem_never_reaches_outside(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(site / "outside.md", "# Out\n")
    for stem in ("../outside", "guides/../../outside", "guides/./cms/umbraco"):
        capsys.readouterr()
        assert run_cli(["--stem", stem]) == 2
        capsys.readouterr()
        assert run_cli(["--doc", stem]) == 2
        assert "'..'" in capsys.readouterr().err or "'.'" in capsys.readouterr().err
    assert not (site / "chunks").exists()


def test_a_file_name_that_is_not_utf8_in_a_subfolder_is_listed_and_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "sources" / "sub" / os.fsdecode(b"caf\xe9.md"), "# Cafe\n")
    write(tmp_path / "sources" / "ok.md", "# Ok\n")
    monkeypatch.chdir(tmp_path)
    data = summary(capsys, code=2)
    assert [(x["path"], x["reason"]) for x in data["left_out"]] == [("sources/sub/caf\\xe9.md", "invalid-name")]  # type: ignore[attr-defined, index]


def test_names_of_punctuation_only_are_chunked_under_their_characters_unicode_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A command reference documents shell built-ins by name: pages/common/[.md, [[.md, !.md, ~.md
    for name in ("[", "[[", "!", "~", "((", "☃"):
        write(tmp_path / "sources" / "common" / f"{name}.md", f"# {name}\n\n> The {name} built-in.\n")
    write(tmp_path / "sources" / "(" / "index.md", "# Group\n\nA folder of punctuation.\n")
    monkeypatch.chdir(tmp_path)
    data = summary(capsys)
    assert statuses(data) == {
        "common/_left-square-bracket": "new",
        "common/_left-square-bracket-left-square-bracket": "new",
        "common/_exclamation-mark": "new",
        "common/_tilde": "new",
        "common/_left-parenthesis-left-parenthesis": "new",
        "common/_snowman": "new",
        "_left-parenthesis/index": "new",
    }
    chunks = json.loads((tmp_path / "chunks" / "common" / "_left-square-bracket" / "chunks.json").read_bytes())
    assert "The [ built-in." in chunks[0]["content_original"]
    assert run_cli(["--doc", "common/_exclamation-mark", "--force"]) == 0
    # the page of the word is apart from the page of the character (tldr: comma.md and ,.md)
    write(tmp_path / "sources" / "common" / "tilde.md", "# tilde\n")
    assert statuses(summary(capsys))["common/tilde"] == "new"
    # a written name that spells like one is refused, as any two names giving one id are
    write(tmp_path / "sources" / "common" / "_tilde.md", "# _tilde\n")
    data = summary(capsys, code=2)
    assert statuses(data)["common/_tilde"] == "failed"
    assert [x["reason"] for x in data["left_out"]] == ["ambiguous"]  # type: ignore[attr-defined, index]


def test_two_folders_giving_one_id_are_refused_with_a_way_out_that_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # mdn/translated-content's ru tree holds symbol/@@toprimitive/ beside symbol/toprimitive/: a tree the user
    # cannot rename, so the message names the exclude glob too
    write(tmp_path / "sources" / "symbol" / "@@toprimitive" / "index.md", "# Old\n\nThe page of the old name.\n")
    write(tmp_path / "sources" / "symbol" / "toprimitive" / "index.md", "# New\n\nThe page of the new name.\n")
    monkeypatch.chdir(tmp_path)
    data = summary(capsys, code=2)
    assert statuses(data)["symbol/toprimitive/index"] == "failed"
    assert "rename all but one, or leave the others out with an exclude glob in config.yaml" in json.dumps(data)
    write(tmp_path / "config.yaml", 'exclude:\n  - "**/@@toprimitive/**"\n')
    data = summary(capsys)
    assert statuses(data) == {"symbol/toprimitive/index": "new"}


@pytest.mark.parametrize("written", ["../sources/guides/cms/umbraco.mdx", "ABSOLUTE"])
def test_a_doc_written_as_the_path_of_its_file_is_refused_naming_the_id_to_give(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    # `chunker --sources ../docs --doc ../docs/en/docs/async.md`: refused for its '..', with no word of the id
    monkeypatch.chdir(site / "sources")
    value = str(site / "sources" / "guides" / "cms" / "umbraco.mdx") if written == "ABSOLUTE" else written
    capsys.readouterr()
    assert run_cli(["--sources", ".", "--out", "../chunks", "--doc", value]) == 2
    err = capsys.readouterr().err
    assert "that is the file of the document 'guides/cms/umbraco': select it with --doc 'guides/cms/umbraco'" in err
    assert run_cli(["--sources", ".", "--out", "../chunks", "--doc", "../sources/ref/logo.png"]) == 2
    assert "that is the file of" not in capsys.readouterr().err  # no source: the refusal alone
    assert run_cli(["--sources", ".", "--out", "../chunks", "--doc", "guides/cms/umbraco"]) == 0
