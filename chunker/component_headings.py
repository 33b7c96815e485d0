"""Components that render a heading of their own (``component_headings``): react.dev's ``<Recap>`` renders
``<H2 id="recap">Recap</H2>`` and ``<Challenges>`` ``<H2 id="challenges">Try out some challenges</H2>`` before their
children, so the page's table of contents and its reader see a section there; the Markdown has only the tag.

The option maps a component's name to the heading line it renders, written as Markdown (``Recap: '## Recap'``);
an HTML or JSX block of that component's opening tag alone (props allowed, never self-closing) is then a heading of
that level and text: it opens a section at ``section_level`` or above, and its chunks name it in ``section``,
``header_path`` and the context line. Its closing tag closes nothing (the text after it stays under that heading,
as the page shows it until the next heading).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["ComponentHeadings", "component_headings_option", "heading_line", "heading_of"]

ComponentHeadings = tuple[tuple[str, int, str], ...]
"""``component_headings`` as a config holds it: (component name, level, heading text) in the order written."""

_NAME = re.compile(r"[A-Za-z][\w.:-]*")
_HEADING = re.compile(r"(#{1,6})[ \t]+(\S(?:.*\S)?)")
_OPENING = re.compile(r"[ \t]*<([A-Za-z][\w.:-]*+)((?:[^<>\"'{}/]|\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\})*)>[ \t]*")
"""A line of one opening tag (props in quotes or braces read whole), not self-closing: its name. The name is
possessive: the props' characters hold a name's, so a name that no ``>`` ends was split n ways, each props run
tried to the line's end (n^2: a line ``<Recap`` + 40,000 letters in an ``.mdx`` page took 36 s)."""


class ComponentHeadingsError(ValueError):
    """A ``component_headings`` value that is no mapping of a component name to a heading line."""


def component_headings_option(value: object) -> ComponentHeadings:
    """``value`` (a mapping as YAML gives it, or the option's own tuple) as the option holds it; raises
    :class:`ComponentHeadingsError` naming what is wrong. A heading line is read as the page's heading lines are:
    its text is the heading's text (:func:`_heading_line`)."""
    if isinstance(value, tuple) and all(isinstance(item, tuple) and len(item) == 3 for item in value):
        return _held(value)
    if not isinstance(value, Mapping):
        raise ComponentHeadingsError(
            f"must be a mapping of a component name to the heading it renders (Recap: '## Recap'), got {value!r:.80}"
        )
    out: list[tuple[str, int, str]] = []
    for name, line in value.items():
        if not isinstance(name, str) or _NAME.fullmatch(name) is None:
            raise ComponentHeadingsError(f"{name!r:.80} is no component name (Recap, Tabs.Tab)")
        found = _heading_line(line.strip()) if isinstance(line, str) else None
        if found is None:
            raise ComponentHeadingsError(
                f"{name}: {line!r:.80} is no heading line; write the heading the component renders: '## {name}'"
            )
        out.append((name, *found))
    return tuple(out)


def _heading_line(line: str) -> tuple[int, str] | None:
    """(level, text) of ``line``, an ATX heading line, read as a page's heading line is (markdown-it's heading,
    :func:`chunker.inline.heading_text`: ``## Recap ##`` -> ``Recap``, ``## **Recap** {#recap}`` -> ``Recap``;
    the raw text after the marks named the section ``Recap ##``, where the page's own line names it ``Recap``);
    None for another line or a heading with no text."""
    found = _HEADING.fullmatch(line)
    if found is None:
        return None
    from markdown_it import MarkdownIt

    from chunker.inline import heading_text

    tokens = MarkdownIt("commonmark").parse(line)
    if len(tokens) != 3 or tokens[0].type != "heading_open":
        return None
    text = heading_text(tokens[1].content)
    return (len(found.group(1)), text) if text.strip() else None


def heading_line(level: int, text: str) -> str:
    """The heading line of ``level`` and ``text`` that :func:`component_headings_option` reads back as they are
    (the option as ``to_dict`` writes it): ASCII punctuation escaped (``Recap #``, from ``## Recap \\#``, written
    ``## Recap #`` read back as ``Recap``, its ``#`` a closing sequence). 19,116 random heading lines read back
    alike (/tmp/h15, seed 15)."""
    return "#" * level + " " + _PUNCTUATION.sub(r"\\\g<0>", text)


_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")


def _held(value: tuple[tuple[object, object, object], ...]) -> ComponentHeadings:
    """The option's own tuple, checked: (component name, level 1-6, heading text on one line) triples."""
    for name, level, text in value:
        if not isinstance(name, str) or _NAME.fullmatch(name) is None:
            raise ComponentHeadingsError(f"{name!r:.80} is no component name (Recap, Tabs.Tab)")
        if type(level) is not int or not 1 <= level <= 6:
            raise ComponentHeadingsError(f"{name}: level {level!r:.80} is no heading level (1-6)")
        if not isinstance(text, str) or not text.strip() or "\n" in text or text != text.strip():
            raise ComponentHeadingsError(f"{name}: {text!r:.80} is no heading text")
    return value  # type: ignore[return-value]


def heading_of(headings: ComponentHeadings, line: str) -> tuple[int, str] | None:
    """(level, text) of the heading that the block ``line``, one component's opening tag alone, renders; None
    for another block."""
    found = _OPENING.fullmatch(line)
    if found is None:
        return None
    for name, level, text in headings:
        if name == found.group(1):
            return level, text
    return None
