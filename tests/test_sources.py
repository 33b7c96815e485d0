"""Finding sources: stem validation, lookup order, discovery, symlinks, case collisions."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from chunker.doc_ids import STEM_RE, is_doc_id, validate_stem
from chunker.errors import EXIT_SOURCE, EXIT_USAGE, SourceError, UsageError
from chunker.lookup import find_source
from chunker.output_tree import case_collisions, collision_index
from chunker.source_walk import discover, scan
from chunker.sources import SourceFile, check_inside


def touch(path: Path, text: str = "# T\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def sources(make_work: Callable[..., Path]) -> Path:
    return make_work({}) / "sources"


# -- stems ----------------------------------------------------------------------

GOOD_STEMS = [
    "a",
    "guide",
    "Guide_2024",
    "v1.2-final",
    "0",
    "a" * 100,
    "x.md",
    "_index",
    "guides/cms/umbraco",
    "справка",
    "a..b",
    "a" * 240,
]

BAD_STEMS = [
    ("", "empty"),
    ("..", "'..'"),
    (".", "'.'"),
    ("../../zqx_escape", "'..'"),
    ("a/../b", "'..'"),
    ("/tmp/zqx_abs", "absolute"),
    ("C:\\x", "absolute"),
    ("sub\\x", "not '\\'"),
    ("*", "wildcards"),
    ("guide*", "wildcards"),
    ("g?ide", "wildcards"),
    ("[ab]", "wildcards"),
    ("a" * 241, "longer than 240 bytes"),
    ("a/" * 501, "at most 1000"),
    ("a\x00b", "NUL"),
    (".hidden", "unusable"),
    ("sub/", "unusable"),
    ("-rf", "did you mean 'rf'"),
    ("with space", "did you mean 'with-space'"),
    ("guides/my guide", "did you mean 'guides/my-guide'"),
    ("x\n", "did you mean 'x'"),
    ("x\ny", "did you mean 'x-y'"),
    ("K\u212a", "did you mean 'KK'"),  # Kelvin sign: its NFC form is 'K'
]


@pytest.mark.parametrize("stem", GOOD_STEMS)
def test_safe_stems_are_accepted(stem: str) -> None:
    assert validate_stem(stem) == stem
    assert is_doc_id(stem)
    flat_ascii = "/" not in stem and stem.isascii() and not stem.startswith("_") and len(stem) <= 100
    assert bool(STEM_RE.match(stem)) == flat_ascii


@pytest.mark.parametrize(("stem", "why"), BAD_STEMS)
def test_unsafe_stems_are_refused_with_a_reason(stem: str, why: str) -> None:
    with pytest.raises(UsageError) as info:
        validate_stem(stem)
    assert why in str(info.value)
    assert info.value.exit_code == EXIT_USAGE


def test_a_long_stem_is_shortened_in_the_message() -> None:
    with pytest.raises(UsageError) as info:
        validate_stem("a" * 300)
    assert "(300 characters)" in str(info.value)
    assert len(str(info.value)) < 200


def test_the_stem_pattern_does_not_accept_a_trailing_newline() -> None:
    assert STEM_RE.match("abc\n") is None


# -- find_source ----------------------------------------------------------------


def test_find_source_returns_the_markdown_file_with_a_relative_display(sources: Path) -> None:
    touch(sources / "guide.md")
    found = find_source(sources, "guide")
    assert found == SourceFile(stem="guide", path=sources / "guide.md", display="sources/guide.md")


def test_find_source_accepts_a_relative_sources_folder(sources: Path) -> None:
    touch(sources / "guide.md")
    assert find_source(Path("sources"), "guide").display == "sources/guide.md"


@pytest.mark.parametrize(
    ("present", "winner"),
    [
        (["_output/auto/x.md", "x.md", "_output/auto/x.txt", "x.txt"], "_output/auto/x.md"),
        (["x.md", "_output/auto/x.txt", "x.txt"], "x.md"),
        (["_output/auto/x.txt", "x.txt"], "_output/auto/x.txt"),
        (["x.txt", "x.mdx", "x.markdown"], "x.markdown"),
        (["x.txt", "x.mdx"], "x.mdx"),
        (["deep/x.txt", "deep/x.md"], "deep/x.md"),
        (["_output/auto/deep/x.mdx", "deep/x.mdx"], "_output/auto/deep/x.mdx"),
    ],
)
def test_lookup_order_is_the_same_for_find_source_and_discover(sources: Path, present: list[str], winner: str) -> None:
    for name in present:
        touch(sources / name)
    stem = "deep/x" if "deep" in winner else "x"
    assert find_source(sources, stem).path == sources / winner
    assert [s.path for s in discover(sources) if s.stem == stem] == [sources / winner]


@pytest.mark.parametrize(
    "present",
    [["deep/x.txt", "deep/er/x.md"], ["deep/er/x.md", "deep/x.md"], ["b/x.md", "a/x.md"]],
)
def test_a_bare_name_of_several_documents_is_refused_listing_their_ids(sources: Path, present: list[str]) -> None:
    for name in present:
        touch(sources / name)
    with pytest.raises(UsageError) as info:
        find_source(sources, "x")
    assert "names 2 documents" in str(info.value) and "select one with --doc ID" in str(info.value)
    assert all(name.rsplit(".", 1)[0] in str(info.value) for name in present)
    for name in present:
        assert find_source(sources, name.rsplit(".", 1)[0]).path == sources / name


def test_a_bare_name_of_one_document_in_a_subfolder_finds_it(sources: Path) -> None:
    touch(sources / "guides" / "cms" / "umbraco.mdx")
    found = find_source(sources, "umbraco")
    assert (found.stem, found.display) == ("guides/cms/umbraco", "sources/guides/cms/umbraco.mdx")


def test_two_names_that_give_one_id_are_refused_rather_than_guessed(sources: Path) -> None:
    touch(sources / "my guide.md")
    touch(sources / "my-guide.md")
    with pytest.raises(UsageError, match="given by several files"):
        find_source(sources, "my-guide")
    scanned = scan(sources)
    assert [(x.display, x.reason) for x in scanned.left_out] == [("sources/my-guide.md", "ambiguous")]


def test_a_missing_stem_is_a_usage_error_naming_it_and_close_matches(sources: Path) -> None:
    touch(sources / "baseline_valid.md")
    touch(sources / "other.md")
    with pytest.raises(UsageError) as info:
        find_source(sources, "baseline_vaild")
    assert "baseline_vaild" in str(info.value)
    assert "did you mean 'baseline_valid'" in str(info.value)
    with pytest.raises(UsageError, match="zqx_does_not_exist"):
        find_source(sources, "zqx_does_not_exist")


def test_a_missing_stem_suggests_a_name_that_differs_only_in_case(sources: Path) -> None:
    touch(sources / "README.md")
    with pytest.raises(UsageError, match="did you mean 'README'"):
        find_source(sources, "readme")


def test_find_source_validates_the_stem_first(sources: Path) -> None:
    touch(sources / "sub" / "baseline_valid.md")
    assert find_source(sources, "sub/baseline_valid").path == sources / "sub" / "baseline_valid.md"
    with pytest.raises(UsageError, match=r"'\.\.'"):
        find_source(sources, "sub/../sub/baseline_valid")
    with pytest.raises(UsageError, match="wildcards"):
        find_source(sources, "*")


def test_a_missing_sources_folder_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="source folder sources not found"):
        find_source(tmp_path / "sources", "x")
    # a newcomer whose documents are in docs/ ran 'chunker --check': the message named only sources/
    with pytest.raises(UsageError, match=r"sources/, or name the folder of your documents with --sources DIR$"):
        discover(Path("sources"))
    with pytest.raises(UsageError, match="not found"):
        discover(tmp_path / "sources")


def test_a_sources_path_that_is_a_file_or_given_and_missing_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    page = touch(tmp_path / "docs" / "page.md")
    with pytest.raises(UsageError, match=r"docs/page.md is not a folder: give the folder that holds it \(--sources\)"):
        find_source(Path("docs/page.md"), "page")
    with pytest.raises(UsageError, match=r"source folder site not found; check --sources$"):
        find_source(Path("site"), "page")
    assert find_source(Path("docs"), "page").path == Path("docs") / page.name


def test_a_missed_bare_name_suggests_ids_of_close_file_names_and_says_a_stem_has_no_extension(
    sources: Path,
) -> None:
    touch(sources / "usage" / "nextjs.mdx")
    touch(sources / "usage" / "index.md")
    touch(sources / "guide" / "index.md")
    with pytest.raises(UsageError, match=r"did you mean 'nextjs' \(usage/nextjs\)\?$"):
        find_source(sources, "nexjs")  # a typo of a name deep in the tree: a name --stem takes
    with pytest.raises(UsageError, match=r"without extension; did you mean 'nextjs' \(usage/nextjs\)\?$"):
        find_source(sources, "nextjs.mdx")
    with pytest.raises(UsageError, match=r"did you mean 'guide/index' or 'usage/index'\?$"):
        find_source(sources, "indx")  # a name two documents share: their ids
    with pytest.raises(UsageError, match=r"did you mean 'usage/nextjs'"):
        find_source(sources, "usage/nexjs")  # an id was given: ids


def test_find_source_returns_a_dangling_symlink_so_reading_it_can_say_why(sources: Path) -> None:
    (sources / "gone.md").symlink_to(sources / "nowhere.md")
    assert find_source(sources, "gone").path == sources / "gone.md"


# -- discover -------------------------------------------------------------------


def test_discover_lists_one_source_per_stem_sorted(sources: Path) -> None:
    touch(sources / "b.md")
    touch(sources / "a.txt")
    touch(sources / "_output" / "auto" / "c.md")
    touch(sources / "sub" / "d.md")
    touch(sources / "b.txt")
    found = discover(sources)
    assert [(s.stem, s.display) for s in found] == [
        ("a", "sources/a.txt"),
        ("b", "sources/b.md"),
        ("c", "sources/_output/auto/c.md"),
        ("sub/d", "sources/sub/d.md"),
    ]


def test_discover_skips_hidden_files_folders_other_extensions_and_other_output_folders(sources: Path) -> None:
    touch(sources / ".hidden.md")
    touch(sources / ".git" / "x.md")
    touch(sources / "notes.rst")
    touch(sources / "image.png")
    touch(sources / "_output" / "images" / "y.md")
    touch(sources / "_output" / "auto" / ".z.md")
    touch(sources / "real.md")
    assert [s.stem for s in discover(sources)] == ["real"]


def test_discover_does_not_follow_symlinked_folders(sources: Path, tmp_path: Path) -> None:
    touch(tmp_path / "elsewhere" / "secret.md")
    (sources / "linked").symlink_to(tmp_path / "elsewhere")
    scanned = scan(sources)
    assert scanned.found == []
    assert [(x.display, x.reason, x.folder) for x in scanned.left_out] == [("sources/linked", "symlinked-folder", True)]


def test_names_with_spaces_and_other_scripts_get_ids_that_are_safe_paths(sources: Path) -> None:
    touch(sources / "with space.md")
    touch(sources / "Über uns" / "Cafe\u0301 & Bar.md")  # NFD, as macOS writes it
    touch(sources / "docs" / "_index.md")
    touch(sources / "docs" / "index.md")
    touch(sources / "справка.md")
    assert [s.stem for s in scan(sources).found] == [
        "docs/_index",
        "docs/index",
        "with-space",
        "Über-uns/Café-Bar",
        "справка",
    ]


def test_names_that_give_no_id_are_listed_as_invalid(sources: Path) -> None:
    touch(sources / "-.-.md")
    touch(sources / "???.md")  # punctuation only: spelled with its characters' names
    touch(sources / "ok.md")
    scanned = scan(sources)
    assert [s.stem for s in scanned.found] == ["_question-mark-question-mark-question-mark", "ok"]
    assert scanned.refused == ["sources/-.-.md"]


def test_scan_reports_every_file_that_another_file_with_its_id_shadows(sources: Path) -> None:
    for rel in ("x.md", "x.txt", "_output/auto/x.md", "a/y.md", "b/y.md", "a/z.md", "a/z.txt", "deep/w.md", "w.md"):
        touch(sources / rel)
    scanned = scan(sources)
    assert [s.display for s in scanned.found] == [
        "sources/a/y.md",
        "sources/a/z.md",
        "sources/b/y.md",
        "sources/deep/w.md",
        "sources/w.md",
        "sources/_output/auto/x.md",
    ]
    shadowed = {(s.display, s.chosen, s.ambiguous) for s in scanned.shadowed}
    assert shadowed == {
        ("sources/x.md", "sources/_output/auto/x.md", False),
        ("sources/x.txt", "sources/_output/auto/x.md", False),
        ("sources/a/z.txt", "sources/a/z.md", False),
    }


def test_a_directory_named_like_a_source_is_not_a_source(sources: Path) -> None:
    (sources / "x.md").mkdir()
    assert discover(sources) == []
    with pytest.raises(UsageError, match=r"sources/x\.md is a folder, not a source file"):
        find_source(sources, "x")


# -- symlinks -------------------------------------------------------------------


def test_a_symlink_to_a_file_outside_sources_is_refused(sources: Path, tmp_path: Path) -> None:
    secret = touch(tmp_path / "outside" / "secret.md", "ZQXSECRET")
    (sources / "linked.md").symlink_to(secret)
    found = find_source(sources, "linked")
    with pytest.raises(SourceError) as info:
        check_inside(found.path, sources, found.display)
    message = str(info.value)
    assert message.startswith("sources/linked.md: symlink points outside sources/")
    assert "refused" in message
    assert info.value.exit_code == EXIT_SOURCE


def test_a_symlink_through_dotdot_outside_sources_is_refused(sources: Path, tmp_path: Path) -> None:
    touch(tmp_path / "secret.md")
    (sources / "linked.md").symlink_to(Path("..") / "secret.md")
    with pytest.raises(SourceError, match="outside"):
        check_inside(sources / "linked.md", sources, "sources/linked.md")


def test_a_symlink_inside_sources_is_accepted(sources: Path) -> None:
    touch(sources / "real.md")
    (sources / "alias.md").symlink_to("real.md")
    check_inside(sources / "alias.md", sources, "sources/alias.md")


def test_a_plain_file_is_inside(sources: Path) -> None:
    check_inside(touch(sources / "sub" / "x.md"), sources, "sources/sub/x.md")


def test_a_symlinked_sources_folder_still_accepts_its_own_files(tmp_path: Path) -> None:
    real = tmp_path / "real_sources"
    touch(real / "x.md")
    (tmp_path / "sources").symlink_to(real)
    check_inside(tmp_path / "sources" / "x.md", tmp_path / "sources", "sources/x.md")


def test_a_symlink_loop_is_refused_by_check_inside(sources: Path) -> None:
    (sources / "loop.md").symlink_to("loop.md")
    with pytest.raises(SourceError, match="loop"):
        check_inside(sources / "loop.md", sources, "sources/loop.md")


# -- case collisions ------------------------------------------------------------


def test_a_folder_differing_only_in_case_is_a_collision(tmp_path: Path) -> None:
    (tmp_path / "Guide").mkdir()
    (tmp_path / "other").mkdir()
    assert case_collisions("guide", tmp_path) == ["Guide"]
    assert case_collisions("GUIDE", tmp_path) == ["Guide"]


def test_the_same_name_is_not_a_collision(tmp_path: Path) -> None:
    (tmp_path / "Guide").mkdir()
    assert case_collisions("Guide", tmp_path) == []


def test_collisions_compare_nfc_normalised_casefolded_names(tmp_path: Path) -> None:
    decomposed = "Cafe\u0301"  # NFD spelling of "Café"
    (tmp_path / decomposed).mkdir()
    assert case_collisions("CAFÉ", tmp_path) == [decomposed]
    (tmp_path / "STRASSE").mkdir()
    assert case_collisions("straße", tmp_path) == ["STRASSE"]


def test_a_missing_output_folder_has_no_collisions(tmp_path: Path) -> None:
    assert case_collisions("guide", tmp_path / "chunks") == []


def test_stems_that_collide_are_both_listed_by_discover(sources: Path) -> None:
    touch(sources / "Guide.md")
    touch(sources / "guide.md")
    assert [s.stem for s in discover(sources)] == ["Guide", "guide"]


def test_display_is_absolute_for_a_sources_folder_outside_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    touch(tmp_path / "sources" / "x.md")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    found = find_source(tmp_path / "sources", "x")
    assert found.display == str(tmp_path / "sources" / "x.md")
    assert os.path.isabs(found.display)


def test_the_collision_index_lists_the_folder_once_and_pairs_sources_of_one_run(tmp_path: Path) -> None:
    (tmp_path / "Guide").mkdir()
    index = collision_index(["guide", "Notes", "notes", "other"], tmp_path)
    assert index == {"guide": ["Guide"], "Notes": ["notes"], "notes": ["Notes"], "other": []}
    assert collision_index(["a", "A"], tmp_path / "missing") == {"a": ["A"], "A": ["a"]}


# -- ids whose output folder chunker keeps for something else --------------------


def test_ids_that_would_take_an_export_folder_or_a_documents_file_are_reserved(sources: Path) -> None:
    """``a/chunks.json.md`` would be written into the folder ``chunks/a/chunks.json/``, where the
    document ``a`` keeps its file chunks.json (every run failed with exit 4, "a folder is in the way");
    ``_export.md`` into ``chunks/_export/``, which export, --check and orphans do not read (export
    left it out silently). Both are left out as reserved, named, like the folders sources/_export/."""
    for name in ("a.md", "a/chunks.json.md", "a/Meta.json/x.md", "b/report.json.txt", "_export.md", "_eval.mdx"):
        touch(sources / name)
    touch(sources / "_output" / "auto" / "_export" / "y.md")
    touch(sources / "c" / "chunks.json.d" / "z.md")  # only the exact names are reserved
    found = scan(sources)
    assert [s.stem for s in found.found] == ["a", "c/chunks.json.d/z"]
    reserved = {x.stem: x.detail for x in found.left_out if x.reason == "reserved"}
    assert set(reserved) == {"a/chunks.json", "a/Meta.json/x", "b/report.json", "_export", "_eval", "_export/y"}
    assert "export command" in reserved["_export"] and "chunks.json" in reserved["a/chunks.json"]
    with pytest.raises(UsageError, match=r"_export\.md is not chunked: a name chunker reserves"):
        find_source(sources, "_export")


@pytest.mark.parametrize("name", ["sources.md", "sources/x.md"])
def test_an_output_folder_holding_the_sources_folder_takes_no_document_into_it(
    sources: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """``--out .`` beside ``sources/``: the document ``sources`` (or ``sources/x``) would write its
    artifacts into the sources folder (overwriting a file of the same name there): refused, exit 2."""
    from chunker.cli import run_cli

    touch(sources / "a.md")
    touch(sources / name)
    assert run_cli(["--out", "."]) == EXIT_USAGE
    assert "the sources folder" in capsys.readouterr().err
    assert sorted(p.name for p in sources.rglob("*.json")) == []
    (sources / name).unlink()
    assert run_cli(["--out", "."]) == 0  # other documents are fine there
    assert (sources.parent / "a" / "chunks.json").is_file()
