"""Retrieval units: every case set, two retrievers (BM25 and static embeddings), the chunker under config
variants beside its peers, in one compact table.

    .venv/bin/python bench/eval_units.py --corpus ROOT [--cases FILE ...] [--variant NAME=KEY:VALUE,...]
                                         [--peers] [--retrievers bm25,static] [--out FILE.md]

ROOT holds every set's documents under the paths its cases name: the corpus folders (``../shared/corpus``), the
blind sets' folders (``bench/blind_docs.sh ROOT MIRRORS``) and, for the clinic set, a folder with
``general_info.md`` (a case file without ``path`` fields gets ``--clinic-path``'s). Without ``--cases`` the
sets are: dev, held-out, test (``bench/eval_cases*.jsonl``), the four blind sets and the shared clinic set
(``../shared/fixtures/general_info.cases.jsonl``).

Methods: ``chunker`` (the default config), one row per ``--variant`` (``NAME=KEY:VALUE,KEY:VALUE``, the values
read as YAML scalars and given to ``ChunkerConfig.from_mapping``), LangChain, and with ``--peers`` the installed
peers of ``bench/eval_peers.py``. Retrievers: ``bm25`` (``chunker.evaluate``'s) and ``static`` (WordLlama, as
``bench/eval_static.py``). Each cell: section hit@1 / hit@5 / MRR@10; the pooled rows weigh every case once.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import eval_compare  # noqa: E402
from eval_compare import CaseSet, load_set  # noqa: E402

import chunker.evaluate  # noqa: E402
from chunker.config import ChunkerConfig  # noqa: E402
from chunker.evaluate import CaseResult, evaluate, summarize  # noqa: E402
from chunker.pipeline import chunk_markdown  # noqa: E402

CLINIC_CASES = HERE.parent.parent / "shared" / "fixtures" / "general_info.cases.jsonl"
BLIND = tuple(HERE / f"eval_cases_blind_{name}.jsonl" for name in ("pnpm", "pip", "toml", "laravel"))
DEFAULT_SETS = (*eval_compare.DEFAULT_CASES, *BLIND, CLINIC_CASES)
GROUPS = {"old": ("dev", "held-out", "test"), "blind": tuple(f"blind {n}" for n in ("pnpm", "pip", "toml", "laravel"))}
Chunk = dict[str, Any]
Splitter = Callable[[str, str, str], list[Chunk]]


def variant(spec: str) -> tuple[str, ChunkerConfig]:
    name, _, pairs = spec.partition("=")
    options: dict[str, Any] = {}
    for pair in filter(None, pairs.split(",")):
        key, _, value = pair.partition(":")
        options[key.strip()] = yaml.safe_load(value)
    return name, ChunkerConfig.from_mapping(options, where=f"--variant {name}")


def chunker_with(cfg: ChunkerConfig) -> Splitter:
    return lambda text, stem, path: [c.to_dict() for c in chunk_markdown(text, cfg, stem, path).chunks]


def with_paths(path: Path, folder: str) -> Path:
    """A copy of a case file whose cases lack ``path``: each gets ``folder/<doc>.md``."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if all("path" in case for case in lines):
        return path
    out = Path(tempfile.mkdtemp(prefix="eval-units-")) / path.name
    for case in lines:
        case.setdefault("path", f"{folder}/{case['doc']}.md")
    out.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in lines), encoding="utf-8")
    return out


class Retrievers:
    """``chunker.evaluate.build_index`` swapped per run: BM25 as it is, or static embeddings."""

    def __init__(self) -> None:
        self.bm25 = chunker.evaluate.build_index
        self._model: Any = None

    def use(self, name: str) -> None:
        if name == "bm25":
            chunker.evaluate.build_index = self.bm25
            return
        from eval_static import StaticIndex, load_model

        if self._model is None:
            self._model = load_model()
        model = self._model
        chunker.evaluate.build_index = lambda texts, retriever="bm25", model_path=None: StaticIndex(model, texts)  # type: ignore[assignment]


def cell(results: Sequence[CaseResult]) -> str:
    t = summarize(list(results))
    return f"{t.section_hit_at_1:.3f} / {t.section_hit_at_k:.3f} / {t.mrr_at_10:.3f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--cases", type=Path, action="append")
    parser.add_argument("--clinic-path", default="ru-clinic", help="folder under --corpus of cases without a path")
    parser.add_argument("--variant", action="append", default=[], help="NAME=KEY:VALUE,KEY:VALUE")
    parser.add_argument("--peers", action="store_true", help="add the installed peers of bench/eval_peers.py")
    parser.add_argument("--no-default", action="store_true", help="leave out the default config's row")
    parser.add_argument("--retrievers", default="bm25,static")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)

    methods: dict[str, Splitter] = {} if args.no_default else {"chunker": chunker_with(ChunkerConfig())}
    for spec in args.variant:
        name, cfg = variant(spec)
        methods[name] = chunker_with(cfg)
    methods["langchain"] = eval_compare.langchain
    if args.peers:
        methods.update({n: s for n, s in _peers().items() if n != "semantic-text-splitter"})
    sets: list[CaseSet] = [load_set(with_paths(p, args.clinic_path), args.corpus) for p in args.cases or DEFAULT_SETS]
    sets = [replace(s, name="clinic") if s.path.name == CLINIC_CASES.name else s for s in sets]

    chunks = {
        (s.name, m): {stem: split(text, stem, path) for stem, (path, text) in sorted(s.sources.items())}
        for s in sets
        for m, split in methods.items()
    }
    retrievers = Retrievers()
    results: dict[tuple[str, str, str], tuple[CaseResult, ...]] = {}
    counts: dict[tuple[str, str], tuple[int, float]] = {}
    for r in args.retrievers.split(","):
        retrievers.use(r)
        for s in sets:
            for m in methods:
                report = evaluate(s.cases, chunks[(s.name, m)], k=eval_compare.K)
                results[(r, s.name, m)] = report.results
                counts[(s.name, m)] = (report.chunk_count, report.mean_chars)
    retrievers.use("bm25")

    scopes: list[tuple[str, list[str]]] = [(s.name, [s.name]) for s in sets]
    names = [s.name for s in sets]
    for group, members in GROUPS.items():
        present = [m for m in members if m in names]
        if len(present) > 1:
            scopes.append((f"{group} ({sum(len(s.cases) for s in sets if s.name in present)})", present))
    scopes.append((f"all ({sum(len(s.cases) for s in sets)})", names))
    lines = ["Each cell: section hit@1 / hit@5 / MRR@10.", ""]
    for r in args.retrievers.split(","):
        lines += [f"### {r}", "", "| scope | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
        for scope, members in scopes:
            row = [cell([x for s in members for x in results[(r, s, m)]]) for m in methods]
            lines.append(f"| {scope} | " + " | ".join(row) + " |")
        lines.append("")
    lines += ["### chunks (mean chars)", "", "| set | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for s in sets:
        lines.append(
            f"| {s.name} | "
            + " | ".join(f"{counts[(s.name, m)][0]} ({counts[(s.name, m)][1]:.0f})" for m in methods)
            + " |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


def _peers() -> dict[str, Splitter]:
    from eval_peers import bound

    return {name: splitter for name, (_, splitter) in bound(eval_compare.section_headings).items()}


if __name__ == "__main__":
    raise SystemExit(main())
