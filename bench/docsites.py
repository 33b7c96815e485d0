"""Page counts of a documentation-site tree: found, chunked, left out by reason; frontmatter and titles.

    .venv/bin/python bench/docsites.py SOURCES_DIR [--config FILE] [--json]

Runs ``chunker --force --json`` over ``SOURCES_DIR`` (a copy of one or more docs sites with their
folder layout) into a temporary output folder and prints:

- every file of the tree: how many, how many have a source extension (.md, .markdown, .mdx, .txt),
  how many were chunked, failed, or left out, by reason (from the run's ``left_out``);
- that every file is accounted for (chunked + failed + left out = found; a left-out folder counts the
  files below it);
- frontmatter: pages whose first line opens a YAML, TOML or JSON block, how many have it in
  ``document_metadata``, and how many chunks overlap a frontmatter range (must be 0);
- titles: chunks whose ``content_for_embedding`` does not contain the document's title (the
  frontmatter ``title``, else the first H1, else the file name; must be 0).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

EXTENSIONS = (".md", ".markdown", ".mdx", ".txt")


def all_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        out.extend(Path(folder, name) for name in sorted(files))
    return out


def run_chunker(sources: Path, out: Path, config: Path | None) -> dict[str, Any]:
    args = [sys.executable, "-m", "chunker", "--force", "--json", "--sources", str(sources), "--out", str(out)]
    if config is not None:
        args += ["--config", str(config)]
    done = subprocess.run(args, capture_output=True, text=True, check=False, cwd=sources.parent)
    if done.returncode not in (0, 1, 2, 3):
        sys.exit(f"chunker exited {done.returncode}: {done.stderr[-2000:]}")
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


def opens_frontmatter(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    first = text.split("\n", 1)[0].rstrip()
    if first.startswith("---") and set(first) == {"-"}:
        return "yaml"
    first = text.lstrip("\n").split("\n", 1)[0].rstrip()  # TOML and JSON may follow blank lines
    if first == "+++":
        return "toml"
    if first == "{" or first.startswith('{ "') or first.startswith('{"'):
        return "json"
    return None


def title_of(meta: dict[str, Any], chunks: list[dict[str, Any]], doc_id: str) -> str:
    from chunker.inline import heading_text

    for key, value in (meta.get("document_metadata") or {}).items():
        if key.casefold() == "title" and isinstance(value, str) and heading_text(" ".join(value.split())):
            return heading_text(" ".join(value.split()))
    for chunk in chunks:
        for heading in chunk["header_path"]:
            if heading["level"] == 1 and heading["text"].strip():
                return str(heading["text"])
    return doc_id.rsplit("/", 1)[-1]


def measure(sources: Path, config: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "chunks"
        summary = run_chunker(sources.resolve(), out, config)
        files = all_files(sources)
        status = Counter(d["status"] for d in summary["documents"])
        chunked = [d for d in summary["documents"] if d["status"] in ("new", "changed", "unchanged")]
        left: Counter[str] = Counter()
        for item in summary["left_out"]:
            path = sources.parent / item["path"]
            left[item["reason"]] += len(all_files(path)) if item.get("folder") else 1
        failed = sum(1 for d in summary["documents"] if d["status"] == "failed")
        fm_pages: Counter[str] = Counter()
        fm_read = fm_leaks = chunks_total = untitled = 0
        untitled_examples: list[str] = []
        by_source = {d["source"]: d for d in chunked}
        for file in files:
            kind = opens_frontmatter(file) if file.suffix.lower() in EXTENSIONS else None
            doc = by_source.get(os.path.relpath(file, sources.parent))
            if kind is None or doc is None:
                continue
            fm_pages[kind] += 1
            meta = json.loads((out / doc["stem"] / "meta.json").read_bytes())
            fm_read += bool(meta["document_metadata"])
        for doc in chunked:
            folder = out / doc["stem"]
            chunks = json.loads((folder / "chunks.json").read_bytes())
            meta = json.loads((folder / "meta.json").read_bytes())
            report = json.loads((folder / "report.json").read_bytes())
            ranges = [(s["start_offset"], s["end_offset"]) for s in report["skipped"] if s["reason"] == "frontmatter"]
            title = title_of(meta, chunks, doc["stem"])
            for chunk in chunks:
                chunks_total += 1
                if any(chunk["start_offset"] < end and chunk["end_offset"] > start for start, end in ranges):
                    fm_leaks += 1
                if title not in chunk["content_for_embedding"]:
                    untitled += 1
                    if len(untitled_examples) < 5:
                        untitled_examples.append(f"{doc['stem']}: {title!r}")
        return {
            "files": len(files),
            "source_files": sum(1 for f in files if f.suffix.lower() in EXTENSIONS),
            "extensions": dict(Counter(f.suffix.lower() for f in files if f.suffix.lower() in EXTENSIONS)),
            "chunked": len(chunked),
            "failed": failed,
            "statuses": dict(status),
            "left_out_by_reason": dict(sorted(left.items())),
            "accounted": len(chunked) + failed + sum(left.values()) - left.get("shadowed", 0) == len(files),
            "chunks": chunks_total,
            "frontmatter_pages": dict(fm_pages),
            "frontmatter_read": fm_read,
            "chunks_overlapping_frontmatter": fm_leaks,
            "chunks_without_title": untitled,
            "chunks_without_title_examples": untitled_examples,
            "exit_code": summary["exit_code"],
            "failures": [d["message"] for d in summary["documents"] if d["status"] == "failed"][:10],
            "errors": sorted({e["code"] for d in summary["documents"] for e in d.get("errors", [])}),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", type=Path)
    parser.add_argument("--config", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.sources, args.config)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    for key, value in result.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
