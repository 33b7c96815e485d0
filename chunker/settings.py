"""The config file (``config.yaml``): defaults, per-document overrides, include/exclude, eval.

``load_settings`` reads it (safe YAML, every failure naming the file and, where known, the
line); every option and every override is validated at load time and names its key.
``Settings.for_stem`` gives one document's :class:`~chunker.config.ChunkerConfig`.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_type_hints

from chunker.config import ChunkerConfig, merged
from chunker.errors import ConfigError, shown
from chunker.typed import WrongTypeError, as_type

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
    """Globs of the files below ``sources/`` that are sources (empty: every file of a source type,
    :data:`chunker.sources.EXTENSIONS`)."""
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    """Globs of files and folders below ``sources/`` that are left out."""
    eval: EvalSettings = EvalSettings()
    document_lines: tuple[int | None, ...] = ()
    """The config file's line of each ``documents`` key, in the order of :attr:`documents` (empty: not
    read from a file), for messages about a key."""
    glob_lines: Mapping[str, int] = dataclasses.field(default_factory=dict)
    """The config file's line of each ``include`` and ``exclude`` glob (``include.#1``, ``exclude.#2``, or
    the key's line for a glob written alone), for messages about a glob."""

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
            message = f"must be {exc.expected}, got {shown(exc.value)}"
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


def _refuse_unknown(options: Mapping[Any, Any], where: str) -> None:
    """An unknown top-level key, with the closest options and sections of the file (``includes``
    -> ``include``; :func:`~chunker.config.merged` knows only the options)."""
    import difflib

    from chunker.config import option_names

    known = [*option_names(), *_SETTINGS_KEYS]
    for key in options:
        if isinstance(key, str) and key not in known:
            close = difflib.get_close_matches(key, known, n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ConfigError(f"unknown option {shown(key)}{hint}", path=where)


def settings_from_mapping(data: Any, where: str) -> Settings:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError("the file must hold a mapping of option: value", path=where)
    options = {k: v for k, v in data.items() if k not in _SETTINGS_KEYS}
    _refuse_unknown(options, where)
    defaults = _check_tokenizer(merged(ChunkerConfig(), options, where), where)
    eval_settings = _eval_settings(data["eval"], where) if data.get("eval") is not None else EvalSettings()
    documents = _documents(data.get("documents"), defaults, where)
    include = _globs(data, "include", (), where)
    exclude = _globs(data, "exclude", DEFAULT_EXCLUDE, where)
    return Settings(
        defaults=defaults, documents=tuple(documents), path=where, include=include, exclude=exclude, eval=eval_settings
    )


def _documents(docs: Any, defaults: ChunkerConfig, where: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The ``documents:`` overrides, each validated now so that a bad one fails at load time naming
    its key. ``documents:`` left empty (null) has none, as ``{}``; anything else but a mapping is
    refused, and so is an entry without options (``guide:`` with nothing under it, ``guide: {}``,
    ``guide: []``): it would change nothing, and is mostly options indented one level too little."""
    if docs is None:
        return []
    if not isinstance(docs, Mapping):
        message = f"must map a document id or glob to options, got {shown(docs)}"
        raise ConfigError(message, path=f"{where}: documents")
    documents: list[tuple[str, Mapping[str, Any]]] = []
    for pattern, overrides in docs.items():
        if not isinstance(pattern, str):
            raise ConfigError(f"documents: key {shown(pattern)} must be a document id or a glob", path=where)
        override_where = f"{where}: documents.{pattern}"
        if overrides is None or (isinstance(overrides, (Mapping, list, str)) and not overrides):
            empty = "nothing under the key" if overrides is None else f"got {shown(overrides)}"
            raise ConfigError(
                f"no options ({empty}): an entry sets options for the documents it matches, indented below "
                "its key (strategy: off, max_chars: 600, ...); give them, or remove the key",
                path=override_where,
            )
        if overrides is False:  # YAML reads an unquoted `off` as false
            raise ConfigError(
                "must be options, got false; to leave these documents out write 'strategy: off' indented below the key",
                path=override_where,
            )
        _check_tokenizer(merged(defaults, overrides, override_where), override_where)
        documents.append((pattern, dict(overrides)))
    return documents


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
        if not stat.S_ISREG(p.stat().st_mode):  # a folder; a FIFO or device would block or never end
            raise ConfigError("the config file is not a regular file (a folder, FIFO or device)", path=str(p))
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError("config file not found", path=str(p)) from None
    except UnicodeDecodeError as exc:
        data = p.read_bytes()
        start = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        line = data.count(b"\n", 0, start) + 1
        message = f"invalid UTF-8 byte 0x{data[start]:02x} (the config file must be UTF-8; re-save it as UTF-8)"
        raise ConfigError(message, path=str(p), line=line) from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file: {exc.strerror or exc}", path=str(p)) from None
    where = str(p)
    data, lines = _load_yaml(text, where)
    try:
        settings = settings_from_mapping(data, where)
        keys = tuple(lines.get(f"documents.{pattern}") for pattern, _ in settings.documents)
        globs = {k: n for k, n in lines.items() if k.split(".")[0] in ("include", "exclude")}
        return dataclasses.replace(settings, document_lines=keys, glob_lines=globs)
    except ConfigError as exc:
        if exc.line is not None:
            raise
        key, at = _key_line(exc, where, lines)
        if at is None:
            raise
        raise ConfigError(f"{key}: {exc.detail}" if key else exc.detail, path=where, line=at) from None


_QUOTED = re.compile(r"^(?:unknown (?:eval )?option )?'([^']+)'")
_ITEM = re.compile(r"^'[^']+': item (\d+), ")


def _key_line(exc: ConfigError, where: str, lines: Mapping[str, int]) -> tuple[str, int | None]:
    """The key an error about the file's values names (its path after the file name, e.g.
    ``documents.guide: max_chars``) and the line of that key, else of another key of the same
    mapping that the message names (``max_chars`` for an inherited ``target_chars`` that clashes
    with it), else of the nearest enclosing key found (``None`` when none is known)."""
    path = exc.path or ""
    suffix = path[len(where) + 2 :] if path.startswith(f"{where}: ") else ""
    parts = [p for p in suffix.split(": ") if p] if suffix else []
    quoted = _QUOTED.match(exc.detail)
    keys = [*parts, quoted.group(1)] if quoted else parts
    named = [[*parts, word] for word in re.findall(r"[a-z_]+", exc.detail)]  # keys the error names
    item = _ITEM.match(exc.detail)  # 'embedding_drop_lines': item 2, ...: the line of that item
    tried_first = [[*keys, f"#{item.group(1)}"]] if item and quoted else []
    for tried in [*tried_first, keys, *named, *(keys[:n] for n in range(len(keys) - 1, 0, -1))]:
        line = lines.get(".".join(tried))
        if line is not None:
            return ": ".join(parts), line
    return ": ".join(parts), None


def _key_lines(node: Any, prefix: str = "", out: dict[str, int] | None = None, depth: int = 0) -> dict[str, int]:
    """1-based line of every mapping key of the YAML node tree, by dotted path (``eval.model``,
    ``documents.guide.max_chars``); the first occurrence of a path wins. Only the levels a
    config file has (three) are walked."""
    import yaml

    out = {} if out is None else out
    if not isinstance(node, yaml.MappingNode) or depth > 3:
        return out
    for key_node, value_node in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            path = f"{prefix}.{key_node.value}" if prefix else str(key_node.value)
            out.setdefault(path, key_node.start_mark.line + 1)
            if isinstance(value_node, yaml.SequenceNode):  # a list's items: path.#1, path.#2, ...
                for k, item in enumerate(value_node.value, 1):
                    out.setdefault(f"{path}.#{k}", item.start_mark.line + 1)
            _key_lines(value_node, path, out, depth + 1)
    return out


def _refuse_duplicate_keys(root: Any, where: str) -> None:
    """A key given twice in one mapping (``max_chars`` twice): PyYAML keeps the last value
    silently, so which one counts would depend on where the eye stops reading. Refused, naming the
    key's dotted path and both lines (a frontmatter's duplicate key is a warning instead: a
    document is chunked whatever its metadata says). ``<<`` merge keys override on purpose."""
    import yaml

    seen_nodes: set[int] = set()
    todo: list[tuple[Any, str]] = [(root, "")]
    while todo:
        node, prefix = todo.pop()
        if id(node) in seen_nodes:  # an alias: the same node again (or a cycle)
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            todo.extend((item, prefix) for item in reversed(node.value))
            continue
        if not isinstance(node, yaml.MappingNode):
            continue
        first: dict[tuple[str, str], int] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                line = key_node.start_mark.line + 1
                name = f"{prefix}.{key_node.value}" if prefix else str(key_node.value)
                known = first.get((key_node.tag, key_node.value))
                if known is not None:
                    message = f"duplicate key {shown(name)} (first at line {known}); YAML keeps only the last value"
                    raise ConfigError(message, path=where, line=line)
                first[(key_node.tag, key_node.value)] = line
                todo.append((value_node, name))
            else:
                todo.append((value_node, prefix))


def _load_yaml(text: str, where: str) -> tuple[Any, dict[str, int]]:
    """The YAML document in ``text`` (safe loader) and the line of each of its keys
    (:func:`_key_lines`); every failure is a ConfigError naming ``where`` and, where known, the line."""
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
        root = loader.get_single_node()
        if root is None:
            return None, {}
        _refuse_duplicate_keys(root, where)
        return loader.construct_document(root), _key_lines(root)
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
