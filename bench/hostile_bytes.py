"""Hostile-input variants: encodings, line endings, frontmatter (registered in hostile_base.V)."""

from __future__ import annotations

from collections.abc import Callable

from hostile_base import add, text

# ------------------------------------------------------------------ encodings
DOC = "---\ntitle: Enc ZQXENCTITLE\n---\n# Heading\n\nLine one.\nLine two ZQXENCEND.\n"
add("enc_utf16le_bom", "encoding", lambda: b"\xff\xfe" + DOC.encode("utf-16-le"), line="1")
add("enc_utf16be_bom", "encoding", lambda: b"\xfe\xff" + DOC.encode("utf-16-be"), line="1")
add("enc_utf16le_nobom", "encoding", lambda: DOC.encode("utf-16-le"), line="1")
add("enc_utf32_bom", "encoding", lambda: DOC.encode("utf-32"), line="1")
for at in (1, 2, 1000, 100_001):
    add(
        f"enc_latin1_line_{at}",
        "encoding",
        lambda at=at: b"ok line\n" * (at - 1) + "caf\xe9 ZQX\n".encode("latin-1") + b"tail\n",
        expect="error",
        line=str(at),
    )
add(
    "enc_latin1_in_frontmatter",
    "encoding",
    lambda: "---\ntitle: caf\xe9\n---\nbody\n".encode("latin-1"),
    expect="error",
    line="2",
)
add("enc_latin1_after_cr_only", "encoding", lambda: b"# T\r\rline\rline\r\xe9\r", expect="error", line="5")
add("enc_latin1_after_crlf", "encoding", lambda: b"# T\r\n\r\nline\r\nline\r\n\xe9\r\n", expect="error", line="5")
add(
    "enc_latin1_after_u2028",
    "encoding",
    lambda: "# T\n\na\u2028b\u2029c\x85d\n".encode() + b"\xe9\n",
    expect="error",
    line="4",
)
add("enc_cesu_surrogate", "encoding", lambda: b"# T\n\nok\n\xed\xa0\x80\xed\xb0\x80 ZQX\n", expect="error", line="4")
add("enc_overlong_slash", "encoding", lambda: b"# T\n\n\xc0\xaf\n", expect="error", line="3")
add("enc_overlong_3byte", "encoding", lambda: b"# T\n\n\n\xe0\x80\xaf\n", expect="error", line="4")
add("enc_f5_byte", "encoding", lambda: b"# T\n\xf5\x80\x80\x80\n", expect="error", line="2")
add("enc_truncated_eof", "encoding", lambda: b"# T\n\ntext \xe2\x82", expect="error", line="3")
add("enc_ff_byte_line1", "encoding", lambda: b"\xff# T\n", expect="error", line="1")
add(
    "enc_bom_middle",
    "encoding",
    text("# T\n\nbefore\n\ufeff---\ntitle: x\n---\n\ufeffZQXBOMMID\n"),
    expect="ok",
    sentinels=("ZQXBOMMID",),
)
add(
    "enc_double_bom",
    "encoding",
    text("\ufeff\ufeff---\ntitle: ZQXDBLBOM\n---\nbody ZQXDBLBODY\n"),
    sentinels=("ZQXDBLBODY",),
)
add(
    "enc_mixed_line_endings",
    "encoding",
    lambda: b"---\r\ntitle: Mixed\r---\n# H\r\n\ra\n\rb\r\nZQXMIXEOL\r",
    sentinels=("ZQXMIXEOL",),
)
add("enc_lf_cr_pairs", "encoding", lambda: b"# H\n\r\n\rpara\n\rZQXLFCR\n\r", expect="ok", sentinels=("ZQXLFCR",))
add(
    "enc_separators_in_fence",
    "encoding",
    text("# H\n\n```\na\u2028b\x0cc\x0bd\x85e\n```\n\n## H2\u2028x\n\nZQXSEPFENCE\n"),
    expect="ok",
    sentinels=("ZQXSEPFENCE",),
)
add(
    "enc_separators_in_frontmatter",
    "encoding",
    text("---\ntitle: a\u2028b\x85c\nx: \x0c\n---\nZQXSEPFM\n"),
    sentinels=("ZQXSEPFM",),
)
add(
    "enc_nul_everywhere",
    "encoding",
    text("---\ntitle: a\x00b\n---\n# H\x00\n\n```\x00\nx\x00\n```\n\n\x00ZQXNULS\n"),
    sentinels=("ZQXNULS",),
)
add(
    "enc_unclosed_fence_after_cr",
    "encoding",
    lambda: b"# T\r\rp\r```\rZQXCRFENCE\r",
    sentinels=("ZQXCRFENCE",),
    line="4",
)
add(
    "enc_c1_controls",
    "encoding",
    text("# H\n\n" + "".join(chr(c) for c in range(0x80, 0xA0)) + " ZQXC1\n"),
    expect="ok",
    sentinels=("ZQXC1",),
)
add(
    "enc_noncharacters",
    "encoding",
    text("# H\uffff\n\n\ufffe\U0010ffff ZQXNONCHAR\n"),
    expect="ok",
    sentinels=("ZQXNONCHAR",),
)
add(
    "enc_combining_flood",
    "encoding",
    text("# H\n\n" + "a" + "\u0301" * 200_000 + " ZQXZALGO\n"),
    expect="ok",
    sentinels=("ZQXZALGO",),
)
add("enc_only_cr", "encoding", lambda: b"\r" * 100_000 + b"ZQXONLYCR", sentinels=("ZQXONLYCR",))
add(
    "enc_vt_ff_only_lines",
    "encoding",
    text("# H\n\x0b\n\x0c\n\x0c# Not\nZQXVTFF\n"),
    expect="ok",
    sentinels=("ZQXVTFF",),
)


# ------------------------------------------------------------------ frontmatter
def fm(yaml: str, body: str = "# Body\n\nBody text ZQXFMBODY.\n", delim: str = "---") -> Callable[[], bytes]:
    close = delim if delim != "{" else ""
    return text(f"{delim}\n{yaml}{close}\n{body}" if close else f"{yaml}\n{body}")


add(
    "fm_bomb_mappings",
    "frontmatter",
    fm(
        "a0: &a0 {x: 1, y: 2}\n"
        + "".join(f"a{i}: &a{i} {{" + ", ".join(f"k{j}: *a{i - 1}" for j in range(9)) + "}\n" for i in range(1, 10))
    ),
    sentinels=("ZQXFMBODY",),
)
add(
    "fm_bomb_wide_refs",
    "frontmatter",
    fm("a: &a [1, 2, 3, 4, 5, 6, 7, 8]\nb: [" + ", ".join(["*a"] * 12_000) + "]\n"),
    sentinels=("ZQXFMBODY",),
)
add(
    "fm_bomb_long_string",
    "frontmatter",
    fm('s: &s "' + "x" * 30_000 + '"\nl: [' + ",".join(["*s"] * 10_000) + "]\n"),
    sentinels=("ZQXFMBODY",),
    note="30 KB string x 10,000 references, 60 KB of YAML",
)
add(
    "fm_bomb_merge_keys",
    "frontmatter",
    fm(
        "b0: &b0 {k0: v}\n"
        + "".join(f"b{i}: &b{i}\n  <<: [*b{i - 1}, *b{i - 1}]\n  k{i}: [*b{i - 1}, *b{i - 1}]\n" for i in range(1, 30))
    ),
    sentinels=("ZQXFMBODY",),
)
add(
    "fm_bomb_key_alias",
    "frontmatter",
    fm("a: &a [x, y]\n" + "".join(f"? *a\n: v{i}\n" for i in range(3))),
    sentinels=("ZQXFMBODY",),
)
add("fm_anchor_cycle_map", "frontmatter", fm("a: &a\n  b: *a\n  c: [*a, *a]\n"), sentinels=("ZQXFMBODY",))
for tag in (
    '!!python/object/apply:os.system ["touch zqx_pwned"]',
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/object/new:os.system [echo]",
    "!!python/tuple [1, 2]",
    "!foo bar",
    "!<tag:yaml.org,2002:str> x",
    "!!binary " + "QUJD" * 20_000,
    '!!binary "!!!!"',
    "!!timestamp 2001-02-30",
    "!!int abc",
    "!!float abc",
    "!!omap [a: 1, a: 2]",
    "!!pairs [a: 1]",
    "!!set {a, b}",
    "!!str [a]",
    "!!map [a]",
    "!!null x",
):
    safe = "".join(ch if ch.isalnum() else "_" for ch in tag)[:24].strip("_") + f"_{len(tag)}"
    add(f"fm_tag_{safe}", "frontmatter", fm(f"title: T\nv: {tag}\n"), sentinels=("ZQXFMBODY",), line="3", note=tag[:60])
add("fm_date_invalid", "frontmatter", fm("title: T\ndate: 2024-13-45\n"), sentinels=("ZQXFMBODY",), line="3")
add("fm_date_feb30", "frontmatter", fm("date: 2023-02-30\n"), sentinels=("ZQXFMBODY",), line="2")
add("fm_time_invalid", "frontmatter", fm("when: 2001-12-14t25:59:43.10-05:00\n"), sentinels=("ZQXFMBODY",), line="2")
add("fm_int_5000_digits", "frontmatter", fm("n: " + "1" * 5000 + "\n"), sentinels=("ZQXFMBODY",), line="2")
add("fm_int_sexagesimal_huge", "frontmatter", fm("n: " + "1:" * 3000 + "1\n"), sentinels=("ZQXFMBODY",), line="2")
add("fm_float_huge", "frontmatter", fm("f: 1e99999\ng: -.inf\nh: .NaN\n"), sentinels=("ZQXFMBODY",))
add("fm_huge_key", "frontmatter", fm("k" * 60_000 + ": v\n"), sentinels=("ZQXFMBODY",))
add("fm_complex_key_list", "frontmatter", fm("? [a, b]\n: c\n"), sentinels=("ZQXFMBODY",), line="2")
add("fm_complex_key_map", "frontmatter", fm("{a: 1}: b\n"), sentinels=("ZQXFMBODY",), line="2")
add(
    "fm_surrogate_escapes",
    "frontmatter",
    fm('"\\ud800k": "\\udfff"\nl: ["\\ud83d"]\ntitle: "\\udc80"\n'),
    sentinels=("ZQXFMBODY",),
)
add("fm_nul_escape", "frontmatter", fm('title: "a\\0b\\x00c"\n'), sentinels=("ZQXFMBODY",))
add("fm_10k_keys", "frontmatter", fm("".join(f"k{i}: {i}\n" for i in range(12_000))), sentinels=("ZQXFMBODY",))
add(
    "fm_deep_block_mapping",
    "frontmatter",
    fm("".join(" " * i + f"k{i}:\n" for i in range(600)) + " " * 600 + "v: 1\n"),
    sentinels=("ZQXFMBODY",),
)
add(
    "fm_deep_flow_map",
    "frontmatter",
    fm("a: " + "{a: " * 2000 + "1" + "}" * 2000 + "\n"),
    sentinels=("ZQXFMBODY",),
    line="2",
)
add("fm_multi_document", "frontmatter", fm("a: 1\n---\nb: 2\n...\n"), sentinels=("ZQXFMBODY",))
add("fm_dots_end", "frontmatter", text("---\ntitle: Dots\n...\n# B\n\nZQXFMDOTS\n"), sentinels=("ZQXFMDOTS",))
add("fm_tabs_indent", "frontmatter", fm("a:\n\tb: 1\n"), sentinels=("ZQXFMBODY",), line="3")
add("fm_empty", "frontmatter", text("---\n---\n# B\n\nZQXFMEMPTY\n"), expect="ok", sentinels=("ZQXFMEMPTY",))
add("fm_scalar_root", "frontmatter", fm("just a string\n"), sentinels=("ZQXFMBODY", "just a string"), line="1|2")
add(
    "fm_bom_crlf",
    "frontmatter",
    lambda: b"\xef\xbb\xbf---\r\ntitle: ZQXBCTITLE\r\n---\r\n# B\r\n\r\nZQXBCBODY\r\n",
    expect="ok",
    sentinels=("ZQXBCBODY",),
)
add(
    "fm_unclosed_at_eof_no_newline", "frontmatter", text("---\ntitle: x\nZQXFMOPEN"), sentinels=("ZQXFMOPEN",), line="1"
)
add("fm_four_dashes", "frontmatter", text("----\ntitle: x\n----\nZQXFOURDASH\n"), sentinels=("ZQXFOURDASH",))
add("fm_dash_trailing_space", "frontmatter", text("--- \ntitle: x\n--- \nZQXDASHSP\n"), sentinels=("ZQXDASHSP",))
add(
    "fm_thematic_then_heading",
    "frontmatter",
    text("---\n# Title ZQXTBHEAD\n\nIntro ZQXTBINTRO.\n\n---\n\nMore ZQXTBMORE.\n"),
    sentinels=("ZQXTBHEAD", "ZQXTBINTRO", "ZQXTBMORE"),
    line="1|2|3",
)
add(
    "fm_thematic_list_colon",
    "frontmatter",
    text("---\n- item: ZQXTBLIST\n---\nrest ZQXTBREST\n"),
    sentinels=("ZQXTBREST",),
    line="1|2",
)
add(
    "fm_thematic_only_break", "frontmatter", text("---\n\nZQXTBONLY paragraph\n"), expect="ok", sentinels=("ZQXTBONLY",)
)
add("fm_huge_100kb", "frontmatter", fm("".join(f"k{i}: {'v' * 90}\n" for i in range(1200))), sentinels=("ZQXFMBODY",))
add(
    "toml_broken",
    "frontmatter",
    fm('title = "unclosed\nx = [1, 2\n', delim="+++"),
    sentinels=("ZQXFMBODY",),
    line="2|3",
)
add("toml_unclosed", "frontmatter", text('+++\ntitle = "T"\nZQXTOMLOPEN\n'), sentinels=("ZQXTOMLOPEN",), line="1")
add(
    "toml_deep_inline",
    "frontmatter",
    fm("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n", delim="+++"),
    sentinels=("ZQXFMBODY",),
    line="2",
)
add(
    "toml_deep_array",
    "frontmatter",
    fm("x = " + "[" * 5000 + "]" * 5000 + "\n", delim="+++"),
    sentinels=("ZQXFMBODY",),
    line="2",
)
add(
    "toml_deep_dotted",
    "frontmatter",
    fm(".".join(f"k{i}" for i in range(3000)) + " = 1\n", delim="+++"),
    sentinels=("ZQXFMBODY",),
)
add(
    "toml_deep_tables",
    "frontmatter",
    fm("[" + ".".join("t" for _ in range(3000)) + "]\nv = 1\n", delim="+++"),
    sentinels=("ZQXFMBODY",),
)
add(
    "toml_huge",
    "frontmatter",
    fm("".join(f'k{i} = "{"v" * 90}"\n' for i in range(100_000)), delim="+++"),
    sentinels=("ZQXFMBODY",),
    timeout=60,
)
add(
    "toml_datetime_types",
    "frontmatter",
    fm("d = 1979-05-27T07:32:00-08:00\nt = 07:32:00\nl = 1979-05-27\nf = nan\ni = inf\n", delim="+++"),
    sentinels=("ZQXFMBODY",),
)
add(
    "toml_bom",
    "frontmatter",
    lambda: b"\xef\xbb\xbf+++\ntitle = 'ZQXTOMLBOM'\n+++\nZQXTOMLBODY\n",
    sentinels=("ZQXTOMLBODY",),
)
add(
    "json_fm_broken",
    "frontmatter",
    text('{\n"title": "x",\n"a": [1, 2\n}\n\n# Body\n\nZQXJSONBODY\n'),
    sentinels=("ZQXJSONBODY",),
    line="3|4",
)
add(
    "json_fm_deep",
    "frontmatter",
    text('{\n"a": ' + "[" * 100_000 + "]" * 100_000 + "\n}\n\n# Body\n\nZQXJSONDEEP\n"),
    sentinels=("ZQXJSONDEEP",),
    line="2",
)
add("json_fm_unclosed", "frontmatter", text('{\n"title": "x",\n\nZQXJSONOPEN\n'), sentinels=("ZQXJSONOPEN",), line="1")
add(
    "json_fm_huge_number",
    "frontmatter",
    text('{\n"n": ' + "9" * 5000 + ', "f": 1e999\n}\n\nZQXJSONNUM\n'),
    sentinels=("ZQXJSONNUM",),
    line="2",
)
add(
    "json_fm_dup_keys",
    "frontmatter",
    text('{\n"title": "a",\n"title": "b"\n}\n\nZQXJSONDUP\n'),
    sentinels=("ZQXJSONDUP",),
    line="3",
)
add("json_fm_surrogate", "frontmatter", text('{\n"title": "\\ud800"\n}\n\nZQXJSONSUR\n'), sentinels=("ZQXJSONSUR",))
