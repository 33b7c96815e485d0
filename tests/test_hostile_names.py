"""File names that are fine on Linux and break elsewhere: Windows device names as document ids, and ids
that take a folder chunker keeps for its own commands in another case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from chunker.doc_ids import id_segment, is_doc_id, validate_stem
from chunker.errors import EXIT_USAGE, UsageError
from chunker.lookup import find_source
from chunker.source_walk import scan


def touch(path: Path, text: str = "# T\n\nBody.\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def sources(make_work: Callable[..., Path]) -> Path:
    return make_work({}) / "sources"


@pytest.mark.parametrize(
    ("name", "part"),
    [
        ("CON", "CON_"),
        ("nul", "nul_"),
        ("Aux", "Aux_"),
        ("com1", "com1_"),
        ("LPT9", "LPT9_"),
        ("COM\u00b9", "COM\u00b9_"),
        ("aux.v2", "aux_.v2"),
        ("nul.tar.gz", "nul_.tar.gz"),
        ("con ", "con_"),
        ("Console", "Console"),
        ("x.con", "x.con"),
        ("com10", "com10"),
    ],
)
def test_a_windows_device_name_gets_an_underscore_in_its_id(name: str, part: str) -> None:
    """``chunks/CON/`` (or ``nul.jsonl`` in the export) cannot be made or copied on Windows or an SMB share:
    the name up to its first dot is a device there, in any case and with any extension."""
    assert id_segment(name) == part
    assert is_doc_id(part)


def test_a_tree_with_device_names_is_chunked_and_exported_under_safe_names(
    sources: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chunker.cli import run_cli

    for name in ("CON.md", "nul.txt", "aux.v2.md", "com1/x.md", "Console.md"):
        touch(sources / name, f"# T\n\nBody of {name}.\n")
    assert sorted(s.stem for s in scan(sources).found) == ["CON_", "Console", "aux_.v2", "com1_/x", "nul_"]
    assert run_cli([]) == 0
    chunks = Path("chunks")
    made = sorted(p.parent.relative_to(chunks).as_posix() for p in chunks.rglob("chunks.json"))
    assert made == ["CON_", "Console", "aux_.v2", "com1_/x", "nul_"]
    assert run_cli(["export", "--format", "jsonl"]) == 0
    names = sorted(p.relative_to(chunks / "_export").as_posix() for p in (chunks / "_export").rglob("*.jsonl"))
    assert names == ["CON_.jsonl", "Console.jsonl", "aux_.v2.jsonl", "com1_/x.jsonl", "nul_.jsonl"]
    capsys.readouterr()


def test_a_device_name_as_stem_names_the_id_to_use(sources: Path) -> None:
    with pytest.raises(UsageError, match=r"'CON' is a device name on Windows.*did you mean 'CON_'"):
        validate_stem("CON")
    touch(sources / "CON.md")
    assert find_source(sources, "CON_").path.name == "CON.md"


def test_a_name_and_its_escaped_form_are_refused_as_one_id(sources: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from chunker.cli import run_cli

    touch(sources / "CON.md")
    touch(sources / "CON_.md")
    assert run_cli([]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "CON.md" in err and "CON_.md" in err


def test_the_view_folder_and_any_case_of_the_commands_folders_are_reserved(sources: Path) -> None:
    """``chunker view`` writes ``chunks/_view/``: a document ``_view/x`` had its artifacts there, and
    ``_Export.md`` is the export's folder on macOS and Windows."""
    for name in ("a.md", "_view.md", "_View/x.md", "_Export.md", "_EVAL.txt", "b/_view.md"):
        touch(sources / name)
    found = scan(sources)
    assert [s.stem for s in found.found] == ["a", "b/_view"]
    reserved = {x.display: x.detail for x in found.left_out if x.reason == "reserved"}
    assert set(reserved) == {"sources/_view.md", "sources/_View", "sources/_Export.md", "sources/_EVAL.txt"}
    assert "view command" in reserved["sources/_view.md"]
    with pytest.raises(UsageError, match=r"_Export\.md is not chunked: a name chunker reserves"):
        find_source(sources, "_Export")


def test_control_characters_of_a_file_name_are_shown_escaped(sources: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file named ``x<ESC>[2J<ESC>]0;t<BEL>.md`` cleared the screen and retitled the terminal of whoever ran
    chunker (its warnings print the path); a newline in a name forged a line of its own."""
    from chunker.cli import run_cli
    from chunker.path_display import shown_path

    assert shown_path("sources/a\x1b[2J\n\u202eb.md") == "sources/a\\x1b[2J\\x0a\\u202eb.md"
    touch(sources / "x\x1b[2J\x1b]0;t\x07.md", "# T\n\n```\ncode\n")  # an unclosed fence: an error naming line 3
    touch(sources / "y\nz.md", "# T\n\n```\ncode\n")
    assert run_cli(["--verbose"]) == 1
    out = "".join(capsys.readouterr())
    assert "sources/x\\x1b[2J\\x1b]0;t\\x07.md:3:" in out and "sources/y\\x0az.md:3:" in out
    assert not any(c in out for c in "\x1b\x07")


@pytest.mark.parametrize(
    "env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}]
)
def test_a_console_that_cannot_encode_a_character_gets_it_escaped(sources: Path, env: dict[str, str]) -> None:
    """The summary's ``·`` (and any heading or name beyond ASCII) on an ASCII console was exit 5,
    ``internal error: UnicodeEncodeError``, after the work was done."""
    import os
    import subprocess
    import sys

    touch(sources / "a.md", "# Über\n\nText.\n\n## 中文\n\nMore text.\n")
    run = subprocess.run(
        [sys.executable, "-m", "chunker", "--verbose"], capture_output=True, env={**os.environ, **env}, check=False
    )
    assert run.returncode == 0, run.stderr
    assert b"\\xb7" in run.stdout and b"1 new" in run.stdout


def test_many_ids_on_the_command_line_scan_the_tree_once(sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 ``--doc`` ids of a tree scanned the tree once per id: over 300 s (now 2.3 s CPU)."""
    import chunker.lookup as lookup
    from chunker.cli import run_cli

    for i in range(30):
        touch(sources / f"d{i}" / f"f{i}.md")
    calls: list[Path] = []
    real_scan = lookup.scan
    monkeypatch.setattr(lookup, "scan", lambda folder, *a: calls.append(folder) or real_scan(folder, *a))
    args = [a for i in range(30) for a in ("--doc", f"d{i}/f{i}")] + ["--stem", "f3", "--doc", "d0/f0"]
    assert run_cli(args) == 0
    assert len(calls) == 1
    assert sorted(p.parent.name for p in Path("chunks").rglob("chunks.json")) == sorted(f"f{i}" for i in range(30))


def test_a_file_swapped_for_a_symlink_after_the_scan_is_not_followed(sources: Path, tmp_path: Path) -> None:
    """The scan exempts a file it found as no symlink from the check for one pointing out of sources/;
    swapped for a link to a secret between the scan and the read, the secret's text was chunked."""
    from chunker.config import ChunkerConfig
    from chunker.errors import SourceError
    from chunker.freshness import read_source
    from chunker.sources import SourceFile

    secret = touch(tmp_path / "secret.txt", "ZQXSECRET\n")
    touch(sources / "a.md")
    (found,) = scan(sources).found
    assert found.walked
    (sources / "a.md").unlink()
    (sources / "a.md").symlink_to(secret)
    with pytest.raises(SourceError, match="became a symlink"):
        read_source(found, ChunkerConfig())
    linked = SourceFile(found.stem, found.path, found.display)  # not walked: checked, then followed
    assert read_source(linked, ChunkerConfig())[0] == b"ZQXSECRET\n"


def test_a_name_an_ascii_locale_cannot_read_is_blamed_on_the_locale(sources: Path) -> None:
    """Under ``LC_ALL=C`` with ``PYTHONUTF8=0`` Python reads ``Über.md`` as bytes it cannot decode; the
    run said the name was "not UTF-8" (it is), now it names the locale's encoding and the way out."""
    import os
    import subprocess
    import sys

    touch(sources / "Über.md")
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    run = subprocess.run([sys.executable, "-m", "chunker"], capture_output=True, env=env, check=False)
    assert run.returncode == EXIT_USAGE
    assert b"not ascii, the locale's encoding of file names (run under a UTF-8 locale" in run.stderr


def test_an_unknown_option_with_control_characters_is_shown_escaped(
    sources: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chunker.cli import run_cli

    assert run_cli(["--\x1b]0;t\x07\x1b[2J"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "no such option --\\x1b]0;t\\x07\\x1b[2J" in err and "\x1b" not in err


def test_names_that_differ_only_in_normalization_are_told_apart(
    sources: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``Café/x.md`` composed and decomposed give one id and are refused; the message listed
    ``sources/Café/x.md, sources/Café/x.md``, two names that look the same."""
    from chunker.cli import run_cli

    touch(sources / "Caf\u00e9" / "x.md")
    touch(sources / "Cafe\u0301" / "x.md")
    assert run_cli([]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "sources/Cafe\\u0301/x.md, sources/Caf\u00e9/x.md" in err and "NFC or NFD" in err


@pytest.mark.parametrize(
    ("name", "part"),
    [("[[...slug]]", "slug-"), ("[...mdxPath]", "mdxPath-"), ("[lang]", "lang-"), ("-.foo", "foo"), ("(doc)", "doc-")],
)
def test_dots_left_leading_by_characters_that_became_a_dash_are_no_hidden_name(name: str, part: str) -> None:
    assert id_segment(name) == part
    assert is_doc_id(part)


def test_a_next_js_app_tree_with_catch_all_route_folders_is_chunked(sources: Path) -> None:
    """Nextra's examples/swr-site: ``app/[lang]/[[...mdxPath]]/page.tsx`` next to the pages. The catch-all
    folder's name gave no id (``...mdxPath-`` reads as a hidden name), so the run failed with exit 2."""
    touch(sources / "app" / "[lang]" / "[[...mdxPath]]" / "page.mdx")
    touch(sources / "app" / "[lang]" / "[[...mdxPath]]" / "page.tsx", "export default function Page() {}\n")
    touch(sources / "content" / "en" / "index.mdx")
    walked = scan(sources)
    assert [s.stem for s in walked.found] == ["app/lang-/mdxPath-/page", "content/en/index"]
    assert not walked.refused
    for hidden in ("-.-", ".git", "..."):
        assert id_segment(hidden) is None
