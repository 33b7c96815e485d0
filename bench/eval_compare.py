"""Retrieval of our default chunks vs two common baselines, on hand-written cases.

    .venv/bin/python bench/eval_compare.py [--cases bench/eval_cases.jsonl] [--corpus ../shared/corpus]
                                           [--out bench/EVAL.md] [--check]

Methods, all scored by the same BM25 retriever (``chunker.evaluate``) over all chunks of
all case documents together:

- ``chunker``: ``chunk_markdown(text, ChunkerConfig(), stem, path)``, the default config;
- ``fixed-1000``: the text cut every 1,000 characters, no overlap;
- ``langchain``: ``MarkdownHeaderTextSplitter`` on ``#``/``##``/``###`` then
  ``RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0)``.

A baseline chunk's ``section`` is the H1/H2 heading in force where the chunk starts: found
from its source offset for ``fixed-1000``, from the ``Header 2`` (else ``Header 1``) metadata
for ``langchain``. Heading text is made plain with the chunker's own ``heading_text`` so that
every method is judged against the same labels. ``--check`` verifies the case file instead:
unique stems, expected sections that exist, expected text inside the expected section.

Needs the ``bench`` extra (``langchain-text-splitters``); PyStemmer changes the BM25 figures,
and the tokenizer used is written into the report.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from chunker.config import ChunkerConfig
from chunker.evaluate import Case, CaseResult, EvalReport, evaluate, load_cases, stemmer_name, summarize
from chunker.inline import heading_text
from chunker.parser import parse
from chunker.pipeline import chunk_markdown, normalise_newlines
from chunker.segmenter import segment

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus"
SIZE = 1000
K = 5
LANGUAGES = ("ru", "de", "it", "en")

Chunk = dict[str, Any]
Splitter = Callable[[str, str, str], list[Chunk]]


# -- sections ------------------------------------------------------------------


def section_headings(text: str) -> list[tuple[int, str]]:
    """(start offset, plain text) of every H1 and H2, as the chunker's parser sees them."""
    cfg = ChunkerConfig()
    blocks = segment(parse(text, cfg), cfg)
    return [
        (b.start_offset, b.header_path[-1].text)
        for b in blocks
        if b.kind == "heading" and 1 <= b.heading_level <= 2 and b.header_path
    ]


def section_at(headings: Sequence[tuple[int, str]], offset: int) -> str:
    section = ""
    for start, title in headings:
        if start > offset:
            break
        section = title
    return section


def section_spans(text: str) -> dict[str, list[str]]:
    """Section name -> source text of each of its spans (heading to next H1/H2)."""
    headings = section_headings(text)
    spans: dict[str, list[str]] = {}
    for i, (start, title) in enumerate(headings):
        end = headings[i + 1][0] if i + 1 < len(headings) else len(text)
        spans.setdefault(title, []).append(text[start:end])
    return spans


# -- methods ---------------------------------------------------------------------


def ours(text: str, stem: str, path: str) -> list[Chunk]:
    return [c.to_dict() for c in chunk_markdown(text, ChunkerConfig(), stem, path).chunks]


def fixed(text: str, stem: str, path: str) -> list[Chunk]:
    headings = section_headings(text)
    out: list[Chunk] = []
    for n, start in enumerate(range(0, len(text), SIZE)):
        piece = text[start : start + SIZE]
        out.append(_chunk(stem, n, piece, section_at(headings, start)))
    return out


def langchain(text: str, stem: str, path: str) -> list[Chunk]:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    headers = MarkdownHeaderTextSplitter(
        headers_to_split_on=[("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
    ).split_text(text)
    pieces = RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=0).split_documents(headers)
    out: list[Chunk] = []
    for n, doc in enumerate(pieces):
        md = doc.metadata
        raw = md.get("Header 2") or md.get("Header 1") or ""
        out.append(_chunk(stem, n, doc.page_content, heading_text(str(raw))))
    return out


def _chunk(stem: str, n: int, content: str, section: str) -> Chunk:
    return {
        "chunk_id": f"{stem}#{n}",
        "content_original": content,
        "content_for_embedding": content,
        "section": section,
        "chars": len(content),
    }


METHODS: Mapping[str, Splitter] = {"chunker": ours, "fixed-1000": fixed, "langchain": langchain}
METHOD_LABELS = {
    "chunker": "chunker, default config",
    "fixed-1000": "fixed size, 1,000 chars",
    "langchain": "LangChain headers #/##/### + recursive 1,000",
}


# -- running -----------------------------------------------------------------------


def read_sources(cases: Sequence[Case], corpus: Path) -> dict[str, tuple[str, str]]:
    """stem -> (relative path, text); one path per stem."""
    sources: dict[str, tuple[str, str]] = {}
    for case in cases:
        if case.path is None:
            sys.exit(f"{case.id}: the bench needs a 'path' field (relative to the corpus root)")
        known = sources.get(case.doc)
        if known is not None:
            if known[0] != case.path:
                sys.exit(f"{case.id}: doc {case.doc!r} names {case.path}, earlier cases {known[0]}")
            continue
        text = normalise_newlines((corpus / case.path).read_text(encoding="utf-8-sig"))
        sources[case.doc] = (case.path, text)
    return sources


def language(case: Case) -> str:
    return (case.path or case.id)[:2]


def by_language(results: Sequence[CaseResult]) -> dict[str, list[CaseResult]]:
    groups: dict[str, list[CaseResult]] = {lang: [] for lang in LANGUAGES}
    for r in results:
        groups.setdefault(language(r.case), []).append(r)
    return groups


def check(cases: Sequence[Case], corpus: Path, sources: Mapping[str, tuple[str, str]]) -> int:
    """Problems with the case file itself; returns the count."""
    names: dict[str, int] = {}
    for p in corpus.rglob("*.md"):
        names[p.stem] = names.get(p.stem, 0) + 1
    problems = 0
    our_sections = {stem: {c["section"] for c in ours(text, stem, path)} for stem, (path, text) in sources.items()}
    for case in cases:
        path, text = sources[case.doc]
        file_stem = Path(path).stem
        expected_stem = Path(path).parent.name if file_stem == "index" else file_stem
        issues = []
        if case.doc != expected_stem:
            issues.append(f"doc {case.doc!r} is not the stem of {path}")
        elif file_stem != "index" and names.get(file_stem, 0) != 1:
            issues.append(f"stem {file_stem!r} is not unique in the corpus ({names.get(file_stem, 0)} files)")
        spans = section_spans(text).get(case.expected_doc_section)
        if spans is None:
            issues.append(f"no H1/H2 section {case.expected_doc_section!r}")
        elif not any(case.expected_text_contains.casefold() in s.casefold() for s in spans):
            issues.append(f"{case.expected_text_contains!r} is not in section {case.expected_doc_section!r}")
        if case.expected_doc_section not in our_sections[case.doc]:
            issues.append(f"no chunker chunk has section {case.expected_doc_section!r}")
        for issue in issues:
            print(f"{case.id}: {issue}")
        problems += len(issues)
    print(f"{len(cases)} cases, {problems} problem(s)")
    return problems


def run(cases: Sequence[Case], sources: Mapping[str, tuple[str, str]]) -> dict[str, tuple[EvalReport, float]]:
    reports: dict[str, tuple[EvalReport, float]] = {}
    for name, splitter in METHODS.items():
        started = time.perf_counter()
        chunks = {stem: splitter(text, stem, path) for stem, (path, text) in sorted(sources.items())}
        elapsed = time.perf_counter() - started
        reports[name] = (evaluate(cases, chunks, k=K), elapsed)
    return reports


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def render(reports: Mapping[str, tuple[EvalReport, float]], cases: Sequence[Case], command: str) -> str:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    langs = by_language(list(next(iter(reports.values()))[0].results))
    counts = ", ".join(f"{lang} {len(v)}" for lang, v in langs.items())
    lines = [
        "# Retrieval comparison: chunker vs fixed-size vs LangChain",
        "",
        f"- date: {now}",
        f"- machine: {platform.platform()}, {os.cpu_count()} CPU(s), Python {platform.python_version()}",
        f"- command: `{command}`",
        f"- cases: {len(cases)} hand-written ({counts}) in `bench/eval_cases.jsonl`, "
        f"over {len({c.doc for c in cases})} documents of `shared/corpus/`, all indexed together",
        f"- retriever: BM25 (bm25s {_version('bm25s')}, Lucene variant, k1=1.5, b=0.75) over "
        f"`content_for_embedding`; tokenizer stemming: {stemmer_name()}",
        f"- langchain-text-splitters {_version('langchain-text-splitters')}",
        "- section hit@k: a chunk of the case's document whose `section` is the expected H1/H2 heading "
        "is among the top k; baselines get the section in force at their first character",
        "",
        "## All cases",
        "",
        "| method | chunks | mean chars | section hit@1 | section hit@5 | text hit@5 | MRR@10 | chunking time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, (report, elapsed) in reports.items():
        t = report.totals
        lines.append(
            f"| {METHOD_LABELS[name]} | {report.chunk_count} | {report.mean_chars:.0f} | {t.section_hit_at_1:.3f} | "
            f"{t.section_hit_at_k:.3f} | {t.text_hit_at_k:.3f} | {t.mrr_at_10:.3f} | {elapsed:.2f} s |"
        )
    lines += [
        "",
        "## By language (section hit@5 / hit@1 / MRR@10)",
        "",
        "| method | " + " | ".join(f"{lang} ({len(langs[lang])})" for lang in langs) + " |",
        "|---|" + "---:|" * len(langs),
    ]
    for name, (report, _) in reports.items():
        cells = []
        for results in by_language(report.results).values():
            t = summarize(results)
            cells.append(f"{t.section_hit_at_k:.2f} / {t.section_hit_at_1:.2f} / {t.mrr_at_10:.2f}")
        lines.append(f"| {METHOD_LABELS[name]} | " + " | ".join(cells) + " |")
    lines += ["", "## Misses at 5", ""]
    for name, (report, _) in reports.items():
        missed = report.misses
        lines.append(f"- {METHOD_LABELS[name]}: " + (", ".join(r.case.id for r in missed) if missed else "none"))
    lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=HERE / "eval_cases.jsonl")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=HERE / "EVAL.md")
    parser.add_argument("--check", action="store_true", help="verify the case file, run nothing")
    args = parser.parse_args(argv)
    cases = load_cases(args.cases)
    sources = read_sources(cases, args.corpus)
    if args.check:
        return 1 if check(cases, args.corpus, sources) else 0
    reports = run(cases, sources)
    command = "python bench/eval_compare.py" + ("" if argv is None else " " + " ".join(argv))
    if argv is None and len(sys.argv) > 1:
        command = "python bench/eval_compare.py " + " ".join(sys.argv[1:])
    text = render(reports, cases, command)
    print(text)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
