"""Pieces of containers nested in containers, and of lists in them, start at lines, never inside one.

The shapes come from MkDocs Material and VitePress sites (Knative's docs, Vite's guide): an
admonition inside a content tab, a ``::: code-group`` inside a ``:::: details``, a numbered list
inside a tab (its items indented by the tab's four columns). Cut like text, such a piece started
inside an admonition's title line (``!!!`` / ``Success "Expected output"``: a ``rendering-changed``
error) or inside a line of code (``mv kn-quickstart`` / ``/usr/local/bin``).
"""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.models import Block, Chunk
from chunker.pack import openers
from chunker.pack.strength import JOINT, NESTED_ITEM, Unit
from chunker.pipeline import chunk_markdown

SMALL = ChunkerConfig(max_chars=400, target_chars=300, min_chars=60)

TAB_WITH_ADMONITION = (
    "# Traffic splitting\n\n"
    "## View existing Revisions\n\n"
    "You can view a list of existing Revisions by using the Knative (`kn`) or `kubectl` CLI:\n\n"
    '=== "kn"\n'
    "    View a list of revisions by running the command:\n"
    "    ```bash\n"
    "    kn revisions list\n"
    "    ```\n"
    '    !!! Success "Expected output"\n'
    "        ```{ .bash .no-copy }\n"
    "        NAME            SERVICE   TRAFFIC   TAGS   GENERATION   AGE   CONDITIONS   READY   REASON\n"
    "        hello-00002     hello     100%             2            30s   3 OK / 4     True\n"
    "        hello-00001     hello                      1            5m    3 OK / 4     True\n"
    "        ```\n\n"
    '=== "kubectl"\n'
    "    View a list of Revisions by running the command:\n"
    "    ```bash\n"
    "    kubectl get revisions\n"
    "    ```\n"
)

CODE_GROUP_IN_DETAILS = (
    "# Getting Started\n\n"
    "## Scaffolding Your First Vite Project\n\n"
    ":::: details Using create vite with command line options\n"
    "::: code-group\n\n"
    "```bash [npm]\n"
    "# npm 7+, extra double-dash is needed:\n"
    "$ npm create vite@latest my-vue-app -- --template vue\n"
    "```\n\n"
    "```bash [Yarn]\n"
    "$ yarn create vite my-vue-app --template vue\n"
    "```\n\n"
    "```bash [pnpm]\n"
    "$ pnpm create vite my-vue-app --template vue\n"
    "```\n\n"
    "```bash [Bun]\n"
    "$ bun create vite my-vue-app --template vue\n"
    "```\n\n"
    "```bash [Deno]\n"
    "$ deno init --npm vite my-vue-app --template vue\n"
    "```\n\n"
    ":::\n\n"
    "See the template list for more details on each supported template.\n\n"
    "::::\n"
)

LIST_IN_TAB = (
    "# quickstart-install\n\n"
    "## Install the Knative quickstart plugin\n\n"
    '=== "Using a binary"\n\n'
    "    1. Download the binary for your system from the [`quickstart` release page]"
    "(https://github.com/knative-extensions/kn-plugin-quickstart/releases){target=_blank}.\n\n"
    "    1. Rename the file to remove the OS and architecture information. For example, rename "
    "`kn-quickstart-amd64` to `kn-quickstart`.\n\n"
    "    1. Make the plugin executable. For example, `chmod +x kn-quickstart`.\n\n"
    "    1. Move the executable binary file to a directory on your `PATH` by running the command:\n\n"
    "        ```bash\n"
    "        mv kn-quickstart /usr/local/bin\n"
    "        ```\n\n"
    "    1. Verify that the plugin is working by running the command:\n\n"
    "        ```bash\n"
    "        kn quickstart --help\n"
    "        ```\n"
)


def pieces(text: str, cfg: ChunkerConfig = SMALL) -> list[Chunk]:
    result = chunk_markdown(text, cfg, "d", "d.md")
    assert not result.diagnostics.errors, result.diagnostics.errors
    return list(result.chunks)


def starts_at_line(text: str, chunk: Chunk) -> bool:
    """Whether the chunk's slice starts at its line's text: only indentation before it."""
    line_start = text.rfind("\n", 0, chunk.start_offset) + 1
    return not text[line_start : chunk.start_offset].strip()


def test_an_admonition_in_a_content_tab_is_cut_before_its_lines_not_inside_its_title() -> None:
    out = pieces(TAB_WITH_ADMONITION)
    assert len(out) > 2
    for chunk in out:
        assert starts_at_line(TAB_WITH_ADMONITION, chunk), chunk.content_original
        assert not chunk.content_original.rstrip().endswith("!!!"), chunk.content_original
    rows = [c for c in out if "hello-00001" in c.content_original]
    assert len(rows) == 1 and "hello-00001     hello                      1            5m" in rows[0].content_original
    assert rows[0].content_original.startswith('=== "kn"\n    !!! Success "Expected output"\n')


def test_a_code_group_in_details_is_cut_between_its_code_lines() -> None:
    out = pieces(CODE_GROUP_IN_DETAILS)
    assert len(out) > 1
    for chunk in out:
        assert starts_at_line(CODE_GROUP_IN_DETAILS, chunk), chunk.content_original
    commands = [line for line in CODE_GROUP_IN_DETAILS.split("\n") if line.startswith("$ ")]
    for command in commands:  # every command line whole in one chunk
        assert sum(command in c.content_original for c in out) == 1, command


def test_a_list_in_a_content_tab_is_cut_between_its_items_and_keeps_its_code_lines_whole() -> None:
    out = pieces(LIST_IN_TAB)
    assert len(out) > 1
    for chunk in out:
        assert starts_at_line(LIST_IN_TAB, chunk), chunk.content_original
        assert not chunk.content_original.rstrip().endswith("running the command:"), chunk.content_original
    assert sum("mv kn-quickstart /usr/local/bin" in c.content_original for c in out) == 1
    # no item is cut at a sentence: each 'For example' stays with the sentence before it
    for sentence in ("Rename the file", "Make the plugin executable"):
        holder = [c for c in out if sentence in c.content_original]
        assert len(holder) == 1 and "For example" in holder[0].content_original.split(sentence, 1)[1]


def _list_units(source: str, starts: list[int]) -> list[Unit]:
    block = Block(
        id="blk_0001",
        kind="list",
        start_offset=0,
        end_offset=len(source),
        start_line=1,
        end_line=source.count("\n") + 1,
        header_path=(),
        atomic=True,
        source=source,
    )
    ends = [source.find("\n", s) for s in starts]
    return [
        Unit(start=s, end=e, block=block, strength=NESTED_ITEM if k else JOINT, first=not k, last=k == len(starts) - 1)
        for k, (s, e) in enumerate(zip(starts, ends, strict=True))
    ]


def test_a_nested_item_is_no_opener_of_its_sibling() -> None:
    # a piece of a nested item starts at its text ('- b'), past the indentation: its sibling ('- c',
    # as deep) is not nested in it, so it may end a chunk; its parent ('- a') opens its first child
    source = "- a parent item\n  - b nested item\n  - c nested item\n"
    units = _list_units(source, [0, source.index("- b"), source.index("- c")])
    assert openers.opener(units, 0, source)
    assert not openers.opener(units, 1, source)
    deeper = "- a parent item\n  - b nested item\n    - c nested deeper\n"
    units = _list_units(deeper, [0, deeper.index("- b"), deeper.index("- c")])
    assert openers.opener(units, 1, deeper)


# -- title lines and attribute lists are never cut ------------------------------------------------

ADMONITION_AFTER_CODE = (
    "# Deploying a Knative Service\n\n"
    '=== "YAML"\n\n'
    "    1. Deploy the Knative Service by running the command:\n\n"
    "        ```bash\n"
    "        kubectl apply -f hello.yaml\n"
    "        ```\n"
    '        !!! Success "Expected output"\n'
    "            ```{ .bash .no-copy }\n"
    "            service.serving.knative.dev/hello created\n"
    "            ```\n"
)


def test_an_admonition_right_after_code_in_a_list_item_is_not_cut_inside_its_title() -> None:
    cfg = ChunkerConfig(max_chars=150, target_chars=110, min_chars=30)
    out = pieces(ADMONITION_AFTER_CODE, cfg)
    assert len(out) > 2
    for chunk in out:
        own = chunk.content_original
        assert not own.rstrip().endswith("!!!"), own
        assert not own.split("\n")[-1].lstrip().startswith('Success "'), own


def test_a_link_keeps_the_attribute_list_after_it() -> None:
    link = (
        "[Go to Lesson 1 - Send Review Comment to Broker :fontawesome-solid-paper-plane:]"
        "(../page-1/send-review-comment-to-broker.md){ .md-button .md-button--primary }"
    )
    text = "# Environment Setup\n\n## Next Step\n\n" + link + "\n"
    out = pieces(text, ChunkerConfig(max_chars=150, target_chars=110, min_chars=30))
    holders = [c for c in out if "md-button" in c.content_original]
    assert len(holders) == 1 and link in holders[0].content_original


def test_a_myst_comment_line_in_a_container_is_not_cut() -> None:
    # MyST (Jupyter Book): a '% comment' line cut inside leaves its tail a paragraph
    comment = "% A figure of a photograph of some mountains, followed by a caption"
    text = (
        "# Create content\n\n"
        "::::{tab-item} Figures\n\n"
        "Sometimes when reading it is helpful to foster a tranquil environment, and a figure helps.\n\n"
        + comment
        + "\n:::{figure} https://github.com/rowanc1/pics/blob/main/mountains.png?raw=true\n"
        ":label: fig:mountains\n\n"
        "A photograph of some beautiful mountains to look at whilst reading.\n"
        ":::\n\n"
        "::::\n"
    )
    out = pieces(text, ChunkerConfig(max_chars=100, target_chars=75, min_chars=20))
    assert sum(comment in c.content_original for c in out) == 1


# -- quotes holding code ----------------------------------------------------------------------------

QUOTE_WITH_CODE = (
    "# Prettier 1.8\n\n## Markdown Support\n\n"
    "> Some renderers add spaces between lines of CJK text, so use a filter to remove additional spaces.\n"
    ">\n"
    "> ```\n"
    "> // Source\n"
    "> 一二三\n"
    "> 四五六\n"
    "> 七八九\n"
    ">\n"
    "> // Rendered content with unsupported renderer\n"
    "> 一二三 四五六 七八九\n"
    ">\n"
    "> // Rendered content with supported renderer or via plugin\n"
    "> 一二三四五六七八九\n"
    "> ```\n"
    ">\n"
    "> The filter keeps the text as it was written, line breaks aside, in every renderer we tried.\n"
)


def test_a_quote_holding_code_is_cut_between_its_lines() -> None:
    out = pieces(QUOTE_WITH_CODE, ChunkerConfig(max_chars=200, target_chars=150, min_chars=30))
    assert len(out) > 1
    for chunk in out:
        assert starts_at_line(QUOTE_WITH_CODE, chunk), chunk.content_original
    for line in QUOTE_WITH_CODE.split("\n"):
        if line.startswith("> //"):
            assert sum(line in c.content_original for c in out) == 1, line


@pytest.mark.parametrize("marker", ["> ", "  "])
def test_a_tag_line_in_a_quote_or_list_item_sticks_to_what_follows_it(marker: str) -> None:
    # the Rust book: '<Listing file-name="src/main.rs">' (a '/' in an attribute value) opens the listing
    lead = "> " if marker == "> " else "- "
    code = "\n".join(f"{marker}    field_{i}: u64," for i in range(12))
    text = (
        "# Structs\n\n## Ownership\n\n"
        + lead
        + "It is also possible for structs to store references to data owned by something else, but "
        "to do so requires the use of lifetimes. Let us say you try to store a reference:\n"
        f"{marker.rstrip()}\n"
        f'{marker}<Listing file-name="src/main.rs">\n'
        f"{marker.rstrip()}\n"
        f"{marker}```rust\n{marker}struct User {{\n" + code + f"\n{marker}}}\n{marker}```\n{marker.rstrip()}\n"
        f"{marker}</Listing>\n"
    )
    out = pieces(text, ChunkerConfig(max_chars=400, target_chars=300, min_chars=30))
    assert len(out) > 1
    for chunk in out:
        lines = [line for line in chunk.content_original.split("\n") if line.strip(" >")]
        assert not lines[-1].lstrip(" >").startswith("<Listing"), chunk.content_original


@pytest.mark.parametrize("heading", ["> Alpha beta gamma delta.\n>   -", "> ## Alpha beta gamma delta."])
def test_a_piece_inside_a_container_nested_in_a_quote_closes_it_with_the_quotes_marker(heading: str) -> None:
    words = " ".join(["word"] * 12)
    text = (
        f"# T\n\n:::tip\nIntro {words}.\n\n> :::details More\n> {words} first.\n>\n{heading}\n>\n"
        f"> {words} more.\n>\n> {words} end.\n> :::\n:::\n"
    )
    result = chunk_markdown(text, ChunkerConfig(max_chars=120, target_chars=60, min_chars=1), "d", "d.md")
    assert [d.code for d in result.diagnostics.diagnostics] == []
    held = next(c for c in result.chunks if "Alpha" in c.content_original)
    assert held.content_original.endswith("\n> :::\n:::")
