"""Hostile-input variants of the fifteenth pass (bench/HOSTILE.md): what landed on 2026-12-04 (component_headings,
custom elements under embedding_drop_components, docs-builder's anchors, Hugo shortcodes read in parts of a page,
Home Assistant's term tags) at sizes and shapes that could make their scans superlinear: a tag name no '>' ends,
nested component headings, huge attributes, anchors and shortcode pairs by the thousand, on both parse paths
(registered in hostile_base.V). ``extra["options"]``: one-line options in place of the checkout's config's."""

from __future__ import annotations

from collections.abc import Callable

from hostile_base import add

HEADS = "component_headings: {Recap: '## Recap', Challenges: '## Try out some challenges'}\n"
DROPS = "embedding_drop_components: true\nembedding_drop_heading_ids: true\nembedding_drop_template_tags: true\n"
PULLDOWN = "parser: pulldown-cmark\n"
F, L = "ZQX15FIRST", "ZQX15LAST"


def _scaled(make: Callable[[int], str]) -> Callable[[int], bytes]:
    return lambda n: make(n).encode("utf-8")


SIZES: list[tuple[str, Callable[[int], str], int, str, str]] = [
    ("heads15_long_name", lambda n: f"# T\n\n{F}\n\n<Recap" + "a" * n + f"\n\n{L}\n", 400_000, ".mdx", HEADS),
    ("heads15_long_name_md", lambda n: f"# T\n\n{F}\n\n<Recap" + "a" * n + f"\n\n{L}\n", 400_000, ".md", HEADS),
    (
        "heads15_long_name_pulldown",
        lambda n: f"# T\n\n{F}\n\n<Recap" + "a" * n + f"\n\n{L}\n",
        400_000,
        ".mdx",
        HEADS + PULLDOWN,
    ),
    (
        "heads15_blocks",
        lambda n: f"# T\n\n{F}\n\n" + "<Recap>\n\nThe recap.\n\n</Recap>\n\n" * n + f"{L}\n",
        20_000,
        ".mdx",
        HEADS + DROPS,
    ),
    (
        "heads15_nested",
        lambda n: f"# T\n\n{F}\n\n" + "<Challenges>\n\n" * n + "x\n\n" + "</Challenges>\n\n" * n + f"{L}\n",
        10_000,
        ".mdx",
        HEADS + DROPS,
    ),
    (
        "heads15_huge_attribute",
        lambda n: f'# T\n\n{F}\n\n<Recap a="' + "x" * n + f'">\n\ntext\n\n</Recap>\n\n{L}\n',
        400_000,
        ".mdx",
        HEADS + DROPS,
    ),
    (
        "heads15_in_lists_quotes",
        lambda n: (
            f"# T\n\n{F}\n\n" + "- <Recap>\n\n  text\n\n> <Recap>\n>\n> text\n\n| <Recap> | a |\n|--|--|\n\n" * n + L
        ),
        8_000,
        ".mdx",
        HEADS + DROPS,
    ),
    (
        "custom15_tags",
        lambda n: f"# T\n\n{F}\n\n" + 'a <deno-tab value="x" label="P">b</deno-tab>\n\n' * n + f"{L}\n",
        20_000,
        ".md",
        DROPS,
    ),
    ("custom15_hyphen_run", lambda n: f"# T\n\n{F} <a" + "-a" * n + f"\n\n{L}\n", 200_000, ".md", DROPS),
    ("custom15_many_lt", lambda n: f"# T\n\n{F} " + "<a-" * n + f"\n\n{L}\n", 100_000, ".md", DROPS),
    (
        "anchors15_lines",
        lambda n: f"# T\n\n{F}\n\n" + "$$$faq-cost$$$Is it?\n\n## H $$$a-b$$$ [ec-a]\n\n" * n + f"{L}\n",
        10_000,
        ".md",
        DROPS,
    ),
    ("anchors15_dollar_run", lambda n: f"# T\n\n{F}\n\n" + "$$$" * n + f"\n\n{L}\n", 100_000, ".md", DROPS),
    (
        "anchors15_heading_brackets",
        lambda n: f"# T\n\n{F}\n\n## H " + "[a-b] " * n + f"\n\n{L}\n",
        50_000,
        ".md",
        DROPS,
    ),
    (
        "hugo15_pairs_sections",
        lambda n: (
            f"{{{{< x >}}}}\n\n{F}\n\n"
            + "".join(f"## S{i}\n\n{{{{< x >}}}}\nThe quick brown fox.\n{{{{< /x >}}}}\n\n" for i in range(n))
            + f"{L}\n"
        ),
        8_000,
        ".md",
        DROPS,
    ),
    (
        "hugo15_pairs_sections_pulldown",
        lambda n: (
            f"{{{{< x >}}}}\n\n{F}\n\n"
            + "".join(f"## S{i}\n\n{{{{< x >}}}}\nThe quick brown fox.\n{{{{< /x >}}}}\n\n" for i in range(n))
            + f"{L}\n"
        ),
        8_000,
        ".md",
        DROPS + PULLDOWN,
    ),
    (
        "deflist15_fenced_items",
        lambda n: f"# T\n\n{F}\n\n" + "term\n:   text of it\n\n    ```yaml\n    x: 1\n    ```\n\n" * n + f"{L}\n",
        20_000,
        ".md",
        DROPS,
    ),
    (
        "liquid15_terms",
        lambda n: f"# T\n\n{F}\n\n" + 'your {% term "`a.yaml`" %} file {% term x %}\n' * n + f"\n{L}\n",
        20_000,
        ".md",
        DROPS,
    ),
]
for name, make, n, ext, options in SIZES:
    add(
        name,
        "size",
        (lambda make=make, n=n: make(n).encode("utf-8")),
        ext=ext,
        expect="ok",
        sentinels=(F, L),
        timeout=60,
        scale=_scaled(make),
        extra={"n": str(n), "options": options},
    )
