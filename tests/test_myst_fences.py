"""MyST directive fences whose body is Markdown (```` ```{note} ````, ```` ```{admonition} Title ````,
```` ````{tip} ````): read as containers, as MyST renders them, so that their prose is packed, embedded
and cut as prose; a code directive's fence (```` ```{code-block} ````) stays code."""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.fences import fence_after
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=220, target_chars=140, min_chars=10)


def _words(count: int, stem: str) -> str:
    return " ".join(f"{stem}{i}" for i in range(count)) + "."


def _kinds(text: str) -> list[tuple[str, int, int]]:
    return [(b.kind, b.start_line, b.end_line) for b in chunk_markdown(text, CFG, "p", "p.md").blocks]


def test_a_directive_of_markdown_is_a_container_and_a_code_directive_stays_code() -> None:
    text = (
        "# Title\n\n```{note}\nA note with **bold**.\n\n- one\n- two\n```\n\n"
        "````{admonition} Careful here\n:class: tip\n\nBody.\n\n```python\nprint(1)\n```\n````\n\n"
        "```{code-block} python\nx = 1\n```\n\n```{literalinclude} a.py\n```\n"
    )
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics
    blocks = [(b.kind, b.start_line, b.end_line, b.frame) for b in result.blocks]
    assert blocks == [
        ("heading", 1, 1, None),
        ("container", 3, 8, ("```{note}", "```")),
        ("container", 10, 18, ("````{admonition} Careful here", "````")),
        ("code", 20, 22, None),
        ("code", 24, 25, None),
    ]


def test_a_heading_inside_a_directive_of_markdown_is_part_of_it() -> None:
    # mystmd's math.md: a dropdown note opening with a heading, its pieces re-opening the note
    text = "# Title\n\nIntro.\n\n```{note}\n:class: dropdown\n# Coming from Sphinx?\n\nText.\n```\n\nAfter.\n"
    result = chunk_markdown(text, CFG, "p", "p.md")
    assert [(b.kind, b.start_line) for b in result.blocks] == [
        ("heading", 1),
        ("paragraph", 3),
        ("container", 5),
        ("paragraph", 12),
    ]
    assert {c.section for c in result.chunks} == {"Title"}  # no section opened inside


def test_an_unclosed_directive_fence_stays_code_as_commonmark_reads_it() -> None:
    assert [k for k, _, _ in _kinds("Intro.\n\n```{note}\nText.\n\n## Next\n\nMore.\n")] == ["paragraph", "code"]


def test_a_split_admonition_is_cut_as_prose_with_its_title_and_item_leads() -> None:
    text = (
        "# Title\n\n## Install\n\n```{admonition} Before you install\n:class: warning\n\n"
        f"{_words(12, 'alpha')} {_words(12, 'beta')}\n\n"
        f"1. First step {_words(4, 'gamma')}\n\n   Second paragraph of step one {_words(16, 'delta')}\n\n"
        f"   Third paragraph of step one {_words(16, 'theta')}\n"
        f"2. Second step {_words(8, 'eps')}\n\nFinal words {_words(10, 'zeta')}\n```\n\nAfter.\n"
    )
    result = chunk_markdown(text, replace(CFG, max_chars=330, target_chars=150, min_chars=10), "p", "p.md")
    assert not result.diagnostics.diagnostics
    pieces = [c for c in result.chunks if "```{admonition}" in c.content_original]
    assert len(pieces) >= 4
    for chunk in pieces:
        body = chunk.content_original
        assert body.count("```{admonition} Before you install") == 1  # every piece says which callout it is
        assert body.split("\n").count("```") == 1  # closed once, by its closing line
        assert fence_after(body) is None
    # cut between sentences, as prose, not inside 'alpha11.' at a line's end as code pieces were
    alpha = next(c for c in pieces if "alpha0" in c.content_original)
    assert "beta0" not in alpha.content_original or "beta11." in alpha.content_original
    # a piece starting in step one's third paragraph embeds the step's lead
    theta = next(c for c in pieces if "theta0" in c.content_original)
    assert "1. First step gamma0" in theta.content_for_embedding
    assert "1. First step" not in theta.content_original


def test_a_code_fence_cut_inside_a_directive_is_closed_before_the_directive() -> None:
    code = "\n".join(f"  print('line {i} of the example')" for i in range(8))
    text = (
        f"# Title\n\n- item one with a tip:\n\n  ````{{tip}} A tip in a list\n  {_words(10, 'alpha')}\n\n"
        f"  ```python\n{code}\n  ```\n\n  {_words(10, 'omega')}\n  ````\n"
    )
    result = chunk_markdown(text, SMALL, "p", "p.md")
    assert not result.diagnostics.diagnostics
    for chunk in result.chunks:
        lines = chunk.content_original.rstrip().split("\n")
        assert lines[-1] == "  ````"
        if "print(" in chunk.content_original and "omega0" not in chunk.content_original:
            assert lines[-2] == "  ```"  # the code fence, then the directive


def test_what_a_directive_of_markdown_embeds_is_cleaned_as_markdown() -> None:
    text = (
        "# Title\n\n```{note}\n:class: dropdown\n(inside-target)=\nBody <!-- hidden --> text with a "
        '<Badge text="new" /> badge.\n```\n\n```{code-block} python\n:caption: An example\n(not-a-target)=\n'
        "x = 1  # <!-- kept -->\n```\n"
    )
    cfg = replace(CFG, skip_comments=True, embedding_drop_heading_ids=True, embedding_drop_components=True)
    (chunk,) = chunk_markdown(text, cfg, "p", "p.md").chunks
    embedded = chunk.content_for_embedding
    assert "```{note}\nBody  text with a new badge.\n```" in embedded
    assert ":class:" not in embedded and "(inside-target)=" not in embedded and "hidden" not in embedded
    assert "An example\n(not-a-target)=\nx = 1  # <!-- kept -->" in embedded  # code is left as it is
