"""Regular expressions of the config that could backtrack without end on some line.

Python's ``re`` backtracks: a repeat of a repeat with nothing fixed between the inner repeats
(``(a+)+$``, ``(\\w+\\s?)+:``, ``(x+x+)+y``) tries every way of splitting a run of characters among
its iterations when the rest of the pattern fails, 2^n ways for a run of n. One line of 40 ``a``
and a ``!`` then takes longer than any run may (``embedding_drop_lines`` and
``page_marker_pattern`` are matched against every document). :func:`backtracking_risk` finds that
shape in the parsed pattern so that the config refuses it, naming the option; a fixed item in the
repeated part (``(\\d+\\.)+``, a section number) or an atomic group or possessive repeat
(``(?>\\w+\\s?)+``, ``(?:a+)++``) is fine. Other exponential shapes (alternatives that overlap,
``(a|aa)+``) are not recognised: the check catches the common mistake, it proves nothing.
"""

from __future__ import annotations

import functools
import re
import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as const
    import sre_parse

__all__ = ["backtracking_risk", "matches_empty"]

_REPEATS = (const.MAX_REPEAT, const.MIN_REPEAT)
_WIDE = 10
"""A repeat that may iterate this many more times than its minimum counts as elastic."""


def _elastic(lo: int, hi: int) -> bool:
    return hi == const.MAXREPEAT or hi - lo >= _WIDE


def _flat(items: Any) -> list[tuple[Any, Any]]:
    """The items of a sequence, with plain groups opened."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is const.SUBPATTERN:
            out.extend(_flat(av[3]))
        else:
            out.append((op, av))
    return out


def _has_elastic(items: Any) -> bool:
    """A repeat that may iterate many times, backtracked into (not inside an atomic group)."""
    for op, av in _flat(items):
        if op in _REPEATS and (_elastic(av[0], av[1]) or _has_elastic(av[2])):
            return True
        if op is const.BRANCH and any(_has_elastic(branch) for branch in av[1]):
            return True
    return False


def _all_elastic(items: Any) -> bool:
    """Every item of the sequence may take more or fewer characters (or none): nothing fixed
    separates the iterations of a repeat around it."""
    flat = [(op, av) for op, av in _flat(items) if op is not const.AT]
    if not flat:
        return False
    for op, av in flat:
        if op in _REPEATS and (av[0] != av[1] or _all_elastic(av[2])):
            continue
        if op is const.BRANCH and all(_all_elastic(branch) for branch in av[1]):
            continue
        return False
    return True


def _risky(items: Any) -> bool:
    for op, av in _flat(items):
        if op in _REPEATS:
            lo, hi, body = av
            if _elastic(lo, hi) and _has_elastic(body) and _all_elastic(body):
                return True
            if _risky(body):
                return True
        elif op is const.BRANCH and any(_risky(branch) for branch in av[1]):
            return True
    return False


@functools.lru_cache(maxsize=256)
def backtracking_risk(pattern: str) -> bool:
    """Whether ``pattern`` (valid) repeats a repeat with nothing fixed between its iterations."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _risky(sre_parse.parse(pattern))


@functools.lru_cache(maxsize=256)
def matches_empty(pattern: str) -> bool:
    """Whether ``pattern`` (valid) matches the empty string: as a page marker it would match at
    every position (``''``, ``x*``, ``^``) and cut a page before every character."""
    return re.compile(pattern).search("") is not None
