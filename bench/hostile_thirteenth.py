"""Hostile-input variants of the thirteenth pass (bench/HOSTILE.md): the syntax landed in the last two stops at
sizes and shapes that make its scans superlinear. MDC openings after lines the closing-line search takes for a
code fence (a backtick in the info string, an indented run in a paragraph, a run in an HTML block), under both
parsers; headings of brackets; a ``.md`` page importing thousands of names it never uses; an indented MDC
component cut into pieces; and sizes of the MyST, Obsidian and GitBook constructs (registered in
hostile_base.V)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from hostile_base import add


def _options(options: str, name: str, ext: str, make: Callable[[], str]) -> Callable[[Path], None]:
    """A variant's setup: the checkout's ``config.yaml`` with ``options`` set, ``sources/NAME.EXT``."""

    def setup(w: Path) -> None:
        config = w / "config.yaml"
        text = config.read_text(encoding="utf-8")
        for line in options.splitlines():
            key = line.split(":", 1)[0]
            text = re.sub(rf"(?m)^{re.escape(key)}:.*$", line, text)
        config.write_text(text, encoding="utf-8")
        (w / "sources" / f"{name}{ext}").write_text(make(), encoding="utf-8")

    return setup


def _scaled(make: Callable[[int], str]) -> Callable[[int], bytes]:
    return lambda n: make(n).encode("utf-8")


def _mdc_after(fence_like: str) -> Callable[[int], str]:
    return lambda n: "# T\n\nZQX13FIRST\n\n" + f"::a\n{fence_like}\n" * n + "\nZQX13LAST\n"


_NAMES = ", ".join(f"N{i}x" for i in range(5_000))
_OPTIONS = "skip_comments: true\nembedding_drop_heading_ids: true\nembedding_drop_template_tags: true\n"

SIZES: list[tuple[str, Callable[[int], str], int, str, tuple[str, ...]]] = [
    ("mdc13_fence_info", _mdc_after("```x`"), 20_000, ".md", ("ZQX13FIRST", "ZQX13LAST")),
    ("mdc13_indented_run", _mdc_after("    ```"), 20_000, ".md", ("ZQX13FIRST", "ZQX13LAST")),
    ("mdc13_html_run", _mdc_after("<div>\n```\n</div>\n"), 10_000, ".md", ("ZQX13FIRST", "ZQX13LAST")),
    (
        "head13_brackets",
        lambda n: "".join(f"## {i} " + "[[" * 500 + "\n\nZQX13BR text\n\n" for i in range(n)) + "ZQX13BREND\n",
        5_000,
        ".md",
        ("ZQX13BR", "ZQX13BREND"),
    ),
    (
        "esm13_unused_names",
        lambda n: "# T\n\nimport { " + _NAMES + " } from 'x'\n\nZQX13ESM " + "{N <N " * n + "\n",
        200_000,
        ".md",
        ("ZQX13ESM",),
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

add(
    "mdc13_pulldown_fence_info",
    "mdx",
    setup=_options("parser: pulldown-cmark\n", "mdc13_pulldown_fence_info", ".md", lambda: _mdc_after("```x`")(20_000)),
    expect="ok",
    sentinels=("ZQX13FIRST", "ZQX13LAST"),
    timeout=60,
)

# an indented component cut into pieces at a small budget: each piece closes it at its own indentation
_CALLOUT = "  ::callout\n  ---\n  title: zeta\n  ---\n" + "".join(
    f"  ZQX13CO{i} paragraph with some words in it to fill the budget.\n\n" for i in range(40)
)
add(
    "mdc13_indented_pieces",
    "mdx",
    setup=_options(
        "max_chars: 200\ntarget_chars: 120\nmin_chars: 1\n",
        "mdc13_indented_pieces",
        ".md",
        lambda: "# T\n\n## S\n\n" + _CALLOUT + "  ::\n\n## Next\n\nZQX13NEXT text.\n",
    ),
    expect="ok",
    sentinels=("ZQX13CO0", "ZQX13CO39", "ZQX13NEXT"),
    timeout=60,
)

# the MyST, Obsidian and GitBook constructs of the last stops at size, under the options that read them
_API = "{% api-method " + 'a="b" ' * 100_000 + "%}\nZQX13API\n{% endapi-method %}\n"
for name, make, sentinel in [
    ("obs13_unclosed_comment", lambda: "# T\n\n%%\n\n" + "ZQX13OB para text.\n\n" * 50_000, "ZQX13OB"),
    ("obs13_inline_odd", lambda: "# T\n\nZQX13OI " + "a %% `b` c " * 50_000 + "\n", "ZQX13OI"),
    ("myst13_targets", lambda: "# T\n\n" + "(label)=\n" * 100_000 + "## H\n\nZQX13MT\n", "ZQX13MT"),
    ("obs13_block_ids", lambda: "# T\n\nZQX13BI " + "text ^a " * 100_000 + "\n", "ZQX13BI"),
    ("gitbook13_api_attrs", lambda: "# T\n\n" + _API, "ZQX13API"),
]:
    add(
        name,
        "config",
        setup=_options(_OPTIONS, name, ".md", make),
        expect="ok",
        sentinels=(sentinel,),
        timeout=60,
    )
