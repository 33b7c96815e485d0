"""docfx (Microsoft Learn) pages: tab headings (``# [Bash](#tab/bash)`` ... ``---``) are tabs of the part they sit
in, not sections; the zone, moniker and layout directive lines that open a part stick to what they open."""

from __future__ import annotations

from dataclasses import replace

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()
SMALL = replace(CFG, max_chars=300, target_chars=200, min_chars=10)

# the shape of azure-docs-cli's tutorials: H1 tab headings under an H2, the group ended by '---'
TABS = (
    "# Populate variables\n\nIntro text.\n\n## Filter query results\n\nFilter with a query.\n\n"
    "# [Bash](#tab/bash)\n\n```azurecli\n# list the accounts\naz storage account list\n```\n\n"
    "# [PowerShell](#tab/powershell)\n\n```azurecli\n# list the accounts\naz storage account list\n```\n\n"
    "---\n\nAfter the tabs.\n\n## Next step\n\nText.\n"
)


def paths(text: str, cfg: ChunkerConfig = CFG) -> list[tuple[str, int, str]]:
    result = chunk_markdown(text, cfg, "p", "p.md")
    return [(b.kind, b.start_line, " > ".join(h.text for h in b.header_path)) for b in result.blocks]


def test_tab_headings_name_their_tab_under_the_heading_above_the_group() -> None:
    assert paths(TABS) == [
        ("heading", 1, "Populate variables"),
        ("paragraph", 3, "Populate variables"),
        ("heading", 5, "Populate variables > Filter query results"),
        ("paragraph", 7, "Populate variables > Filter query results"),
        ("heading", 9, "Populate variables > Filter query results > Bash"),
        ("code", 11, "Populate variables > Filter query results > Bash"),
        ("heading", 16, "Populate variables > Filter query results > PowerShell"),
        ("code", 18, "Populate variables > Filter query results > PowerShell"),
        ("thematic_break", 23, "Populate variables > Filter query results"),
        ("paragraph", 25, "Populate variables > Filter query results"),
        ("heading", 27, "Populate variables > Next step"),
        ("paragraph", 29, "Populate variables > Next step"),
    ]
    result = chunk_markdown(TABS, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics
    # the tabs are no sections: the H2 is every chunk's section, the H1 stays the title
    assert {c.section for c in result.chunks} == {"Populate variables", "Filter query results", "Next step"}
    for chunk in result.chunks:
        levels = [h.level for h in chunk.header_path]
        assert levels == sorted(levels) and all(1 <= level <= 6 for level in levels)


def test_the_pieces_of_a_tab_say_its_name_in_their_context_line() -> None:
    code = "```azurecli\n" + "".join(f"az storage account list --name account{i}\n" for i in range(5)) + "```\n\n"
    page = TABS.replace("```azurecli\n# list the accounts\naz storage account list\n```\n\n", code)
    result = chunk_markdown(page, SMALL, "p", "p.md")
    assert not result.diagnostics.diagnostics
    assert {c.section for c in result.chunks} == {"Populate variables", "Filter query results", "Next step"}
    tabs = [c for c in result.chunks if "az storage" in c.content_original]
    assert [c.header_path[-1].text for c in tabs] == ["Bash", "PowerShell"]
    for chunk, name in zip(tabs, ("Bash", "PowerShell"), strict=True):
        assert chunk.content_original.startswith(f"# [{name}](#tab/")  # a tab starts its chunk
        assert chunk.content_for_embedding.startswith("Populate variables > Filter query results\n")
    after = next(c for c in result.chunks if "After the tabs." in c.content_original)
    assert [h.text for h in after.header_path] == ["Populate variables", "Filter query results"]


def test_tabs_stay_below_the_section_level_and_never_title_a_page() -> None:
    page = "# Create a network\n\nText.\n\n# [Bash](#tab/bash)\n\nBash text.\n\n# [Cmd](#tab/cmd/linux)\n\nCmd text.\n"
    result = chunk_markdown(page, CFG, "p", "p.md")
    assert {c.section for c in result.chunks} == {"Create a network"}
    levels = {h.text: h.level for b in result.blocks for h in b.header_path}
    assert levels == {"Create a network": 1, "Bash": 3, "Cmd": 3}  # below section_level 2: no H2 made up
    # an include snippet of tabs only: titled by its file name, one section, not a section per tab
    snippet = chunk_markdown(page[page.index("# [Bash]") :], CFG, "includes/cli", "includes/cli.md")
    assert [c.section for c in snippet.chunks] == ["cli"]
    assert snippet.chunks[0].content_for_embedding.startswith("cli\n\n# [Bash](#tab/bash)")


def test_a_heading_above_the_tabs_ends_their_group_and_other_links_are_headings() -> None:
    page = (
        "## Install\n\n### [Linux](#tab/linux)\n\nL.\n\n#### Step one\n\nS.\n\n### [Windows](#tab/windows)\n\nW.\n\n"
        "## [Reference](#tab-list)\n\nR.\n\n# [Other](https://example.com/#tab/x)\n\nO.\n"
    )
    assert [p[2] for p in paths(page) if p[0] == "heading"] == [
        "Install",
        "Install > Linux",
        "Install > Linux > Step one",
        "Install > Windows",
        "Reference",
        "Other",
    ]


def test_a_heading_at_the_tabs_level_stays_in_its_tab() -> None:
    # azure-docs-cli's endpoints page: '### Endpoint suffixes' in each of the H3 tabs; docfx puts every block up
    # to the next tab heading in the tab, so the heading is the tab's, not the end of the group
    page = (
        "# Endpoints\n\n## Clouds\n\n### [Public](#tab/public)\n\nP.\n\n### Endpoint suffixes\n\nPS.\n\n"
        "#### Storage\n\nPSS.\n\n### [China](#tab/china)\n\nC.\n\n### Endpoint suffixes\n\nCS.\n\n---\n\n"
        "After.\n\n### Next\n\nN.\n"
    )
    assert [p[2] for p in paths(page) if p[0] in ("heading", "paragraph")] == [
        "Endpoints",
        "Endpoints > Clouds",
        "Endpoints > Clouds > Public",
        "Endpoints > Clouds > Public",
        "Endpoints > Clouds > Public > Endpoint suffixes",
        "Endpoints > Clouds > Public > Endpoint suffixes",
        "Endpoints > Clouds > Public > Endpoint suffixes > Storage",
        "Endpoints > Clouds > Public > Endpoint suffixes > Storage",
        "Endpoints > Clouds > China",
        "Endpoints > Clouds > China",
        "Endpoints > Clouds > China > Endpoint suffixes",
        "Endpoints > Clouds > China > Endpoint suffixes",
        "Endpoints > Clouds",  # the group ended by '---'
        "Endpoints > Clouds > Next",
        "Endpoints > Clouds > Next",
    ]
    result = chunk_markdown(page, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics
    assert {c.section for c in result.chunks} <= {"Endpoints", "Clouds"}  # no tab and no heading in one
    for chunk in result.chunks:
        levels = [h.level for h in chunk.header_path]
        assert levels == sorted(set(levels)) and all(1 <= level <= 6 for level in levels)


MONIKERS = (
    "# Tools\n\nIntro.\n\n## Editions\n\nAll editions.\n\n"
    '::: moniker range=">=msvc-160"\n\n## Visual Studio 2019\n\nNew text.\n\n::: moniker-end\n\n'
    '::: moniker range="<=msvc-150"\n\n## Visual Studio 2017\n\nOld text.\n\n::: moniker-end\n'
)


def test_a_directive_that_opens_a_part_goes_with_the_heading_below_it() -> None:
    result = chunk_markdown(MONIKERS, CFG, "p", "p.md")
    assert not result.diagnostics.diagnostics
    by_section = {c.section: c.content_original for c in result.chunks}
    assert by_section["Editions"] == "## Editions\n\nAll editions."  # no directive of the next part at its end
    assert by_section["Visual Studio 2019"].startswith('::: moniker range=">=msvc-160"\n\n## Visual Studio 2019')
    assert by_section["Visual Studio 2019"].endswith("New text.\n\n::: moniker-end")
    assert by_section["Visual Studio 2017"].startswith('::: moniker range="<=msvc-150"\n\n## Visual Studio 2017')


def test_directive_lines_stick_to_what_they_open_and_close_when_a_section_is_cut() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    page = (
        f'## Settings\n\n{words}.\n\n:::row:::\n:::column span="":::\n\n{words} again.\n\n'
        f":::column-end:::\n:::row-end:::\n\n{words} after.\n"
    )
    result = chunk_markdown(page, SMALL, "p", "p.md")
    assert not result.diagnostics.diagnostics
    for chunk in result.chunks:
        body = chunk.content_original
        assert not body.endswith(':::column span="":::'), body  # an opener never ends a chunk
        assert not body.startswith(":::column-end:::"), body  # a closer never starts one


def test_a_directive_that_opens_a_part_goes_with_it_when_written_under_text_or_a_closing_line() -> None:
    page = (
        "## Install\n\nPick a version.\n\n"
        '::: moniker range="=msvc-160"\n## Visual Studio 2019\n\nOld tools.\n::: moniker-end\n'
        '::: moniker range=">=msvc-170"\n## Visual Studio 2022\n\nNew tools.\n::: moniker-end\n\n'
        '## Locations\n\nWhere the files are.\n\n::: moniker range="=msvc-170"\n\nIn 2022.\n\n::: moniker-end\n'
        '::: moniker range="=msvc-160"\n\nIn 2019.\n\n::: moniker-end\n'
    )
    result = chunk_markdown(page, replace(CFG, max_chars=120, target_chars=60, min_chars=10), "p", "p.md")
    assert not result.diagnostics.diagnostics
    for chunk in result.chunks:
        body = chunk.content_original
        assert not body.rstrip().split("\n")[-1].startswith("::: moniker range"), body  # no part opened at its end
    by_section = {c.section: c.content_original for c in result.chunks}
    assert by_section["Visual Studio 2022"].startswith('::: moniker range=">=msvc-170"\n## Visual Studio 2022')
    assert by_section["Visual Studio 2019"].endswith("Old tools.\n::: moniker-end")
    assert any(c.content_original.startswith('::: moniker range="=msvc-160"\n\nIn 2019.') for c in result.chunks)
