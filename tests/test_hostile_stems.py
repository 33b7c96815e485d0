"""`--stem` is a name, never a path: traversal, absolute paths, globs, empty, over-long and
odd names are refused with exit 2 before anything is read or written; a source that is a
symlink out of sources/ is refused; stems that differ only in case are reported."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from _hostile import Case, assert_contract, cases_matching, make_work, run_in, tree

from chunker.cli import run_cli
from chunker.doc_ids import validate_stem
from chunker.errors import UsageError

BASELINE = Path(__file__).resolve().parent / "data" / "badinput" / "baseline_valid.md"
"""The bad-input suite's valid baseline document (vendored)."""


def baseline_work(tmp_path: Path) -> Path:
    work = make_work(tmp_path)
    shutil.copyfile(BASELINE, work / "sources" / "baseline_valid.md")
    (work / "sources" / "sub").mkdir()
    shutil.copyfile(BASELINE, work / "sources" / "sub" / "baseline_valid.md")
    return work


def assert_refused(work: Path, stem: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    top = work.parents[2]
    before = tree(top)
    out = run_in(work, stem, capsys, monkeypatch)
    assert out.code == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stderr.strip()
    assert tree(top) == before, "a refused stem must not write anything"
    return out.stderr


@pytest.mark.parametrize("case", cases_matching(r"^stem_"))
def test_every_stem_case_of_the_suite_is_refused_without_writing(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if case is None:
        pytest.skip("../shared/badinput is not present")
    work = baseline_work(tmp_path)
    stem = case.value.replace("@ABS@", str(tmp_path / "zqx_abs"))
    stderr = assert_refused(work, stem, capsys, monkeypatch)
    if case.checks.get("msg"):
        assert case.checks["msg"] in stderr
    assert not (tmp_path / "zqx_abs").exists() and not (tmp_path / "w1" / "zqx_escape").exists()


UNSEEN = [
    "../baseline_valid",
    "./baseline_valid",
    "baseline_valid/",
    "/etc/passwd",
    "//server/share",
    "C:\\Windows\\x",
    "c:/x",
    "sub\\baseline_valid",
    "a/../baseline_valid",
    "...",
    ".hidden",
    "-rf",
    "_private",
    "base?ine_valid",
    "baseline_vali[d]",
    "{a,b}",
    "~",
    "~root",
    "$HOME",
    "a b",
    "a\nb",
    "a\tb",
    "café",
    "ｂａｓｅ",
    "a" * 101,
    "x" * 4096,
    " baseline_valid",
    "baseline_valid ",
]


@pytest.mark.parametrize("stem", UNSEEN, ids=[repr(s)[:30] for s in UNSEEN])
def test_unseen_stem_shapes_are_refused_with_exit_2_and_nothing_written(
    stem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = baseline_work(tmp_path)
    stderr = assert_refused(work, stem, capsys, monkeypatch)
    assert "stem" in stderr


@pytest.mark.parametrize("stem", ["a\x00b", "\x00", "a/\x00"])
def test_a_stem_with_a_nul_is_refused_by_validation(stem: str) -> None:
    with pytest.raises(UsageError, match="NUL"):
        validate_stem(stem)


@pytest.mark.parametrize("stem", ["a", "A-1", "guide.v2", "x_y-z.1", "9" * 100])
def test_ordinary_names_are_valid_stems(stem: str) -> None:
    assert validate_stem(stem) == stem


@pytest.mark.parametrize("target", ["outside", "inside_link_loop"])
def test_a_source_symlinked_out_of_sources_or_looping_is_refused_and_its_text_never_written(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = make_work(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nZQXSECRET\n", encoding="utf-8")
    link = work / "sources" / "linked.md"
    if target == "outside":
        link.symlink_to(secret)
    else:
        link.symlink_to(work / "sources" / "loop.md")
        (work / "sources" / "loop.md").symlink_to(link)
    out = run_in(work, "linked", capsys, monkeypatch)
    assert_contract(out, "error")
    assert out.code == 3 and "sources/linked.md" in out.stderr
    for path in (work / "chunks").rglob("*") if (work / "chunks").exists() else []:
        if path.is_file():
            assert "ZQXSECRET" not in path.read_text(encoding="utf-8", errors="replace")


def test_a_symlink_inside_sources_is_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = make_work(tmp_path)
    (work / "sources" / "real.md").write_text("# Real\n\nZQXREAL body.\n", encoding="utf-8")
    (work / "sources" / "alias.md").symlink_to(work / "sources" / "real.md")
    out = run_in(work, "alias", capsys, monkeypatch)
    assert_contract(out, "ok", ["ZQXREAL"])


@pytest.mark.parametrize(("first", "second"), [("Guide", "guide"), ("GUIDE", "Guide"), ("Stra\u00dfe", "strasse")])
def test_a_stem_that_differs_only_in_case_from_an_existing_output_is_reported_as_a_collision(
    first: str, second: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunker.output_tree import case_collisions

    if not first.isascii():  # not a valid stem: check the folding itself
        (tmp_path / first).mkdir()
        assert case_collisions(second, tmp_path) == [first]
        return
    work = make_work(tmp_path)
    for stem in (first, second):
        (work / "sources" / f"{stem}.md").write_text(f"# {stem}\n\nbody ZQX{stem}\n", encoding="utf-8")
    assert run_in(work, first, capsys, monkeypatch).code == 0
    out = run_in(work, second, capsys, monkeypatch)
    assert_contract(out, "any")
    if out.code == 0:
        assert any(w["code"] == "case-collision" for w in out.report()["warnings"])
        assert "collision" in out.stdout + out.stderr or "conflict" in out.stdout + out.stderr
    assert os.path.isdir(work / "chunks" / first)


def test_a_document_below_a_folder_is_chosen_by_its_id_with_doc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --stem takes a name (the suite's stem_with_slash is refused); --doc takes the id, a path below sources/
    work = baseline_work(tmp_path)
    monkeypatch.chdir(work)
    assert run_cli(["--doc", "sub/baseline_valid"]) == 0
    assert (work / "chunks" / "sub" / "baseline_valid" / "chunks.json").is_file()
    assert not (work / "chunks" / "baseline_valid").exists()
