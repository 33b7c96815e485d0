"""Errors the library raises; each carries the exit code the CLI maps it to."""

from __future__ import annotations

from typing import Any

EXIT_OK = 0
EXIT_VALIDATION = 1
"""Validator errors under the fail_on_* policies (artifacts are still written)."""
EXIT_USAGE = 2
"""Bad command line or configuration."""
EXIT_SOURCE = 3
"""A source could not be read or parsed (encoding, unreadable file, refused input)."""
EXIT_OUTPUT = 4
"""Output could not be written (read-only folder, disk full, busy lock)."""
EXIT_INTERNAL = 5
"""An unexpected internal error (a bug): reported without a traceback."""
EXIT_INTERRUPTED = 130
"""Interrupted (Ctrl-C)."""


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for an error message, cut short: a message quotes a wrong value, not a
    megabyte of it (a cut string says how long it is)."""
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's 4300-digit limit for str()
        return f"an integer of {len(hex(abs(value))) - 2} hex digits" if isinstance(value, int) else "a value"
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return text[: limit - 5] + "[...]" + size


class ChunkerError(Exception):
    """Base class: a message that says what is wrong and what to do."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.path = path
        self.line = line
        where = path or ""
        if path and line is not None:
            where = f"{path}:{line}"
        super().__init__(f"{where}: {message}" if where else message)
        self.detail = message


class ConfigError(ChunkerError):
    """The configuration is invalid (unknown key, wrong type, impossible value)."""

    exit_code = EXIT_USAGE


class UsageError(ChunkerError):
    """The command line asks for something impossible (bad --stem, missing source)."""

    exit_code = EXIT_USAGE


class SourceError(ChunkerError):
    """A source document cannot be read or decoded, or is refused."""

    exit_code = EXIT_SOURCE


class OutputError(ChunkerError):
    """Artifacts cannot be written (permissions, disk full, locked by another run)."""

    exit_code = EXIT_OUTPUT
