"""Hostile-input variants of the fourteenth pass (bench/HOSTILE.md): the syntax landed in the last two stops
(Pandoc's fenced divs, docfx directive lines) and the HTML blocks the packer reads, at sizes and shapes that made
their scans superlinear: a div's opening line of a word and a long colon run, pages of docfx and mkdocstrings
directive lines that nothing closes, HTML blocks of start tags that nothing ends (registered in hostile_base.V)."""

from __future__ import annotations

from collections.abc import Callable

from hostile_base import add


def _scaled(make: Callable[[int], str]) -> Callable[[int], bytes]:
    return lambda n: make(n).encode("utf-8")


SIZES: list[tuple[str, Callable[[int], str], int, str, tuple[str, ...]]] = [
    (
        "pandoc14_colon_run",
        lambda n: "# T\n\n::: {.note}\nZQX14FIRST\n:::\n\n::: a" + ":" * n + " !\n\nZQX14LAST\n",
        400_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "pandoc14_colon_run_qmd",
        lambda n: "# T\n\nZQX14FIRST\n\n::: a" + ":" * n + " !\n\nZQX14LAST\n",
        400_000,
        ".qmd",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "docfx14_moniker_paragraphs",
        lambda n: "# T\n\nZQX14FIRST\n\n" + 'text\n::: moniker-end\n::: moniker range="x"\n\n' * n + "ZQX14LAST\n",
        20_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "docfx14_zone_lines",
        lambda n: "# T\n\nZQX14FIRST\n" + '::: zone-end\n::: zone pivot="x"\n' * n + "\nZQX14LAST\n",
        20_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "mkdocstrings14_directives",
        lambda n: "# T\n\nZQX14FIRST\n\n" + "::: pkg.module.Name\n\n" * n + "ZQX14LAST\n",
        20_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "pandoc14_unrecorded_openings",
        lambda n: "# T\n\nZQX14FIRST\n\n" + "::: pkg.module\n```x`\n" * n + "\nZQX14LAST\n",
        20_000,
        ".qmd",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "html14_unended_start_tags",
        lambda n: "# T\n\nZQX14FIRST\n\n" + "<div\n" * n + "\nZQX14LAST\n",
        50_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "html14_unended_props",
        lambda n: "# T\n\nZQX14FIRST\n\n" + "<div b={\n" * n + "\nZQX14LAST\n",
        28_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "mdx14_unended_props",
        lambda n: "# T\n\nZQX14FIRST\n\n" + "<A b={\n" * n + "\nZQX14LAST\n",
        36_000,
        ".mdx",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
    (
        "html14_quoted_gt",
        lambda n: "# T\n\nZQX14FIRST\n\n" + "<x a='>'\n" * n + "\nZQX14LAST\n",
        28_000,
        ".md",
        ("ZQX14FIRST", "ZQX14LAST"),
    ),
]
for name, make, n, ext, sentinels in SIZES:
    add(
        name,
        "size",
        (lambda make=make, n=n: make(n).encode("utf-8")),
        ext=ext,
        expect="ok",
        sentinels=sentinels,
        timeout=60,
        scale=_scaled(make),
        extra={"n": str(n)},
    )
