"""Chunker options: one frozen value, validated when it is built.

``ChunkerConfig.from_mapping`` accepts what a YAML file holds and names the key
of every problem; :func:`chunker.settings.load_settings` reads ``config.yaml`` with
its per-document overrides (``documents: {<stem or glob>: {...}}``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, get_args, get_type_hints

from chunker.component_headings import (
    ComponentHeadings,
    ComponentHeadingsError,
    component_headings_option,
    heading_line,
)
from chunker.errors import ConfigError, shown
from chunker.text import SURROGATE
from chunker.typed import WrongTypeError, as_type
from chunker.unpublished import DEFAULT_SKIP_DRAFTS, SkipDrafts, SkipDraftsError, skip_drafts_option, to_mapping

StrategyName = Literal["headings", "recursive", "faq", "pages", "off"]
"""The strategies (:data:`chunker.strategies.STRATEGIES` maps each to its function)."""
ContextPrefix = Literal["breadcrumb", "heading", "blockquote", "none"]
SizeUnit = Literal["chars", "tokens"]
Syntax = Literal["auto", "markdown", "mdx", "pandoc"]
ParserName = Literal["markdown-it", "pulldown-cmark"]
"""The block parsers: markdown-it-py (default, the reference) or pulldown-cmark (``chunker[fast]``)."""
AtomicKind = Literal["table", "code", "list", "math", "html", "blockquote", "paragraph"]
"""Block kinds that ``atomic_types`` may name."""

STRATEGY_NAMES: tuple[str, ...] = get_args(StrategyName)

DEFAULT_SKIP_HEADINGS = ("indice", "sommario", "bibliografia", "ringraziamenti", "abbreviazioni")


@dataclass(frozen=True, slots=True)
class ChunkerConfig:
    """Effective options for chunking one document."""

    strategy: StrategyName = "headings"
    skip_drafts: SkipDrafts = DEFAULT_SKIP_DRAFTS
    """Frontmatter keys and the values that leave a page out, as a site generator leaves out a draft
    (:mod:`chunker.unpublished`); empty: every page is chunked."""
    max_chars: int = 1200
    min_chars: int = 80
    target_chars: int = 800
    context_depth: int = 3
    section_level: int | Literal["auto"] = 2
    """Headings of this level or shallower open a section; ``auto`` picks one per document."""
    faq_level: int = 3
    skip_headings: tuple[str, ...] = DEFAULT_SKIP_HEADINGS
    excluded_section_headings: tuple[str, ...] = ()
    skip_comments: bool = False
    """Leave out blocks that are only HTML comments or ``[//]: # (...)`` lines (:mod:`chunker.notes`)."""
    excluded_block_prefixes: tuple[str, ...] = ()
    """Leave out paragraphs and quotes whose text starts with one of these (editor notes)."""
    numbered_headings: bool = False
    """Markdown: a one-line paragraph shaped like a numbered heading (``**7.3.2 Kapazität**``,
    ``7.3.2 Kapazität``) is a heading (:mod:`chunker.numbered`)."""
    title_from_headings: bool = False
    """A document no frontmatter ``title`` or H1 names is titled by its first headings, not its file name
    (:class:`chunker.title.TitleFinder`: a PDF conversion's title page)."""
    dehyphenate: bool = False
    """``content_for_embedding`` joins words hyphenated across a line break (``Kapa-`` / ``zität``)."""
    embedding_drop_lines: tuple[str, ...] = ()
    """Regular expressions: lines they match whole (page numbers, running headers of a converted PDF)
    are left out of ``content_for_embedding``."""
    embedding_drop_template_tags: bool = False
    """``content_for_embedding`` leaves out Liquid/Jinja tags and Hugo shortcodes that render no text of
    their own (``{% ifversion ghes %}``, ``{% endif %}``, ``{{< note >}}``; :mod:`chunker.template_tags`)."""
    embedding_drop_heading_ids: bool = False
    """``content_for_embedding`` leaves out the ids and attribute lists heading lines end with (``## Install
    {#install}``, ``### Tips {: .tip }``, ``## Spread [#spread]``; :func:`chunker.inline.without_heading_ids`)."""
    embedding_drop_components: bool = False
    """``content_for_embedding`` leaves out MDX/JSX component tags (``<TabItem value="npm">``, ``</Tabs>``), ``<svg>``
    elements, JSX comments and MyST directive options (``:class: dropdown``), keeping the words they show (a tab's
    label, a card's title; :mod:`chunker.components`)."""
    embedding_wikilink_text: bool = False
    """``content_for_embedding`` writes each wikilink outside code as the text the note shows (``[[a/Vs Code|Vs
    Code]]`` -> ``Vs Code``, ``[[Page#Heading]]`` -> ``Page > Heading``; :func:`chunker.inline.shown_wikilinks`)."""
    embedding_item_leads: bool = True
    """A chunk cut from inside a list item re-opens the item's marker alone (``2.``) to render as the source;
    its ``content_for_embedding`` has the start of the item's first paragraph after it (``2. Create the
    Pod:``, up to 240 characters, where it fits max_chars; :meth:`chunker.pack.reopen.Structure.lead`)."""
    skip_pre_heading: bool = False
    merge_short: bool = True
    subsection_chars: int | None = 80
    """A subsection (a sub-heading and what follows it up to the next heading of its level or higher) at
    least this long, and at least min_chars, starts a chunk of its own when the chunk before it is as long
    (:mod:`chunker.pack.subsections`); ``0``: every subsection of min_chars or more; ``None``: none,
    subsections share chunks up to target_chars."""
    overlap_sentences: int = 0
    atomic_types: tuple[AtomicKind, ...] = ("table", "code", "list", "math", "html")
    split_oversize: bool = True
    context_prefix: ContextPrefix = "breadcrumb"
    context_label: str = "Kontext"
    context_title: bool = True
    """The breadcrumb starts with the document title (unless the heading path already does)."""
    title_keys: tuple[str, ...] = ("title",)
    """Frontmatter keys that give the document title, the first with text winning (any case; a dotted key names a
    nested one: ``eleventyNavigation.key``); none of them: the first H1, else the file name."""
    component_headings: ComponentHeadings = ()
    """Components that render a heading of their own, by name (``Recap: '## Recap'`` for react.dev's ``<Recap>``):
    an HTML or JSX block of such a component's opening tag alone is that heading (:mod:`chunker.component_headings`).
    Held as (name, level, text) triples."""
    syntax: Syntax = "auto"
    """``mdx``: ESM lines and JSX blocks are blocks of their own; ``auto``: ``mdx`` for ``.mdx`` files
    and for ``.md`` pages opening with an ``import X from`` line."""
    keep_mdx_esm: bool = False
    """Keep MDX ``import``/``export`` statements in the chunks (default: left out, like frontmatter)."""
    page_marker_pattern: str = r"<!--\s*page:?\s*(\d+)\s*-->"
    size_unit: SizeUnit = "chars"
    tokenizer: str = "whitespace"
    fail_on_broken_fence: bool = True
    fail_on_content_loss: bool = False
    fail_on_overflow: bool = False
    fail_on_orphan_heading: bool = False
    fail_on_rendering_change: bool = True
    fail_on_bad_frontmatter: bool = True
    max_frontmatter_bytes: int = 65_536
    max_frontmatter_depth: int = 64
    max_frontmatter_nodes: int = 10_000
    max_nesting: int = 64
    parser: ParserName = "markdown-it"
    max_file_bytes: int = 64 * 1024 * 1024
    max_chunks_per_document: int = 200_000
    txt_numbered_headings: bool = True
    txt_underlined_headings: bool = True
    txt_caps_headings: bool = True
    txt_faq: bool = True

    def __post_init__(self) -> None:
        check_values(self)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "config") -> ChunkerConfig:
        """Build from a mapping (as loaded from YAML); unknown keys and wrong types raise."""
        return merged(cls(), data, where)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = list(value)
        out["skip_drafts"] = to_mapping(self.skip_drafts)
        out["component_headings"] = {name: heading_line(level, text) for name, level, text in self.component_headings}
        return out

    def fingerprint(self) -> str:
        """Hash of what decides the chunks (:func:`chunker.fingerprint.config_fingerprint`)."""
        from chunker.fingerprint import config_fingerprint

        return config_fingerprint(self)


# -- validation ---------------------------------------------------------------

MAX_SIZE = 2**31 - 1
"""Upper bound of the size options (characters or tokens of one chunk, bytes of a frontmatter)."""
MAX_INTS: dict[str, int] = {
    "max_chars": MAX_SIZE,
    "min_chars": MAX_SIZE,
    "target_chars": MAX_SIZE,
    "context_depth": 100,
    "overlap_sentences": 1000,
    "subsection_chars": MAX_SIZE,
    "max_frontmatter_bytes": MAX_SIZE,
    "max_frontmatter_nodes": MAX_SIZE,
    "max_file_bytes": 2**40,
    "max_chunks_per_document": 2**40,
}
"""Upper bounds of the integer options that have no narrower range of their own (section_level,
faq_level, max_nesting and max_frontmatter_depth do): far above any useful value, and inside the
64 bits the JSON writer takes (an integer of 23 digits was an internal error)."""

_FIELD_TYPES: dict[str, Any] = get_type_hints(ChunkerConfig)
"""Each option's declared type, resolved (``Literal[...]`` included): what :func:`_coerce` checks."""
_CHECKED_TYPES: tuple[str, ...] = tuple(key for key, hint in _FIELD_TYPES.items() if "Literal" in repr(hint))
"""Options whose values are named choices: checked again whenever a config is built (also from
Python, where the type checker is the only other guard)."""


_SHOWN = 80


class _RelationError(ConfigError):
    """Two options disagree (min_chars, target_chars, max_chars)."""


def _coerce(key: str, value: Any, where: str) -> Any:
    """``value`` as option ``key`` takes it, checked against the option's declared type."""
    hint = _FIELD_TYPES[key]
    if value is False and key == "strategy":
        return "off"  # YAML 1.1 reads an unquoted `off` as false
    if key == "skip_drafts":
        try:
            return skip_drafts_option(value)
        except SkipDraftsError as exc:
            raise ConfigError(str(exc), path=f"{where}: {key}") from None
    if key == "component_headings":
        try:
            return component_headings_option(value)
        except ComponentHeadingsError as exc:
            raise ConfigError(str(exc), path=f"{where}: {key}") from None
    try:
        return as_type(hint, value)
    except WrongTypeError as exc:
        raise ConfigError(f"must be {exc.expected}, got {shown(exc.value)}", path=f"{where}: {key}") from None


def option_names() -> tuple[str, ...]:
    """Every option a config file (or a ``documents:`` entry) may set."""
    return tuple(_FIELD_TYPES)


def merged(base: ChunkerConfig, data: Mapping[str, Any], where: str) -> ChunkerConfig:
    """``base`` with the options of ``data`` over it; every problem names its key."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"options must be a mapping of key: value, got {type(data).__name__}", path=where)
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str) or key not in _FIELD_TYPES:
            name = key if isinstance(key, str) else shown(key)
            close = difflib.get_close_matches(name, list(_FIELD_TYPES), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ConfigError(f"unknown option '{name[:_SHOWN]}'{hint}", path=where)
        changes[key] = _coerce(key, value, where)
    try:
        return replace(base, **changes)
    except ConfigError as exc:
        detail = exc.detail
        key = detail.split("'")[1] if detail.startswith("'") else ""
        if isinstance(exc, _RelationError) and key not in changes:
            detail += f" ({key} is inherited: set it too)"
        raise ConfigError(detail, path=where) from None


def check_values(cfg: ChunkerConfig) -> None:
    """Raise ConfigError for impossible values and combinations (checked whenever a config is built)."""
    _check_text(cfg)
    _check_drafts(cfg)
    _check_component_headings(cfg)
    _check_budgets(cfg)
    _check_levels(cfg)
    _check_limits(cfg)


def _bad(key: str, message: str) -> ConfigError:
    return ConfigError(f"'{key}': {message}")


_LISTS_OF_TEXT: tuple[str, ...] = (
    "skip_headings",
    "excluded_section_headings",
    "excluded_block_prefixes",
    "embedding_drop_lines",
    "title_keys",
)
"""Options whose items are headings, prefixes or patterns: an empty item matches nothing."""


def _check_text(cfg: ChunkerConfig) -> None:
    """No lone surrogates in any string; no empty item in a list of headings, prefixes or patterns
    (``excluded_block_prefixes: ['']`` left every block in, silently); named choices among their Literals."""
    for key in _LISTS_OF_TEXT:
        for k, text in enumerate(getattr(cfg, key), 1):
            if isinstance(text, str) and not text.strip():
                raise _bad(key, f"item {k}, {shown(text)} is empty and matches nothing; remove it")
    for item in fields(cfg):
        value = getattr(cfg, item.name)
        for text in value if isinstance(value, tuple) else (value,):
            found = SURROGATE.search(text) if isinstance(text, str) else None
            if found is not None:
                raise _bad(
                    item.name,
                    f"holds the escape \\u{ord(found.group()):04x}, a UTF-16 surrogate, which is not a character "
                    "(write the character itself, or \\UXXXXXXXX beyond U+FFFF)",
                )
    for key in _CHECKED_TYPES:
        try:
            as_type(_FIELD_TYPES[key], getattr(cfg, key))
        except WrongTypeError as exc:
            raise _bad(key, f"must be {exc.expected}, got {shown(exc.value)}") from None


def _check_component_headings(cfg: ChunkerConfig) -> None:
    """``component_headings`` as :func:`~chunker.component_headings.component_headings_option` makes it (a config
    built in Python may be given a mapping)."""
    try:
        if component_headings_option(cfg.component_headings) == cfg.component_headings:
            return
        message = "must be (name, level, text) triples (from_mapping takes a mapping)"
    except ComponentHeadingsError as exc:
        message = str(exc)
    raise _bad("component_headings", message)


def _check_drafts(cfg: ChunkerConfig) -> None:
    """``skip_drafts`` as :func:`~chunker.unpublished.skip_drafts_option` makes it (a config built in
    Python is given a mapping, or pairs of the wrong shape)."""
    value = cfg.skip_drafts
    try:
        pairs = isinstance(value, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in value)
        if pairs and skip_drafts_option(dict(value)) == value:
            return
        message = f"must be pairs of a key and a tuple of values (from_mapping takes a mapping), got {shown(value)}"
    except SkipDraftsError as exc:
        message = str(exc)
    raise _bad("skip_drafts", message)


def _check_budgets(cfg: ChunkerConfig) -> None:
    """Upper bounds of the integer options; 1 <= min_chars <= target_chars <= max_chars, max_chars >= 16."""
    for key, most in MAX_INTS.items():
        if (getattr(cfg, key) or 0) > most:
            raise _bad(key, f"must be at most {most}, got {shown(getattr(cfg, key))}")
    for key in ("max_chars", "min_chars", "target_chars", "max_chunks_per_document"):
        if getattr(cfg, key) < 1:
            raise _bad(key, f"must be at least 1, got {shown(getattr(cfg, key))}")
    if cfg.min_chars > cfg.max_chars:
        raise _RelationError(f"'min_chars': min_chars ({cfg.min_chars}) is greater than max_chars ({cfg.max_chars})")
    if not cfg.min_chars <= cfg.target_chars <= cfg.max_chars:
        raise _RelationError(
            f"'target_chars': must lie between min_chars ({cfg.min_chars}) and max_chars ({cfg.max_chars}), "
            f"got {cfg.target_chars}"
        )
    if cfg.parser == "pulldown-cmark":
        from chunker.parse.pulldown import available

        if not available():
            raise _bad("parser", "pulldown-cmark needs the pyromark package: pip install 'chunker[fast]'")
    if cfg.max_chars < 16:
        raise _bad("max_chars", f"must be at least 16 so that a chunk can hold text, got {shown(cfg.max_chars)}")


def _check_levels(cfg: ChunkerConfig) -> None:
    if isinstance(cfg.section_level, int) and not 1 <= cfg.section_level <= 6:
        raise _bad("section_level", f"must be 'auto' or 1..6, got {shown(cfg.section_level)}")
    if not 1 <= cfg.faq_level <= 6:
        raise _bad("faq_level", f"must be 1..6, got {shown(cfg.faq_level)}")
    if cfg.context_depth < 0:
        raise _bad("context_depth", f"must be 0 or more, got {shown(cfg.context_depth)}")
    if cfg.subsection_chars is not None and cfg.subsection_chars < 0:
        raise _bad("subsection_chars", f"must be 0 or more (or null: off), got {shown(cfg.subsection_chars)}")
    if cfg.overlap_sentences < 0:
        raise _bad("overlap_sentences", f"must be 0 or more, got {shown(cfg.overlap_sentences)}")


def _check_limits(cfg: ChunkerConfig) -> None:
    """The limits against hostile input, and a page marker that compiles."""
    for key in ("max_frontmatter_bytes", "max_frontmatter_depth", "max_frontmatter_nodes", "max_file_bytes"):
        if getattr(cfg, key) < 1:
            raise _bad(key, f"must be at least 1, got {shown(getattr(cfg, key))}")
    if cfg.max_frontmatter_depth > 250:
        raise _bad(
            "max_frontmatter_depth",
            f"must be at most 250 (JSON output nests no deeper), got {shown(cfg.max_frontmatter_depth)}",
        )
    if not 8 <= cfg.max_nesting <= 200:
        raise _bad(
            "max_nesting",
            f"must be 8..200 (deeper nesting exhausts the parser's recursion), got {shown(cfg.max_nesting)}",
        )
    from chunker.regex_risk import RISKS, backtracking_risk, matches_empty

    try:
        re.compile(cfg.page_marker_pattern)
    except re.error as exc:
        raise _bad("page_marker_pattern", f"is not a valid regular expression: {exc}") from None
    risk = backtracking_risk(cfg.page_marker_pattern, searched=True)
    if risk:
        raise _bad("page_marker_pattern", f"{shown(cfg.page_marker_pattern)} {RISKS[risk]}")
    if matches_empty(cfg.page_marker_pattern):
        raise _bad("page_marker_pattern", f"{shown(cfg.page_marker_pattern)} matches the empty string")
    for k, pattern in enumerate(cfg.embedding_drop_lines, 1):
        item = f"item {k}, " if len(cfg.embedding_drop_lines) > 1 else ""
        try:
            re.compile(pattern)
        except re.error as exc:
            message = f"{item}{shown(pattern)} is not a valid regular expression: {exc}"
            raise _bad("embedding_drop_lines", message) from None
        risk = backtracking_risk(pattern)
        if risk:
            raise _bad("embedding_drop_lines", f"{item}{shown(pattern)} {RISKS[risk]}")
