"""Container fuzzing at small budgets: seeded random Markdown built from nested containers, checked
against the invariants the validator promises.

    python bench/fuzz_containers.py [--seed 8] [--docs 2000] [--show K] [--keep DIR]
    python bench/fuzz_containers.py --seed 132 --extra --parser pulldown-cmark   # other syntax, the other parser

``--extra`` adds the syntax of the last stops (MDC components ``::name`` ... ``::`` nested with more colons,
MyST target and comment lines and roles, Obsidian ``%%`` comments, wikilinks and block ids, GitBook and Hugo
template tags with titles, headings wrapped in one element) and draws ``skip_comments`` and the embedding
options at random: other documents than the same seed without it. ``--parser pulldown-cmark`` chunks them
on the other parse path.

Each document is ~6-14 top-level blocks under ``## Section`` headings; a block is a paragraph, a list
(bullet or ordered, nested, empty items), a quote, a definition list (``:   `` / ``~``), an admonition
(``!!! note``), a ``:::`` container, a table, a fence (backticks or tildes), an HTML block (lines indented
past it), an MDX component holding a fence with blank lines, a footnote, lines of ``-`` / ``=``, setext
headings; containers nest up to 3 deep. Each document is chunked at two budgets drawn from 40-400
(``target_chars`` and ``min_chars`` small, so that it is cut everywhere), as Markdown or MDX, and judged:

- no exception;
- lossless: each chunk's text without its declared added lines is its source slice, slices do not
  overlap, and every non-blank character lies in a chunk or a skipped range;
- every piece renders as in the document: no ``rendering-changed`` finding;
- no chunk over max_chars unless it is an overflow chunk with an ``overflow`` finding for its lines;
- no chunk crossing its section: none holds a ``#`` or ``##`` heading (ATX or setext) after text of its
  own (headings and filler blocks aside: a title over filler goes with the section below it, as
  :func:`chunker.strategies.sections.carry_filler` says).

Prints the count of documents, chunks and findings by kind, and the first finding of each kind
(document number; ``--show K`` prints document K and its chunks; ``--keep DIR`` writes the documents
with findings). Deterministic for a seed. Run under ``nice -n 10`` (2 shared cores).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chunker.config import ChunkerConfig
from chunker.filler import is_filler
from chunker.models import ChunkingResult
from chunker.parse.markdown import markdown_parser
from chunker.pipeline import chunk_markdown

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
]


class Gen:
    """Random Markdown of nested containers (one ``random.Random`` per document)."""

    def __init__(self, rng: random.Random, extra: bool = False) -> None:
        self.r = rng
        self.extra = extra

    def words(self, lo: int = 1, hi: int = 12) -> str:
        return " ".join(self.r.choice(WORDS) for _ in range(self.r.randint(lo, hi)))

    def sentence(self) -> str:
        return self.words(2, 10).capitalize() + self.r.choice([".", ".", "!", ":", ""])

    def paragraph(self) -> list[str]:
        lines = [" ".join(self.sentence() for _ in range(self.r.randint(1, 3))) for _ in range(self.r.randint(1, 3))]
        if self.r.random() < 0.15:
            lines.append(self.r.choice(["-", "=", "---", "  -", "1) two", "    deeper line", "<br>"]))
        return lines

    def block(self, depth: int) -> list[str]:
        kinds = ["paragraph", "fence", "table", "html", "rule"]
        if depth < 3:
            kinds += ["list", "list", "quote", "deflist", "deflist", "admonition", "colons", "mdx", "footnote"]
            if self.extra:
                kinds += ["mdc", "mdc", "myst", "obsidian", "template", "wrapped"]
        kind = self.r.choice(kinds)
        return getattr(self, "_" + kind)(depth)

    def blocks(self, depth: int, n: int) -> list[str]:
        out: list[str] = []
        for k in range(n):
            if k:
                out.append("")
            out += self.block(depth)
        return out

    def _paragraph(self, depth: int) -> list[str]:
        return self.paragraph()

    def _rule(self, depth: int) -> list[str]:
        return [self.r.choice(["---", "***", "-", "===", "Title line", "Setext\n---"])]

    def _fence(self, depth: int) -> list[str]:
        mark = self.r.choice(["```", "~~~", "````"])
        body = [self.r.choice(["", "  ", "    "]) + self.words(1, 8) for _ in range(self.r.randint(1, 8))]
        if self.r.random() < 0.3:
            body.insert(self.r.randint(0, len(body)), "")
        return [mark + self.r.choice(["", "js", 'py title="x.py"']), *body, mark]

    def _table(self, depth: int) -> list[str]:
        cols = self.r.randint(1, 3)
        rows = [["| " + " | ".join(self.words(1, 3) for _ in range(cols)) + " |"] for _ in range(self.r.randint(1, 5))]
        return [rows[0][0], "|" + "---|" * cols, *(r[0] for r in rows[1:])]

    def _html(self, depth: int) -> list[str]:
        lines = ['<div class="box">']
        for _ in range(self.r.randint(1, 5)):
            indent = " " * self.r.choice([0, 2, 4, 6, 8])
            tag = self.r.choice([f'<a href="/{self.r.choice(WORDS)}">', "</a>", self.words(1, 6), "<p>", "</p>"])
            lines.append(indent + tag)
        lines.append("</div>")
        return lines

    def _mdx(self, depth: int) -> list[str]:
        return ["<Solution>", *self._fence(depth)[:-1], "", *self._html(depth), "", "```", "</Solution>"]

    def _list(self, depth: int) -> list[str]:
        ordered = self.r.random() < 0.4
        out: list[str] = []
        for k in range(self.r.randint(1, 4)):
            marker = f"{k + 1}." if ordered else self.r.choice(["-", "*", "+"])[:1]
            marker = marker if not out or not ordered else f"{k + 1}."
            if self.r.random() < 0.15:
                out.append(marker)  # an empty item
                continue
            body = self.blocks(depth + 1, self.r.randint(1, 2))
            pad = " " * (len(marker) + self.r.choice([1, 1, 2]))
            out.append(marker + " " * (len(pad) - len(marker)) + body[0])
            out += [(pad + line) if line else "" for line in body[1:]]
        return out

    def _quote(self, depth: int) -> list[str]:
        return [("> " + line) if line else ">" for line in self.blocks(depth + 1, self.r.randint(1, 2))]

    def _deflist(self, depth: int) -> list[str]:
        out: list[str] = []
        for _ in range(self.r.randint(1, 2)):
            out.append(self.words(1, 3).capitalize())
            marker = self.r.choice([":   ", ": ", "~ "])
            body = self.blocks(depth + 1, self.r.randint(1, 2))
            out.append(marker + body[0])
            out += [("    " + line) if line else "" for line in body[1:]]
            out.append("")
        return out[:-1]

    def _admonition(self, depth: int) -> list[str]:
        head = self.r.choice(["!!! note", '!!! tip "A title"', "??? info"])
        return [head, "", *(("    " + line) if line else "" for line in self.blocks(depth + 1, self.r.randint(1, 2)))]

    def _colons(self, depth: int) -> list[str]:
        return [self.r.choice([":::tip", "::: warning Careful", ":::details More"]), *self.blocks(depth + 1, 2), ":::"]

    # ---- the syntax landed in the last two stops (--extra): MDC, MyST, Obsidian, template tags, JSX-wrapped headings
    def _mdc(self, depth: int) -> list[str]:
        colons = "::" if depth == 0 or self.r.random() < 0.5 else ":" * (2 + depth)
        head = colons + self.r.choice(["card", "u-page-grid", "tabs-item", "callout"])
        head += self.r.choice(["", "[Label]", '{icon="x"}'])
        pad = " " * self.r.choice([0, 0, 2])
        props = ["---", "title: " + self.words(1, 3), "---"] if self.r.random() < 0.3 else []
        body = self.blocks(depth + 1, self.r.randint(1, 2))
        closing = [colons] if self.r.random() < 0.9 else []
        return [pad + line if line else "" for line in [head, *props, *body, *closing]]

    def _myst(self, depth: int) -> list[str]:
        out = [f"({self.r.choice(WORDS)}-label)="] if self.r.random() < 0.5 else []
        if self.r.random() < 0.5:
            out.append("% " + self.words(1, 5))
        out.append(self.r.choice(["### ", "## ", ""]) + self.words(1, 3) + " {ref}`x <y>`" * self.r.randint(0, 1))
        return out

    def _obsidian(self, depth: int) -> list[str]:
        shape = self.r.randrange(4)
        if shape == 0:
            return ["%%", *self.paragraph(), "", *self.paragraph(), "%%"]
        if shape == 1:
            return ["%% " + self.words(1, 4) + " %%"]
        if shape == 2:
            return [self.sentence() + " %%" + self.words(1, 3) + "%% [[Note#Heading|" + self.words(1, 2) + "]] ^blk-1"]
        return ["%%", *self.paragraph()]  # never closed

    def _template(self, depth: int) -> list[str]:
        name = self.r.choice(["tab", "hint", "code"])
        if self.r.random() < 0.5:
            return [f'{{% {name} title="{self.words(1, 2)}" %}}', *self.blocks(depth + 1, 1), f"{{% end{name} %}}"]
        return [f"{{{{< {name} >}}}}", *self.blocks(depth + 1, 1), f"{{{{< /{name} >}}}}"]

    def _wrapped(self, depth: int) -> list[str]:
        return [f'<div id="{self.r.choice(WORDS)}">', "  ## " + self.words(1, 3) + " {#x}", "</div>"]

    def _footnote(self, depth: int) -> list[str]:
        body = self.blocks(depth + 1, self.r.randint(1, 2))
        return [f"[^{self.r.randint(1, 9)}]: " + body[0], *(("    " + line) if line else "" for line in body[1:])]

    def document(self) -> str:
        out = ["# Fuzz " + self.words(1, 3), ""]
        for s in range(self.r.randint(1, 3)):
            if s or self.r.random() < 0.7:
                out += ["## Section " + str(s) + " " + self.words(1, 2), ""]
            out += self.blocks(0, self.r.randint(2, 5))
            out.append("")
        return "\n".join(out) + "\n"


def _sections(text: str, cfg: ChunkerConfig) -> tuple[list[int], list[tuple[int, int]]]:
    """Offsets of the top-level ``#`` and ``##`` headings (ATX or setext) as the parser reads the
    document, and the offset ranges of all its top-level headings."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    tokens = markdown_parser(cfg.max_nesting, cfg.syntax == "mdx").parse(text)
    headings = [t for t in tokens if t.type == "heading_open" and t.level == 0 and t.map]
    ranges = [(starts[t.map[0]], starts[t.map[1]]) for t in headings if t.map]
    return [starts[t.map[0]] for t in headings if t.map and t.tag <= "h2"], ranges


_LABEL_LINE = re.compile(r"(?m)^[ \t]*(?:\([^\n]*\)=|\{:?[ \t]*[#.][^\n{}]*\})[ \t]*$")
"""A label line (a MyST target ``(name)=``, an attribute line ``{#id}``): the block builder gives it to the
heading below it, so a chunk opening with it and that heading holds no text of its own before the heading."""


def _own_text(text: str, start: int, end: int, headings: list[tuple[int, int]]) -> bool:
    """Whether ``text[start:end]`` holds a non-blank character outside the ranges ``headings`` (label lines
    aside)."""
    for a, b in headings:
        if a < end and b > start:
            return _own_text(text, start, a, headings) or _own_text(text, b, end, headings)
    return bool(_LABEL_LINE.sub("", text[start:end]).strip())


def judge(text: str, cfg: ChunkerConfig, syntax: str) -> tuple[list[tuple[str, str]], int]:
    """The findings of one run, as (kind, detail), and the number of chunks."""
    try:
        result = chunk_markdown(text, cfg, "doc", "doc.mdx" if syntax == "mdx" else "doc.md")
    except Exception:
        return [("exception", traceback.format_exc(limit=3).splitlines()[-1])], 0
    return findings(text, result, cfg), len(result.chunks)


def findings(text: str, result: ChunkingResult, cfg: ChunkerConfig) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    diags = result.diagnostics.diagnostics
    out += [("rendering-changed", d.message[:160]) for d in diags if d.code == "rendering-changed"]
    out += [(d.code, d.message[:160]) for d in diags if d.code in ("content-loss", "content-mismatch", "oversize")]
    overflow_lines = [d.line for d in diags if d.code == "overflow" and d.line is not None]
    covered = bytearray(len(text))
    previous = 0
    sections, headings = _sections(text, cfg)
    no_text = sorted(headings + [(b.start_offset, b.end_offset) for b in result.blocks if is_filler(b)])
    for chunk in result.chunks:
        core = chunk.content_original
        for added in chunk.added_lines:
            if added.position == "before" and core.startswith(added.text):
                core = core[len(added.text) :]
        for added in reversed(chunk.added_lines):  # the last one added after is at the end
            if added.position == "after" and core.endswith(added.text):
                core = core[: len(core) - len(added.text)]
        if core != text[chunk.start_offset : chunk.end_offset]:
            out.append(("lossless", f"chunk at line {chunk.start_line}: text is not its source slice"))
        if chunk.start_offset < previous:
            out.append(("lossless", f"chunk at line {chunk.start_line} overlaps the one before"))
        previous = chunk.end_offset
        covered[chunk.start_offset : chunk.end_offset] = b"\x01" * (chunk.end_offset - chunk.start_offset)
        if chunk.size > cfg.max_chars and not (
            chunk.is_overflow and any(chunk.start_line <= line <= chunk.end_line for line in overflow_lines)
        ):
            out.append(("undeclared-oversize", f"chunk at line {chunk.start_line}: {chunk.size} > {cfg.max_chars}"))
        for h in sections:
            if chunk.start_offset < h < chunk.end_offset and _own_text(text, chunk.start_offset, h, no_text):
                out.append(("crosses-section", f"chunk at line {chunk.start_line} holds the heading at {h}"))
    for skipped in result.diagnostics.skipped:
        covered[skipped.start_offset : skipped.end_offset] = b"\x01" * (skipped.end_offset - skipped.start_offset)
    lost = next((m.start() for m in re.finditer(r"\S", text) if not covered[m.start()]), None)
    if lost is not None:
        out.append(("lossless", f"text at offset {lost} in no chunk: {text[lost : lost + 30]!r}"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--docs", type=int, default=2000)
    parser.add_argument("--show", type=int, default=None, help="print document K, its runs and chunks")
    parser.add_argument("--keep", type=Path, default=None, help="write documents with findings here")
    parser.add_argument("--parser", default="markdown-it", choices=["markdown-it", "pulldown-cmark"])
    parser.add_argument(
        "--extra",
        action="store_true",
        help="also the syntax of the last stops (MDC, MyST, Obsidian, template tags, JSX-wrapped headings), "
        "with skip_comments and the embedding options drawn at random (other documents than without it)",
    )
    args = parser.parse_args(argv)
    kinds: Counter[str] = Counter()
    in_runs: Counter[str] = Counter()
    first: dict[str, str] = {}
    chunks = runs = 0
    for k in range(args.docs):
        rng = random.Random(args.seed * 1_000_003 + k)
        text = Gen(rng, args.extra).document()
        syntax = "mdx" if rng.random() < 0.3 else "markdown"
        for _ in range(2):
            m = rng.randint(40, 400)
            options = {}
            if args.extra:
                options = {
                    key: rng.random() < 0.5
                    for key in ("skip_comments", "embedding_drop_heading_ids", "embedding_drop_template_tags")
                }
            cfg = ChunkerConfig(
                max_chars=m, target_chars=max(1, m // 2), min_chars=1, syntax=syntax, parser=args.parser, **options
            )
            if args.show is not None and k != args.show:
                continue
            found, n = judge(text, cfg, syntax)
            runs += 1
            chunks += n
            if args.show is not None:
                print(f"--- document {k} ({syntax}, max_chars {m})\n{text}")
                result = chunk_markdown(text, cfg, "doc", "doc.md")
                for c in result.chunks:
                    print(c.start_line, c.end_line, c.size, repr(c.content_original), [a.text for a in c.added_lines])
                print(found)
            for kind, detail in found:
                kinds[kind] += 1
                first.setdefault(kind, f"document {k} ({syntax}, max_chars {m}): {detail}")
            for kind in {kind for kind, _ in found}:
                in_runs[kind] += 1
            if found and args.keep is not None:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"doc{k:05d}_{syntax}_{m}.md").write_text(text, encoding="utf-8")
    label = f"seed {args.seed}{' extra' if args.extra else ''} ({args.parser})"
    print(f"{label}: {args.docs} documents, {runs} runs, {chunks} chunks")
    for kind, count in kinds.most_common():
        print(f"{kind}: {count} lines in {in_runs[kind]} runs; first: {first[kind]}")
    return 1 if kinds else 0


if __name__ == "__main__":
    sys.exit(main())
