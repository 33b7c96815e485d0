"""The `chunker` command as users run it: exit codes, incremental runs, artifacts."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chunker.cli import app, run_cli

GUIDE = Path(__file__).resolve().parents[1] / "sources" / "chunker-guide.md"
CLINIC = Path(__file__).resolve().parent / "fixtures" / "general_info.md"


@pytest.fixture
def work(make_work: Callable[..., Path]) -> Path:
    return make_work({"guide.md": GUIDE.read_text(encoding="utf-8"), "clinic.md": CLINIC.read_text(encoding="utf-8")})


def cli(*args: str) -> int:
    return run_cli(list(args))


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(folder.glob("*.json"))}


def summary(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert cli(*args, "--json") in (0, 1)
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def statuses(data: dict[str, object]) -> dict[str, str]:
    docs = data["documents"]
    assert isinstance(docs, list)
    return {d["stem"]: d["status"] for d in docs}


def test_a_run_writes_three_valid_artifacts_per_document(work: Path) -> None:
    assert cli() == 0
    for stem in ("guide", "clinic"):
        folder = work / "chunks" / stem
        chunks = json.loads((folder / "chunks.json").read_text(encoding="utf-8"))
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
        assert chunks and chunks[0]["chunk_id"] == "chk_000001"
        assert meta["stem"] == stem and meta["total_chunks"] == len(chunks)
        assert len(meta["source_sha256"]) == 64 and len(meta["fingerprint"]) == 64
        assert report["errors"] == [] and report["metrics"]["total_chunks"] == len(chunks)
    assert (
        json.loads((work / "chunks" / "guide" / "meta.json").read_bytes())["document_metadata"]["title"]
        == "Chunker guide"
    )


def test_chunks_json_is_byte_identical_across_runs_and_forced_runs(work: Path) -> None:
    assert cli() == 0
    first = (work / "chunks" / "clinic" / "chunks.json").read_bytes()
    assert cli("--force") == 0
    assert (work / "chunks" / "clinic" / "chunks.json").read_bytes() == first


def test_an_unchanged_run_touches_nothing_and_says_so(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert statuses(summary(capsys)) == {"clinic": "new", "guide": "new"}
    before = snapshot(work / "chunks" / "clinic")
    assert statuses(summary(capsys)) == {"clinic": "unchanged", "guide": "unchanged"}
    assert snapshot(work / "chunks" / "clinic") == before


def test_changing_one_source_rechunks_only_that_document(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary(capsys)
    guide_before = snapshot(work / "chunks" / "guide")
    source = work / "sources" / "clinic.md"
    source.write_text(source.read_text(encoding="utf-8") + "\n## Новый раздел\n\nНовый текст.\n", encoding="utf-8")
    data = summary(capsys)
    assert statuses(data) == {"clinic": "changed", "guide": "unchanged"}
    assert snapshot(work / "chunks" / "guide") == guide_before
    clinic = next(d for d in data["documents"] if d["stem"] == "clinic")  # type: ignore[union-attr]
    assert clinic["chunks_delta"]["added"] == 1 and clinic["chunks_delta"]["removed"] == 0


def test_changing_one_option_for_one_document_rechunks_only_it(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary(capsys)
    (work / "config.yaml").write_text(
        "documents:\n  guide:\n    max_chars: 600\n    target_chars: 400\n", encoding="utf-8"
    )
    assert statuses(summary(capsys)) == {"clinic": "unchanged", "guide": "changed"}
    meta = json.loads((work / "chunks" / "guide" / "meta.json").read_bytes())
    assert meta["config"]["max_chars"] == 600


def test_force_regenerates_every_document(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary(capsys)
    before = snapshot(work / "chunks" / "clinic")
    # the same chunks again: rebuilt, not changed; the files already hold those bytes and stay
    assert statuses(summary(capsys, "--force")) == {"clinic": "rebuilt", "guide": "rebuilt"}
    assert snapshot(work / "chunks" / "clinic") == before


def test_force_rewrites_only_the_artifacts_that_differ(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary(capsys)
    folder = work / "chunks" / "clinic"
    before = snapshot(folder)
    meta = json.loads((folder / "meta.json").read_bytes())
    (work / "config.yaml").write_text("fail_on_overflow: true\n", encoding="utf-8")  # not in the chunks
    assert statuses(summary(capsys, "--force"))["clinic"] == "rebuilt"
    after = snapshot(folder)
    assert after["chunks.json"] == before["chunks.json"]  # same bytes: the file stays
    assert after["meta.json"] != before["meta.json"] and after["report.json"] != before["report.json"]
    rewritten = json.loads((folder / "meta.json").read_bytes())
    assert rewritten["config"]["fail_on_overflow"] is True and rewritten["created_at"] == meta["created_at"]
    hashes = json.loads((folder / "report.json").read_bytes())["artifacts"]
    assert hashes["meta.json"] == hashlib.sha256((folder / "meta.json").read_bytes()).hexdigest()
    assert statuses(summary(capsys))["clinic"] == "unchanged"  # and the next run trusts the set


def test_a_removed_source_removes_its_folder_unless_orphans_are_kept(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary(capsys)
    (work / "sources" / "guide.md").unlink()
    kept = summary(capsys, "--keep-orphans")
    assert statuses(kept) == {"clinic": "unchanged"}
    note = "kept 1 output folder(s) whose id no source document has now (--keep-orphans): chunks/guide"
    assert kept["warnings"] == [note]
    assert (work / "chunks" / "guide").is_dir()
    assert statuses(summary(capsys))["guide"] == "removed"
    assert not (work / "chunks" / "guide").exists()


def test_stem_lookup_prefers_the_converted_output(work: Path) -> None:
    auto = work / "sources" / "_output" / "auto"
    auto.mkdir(parents=True)
    (auto / "guide.md").write_text("# Converted\n\nFrom the PDF converter ZQXAUTO.\n", encoding="utf-8")
    assert cli("--stem", "guide") == 0
    meta = json.loads((work / "chunks" / "guide" / "meta.json").read_bytes())
    assert meta["source_path"].endswith("_output/auto/guide.md")
    assert "ZQXAUTO" in (work / "chunks" / "guide" / "chunks.json").read_text(encoding="utf-8")
    assert not (work / "chunks" / "clinic").exists()


def test_a_missing_stem_is_a_usage_error_listing_close_matches(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--stem", "clinc") == 2
    err = capsys.readouterr().err
    assert "clinc" in err and "clinic" in err


@pytest.mark.parametrize("stem", ["../../x", "/etc/passwd", "*", "", "sub/x", "a" * 300, ".."])
def test_a_stem_that_is_a_path_is_refused(work: Path, stem: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("--stem", stem) == 2
    assert "stem" in capsys.readouterr().err
    assert not (work / "chunks").exists()


def test_a_bad_config_is_a_usage_error_naming_the_key(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "config.yaml").write_text("min_chars: 5000\n", encoding="utf-8")
    assert cli() == 2
    assert "min_chars" in capsys.readouterr().err
    (work / "config.yaml").write_text("documents:\n  guide:\n    max_char: 5\n", encoding="utf-8")
    assert cli() == 2
    err = capsys.readouterr().err
    assert "documents.guide" in err and "max_char" in err and "max_chars" in err


def test_strategy_off_written_unquoted_as_the_docs_show_it_is_accepted(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "config.yaml").write_text("documents:\n  guide:\n    strategy: off\n", encoding="utf-8")
    assert statuses(summary(capsys)) == {"clinic": "new", "guide": "off"}


def test_lowering_max_chars_alone_says_that_target_chars_is_inherited(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "config.yaml").write_text("documents:\n  guide:\n    max_chars: 500\n", encoding="utf-8")
    assert cli() == 2
    assert "target_chars is inherited: set it too" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("yaml_text", "key"),
    [
        ("max_chars: 99999999999999999999999\n", "max_chars"),  # was exit 5: orjson's 64-bit limit
        ("min_chars: 99999999999999999999999\n", "min_chars"),
        ("target_chars: 99999999999999999999999\n", "target_chars"),
        ("max_file_bytes: 99999999999999999999\n", "max_file_bytes"),
        ("max_frontmatter_bytes: 99999999999999999999\n", "max_frontmatter_bytes"),
        ("max_frontmatter_nodes: 99999999999999999999\n", "max_frontmatter_nodes"),
        ("context_depth: 99999999999999999999\n", "context_depth"),
        ("overlap_sentences: 99999999999999999999\n", "overlap_sentences"),
        ("documents:\n  guide:\n    max_chars: 99999999999999999999999\n", "max_chars"),
    ],
)
def test_an_integer_option_over_its_bound_exits_2_naming_the_config_file_and_the_key(
    work: Path, capsys: pytest.CaptureFixture[str], yaml_text: str, key: str
) -> None:
    (work / "config.yaml").write_text(yaml_text, encoding="utf-8")
    assert cli() == 2
    err = capsys.readouterr().err
    line = yaml_text.count("\n")  # the key is on the file's last line
    assert f"config.yaml:{line}: " in err and f"'{key}': must be at most" in err, err
    assert "internal error" not in err and "inherited" not in err
    assert not (work / "chunks").exists()


@pytest.mark.parametrize(
    ("yaml_text", "line"),
    [
        ("min_chars: 80\nmax_chars: " + "9" * 5000 + "\n", 2),  # over Python's 4300-digit limit
        ("min_chars: 80\n\nskip_pre_heading: 2020-13-45\n", 3),
        ("context_label: !!float abc\n", 1),
        ('min_chars: 80\ncontext_label: "a\x01b"\n', 2),
    ],
)
def test_config_yaml_whose_values_cannot_be_built_exits_2_naming_the_file_and_line(
    work: Path, capsys: pytest.CaptureFixture[str], yaml_text: str, line: int
) -> None:
    (work / "config.yaml").write_text(yaml_text, encoding="utf-8")
    assert cli() == 2
    err = capsys.readouterr().err
    assert f"config.yaml:{line}: invalid YAML" in err, err
    assert "internal error" not in err


@pytest.mark.parametrize(
    ("yaml_text", "key"),
    [
        ('context_label: "\\ud800"\n', "context_label"),
        ('skip_headings: [a, "b\\udc00"]\n', "skip_headings"),
        ('documents:\n  guide:\n    page_marker_pattern: "\\ud83d\\ude00"\n', "page_marker_pattern"),
    ],
)
def test_a_surrogate_escape_in_a_config_string_exits_2_naming_the_key(
    work: Path, capsys: pytest.CaptureFixture[str], yaml_text: str, key: str
) -> None:
    (work / "config.yaml").write_text(yaml_text, encoding="utf-8")
    assert cli() == 2
    err = capsys.readouterr().err
    line = yaml_text.count("\n")  # the key is on the file's last line
    assert f"config.yaml:{line}: " in err and f"'{key}': holds the escape \\ud" in err and "surrogate" in err, err


def test_library_configs_refuse_integers_past_their_bounds_and_surrogates() -> None:
    from chunker.config import ChunkerConfig
    from chunker.errors import ConfigError

    with pytest.raises(ConfigError, match="'max_chars': must be at most 2147483647"):
        ChunkerConfig(max_chars=2**31, target_chars=800)
    with pytest.raises(ConfigError, match="'max_file_bytes': must be at most"):
        ChunkerConfig(max_file_bytes=2**64)
    with pytest.raises(ConfigError, match="'min_chars': must be at least 1, got an integer of"):
        ChunkerConfig(min_chars=-(10**5000))
    with pytest.raises(ConfigError, match="'context_label': holds"):
        ChunkerConfig(context_label="\ud800")
    assert ChunkerConfig(max_chars=2**31 - 1, max_file_bytes=2**40).fingerprint()


def test_library_configs_refuse_unknown_choices() -> None:
    from chunker.config import ChunkerConfig
    from chunker.errors import ConfigError

    for key in ("strategy", "context_prefix", "size_unit"):
        with pytest.raises(ConfigError, match=key):
            ChunkerConfig(**{key: "bogus"})


def test_a_missing_tokenizer_is_refused_at_load_time_naming_the_config_file(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "config.yaml").write_text("size_unit: tokens\ntokenizer: missing.json\n", encoding="utf-8")
    assert cli() == 2
    err = capsys.readouterr().err
    assert "config.yaml:2: tokenizer:" in err and "missing.json" in err
    assert not (work / "chunks").exists()
    override = "documents:\n  guide:\n    size_unit: tokens\n    tokenizer: missing.json\n"
    (work / "config.yaml").write_text(override, encoding="utf-8")
    assert cli() == 2
    assert "config.yaml:4: documents.guide: tokenizer:" in capsys.readouterr().err


def test_an_undecodable_source_exits_3_naming_file_and_line(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "sources" / "latin.md").write_bytes(b"# Titel\n\nok\nGr\xfc\xdfe\n")
    assert cli() == 3
    err = capsys.readouterr().err
    assert "sources/latin.md:4" in err
    assert (work / "chunks" / "clinic" / "chunks.json").is_file()  # one bad document does not stop the others


def test_validator_errors_under_a_policy_exit_1_and_still_write_artifacts(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "sources" / "bad.md").write_text("---\ntags: [a, b\n---\n# Doc\n\nBody.\n", encoding="utf-8")
    assert cli("--stem", "bad") == 1
    assert "sources/bad.md:2" in capsys.readouterr().err
    assert (work / "chunks" / "bad" / "report.json").is_file()
    (work / "config.yaml").write_text("fail_on_bad_frontmatter: false\n", encoding="utf-8")
    assert cli("--stem", "bad") == 0


def test_an_unchanged_document_fails_a_rerun_as_it_failed_the_first_run(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "sources" / "orphan.md").write_text("# Doc\n\nBody.\n\n## A\n\nText.\n\n### Empty\n", encoding="utf-8")
    (work / "config.yaml").write_text("fail_on_orphan_heading: true\n", encoding="utf-8")
    assert cli() == 1
    capsys.readouterr()
    data = summary(capsys)
    assert statuses(data)["orphan"] == "unchanged" and data["exit_code"] == 1
    assert cli() == 1
    assert "error: sources/orphan.md:9: orphan-heading:" in capsys.readouterr().err
    (work / "config.yaml").write_text("fail_on_orphan_heading: false\n", encoding="utf-8")
    assert cli() == 0  # the recorded finding is judged again under the new policy: a warning now


def test_an_unwritable_output_exits_4(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "blocked").write_text("a file where a folder should be", encoding="utf-8")
    assert cli("--out", "blocked") == 4
    assert "blocked" in capsys.readouterr().err


def test_a_failure_mid_write_leaves_the_previous_artifacts_intact(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("--stem", "clinic") == 0
    folder = work / "chunks" / "clinic"
    before = {p.name: p.read_bytes() for p in folder.glob("*.json")}
    source = work / "sources" / "clinic.md"
    source.write_text(source.read_text(encoding="utf-8") + "\nMore text.\n", encoding="utf-8")
    real_replace = os.replace
    calls = {"n": 0}

    def failing_replace(src: str, dst: str) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    assert cli("--stem", "clinic") == 4
    monkeypatch.setattr(os, "replace", real_replace)
    after = {p.name: p.read_bytes() for p in folder.glob("*.json")}
    for _name, data in after.items():
        json.loads(data)
    assert after["report.json"] == before["report.json"]
    assert not list(folder.glob("*.tmp"))
    assert cli("--stem", "clinic") == 0  # the next run repairs the set


def test_parallel_jobs_give_the_same_artifacts_as_a_serial_run(work: Path) -> None:
    for i in range(4):
        (work / "sources" / f"copy{i}.md").write_text(CLINIC.read_text(encoding="utf-8") * (i + 1), encoding="utf-8")
    assert cli("--out", "serial") == 0
    assert cli("--out", "parallel", "--jobs", "2") == 0
    for folder in sorted(p for p in (work / "serial").iterdir() if p.is_dir()):
        for name in ("chunks.json",):
            assert (folder / name).read_bytes() == (work / "parallel" / folder.name / name).read_bytes()


def test_check_detects_stale_artifacts_without_writing(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli() == 0
    assert cli("--check") == 0
    source = work / "sources" / "guide.md"
    source.write_text(source.read_text(encoding="utf-8") + "\nA new paragraph.\n", encoding="utf-8")
    before = snapshot(work / "chunks" / "guide")
    assert statuses(summary(capsys, "--check")) == {"clinic": "ok", "guide": "stale"}
    assert cli("--check") == 1
    assert snapshot(work / "chunks" / "guide") == before


def test_check_finds_a_chunks_json_edited_after_the_run_stale(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli() == 0
    chunks = work / "chunks" / "guide" / "chunks.json"
    chunks.write_bytes(chunks.read_bytes().replace(b"chunk_", b"chunk-", 1))
    assert statuses(summary(capsys, "--check")) == {"clinic": "ok", "guide": "stale"}
    assert cli("--check") == 1


def test_check_finds_the_artifacts_of_a_removed_source_stale(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli() == 0
    (work / "sources" / "guide.md").unlink()
    assert statuses(summary(capsys, "--check")) == {"clinic": "ok", "guide": "stale"}
    assert cli("--check") == 1
    assert "chunks/guide: stale: no source document has its id now" in capsys.readouterr().err
    assert (work / "chunks" / "guide" / "chunks.json").is_file()  # --check writes and removes nothing
    assert statuses(summary(capsys, "--check", "--keep-orphans")) == {"clinic": "ok"}


def test_switching_a_document_off_removes_its_chunks(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli() == 0
    (work / "config.yaml").write_text("documents:\n  guide:\n    strategy: 'off'\n", encoding="utf-8")
    assert statuses(summary(capsys, "--check")) == {"clinic": "ok", "guide": "stale"}
    assert cli() == 0
    assert "removed the chunks of sources/guide.md (strategy: off)" in capsys.readouterr().out
    assert not (work / "chunks" / "guide").exists()
    assert statuses(summary(capsys)) == {"clinic": "unchanged", "guide": "off"}
    assert statuses(summary(capsys, "--check")) == {"clinic": "ok", "guide": "off"}


def test_help_documents_the_exit_codes() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "Exit codes" in text and "3 a source" in text and "5 internal error" in text


def test_the_console_script_and_python_m_both_work(work: Path) -> None:
    for command in (
        [sys.executable, "-m", "chunker", "--stem", "guide"],
        [str(Path(sys.executable).parent / "chunker")],
    ):
        done = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
    assert (work / "chunks" / "clinic" / "chunks.json").is_file()


def test_a_full_run_chunks_a_tree_and_names_every_file_it_does_not_chunk(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sources = work / "sources"
    (sources / "справка.md").write_text("# Справка\n\nТекст.\n", encoding="utf-8")
    for folder in ("a", "b"):
        (sources / folder).mkdir()
        (sources / folder / "index.md").write_text(f"# {folder}\n\nBody {folder}.\n", encoding="utf-8")
    (sources / "guide.txt").write_text("Guide as text.\n", encoding="utf-8")
    (sources / "logo.png").write_bytes(b"\x89PNG")
    assert cli() == 0
    captured = capsys.readouterr()
    assert "warning: sources/guide.txt: shadowed:" in captured.out
    found = sorted(p.name for p in (work / "chunks").iterdir() if p.name != ".chunker-cache.json")  # the stat cache
    assert found == [".lock", "a", "b", "clinic", "guide", "справка"]
    assert (work / "chunks" / "a" / "index" / "chunks.json").is_file()
    assert cli("--json") == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {(d["stem"], d["source"], d["status"]) for d in data["documents"]} >= {
        ("справка", "sources/справка.md", "unchanged"),
        ("a/index", "sources/a/index.md", "unchanged"),
        ("guide", "sources/guide.txt", "shadowed"),
    }
    assert data["left_out_counts"] == {"not-a-source": 1, "shadowed": 1}
    assert {(x["path"], x["reason"]) for x in data["left_out"]} == {
        ("sources/logo.png", "not-a-source"),
        ("sources/guide.txt", "shadowed"),
    }


def test_thousands_of_warnings_of_one_code_are_summed_up_on_the_terminal(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (text first: a first H1 right over another is a title line, which goes with the next section)
    text = "Intro.\n" + "".join(f"# H{k}\n" for k in range(500))
    (work / "sources" / "headings.md").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert cli("--stem", "headings") == 0
    out = capsys.readouterr().out
    assert out.count(": orphan-heading: orphan heading") == 20
    assert "warning: sources/headings.md: orphan-heading: 480 more not printed (all in report.json)" in out
    report = json.loads((work / "chunks" / "headings" / "report.json").read_bytes())
    assert sum(w["code"] == "orphan-heading" for w in report["warnings"]) == 500


def test_a_source_name_that_is_not_utf8_is_named_in_the_json_summary(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "sources" / os.fsdecode(b"a\xff.md")).write_text("# T\n\nBody.\n", encoding="utf-8")
    capsys.readouterr()
    assert cli("--json") == 2
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert any(d["source"] == "sources/a\\xff.md" and d["exit_code"] == 2 for d in data["documents"])


def test_an_override_that_matches_no_document_is_reported(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "config.yaml").write_text(
        "documents:\n  giude:\n    strategy: faq\n  clin*:\n    max_chars: 1000\n", encoding="utf-8"
    )
    data = summary(capsys)
    assert data["warnings"] == ["config.yaml:2: documents.giude matches no source document (did you mean 'guide'?)"]
    assert cli() == 0
    assert "documents.giude matches no source document" in capsys.readouterr().out


def test_an_interrupt_while_the_command_is_still_importing_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import builtins

    from chunker import entry

    real_import = builtins.__import__

    def interrupted(name: str, *args: object, **kwargs: object) -> object:
        if name == "chunker.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", interrupted)
    with pytest.raises(SystemExit) as info:
        entry.main()
    assert info.value.code == 130
    assert capsys.readouterr().err == "error: interrupted\n"


def test_removing_the_chunks_of_a_document_exclude_leaves_out_does_not_say_its_source_is_gone(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An `exclude:` glob added to config.yaml removes the chunks of a source that is still there:
    the line said "its source no longer exists", which sent a user looking for a deleted file."""
    assert cli() == 0
    (work / "config.yaml").write_text("exclude: ['guide.md']\n", encoding="utf-8")
    capsys.readouterr()
    assert cli("--keep-orphans") == 0 and (work / "chunks" / "guide").is_dir()
    capsys.readouterr()
    assert cli() == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "removed chunks/guide (" in out and "include/exclude leaves it out" in out
    assert "no longer exists" not in out


def test_check_and_keep_orphans_do_not_say_the_source_of_an_excluded_document_is_gone(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli() == 0
    (work / "config.yaml").write_text("exclude: ['guide.md']\n", encoding="utf-8")
    capsys.readouterr()
    assert cli("--check") == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "chunks/guide: stale: no source document has its id now" in err and "include/exclude" in err
    assert cli("--keep-orphans") == 0
    assert "no longer exists" not in capsys.readouterr().out
