"""Plain text of Markdown: headings (always) and whole blocks (on demand).

Inline parsing is the costly and attack-prone part of markdown-it-py, so the
pipeline never runs it over the document: only over heading lines, which are
short and capped, and over a block when a caller asks for its ``plain_text``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Hashable
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.token import Token

from chunker.template_tags import OUTPUT_TAGS

MAX_HEADING_CHARS = 1000
"""Longer heading lines are cut before inline parsing (bounded time)."""
MAX_HEADING_MARKUP = 64
"""A heading line is read up to its 64th character that may start inline markup (:data:`_MARKUP`): markdown-it's
inline parse costs about 25 us a such character (a heading of 1,000 ``<`` took 25 ms, 50,000 of them 20 minutes).
The corpus's 17,070 heading lines hold 19 at most."""
MAX_HEADING_BRACKETS = 16
"""A heading line is read up to its 16th ``[`` too: markdown-it looks for each one's closing bracket over the rest
of the line, asking every inline rule at each later position (64 ``[`` cost ~2,600 such steps, 16 ~540). The
headings of 40 documentation trees hold 8 at most (a line of badges)."""

_HEADING_ID = re.compile(r"\s*(?:\{#[^{}]*\}|\{/\*.*?\*/\}|\{[ \t]+[A-Za-z]\w*(?:-\w+)+(?:[ \t][^{}]*)?\})\s*$")
"""What ends a heading as its id or attributes: ``{#id}``, an MDX comment ``{/*id*/}``, or Python-Markdown's
attribute list led by a bare attribute name with a hyphen (``{ data-search-exclude }``, ``{ data-x #id }``;
the other attribute lists, anywhere, are :data:`_ATTRIBUTE_LIST`)."""
_BRACKET_ID = re.compile(r"[ \t]+\[#[A-Za-z][\w-]*\][ \t]*$")
"""A heading's id written ``[#id]`` after its text (javascript.info: ``## Spread syntax [#spread-syntax]``)."""
_BUILDER_ANCHOR = re.compile(r"[ \t]+\[((?=[\w.-]*[-_])[A-Za-z_][\w.-]*)\][ \t]*$")
"""A heading's anchor as Elastic's docs-builder writes it after the text, in brackets (``## General billing FAQ
[ec-faq-billing-general]``, ``## Groups [_groups]``): a name of letters, digits, ``.``, ``-`` and ``_`` holding a
``-`` or ``_`` (``[beta]`` and a date, ``[2024-05-01]``, stay text), no label the document defines."""
INLINE_ANCHOR = re.compile(r"\$\$\$[\w.-]{1,128}\$\$\$")
"""An inline anchor of Elastic's docs-builder, a legacy syntax of its migrated pages, which marks a place and shows
nothing: ``$$$faq-cost$$$Is there a way ...?``, ``## $$$blocked-5m$$$Blocked Pipeline (5 minutes)``, alone on a line
(1,094 line starts in elastic/docs-content). No display math (:mod:`chunker.parse.plugins`), no heading text, and
not embedded under ``embedding_drop_heading_ids`` (:mod:`chunker.pack.cleanup`)."""
_DOCSIFY_ATTRIBUTES = re.compile(r"(?:[ \t]+:(?:id=[^\s:]+|docsify-ignore(?:-all)?))+[ \t]*$")
"""Docsify's heading attributes after the text: its id (``### Hello, world! :id=hello-world``) and the marks that
keep a heading out of the sidebar (``## Internals :docsify-ignore``, ``:docsify-ignore-all``)."""
_TEMPLATE_TAG = re.compile(
    r"\{\{[<%].*?[%>]\}\}|(\{\{.*?\}\}|\{%-?[ \t]*(?:" + "|".join(OUTPUT_TAGS) + r")[ \t]+[^\s%-](?:(?!%\}).)*?%\})"
    r"|\{%.*?%\}|\{#.*?#\}",
    re.DOTALL,
)
"""Liquid/Jinja tags (``{% include x %}``), comments (``{# note #}``) and Hugo shortcodes (``{{< ref >}}``,
``{{% note %}}``): template syntax, not heading text (a heading of tags only is named by them as written:
:func:`heading_text`). An output (group 1: ``{{ productName }}`` of
mkdocs-macros, ``{{ page.title }}`` of Jekyll, ``{{ $frontmatter.title }}`` of VitePress, and the tags
that output a value, :data:`~chunker.template_tags.OUTPUT_TAGS`: Liquid's ``{% echo x %}``, GitHub Docs'
``{% data variables.product.prodname_actions %}``)
stands for text the site fills in: it is kept as written (dropped, ``## Настройка {{ apacheIgniteVariants }}``
and ``## Настройка {{ openSearchVariants }}`` were two sections named ``Настройка``, and 24 headings of
GitHub Docs such as ``## {% data variables.product.prodname_actions %}`` were nameless)."""
_ROLE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)|\{[A-Za-z][\w.:+-]*\}(`+)(?!`)(.+?)(?<!`)\2(?!`)")
"""A MyST role (Sphinx + MyST-Parser, Jupyter Book, mystmd): ``{name}`` right before a code span,
``{ref}`install` ``, ``{myst:directive}`embed` ``, ``{math}`x^2` ``. The page shows its content: a
cross-reference's explicit title (``{ref}`the options <config>` `` -> ``the options``; Sphinx's
``{py:func}`~pkg.mod.run` `` -> ``run``), the rest as written (``## The {myst:directive}`embed` directive``
was ``The {myst:directive}embed directive``). A code span before it is matched whole (group 1) and stays:
a ``{n}`` ending one (``` `<a>{n}` ```, Clippy's book) is no role."""
_EXPLICIT_TITLE = re.compile(r"(.*?\S)\s*<[^<>]+>", re.DOTALL)
_TAG_KINDS = (
    (re.compile(r"\{\{[<%].*?[%>]\}\}", re.DOTALL), ("%}}", ">}}"), 3, False),
    (re.compile(r"\{\{.*?\}\}", re.DOTALL), ("}}",), 2, True),
    (
        re.compile(r"\{%-?[ \t]*(?:" + "|".join(OUTPUT_TAGS) + r")[ \t]+[^\s%-](?:(?!%\}).)*?%\}", re.DOTALL),
        ("%}",),
        2,
        True,
    ),
    (re.compile(r"\{%.*?%\}", re.DOTALL), ("%}",), 2, False),
    (re.compile(r"\{#.*?#\}", re.DOTALL), ("#}",), 2, False),
)
"""The alternatives of :data:`_TEMPLATE_TAG` in its order: the pattern, the closings it ends with, how far
after the opening a closing may start at the earliest, whether it is an output (the pattern's group 1)."""
_TAG_OPENING = re.compile(r"\{[{%#]")


def _template_tags_replaced(raw: str, replace: Callable[[str, str | None], str]) -> str:
    """``_TEMPLATE_TAG.sub`` of ``raw``, each match replaced by ``replace(tag, output or None)``, in linear
    time: an alternative is tried at an opening only when one of its closings starts late enough after it
    (the last one of each is found once), so no lazy match runs on to the end of the text in vain (the
    pattern alone took each of a heading's 333 ``{{<`` to its end: 5 ms a heading, seven times)."""
    last = [max(raw.rfind(closing) for closing in kind[1]) for kind in _TAG_KINDS]
    out: list[str] = []
    done = 0
    pos = 0
    while (opening := _TAG_OPENING.search(raw, pos)) is not None:
        at = opening.start()
        for (pattern, _, reach, output), closing in zip(_TAG_KINDS, last, strict=True):
            if closing < at + reach:
                continue
            found = pattern.match(raw, at)
            if found is not None:
                out += [raw[done:at], replace(found.group(), found.group() if output else None)]
                done = pos = found.end()
                break
        else:
            pos = at + 1
    if not out:
        return raw
    out.append(raw[done:])
    return "".join(out)


_KEPT = "\ue000{}\ue001"
"""What stands for a kept output while the rest of the heading is read (private-use characters:
no Markdown, no attribute list)."""
_KEPT_BACK = re.compile("\ue000(\\d+)\ue001")
_ATTRIBUTE_LIST = re.compile(
    r"\{:?\s*(?:[#.][\w:.-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}]*))[^{}]*\}|\{-(?:\s[^{}]*)?\}(?=\s*$)"
)
"""Attribute lists of Pandoc, kramdown, Python-Markdown, MkDocs: ``{#id .class key="v"}``, ``{: .x}``, and
Pandoc's ``{-}`` (``{.unnumbered}``: bookdown's ``# Preface {-}``) at the end."""
_TRAILING_ATTRIBUTES = re.compile(
    r"(?:(?<![ \t])[ \t]+(?>\{#[^{}]*\}|\{/\*(?:(?!\*/\}).)*\*/\}|\{[ \t]+[A-Za-z]\w*(?:-\w+)+(?:[ \t][^{}]*)?\}"
    r"|\{:?[ \t]*(?:[#.][\w:.-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}]*))[^{}]*\}|\{-(?:[ \t][^{}]*)?\}"
    r"|\[#[A-Za-z][\w-]*\]|\[(?=[\w.-]*[-_])[A-Za-z_][\w.-]*\]"
    r"|<a[ \t]+(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>[ \t]*</a>|:id=[^\s:]+|:docsify-ignore(?:-all)?))+[ \t]*$"
)
"""What a heading line may end with that names its anchor or styles it, never text: the ids and attribute
lists of :data:`_HEADING_ID`, :data:`_ATTRIBUTE_LIST` (Pandoc's ``{-}`` too), :data:`_BRACKET_ID` and
docs-builder's :data:`_BUILDER_ANCHOR` (a link's label the document defines too: the line is read alone), an empty
anchor element (GitBook's ``## Structure <a href="#structure" id="structure"></a>``, ``<a name="x"></a>``) and
Docsify's :data:`_DOCSIFY_ATTRIBUTES`, one or more, after a space.
Looked for in a line's last :data:`_ATTRIBUTES_TAIL` characters (bounded time on a hostile line). Each one is
atomic, read to its first closing ``}`` (``*/}`` of a comment): ``{#a}`` is both an id and an attribute list, and
``## T {#a} {#a} ... x`` was read in 2^n ways before the word refused it (20 ids: 8 s)."""
_ATTRIBUTES_TAIL = 512
_BOOKDOWN_PART = re.compile(r"\((?:PART|APPENDIX)\*?\) ")
"""bookdown's marker of a part or of the appendices before a heading's text (``# (PART) Get Started {-}``,
``# (PART\\*) Part {-}`` (``(PART*)`` once read), ``# (APPENDIX) Appendix {-}``): the book shows the text after it."""


def without_heading_ids(line: str) -> str:
    """A heading line without the ids and attribute lists it ends with: ``## Install {#install}`` ->
    ``## Install``, ``### Tips {: .tip #tips }`` -> ``### Tips``, ``## Spread [#spread]`` -> ``## Spread``
    ``## Structure <a href="#structure" id="structure"></a>`` -> ``## Structure``, ``## Groups [_groups]`` ->
    ``## Groups`` (what
    ``embedding_drop_heading_ids`` leaves of a heading line; its text for metadata is :func:`heading_text`)."""
    if "{" not in line and "[#" not in line and "</a>" not in line and " :" not in line and "]" not in line:
        return line
    found = _TRAILING_ATTRIBUTES.search(line, max(0, len(line) - _ATTRIBUTES_TAIL))
    return line[: found.start()] if found is not None else line


_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
"""An HTML comment (group 1: its text). A heading holding nothing else is named by that text: MkDocs
Material's ``#### <!-- md:setting config.enabled -->`` is a setting's name filled in by the site's hooks
(named after its position, the 182 such headings of its docs were ``(General, line 191)``)."""
_MARKUP = re.compile(r"[*_`\[\]!<&\\$]")
"""A character inline markup starts with: a heading without one is its own text (one search, a third
of the time of ten ``in`` tests over the corpus's 16,780 headings)."""


_WIKILINK = re.compile(r"!?\[\[([^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\](?![(\[])")
"""A wikilink of Obsidian, Foam, Logseq and MediaWiki (group 1 its target, group 2 its alias): ``[[Properties]]``,
``[[Internal links#Link to a heading|headings]]``, an embed ``![[diagram.png]]``; not the text of a Markdown
link, ``[[1]](url)`` or ``[[1]][ref]``."""
_NOTE_ID = re.compile(r"(?:dendron://[\w.-]+/[\w.-]+|[\w-]+(?:\.[\w-]+)+)(?:#[\w^-]*)?")
"""A Dendron note id, dotted (``dendron.topic.vaults``) or in another vault (``dendron://site/tutorial``), with a
heading's anchor (``#local-vault``)."""
_EMBED_SIZE = re.compile(r"\d+(?:x\d+)?")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_EDGE_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"
"""Zero-width spaces and joiners, the word joiner and the BOM: invisible, and nothing at a heading's ends
(GitBook's editor writes ``## \u200bPrerequisites for SSO``)."""


def shown_wikilinks(raw: str) -> str:
    """``raw`` with its wikilinks as the text the note shows (outside code spans): the alias, else the target with
    a heading's ``#`` shown as Obsidian shows it (``[[Page#Heading]]`` -> ``Page > Heading``, ``[[#Heading]]`` ->
    ``Heading``). Dendron writes the label first (``[[Cookbook|dendron.roadmap.cookbook]]``): a dotted note id
    after the bar, where none is before it, is the target. An embed's size (``![[map.png|400x200]]``) is no alias."""
    spans = [m.span() for m in _CODE_SPAN.finditer(raw)] if "`" in raw else []

    def shown(match: re.Match[str]) -> str:
        if any(a <= match.start() < b for a, b in spans):
            return match.group()
        target, alias = match.group(1), (match.group(2) or "").strip()
        if alias and _NOTE_ID.fullmatch(alias) and not _NOTE_ID.fullmatch(target.strip()):
            target, alias = alias, target.strip()  # Dendron's [[label|note.id]]
        if alias and not _EMBED_SIZE.fullmatch(alias):
            return alias
        parts = [part.strip() for part in target.split("#") if part.strip()]
        return " > ".join(parts) if parts else match.group()

    return _WIKILINK.sub(shown, raw)


_BRACKETED = re.compile(r"\[((?:[^\[\]\\]|\\.)+)\](\[((?:[^\[\]\\]|\\.)*)\])?")
"""Bracketed text (group 1), with the label of a full or collapsed reference after it (group 3:
``[text][label]``, ``[text][]``)."""
_DEFINITION_LINE = re.compile(r"^ {0,3}\[((?:[^\[\]\\\n]|\\.)+)\]:", re.MULTILINE)
"""A line shaped like a link reference definition's start (``[label]:``)."""


def definition_labels(text: str) -> frozenset[str]:
    """The labels (normalised as markdown-it compares them) of the lines of ``text`` shaped like link
    reference definitions: what makes a shortcut reference ``[label]`` in a heading a link."""
    return frozenset(normalizeReference(m.group(1)) for m in _DEFINITION_LINE.finditer(text))


def _references(raw: str, labels: Container[str]) -> dict[str, Any]:
    """markdown-it's ``env`` for a heading's inline parse: the reference links it holds as defined
    (the heading alone knows no definitions). A full or collapsed reference (``[Field()][pydantic.Field]``,
    ``[text][]``) is a link whatever the document defines (MkDocs' autorefs resolves labels from the
    API reference); a shortcut (``[1.2.0]``) only with a label in ``labels``."""
    found: dict[str, dict[str, str]] = {}
    for match in _BRACKETED.finditer(raw):
        label = match.group(3) or match.group(1)
        key = normalizeReference(label)
        if key and (match.group(2) is not None or key in labels):
            found[key] = {"href": "", "title": ""}
    return {"references": found} if found else {}


@lru_cache(maxsize=1)
def _inline_parser() -> MarkdownIt:
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    return MarkdownIt("commonmark").enable("table").use(dollarmath_plugin)


_TEXT_TOKENS = frozenset({"text", "code_inline", "math_inline", "math_single", "code_block", "fence", "math_block"})


def _collect(tokens: list[Token], out: list[str], *, tags: bool = False) -> None:
    """The text of ``tokens`` appended to ``out``; with ``tags``, inline HTML too, as written."""
    texts = _TEXT_TOKENS | {"html_inline"} if tags else _TEXT_TOKENS
    for token in tokens:
        if token.children:
            _collect(token.children, out, tags=tags)
        elif token.type in texts:
            out.append(token.content)
        elif token.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif token.type == "image":
            out.append(token.content)


def heading_text(raw: str, labels: Container[str] = frozenset(), *, tags: bool = False) -> str:
    """Plain text of a heading line's inline content: ``**Bold** [link](x) {#id}`` -> ``Bold link``. A closing
    ``[#id]`` goes too, and so do Docsify's ``:id=x`` and ``:docsify-ignore``. Attribute lists, HTML comments and
    tags, Liquid/Jinja tags and Hugo shortcodes are removed (template outputs, ``{{ name }}``, are kept as written;
    a heading of HTML comments only is their text; a heading of template tags only is named by them as written:
    Kubernetes' ``## {{% heading "whatsnext" %}}`` is the page's "What's next", which the site's shortcode writes in
    the page's language); inline markup is rendered to its text by markdown-it. Reference links are their text
    (:func:`_references`; ``labels``: the document's definitions, :func:`definition_labels`): ``## [1.2.0] -
    2024-05-01`` of a keep-a-changelog file is ``1.2.0 - 2024-05-01`` when the file defines ``[1.2.0]:``, ``[switch]
    parameters`` stays. With ``tags``, HTML tags are text as written (a frontmatter title is a string the site shows
    as it is: MDN's ``title: "<pre>: The Preformatted Text element"``, react.dev's ``title: <StrictMode>``)."""
    raw = raw[:MAX_HEADING_CHARS]
    if isinstance(labels, Hashable):
        return _heading_text(raw, labels, tags)
    return _heading_text.__wrapped__(raw, labels, tags)


@lru_cache(maxsize=4096)
def _heading_text(raw: str, labels: Container[str], tags: bool) -> str:
    """:func:`heading_text` of a line already cut, remembered: the pipeline asks it of one heading line up to
    seven times (the heading path, then a chunk's leading headings for its context line, with and without
    references), and a line of markup costs its inline parse each time (1,000 ``<``: 25 ms)."""
    kept: list[str] = []
    tags_only: list[str] = []  # the tags removed (Jinja comments apart): a heading of nothing else is named by them
    raw = _bracket_ids_removed(raw, labels)
    if "{" in raw:  # every pattern of this branch starts with "{"; most headings hold none
        raw = _HEADING_ID.sub("", raw)
        sentinel = "\ue000" in raw  # (a heading holding one keeps no output nor role)
        if "}`" in raw and not sentinel:

            def role(match: re.Match[str]) -> str:
                if match.group(1) is not None:
                    return match.group()  # a code span
                kept.append(_role_text(match.group(3)))
                return _KEPT.format(len(kept) - 1)

            raw = _ROLE.sub(role, raw)

        def tag(found: str, output: str | None) -> str:
            if output is None or sentinel:
                if not found.startswith("{#"):
                    tags_only.append(found)
                return " "
            kept.append(output)
            return _KEPT.format(len(kept) - 1)

        raw = _ATTRIBUTE_LIST.sub(" ", _template_tags_replaced(raw, tag))
    if "[[" in raw:
        raw = shown_wikilinks(raw)
    comments = ""
    if "<!--" in raw:
        comments = " ".join(m.group(1) for m in _HTML_COMMENT.finditer(raw))
        raw = _HTML_COMMENT.sub(" ", raw)
    if _MARKUP.search(raw) is None:
        text = raw
    else:
        raw = _markup_cut(raw)
        out: list[str] = []
        env = _references(raw, labels) if "]" in raw else {}
        _collect(_inline_parser().parseInline(raw, env), out, tags=tags)
        text = "".join(out)
    if kept:
        text = _KEPT_BACK.sub(lambda m: kept[int(m.group(1))], text)
    if comments and not text.strip():  # a heading of comments only is named by them (a site's macro)
        text = comments
    elif tags_only and not text.strip():  # one of template tags only: the site renders its text from them
        text = " ".join(tags_only)
    return _tidy(text)


def _tidy(text: str) -> str:
    """A heading's text with runs of whitespace as one space, none at the ends, no bookdown part marker
    (:data:`_BOOKDOWN_PART`) and no invisible characters at its edges."""
    text = " ".join(text.split())  # (8 x a re.sub)
    if text[:1] == "(" and (part := _BOOKDOWN_PART.match(text)) is not None and part.end() < len(text):
        text = text[part.end() :]
    return text.strip(_EDGE_INVISIBLE + " ") if text[:1] in _EDGE_INVISIBLE or text[-1:] in _EDGE_INVISIBLE else text


def _bracket_ids_removed(raw: str, labels: Container[str]) -> str:
    """``raw`` without a closing ``[#id]``, docs-builder's anchors (:data:`_BUILDER_ANCHOR` unless ``labels``
    defines it as a link's, :data:`INLINE_ANCHOR`) and Docsify's attributes (:data:`_DOCSIFY_ATTRIBUTES`)."""
    if "[#" in raw:
        raw = _BRACKET_ID.sub("", raw)
    if raw.rstrip().endswith("]"):
        anchor = _BUILDER_ANCHOR.search(raw, max(0, len(raw) - _ATTRIBUTES_TAIL))
        if anchor is not None and normalizeReference(anchor.group(1)) not in labels:
            raw = raw[: anchor.start()]
    if "$$$" in raw:
        raw = INLINE_ANCHOR.sub("", raw)
    if ":id=" in raw or ":docsify-ignore" in raw:
        raw = _DOCSIFY_ATTRIBUTES.sub("", raw)
    return raw


def _role_text(content: str) -> str:
    """What the page shows of a role's content (:data:`_ROLE`): a code span's, its explicit title, or
    for ``~a.b.c`` its last part."""
    if content[:1] == " " and content[-1:] == " " and content.strip(" "):
        content = content[1:-1]  # a code span's one space each side (CommonMark)
    explicit = _EXPLICIT_TITLE.fullmatch(content)
    if explicit is not None:
        return explicit.group(1)
    if content[:1] == "~" and "." in content:
        return content.rsplit(".", 1)[1]
    return content.lstrip("!")


def _markup_cut(raw: str) -> str:
    """``raw`` up to its :data:`MAX_HEADING_MARKUP`-th character that may start inline markup, or its
    :data:`MAX_HEADING_BRACKETS`-th ``[``."""
    brackets = 0
    for count, markup in enumerate(_MARKUP.finditer(raw)):
        if count == MAX_HEADING_MARKUP:
            return raw[: markup.start()]
        if markup.group() == "[":
            if brackets == MAX_HEADING_BRACKETS:
                return raw[: markup.start()]
            brackets += 1
    return raw


def plain_text(content: str, kind: str) -> str:
    """Text of a block without Markdown syntax (links -> text, images -> alt text)."""
    out: list[str] = []
    for token in _inline_parser().parse(content):
        if token.type == "inline" and token.children is not None:
            _collect(token.children, out)
            out.append("\n")
        elif token.type in ("fence", "code_block", "math_block", "html_block"):
            out.append(token.content)
    return "\n".join(line.strip() for line in "".join(out).strip().split("\n"))
