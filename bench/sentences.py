"""Sentence splitters compared: chunker.sentences vs pysbd vs sentencex. Run by hand:

    .venv/bin/pip install pysbd sentencex   # measurement only, not runtime dependencies
    .venv/bin/python bench/sentences.py [--corpus /work/shared/corpus] [--max-pysbd-seconds 120]

Prints (a) seconds per paragraph size per splitter on one-paragraph texts built from real sentences of
the corpus (ru, de, it, en), with the growth per x10 size, and (b) agreement with the hand-checked
sample of tests/test_sentences.py. Paste the output into bench/SENTENCES.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import platform
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chunker.sentences import sentence_cuts

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {"ru": "ru-rust-book", "de": "de-gesetze", "it": "it-vue-docs", "en": "en-rust-book"}
SIZES = (10_000, 100_000, 1_000_000)

Splitter = Callable[[str, str], list[int]]

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_MARKUP = re.compile(r"<[^>]*>|!?\[([^\]]*)\]\([^)]*\)|[`*_#>|]+|^\s*[-+]\s+|\{[^}]*\}", re.M)


def _prose(corpus: Path, source: str, limit: int) -> str:
    """Crudely de-marked prose of one source, whitespace collapsed, at least `limit` chars if it has them."""
    parts: list[str] = []
    total = 0
    for path in sorted((corpus / source).rglob("*.md")):
        text = _MARKUP.sub(r"\1", _FENCE.sub(" ", path.read_text(encoding="utf-8")))
        lines = [ln.strip() for ln in text.splitlines() if len(ln.split()) > 4]
        chunk = " ".join(" ".join(lines).split())
        parts.append(chunk)
        total += len(chunk) + 1
        if total >= limit:
            break
    return " ".join(parts)


def _paragraph(prose: str, size: int) -> str:
    reps = size // max(1, len(prose)) + 1
    return " ".join(itertools.repeat(prose, reps))[:size]


def _starts(text: str, spans: list[tuple[int, int]]) -> list[int]:
    """Sentence starts (first non-space char) other than the text's own start."""
    out = []
    for start, _ in spans:
        k = start
        while k < len(text) and text[k].isspace():
            k += 1
        if 0 < k < len(text):
            out.append(k)
    return sorted(set(out))


def _ours(text: str, lang: str) -> list[int]:
    return sentence_cuts(text)


def _pysbd(text: str, lang: str) -> list[int]:
    import pysbd

    seg = pysbd.Segmenter(language=lang, clean=False, char_span=True)
    return _starts(text, [(s.start, s.end) for s in seg.segment(text)])


def _sentencex(text: str, lang: str) -> list[int]:
    import sentencex

    return _starts(text, [(b["start_index"], b["end_index"]) for b in sentencex.get_sentence_boundaries(lang, text)])


SPLITTERS: dict[str, Splitter] = {"chunker": _ours, "sentencex": _sentencex, "pysbd": _pysbd}


def _load_sample() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    spec = importlib.util.spec_from_file_location("test_sentences", ROOT / "tests" / "test_sentences.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sample: tuple[tuple[str, str, tuple[str, ...]], ...] = module.SAMPLE
    return sample


def _timed(fn: Splitter, text: str, lang: str) -> float:
    t0 = time.perf_counter()
    fn(text, lang)
    return time.perf_counter() - t0


def speed(corpus: Path, max_pysbd: float) -> None:
    print("## Speed: seconds per one-paragraph text (best of 2 below 1 MB, 1 run at 1 MB)\n")
    print(
        "| lang | splitter | " + " | ".join(f"{s // 1000} KB" for s in SIZES) + " | growth per x10 | MB/s at largest |"
    )
    print("|---|---|" + "---|" * (len(SIZES) + 2))
    for lang, source in SOURCES.items():
        prose = _prose(corpus, source, SIZES[-1])
        for name, fn in SPLITTERS.items():
            secs: list[float] = []
            for size in SIZES:
                if secs and name == "pysbd" and secs[-1] * 10 > max_pysbd:
                    break
                text = _paragraph(prose, size)
                runs = 1 if size >= 1_000_000 else 2
                secs.append(min(_timed(fn, text, lang) for _ in range(runs)))
            cells = [f"{s:.4f}" for s in secs] + ["skipped"] * (len(SIZES) - len(secs))
            growth = ", ".join(f"{b / a:.1f}" for a, b in itertools.pairwise(secs) if a > 0)
            rate = SIZES[len(secs) - 1] / secs[-1] / 1e6
            print(f"| {lang} | {name} | " + " | ".join(cells) + f" | {growth} | {rate:.2f} |", flush=True)


def accuracy() -> None:
    sample = _load_sample()
    print(f"\n## Accuracy on the hand-checked sample ({len(sample)} cases)\n")
    print("| splitter | cases exactly right | boundary precision | boundary recall | wrong cases |")
    print("|---|---|---|---|---|")
    for name, fn in SPLITTERS.items():
        exact = tp = fp = fn_count = 0
        wrong: list[str] = []
        for lang, title, sentences in sample:
            text = "".join(sentences)
            expected = set(itertools.accumulate(len(s) for s in sentences[:-1]))
            got = set(fn(text, lang))
            tp += len(got & expected)
            fp += len(got - expected)
            fn_count += len(expected - got)
            if got == expected:
                exact += 1
            else:
                wrong.append(f"{lang}-{title}")
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn_count) if tp + fn_count else 1.0
        print(f"| {name} | {exact}/{len(sample)} | {precision:.2f} | {recall:.2f} | {', '.join(wrong)} |")


def pathological() -> None:
    print("\n## chunker.sentences on pathological input\n")
    print("| input | MB | seconds |")
    print("|---|---|---|")
    cases = {
        "no sentence end ('word ' x 2M)": "word " * 2_000_000,
        "'x.' x 5M": "x." * 5_000_000,
        "'X. ' x 3M (initials)": "X. " * 3_000_000,
        "'Ab. Cd ' x 1.25M (a cut every 7 chars)": "Ab. Cd " * 1_250_000,
        "'.' x 10M": "." * 10_000_000,
    }
    for label, text in cases.items():
        print(f"| {label} | {len(text) / 1e6:.1f} | {_timed(_ours, text, 'en'):.2f} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/work/shared/corpus"))
    parser.add_argument("--max-pysbd-seconds", type=float, default=120.0, help="skip a pysbd size estimated above")
    args = parser.parse_args()
    print(f"date {time.strftime('%Y-%m-%d')}, nproc {os.cpu_count()}, Python {platform.python_version()}")
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}\n")
    accuracy()
    print()
    speed(args.corpus, args.max_pysbd_seconds)
    pathological()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
