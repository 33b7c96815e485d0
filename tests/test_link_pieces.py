"""Links and link reference definitions: a link or URL is never cut inside (one longer than max_chars is one
overflow piece), a piece of two or more links joins a neighbour when it fits, and definitions that fit with no
neighbour ride along with the chunk before without counting toward its size."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from chunker.config import ChunkerConfig
from chunker.models import ChunkingResult
from chunker.pipeline import chunk_markdown
from chunker.sentences import link_spans

CFG = ChunkerConfig()
_DEFINITION_LINE = re.compile(r"^\[[^\]]+\]: \S+$")


def _run(text: str, cfg: ChunkerConfig = CFG) -> ChunkingResult:
    return chunk_markdown(text, cfg, "d", "d.md")


def _words(n: int, stem: str) -> str:
    return " ".join(f"{stem}{i}" for i in range(n)) + "."


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < offset < end for start, end in spans)


def test_link_spans_cover_links_images_autolinks_and_urls() -> None:
    text = 'See [the guide (v2)](https://x.org/a_(b)/c "Title") and ![img](i.png), <https://y.org/z> or ftp://h/p.'
    spans = link_spans(text)
    shown = [text[a:b] for a, b in spans]
    assert shown == [
        '[the guide (v2)](https://x.org/a_(b)/c "Title")',
        "![img](i.png)",
        "https://y.org/z>",
        "ftp://h/p.",
    ]


def test_a_long_playground_link_is_one_overflow_piece_never_cut_inside() -> None:
    link = "[Versuchen Sie es auf dem Spielplatz](https://sfc.example.org/#" + "eyJBcHAudnVlIjoi" * 90 + ")"
    text = "# Doc\n\n## S\n\n" + _words(40, "alpha") + "\n\n" + link + "\n\n" + _words(30, "omega") + "\n"
    result = _run(text)
    holders = [c for c in result.chunks if "sfc.example.org" in c.content_original]
    assert len(holders) == 1
    assert link in holders[0].content_original and holders[0].is_overflow
    overflows = [d for d in result.diagnostics.diagnostics if d.code == "overflow"]
    assert len(overflows) == 1 and overflows[0].chunk_id == holders[0].chunk_id
    assert "link or URL" in overflows[0].message


_PIECE = st.one_of(
    st.builds(lambda n: _words(n, "w"), st.integers(1, 40)),
    st.builds(
        lambda t, n: f"[{t}](https://e.org/{'q' * n})", st.sampled_from(["Try it", "a b c", "x"]), st.integers(1, 900)
    ),
    st.builds(lambda n: "https://bare.example/" + "z" * n, st.integers(1, 900)),
)


@settings(max_examples=80, deadline=None)
@given(pieces=st.lists(_PIECE, min_size=1, max_size=12), max_chars=st.integers(120, 900), lines=st.booleans())
def test_no_cut_falls_inside_a_link_or_url(pieces: list[str], max_chars: int, lines: bool) -> None:
    body = ("\n" if lines else " ").join(pieces)
    text = "# Doc\n\n" + body + "\n"
    cfg = ChunkerConfig(max_chars=max_chars, target_chars=max_chars * 2 // 3, min_chars=20)
    result = _run(text, cfg)
    assert not result.diagnostics.errors
    spans = link_spans(text)
    for chunk in result.chunks:
        assert not _inside(chunk.start_offset, spans) and not _inside(chunk.end_offset, spans)


def test_two_links_alone_join_the_chunk_before_when_they_fit() -> None:
    links = "\n\n".join(f"[Try it in the Playground](https://play.example.org/#{k}{'ab' * 25})" for k in range(2))
    text = "# Doc\n\n## S\n\n" + _words(36, "alpha") + "\n\n" + links + "\n\n" + _words(70, "omega") + "\n"
    cfg = ChunkerConfig(max_chars=600, target_chars=260, min_chars=50)
    result = _run(text, cfg)
    assert not result.diagnostics.errors
    holder = next(c for c in result.chunks if "#0" in c.content_original)
    assert "#1" in holder.content_original and "alpha35." in holder.content_original


def test_link_definitions_too_long_for_a_neighbour_ride_along_without_counting() -> None:
    definitions = "".join(f"[link{i}]: https://example.com/{'x' * 60}/{i}\n" for i in range(11))
    text = "# Doc\n\n## S\n\n" + _words(110, "alpha") + "\n\n" + definitions + "\n## T\n\nThe end.\n"
    result = _run(text)
    assert not result.diagnostics.errors
    for chunk in result.chunks:
        lines = [line for line in chunk.content_original.split("\n") if line.strip()]
        assert not all(_DEFINITION_LINE.match(line) for line in lines)
    holder = next(c for c in result.chunks if "[link0]:" in c.content_original)
    assert "alpha109." in holder.content_original and "[link10]:" in holder.content_original
    assert "[link0]:" not in holder.content_for_embedding and "alpha109." in holder.content_for_embedding
    assert holder.size <= CFG.max_chars and not holder.is_overflow


def test_link_definitions_carried_without_counting_stay_bounded_per_chunk() -> None:
    definitions = "".join(f"[link{i}]: https://example.com/{'x' * 60}/{i}\n" for i in range(300))
    text = "# Doc\n\n## S\n\n" + _words(110, "alpha") + "\n\n" + definitions
    result = _run(text)
    assert not result.diagnostics.errors
    assert all(len(c.content_original) <= 3 * CFG.max_chars for c in result.chunks)
    assert all(c.size <= CFG.max_chars for c in result.chunks)
    assert "".join(c.content_original for c in result.chunks).count("[link") == 300


def test_a_definition_with_a_url_longer_than_max_chars_keeps_its_label() -> None:
    url = "https://www.typescriptlang.org/play?strictNullChecks=false#code/" + "JYWwDg9gTgLgBAJQ" * 75
    text = "# Doc\n\n## S\n\nExplore it in the [TypeScript playground][tsplay].\n\n[tsplay]: " + url + "\n"
    result = _run(text)
    holder = next(c for c in result.chunks if url in c.content_original)
    assert "[tsplay]: " + url in holder.content_original
    assert not any(c.content_original.rstrip().endswith("]:") for c in result.chunks)
