"""Component markup that renders no text of its own, as what a chunk embeds leaves it out under
``embedding_drop_components`` (``content_original`` keeps it: it is the exact source slice).

- MDX/JSX component tags (a name starting with a capital or holding a dot: ``<Tabs groupId="os">``,
  ``</TabItem>``, ``<Callout type="warning">``, ``<Steps>``, ``<Tree.File name="a.ts" />``), fragments
  (``<>``, ``</>``) and custom elements (HTML's names of lowercase letters with a hyphen: denoland/docs'
  ``<deno-tabs group-id="sdk">``, ``<deno-tab value="py" label="Python">``, web components a site's script
  renders) go; what a tag shows stays as text in its place, as a template tag's label does
  (:mod:`chunker.template_tags`): a ``title``, ``label``, ``description``, ``caption``, ``name``, ``header``,
  ``alt``, ``text``, ``tip``, ``headline`` or ``summary`` (``<Card title="Quickstart" href="/start">`` embeds as
  ``Quickstart``), a tab's ``value`` when it has no label (Docusaurus shows it: ``<TabItem value="npm">``), the
  strings of a tab list (Nextra's ``<Tabs items={['pnpm', 'npm']}>``: ``pnpm npm``) and every attribute value of an
  API field (Mintlify's ``<ResponseField name="id" type="string" required>``: ``id string required``). A tag is
  read with its props, braces and strings balanced: an icon written as an ``<svg>`` in a card's props goes with
  the tag (Mintlify's card grids embedded SVG path data);
- an ``<svg>`` element written in the text goes whole (its path data shows as an image, not as words);
- JSX comments (``{/* prettier-ignore */}``) go; other expressions (``{props.version}``) are values the page
  shows and stay;
- MyST directive options (``:class: dropdown``, ``:name: intro``, ``:widths: 20 80``), the lines of ``:key:``
  right under a directive's opening line (```` ```{note} ````, ``:::{figure} x.png``); the words of a
  ``caption``, ``alt``, ``title``, ``header``, ``footer``, ``subtitle`` or ``filename`` stay, as text.

Outside fenced code and code spans only (:mod:`chunker.pack.cleanup` calls this on the text between them):
a component written in an example stays as written. A line left blank by a removal goes; a tag between two
word characters leaves a space.

Linear in the text: a tag is read from its ``<`` to its ``>`` and no further than the first blank line (a
tag never closed ends its reading there and the search goes on after it); a comment never closed stops
the search for comments.
"""

from __future__ import annotations

import re

from chunker.template_tags import GONE

__all__ = ["OPTION_LINE", "directive_option", "opens_directive", "without_components", "without_svg_lines"]

_OPENING = re.compile(
    r"<(?:/?(?:[A-Z][\w:-]*|[A-Za-z][\w-]*(?:\.[\w-]+)+|(?!(?:font-face|color-profile|missing-glyph|annotation-xml)"
    r"[-\s/>])[a-z][a-z0-9]*-[a-z0-9-]*(?=[\s/>]))|/?>|svg\b)|\{/\*"
)
"""Where a component tag (``<Tabs``, ``</TabItem``, ``<Tree.File``, a fragment ``<>`` / ``</>``, a custom element
``<deno-tab``), an ``<svg>`` element or a JSX comment (``{/*``) starts. A custom element is HTML's: a lowercase
name holding a hyphen (not one of the SVG and MathML names of that form, ``font-face``, ``annotation-xml``), a
site's web component that its script renders (Lume's ``<deno-tabs>`` / ``<deno-tab label="Python">``: the tab
buttons show the labels)."""
_SHOWN = frozenset(
    (
        "title",
        "label",
        "description",
        "caption",
        "name",
        "header",
        "alt",
        "text",
        "tip",
        "headline",
        "summary",
        "filename",
        "file-name",
    )
)
"""Props a component shows as words: a card's or an aside's ``title``, a tab's ``label``, a tree file's
``name``, a frame's ``caption``, a tooltip's ``tip``, a listing's ``file-name`` (the Rust book's ``<Listing>``)."""
_TABS = frozenset(("Tab", "TabItem"))
"""Components whose ``value`` is their label when they have none (Docusaurus' ``<TabItem value="npm">``)."""
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_STRING = re.compile(r"""'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`""")
_WORD = re.compile(r"[^\W_][^\W_]")
_NAME = re.compile(r"[\w.:-]*")
_PROP = re.compile(r"([A-Za-z_$][\w:.$-]*)[ \t\n]*(=[ \t\n]*)?")
_BARE = re.compile(r"[^\s\"'=<>`{}]+")
"""An unquoted value (``<Foo size=2>``: HTML's, which CommonMark's raw HTML allows)."""


class _Tag:
    """One tag read from its ``<``: where it ends, its name, whether it closes, its props."""

    __slots__ = ("closing", "end", "name", "props")

    def __init__(self) -> None:
        self.end = -1
        self.name = ""
        self.closing = False
        self.props: list[tuple[str, str, bool]] = []
        """(name, value, braced): ``title="X"`` -> ("title", "X", False), ``items={[...]}`` -> ("items",
        "[...]", True), a flag ``required`` -> ("required", "", False)."""


def _read_tag(text: str, start: int, stop: int, cut: bool = False) -> _Tag | None:
    """The tag opening at ``text[start]`` (``<``), read no further than ``stop``; None when it does not end
    there (a ``>`` outside strings and braces ends it). ``cut``: the text is a piece cut inside the tag, which
    ends at ``stop`` with the props read whole up to there."""
    tag = _Tag()
    pos = start + 1
    if text.startswith("/", pos):
        tag.closing = True
        pos += 1
    name = _NAME.match(text, pos, stop)
    tag.name = name.group() if name else ""
    pos += len(tag.name)
    if text.startswith(("@", "://"), pos):
        return None  # an autolink (<Jane@example.com>), no tag
    while pos < stop:
        char = text[pos]
        if char == ">":
            tag.end = pos + 1
            return tag
        if char in " \t\n/":
            pos += 1
            continue
        if char == "{":  # a spread, {...props}
            pos = _value_end(text, pos, stop)
            if pos < 0:
                break
            continue
        found = _PROP.match(text, pos, stop)
        if found is None:
            return None  # no tag: '<K, V>', 'a <B (c)'
        pos = found.end()
        if found.group(2) is None:
            tag.props.append((found.group(1), "", False))
        elif pos < stop and text[pos] in "\"'{":
            close = _value_end(text, pos, stop)
            if close < 0:
                break
            tag.props.append((found.group(1), text[pos + 1 : close - 1], text[pos] == "{"))
            pos = close
        elif (bare := _BARE.match(text, pos, stop)) is not None:
            tag.props.append((found.group(1), bare.group(), False))
            pos = bare.end()
        else:
            return None
    if not cut:
        return None
    tag.end = stop
    return tag


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` is escaped by a backslash (an odd run of them before it)."""
    run = 0
    while at - run > 0 and text[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _value_end(text: str, start: int, stop: int) -> int:
    """The position after the string or braced expression starting at ``start``, or -1 when it does not end
    before ``stop``."""
    if text[start] == "{":
        return _braces_end(text, start, stop)
    close = text.find(text[start], start + 1, stop)
    return close + 1 if close >= 0 else -1


def _braces_end(text: str, start: int, stop: int) -> int:
    """The position after the ``}`` that balances the ``{`` at ``start`` (strings inside read whole), or -1."""
    depth = 0
    pos = start
    while pos < stop:
        char = text[pos]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return pos + 1
        elif char in "\"'`":
            close = text.find(char, pos + 1, stop)
            if close < 0:
                return -1
            pos = close
        pos += 1
    return -1


def _shown(tag: _Tag) -> str:
    """The words ``tag`` shows (the module's list), space-separated; ``""`` for none."""
    if tag.closing:
        return ""
    words: list[str] = []
    field = tag.name.endswith("Field")
    labelled = any(name in ("label", "title") for name, _, _ in tag.props)
    for name, value, braced in tag.props:
        if braced:
            strings = [next(g for g in m.groups() if g is not None) for m in _STRING.finditer(value)]
            if name == "items" or (name in _SHOWN and len(strings) == 1 and value.strip()[:1] in "\"'`"):
                words += strings
            continue
        if field and not value and name not in ("key", "id"):
            words.append(name)  # a flag the field shows: required, deprecated
        elif (name in _SHOWN or field or (name == "value" and not labelled and tag.name in _TABS)) and name not in (
            "id",
            "key",
            "className",
        ):
            words.append(value)
    return " ".join(" ".join(w.split()) for w in words if w.strip())


def without_components(text: str, code: list[tuple[int, int]]) -> str:
    """``text`` (no fenced code in it) with its component markup marked gone (:data:`GONE`) or replaced by the
    words it shows; ``code``: its code spans, (start, end) in order, left as they are."""
    out: list[str] = []
    pos = search = span = 0
    stop = -1  # the next blank line's start (or the end) at or after the current opening
    comments = svgs = True  # whether one can still close: a kind that nothing closes is not looked for again
    while (found := _OPENING.search(text, search)) is not None:
        start = found.start()
        if _escaped(text, start):
            search = start + 1  # '\<T\>', '\{': text as written
            continue
        while span < len(code) and code[span][1] <= start:
            span += 1
        if span < len(code) and code[span][0] <= start:
            search = code[span][1]  # in a code span: as written
            continue
        if stop < start:
            blank = _BLANK_LINE.search(text, start)
            stop = blank.start() if blank is not None else len(text)
        shown = ""
        if found.group().startswith("{"):
            close = text.find("*/", start + 3) if comments else -1
            if close < 0:
                comments = False
                search = start + 1
                continue
            end = close + 2
            while end < len(text) and text[end] in " \t\n":
                end += 1
            if not text.startswith("}", end):
                search = close + 2  # an opening before it would end at the same '*/'
                continue
            end += 1
        elif found.group() == "<svg":
            close = text.find("</svg>", start) if svgs else -1
            if close < 0:
                svgs = False
                search = start + 1
                continue
            end = close + len("</svg>")
        else:
            tag = _read_tag(text, start, stop)
            if tag is None and stop == len(text) and not text[text.rfind("\n", 0, start) + 1 : start].strip():
                tag = _read_tag(text, start, stop, cut=True)  # a piece cut inside the tag: the rest is its props
            if tag is None:
                search = max(stop, start + 1)  # never closed before a blank line: no tag starts in what it read
                continue
            end, shown = tag.end, _shown(tag)
        out += [text[pos:start], _apart(text, start, end, shown) if shown else _gone(text, start, end)]
        pos = search = end
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def _apart(text: str, start: int, end: int, shown: str) -> str:
    """The words ``shown`` by the markup ``text[start:end]``, apart from a word it touches on either side (``a
    <TabItem label="Shown">here`` embedded ``a Shownhere``, a word no page shows)."""
    before = " " if start and text[start - 1].isalnum() else ""
    return before + shown + (" " if end < len(text) and text[end].isalnum() else "")


def _gone(text: str, start: int, end: int) -> str:
    """What stands for the markup ``text[start:end]`` that shows nothing: a space between what must stay apart
    (:func:`_kept_apart`), else :data:`GONE`."""
    return " " if _kept_apart(text, start, end) else GONE


def _kept_apart(text: str, start: int, end: int) -> bool:
    """Whether what lies on both sides of the markup ``text[start:end]`` that goes must stay apart: two words, or
    two backtick runs (one before ``<Tenant_ID>``, two after it: no code span; joined, the runs made three, a
    fence at a line start, found in elastic/docs-content)."""
    if start == 0 or end >= len(text):
        return False
    return _WORD.match(text[start - 1] + text[end]) is not None or text[start - 1] == text[end] == "`"


OPTION_LINE = re.compile(r"[ \t>]*:([\w-]+):(?:[ \t]+(.*))?[ \t]*")
"""A MyST directive option line (``:class: dropdown``, ``:hidden:``), matched whole: its name and value."""
_DIRECTIVE = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3,}|~{3,}|:{3,})[ \t]*\{[\w:.-]+\}")
"""A MyST directive's opening line: a fence or a colon fence whose info starts with ``{name}``."""
_OPTION_WORDS = frozenset(("caption", "alt", "title", "header", "footer", "subtitle", "filename"))


def opens_directive(line: str) -> bool:
    """Whether ``line`` opens a MyST directive (```` ```{note} ````, ``:::{figure} x.png``)."""
    return "{" in line and _DIRECTIVE.match(line) is not None


def directive_option(line: str) -> str | None:
    """What an option line under a directive's opening line embeds: the words of a caption, an alt text, a title
    or a file name (indented as the line), :data:`GONE` for another option; None when ``line`` is no option line
    (the options end there)."""
    found = OPTION_LINE.fullmatch(line)
    if found is None:
        return None
    value = (found.group(2) or "").strip()
    if found.group(1) in _OPTION_WORDS and value:
        return line[: len(line) - len(line.lstrip(" \t>"))] + value
    return GONE


_CELL_OPTION = re.compile(r"([ \t>]*)(?:#|//|%%)\|(?:[ \t]+([\w-]+):)?[ \t]*(.*?)[ \t]*")
"""A Quarto / R Markdown cell option line (``#| label: fig-cars``, ``#| fig-cap: "Cars"``, ``//| echo: false`` of an
OJS cell, ``%%| fig-width: 6`` of a Mermaid one), matched whole: its indentation, name (none on a continuation line
of a value: ``#|   - "A"``) and value."""
_CELL_WORDS = re.compile(r"(?:[\w-]+-)?(?:cap|alt|subcap|summary)|title|caption", re.IGNORECASE)
"""Cell options whose value the page shows: captions and alt texts (``fig-cap``, ``fig-alt``, ``tbl-cap``,
``fig-subcap``), a folded cell's ``code-summary``, a title."""


_CELL = re.compile(
    r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3,}|~{3,})[ \t]*\{[A-Za-z][\w.-]*(?:[ \t,][^}\n]*)?\}[ \t]*"
)
"""An executable cell's opening line (```` ```{r} ````, ```` ```{python} ````, R Markdown's
```` ```{r label, echo=FALSE} ````), matched whole."""


def opens_cell(line: str) -> bool:
    """Whether ``line`` opens an executable cell of Quarto or R Markdown (or a MyST directive): a fence whose info
    is a name in braces, with its label and options."""
    return "{" in line and _CELL.fullmatch(line) is not None


def cell_option(line: str, shown: bool) -> tuple[str, bool] | None:
    """What a cell option line at the top of an executable cell (```` ```{r} ````) embeds, with whether its value
    is shown text (for the continuation lines of a value, ``shown`` the option's before): a caption's or alt
    text's words, :data:`GONE` for another option (``#| label: fig-cars``, ``#| echo: false``); None when
    ``line`` is no option line (the cell's code starts there)."""
    found = _CELL_OPTION.fullmatch(line)
    if found is None:
        return None
    indentation, name, value = found.groups()
    if name is not None:
        shown = _CELL_WORDS.fullmatch(name) is not None
    value = value.lstrip("- \t").strip("\"'") if shown else ""
    return (indentation + value if value and value not in ("|", ">", "|-", ">-") else GONE), shown


_SVG_ITEM = (
    r"(?:</?(?:svg|path|g|defs|clipPath|mask|rect|circle|ellipse|line|polyline|polygon|stop|linearGradient"
    r"|radialGradient|use|symbol|pattern|filter|fe[A-Z]\w*)\b|[\w:-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\})|/?>)"
)
_SVG_LINE = re.compile(rf"[ \t]*{_SVG_ITEM}(?:[ \t]*{_SVG_ITEM})*[ \t]*")
"""A line of SVG markup only: element tags (``<path``, ``</g>``), props (``fill="black"``), ``>``, ``/>``."""
_SVG_SHAPE = re.compile(r"<(?:svg|path)\b|\bd=[\"'][Mm]")


def without_svg_lines(lines: list[str]) -> list[str]:
    """``lines`` with each run of lines of SVG markup only (:data:`_SVG_LINE`) that draws something (an ``<svg>``
    or ``<path>`` tag, path data ``d="M..."``) marked gone: what is left of an ``<svg>`` a piece was cut from
    (Mintlify's cards of 60-line icons were cut into pieces of path data)."""
    out = list(lines)
    run: list[int] = []
    for k, line in enumerate([*lines, "."]):  # "." ends the last run
        if ("=" in line or ">" in line) and _SVG_LINE.fullmatch(line):
            run.append(k)
            continue
        if any(_SVG_SHAPE.search(lines[j]) for j in run):
            for j in run:
                out[j] = GONE
        run = []
    return out
