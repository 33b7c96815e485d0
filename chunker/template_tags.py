"""Template tags of static site generators that render no text of their own, as what a chunk embeds
leaves them out under ``embedding_drop_template_tags`` (``content_original`` keeps them: it is the
exact source slice).

A site runs its templates before Markdown, over the whole page, fenced code included: Liquid/Jinja
tags (``{% ifversion ghes %}``, ``{% else %}``, ``{% endif %}``, ``{% note %}``, ``{%- include x -%}``),
comment blocks with their text (``{% comment %}`` ... ``{% endcomment %}``) and the tags of paired Hugo
shortcodes (``{{< note >}}`` ... ``{{< /note >}}``, ``{{% /tab %}}``: a closing tag, or an opening one the text
closes) go (a glossary term, Home Assistant's ``{% term integration %}``, leaves its word); the text between
``{% raw %}`` and ``{% endraw %}`` stays as
written, without those two tags (``{% raw %}${{ secrets.GITHUB_TOKEN }}{% endraw %}`` is what the
page shows: ``${{ secrets.GITHUB_TOKEN }}``). What stands for text the site fills in stays, as in
heading text (:mod:`chunker.inline`): outputs (``{{ page.title }}``), the tags of
:data:`OUTPUT_TAGS` with an argument (``{% data reusables.actions.choose-repo %}``) and a shortcode the text
does not close, which Hugo replaces with what it renders (Kubernetes' ``{{< glossary_tooltip text="Pod"
term_id="pod" >}}`` is the word "Pod" on the page, ``{{< skew currentVersion >}}`` a version, ``{{<
glossary_definition term_id="etcd" >}}`` a paragraph; removed, "starting up a new  when" lost its word), as
written; so is a shortcode comment (``{{</* note */>}}``, which the page shows as ``{{< note >}}``). A line left blank
by a removal goes, and so does a blank line that would then follow another; a tag between two word
characters leaves a space (``id_{% ifversion ghae %}rsa{% else %}ed25519{% endif %}``: ``id_rsa
ed25519``, both branches' words apart).

One pass over the text (no pattern tries a lazy match from every opening): a kind of tag that nothing
closes is not looked for again.
"""

from __future__ import annotations

import re

__all__ = [
    "GONE",
    "OUTPUT_TAGS",
    "blanked",
    "closed_shortcodes",
    "fence_view",
    "lines_without_gone",
    "next_tag",
    "without_tags",
]

OUTPUT_TAGS = ("data", "echo")
"""Liquid tags that output a value: Liquid's ``{% echo x %}``, GitHub Docs' ``{% data
variables.product.prodname_actions %}`` (a product name, a reusable paragraph)."""
_NO_LABEL = frozenset({"assign", "set", "capture", "include", "include_relative", "render", "with", "macro", "call"})
"""Liquid/Jinja tags whose ``title="x"`` is a value set or passed on, not a label the page shows there."""
GONE = "\x00"
"""What marks a removal until the lines are put back together."""

_OPEN = re.compile(r"\{(?=%|\{[<%])")
_NAME = re.compile(r"\{%-?[ \t\n]*(\w*)[ \t\n]*([^\s%-]?)")
_SHORTCODE_CLOSE = re.compile(r"[>%]\}\}")
_LIQUID_CLOSE = re.compile(r"%\}")
_END_RAW = re.compile(r"\{%-?[ \t\n]*endraw[ \t\n]*-?%\}")
_WORD = re.compile(r"[^\W_][^\W_]")
_END_COMMENT = re.compile(r"\{%-?[ \t\n]*endcomment[ \t\n]*-?%\}")
_SHORTCODE_NAME = re.compile(r"\{\{[<%][ \t\n]*(/?\*?)[ \t\n]*([\w-]*)")
"""A shortcode's start: ``/`` of a closing tag or ``/*`` of a comment that Hugo shows as written (group 1), its
name (group 2)."""
_SHORTCODE_CLOSING = re.compile(r"\{\{[<%][ \t\n]*/[ \t\n]*([\w-]+)")
_LABEL = re.compile(r"""[ \t\n](title|header|label|name)=(?:"([^"\n]*)"|'([^'\n]*)')""")
"""An attribute the site shows as a block's label: GitBook's ``{% tab title="Cursor" %}``, ``{% code
title="config.yaml" %}``, Docsy's ``{{% alert title="Note" %}}`` and ``{{< tab header="Linux" >}}``, and
(of a ``tab`` only) Kubernetes' ``{{% tab name="Azure" %}}``: elsewhere ``name`` is an id (``{{< tabs
name="kubectl_install" >}}``)."""


_TITLED = frozenset(
    {"cut", "note", "details", "spoiler", "expand", "collapse", "accordion", "notice", "hint", "callout", "tab"}
)
"""Tags of a block the page shows under a title given as a quoted argument, not as ``title=``: Yandex
Flavored Markdown's (Diplodoc) ``{% cut "Example .yfm file" %}`` and ``{% note warning "Careful" %}``, Hugo
themes' ``{{< details "Title" >}}``, ``{{% notice note "Title" %}}``, ``{{< tab "Linux" >}}``."""
_QUOTED = re.compile(r"""[ \t\n](?:"([^"\n]*)"|'([^'\n]*)')""")
_TERM = re.compile(r"""\{%-?[ \t\n]*term[ \t\n]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'%]+))""")
"""Home Assistant's glossary tag, which shows its term where it stands (a tooltip over the word): ``{% term
integration %}``, ``{% term "`configuration.yaml`" %}`` (2,405 in its docs, in 1,723 of 28,962 chunks). Dropped
whole, "add the following lines to your {% term "`configuration.yaml`" %} file" embedded as "to your  file"."""


_API_TAG = re.compile(r"\{%-?[ \t\n]*(?:(?:api-method|swagger|openapi)(?:-[\w-]+)?|update)[ \t\n]")
"""GitBook's API blocks: ``{% api-method method="get" host="https://api.x.io" path="/v1/events/:id" %}``,
``{% api-method-parameter name="id" type="string" required=true %}``, ``{% swagger-response status="200" ... %}``,
``{% openapi src="..." path="/pets" method="get" %}``, and the entries of its changelogs, ``{% update
date="2022-12-15" tags="beta" %}``: their attributes are what the page shows (the method and path, a parameter's
name and type, an update's date and tags)."""
_EMBED_URL = re.compile(r"""[ \t\n]url=["']([^"'\n]*)["']""")
_ATTRIBUTE = re.compile(r"""[ \t\n]([\w-]+)=(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'%]+))""")


def _api_text(text: str, start: int, end: int) -> str | None:
    """What a GitBook API block's tag ``text[start:end]`` shows: its attribute values in order (``required=true`` as
    ``required``, a false flag and empty values left out), or None for an API tag of no attribute."""
    shown: list[str] = []
    for match in _ATTRIBUTE.finditer(text, start, end):
        value = next((v for v in match.group(2, 3, 4) if v is not None), "").strip()
        if value.lower() == "true":
            shown.append(match.group(1))
        elif value and value.lower() != "false":
            shown.append(" ".join(value.split()))
    return " ".join(shown) or None


def _label(text: str, start: int, end: int, name: str) -> str | None:
    """The label of the tag ``text[start:end]`` named ``name`` (:data:`_LABEL`, else the first quoted argument of a
    tag in :data:`_TITLED`), if it has one with text; of GitBook's ``{% embed url="..." %}``, its URL (the card the
    page shows names it, as a link's target stays in what a chunk embeds)."""
    if name == "embed":
        found = _EMBED_URL.search(text, start, end)
        return " ".join(found.group(1).split()) if found is not None and found.group(1).strip() else None
    for match in _LABEL.finditer(text, start, end):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        if value.strip() and (match.group(1) != "name" or name == "tab"):
            return " ".join(value.split())
    if name in _TITLED:  # a quoted argument, not an attribute's value (:data:`_TITLED`)
        for match in _QUOTED.finditer(text, start, end):
            if text[match.end() : match.end() + 1] != "=":
                value = match.group(1) if match.group(1) is not None else match.group(2)
                if value.strip():
                    return " ".join(value.split())
    if name == "note" and text.startswith("{%", start):
        return _note_title(text[start:end])
    return None


_NOTE_ARGS = re.compile(r"\{%-?[ \t\n]*note[ \t\n]+([^\"'=%]*?)[ \t\n]*-?%\}")
_NOTE_FLAGS = frozenset({"notitle", "no-icon"})


def _note_title(tag: str) -> str | None:
    """The title of a note written unquoted after its class, as Hexo's site writes it (``{% note info Website in
    subdirectory %}``: a ``note info`` box titled by the words after the class); a flag (``notitle``, ``no-icon``)
    is no title."""
    found = _NOTE_ARGS.fullmatch(tag)
    words = [w for w in found.group(1).split() if w not in _NOTE_FLAGS] if found is not None else []
    return " ".join(words[1:]) or None


def _spaced(text: str, start: int, end: int, label: str) -> str:
    """``label`` in the place of the tag ``text[start:end]``, kept apart from a word right before or after it."""
    before = " " if start and not text[start - 1].isspace() else ""
    after = " " if end < len(text) and not text[end].isspace() else ""
    return before + label + after


def next_tag(text: str, pos: int, live: list[bool]) -> tuple[int, int] | None:
    """(start, end) of the first template tag at or after ``pos``: a Liquid/Jinja tag (``{% x %}``, ending at the
    first ``%}``) or a Hugo shortcode (``{{< x >}}``, ``{{% x %}}``); a template output (``{{ x }}``) is none. One
    scan for every caller (:func:`without_tags`, :func:`blanked`). ``live`` is [Liquid, shortcodes], the kinds still
    looked for: a kind that nothing closes is cleared and not looked for again (a later opening would need a
    closing after this one's), so a text of many unclosed openings is scanned once (50,000 unclosed ``{{< a``
    on one line took minutes with a lazy pattern tried from each)."""
    while live[0] or live[1]:
        opening = _OPEN.search(text, pos)
        if opening is None:
            return None
        start = opening.start()
        if live[0] and text.startswith("{%", start):
            close = _LIQUID_CLOSE.search(text, start + 2)
            if close is not None:
                return start, close.end()
            live[0] = False
        elif live[1] and text.startswith(("{{<", "{{%"), start):
            shortcode = _SHORTCODE_CLOSE.search(text, start + 3)
            if shortcode is not None:
                return start, shortcode.end()
            live[1] = False
        pos = start + 1  # no tag starts here: the next opening may start one character on (``{{%`` holds ``{%``)
    return None


def blanked(text: str) -> str:
    r"""``text`` with every template tag (:func:`next_tag`: Liquid tags of any name, shortcodes) replaced by a
    space, as ``re.sub(r"\{\{[<%].*?[>%]\}\}|\{%.*?%\}", " ", text, flags=re.DOTALL)`` replaces them, in linear
    time: what the filler tests read (:mod:`chunker.filler`)."""
    out: list[str] = []
    pos = 0
    live = [True, True]
    while (tag := next_tag(text, pos, live)) is not None:
        out += [text[pos : tag[0]], " "]
        pos = tag[1]
    out.append(text[pos:])
    return "".join(out)


def closed_shortcodes(page: str) -> frozenset[str]:
    """The names of the shortcodes ``page`` closes (``{{< /admonition >}}``), found once per page (the last one
    asked for is remembered: each chunk of it asks)."""
    last = _LAST_PAGE[0]
    if last is not None and last[0] is page:
        return last[1]
    names = frozenset(m.group(1) for m in _SHORTCODE_CLOSING.finditer(page)) if "{{" in page else frozenset()
    _LAST_PAGE[0] = (page, names)
    return names


_LAST_PAGE: list[tuple[str, frozenset[str]] | None] = [None]


def without_tags(text: str, page_closed: frozenset[str] = frozenset()) -> str:
    """``text`` without the tags the module names, its lines left blank by that removed. ``page_closed``: the
    shortcodes the page of which ``text`` is a part closes (:func:`closed_shortcodes`): an opening tag whose
    closing lies in a later chunk (``{{< collapse title="Receivers" >}}`` over a long list) is a tag of the page's
    element, not text the site renders in its place (24 of grafana/alloy's chunks kept one, its title unsaid)."""
    if "{%" not in text and "{{<" not in text and "{{%" not in text:
        return text
    out: list[str] = []
    pos = 0
    live = [True, True]
    closed: frozenset[str] | None = None  # the names of the shortcodes ``text`` closes, found at its first one
    while (tag := next_tag(text, pos, live)) is not None:
        start, end = tag
        if text.startswith("{{", start):
            mark, name = _SHORTCODE_NAME.match(text, start).group(1, 2)  # type: ignore[union-attr]
            if closed is None:
                closed = frozenset(m.group(1) for m in _SHORTCODE_CLOSING.finditer(text)) | page_closed
            if mark == "/*" or (not mark and name not in closed):  # text the site renders in its place
                out.append(text[pos:end])
                pos = end
                continue
            titled = "=" in text[start:end] or name in _TITLED
            label = None if mark or not titled else _label(text, start, end, name)
            if label is not None:  # the tab's or the note's title, which the page shows
                out += [text[pos:start], _spaced(text, start, end, label)]
                pos = end
                continue
        elif text.startswith("{%", start):
            name, argument = _NAME.match(text, start).group(1, 2)  # type: ignore[union-attr]
            if name in OUTPUT_TAGS and argument:  # a value the site fills in
                out.append(text[pos:end])
                pos = end
                continue
            term = _TERM.match(text, start, end) if name == "term" else None
            shown = next((v for v in term.groups() if v), None) if term is not None else None
            if shown is not None and shown.strip():  # the word the page shows
                out += [text[pos:start], " ".join(shown.split())]
                pos = end
                continue
            label = None
            if ("=" in text[start:end] or name in _TITLED) and name not in _NO_LABEL:
                api = _API_TAG.match(text, start) is not None
                label = _api_text(text, start, end) if api else _label(text, start, end, name)
            if label is not None:
                out += [text[pos:start], _spaced(text, start, end, label)]
                pos = end
                continue
            if name in ("raw", "comment"):
                closing = (_END_RAW if name == "raw" else _END_COMMENT).search(text, end)
                if closing is None and name == "raw":
                    out += [text[pos:start], GONE, text[end:]]  # nothing after it is a tag
                    pos = len(text)
                    break
                if closing is not None:
                    out += [text[pos:start], GONE, text[end : closing.start()] if name == "raw" else ""]
                    pos = closing.end()
                    continue
        between = start > 0 and end < len(text) and _WORD.match(text[start - 1] + text[end]) is not None
        out += [text[pos:start], " " if between else GONE]  # two branches' words kept apart
        pos = end
    out.append(text[pos:])
    result = "\n".join(lines_without_gone("".join(out).split("\n")))
    return result if text[-1:].isspace() else result.rstrip()  # no blank line left at the end


_FENCE_LINE = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3}|~{3})")
"""A fence line as a site reads it (container prefixes and list markers before the run)."""


def fence_view(line: str) -> str:
    """``line`` as a code-fence line reads once the site has run its templates, which it does before Markdown:
    without the Liquid/Jinja tags written on it (``{% raw %}```bash``, ``{% else %}```shell``: opening fences;
    ```` ```{% endif %} ````, ```` ```{% endraw %} ````: closing ones), outputs kept (``{% data x %}``). ``line``
    itself (the same object) when it holds no tag or no fence line is left without them. Markdown alone reads
    such a line as text, or as a fence whose info string is the tag, which closes nothing: the fence it was
    meant to close ran on to the end of its container (GitHub Docs: 3 ``unclosed-fence`` errors)."""
    if "{%" not in line or ("`" not in line and "~" not in line):
        return line
    out: list[str] = []
    pos = 0
    live = [True, False]  # Liquid tags only
    while (tag := next_tag(line, pos, live)) is not None:
        start, end = tag
        name, argument = _NAME.match(line, start).group(1, 2)  # type: ignore[union-attr]
        out.append(line[pos:end] if name in OUTPUT_TAGS and argument else line[pos:start])
        pos = end
    if not out:
        return line
    out.append(line[pos:])
    view = "".join(out)
    return view if _FENCE_LINE.match(view) is not None else line


def lines_without_gone(lines: list[str]) -> list[str]:
    """``lines`` without the :data:`GONE` marks: a line left blank by a removal goes, and so does a
    blank line that would then follow another (or start the text)."""
    out: list[str] = []
    dropped = False
    for line in lines:
        if GONE in line:
            line = line.replace(GONE, "")
            if not line.strip():
                dropped = True
                continue
        if not line.strip() and dropped and (not out or not out[-1].strip()):
            continue
        dropped = False
        out.append(line)
    return out
