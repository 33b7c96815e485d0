"""The published JSON Schemas (chunker/schemas/) hold for real artifacts, and only for them.

Artifacts come from running the command on the golden documents, the fixtures and a sample of the
shared corpus under several configurations; every chunks.json, meta.json, report.json and export
record is validated. Every object in the schemas is closed, so a field the writers add without
declaring it in the schema fails here.
"""

from __future__ import annotations

import functools
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from chunker.cli import run_cli
from chunker.schemas import SCHEMA_NAMES, load_schema

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"

CONFIGS: dict[str, str] = {
    "defaults": "",
    "small-budgets": "max_chars: 200\ntarget_chars: 150\nmin_chars: 20\n",
    "auto-blockquote-overlap": "section_level: auto\ncontext_prefix: blockquote\noverlap_sentences: 1\n",
    "faq": "strategy: faq\n",
    "pages": "strategy: pages\n",
    "recursive-tokens": "strategy: recursive\nsize_unit: tokens\nmax_chars: 120\ntarget_chars: 80\nmin_chars: 10\n",
    "skips-heading-prefix": (
        "skip_pre_heading: true\ncontext_prefix: heading\nexcluded_section_headings: [Code]\n"
        "merge_short: false\nsplit_oversize: false\nmax_chars: 300\ntarget_chars: 200\nmin_chars: 10\n"
    ),
}


def _sources() -> list[Path]:
    files = sorted((TESTS / "golden").glob("*.md"))
    files += [TESTS / "fixtures" / "general_info.md", TESTS / "fixtures" / "kitchen_sink.md"]
    files += sorted((TESTS / "fixtures" / "txt").glob("*.txt"))
    files.append(ROOT / "sources" / "chunker-guide.md")
    if SHARED_CORPUS.is_dir():  # the two smallest documents of every corpus folder, if under 40 KB
        for folder in sorted(p for p in SHARED_CORPUS.iterdir() if p.is_dir()):
            docs = sorted((p for p in folder.rglob("*") if p.suffix in (".md", ".txt")), key=lambda p: p.stat().st_size)
            files += [p for p in docs[:2] if p.stat().st_size < 40_000]
    return files


def _stem(path: Path, index: int) -> str:
    safe = "".join(c if c.isalnum() or c in "._-" else "-" for c in path.stem)
    return f"d{index:03d}-{safe}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One run per configuration over the same documents; the chunks folder of each, exported as JSONL."""
    base = tmp_path_factory.mktemp("schema-runs")
    sources = base / "sources"
    sources.mkdir()
    for index, path in enumerate(_sources()):
        shutil.copyfile(path, sources / f"{_stem(path, index)}{path.suffix}")
    out: dict[str, Path] = {}
    for name, text in CONFIGS.items():
        config = base / f"{name}.yaml"
        config.write_text(text or "{}\n", encoding="utf-8")
        chunks = base / name
        code = run_cli(["--sources", str(sources), "--out", str(chunks), "--config", str(config), "--quiet"])
        assert code in (0, 1), f"{name}: exit {code}"
        export = ["export", "--format", "jsonl", "--chunks", str(chunks), "--out", str(chunks / "_export")]
        assert run_cli([*export, "--quiet"]) == 0
        out[name] = chunks
    return out


@functools.cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    schema = load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _errors(name: str, instance: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in _validator(name).iter_errors(instance)
    ]


def _artifacts(runs: dict[str, Path]) -> Iterator[tuple[str, str, Any]]:
    """(schema name, where, instance) of every artifact and export record of every run."""
    for config, chunks in runs.items():
        for folder in sorted(p for p in chunks.iterdir() if p.is_dir() and not p.name.startswith("_")):
            for name in ("chunks", "meta", "report"):
                path = folder / f"{name}.json"
                yield name, f"{config}/{folder.name}/{path.name}", json.loads(path.read_bytes())
        for path in sorted((chunks / "_export").glob("*.jsonl")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                yield "export", f"{config}/_export/{path.name}:{number}", json.loads(line)


def test_every_shipped_schema_is_a_valid_draft_2020_12_schema() -> None:
    for name in SCHEMA_NAMES:
        schema = load_schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        _validator(name)  # check_schema raises on an invalid schema


def test_every_artifact_of_every_configuration_is_valid_against_its_schema(runs: dict[str, Path]) -> None:
    counts = dict.fromkeys(SCHEMA_NAMES, 0)
    problems: dict[str, list[str]] = {}  # message -> where
    for name, where, instance in _artifacts(runs):
        counts[name] += 1
        for message in _errors(name, instance):
            problems.setdefault(f"{name}: {message.split(': ', 1)[-1]}", []).append(where)
    assert not problems, (
        "artifacts that do not match chunker/schemas/ (a new field needs its declaration in the schema):\n"
        + "\n".join(f"{m} (in {len(w)} artifacts, e.g. {w[0]})" for m, w in list(problems.items())[:40])
    )
    documents = len(list(next(iter(runs.values())).glob("*/meta.json")))
    assert documents >= 11
    assert counts["chunks"] == counts["meta"] == counts["report"] == documents * len(CONFIGS)
    assert counts["export"] > counts["chunks"]


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def test_the_runs_exercise_the_optional_parts_of_the_schemas(runs: dict[str, Path]) -> None:
    """The validation above means something only if the artifacts hold what the schemas allow."""
    seen: dict[str, set[str]] = {"severity": set(), "decision": set(), "content_type": set(), "position": set()}
    parts = False
    for name, _, instance in _artifacts(runs):
        if name == "report":
            seen["decision"] |= set(instance["decisions"])
            for key in ("errors", "warnings", "info"):
                seen["severity"] |= {d["severity"] for d in instance[key]}
        if name == "chunks":
            for chunk in instance:
                seen["content_type"].add(chunk["content_type"])
                seen["position"] |= {a["position"] for a in chunk["added_lines"]}
                parts = parts or chunk["parts"] is not None
    assert seen["severity"] == {"error", "warning", "info"}
    assert seen["decision"] >= {"section_level", "faq", "pages", "txt_headings"}
    assert seen["content_type"] >= {"section_fragment", "atomic_block"}
    assert seen["position"] == {"before", "after"}
    assert parts


def _first(runs: dict[str, Path], name: str) -> Any:
    return next(instance for kind, _, instance in _artifacts(runs) if kind == name)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("chunks", (0,)),
        ("chunks", (0, "flags")),
        ("chunks", (0, "neighbors")),
        ("meta", ()),
        ("meta", ("config",)),
        ("report", ()),
        ("report", ("metrics",)),
        ("report", ("artifacts",)),
        ("export", ()),
        ("export", ("metadata",)),
    ],
)
def test_a_field_added_without_its_schema_declaration_fails_validation(
    runs: dict[str, Path], name: str, path: tuple[Any, ...]
) -> None:
    instance = _first(runs, name)
    assert not _errors(name, instance)
    target = instance
    for step in path:
        target = target[step]
    target["undeclared_field"] = "0" * 64
    assert any("undeclared_field" in message for message in _errors(name, instance))


@pytest.mark.parametrize("name", ["chunks", "meta", "report", "export"])
def test_a_field_the_schema_requires_cannot_go_missing(runs: dict[str, Path], name: str) -> None:
    instance = _first(runs, name)
    target = instance[0] if name == "chunks" else instance
    removed = next(iter(target))
    del target[removed]
    assert any(removed in message for message in _errors(name, instance))


def test_export_metadata_declares_every_chunk_field_but_the_embedding_text() -> None:
    chunk = load_schema("chunks")["$defs"]["chunk"]["properties"]
    metadata = load_schema("export")["properties"]["metadata"]["properties"]
    assert set(metadata) == (set(chunk) - {"content_for_embedding"}) | {"stem", "parent", "parent_hash", "document"}


def test_chunker_schema_prints_each_schema_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    for name in SCHEMA_NAMES:
        capsys.readouterr()
        assert run_cli(["schema", name]) == 0
        assert json.loads(capsys.readouterr().out) == load_schema(name)


def test_chunker_schema_without_a_name_lists_them_and_an_unknown_one_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_cli(["schema"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(SCHEMA_NAMES)
    assert run_cli(["schema", "chunk"]) == 2
    assert "the schema must be one of chunks, meta, report, export, summary, got 'chunk'" in capsys.readouterr().err
