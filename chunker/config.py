"""Chunker options: one frozen value, validated when it is built.

``ChunkerConfig.from_mapping`` accepts what a YAML file holds and names the key
of every problem; ``load_settings`` reads ``config.yaml`` with its per-document
overrides (``documents: {<stem or glob>: {...}}``).
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args, get_type_hints

from chunker.errors import ConfigError, shown
from chunker.text import SURROGATE
from chunker.typed import WrongTypeError, as_type

StrategyName = Literal["headings", "recursive", "faq", "pages", "off"]
"""The strategies (:data:`chunker.strategies.STRATEGIES` maps each to its function)."""
ContextPrefix = Literal["breadcrumb", "heading", "blockquote", "none"]
SizeUnit = Literal["chars", "tokens"]
Syntax = Literal["auto", "markdown", "mdx"]
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
    max_chars: int = 1200
    min_chars: int = 80
    target_chars: int = 800
    context_depth: int = 3
    section_level: int | Literal["auto"] = 2
    """Headings of this level or shallower open a section; ``auto`` picks one per document."""
    faq_level: int = 3
    skip_headings: tuple[str, ...] = DEFAULT_SKIP_HEADINGS
    excluded_section_headings: tuple[str, ...] = ()
    skip_pre_heading: bool = False
    merge_short: bool = True
    overlap_sentences: int = 0
    atomic_types: tuple[AtomicKind, ...] = ("table", "code", "list", "math", "html")
    split_oversize: bool = True
    context_prefix: ContextPrefix = "breadcrumb"
    context_label: str = "Kontext"
    context_title: bool = True
    """The breadcrumb starts with the document title (unless the heading path already does)."""
    syntax: Syntax = "auto"
    """``mdx``: ESM lines and JSX blocks are blocks of their own; ``auto``: ``mdx`` for ``.mdx`` files."""
    page_marker_pattern: str = r"<!--\s*page:?\s*(\d+)\s*-->"
    size_unit: SizeUnit = "chars"
    tokenizer: str = "whitespace"
    fail_on_broken_fence: bool = True
    fail_on_content_loss: bool = False
    fail_on_overflow: bool = False
    fail_on_orphan_heading: bool = False
    fail_on_rendering_change: bool = False
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
        return out

    def fingerprint(self) -> str:
        """Hash of what decides the chunks: the options that change them, the output schema
        version and the chunker version. Left out are the options that change no chunk: the
        ``fail_on_*`` policies (:mod:`chunker.policy` re-judges recorded findings instead),
        ``max_file_bytes`` (checked before a document is chunked) and ``tokenizer`` under
        ``size_unit: chars``. A tokenizer file counts by the sha256 of its content, not its path."""
        import orjson

        from chunker import SCHEMA_VERSION, __version__
        from chunker.policy import POLICY_OPTIONS

        options = self.to_dict()
        for key in (*POLICY_OPTIONS, *UNCHUNKED_OPTIONS):
            del options[key]
        if self.size_unit == "chars":
            del options["tokenizer"]
        else:
            from chunker.sizes import tokenizer_file_sha256

            digest = tokenizer_file_sha256(self.tokenizer)
            if digest is not None:
                options["tokenizer"] = f"sha256:{digest}"
        payload = {"schema": SCHEMA_VERSION, "chunker": __version__, "options": options}
        return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


UNCHUNKED_OPTIONS: tuple[str, ...] = ("max_file_bytes", "max_chunks_per_document")
"""Options besides the ``fail_on_*`` policies that change no chunk of a document that is chunked."""


# -- validation ---------------------------------------------------------------

MAX_SIZE = 2**31 - 1
"""Upper bound of the size options (characters or tokens of one chunk, bytes of a frontmatter)."""
MAX_INTS: dict[str, int] = {
    "max_chars": MAX_SIZE,
    "min_chars": MAX_SIZE,
    "target_chars": MAX_SIZE,
    "context_depth": 100,
    "overlap_sentences": 1000,
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
    try:
        return as_type(hint, value)
    except WrongTypeError as exc:
        raise ConfigError(f"'{key}' must be {exc.expected}, got {shown(exc.value)}", path=f"{where}: {key}") from None


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
        inherited = "target_chars" not in changes and ("max_chars" in changes or "min_chars" in changes)
        if inherited and isinstance(exc, _RelationError):
            detail += " (target_chars is inherited: set it too)"
        raise ConfigError(detail, path=where) from None


def check_values(cfg: ChunkerConfig) -> None:
    """Raise ConfigError for impossible values and combinations (checked whenever a config is built)."""
    _check_text(cfg)
    _check_budgets(cfg)
    _check_levels(cfg)
    _check_limits(cfg)


def _bad(key: str, message: str) -> ConfigError:
    return ConfigError(f"'{key}': {message}")


def _check_text(cfg: ChunkerConfig) -> None:
    """No lone surrogates in any string; named choices among their Literals."""
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


def _check_budgets(cfg: ChunkerConfig) -> None:
    """Upper bounds of the integer options; 1 <= min_chars <= target_chars <= max_chars, max_chars >= 16."""
    for key, most in MAX_INTS.items():
        if getattr(cfg, key) > most:
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
    try:
        re.compile(cfg.page_marker_pattern)
    except re.error as exc:
        raise _bad("page_marker_pattern", f"is not a valid regular expression: {exc}") from None


# -- settings file --------------------------------------------------------------

DEFAULT_EXCLUDE: tuple[str, ...] = ("node_modules",)


@dataclass(frozen=True, slots=True)
class EvalSettings:
    """The ``eval:`` section of the config file: options of ``chunker eval``."""

    model: str | None = None
    """Local sentence-transformers model folder for ``--retriever dense`` (``--model`` wins)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The defaults of a config file and its per-document overrides, in file order."""

    defaults: ChunkerConfig
    documents: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    path: str = "<defaults>"
    include: tuple[str, ...] = ()
    """Globs of the files below ``sources/`` that are sources (empty: every .md, .markdown, .mdx, .txt)."""
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    """Globs of files and folders below ``sources/`` that are left out."""
    eval: EvalSettings = EvalSettings()

    def for_stem(self, stem: str) -> ChunkerConfig:
        """Effective options of one document: defaults, then every matching override in order."""
        cfg = self.defaults
        for pattern, overrides in self.documents:
            if override_matches(pattern, stem):
                cfg = merged(cfg, overrides, f"{self.path}: documents.{pattern}")
        return cfg


def override_matches(pattern: str, stem: str) -> bool:
    """Whether a ``documents:`` key (a stem or a glob) applies to ``stem``."""
    return pattern == stem or fnmatch.fnmatchcase(stem, pattern)


def _eval_settings(data: Any, where: str) -> EvalSettings:
    if not isinstance(data, Mapping):
        raise ConfigError(f"'eval' must be a mapping of option: value, got {shown(data)}", path=where)
    hints = get_type_hints(EvalSettings)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in hints:
            name = key if isinstance(key, str) else shown(key)
            raise ConfigError(f"unknown eval option '{name}' (known: {', '.join(hints)})", path=f"{where}: eval")
        try:
            values[key] = as_type(hints[key], value)
        except WrongTypeError as exc:
            message = f"'{key}' must be {exc.expected}, got {shown(exc.value)}"
            raise ConfigError(message, path=f"{where}: eval.{key}") from None
    return EvalSettings(**values)


_SETTINGS_KEYS = ("documents", "eval", "include", "exclude")


def _globs(data: Mapping[str, Any], key: str, default: tuple[str, ...], where: str) -> tuple[str, ...]:
    """``include`` / ``exclude``: a list of non-empty glob strings (absent: ``default``)."""
    if key not in data:
        return default
    value = data[key]
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(f"'{key}' must be a list of glob patterns (strings)", path=f"{where}: {key}")
    if any(len(v) > 1000 or "\x00" in v for v in value):
        raise ConfigError(f"'{key}': a pattern is over 1000 characters or holds NUL", path=f"{where}: {key}")
    return tuple(value)


def settings_from_mapping(data: Any, where: str) -> Settings:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError("the file must hold a mapping of option: value", path=where)
    options = {k: v for k, v in data.items() if k not in _SETTINGS_KEYS}
    defaults = _check_tokenizer(merged(ChunkerConfig(), options, where), where)
    eval_settings = _eval_settings(data["eval"], where) if data.get("eval") is not None else EvalSettings()
    docs = data.get("documents") or {}
    if not isinstance(docs, Mapping):
        raise ConfigError("'documents' must map a stem or glob to options", path=where)
    documents: list[tuple[str, Mapping[str, Any]]] = []
    for pattern, overrides in docs.items():
        if not isinstance(pattern, str):
            raise ConfigError(f"documents: key {pattern!r} must be a stem or a glob", path=where)
        # Validate now, so a bad override fails at load time and names its key.
        override_where = f"{where}: documents.{pattern}"
        _check_tokenizer(merged(defaults, overrides or {}, override_where), override_where)
        documents.append((pattern, dict(overrides or {})))
    include = _globs(data, "include", (), where)
    exclude = _globs(data, "exclude", DEFAULT_EXCLUDE, where)
    return Settings(
        defaults=defaults, documents=tuple(documents), path=where, include=include, exclude=exclude, eval=eval_settings
    )


def _check_tokenizer(cfg: ChunkerConfig, where: str) -> ChunkerConfig:
    """``cfg``, once its tokenizer is known to exist: checked here, once, naming the file, rather
    than failing every document of the run (the tokenizer itself is loaded when first used)."""
    if cfg.size_unit == "tokens":
        from chunker.sizes import check_tokenizer_spec

        try:
            check_tokenizer_spec(cfg.tokenizer)
        except ConfigError as exc:
            raise ConfigError(exc.detail, path=f"{where}: tokenizer") from None
    return cfg


def load_settings(path: str | Path | None) -> Settings:
    """Read a YAML config file; ``None`` or an absent default file gives the built-in defaults."""
    if path is None:
        return Settings(defaults=ChunkerConfig())
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError("config file not found", path=str(p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file: {exc}", path=str(p)) from None
    return settings_from_mapping(_load_yaml(text, str(p)), str(p))


def _load_yaml(text: str, where: str) -> Any:
    """The YAML document in ``text`` (safe loader); every failure is a ConfigError naming ``where``
    and, where known, the line."""
    import yaml

    class Loader(yaml.SafeLoader):
        constructing: yaml.Mark | None = None
        """Start of the node constructed last: where a constructor that fails went wrong."""

        def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
            self.constructing = node.start_mark
            return super().construct_object(node, deep)

    try:
        loader = Loader(text)  # checks every character first
    except yaml.reader.ReaderError as exc:
        at = text.count("\n", 0, exc.position) + 1
        message = f"invalid YAML: the character #x{exc.character:04x} is not allowed"
        raise ConfigError(message, path=where, line=at) from None
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem_mark", None)
        line = problem.line + 1 if problem is not None else None
        raise ConfigError(f"invalid YAML: {getattr(exc, 'problem', exc)}", path=where, line=line) from None
    except RecursionError:
        raise ConfigError("invalid YAML: nested too deeply", path=where) from None
    except (ValueError, TypeError, AttributeError, ArithmeticError) as exc:
        # The safe constructors raise these on values that match a tag's pattern but not its range:
        # `2020-13-45`, `!!float abc`, an integer of more than 4300 digits.
        node = loader.constructing
        raise ConfigError(
            f"invalid YAML: a value cannot be constructed ({exc})",
            path=where,
            line=node.line + 1 if node is not None else None,
        ) from None
    finally:
        loader.dispose()
