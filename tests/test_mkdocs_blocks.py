"""MkDocs pages (Python-Markdown with pymdownx and mkdocstrings) read as MkDocs reads them: an
admonition goes on past blank lines while its text is indented into its body, and a mkdocstrings
``::: package.module.Object`` line is a directive, not a container left open."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()

# the shape of pydantic's docs: code in a collapsible admonition, two blank lines between definitions
EXAMPLE = (
    "## Type hints\n\nText before the example.\n\n"
    '???+ example "Example - just type hints"\n'
    "    ```python\n"
    "    from typing import Literal\n\n"
    "    from pydantic import BaseModel\n\n\n"
    "    class Fruit(BaseModel):\n"
    "        name: str  # (1)!\n"
    "        color: Literal['red', 'green']  # (2)!\n\n\n"
    "    print(Fruit(name='Apple', color='red'))\n"
    "    ```\n\n"
    "    1. The `name` field is simply annotated with `str`.\n"
    "    2. The `Literal` type is used to enforce the colour.\n\n"
    '!!! tip "Learn more"\n    See the documentation on supported types.\n\n'
    "## Performance\n\nFast.\n"
)


def kinds(text: str, cfg: ChunkerConfig = CFG) -> list[tuple[str, int, int]]:
    result = chunk_markdown(text, cfg, "p", "p.md")
    return [(b.kind, b.start_line, b.end_line) for b in result.blocks]


def codes(text: str, cfg: ChunkerConfig = CFG) -> list[str]:
    return [d.code for d in chunk_markdown(text, cfg, "p", "p.md").diagnostics.diagnostics]


def test_an_admonition_goes_on_past_two_blank_lines_in_its_code() -> None:
    assert kinds(EXAMPLE) == [
        ("heading", 1, 1),
        ("paragraph", 3, 3),
        ("container", 5, 21),
        ("container", 23, 24),
        ("heading", 26, 26),
        ("paragraph", 28, 28),
    ]
    assert codes(EXAMPLE) == []


def test_a_split_admonition_re_opens_its_code_and_reports_no_unclosed_fence() -> None:
    cfg = replace(CFG, max_chars=300, target_chars=200, min_chars=20)
    result = chunk_markdown(EXAMPLE, cfg, "p", "p.md")
    assert "unclosed-fence" not in [d.code for d in result.diagnostics.diagnostics]
    assert not result.diagnostics.errors
    pieces = [c for c in result.chunks if "class Fruit" in c.content_original or "print(Fruit" in c.content_original]
    assert pieces and all(c.content_original.count("```") % 2 == 0 or c.added_lines for c in pieces)


def test_an_admonition_ends_at_a_line_not_indented_into_its_body() -> None:
    text = "!!! note\n    first\n\n\n\nnot in it\n\n    indented code\n"
    assert kinds(text) == [("container", 1, 2), ("paragraph", 6, 6), ("code", 8, 8)]


def test_blank_lines_then_text_indented_into_the_body_stay_in_the_admonition() -> None:
    text = "!!! note\n    first\n\n\n\n    second\n\nafter\n"
    assert kinds(text) == [("container", 1, 6), ("paragraph", 8, 8)]


def test_an_admonition_inside_a_list_item_keeps_its_body_past_blank_lines() -> None:
    text = "- item\n\n    !!! note\n        first\n\n\n        second\n\nafter\n"
    assert kinds(text) == [("list", 1, 7), ("paragraph", 9, 9)]


@pytest.mark.parametrize(
    "directive",
    ["::: fastapi.APIRouter", "::: pydantic_core", "::: pydantic.main.BaseModel"],
)
def test_a_mkdocstrings_directive_is_a_line_of_text_not_an_unclosed_container(directive: str) -> None:
    options = "    options:\n        members:\n            - websocket\n"
    text = f"# API\n\nIntro.\n\n{directive}\n{options}\nMore.\n\n## Next\n\nx\n"
    assert ("container", 5, 10) not in kinds(text)
    assert [k for k in kinds(text) if k[0] == "container"] == []
    assert codes(text) == []
    assert ("paragraph", 5, 8) in kinds(text)


@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
def test_a_plugin_directive_over_indented_options_is_a_line_of_text(parser: str) -> None:
    """mkdocs-click (MkDocs' own CLI page): ``::: mkdocs-click`` then indented ``:key: value`` options,
    never closed: the plugin's directive, not an unclosed container (a container-unclosed warning)."""
    text = "# CLI\n\n::: mkdocs-click\n    :module: mkdocs.__main__\n    :command: cli\n\n## Next\n\nx\n"
    result = chunk_markdown(text, replace(CFG, parser=parser), "cli", "cli.md")  # type: ignore[arg-type]
    assert [d.code for d in result.diagnostics.diagnostics] == []
    assert [(b.kind, b.start_line, b.end_line) for b in result.blocks][1] == ("paragraph", 3, 5)
    assert codes("::: tip\n    indented code\n\ntext\n") == ["container-unclosed"]  # no option line: a container


def test_a_closed_container_with_a_dotted_name_is_still_a_container() -> None:
    text = "::: v1.2\nbody\n:::\n\ntext\n"
    assert kinds(text) == [("container", 1, 3), ("paragraph", 5, 5)]


def test_an_unclosed_container_with_a_plain_name_is_still_reported() -> None:
    text = "::: tip\nbody\n\n## Next\n\nx\n"
    assert "container-unclosed" in codes(text)


def needs_pyromark() -> None:
    pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")


@pytest.mark.parametrize(
    "text",
    [
        EXAMPLE,
        "# API\n\n::: fastapi.APIRouter\n    options:\n        members: [a]\n\n## Next\n\nx\n",
        "| a | b |\n| --- -- | --- |\n| 1 | 2 |\n",  # no delimiter row in GFM: no table for either path
    ],
)
def test_the_pulldown_path_gives_the_same_chunks(text: str) -> None:
    needs_pyromark()
    fast = replace(CFG, parser="pulldown-cmark")
    ref = chunk_markdown(text, CFG, "p", "p.md")
    got = chunk_markdown(text, fast, "p", "p.md")
    assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]
    assert [(b.kind, b.start_line, b.end_line) for b in got.blocks] == [
        (b.kind, b.start_line, b.end_line) for b in ref.blocks
    ]


TABS = (
    "## Setup\n\nPick your language:\n\n"
    '=== "Python"\n\n    Install the package, then run:\n\n    ```python\n    import client\n\n\n'
    "    client.run()\n    ```\n\n"
    '===+ "Go"\n\n    ```go\n    client.Run()\n    ```\n\n'
    "After the tabs.\n"
)


def test_content_tabs_are_containers_with_their_title_line() -> None:
    assert kinds(TABS) == [
        ("heading", 1, 1),
        ("paragraph", 3, 3),
        ("container", 5, 14),
        ("container", 16, 20),
        ("paragraph", 22, 22),
    ]
    assert codes(TABS) == []


def test_a_piece_of_a_split_tab_re_opens_its_title_and_fence() -> None:
    body = "\n".join(f"    step_{i} = compute({i})  # the step {i} of the example" for i in range(30))
    text = f'# Install\n\n=== "Python"\n\n    ```python\n{body}\n    ```\n\nDone.\n'
    cfg = replace(CFG, max_chars=400, target_chars=300, min_chars=20)
    result = chunk_markdown(text, cfg, "p", "p.md")
    assert not result.diagnostics.errors and not result.diagnostics.warnings
    later = [c for c in result.chunks if c.start_line > 6 and "step_" in c.content_original]
    assert later
    for chunk in later:
        assert chunk.content_original.startswith('=== "Python"\n    ```python\n'), chunk.content_original[:60]


def test_a_tab_line_right_below_a_paragraph_line_continues_the_paragraph() -> None:
    # Python-Markdown starts a tab only as a block of its own (after a blank line)
    assert kinds('Text\n=== "A"\n    body\n') == [("paragraph", 1, 3)]


def test_the_pulldown_path_gives_the_same_chunks_for_tabs() -> None:
    needs_pyromark()
    fast = replace(CFG, parser="pulldown-cmark")
    for cfg_small in (CFG, replace(CFG, max_chars=200, target_chars=150, min_chars=20)):
        ref = chunk_markdown(TABS, cfg_small, "p", "p.md")
        got = chunk_markdown(
            TABS,
            replace(
                fast, max_chars=cfg_small.max_chars, target_chars=cfg_small.target_chars, min_chars=cfg_small.min_chars
            ),
            "p",
            "p.md",
        )
        assert [c.to_dict() for c in got.chunks] == [c.to_dict() for c in ref.chunks]


@pytest.mark.parametrize("line", ["====", "=== no quote", "===+"])
def test_a_line_of_equals_signs_without_a_quoted_title_is_no_tab(line: str) -> None:
    assert [k[0] for k in kinds(f"\n{line}\n    body\n")] == ["paragraph"]


@pytest.mark.parametrize("parser", ["markdown-it", "pulldown-cmark"])
@pytest.mark.parametrize(
    "text",
    [
        '---\ntitle: "textual"\n---\n\n\n::: textual\n',  # a page that is one module's reference
        "# API\n\n::: textual\n\n::: textual.app\n\n::: rich\n",
        "# API\n\n::: textual\n\n## Next\n\nx\n",
    ],
)
def test_a_one_word_mkdocstrings_directive_with_nothing_below_it_is_a_line_of_text(text: str, parser: str) -> None:
    if parser == "pulldown-cmark":
        pytest.importorskip("pyromark", reason="the pulldown-cmark path needs the 'fast' extra (pyromark)")
    result = chunk_markdown(text, replace(CFG, parser=parser), "api", "api.md")  # type: ignore[arg-type]
    assert [d.code for d in result.diagnostics.diagnostics] == []
    assert [b.kind for b in result.blocks if b.kind == "container"] == []
    assert "::: textual" in "".join(c.content_original for c in result.chunks)


def test_a_one_word_container_with_a_body_or_of_a_known_name_is_still_one() -> None:
    assert codes("# T\n\n::: textual\nSome text.\n") == ["container-unclosed"]  # a body: a container
    assert codes("# T\n\n::: tip\n\n## Next\n\nx\n") == ["container-unclosed"]  # empty, but a tip
    assert codes("# T\n\n::: Warning\n") == ["container-unclosed"]
    assert codes("# T\n\n::: textual\n:::\n") == []  # closed: a container
    assert kinds("# T\n\n::: textual\n:::\n")[1][0] == "container"
