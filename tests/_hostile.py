"""Shared harness of the hostile-input tests: the contract of ../shared/badinput/README.md.

Each case runs the real command (``run_cli``) in a fresh work folder holding
``sources/<stem>.md`` and a ``config.yaml``, then the outcome is judged the way
``../shared/badinput/run.sh`` judges it: exit code, a message on stderr naming the
file (and the line), valid JSON artifacts, sentinels kept, fences balanced,
unique ids, nothing written outside ``chunks/<stem>/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
BADINPUT = SHARED / "badinput"
REPO = Path(__file__).resolve().parents[1]
CONFIG = "min_chars: 200\ntarget_chars: 800\nmax_chars: 1500\n"
"""The config run.sh writes when the checkout has none."""
ARTIFACTS = ("chunks.json", "meta.json", "report.json")
EXIT_INTERNAL = 5
EXIT_VALIDATION = 1

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_QUOTES = re.compile(r"^(?:\s*>\s?)+")


def badinput_dir() -> Path:
    if not BADINPUT.is_dir():
        pytest.skip("../shared/badinput is not present")
    return BADINPUT


@dataclass(frozen=True)
class Case:
    """One row of cases.tsv."""

    case: str
    input: str
    expect: str
    checks: dict[str, str]

    @property
    def kind(self) -> str:
        return self.input.partition(":")[0]

    @property
    def value(self) -> str:
        return self.input.partition(":")[2]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "\\": "\\"}.get(m.group(1), m.group(0)), text)


def load_cases() -> list[Case]:
    """The rows of cases.tsv (empty when ../shared is absent: the tests then skip)."""
    path = BADINPUT / "cases.tsv"
    if not path.is_file():
        return []
    cases: list[Case] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, source, expect, checks = line.split("\t")[:4]
        parsed: dict[str, str] = {}
        if checks and checks != "-":
            for item in checks.split(";"):
                key, _, value = item.partition("=")
                parsed[key.strip()] = value
        cases.append(Case(name, _unescape(source), expect, parsed))
    return cases


def cases_matching(pattern: str) -> list[Any]:
    """pytest params of the cases whose name matches ``pattern`` (one placeholder that skips if none)."""
    shared = pytest.mark.shared
    found = [pytest.param(c, id=c.case, marks=shared) for c in load_cases() if re.search(pattern, c.case)]
    return found or [pytest.param(None, id="shared-absent", marks=shared)]


@dataclass
class Outcome:
    """What one run of the command did."""

    code: int
    stderr: str
    stdout: str
    work: Path
    stem: str
    new_paths: set[str] = field(default_factory=set)

    @property
    def folder(self) -> Path:
        return self.work / "chunks" / self.stem

    def artifact(self, name: str) -> Any:
        return json.loads((self.folder / name).read_text(encoding="utf-8"))

    def chunks(self) -> list[dict[str, Any]]:
        data = self.artifact("chunks.json")
        assert isinstance(data, list)
        return data

    def chunk_text(self) -> str:
        return "\n".join(c["content_original"] for c in self.chunks())

    def report(self) -> dict[str, Any]:
        data = self.artifact("report.json")
        assert isinstance(data, dict)
        return data


def make_work(tmp_path: Path, config: str = CONFIG) -> Path:
    work = tmp_path / "w1" / "w2" / "work"
    (work / "sources").mkdir(parents=True)
    (work / "config.yaml").write_text(config, encoding="utf-8")
    return work


def tree(root: Path) -> set[str]:
    out: set[str] = set()
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            out.add(os.path.relpath(os.path.join(folder, name), root))
    return out


def run_in(
    work: Path,
    stem: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    extra: Sequence[str] = (),
) -> Outcome:
    """Run ``chunker --stem STEM`` in-process with ``work`` as the working directory."""
    from chunker.cli import run_cli

    top = work.parents[2]
    before = tree(top)
    monkeypatch.chdir(work)
    capsys.readouterr()
    code = run_cli(["--stem", stem, *extra])
    captured = capsys.readouterr()
    return Outcome(code, captured.err, captured.out, work, stem, tree(top) - before)


def run_source(
    tmp_path: Path,
    data: bytes,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stem: str = "doc",
    config: str = CONFIG,
) -> Outcome:
    work = make_work(tmp_path, config)
    (work / "sources" / f"{stem}.md").write_bytes(data)
    return run_in(work, stem, capsys, monkeypatch)


def run_subprocess(work: Path, args: Sequence[str], timeout: float = 600, env: dict[str, str] | None = None) -> Outcome:
    """The console entry point in a child process (``timeout`` only guards against a hang)."""
    stem = args[args.index("--stem") + 1] if "--stem" in args else ""
    proc = subprocess.run(
        [sys.executable, "-m", "chunker", *args],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )
    return Outcome(proc.returncode, proc.stderr, proc.stdout, work, stem)


def fences_balanced(text: str) -> bool:
    """The suite's own fence check (independent of chunker.fences): every opened fence is closed."""
    open_char, open_len = "", 0
    for line in re.split(r"\r\n|\r|\n", text):
        match = _FENCE.match(_QUOTES.sub("", line)) or _FENCE.match(_QUOTES.sub("", line).lstrip())
        if match is None:
            continue
        run, rest = match.group(1), match.group(2)
        if not open_char:
            if run[0] == "`" and "`" in rest:
                continue
            open_char, open_len = run[0], len(run)
        elif run[0] == open_char and len(run) >= open_len and not rest.strip():
            open_char = ""
    return not open_char


def line_named(stderr: str, lines: str) -> bool:
    return any(re.search(rf"(?i)(\bline[s]?\s*[:=#]?\s*{n}\b|:{n}(?::|\b)|\bL{n}\b)", stderr) for n in lines.split("|"))


def strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def assert_contract(
    out: Outcome,
    expect: str = "any",
    sentinels: Sequence[str] = (),
    *,
    line: str | None = None,
    warn: str | None = None,
    orwarn: str | None = None,
) -> None:
    """The contract of badinput/README.md for one run."""
    assert out.code != EXIT_INTERNAL, out.stderr
    assert "Traceback (most recent call last)" not in out.stderr + out.stdout
    outside = {p for p in out.new_paths if not _inside_output(p, out.stem)}
    assert not outside, f"written outside chunks/{out.stem}/: {sorted(outside)}"
    if expect == "ok":
        assert out.code == 0, out.stderr
    elif expect == "error":
        assert out.code != 0
    if out.code != 0:
        assert out.stderr.strip(), "a nonzero exit needs a message on stderr"
        if out.stem:
            assert out.stem in out.stderr, out.stderr
        if line is not None:
            assert line_named(out.stderr, line), f"stderr does not name line {line}: {out.stderr}"
        for name in ARTIFACTS:  # whatever was left behind is still valid JSON
            if (out.folder / name).is_file():
                out.artifact(name)
        if out.code != EXIT_VALIDATION:
            return
        # exit 1 (a policy): the artifacts are written all the same and must hold everything
    for name in ARTIFACTS:
        out.artifact(name)
    chunks = out.chunks()
    ids = [c["chunk_id"] for c in chunks]
    assert len(ids) == len(set(ids)), "chunk ids are not unique"
    for chunk in chunks:
        assert fences_balanced(chunk["content_original"]), chunk["chunk_id"]
        assert fences_balanced(chunk["content_for_embedding"]), chunk["chunk_id"]
    text = "\n".join(strings(chunks))
    report = (out.folder / "report.json").read_text(encoding="utf-8")
    for token in sentinels:
        if token not in text:
            assert orwarn is not None and re.search(orwarn, report, re.I), f"content lost: {token}"
    if warn is not None:
        assert re.search(warn, report, re.I), f"report.json has no warning matching /{warn}/"


def _inside_output(rel: str, stem: str) -> bool:
    parts = Path(rel).parts
    # w1/w2/work/chunks[/<stem>[/...]], chunks/.lock (the lock a run holds on its output folder) and
    # chunks/.chunker-cache.json (the stats of the files a run hashed, chunker/stat_cache.py)
    own = (stem, ".lock", ".chunker-cache.json")
    return parts[:3] == ("w1", "w2", "work") and (
        len(parts) == 3 or (parts[3:4] == ("chunks",) and (len(parts) == 4 or parts[4] in own))
    )


def run_case(
    case: Case | None, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Outcome:
    """Run a file: or gen: case of cases.tsv and judge it by its own checks."""
    if case is None:
        pytest.skip("../shared/badinput is not present")
    work = make_work(tmp_path)
    if case.kind == "file":
        shutil.copyfile(badinput_dir() / case.value, work / "sources" / f"{case.case}.md")
    else:
        raise AssertionError(f"run_case handles file: cases, not {case.input}")
    out = run_in(work, case.case, capsys, monkeypatch)
    judge(case, out)
    return out


def judge(case: Case, out: Outcome) -> None:
    checks = case.checks
    sentinels = [t for t in checks.get("sentinel", "").split("|") if t]
    assert_contract(
        out,
        case.expect,
        sentinels,
        line=checks.get("line"),
        warn=checks.get("warn") if out.code == 0 else None,
        orwarn=checks.get("orwarn"),
    )
    if out.code == 0:
        chunk_strings = "\n".join(strings(out.chunks()))
        meta_strings = "\n".join(strings(out.artifact("meta.json")))
        for token in filter(None, checks.get("keep", "").split("|")):
            assert token in chunk_strings or token in meta_strings, f"content lost: {token}"
        if checks.get("meta"):
            assert checks["meta"] in meta_strings, f"meta.json lacks {checks['meta']}"
    if checks.get("absent"):
        for name in ARTIFACTS:
            path = out.folder / name
            if path.is_file():
                assert checks["absent"] not in "\n".join(strings(out.artifact(name))), name
    if checks.get("maxout"):
        total = sum((out.folder / n).stat().st_size for n in ARTIFACTS if (out.folder / n).is_file())
        assert total <= int(checks["maxout"])
    if checks.get("canary"):
        assert not (out.work / checks["canary"]).exists()
        assert not (Path.cwd() / checks["canary"]).exists()
    if checks.get("msg") and out.code != 0:
        assert re.search(checks["msg"], out.stderr, re.I)
