"""Microsoft Learn pages (docfx): its ``:::`` directives are lines of text, not containers left open.

``:::code language="csharp" source="..." range="44-58":::`` (a code sample included from a file),
``:::image ...:::``, ``:::row:::`` and ``::: zone pivot="x"`` ... ``::: zone-end`` look like the opening
line of a ``:::`` container that nothing closes. Read as one, each swallowed the blocks after it up to
the next heading (kept whole, its pieces re-opening the directive) and gave a ``container-unclosed``
warning: 10 of them on the PowerShell docs (3,096 pages)."""

from __future__ import annotations

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = ChunkerConfig()

PAGE = """# Adding parameters

This input parameter lets the user name the processes to stop.

{directive}

```vb
Public Property Name() As String()
```

Note also that the alias "ProcessName" is given to this parameter.

## Next steps

Read on.
"""


def _blocks(text: str) -> list[tuple[str, int, int]]:
    return [(b.kind, b.start_line, b.end_line) for b in chunk_markdown(text, CFG, "p", "p.md").blocks]


def _codes(text: str) -> list[str]:
    return [d.code for d in chunk_markdown(text, CFG, "p", "p.md").diagnostics.diagnostics]


@pytest.mark.parametrize(
    "directive",
    [
        ':::code language="csharp" source="~/../samples/StopProcessSample04.cs" range="44-58":::',
        ':::image type="content" source="media/overview.png" alt-text="The overview page.":::',
        ":::row:::",
        '::: zone pivot="windows"',
        "::: zone-end",
        '::: moniker range=">=powershell-7.4"',
    ],
)
def test_a_docfx_directive_is_a_line_of_text(directive: str) -> None:
    text = PAGE.format(directive=directive)
    assert _codes(text) == []
    assert _blocks(text) == [
        ("heading", 1, 1),
        ("paragraph", 3, 3),
        ("paragraph", 5, 5),
        ("code", 7, 9),
        ("paragraph", 11, 11),
        ("heading", 13, 13),
        ("paragraph", 15, 15),
    ]


def test_a_zone_keeps_its_markdown_and_its_headings() -> None:
    text = '::: zone pivot="windows"\n\n## Install\n\nRun the installer.\n\n::: zone-end\n'
    assert _codes(text) == []
    # the zone's opening line goes with the heading it opens (test_docfx_tabs.py), its closing line is text
    assert _blocks(text) == [("heading", 1, 3), ("paragraph", 5, 5), ("paragraph", 7, 7)]


def test_closed_containers_and_unclosed_ones_of_other_names_are_unchanged() -> None:
    assert _blocks("::: tip Title:::\nbody\n:::\n") == [("container", 1, 3)]
    assert "container-unclosed" in _codes("::: tip\nbody\n\n## Next\n\nx\n")
    assert "container-unclosed" in _codes("::: zoned\nbody\n\n## Next\n\nx\n")


@pytest.mark.parametrize("end", [":::image-end:::", "::: image-end :::"])
def test_a_complex_image_whose_first_line_does_not_end_in_colons_is_text(end: str) -> None:
    # cpp-docs' clang-support-msbuild.md and cmake-projects-in-visual-studio.md: the long description's image
    # written without the ':::' that ends its first line; read as a ':::' container it was left open up to the
    # next heading (a container-unclosed warning)
    text = (
        '# Clang\n\n:::image type="complex" source="media/clang.png" alt-text="Screenshot of the installer."\n'
        f"The Individual components tab is selected in the installer.\n{end}\n\nMore text.\n\n## Next\n\nx\n"
    )
    assert _codes(text) == []
    assert _blocks(text) == [
        ("heading", 1, 1),
        ("paragraph", 3, 5),
        ("paragraph", 7, 7),
        ("heading", 9, 9),
        ("paragraph", 11, 11),
    ]
    assert "container-unclosed" in _codes(text.replace(":::image type=", "::: tip type="))  # other names as before
