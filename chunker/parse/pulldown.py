"""The optional fast block parse: pulldown-cmark (through ``pyromark``) instead of markdown-it-py.

``parser: pulldown-cmark`` in the config. pulldown-cmark is a CommonMark parser written in Rust;
its events carry source byte ranges, which are turned here into the markdown-it-py block tokens the
segmenter reads (type, nesting, level, line map, fence markup, heading text), so every stage after
the parse is the same code on either path. Only what the segmenter looks at is built: top-level
blocks with their line maps; inside a container, only the blocks whose kind it records (code, math,
HTML, tables) and the joints of oversize splits (the items of a top-level list, the body rows of a
top-level table). Inline events make no tokens; a heading's text is read from its source line.
A top-level paragraph, a top-level list's item and a top-level table's body row are one token each
(nesting 0: no ``inline`` and no closing token), where markdown-it-py makes three or two: the
segmenter reads the opening's type, level and line map only. So is a top-level heading, whose
token holds its text (``content``, markdown-it-py's ``inline`` token's). Over the shared corpus
that is ~137,000 tokens where markdown-it-py makes ~289,000.

markdown-it-py stays the default and the reference: ``tests/test_pulldown.py`` compares the blocks
of both paths on the CommonMark spec and the shared corpus, and README lists where they differ.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from typing import Any

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError
from chunker.models import Diagnostic
from chunker.parse.document import ParsedDocument
from chunker.parse.mixed import mixed_pieces
from chunker.parse.pieces import BlockTokens
from chunker.parse.pulldown_build import Builder, Token
from chunker.parse.pulldown_cost import too_many_events
from chunker.parse.token import BlockToken

__all__ = ["PulldownTokens", "available"]

_PLUGIN_MARKERS = ("!!!", "???", "::", "///", "[^", ": ", ":\t", "~ ", "~\t", "{", "%", "+", ")=", "- ", "-\t", "===")
"""Substrings one of which a document must hold to have a line of :data:`_PLUGIN_SYNTAX`."""
_RUNS = (
    r"%|\+[ \t]*\+[ \t]*\+|\([^\n]+\)=[ \t]*$|`{3,}[ \t]*\{[A-Za-z]|"  # MyST: comment, break, target, directive
    r"!!!|\?\?\?|===[+!]?[ \t]+\x22|:::|::[A-Za-z]|///|\[\^[^\]\s]+\]:|[:~][ \t]|"
    r"\{[ \t]*(?:[.#]|[^\s{}=%]+=)[^\n]*\}[ \t]*$|\{[ \t]*\}[ \t]*$|"
    r"\{%-?[ \t]*highlight\b|\{\{[<%][ \t]*(?:highlight|code|tab\b|[^\n]*\blang=)|"  # code as template tags
    r"\{%[^\n]*%\}[ \t]*$|\{\{[<%][^\n]*[>%]\}\}[ \t]*$|"  # a line of template tags or shortcodes (parse.templates)
    r"(?=[^\n]*\|)(?=[|: \t-]*+$)[|: \t-]*?-[ \t]+-"  # a table delimiter row with a space inside a dash run
)
_PLUGIN_SYNTAX = re.compile(r"^[ \t>]*(?:" + _RUNS + ")", re.MULTILINE)
"""Lines whose text (after indentation and quote markers) may open an admonition, a content tab (``=== "Title"``) or a
``:::`` or ``///`` container or an MDC component (``::name``), a footnote definition (``[^1]:``), a definition of a
definition list (``: text``, ``~ text``) or an attribute line (one the attrs parser may accept: ``{}``, ``{.class}``,
``{#id}``, ``{key=value}``), a MyST comment (``% text``), block break (``+++``), target (``(name)=``) or directive
fence (```` ```{note} ````, :mod:`chunker.parse.myst_fences`):
mdit-py-plugins' ``admon``, ``container``, ``footnote``, ``deflist``, ``attrs``, ``myst_blocks``
(:mod:`chunker.parse.plugins`, :mod:`chunker.parse.mdc`), and a line of template tags (``{% endif %}``) or of
Hugo shortcodes (``{{< admonition type="note" >}}``, a block of its own when the page closes it:
:mod:`chunker.parse.templates`; read as paragraph text, 73 of grafana/tempo's 180 pages came out otherwise on this
path), which pulldown-cmark does not parse alike; and a table
delimiter row whose dash run holds a space (``| --- -- |``): no delimiter cell in GFM (markdown-it-py reads no
table), a table for pulldown-cmark (found in pydantic's docs). A document with one is parsed by markdown-it-py on
this path too. So are MDX (the rules of :mod:`chunker.parse.mdx`) and a document with ``$$``: dollarmath's math block
runs to its closing ``$$`` whatever lies between, pulldown-cmark's display math is inline and ends where a block (a
list item, a quote) interrupts its paragraph."""
_FIRST_CHARS = r"(?=[%+(!?=:/~\[{|`-])"
"""The characters a run of :data:`_RUNS` starts with, once indentation and quote markers are passed
(a table delimiter row's first run character: ``|``, ``:`` or ``-``)."""
_LINE_START_RUN = re.compile(r"\n[ \t>]*+" + _FIRST_CHARS + "(?:" + _RUNS + ")", re.MULTILINE)
"""A newline and a line of :data:`_PLUGIN_SYNTAX` after it: a pattern that starts with a literal
character is searched for that character first, so only line starts are tried (``^`` in
:data:`_PLUGIN_SYNTAX` is tried at every position). The indentation is taken possessively and the
next character is checked against :data:`_FIRST_CHARS` before the runs are tried: most lines start
with a letter and fail there, where the table row's lookahead scanned each line to its end (the
same lines: only that run may start at a space, and it matches there only if it matches after
the spaces). Over the shared corpus 0.126 -> 0.034 s."""
_FIRST_LINE_RUN = re.compile(r"[ \t>]*+" + _FIRST_CHARS + "(?:" + _RUNS + ")", re.MULTILINE)


def _plugin_syntax(body: str) -> bool:
    """Whether a line of ``body`` matches :data:`_PLUGIN_SYNTAX`."""
    return bool(_plugin_lines(body, first_only=True))


def _plugin_lines(body: str, first_only: bool = False) -> list[int]:
    """The 0-based lines of ``body`` that match :data:`_PLUGIN_SYNTAX` (only the first with
    ``first_only``), found with :data:`_LINE_START_RUN` (over the corpus a tenth of the time of
    a search for the marker runs, which stopped at every ``: `` of the prose). No substring scan
    per marker of :data:`_PLUGIN_MARKERS` first: most documents hold ``: `` or ``- ``, found after
    up to five whole scans, which cost more than the search itself."""
    lines: list[int] = []
    if _FIRST_LINE_RUN.match(body):
        lines.append(0)
        if first_only:
            return lines
    counted, line = 0, 0
    for hit in _LINE_START_RUN.finditer(body):
        start = hit.start()
        line += body.count("\n", counted, start) + 1
        counted = start + 1
        lines.append(line)
        if first_only:
            break
    return lines


@functools.cache
def _parser() -> Any:
    import pyromark

    return pyromark.Markdown(options=pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_MATH)


def events(text: str) -> Any:
    """pulldown-cmark's events of ``text`` with their byte ranges (tables and math on, adjacent
    text merged), from one parser made once (``pyromark.Markdown``): options built for each call
    cost ~3 us, and a run over the corpus makes ~4,900 (its documents and block re-parses)."""
    return _parser().events_with_range(text, merge_text=True)


def available() -> bool:
    """Whether ``pyromark`` (the ``chunker[fast]`` extra) can be imported."""
    from importlib.util import find_spec

    return find_spec("pyromark") is not None


class PulldownTokens:
    """The block tokens of ``doc``'s body from pulldown-cmark, as one list (the same interface as
    :class:`chunker.parse.BlockTokens`). Maps are document lines: the frontmatter's lines are
    given to the parser as empty lines. The token list holds block tokens only (a few per block),
    so the body is parsed whole."""

    def __init__(self, doc: ParsedDocument, cfg: ChunkerConfig) -> None:
        self._doc = doc
        self._cfg = cfg

        self._fallback: BlockTokens | None = None

    @property
    def nested(self) -> bool:
        """Whether the tokens yielded are markdown-it-py's whole stream (a document parsed by it on
        this path): pulldown-cmark's tokens here leave out most nested blocks."""
        return self._fallback is not None

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The nesting-limit warning of the markdown-it-py parse, where it was used."""
        return self._fallback.diagnostics if self._fallback is not None else ()

    def __iter__(self) -> Iterator[Sequence[BlockToken]]:
        try:
            import pyromark  # noqa: F401 (a clear message before the parse needs it)
        except ImportError as exc:  # checked when the config is loaded; a library caller may skip that
            raise ConfigError("parser: pulldown-cmark needs the pyromark package: pip install 'chunker[fast]'") from exc
        doc = self._doc
        if doc.body_start_line >= len(doc.line_starts):
            yield []
            return
        body = "\n" * doc.body_start_line + doc.text[doc.line_starts[doc.body_start_line] :]
        tokens: list[Token] | None = None
        plugin_lines: list[int] = []
        if self._cfg.syntax not in ("mdx", "pandoc") and "$$" not in body:
            data = body.encode("utf-8", "surrogatepass")
            if not too_many_events(data, doc.body_start_line):
                plugin_lines = _plugin_lines(body)
                tokens = self._pulldown_tokens(body, data)
            del data
        del body  # neither is held while the pieces are made and consumed
        pieces: list[Sequence[BlockToken]] | None = None
        if tokens is not None:
            pieces = mixed_pieces(doc, self._cfg, tokens, plugin_lines) if plugin_lines else [tokens]
        if pieces is None:
            self._fallback = BlockTokens(doc, self._cfg)
            yield from self._fallback
            return
        yield from pieces

    def _pulldown_tokens(self, body: str, data: bytes) -> list[Token] | None:
        """pulldown-cmark's block tokens of ``body`` (``data``: its UTF-8 bytes), or None where
        markdown-it-py must parse it."""
        builder = Builder(body, data)
        try:
            tokens = builder.tokens(events(body))
        except UnicodeEncodeError:  # a surrogate (a library caller's text): pyromark takes UTF-8 only
            return None
        if builder.deepest >= self._cfg.max_nesting - 1:
            return None  # markdown-it-py flattens what lies past the nesting limit: do as it does
        return tokens
