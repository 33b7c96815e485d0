"""Hostile-input variants of the twelfth pass (bench/HOSTILE.md): the syntax landed after the eleventh pass,
at sizes and shapes that make its patterns and scans superlinear. MDX import lines that are no statement
(many statements and a stray word, a name then 20,000 blanks), JSX blocks and expressions whose braces
never balance (one per paragraph), heading lines of ids and attribute lists before a word under
``embedding_drop_heading_ids``, heading lines of unclosed template tags or of 1,000 markup characters
(each one different), many headings of template tags only; the MDX ones under both parsers (registered
in hostile_base.V)."""

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


# ---------------------------------------------------------------- MDX: import lines, braces that never balance
def _open_braces(opener: str) -> Callable[[int], str]:
    return lambda n: "# T\n\nZQX12FIRST\n\n" + f"{opener}\n\nZQX12OB text\n\n" * n + "ZQX12LAST\n"


SIZES: list[tuple[str, Callable[[int], str], int, str, tuple[str, ...]]] = [
    ("mdx12_open_props", _open_braces("<Foo a={"), 20_000, ".mdx", ("ZQX12FIRST", "ZQX12LAST")),
    ("mdx12_open_expressions", _open_braces("{"), 20_000, ".mdx", ("ZQX12FIRST", "ZQX12LAST")),
    ("mdx12_open_templates", _open_braces("<Code code={`"), 20_000, ".mdx", ("ZQX12FIRST", "ZQX12LAST")),
    (
        "head12_unclosed_shortcodes",
        lambda n: "".join(f"## {i} " + "{{<" * 333 + "\n\nZQX12SC text\n\n" for i in range(n)) + "ZQX12SCEND\n",
        2_000,
        ".md",
        ("ZQX12SC", "ZQX12SCEND"),
    ),
    (
        "head12_markup",
        lambda n: "".join(f"## {i} " + "<*[`" * 250 + "\n\nZQX12MK text\n\n" for i in range(n)) + "ZQX12MKEND\n",
        5_000,
        ".md",
        ("ZQX12MK", "ZQX12MKEND"),
    ),
    (
        "head12_tags_only",
        lambda n: "".join(f'## {{{{% heading "h{i}" %}}}}\n\nZQX12TO text\n\n' for i in range(n)) + "ZQX12TOEND\n",
        20_000,
        ".md",
        ("ZQX12TO", "ZQX12TOEND"),
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

for label, line in [
    ("import_statements", "import a from 'b'; " * 40 + "x"),
    ("import_blanks", "import a" + " " * 20_000 + "x"),
    ("import_braces", "import type" + " {a}" * 5_000 + " x"),
]:
    add(f"mdx12_{label}", "mdx", f"{line}\n\n# T\n\nZQX12IMP text\n", sentinels=("ZQX12IMP",), expect="ok")

for name, make in [
    ("mdx12_pulldown_open_props", lambda: _open_braces("<Foo a={")(4_000)),
    ("mdx12_pulldown_import", lambda: "import a from 'b'; " * 40 + "x\n\n# T\n\nZQX12FIRST ZQX12LAST\n"),
]:
    add(
        name,
        "mdx",
        setup=_options("parser: pulldown-cmark\n", name, ".mdx" if "props" in name else ".md", make),
        expect="ok",
        sentinels=("ZQX12FIRST", "ZQX12LAST"),
        timeout=60,
    )

# ---------------------------------------------------------------- embedding_drop_heading_ids
add(
    "hid12_ids_before_a_word",
    "config",
    setup=_options(
        "embedding_drop_heading_ids: true\n",
        "hid12_ids_before_a_word",
        ".md",
        lambda: "# T\n\n" + "".join(f"## H{i}" + " {#a}" * 40 + f" word\n\nZQX12HID{i}\n\n" for i in range(200)),
    ),
    expect="ok",
    sentinels=("ZQX12HID0", "ZQX12HID199"),
    timeout=60,
)
add(
    "hid12_comments_before_a_word",
    "config",
    setup=_options(
        "embedding_drop_heading_ids: true\n",
        "hid12_comments_before_a_word",
        ".md",
        lambda: "# T\n\n" + "".join(f"## H{i}" + " {/* a */}" * 40 + f" word\n\nZQX12HC{i}\n\n" for i in range(200)),
    ),
    expect="ok",
    sentinels=("ZQX12HC0", "ZQX12HC199"),
    timeout=60,
)


# ---------------------------------------------------------------- include / exclude globs of many ``**``
def _deep_tree(w: Path) -> None:
    glob = "**/" * 12
    _options(f"exclude: ['{glob}zzz', './{glob}x.md']\n", "top", ".md", lambda: "# Top\n\nZQX12TOP text.\n")(w)
    folder = w / "sources" / Path(*["a"] * 30)
    folder.mkdir(parents=True)
    (folder / "b.md").write_text("# B\n\nZQX12GLOB text.\n", encoding="utf-8")


add("glob12_double_stars_deep_tree", "fs", setup=_deep_tree, args=[], expect="ok", sentinels=("ZQX12GLOB",), timeout=60)
