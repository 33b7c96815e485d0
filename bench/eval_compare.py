"""Retrieval of our default chunks vs two common baselines, on hand-written cases.

    .venv/bin/python bench/eval_compare.py [--cases FILE.jsonl ...] [--corpus ../shared/corpus]
                                           [--out bench/EVAL.md] [--check]

``--cases`` may be given several times; without it the three case sets are used, in this order:

- ``bench/eval_cases.jsonl``, the dev set: written first; chunker changes were checked against it;
- ``bench/eval_cases_heldout.jsonl``, the held-out set: written blind afterwards (without running
  any retrieval), over other documents, and never used for tuning;
- ``bench/eval_cases_test.jsonl``, the test set: 100 cases written blind last, over 20 documents
  drawn at random by ``bench/draw_eval_docs.py`` from those no other set uses.

Each case set is run on its own: all chunks of all documents of that set are indexed together
(not with the other sets' documents). The report has, per set, the totals, a per-language table
and the misses, then a pooled table over all sets (each figure a mean over all cases of all sets,
so a set weighs by its number of cases; chunk counts and times are per set only). Chunking
times are wall clock, after one warm-up call of each method, so imports are not counted.

Methods, all scored by the same BM25 retriever (``chunker.evaluate``):

- ``chunker``: ``chunk_markdown(text, ChunkerConfig(), stem, path)``, the default config (``--set key=value``:
  with that option, e.g. ``--set embedding_drop_components=true``);
- ``fixed-1000``: the text cut every 1,000 characters, no overlap;
- ``langchain``: ``MarkdownHeaderTextSplitter`` on ``#``/``##``/``###`` then
  ``RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0)``.

A baseline chunk's ``section`` is the H1/H2 heading in force where the chunk starts: found
from its source offset for ``fixed-1000``, from the ``Header 2`` (else ``Header 1``) metadata
for ``langchain``. Heading text is made plain with the chunker's own ``heading_text`` so that
every method is judged against the same labels. ``--check`` verifies every given case file
instead (runs no retrieval): unique stems, expected sections that exist, expected text inside
the expected section; exit 1 if any file has a problem.

``--peers`` adds the peers of ``bench/eval_peers.py`` that are installed (semantic-text-splitter, chonkie,
llama-index; each at 1,000 characters, its ``section`` the H1/H2 in force at its first character). The
blind case sets ``bench/eval_cases_blind_*.jsonl`` read their documents from the folder that
``bench/blind_docs.sh`` makes (pass it as ``--corpus``). Whatever follows the line KEEP_MARKER in an existing
``--out`` file is kept when the file is written again (hand-written sections of ``bench/EVAL.md``).

Needs the ``bench`` extra (``langchain-text-splitters``); PyStemmer changes the BM25 figures,
and the tokenizer used is written into the report.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from chunker.config import ChunkerConfig
from chunker.eval_cases import Case, load_cases
from chunker.eval_tokens import stemmer_name
from chunker.evaluate import CaseResult, EvalReport, evaluate, summarize
from chunker.inline import heading_text
from chunker.parse import BlockTokens, read_document
from chunker.pipeline import chunk_markdown
from chunker.segmenter import segment
from chunker.text import normalise_newlines

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
DEV_CASES = HERE / "eval_cases.jsonl"
HELDOUT_CASES = HERE / "eval_cases_heldout.jsonl"
TEST_CASES = HERE / "eval_cases_test.jsonl"
DEFAULT_CASES = (DEV_CASES, HELDOUT_CASES, TEST_CASES)
# How each known case set was made (file name -> (set name, provenance)).
KNOWN_SETS = {
    DEV_CASES.name: ("dev", "written first; chunker changes were checked against it"),
    HELDOUT_CASES.name: (
        "held-out",
        "written blind afterwards (no retrieval was run while writing it), over other documents; never used for tuning",
    ),
    TEST_CASES.name: (
        "test",
        "written blind last, over 20 documents drawn at random (bench/draw_eval_docs.py, seed 20261130) from those"
        " no other set uses; committed before any method was run on it",
    ),
}
for _name in ("pnpm", "pip", "toml", "laravel"):
    KNOWN_SETS[f"eval_cases_blind_{_name}.jsonl"] = (
        f"blind {_name}",
        "written blind on 2026-12-03 from documents no set had used (bench/blind_docs.sh), committed before any"
        " method was run on them",
    )
SIZE = 1000
K = 5
LANGUAGES = ("ru", "de", "it", "en")

Chunk = dict[str, Any]
Splitter = Callable[[str, str, str], list[Chunk]]


# -- sections ------------------------------------------------------------------


def section_headings(text: str) -> list[tuple[int, str]]:
    """(start offset, plain text) of every H1 and H2, as the chunker's parser sees them."""
    cfg = ChunkerConfig()
    doc = read_document(text, cfg)
    blocks = segment(doc, BlockTokens(doc, cfg), cfg)
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


OPTIONS: dict[str, Any] = {}
"""Options of the chunker method (``--set key=value``, e.g. ``embedding_drop_components=true``); none: the
default config."""


def ours(text: str, stem: str, path: str) -> list[Chunk]:
    cfg = ChunkerConfig.from_mapping(OPTIONS) if OPTIONS else ChunkerConfig()
    return [c.to_dict() for c in chunk_markdown(text, cfg, stem, path).chunks]


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


METHODS: dict[str, Splitter] = {"chunker": ours, "fixed-1000": fixed, "langchain": langchain}
METHOD_LABELS = {
    "chunker": "chunker, default config",
    "fixed-1000": "fixed size, 1,000 chars",
    "langchain": "LangChain headers #/##/### + recursive 1,000",
}


def add_peers() -> list[str]:
    """Add the installed peers of ``bench/eval_peers.py`` to METHODS; returns their names."""
    sys.path.insert(0, str(HERE))
    from eval_peers import bound

    for name, (label, splitter) in bound(section_headings).items():
        METHODS[name], METHOD_LABELS[name] = splitter, label
    return [name for name in METHODS if name not in ("chunker", "fixed-1000", "langchain")]


KEEP_MARKER = "<!-- Hand-written sections below: kept when bench/eval_compare.py writes this file again. -->"


def kept_tail(out: Path) -> str:
    """What follows KEEP_MARKER in an existing report (kept when it is written again)."""
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    at = text.find(KEEP_MARKER)
    return "" if at < 0 else "\n" + text[at:]


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
    """Problems with one case file itself; returns the count."""
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


Reports = dict[str, tuple[EvalReport, float]]


@dataclass(frozen=True)
class CaseSet:
    """One case file, evaluated on its own."""

    path: Path
    name: str
    provenance: str
    cases: list[Case]
    sources: dict[str, tuple[str, str]]

    @property
    def shown(self) -> str:
        return display(self.path)


def display(path: Path) -> str:
    """``path`` relative to the repository (or the folder above it), else as given."""
    resolved = path.resolve()
    for base in (ROOT, ROOT.parent):
        try:
            return resolved.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def load_set(path: Path, corpus: Path) -> CaseSet:
    name, provenance = KNOWN_SETS.get(path.name, (path.stem, "given with --cases; provenance not recorded"))
    cases = load_cases(path)
    return CaseSet(path, name, provenance, cases, read_sources(cases, corpus))


def warm_up() -> None:
    """Call every method once on a tiny text, so that no set's chunking time includes imports."""
    for splitter in METHODS.values():
        splitter("# Warm-up\n\nText.\n\n## Part\n\nMore text.\n", "warm-up", "warm-up.md")


def run(cases: Sequence[Case], sources: Mapping[str, tuple[str, str]]) -> Reports:
    reports: Reports = {}
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


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _language_counts(cases: Sequence[Case]) -> str:
    counts: dict[str, int] = dict.fromkeys(LANGUAGES, 0)
    for case in cases:
        counts[language(case)] = counts.get(language(case), 0) + 1
    return ", ".join(f"{lang} {n}" for lang, n in counts.items() if n)


def describe(case_set: CaseSet) -> str:
    """``N cases (ru a, de b, ...) over M documents``."""
    cases = case_set.cases
    return f"{_count(len(cases), 'case')} ({_language_counts(cases)}) over {_count(len(case_set.sources), 'document')}"


def render_set(case_set: CaseSet, reports: Reports) -> list[str]:
    langs = by_language(list(next(iter(reports.values()))[0].results))
    langs = {lang: v for lang, v in langs.items() if v}
    lines = [
        f"## {case_set.name.capitalize()} set: `{case_set.shown}`",
        "",
        f"{describe(case_set)}, indexed together; {case_set.provenance}.",
        "",
        "### All cases",
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
        "### By language (section hit@5 / hit@1 / MRR@10)",
        "",
        "| method | " + " | ".join(f"{lang} ({len(langs[lang])})" for lang in langs) + " |",
        "|---|" + "---:|" * len(langs),
    ]
    for name, (report, _) in reports.items():
        groups = by_language(report.results)
        cells = []
        for lang in langs:
            t = summarize(groups[lang])
            cells.append(f"{t.section_hit_at_k:.2f} / {t.section_hit_at_1:.2f} / {t.mrr_at_10:.2f}")
        lines.append(f"| {METHOD_LABELS[name]} | " + " | ".join(cells) + " |")
    lines += ["", "### Misses at 5", ""]
    for name, (report, _) in reports.items():
        missed = report.misses
        lines.append(f"- {METHOD_LABELS[name]}: " + (", ".join(r.case.id for r in missed) if missed else "none"))
    lines.append("")
    return lines


def render_pooled(runs: Sequence[tuple[CaseSet, Reports]]) -> list[str]:
    total = sum(len(s.cases) for s, _ in runs)
    parts = " + ".join(f"{s.name} {len(s.cases)}" for s, _ in runs)
    lines = [
        f"## Pooled: all sets ({parts} = {total} cases)",
        "",
        "Each figure is the mean over all cases of all sets (a set weighs by its number of cases); every set was "
        "still retrieved against its own index. Chunk counts and times are per set, above.",
        "",
        "| method | section hit@1 | section hit@5 | text hit@5 | MRR@10 |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in METHODS:
        t = summarize([r for _, reports in runs for r in reports[name][0].results])
        lines.append(
            f"| {METHOD_LABELS[name]} | {t.section_hit_at_1:.3f} | {t.section_hit_at_k:.3f} | "
            f"{t.text_hit_at_k:.3f} | {t.mrr_at_10:.3f} |"
        )
    lines.append("")
    return lines


def mcnemar_p(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar test: the binomial probability of a split of the discordant cases
    at least this uneven when either method is as likely to win each of them."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def render_paired(runs: Sequence[tuple[CaseSet, Reports]]) -> list[str]:
    """Case-by-case comparison of the chunker with each baseline, per set and pooled."""
    lines = [
        "## Paired: the chunker against each baseline, case by case",
        "",
        "Per case, does the chunker hit and does the baseline hit? Only the cases where exactly one of the two hits "
        "tell them apart; p is the exact two-sided McNemar test on those cases (small p: the split is unlikely "
        "to be chance).",
        "",
        "| baseline | set | hit@5: only chunker / only baseline | p | hit@1: only chunker / only baseline | p |",
        "|---|---|---:|---:|---:|---:|",
    ]
    scopes = [(s.name, [(s, r)]) for s, r in runs]
    if len(runs) > 1:
        scopes.append(("pooled", list(runs)))
    for name in METHODS:
        if name == "chunker":
            continue
        for scope, members in scopes:
            pairs = [
                (ours_result, theirs)
                for _, reports in members
                for ours_result, theirs in zip(reports["chunker"][0].results, reports[name][0].results, strict=True)
            ]
            cells = []
            for attr in ("section_hit_at_k", "section_hit_at_1"):
                only_ours = sum(getattr(a, attr) and not getattr(b, attr) for a, b in pairs)
                only_theirs = sum(getattr(b, attr) and not getattr(a, attr) for a, b in pairs)
                cells.append(f"{only_ours} / {only_theirs} | {mcnemar_p(only_ours, only_theirs):.3f}")
            lines.append(f"| {METHOD_LABELS[name]} | {scope} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def render(runs: Sequence[tuple[CaseSet, Reports]], command: str, corpus: Path) -> str:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Retrieval comparison: chunker vs fixed-size vs LangChain",
        "",
        f"- date: {now}",
        f"- machine: {platform.platform()}, {os.cpu_count()} CPU(s), Python {platform.python_version()}",
        f"- command: `{command}`",
        f"- corpus: `{display(corpus)}/`",
        "- case sets (hand-written; each evaluated on its own, its documents indexed together):",
    ]
    for case_set, _ in runs:
        lines.append(f"  - {case_set.name} set, `{case_set.shown}`: {describe(case_set)}; {case_set.provenance}")
    lines += [
        f"- retriever: BM25 (bm25s {_version('bm25s')}, Lucene variant, k1=1.5, b=0.75) over "
        f"`content_for_embedding`; tokenizer stemming: {stemmer_name()}",
        f"- langchain-text-splitters {_version('langchain-text-splitters')}",
        "- section hit@k: a chunk of the case's document whose `section` is the expected H1/H2 heading "
        "is among the top k; baselines get the section in force at their first character",
        "- chunking time: all documents of the set, wall clock, after one warm-up call of each method "
        "(imports not counted)",
        "",
    ]
    for case_set, reports in runs:
        lines += render_set(case_set, reports)
    if len(runs) > 1:
        lines += render_pooled(runs)
    lines += render_paired(runs)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cases",
        type=Path,
        action="append",
        help="a JSONL case file; repeat for several sets (default: the dev set, then the held-out set)",
    )
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=HERE / "EVAL.md")
    parser.add_argument("--check", action="store_true", help="verify every case file, run nothing")
    parser.add_argument(
        "--peers", action="store_true", help="add the installed peers of bench/eval_peers.py (chonkie, ...)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the chunker method, its value read as YAML (embedding_drop_components=true)",
    )
    args = parser.parse_args(argv)
    for item in args.set:
        key, _, value = item.partition("=")
        OPTIONS[key] = yaml.safe_load(value)
    paths: list[Path] = args.cases or list(DEFAULT_CASES)
    seen = [p.resolve() for p in paths]
    if len(set(seen)) != len(seen):
        parser.error("the same case file is given twice")
    sets = [load_set(p, args.corpus) for p in paths]
    if args.check:
        problems = 0
        for case_set in sets:
            print(f"== {case_set.shown} ({case_set.name} set)")
            problems += check(case_set.cases, args.corpus, case_set.sources)
        return 1 if problems else 0
    peers = add_peers() if args.peers else []
    warm_up()
    runs = [(case_set, run(case_set.cases, case_set.sources)) for case_set in sets]
    command = "python bench/eval_compare.py" + ("" if argv is None else " " + " ".join(argv))
    if argv is None and len(sys.argv) > 1:
        command = "python bench/eval_compare.py " + " ".join(sys.argv[1:])
    text = render(runs, command, args.corpus)
    if peers:
        from eval_peers import versions

        text = text.replace("\n\n## ", "\n" + versions(peers) + "\n\n## ", 1)
    print(text)
    args.out.write_text(text + kept_tail(args.out), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
