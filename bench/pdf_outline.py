"""Figures of chunk outputs of Markdown converted from PDF, second pass (bench/README.md, "Markdown converted from
PDF, second pass"): per output folder of ``chunker --out`` and per tree (its first-level folders)::

    python bench/pdf_outline.py /tmp/p19/out/main-rec /tmp/p19/out/branch-rec

- ``chunks``; ``ziffer``: chunks with a ``ziffer``; ``path``: headings in a chunk's ``header_path``, on average;
- ``outline_path``: chunks whose path holds a heading of an outline number that is not a dotted decimal (``A.1``,
  ``Anlage 2``, ``Teil 1``, ``A.``, ``1)``, ``a)``, ``(1)``);
- ``outline_plain_ziffer``: of those, chunks whose ``ziffer`` is a plain number of a heading above the nearest such
  heading of their path (an annex's chunk numbered by the chapter above it);
- ``noise_only``: chunks of only page numbers, image lines, ``Seite N von M`` or blank lines;
- ``orphan``: the report's orphan-heading warnings.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

_OUTLINE = re.compile(
    r"^(?:[A-Z](?:\.\d{1,3})+\b(?!\.[A-Z])|(?:Anlage|Anhang|Annex|Appendix|Teil|Part|Abschnitt|Kapitel|Chapter)\s+"
    r"[A-Z0-9IVX]+\b|[A-Z]\.\s|[IVX]+\.\s|\d{1,2}\)\s|[a-z]\)\s|\(\d{1,2}\)\s)",
    re.IGNORECASE,
)
_PLAIN = re.compile(r"^\d{1,3}(?:\.\d{1,3})*$")
_NOISE = re.compile(r"^\s*(?:\d{1,3}|<!-- image -->|!\[[^\]]*\]\([^)]*\)|Seite \d+( von \d+)?.*|Page \d+.*|)\s*$")


def _plain_above_outline(texts: list[str], ziffer: str | None) -> bool:
    """Whether ``ziffer`` is a plain number of a heading above the nearest outline-numbered heading of the path."""
    outline = [i for i, text in enumerate(texts) if _OUTLINE.match(text)]
    if not outline or not ziffer or not _PLAIN.match(ziffer):
        return False
    owners = [i for i, text in enumerate(texts) if text.startswith(ziffer)]
    return (max(owners) if owners else -1) < max(outline)


def figures(out: Path) -> dict[str, Any]:
    counts = dict.fromkeys(("chunks", "ziffer", "outline_path", "outline_plain_ziffer", "noise_only", "orphan"), 0)
    depth = 0
    for path in sorted(out.rglob("chunks.json")):
        for chunk in json.loads(path.read_text(encoding="utf-8")):
            texts = [h["text"] for h in chunk["header_path"]]
            counts["chunks"] += 1
            depth += len(texts)
            counts["ziffer"] += bool(chunk["ziffer"])
            counts["outline_path"] += any(_OUTLINE.match(text) for text in texts)
            counts["outline_plain_ziffer"] += _plain_above_outline(texts, chunk["ziffer"])
            counts["noise_only"] += all(_NOISE.match(line) for line in chunk["content_original"].split("\n"))
        report = json.loads((path.parent / "report.json").read_text(encoding="utf-8"))
        counts["orphan"] += sum(w["code"] == "orphan-heading" for w in report.get("warnings", []))
    return {**counts, "path": round(depth / max(counts["chunks"], 1), 2)}


def main() -> None:
    for out in map(Path, sys.argv[1:]):
        for tree in sorted(folder for folder in out.iterdir() if folder.is_dir()):
            found = figures(tree)
            print(f"{out.name:12} {tree.name:8} " + " ".join(f"{key} {value}" for key, value in found.items()))


if __name__ == "__main__":
    main()
