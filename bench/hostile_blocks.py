"""Hostile-input variants: nesting constructs, pathological inline syntax (registered in hostile_base.V)."""

from __future__ import annotations

from hostile_base import add, text


# ------------------------------------------------------------------ nesting
def _nested_mixed(depth: int) -> str:
    markers = ["- ", "> ", "1. ", "* ", "> ", "+ ", "2) "]
    lines, indent = [], ""
    for i in range(depth):
        m = markers[i % len(markers)]
        lines.append(indent + m + f"level {i}")
        indent += "  " if m != "> " else ""
        if m == "> ":
            indent = indent + "> "
    lines.append(indent + "ZQXMIXDEEP")
    return "# Mixed\n\n" + "\n".join(lines) + "\n\n## After\n\nZQXMIXAFTER\n"


add(
    "nest_mixed_containers_30", "nesting", text(_nested_mixed(30)), expect="ok", sentinels=("ZQXMIXDEEP", "ZQXMIXAFTER")
)
add("nest_mixed_containers_300", "nesting", text(_nested_mixed(300)), sentinels=("ZQXMIXDEEP", "ZQXMIXAFTER"))
add(
    "nest_mixed_line_50k",
    "nesting",
    text("# L\n\n" + "- > 1. " * 50_000 + "ZQXMIXLINE\n\n## After\n\nZQXMIXLINEAFTER\n"),
    sentinels=("ZQXMIXLINE", "ZQXMIXLINEAFTER"),
    line="3",
)
add(
    "nest_ordered_15",
    "nesting",
    text(
        "# O\n\n"
        + "".join("   " * i + "1. item\n" for i in range(15))
        + "   " * 15
        + "1. ZQXORDDEEP\n\n## After\n\nZQXORDAFTER\n"
    ),
    expect="ok",
    sentinels=("ZQXORDDEEP", "ZQXORDAFTER"),
)
add(
    "nest_ordered_line_100k",
    "nesting",
    text("# O\n\n" + "1. " * 100_000 + "ZQXORDLINE\n\nZQXORDLINEAFTER\n"),
    sentinels=("ZQXORDLINE", "ZQXORDLINEAFTER"),
    line="3",
)
add(
    "nest_quote_per_line_3000",
    "nesting",
    text("# Q\n\n" + "".join("> " * i + f"q{i}\n" for i in range(1, 3000)) + "\nZQXQLINES\n"),
    sentinels=("q2999", "ZQXQLINES"),
    timeout=60,
)
add(
    "nest_list_fence_in_quote_40",
    "nesting",
    text(
        "# F\n\n"
        + "".join("  " * i + "- > item\n" for i in range(40))
        + "  " * 40
        + "```\ncode ZQXFENCEDEEP\n```\n\nZQXFENCEDEEPAFTER\n"
    ),
    expect="ok",
    sentinels=("ZQXFENCEDEEP", "ZQXFENCEDEEPAFTER"),
)
add(
    "nest_html_div_2000",
    "nesting",
    text("# H\n\n" + "<div>\n" * 2000 + "ZQXDIVDEEP\n" + "</div>\n" * 1000 + "\nZQXDIVAFTER\n"),
    expect="ok",
    sentinels=("ZQXDIVDEEP", "ZQXDIVAFTER"),
)
add(
    "nest_details_200",
    "nesting",
    text(
        "# D\n\n"
        + "".join(f"<details><summary>S{i}</summary>\n\n## Inner {i}\n\n" for i in range(200))
        + "ZQXDETDEEP\n\n## After\n\nZQXDETAFTER\n"
    ),
    expect="ok",
    sentinels=("ZQXDETDEEP", "ZQXDETAFTER"),
)
add(
    "nest_html_comment_unclosed",
    "nesting",
    text("# C\n\n<!-- never closed\n\n## Inside\n\nZQXCOMMENT\n" + "text\n" * 1000),
    expect="ok",
    sentinels=("ZQXCOMMENT",),
)
add(
    "nest_colon_admonitions_60",
    "nesting",
    text(
        "# A\n\n"
        + "".join(":" * (63 - i) + " note\n" for i in range(60))
        + "ZQXADMDEEP\n"
        + "".join(":" * (4 + i) + "\n" for i in range(60))
        + "\nZQXADMAFTER\n"
    ),
    expect="ok",
    sentinels=("ZQXADMDEEP", "ZQXADMAFTER"),
)
add(
    "nest_colon_unclosed_5000",
    "nesting",
    text("# A\n\n" + "".join(":::note\n\n## H\n\npara\n\n" for _ in range(5000)) + "ZQXADMUNCL\n"),
    sentinels=("ZQXADMUNCL",),
    timeout=60,
)
add(
    "nest_bang_admonitions_50",
    "nesting",
    text(
        "# B\n\n"
        + "".join("    " * i + '!!! note "N"\n' for i in range(50))
        + "    " * 50
        + "ZQXBANGDEEP\n\nZQXBANGAFTER\n"
    ),
    sentinels=("ZQXBANGDEEP", "ZQXBANGAFTER"),
)
add(
    "nest_bang_collapsible_fence",
    "nesting",
    text("# B\n\n???+ tip\n    ```python\n    x = 1 ZQXBANGFENCE\n\n## Next\n\nZQXBANGNEXT\n"),
    sentinels=("ZQXBANGFENCE", "ZQXBANGNEXT"),
)
add(
    "mdx_unclosed_components",
    "nesting",
    text("# M\n\n" + '<Tabs>\n<TabItem value="a">\n\n## T\n\n' * 500 + "ZQXMDXEND\n"),
    ext=".mdx",
    sentinels=("ZQXMDXEND",),
)
add(
    "mdx_unclosed_expression",
    "nesting",
    text("# M\n\n{/* never closed\n\n## H\n\nZQXMDXEXPR\n" + "{" * 10_000 + "\n"),
    ext=".mdx",
    sentinels=("ZQXMDXEXPR",),
)
add(
    "mdx_jsx_attr_unclosed",
    "nesting",
    text("# M\n\n<Foo bar={`\n## Inside template\n\nZQXMDXATTR\n"),
    ext=".mdx",
    sentinels=("ZQXMDXATTR",),
)
add(
    "mdx_deep_jsx_3000",
    "nesting",
    text("# M\n\n" + "<Box>\n" * 3000 + "ZQXMDXDEEP\n" + "</Box>\n" * 3000),
    ext=".mdx",
    sentinels=("ZQXMDXDEEP",),
)
add(
    "liquid_unclosed_highlight",
    "nesting",
    text("# L\n\n{% highlight ruby %}\n# not a heading\nZQXLIQ\n" + "x = 1\n" * 2000),
    sentinels=("ZQXLIQ",),
)
add(
    "liquid_nested_raw",
    "nesting",
    text("# L\n\n" + "{% raw %}{% highlight %}\n" * 3000 + "ZQXLIQRAW\n"),
    sentinels=("ZQXLIQRAW",),
)
add(
    "hugo_unclosed_tabpane",
    "nesting",
    text("# H\n\n{{< tabpane >}}\n" + '{{< tab header="a" lang="yaml" >}}\n---\nk: v\n---\n' * 3000 + "ZQXHUGO\n"),
    sentinels=("ZQXHUGO",),
    timeout=60,
)
add(
    "hugo_nested_code_tags",
    "nesting",
    text("# H\n\n" + "{{< highlight go >}}\n{{% code %}}\n" * 2000 + "ZQXHUGONEST\n" + "{{< /highlight >}}\n" * 10),
    sentinels=("ZQXHUGONEST",),
)
add(
    "mdc_unclosed_deep",
    "nesting",
    text("# C\n\n" + "".join(":" * (2 + i) + f"card{i}\n---\nicon: x\n---\n" for i in range(300)) + "ZQXMDC\n"),
    sentinels=("ZQXMDC",),
)

# ------------------------------------------------------------------ inline
for name, unit, n in [
    ("backtick_ladder_down", None, 0),
    ("ticks_single_200k", "`", 200_000),
    ("image_openers_100k", "![", 100_000),
    ("close_paren_openers", "](", 100_000),
    ("lt_100k", "<", 100_000),
    ("tag_open_50k", "<a ", 50_000),
    ("autolink_unclosed_50k", "<http://x", 50_000),
    ("entity_open_100k", "&#", 100_000),
    ("entity_named_100k", "&amp;", 100_000),
    ("entity_bad_100k", "&#99999999999;", 50_000),
    ("dollar_100k", "$", 100_000),
    ("dollar_pairs_50k", "$$a", 50_000),
    ("underscore_a_100k", "_a", 100_000),
    ("strike_100k", "~~a", 100_000),
    ("mixed_emph_100k", "*_a_*_", 100_000),
    ("ref_links_100k", "[a] ", 100_000),
    ("footnote_refs_50k", "[^x] ", 50_000),
    ("html_comment_open_50k", "<!-- ", 50_000),
    ("cdata_open_50k", "<![CDATA[ ", 50_000),
    ("pi_open_50k", "<? ", 50_000),
    ("backslash_200k", "\\", 200_000),
    ("script_open_50k", "<script>", 50_000),
    ("style_open_50k", "<style x ", 50_000),
    ("comment_dashes_50k", "<!-- -- ", 50_000),
    ("template_tags_50k", "{% a ", 50_000),
    ("shortcode_50k", "{{< a ", 50_000),
    ("jsx_expr_50k", "{/* ", 50_000),
    ("code_span_pairs_100k", "`a ", 100_000),
    ("double_tick_50k", "``a `", 50_000),
    ("img_tags_50k", "<img src=", 50_000),
    ("link_nested_brackets", "[[[[a]]]](", 30_000),
    ("angle_dest_50k", "[a](<b ", 50_000),
    ("emph_under_star", "**__", 100_000),
]:
    body = " ".join("`" * k + "x" for k in range(1000, 0, -1)) if unit is None else unit * n
    add(
        f"inline_{name}",
        "inline",
        text(f"# Inline {name}\n\n{body} ZQXINL{name.upper().replace('_', '')}\n"),
        expect="any" if name == "ticks_single_200k" else "ok",
        sentinels=(f"ZQXINL{name.upper().replace('_', '')}",),
        timeout=60,
        line="3",
    )
add(
    "inline_ref_defs_100k",
    "inline",
    text("# R\n\n" + "".join(f"[r{i}]: http://x/{i}\n" for i in range(100_000)) + "\n[r1] ZQXREFDEFS\n"),
    expect="ok",
    sentinels=("ZQXREFDEFS",),
    timeout=60,
)
add(
    "inline_math_block_unclosed",
    "inline",
    text("# M\n\n$$\n" + "x + y\n" * 5000 + "ZQXMATHUNCL\n"),
    sentinels=("ZQXMATHUNCL",),
)
add(
    "inline_html_block_comment_lines",
    "inline",
    text("# C\n\n" + "<!--\n\n" * 20_000 + "ZQXHTMLCOM\n"),
    expect="ok",
    sentinels=("ZQXHTMLCOM",),
)
add(
    "inline_html_tags_line",
    "inline",
    text("# T\n\n" + "<span>" * 100_000 + "ZQXSPANS\n"),
    expect="ok",
    sentinels=("ZQXSPANS",),
)

# ------------------------------------------------------------------ found by scans of repeated units
for name, unit, n in [
    ("quote_heading_lazy", "> # H\ntext\n", 4000),
    ("quote_fence_lazy", "> ```\ntext\n", 4000),
    ("quote_container_lazy", "> :::note\ntext\n", 4000),
    ("list_container_heading", "- :::note\n# H\n", 6000),
    ("list_container_sections", "- :::note\n\n## H\n\npara\n\n", 4000),
    ("tab_tags_sections", '{{< tab header="a" lang="y" >}}\n\n## H\n\npara\n\n', 12000),
    ("mdc_sections", "::card\n\n## H\n\npara\n\n", 24000),
    ("mdc_props_headings", "::card{a}\n# H\ntext\n", 24000),
]:
    add(f"repeat_{name}", "nesting", text(unit * n + "\nZQXREPEATEND\n"), sentinels=("ZQXREPEATEND",), timeout=60)

# ------------------------------------------------------------------ found by a fragment fuzzer over chunk_source
add(
    "fuzz_empty_quote_after_tag_line",
    "nesting",
    text("# T\n\nSee <br>\n>\n" + "ZQXFZQUOTE word " * 200 + "\n"),
    expect="ok",
    sentinels=("ZQXFZQUOTE",),
    note="never finished (pack/openers walked back before the quote's start)",
)
add(
    "fuzz_myst_comment_quote_eof",
    "nesting",
    text("ZQXFZMYST\n: def\n>%\n>"),
    expect="ok",
    sentinels=("ZQXFZMYST",),
    note="IndexError in the MyST comment rule (exit 5)",
)
for tag in ("float", "int", "bool"):
    add(
        f"fuzz_fm_empty_{tag}_tag",
        "frontmatter",
        text(f"---\ntitle: t\nk: !!{tag}\n---\n# T\n\nZQXFZEMPTYTAG\n"),
        sentinels=("ZQXFZEMPTYTAG",),
        line="3",
        note="an empty tagged value: IndexError / KeyError in PyYAML's constructor (exit 5)",
    )
