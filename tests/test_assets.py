"""The assets of a chunk: images and linked local files, with line, resolved path and existence."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown

CFG = replace(ChunkerConfig(), min_chars=1, merge_short=False)

PAGE = """# Guide

![Logo](img/logo.png "The logo") and <img src="img/missing.svg" alt="Diagram" title="Flow">.

## Files

Get [the PDF](../files/manual.pdf#page=2) or read [setup](setup.md); see [site](https://example.com),
[anchor](#files) and ![remote](https://example.com/x.png).

![Ref image][shot]

```md
![not an asset](img/in-code.png)
```

Inline `![nor this](img/span.png)` either.

[shot]: <img/screen shot.png> "Screen"
"""


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sources" / "docs" / "img").mkdir(parents=True)
    (tmp_path / "sources" / "docs" / "img" / "logo.png").write_bytes(b"png")
    (tmp_path / "sources" / "files").mkdir()
    (tmp_path / "sources" / "files" / "manual.pdf").write_bytes(b"%PDF")
    return tmp_path


def test_images_links_and_references_are_listed_per_chunk_with_resolved_paths(site: Path) -> None:
    result = chunk_markdown(PAGE, CFG, "docs/guide", "sources/docs/guide.md")
    first, files = result.chunks[0], result.chunks[-1]
    assert [a.to_dict() for a in first.assets] == [
        {
            "kind": "image",
            "src": "img/logo.png",
            "alt": "Logo",
            "title": "The logo",
            "line": 3,
            "path": "sources/docs/img/logo.png",
            "exists": True,
        },
        {
            "kind": "image",
            "src": "img/missing.svg",
            "alt": "Diagram",
            "title": "Flow",
            "line": 3,
            "path": "sources/docs/img/missing.svg",
            "exists": False,
        },
    ]
    found = [(a.kind, a.src, a.line, a.path, a.exists) for a in files.assets]
    assert found == [
        ("link", "../files/manual.pdf#page=2", 7, "sources/files/manual.pdf", True),
        ("link", "setup.md", 7, "sources/docs/setup.md", False),
        ("image", "https://example.com/x.png", 8, None, None),
        ("image", "img/screen shot.png", 10, "sources/docs/img/screen shot.png", False),
    ]
    assert files.assets[-1].title == "Screen" and files.assets[-1].alt == "Ref image"


def test_references_inside_code_are_not_assets_and_content_is_untouched(site: Path) -> None:
    result = chunk_markdown(PAGE, CFG, "docs/guide", "sources/docs/guide.md")
    srcs = [a.src for c in result.chunks for a in c.assets]
    assert "img/in-code.png" not in srcs and "img/span.png" not in srcs
    assert "".join(c.content_original for c in result.chunks).count("![") == PAGE.count("![")


def test_code_spans_in_alt_texts_and_titles_are_kept_as_written(site: Path) -> None:
    page = (
        "# Guide\n\n"
        "- [Should I use `useState` or `useReducer`?](faq/state.md#hooks)\n"
        '- ![The `x` axis][plot] and ![a `b` c](img/logo.png "the `b` title")\n'
        '- <img src="img/logo.png" alt="run `make`"> but not `[this](in-span.md)`\n\n'
        "[plot]: img/plot.png\n"
    )
    result = chunk_markdown(page, CFG, "docs/guide", "sources/docs/guide.md")
    found = [(a.src, a.alt, a.title) for c in result.chunks for a in c.assets]
    assert found == [
        ("faq/state.md#hooks", "Should I use `useState` or `useReducer`?", ""),
        ("img/logo.png", "a `b` c", "the `b` title"),
        ("img/plot.png", "The `x` axis", ""),
        ("img/logo.png", "run `make`", ""),
    ]


def test_a_chunk_without_references_has_no_assets_and_the_field_is_in_chunks_json() -> None:
    result = chunk_markdown("# T\n\nPlain text.\n", CFG, "t", "t.md")
    assert result.chunks[0].assets == () and result.chunks[0].to_dict()["assets"] == []


def test_a_hostile_line_of_brackets_is_scanned_in_linear_time() -> None:
    text = "# T\n\n" + "![[](" * 20_000 + "\n\n" + "[a](" * 20_000 + "\n"
    result = chunk_markdown(text, CFG, "t", "t.md")
    assert all(a.kind in ("image", "link") for c in result.chunks for a in c.assets)


_DEFINITION_PIECES = [
    "[a]: ",
    "[b]:",
    "[A  a]: ",
    "]:",
    "[",
    "]",
    "x.png",
    "<y z.png>",
    ' "t"',
    " 't'",
    " (p)",
    "\n",
    "   ",
    "    ",
    "\t",
    " ",
    "text",
    "\n\n",
]


@pytest.mark.parametrize("seed", range(40))
def test_the_definitions_are_those_of_the_pattern_searched_through_the_text(seed: int) -> None:
    """definitions() tries only lines holding ']:', from their start: the same definitions, in the
    same order, as the definition pattern searched through the whole text."""
    import random

    from chunker.assets import _DEFINITION, _label, definitions

    rng = random.Random(seed)
    for _ in range(300):
        text = "".join(rng.choice(_DEFINITION_PIECES) for _ in range(rng.randint(0, 25)))
        expected: dict[str, tuple[str, str]] = {}
        for m in _DEFINITION.finditer(text):
            expected.setdefault(
                _label(m.group(1)), (m.group(2) or m.group(3) or "", m.group(4) or m.group(5) or m.group(6) or "")
            )
        found = definitions(text)
        assert list(found.items()) == list(expected.items()), text


_LINK_PIECES = [
    "!",
    "[",
    "]",
    "(",
    ")",
    "](",
    "![",
    "a",
    "b.png",
    " ",
    '"t"',
    "<",
    ">",
    "\\",
    "`",
    "[x]",
    "http://h/",
    "#f",
]


@pytest.mark.parametrize("seed", range(40))
def test_links_and_images_are_those_of_a_pattern_that_matches_the_bang(seed: int) -> None:
    """The link pattern starts at '[' and an image is a link with '!' before it: the same matches,
    kinds and groups as a pattern with '(!?)' at its start."""
    import random
    import re

    from chunker.assets import _INLINE, _TARGET, _TITLE

    bang = re.compile(
        r"(!?)\[((?:[^\[\]\n\\]|\\.|\[[^\[\]\n]*\])*)\]\([ \t]*(?:" + _TARGET + r")" + _TITLE + r"[ \t]*\)"
    )
    rng = random.Random(seed)
    for _ in range(300):
        text = "".join(rng.choice(_LINK_PIECES) for _ in range(rng.randint(0, 30)))
        expected = [(m.group(1) == "!", m.end(), m.groups()[1:]) for m in bang.finditer(text)]
        found = [(m.start() > 0 and text[m.start() - 1] == "!", m.end(), m.groups()) for m in _INLINE.finditer(text)]
        assert found == expected, text


def test_assets_of_an_object_store_source_are_uris_of_that_store_not_looked_up() -> None:
    # chunker batch --sources s3://bucket/docs: the document's folder is a URI, whose "//" a path
    # normalisation made "s3:/bucket/..."; a local lookup of it says every asset is missing
    page = "# Guide\n\n![Logo](img/logo.png) and [setup](../setup.md) and ![top](/static/a.png).\n"
    result = chunk_markdown(page, CFG, "docs/guide", "s3://bucket/docs/guide.md")
    assert [(a.path, a.exists) for a in result.chunks[0].assets] == [
        ("s3://bucket/docs/img/logo.png", None),
        ("s3://bucket/setup.md", None),
        ("s3://bucket/static/a.png", None),
    ]


def test_site_absolute_links_resolve_against_the_sources_folder_and_pages_need_no_extension(site: Path) -> None:
    # react.dev links its pages as '/reference/react/useState' (reference/react/useState.md), Deno as
    # '/runtime/fundamentals/' (a folder): every one was looked up from the working directory, without extension,
    # and missing (1,894 of react.dev's links); '/' was the working directory itself
    (site / "sources" / "docs" / "setup.md").write_text("# Setup\n", encoding="utf-8")
    (site / "img").mkdir()
    (site / "img" / "logo.png").write_bytes(b"png")  # in the working directory, not in the sources folder
    page = (
        "# Guide\n\n![Logo](/docs/img/logo.png), [setup](/docs/setup#install), [setup](setup), [files](/files/),"
        " [no page](/docs/nothing), ![cwd](/img/logo.png).\n"
    )
    result = chunk_markdown(page, CFG, "docs/guide", "sources/docs/guide.md")
    assert [(a.src, a.path, a.exists) for a in result.chunks[0].assets] == [
        ("/docs/img/logo.png", "sources/docs/img/logo.png", True),
        ("/docs/setup#install", "sources/docs/setup", True),
        ("setup", "sources/docs/setup", True),
        ("/files/", "sources/files", True),
        ("/docs/nothing", "sources/docs/nothing", False),
        ("/img/logo.png", "sources/img/logo.png", False),
    ]
