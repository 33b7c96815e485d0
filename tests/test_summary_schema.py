"""The ``--json`` summary of ``chunker`` and ``chunker batch`` has a published schema
(``chunker schema summary``), as the artifacts have: a CI step that parses it can rely on its fields,
and a field added to the summary without its declaration fails here (every object is closed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from chunker.cli import run_cli
from chunker.schemas import load_schema
from chunker.sources import REASONS
from chunker.summary import Status

UTF16 = "# C\n\ntext\n".encode("utf-16")


def _validator() -> jsonschema.protocols.Validator:
    schema = load_schema("summary")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _summary(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    run_cli([*args, "--json"])
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator().iter_errors(data)]
    assert not errors, errors
    return data


def _tree(root: Path) -> Path:
    src = root / "src"
    (src / "sub").mkdir(parents=True)
    (src / ".hidden").mkdir()
    (src / "a.md").write_text("# A\n\n## S\n\ntext here\n", encoding="utf-8")
    (src / "b.md").write_text("# B\n\n```\nopen\n", encoding="utf-8")  # unclosed-fence: exit 1
    (src / "c.md").write_bytes(UTF16)  # failed: exit 3
    (src / "off.md").write_text("# Off\n\ntext\n", encoding="utf-8")
    (src / "sub" / "d.md").write_text("# D\n\nd\n", encoding="utf-8")
    (src / "sub" / "d.txt").write_text("D\n", encoding="utf-8")  # shadowed
    (src / "e.md").write_text("---\ntitle: E\n---\n", encoding="utf-8")  # no chunk
    (src / "w.md").write_text("# W\n\n## Empty\n", encoding="utf-8")
    (src / "draft.md").write_text("# Draft\n", encoding="utf-8")
    (src / "hugo.md").write_text("+++\ndraft = true\n+++\n# Hugo draft\n\ntext\n", encoding="utf-8")  # draft
    (src / "n.rst").write_text("x\n", encoding="utf-8")
    (src / ".hidden" / "h.md").write_text("# H\n", encoding="utf-8")
    (root / "config.yaml").write_text(
        "exclude: [draft.md]\ndocuments:\n  'off':\n    strategy: 'off'\n  nothing-matches: {max_chars: 900}\n",
        encoding="utf-8",
    )
    return src


def test_every_status_of_a_run_and_of_check_matches_the_summary_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _tree(tmp_path)
    base = ["--sources", str(src), "--out", str(tmp_path / "out"), "--config", str(tmp_path / "config.yaml")]
    seen: set[str] = set()
    first = _summary(base, capsys)
    assert first["exit_code"] == 3 and first["warnings"]
    assert set(first["left_out_counts"]) == {"excluded", "hidden", "not-a-source", "shadowed"}
    (src / "a.md").write_text("# A\n\n## S\n\nother text\n", encoding="utf-8")
    (src / "w.md").unlink()
    (src / "c.md").write_text("# C\n\ntext\n", encoding="utf-8")
    for args in ([*base, "--check"], base, [*base, "--force"], [*base, "--check"]):
        seen.update(d["status"] for d in _summary(args, capsys)["documents"])
    seen.update(d["status"] for d in first["documents"])
    expected = {
        "new",
        "changed",
        "rebuilt",
        "unchanged",
        "removed",
        "failed",
        "off",
        "draft",
        "stale",
        "ok",
        "shadowed",
    }
    assert seen == expected
    assert seen == set(Status.__args__)  # type: ignore[attr-defined]


def test_a_batch_summary_matches_the_summary_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    src = _tree(tmp_path)
    base = ["batch", "--sources", str(src), "--out", str(tmp_path / "b"), "--jobs", "1"]
    first = _summary([*base, "--config", str(tmp_path / "config.yaml")], capsys)
    assert {d["status"] for d in first["documents"]} >= {"new", "failed", "shadowed", "draft"}
    (src / "a.md").unlink()
    assert "removed" in {d["status"] for d in _summary(base, capsys)["documents"]}


def test_the_schema_names_every_reason_and_status() -> None:
    defs = load_schema("summary")["$defs"]
    assert set(defs["reason"]["enum"]) == set(REASONS)
    assert set(defs["status"]["enum"]) == set(Status.__args__)  # type: ignore[attr-defined]
