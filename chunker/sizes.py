"""Size of a text in the configured unit: characters (default) or tokens.

``size_unit: chars`` counts characters and needs nothing else. ``size_unit: tokens`` counts with
``tokenizer``: ``whitespace`` (words separated by whitespace, no extra package), the path of a
Hugging Face ``tokenizer.json`` (the ``tokenizers`` package) or ``tiktoken:<encoding>`` (the
``tiktoken`` package). A tokenizer is loaded once per process and option value.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from chunker.config import ChunkerConfig
from chunker.errors import ConfigError

Counter = Callable[[str], int]
"""Size of a text in the configured unit."""

TIKTOKEN_PREFIX = "tiktoken:"


def count_chars(text: str) -> int:
    return len(text)


def count_words(text: str) -> int:
    """Whitespace tokenizer: the number of runs of non-whitespace characters."""
    return len(text.split())


def make_counter(cfg: ChunkerConfig) -> Counter:
    """The size function for ``cfg``; raises ConfigError when the tokenizer cannot be loaded."""
    if cfg.size_unit == "chars":
        return count_chars
    return tokenizer_counter(cfg.tokenizer)


@lru_cache(maxsize=8)
def tokenizer_counter(spec: str) -> Counter:
    """The token counter named by a ``tokenizer`` option value."""
    if spec == "whitespace":
        return count_words
    if spec.startswith(TIKTOKEN_PREFIX):
        return _tiktoken(spec[len(TIKTOKEN_PREFIX) :])
    return _hf_tokenizer(spec)


def _missing_package(spec: str, package: str) -> ConfigError:
    return ConfigError(
        f"tokenizer {spec!r} needs the {package} package: pip install {package} "
        "(or pip install 'chunker[tokens]'), or use tokenizer: whitespace",
        path="config: tokenizer",
    )


def _installed(package: str) -> bool:
    """Whether ``package`` can be imported, found without importing it."""
    import importlib.util
    import sys

    if package in sys.modules:
        return sys.modules[package] is not None
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def _tiktoken(name: str) -> Counter:
    where = "config: tokenizer"
    try:
        import tiktoken
    except ImportError:
        raise _missing_package(f"{TIKTOKEN_PREFIX}{name}", "tiktoken") from None
    try:
        encoding = tiktoken.get_encoding(name)
    except Exception as exc:  # unknown name, or the encoding file cannot be fetched
        raise ConfigError(f"tiktoken cannot load encoding {name!r}: {exc}", path=where) from None

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    return count


def check_tokenizer_spec(spec: str) -> None:
    """Raise ConfigError unless ``spec`` is ``whitespace``, ``tiktoken:<encoding>`` or an existing
    file, and the package it needs is installed; cheap (imports no package), so the config loader
    checks it once, naming the file, rather than every document failing on it."""
    if spec == "whitespace":
        return
    if spec.startswith(TIKTOKEN_PREFIX) or Path(spec).expanduser().is_file():
        package = "tiktoken" if spec.startswith(TIKTOKEN_PREFIX) else "tokenizers"
        if not _installed(package):
            raise _missing_package(spec, package)
        return
    raise ConfigError(
        f"tokenizer {spec!r} is neither 'whitespace', 'tiktoken:<encoding>' nor an existing tokenizer.json file",
        path="config: tokenizer",
    )


def tokenizer_file_sha256(spec: str) -> str | None:
    """sha256 of the tokenizer file ``spec`` names (``None`` for ``whitespace`` and tiktoken
    encodings): the options fingerprint holds the file's content, not its path. Hashed once per
    file, size and modification time."""
    if spec == "whitespace" or spec.startswith(TIKTOKEN_PREFIX):
        return None
    path = Path(spec).expanduser()
    try:
        info = path.stat()
        return _file_sha256(str(path.resolve()), info.st_size, info.st_mtime_ns)
    except OSError as exc:
        message = f"cannot read tokenizer file {spec!r}: {exc.strerror or exc}"
        raise ConfigError(message, path="config: tokenizer") from None


@lru_cache(maxsize=8)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    import hashlib

    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _hf_tokenizer(spec: str) -> Counter:
    where = "config: tokenizer"
    check_tokenizer_spec(spec)
    path = Path(spec).expanduser()
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise _missing_package(spec, "tokenizers") from None
    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:  # the file is not a tokenizer.json
        raise ConfigError(f"cannot load tokenizer from {spec!r}: {exc}", path=where) from None

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    return count
