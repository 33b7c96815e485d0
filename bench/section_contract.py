"""Check the section contract on every chunk of a folder of Markdown documents.

    python bench/section_contract.py DIR [--config config.yaml] [--overlap N] [--note TEXT ...]

For each document (chunked in memory with the config's options for its id, strategy ``headings``):

- ``section``: the text of the deepest heading of level <= section_level in the chunk's heading path
  (the heading it came from), or, for text before the first such heading, the document's title;
- no chunk holds a heading line of level <= section_level after text of its own (merging never
  crosses a section; a parent heading with no body leads the chunk of its first child);
- the overlap a chunk repeats (``--overlap N`` sets ``overlap_sentences``) comes from the chunk
  before it, of the same section;
- every chunk names its section in ``content_for_embedding`` (its heading line or the context line);
- no chunk overlaps the frontmatter or another skipped range, and none holds a ``--note`` string
  (default: HTML comments, ``[//]: #`` lines, "Примечание редактора").

Prints one line per violation and the totals; exits 1 if there is one.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.settings import load_settings

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$", re.MULTILINE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_CODE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?(?:^ {0,3}\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
_MARKUP = re.compile(r"[`*_]")
NOTES = ("<!--", "[//]: #", "Примечание редактора")


def heading_lines(text: str) -> list[tuple[int, int]]:
    """(offset, level) of ATX heading lines outside fenced code (a rough reader, enough here)."""
    found: list[tuple[int, int]] = []
    fence = ""
    for line_match in re.finditer(r"^.*$", text, re.MULTILINE):
        line = line_match.group(0)
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            continue
        if opening:
            fence = opening.group(1)
            continue
        heading = _ATX.match(line)
        if heading:
            found.append((line_match.start(), len(heading.group(1))))
    return found


def check(result: ChunkingResult, cfg: ChunkerConfig, title: str, notes: tuple[str, ...]) -> list[str]:
    level = int(cfg.section_level)
    bad: list[str] = []
    skipped = result.diagnostics.skipped
    chunks = result.chunks
    for k, chunk in enumerate(chunks):
        where = f"{result.stem}/{chunk.chunk_id} (line {chunk.start_line})"
        sections = [h for h in chunk.header_path if h.level <= level]
        expected = sections[-1].text if sections else title
        if chunk.section != expected:
            bad.append(f"{where}: section {chunk.section!r}, heading path says {expected!r}")
        body = "" if "```" in chunk.content_original or "~~~" in chunk.content_original else chunk.content_original
        for offset, depth in heading_lines(body):
            before = [  # headings and filler markup (a comment, an anchor tag) may lead
                ln for ln in body[:offset].split("\n") if ln.strip() and not _ATX.match(ln) and ln.lstrip()[:1] != "<"
            ]
            if depth <= level and before:  # a parent heading with no body may lead the chunk
                bad.append(f"{where}: holds a level-{depth} heading after its start (crosses a section)")
        if chunk.section and _MARKUP.sub("", chunk.section) not in _MARKUP.sub("", chunk.content_for_embedding):
            bad.append(f"{where}: content_for_embedding does not name its section {chunk.section!r}")
        for s in skipped:
            if s.start_offset < chunk.end_offset and chunk.start_offset < s.end_offset:
                bad.append(f"{where}: overlaps the skipped range of lines {s.start_line}-{s.end_line} ({s.reason})")
        prose = _CODE.sub("", chunk.content_for_embedding)  # a comment in an example is code
        for note in notes:
            if note in prose:
                bad.append(f"{where}: holds the note marker {note!r}")
        if cfg.overlap_sentences:
            extra = chunk.content_for_embedding.replace(chunk.content_original, "\x00", 1).split("\x00")[0]
            parts = [p for p in extra.split("\n\n") if p.strip()]
            if len(parts) > 1:  # context line, then the overlap
                overlap = "\n\n".join(parts[1:]).strip()
                previous = chunks[k - 1] if k else None
                if previous is None or overlap not in previous.content_original:
                    bad.append(f"{where}: overlap not taken from the chunk before")
                elif previous.section != chunk.section or [h for h in previous.header_path if h.level <= level] != (
                    sections
                ):
                    bad.append(f"{where}: overlap taken across a section boundary")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--config", type=Path, default=None)
    parser.add_argument("--overlap", type=int, default=0)
    parser.add_argument("--note", action="append", default=None, help="a string no chunk may hold (repeatable)")
    args = parser.parse_args()
    settings = load_settings(args.config) if args.config else None
    notes = tuple(args.note) if args.note is not None else NOTES
    files = sorted(p for p in args.folder.rglob("*") if p.suffix in (".md", ".markdown") and p.is_file())
    total_chunks = 0
    violations: list[str] = []
    for path in files:
        doc_id = path.relative_to(args.folder).with_suffix("").as_posix()
        cfg = settings.for_stem(doc_id) if settings is not None else ChunkerConfig()
        if args.overlap:
            cfg = ChunkerConfig.from_mapping({**cfg.to_dict(), "overlap_sentences": args.overlap})
        if cfg.strategy != "headings" or cfg.section_level == "auto":
            continue
        result = chunk_markdown(path.read_text(encoding="utf-8"), cfg, doc_id, str(path))
        from chunker.pipeline import document_title

        title = document_title(dict(result.document_metadata), doc_id)
        found = check(result, cfg, title, notes)
        total_chunks += len(result.chunks)
        violations.extend(found)
    for line in violations[:200]:
        print(line)
    kinds = Counter(re.sub(r"'.*'|\d+", "N", v.split(": ", 1)[1]) for v in violations)
    for kind, count in kinds.most_common():
        print(f"{count:6d}  {kind}")
    print(f"{len(files)} documents, {total_chunks} chunks, {len(violations)} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
