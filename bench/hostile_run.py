"""Run the variants of bench/hostile_variants.py against the CLI under ../shared/badinput's contract.

Each variant runs in a fresh folder (``sources/`` and this checkout's ``config.yaml``) as
``timeout -k 5 T prlimit --as=4GiB -- chunker --stem NAME`` (or the variant's own arguments), then:
no traceback, no hang, no death by signal, no internal error (exit 5); exit 0 (or 1, whose artifacts
are written too) => three valid JSON artifacts, every sentinel in the chunk texts, balanced fences,
unique chunk ids; nonzero => a message on stderr naming the file (and the line when the variant has
one), leftovers valid JSON; outputs at most 2 MB + 400 x the input (a chunk costs about 1.2 KB
of JSON, a section can be 7 bytes); nothing written outside
``chunks/``. A variant with a ``scale`` is also run at a tenth of its size: a run over 25 x as long
(after the start-up time) is flagged superlinear.

    .venv/bin/python bench/hostile_run.py                       # every variant, this checkout
    .venv/bin/python bench/hostile_run.py -k 'fm_|toml' -v      # a subset, with stderr of failures
    .venv/bin/python bench/hostile_run.py --repo /tmp/ref -o before.json   # another checkout
    .venv/bin/python bench/hostile_run.py --compare before.json after.json # the before -> after table
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_variants import V, Variant

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = ("chunks.json", "meta.json", "report.json")
TB = re.compile(r"Traceback \(most recent call last\)|Fatal Python error|Segmentation fault")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def fences_balanced(text: str) -> bool:
    open_ch, open_n = "", 0
    for ln in re.split(r"\r\n|\r|\n", text):
        s = re.sub(r"^(?:\s*>\s?)+", "", ln)
        m = FENCE.match(s) or FENCE.match(s.lstrip())
        if not m:
            continue
        run, rest = m.group(1), m.group(2)
        if not open_ch:
            if run[0] == "`" and "`" in rest:
                continue
            open_ch, open_n = run[0], len(run)
        elif run[0] == open_ch and len(run) >= open_n and not rest.strip():
            open_ch = ""
    return not open_ch


def line_named(err: str, spec: str) -> bool:
    return any(re.search(rf"(?i)(\bline[s]?\s*[:=#]?\s*{n}\b|:{n}(?::|\b)|\bL{n}\b)", err) for n in spec.split("|"))


def strings(obj: Any) -> list[str]:
    out, stack = [], [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def tree(root: Path) -> set[str]:
    out = set()
    for folder, dirs, files in os.walk(root):
        for n in dirs + files:
            out.add(os.path.relpath(os.path.join(folder, n), root))
    return out


def run_once(
    cmd: list[str], work: Path, args: list[str], timeout: int, mem_mb: int, env: str = ""
) -> tuple[int, float, str]:
    """``env``: ``K=V;K=V`` set for this run (a variant's ``extra["env"]``)."""
    full = ["timeout", "-k", "5", str(timeout), "prlimit", f"--as={mem_mb * 2**20}", "--", *cmd, *args]
    environ = {**os.environ, **dict(kv.split("=", 1) for kv in env.split(";") if kv)}
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            full, cwd=work, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout + 30, env=environ
        )
        rc, err = p.returncode, (p.stderr + p.stdout).decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = 137, ""
    return rc, time.monotonic() - t0, err


def prepare(v: Variant, root: Path, config: str, data: bytes | None) -> Path:
    work = root / "w1" / "w2" / "work"
    (work / "sources").mkdir(parents=True)
    (work / "config.yaml").write_text(_with_options(config, v.extra.get("options", "")), encoding="utf-8")
    if v.setup is not None:
        v.setup(work)
    elif data is not None:
        (work / "sources" / f"{v.name}{v.ext}").write_bytes(data)
    return work


def _with_options(config: str, options: str) -> str:
    """``config`` with the one-line options of a variant's ``extra["options"]`` (``key: value`` lines) in place
    of its lines for those keys."""
    if not options:
        return config
    keys = {line.split(":", 1)[0] + ":" for line in options.splitlines() if line.strip()}
    kept = [line for line in config.splitlines() if not any(line.startswith(key) for key in keys)]
    return "\n".join(kept) + "\n" + options.rstrip("\n") + "\n"


def _judge_exit(v: Variant, rc: int, secs: float, err: str) -> list[str]:
    """The exit code and stderr: no crash, the expected outcome, a message naming file and line."""
    fail: list[str] = []
    if rc < 0 or rc >= 128:
        fail.append(f"killed by a signal (exit {rc})")
    if TB.search(err):
        fail.append("traceback")
    if rc == 5:
        fail.append("internal error (exit 5)")
    if v.expect == "ok" and rc != 0:
        fail.append(f"expected exit 0, got {rc}")
    if v.expect == "error" and rc == 0:
        fail.append("expected an error, got exit 0")
    if rc != 0:
        hint = v.name if v.hint is None else v.hint
        if not err.strip():
            fail.append("nonzero exit without a message")
        elif hint and hint not in err:
            fail.append(f"message does not name '{hint[:30]}'")
        if v.line and rc != 1 and not line_named(err, v.line):
            fail.append(f"message does not name line {v.line}")
    return fail


def _load_artifacts(folder: Path, rc: int, fail: list[str]) -> tuple[dict[str, Any], int]:
    docs: dict[str, Any] = {}
    total = 0
    for name in ARTIFACTS:
        p = folder / name
        if not p.is_file():
            if rc in (0, 1):
                fail.append(f"{name} missing")
            continue
        total += p.stat().st_size
        if p.stat().st_size > 256 * 2**20:
            fail.append(f"{name} over 256 MB")
            continue
        try:
            docs[name] = json.loads(p.read_bytes())
        except ValueError as e:
            fail.append(f"{name} invalid JSON ({str(e)[:40]})")
    return docs, total


def _judge_chunks(v: Variant, docs: dict[str, Any], sentinels: bool, fail: list[str]) -> None:
    chunks = docs.get("chunks.json")
    if not isinstance(chunks, list):
        return
    ids = [c.get("chunk_id") for c in chunks]
    if len(ids) != len(set(ids)):
        fail.append("duplicate chunk ids")
    bad = [c.get("chunk_id") for c in chunks if not fences_balanced(c.get("content_original", ""))]
    if bad:
        fail.append(f"unbalanced fence in {len(bad)} chunk(s)")
    if sentinels:
        hay = "\n".join(strings(chunks))
        report = json.dumps(docs.get("report.json", {}))
        lost = [s for s in v.sentinels if s not in hay]
        if lost and not re.search(r"content.loss|lost|dropped", report, re.I):
            fail.append(f"content lost: {','.join(lost)[:60]}")


def judge(v: Variant, rc: int, secs: float, err: str, work: Path, in_bytes: int, new: set[str]) -> list[str]:
    if rc in (124, 137):
        return [f"timeout ({secs:.0f}s)"]
    fail = _judge_exit(v, rc, secs, err)
    chunks_dir = work / "chunks"
    folders = (
        [chunks_dir / v.name] if v.setup is None else [Path(d) for d, _, f in os.walk(chunks_dir) if "chunks.json" in f]
    )
    total = 0
    for folder in folders:
        docs, size = _load_artifacts(folder, rc, fail)
        total += size
        if rc in (0, 1):
            _judge_chunks(v, docs, v.setup is None or len(folders) == 1, fail)
    if total > 2 * 2**20 + 400 * in_bytes:
        fail.append(f"outputs {total} bytes for {in_bytes} bytes in")
    args = v.args if v.args is not None else ["--stem", v.name]
    outside = sorted(p for p in new if not p.startswith(os.path.join("w1", "w2", "work")))
    if outside and "--out" not in args and "--sources" not in args:
        fail.append(f"wrote outside the work folder: {outside[0]}")
    return fail


def _bytes_below(folder: Path) -> int:
    """The size of the files a variant's ``setup`` wrote into ``sources/`` (its input)."""
    total = 0
    for d, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(d, name)).st_size
    return total


def run_variant(v: Variant, cmd: list[str], config: str, mem_mb: int, startup: float) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix=f"hv-{v.name[:20]}-"))
    try:
        data = v.data() if v.data is not None else None
        work = prepare(v, root, config, data)
        before = tree(root)
        args = v.args if v.args is not None else ["--stem", v.name]
        rc, secs, err = run_once(cmd, work, args, v.timeout, mem_mb, v.extra.get("env", ""))
        fail = judge(v, rc, secs, err, work, len(data or b"") or _bytes_below(work / "sources"), tree(root) - before)
        note = ""
        if v.scale is not None and not fail:
            small_root = root / "small"
            n = int(v.extra["n"])
            small = prepare(v, small_root, config, v.scale(max(1, n // 10)))
            _, s_secs, _ = run_once(cmd, small, ["--stem", v.name], v.timeout, mem_mb)
            ratio = max(secs - startup, 0.05) / max(s_secs - startup, 0.05)
            note = f"1x {s_secs:.1f}s 10x {secs:.1f}s ratio {ratio:.0f}"
            if ratio > 25 and secs > 3:
                fail.append(f"superlinear: {note}")
        first = next((ln for ln in err.strip().splitlines() if ln.strip()), "")
        return {
            "name": v.name,
            "kind": v.kind,
            "rc": rc,
            "secs": round(secs, 2),
            "fail": fail,
            "note": note,
            "stderr": err[-2000:],
            "first": first[:200],
        }
    finally:
        _unmount_below(root)
        for d, dirs, _ in os.walk(root):
            for x in dirs:
                with contextlib.suppress(OSError):
                    os.chmod(os.path.join(d, x), 0o755)
        shutil.rmtree(root, ignore_errors=True)


def _unmount_below(root: Path) -> None:
    """Unmount the file systems a variant's setup mounted below ``root`` (tmpfs: a full or read-only
    disk), deepest first, before the folder is removed."""
    try:
        mounts = Path("/proc/self/mounts").read_text(encoding="utf-8").splitlines()
    except OSError:
        return
    prefix = str(root.resolve()) + "/"
    points = [m.split()[1] for m in mounts if len(m.split()) > 1 and m.split()[1].startswith(prefix)]
    for point in sorted(points, key=len, reverse=True):
        subprocess.run(["umount", "-l", point], capture_output=True, check=False)


def compare(before_path: str, after_path: str) -> int:
    before = {r["name"]: r for r in json.loads(Path(before_path).read_text(encoding="utf-8"))}
    after = {r["name"]: r for r in json.loads(Path(after_path).read_text(encoding="utf-8"))}
    print("| variant | kind | before | after |\n|---|---|---|---|")
    for name, a in after.items():
        b = before.get(name)
        bs = "-" if b is None else ("pass" if not b["fail"] else "FAIL: " + "; ".join(b["fail"])[:70])
        as_ = "pass" if not a["fail"] else "FAIL: " + "; ".join(a["fail"])[:70]
        if bs != "pass" or as_ != "pass":
            print(f"| `{name}` | {a['kind']} | {bs} | {as_} |")
    for label, rs in (("before", before), ("after", after)):
        print(f"{label}: {sum(1 for r in rs.values() if not r['fail'])}/{len(rs)} pass")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("-k", default="", help="regex on variant names")
    ap.add_argument("--repo", type=Path, default=REPO, help="checkout to run (python -m chunker with it on PYTHONPATH)")
    ap.add_argument("--mem-mb", type=int, default=4096)
    ap.add_argument("-o", "--output", help="write the results as JSON")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    a = ap.parse_args()
    if a.compare:
        return compare(*a.compare)
    os.environ["PYTHONPATH"] = str(a.repo.resolve())
    cmd = [sys.executable, "-m", "chunker"]
    config = (a.repo / "config.yaml").read_text(encoding="utf-8")  # the checkout's own options
    probe = Path(tempfile.mkdtemp(prefix="hv-probe-"))
    (probe / "sources").mkdir()
    (probe / "sources" / "p.md").write_text("# P\n\nx\n")
    startup = min(run_once(cmd, probe, ["--stem", "p", "--force"], 30, a.mem_mb)[1] for _ in range(2))
    shutil.rmtree(probe)
    results = []
    for v in V:
        if a.k and not re.search(a.k, v.name):
            continue
        r = run_variant(v, cmd, config, a.mem_mb, startup)
        results.append(r)
        mark = "pass" if not r["fail"] else "FAIL"
        print(
            f"{v.name[:44]:44} {v.kind:11} {r['rc']:>4} {r['secs']:6.1f} {mark} "
            f"{'; '.join(r['fail'])[:100]} {r['note']}",
            flush=True,
        )
        if a.verbose and r["fail"]:
            print("    " + r["stderr"][-600:].replace("\n", "\n    "))
    print(f"{sum(1 for r in results if not r['fail'])} passed, {sum(1 for r in results if r['fail'])} failed")
    if a.output:
        Path(a.output).write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
