"""Messages of the command: the summary line of ``chunker export``, and one-line messages for
command-line mistakes that the argument parser finds (an unknown option, a missing or invalid
value): ``error: no such option --formt; did you mean --format? (chunker export --help lists the
options)``, exit 2, instead of the parser's usage block and its list of "possible options" (which
for ``--bogus`` named three unrelated ones)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

__all__ = ["ClickException", "empty_path", "export_line", "export_lines", "rerun_command", "usage_message"]

_EXCEPTIONS: Any = sys.modules[typer.BadParameter.__module__]
"""The parser's exceptions module (click's, or the copy a Typer release vendors)."""
ClickException: type[Exception] = _EXCEPTIONS.ClickException


def usage_message(exc: Exception) -> str:
    """The parser's complaint as one line naming the option, with the closest option of the
    command when one is close, and where the list of options is."""
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", "") or "chunker"
    see = f"({path} --help lists the options)"
    if isinstance(exc, _EXCEPTIONS.NoSuchOption):
        import difflib  # only for a mistake: not on every start

        name = str(exc.option_name)
        known = {n.lstrip("-"): n for n in _option_names(ctx)}  # '--' in common is no likeness
        close = difflib.get_close_matches(name.lstrip("-"), list(known), n=1, cutoff=0.6)
        hint = f"; did you mean {known[close[0]]}?" if close else ""
        return f"no such option {_printable(name)}{hint} {see}"
    format_message = getattr(exc, "format_message", None)
    text = format_message() if callable(format_message) else str(exc)
    text = _plain_range(" ".join(str(text).split()))
    text = text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
    return f"{_printable(text.rstrip('.'))} {see}"


def _printable(text: str) -> str:
    """``text`` with what a terminal would act on escaped (``--\\x1b[2J`` typed as an option must not
    clear the screen of whoever reads the message)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _plain_range(text: str) -> str:
    """The parser's range in words: ``-1 is not in the range x>=0`` is ``-1: it must be 0 or more``."""
    import re

    found = re.search(r"(\S+) is not in the range (\S+?)\.?$", text)
    if found is None:
        return text
    value, bounds = found.groups()
    shapes = (
        (r"x>=(\S+)", "{} or more"),
        (r"x>(\S+)", "more than {}"),
        (r"x<=(\S+)", "at most {}"),
        (r"x<(\S+)", "less than {}"),
        (r"(\S+?)<=x<=(\S+)", "within {}..{}"),
    )
    for shape, words in shapes:
        match = re.fullmatch(shape, bounds)
        if match is not None:
            return f"{text[: found.start()]}{value}: it must be {words.format(*match.groups())}"
    return text


def _option_names(ctx: Any) -> list[str]:
    """Every long and short option name of the command ``ctx`` runs (``--help`` included)."""
    command = getattr(ctx, "command", None)
    names: list[str] = []
    for param in getattr(command, "params", ()) if command is not None else ():
        names.extend(
            n for n in (*getattr(param, "opts", ()), *getattr(param, "secondary_opts", ())) if n.startswith("-")
        )
    names.extend(getattr(ctx, "help_option_names", ()) or ())
    return names


def export_lines(fmt: str, done: Any, out: Path, *, verbose: bool) -> list[tuple[str, bool]]:
    """What ``chunker export`` prints (without ``--quiet``), each line with whether it goes to stderr:
    a line per document with ``verbose``, else the total (:func:`export_line`); a warning for the
    files named like exports that are left alone."""
    lines: list[tuple[str, bool]] = []
    for doc in done:
        if verbose and doc.gone:
            gone = f"{doc.stem}: no longer chunked, {len(doc.removed)} exported file(s) removed from {out}"
            lines.append((gone, False))
        elif verbose:
            stale = f", {len(doc.removed)} stale removed" if doc.removed else ""
            lines.append((f"{doc.stem}: {len(doc.written)} file(s) in {out}{stale}", False))
        if doc.left_alone:
            shown = ", ".join(str(p) for p in doc.left_alone[:5])
            more = f" and {len(doc.left_alone) - 5} more" if len(doc.left_alone) > 5 else ""
            warning = (
                f"warning: {doc.stem}: {len(doc.left_alone)} file(s) named like exports were not written by "
                f"chunker (or were edited since) and are left alone: {shown}{more}"
            )
            lines.append((warning, True))
    if not verbose:
        lines.append((export_line(fmt, done, out), False))
    return lines


def export_line(fmt: str, done: Any, out: Path) -> str:
    """``export jsonl: 1,830 document(s), 1,830 file(s) in chunks/_export (2 stale file(s) removed; ...)``: counts
    written as the run summary writes them."""
    exported = [d for d in done if not d.gone]
    gone = [d for d in done if d.gone]
    files = sum(len(d.written) for d in exported)
    stale = sum(len(d.removed) for d in exported)
    same = sum(len(d.unchanged) for d in exported)
    extra = [f"{same:,} unchanged"] if same else []
    if stale:
        extra.append(f"{stale:,} stale file(s) removed")
    if gone:
        removed = sum(len(d.removed) for d in gone)
        extra.append(f"{len(gone):,} document(s) no longer chunked, {removed:,} file(s) removed")
    tail = f" ({'; '.join(extra)})" if extra else ""
    return f"export {fmt}: {len(exported):,} document(s), {files:,} file(s) in {out}{tail}"


PATH_OPTIONS = ("--sources", "--out", "--chunks", "--config", "--cases", "--model")
"""Options that name a file or folder: an empty value would be the working folder (``Path("")`` is ``.``)."""


def empty_path(argv: list[str]) -> str | None:
    """The message for a path option given an empty value (``--out ''``, ``--out=``: a variable that
    was not set), which would otherwise write into or read the working folder; None when there is none."""
    for k, arg in enumerate(argv):
        if arg == "--":
            return None
        name, eq, value = arg.partition("=")
        if name not in PATH_OPTIONS:
            continue
        if (eq and not value.strip()) or (not eq and k + 1 < len(argv) and not argv[k + 1].strip()):
            return f"{name} is empty: give a file or folder ('.' for the working folder)"
    return None


def rerun_command(
    sources: Path,
    out: Path,
    config: Path | None,
    stems: list[str] | None = None,
    docs: list[str] | None = None,
    keep_orphans: bool = False,
) -> str:
    """The command a user pastes to bring what ``--check`` found stale up to date: the program as it
    was started, with the options of this run that say what is chunked and where (each value quoted
    for a POSIX shell: a path with spaces, ``$`` or quotes pastes as one word)."""
    import shlex

    words = [_program()]
    if sources != Path("sources"):
        words += ["--sources", shlex.quote(str(sources))]
    if out != Path("chunks"):
        words += ["--out", shlex.quote(str(out))]
    if config is not None:
        words += ["--config", shlex.quote(str(config))]
    for option, values in (("--stem", stems), ("--doc", docs)):
        for value in values or ():
            words += [option, shlex.quote(value)]
    if keep_orphans:
        words.append("--keep-orphans")
    return " ".join(words)


def _program() -> str:
    """``chunker`` as it was started: the path typed (``.venv/bin/chunker``), ``python -m chunker``,
    else ``chunker``."""
    import os
    import shlex

    started = sys.argv[0] if sys.argv else ""
    name = os.path.basename(started)
    if name in ("chunker", "chunker.exe") and started != name:
        return shlex.quote(started)
    if name == "__main__.py" and os.path.basename(os.path.dirname(started)) == "chunker":
        return f"{shlex.quote(sys.executable)} -m chunker"
    return "chunker"
