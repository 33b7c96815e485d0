"""Figures of chunk outputs of Markdown converted from PDF (the "Blind check: Markdown converted from PDF" of
bench/README.md): per output folder of ``chunker --out``, over every chunks.json under it (or under ``--under``)::

    python bench/pdf_converted.py /tmp/b18/out/main-default /tmp/b18/out/fix-rec --under awmf

- ``chunks``: chunks in all;
- ``toc``: chunks under a heading of a table of contents (``Inhalt``, ``Inhaltsverzeichnis``, ``Contents``);
- ``bib``: chunks under a bibliography heading (``Literatur``, ``Literaturverzeichnis``, ``References``);
- ``image``: chunks whose ``content_for_embedding`` holds a docling ``<!-- image -->`` line;
- ``pagenum``: chunks whose ``content_for_embedding`` holds a line of a page number alone, outside fences;
- ``path``: headings in a chunk's ``header_path``, on average;
- ``ziffer``: chunks with a ``ziffer``;
- ``orphan``, ``overflow``: the report's warnings of those codes.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

_TOC = re.compile(r"(?:\d+\s+)?(?:inhalt|inhaltsverzeichnis|contents|table of contents)\b", re.IGNORECASE)
_BIB = re.compile(r"(?:\d+\s+)?(?:literatur|literaturverzeichnis|references|bibliograph)", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"^\d{1,3}$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _page_number_line(text: str) -> bool:
    fenced = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _PAGE_NUMBER.match(line):
            return True
    return False


def figures(out: Path) -> dict[str, Any]:
    counts = dict.fromkeys(("chunks", "toc", "bib", "image", "pagenum", "ziffer", "orphan", "overflow"), 0)
    depth = 0
    for path in sorted(out.rglob("chunks.json")):
        for chunk in json.loads(path.read_text(encoding="utf-8")):
            texts = [h["text"] for h in chunk["header_path"]]
            counts["chunks"] += 1
            counts["toc"] += any(_TOC.match(t) for t in texts)
            counts["bib"] += any(_BIB.match(t) for t in texts)
            counts["image"] += "<!-- image -->" in chunk["content_for_embedding"]
            counts["pagenum"] += _page_number_line(chunk["content_for_embedding"])
            counts["ziffer"] += bool(chunk["ziffer"])
            depth += len(texts)
        report = json.loads((path.parent / "report.json").read_text(encoding="utf-8"))
        for warning in report.get("warnings", []):
            if warning["code"] == "orphan-heading":
                counts["orphan"] += 1
            elif warning["code"] == "overflow":
                counts["overflow"] += 1
    return {**counts, "path": round(depth / max(counts["chunks"], 1), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outs", nargs="+", type=Path, help="output folders of chunker --out")
    parser.add_argument("--under", default="", help="only the documents under this folder of each output")
    args = parser.parse_args()
    for out in args.outs:
        found = figures(out / args.under if args.under else out)
        print(f"{out!s:40} " + " ".join(f"{key} {value}" for key, value in found.items()))


if __name__ == "__main__":
    main()
