"""Properties of the whole pipeline on random Markdown built from real syntax pieces and
random budgets: every validator invariant holds, each chunk is its source slice plus
only the declared added text, nothing is lost, and the output is deterministic."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.core import chunks_bytes
from chunker.fences import is_balanced
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.text import normalise_newlines

WORDS = st.sampled_from(
    ["alpha", "beta", "Gamma.", "delta,", "épsilon", "ζήτα", "число", "x*y", "`code`", "[link](u)", "a_b", "§ 3", "1."]
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def words(min_size: int = 1, max_size: int = 12) -> st.SearchStrategy[str]:
    return st.lists(WORDS, min_size=min_size, max_size=max_size).map(" ".join)


@st.composite
def heading(draw: st.DrawFn) -> str:
    title = draw(words(1, 5))
    if draw(st.booleans()):
        return "#" * draw(st.integers(1, 6)) + " " + title + "\n"
    return title + "\n" + draw(st.sampled_from(["===", "---", "=", "-----"])) + "\n"


@st.composite
def paragraph(draw: st.DrawFn) -> str:
    lines = draw(st.lists(words(1, 20), min_size=1, max_size=6))
    return "\n".join(lines) + "\n"


@st.composite
def nested_list(draw: st.DrawFn) -> str:
    out = []
    depth = 0
    for _ in range(draw(st.integers(1, 12))):
        depth = max(0, min(depth + draw(st.integers(-2, 1)), 30))
        marker = draw(st.sampled_from(["- ", "* ", "+ ", "1. ", "2) "]))
        out.append("  " * depth + ("   " * depth if marker[0].isdigit() else "") + marker + draw(words(0, 8)))
    return "\n".join(out) + "\n"


@st.composite
def fence(draw: st.DrawFn) -> str:
    char = draw(st.sampled_from(["`", "~"]))
    opening = char * draw(st.integers(3, 6))
    body = draw(
        st.lists(st.one_of(words(0, 8), st.just("```"), st.just("~~~"), st.just("#  not a heading")), max_size=8)
    )
    text = opening + draw(st.sampled_from(["", "python", " sh"])) + "\n" + "".join(b + "\n" for b in body)
    if draw(st.integers(0, 4)):  # sometimes never closed
        text += opening + draw(st.sampled_from(["", char])) + "\n"
    return text


@st.composite
def table(draw: st.DrawFn) -> str:
    cols = draw(st.integers(1, 4))
    rows = draw(st.integers(0, 20))
    head = "| " + " | ".join(f"h{c}" for c in range(cols)) + " |\n"
    rule = "|" + "|".join(draw(st.sampled_from(["---", ":--", "--:", ":-:"])) for _ in range(cols)) + "|\n"
    body = "".join("| " + " | ".join(draw(words(0, 3)) for _ in range(cols)) + " |\n" for _ in range(rows))
    return head + rule + body


@st.composite
def quote(draw: st.DrawFn) -> str:
    depth = draw(st.integers(1, 30))
    inner = draw(st.one_of(paragraph(), nested_list(), fence()))
    return "".join(">" * depth + " " + line + "\n" for line in inner.splitlines())


@st.composite
def footnote(draw: st.DrawFn) -> str:
    """A footnote definition: paragraphs indented 4 columns after the first, lines maybe lazy."""
    label = draw(st.sampled_from(["1", "note", "f772414_01"]))
    lines = draw(st.lists(words(1, 14), min_size=1, max_size=5))
    indents = draw(st.lists(st.sampled_from(["    ", "    ", ""]), min_size=len(lines), max_size=len(lines)))
    text = f"[^{label}]:" + draw(st.sampled_from([" ", "     ", "\n    "])) + lines[0] + "\n"
    text += "".join(indent + line + "\n" for indent, line in zip(indents[1:], lines[1:], strict=True))
    if draw(st.booleans()):
        text += "\n    " + draw(words(1, 14)) + "\n"
    return text


@st.composite
def definitions(draw: st.DrawFn) -> str:
    """A definition list: terms, each with one or two definitions of a few lines."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        out.append(draw(words(1, 4)).replace("1.", "one") + "\n")
        for _ in range(draw(st.integers(1, 2))):
            out.append(draw(st.sampled_from([":   ", ": ", "~ "])) + draw(words(1, 14)) + "\n")
            out.extend("    " + line + "\n" for line in draw(st.lists(words(1, 14), max_size=3)))
        out.append("\n")
    return "".join(out)


ODD_LISTS = st.one_of(
    st.builds(lambda a, b: f"* [`lint`]: {a}\n  [#1](https://example.com/{b.count(' ')})\n", words(2, 14), words()),
    st.builds(lambda a, b: f"* {a}\n\t* {b}\n* {a}\n", words(1, 14), words(1, 14)),
    st.builds(lambda a, b: f"*    *   3.\xa0{a}\n        {b}\n", words(1, 14), words(1, 14)),
    st.builds(lambda a, b: f"1. {a}\n\n   ::: tip\n   {b}\n\n   :::\n\n   {a}\n", words(1, 14), words(1, 14)),
)
"""Lists that had pieces render otherwise: a link label at an item's start, tab-indented nested
items, a number before a no-break space, a ``:::`` container in an item."""


PIECES = st.one_of(
    heading(),
    footnote(),
    definitions(),
    ODD_LISTS,
    paragraph(),
    nested_list(),
    fence(),
    table(),
    quote(),
    st.sampled_from(["<div>\n<p>html</p>\n</div>\n", "<!-- comment -->\n", "<details>\n\ntext\n"]),
    st.builds(lambda body: "$$\n" + body + "\n$$\n", words(1, 6)),
    st.just("$$\nunclosed math\n"),
    st.sampled_from(["---\n", "***\n", "    indented code\n", "[ref]: http://example.com\n", "\n\n\n", "\t\n"]),
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    parts = []
    if draw(st.integers(0, 3)) == 0:
        title = draw(st.lists(st.sampled_from(["Guide", "Über", "Руководство", "v2", "notes"]), min_size=1, max_size=3))
        parts.append("---\ntitle: " + " ".join(title) + "\ntags: [a, b]\n---\n")
    for piece in draw(st.lists(PIECES, max_size=25)):
        parts.append(piece)
        if draw(st.booleans()):
            parts.append("\n")
    text = "".join(parts)
    ending = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    return text.replace("\n", ending)


@st.composite
def configs(draw: st.DrawFn) -> ChunkerConfig:
    max_chars = draw(st.integers(40, 3000))
    min_chars = draw(st.integers(1, max_chars))
    target = draw(st.integers(min_chars, max_chars))
    return ChunkerConfig(
        max_chars=max_chars,
        min_chars=min_chars,
        target_chars=target,
        strategy=draw(st.sampled_from(["headings", "recursive"])),
        section_level=draw(st.sampled_from([1, 2, 3, "auto"])),
        context_prefix=draw(st.sampled_from(["breadcrumb", "heading", "none"])),
        fail_on_broken_fence=True,
        fail_on_content_loss=True,
    )


def core(chunk_text: str, added: list[tuple[str, str]]) -> str:
    for position, text in added:
        if position == "before":
            assert chunk_text.startswith(text)
            chunk_text = chunk_text[len(text) :]
        else:
            assert chunk_text.endswith(text)
            chunk_text = chunk_text[: len(chunk_text) - len(text)]
    return chunk_text


def check(result: ChunkingResult, text: str, cfg: ChunkerConfig) -> None:
    source = normalise_newlines(text)
    # findings about the source (errors under fail_on_broken_fence / fail_on_bad_frontmatter), not the chunks
    errors = [
        (d.code, d.line, d.message)
        for d in result.diagnostics.errors
        if d.code != "unclosed-fence" and not d.code.startswith("frontmatter-")
    ]
    assert errors == [], errors
    assert not [d for d in result.diagnostics.diagnostics if d.code == "content-loss"]
    previous_end = 0
    covered = []
    for chunk in result.chunks:
        added = [(a.position, a.text) for a in chunk.added_lines]
        assert core(chunk.content_original, added) == source[chunk.start_offset : chunk.end_offset]
        assert chunk.start_offset >= previous_end
        previous_end = chunk.end_offset
        covered.append((chunk.start_offset, chunk.end_offset))
        assert is_balanced(chunk.content_original)
        assert chunk.chars <= cfg.max_chars or chunk.is_overflow
        assert 1 <= chunk.start_line <= chunk.end_line
        assert chunk.start_line == source.count("\n", 0, chunk.start_offset) + 1
    covered.extend((s.start_offset, s.end_offset) for s in result.diagnostics.skipped)
    # Nothing lost: every non-space character lies in a chunk or a declared skipped range.
    inside = bytearray(len(source))
    for start, end in covered:
        inside[start:end] = b"\x01" * (end - start)
    lost = [m.start() for m in re.finditer(r"\S", source) if not inside[m.start()]]
    assert lost == [], source[lost[0] : lost[0] + 40] if lost else ""
    ids = [c.chunk_id for c in result.chunks]
    assert len(set(ids)) == len(ids)


@SETTINGS
@given(text=documents(), cfg=configs())
@example(  # found here unseeded: a lazy delimiter row in a nested item, hard-cut to '-' alone (test_rendering_cuts)
    text="  * § 3 a_b 1. 1. Gamma.\n    * § 3 Gamma. alpha [link](u) число\n"
    "| h0 | h1 | h2 |\n|:-:|--:|:-:|\n|  | Gamma. a_b 1. |  |\n",
    cfg=ChunkerConfig(max_chars=40, min_chars=1, target_chars=1, strategy="recursive", section_level=1),
)
def test_random_markdown_keeps_every_invariant_and_loses_nothing(text: str, cfg: ChunkerConfig) -> None:
    check(chunk_markdown(text, cfg, "doc", "sources/doc.md"), text, cfg)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=documents(), cfg=configs())
def test_the_same_input_gives_byte_identical_chunks_json(text: str, cfg: ChunkerConfig) -> None:
    first = chunks_bytes(chunk_markdown(text, cfg, "doc", "sources/doc.md"))
    second = chunks_bytes(chunk_markdown(text, cfg, "doc", "sources/doc.md"))
    assert first == second


@SETTINGS
@given(
    text=st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=400)
    | st.text(alphabet="#>-*`~|$[]()!_\\ \n\r\t\u2028\x85\x0c\x00abc:=1.", max_size=400),
    cfg=configs(),
)
def test_arbitrary_text_never_raises_and_loses_nothing(text: str, cfg: ChunkerConfig) -> None:
    check(chunk_markdown(text, cfg, "doc", "sources/doc.md"), text, cfg)
