"""Regular expressions of the config that could backtrack without end on some line.

Python's ``re`` backtracks: when the rest of a pattern fails, it tries every way the pattern can
match the text so far. A pattern that can read one string along two different paths, both of which
come back to the same point of the pattern (a loop), can read a run of n such strings in 2^n ways:
one line of 40 ``a`` and a ``!`` then takes longer than any run may (``embedding_drop_lines`` and
``page_marker_pattern`` are matched against every document). Two shapes give such loops:

- a repeat of a repeat with nothing fixed between the inner repeats (``(a+)+$``, ``(\\w+\\s?)+:``,
  ``(x+x+)+y``, ``(.*,)+x``: the inner ``.*`` reads the commas too);
- a repeat of alternatives that overlap (``(a|aa)+$``, ``(a|ab|b)+c``, ``(.|\\s)+x``).

:func:`backtracking_risk` finds them in the parsed pattern (:func:`_loops_ambiguously`: the
pattern's positions, Glushkov's construction, each link counted once per way it arises, and a
search of the pairs of positions for two paths that read one string and meet again: exponential
ambiguity) so that the config refuses the pattern, naming the option. A fixed item between the
repeats that the inner repeat cannot read (``(\\d+\\.)+``, a section number), an atomic group or a
possessive repeat (``(?>\\w+\\s?)+``, ``(?:a+)++``) is fine, and so are alternatives that ``re``
merges into one character class (``(\\w|\\d)+``). A polynomial cost (``\\s*\\d*\\s*x``: n^3 on a
line of n spaces) is not refused; the check catches the exponential shapes, it proves nothing else.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_compile
    import sre_constants as const
    import sre_parse

__all__ = ["backtracking_risk", "matches_empty"]

_REPEATS = (const.MAX_REPEAT, const.MIN_REPEAT)
_WIDE = 10
"""A repeat that may iterate this many more times than its minimum counts as elastic; a repeat of
a fixed count up to this many times (or one optional copy more) is unrolled, any other is a loop."""
_MAX_POSITIONS = 300
_MAX_STEPS = 200_000
_ATOMIC = tuple(getattr(const, n) for n in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT") if hasattr(const, n))
_EMPTY_OPS = (const.AT, const.ASSERT, const.ASSERT_NOT, const.GROUPREF)
_PROBE = "".join(map(chr, range(128))) + "\u00a0\u00e9\u00df\u03a9\u0663\u2028\u4e2d\U0001f600"
"""Characters that stand for every character when two items are asked whether they read a common one."""


class _TooBigError(Exception):
    pass


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


# ---------------------------------------------------------------- ambiguous loops
Counts = dict[int, int]


def _add(into: Counts, key: int, n: int) -> None:
    if n:  # no way is no entry (a link of no way is no link)
        into[key] = min(2, into.get(key, 0) + n)  # one way or more than one: all that matters


class _Frag:
    """What a part of the pattern can start and end on (positions, each with its number of ways,
    capped at 2) and in how many ways it can read nothing."""

    __slots__ = ("empty", "first", "last")

    def __init__(self, first: Counts, last: Counts, empty: int) -> None:
        self.first, self.last, self.empty = first, last, empty


class _Positions:
    """Glushkov's construction over the parsed pattern: each character item is a position with the
    characters it reads (of :data:`_PROBE` and the pattern's characters beyond ASCII);
    ``follow[(p, q)]`` counts the ways the pattern can read q right after p (two ways are two paths a
    backtracking matcher tries)."""

    def __init__(self, state: Any, pattern: str) -> None:
        self.state = state
        self.labels: list[frozenset[str]] = []
        self.follow: dict[tuple[int, int], int] = {}
        self.probe = _PROBE + "".join(sorted({c for c in pattern if c > "\x7f"} - set(_PROBE)))
        self.caseless = bool(state.flags & const.SRE_FLAG_IGNORECASE)
        self._seen: dict[str, frozenset[str]] = {}

    def _position(self, label: frozenset[str]) -> _Frag:
        if len(self.labels) >= _MAX_POSITIONS:
            raise _TooBigError
        self.labels.append(label)
        p = len(self.labels) - 1
        return _Frag({p: 1}, {p: 1}, 0)

    def _char_item(self, item: tuple[Any, Any]) -> _Frag:
        op, av = item
        if op is const.LITERAL and not self.caseless:
            return self._position(frozenset({chr(av)}))
        key = repr(item)
        label = self._seen.get(key)
        if label is None:
            compiled = sre_compile.compile(sre_parse.SubPattern(self.state, [item]), self.state.flags)
            label = self._seen[key] = frozenset(c for c in self.probe if compiled.fullmatch(c))
        return self._position(label)

    def _link(self, a: Counts, b: Counts) -> None:
        for p, n in a.items():
            for q, m in b.items():
                if n * m:
                    self.follow[(p, q)] = min(2, self.follow.get((p, q), 0) + n * m)

    def _then(self, a: _Frag, b: _Frag) -> _Frag:
        """``a`` followed by ``b``."""
        self._link(a.last, b.first)
        first = dict(a.first)
        for p, n in b.first.items():
            _add(first, p, n * a.empty)
        last = dict(b.last)
        for p, n in a.last.items():
            _add(last, p, n * b.empty)
        return _Frag(first, last, min(2, a.empty * b.empty))

    def seq(self, items: Any) -> _Frag:
        frag = _Frag({}, {}, 1)
        for item in items:
            frag = self._then(frag, self.item(item))
        return frag

    def _either(self, frags: list[_Frag]) -> _Frag:
        first: Counts = {}
        last: Counts = {}
        for f in frags:
            for p, n in f.first.items():
                _add(first, p, n)
            for p, n in f.last.items():
                _add(last, p, n)
        return _Frag(first, last, min(2, sum(f.empty for f in frags)))

    def _repeat(self, lo: int, hi: int, body: Any) -> _Frag:
        if _loops(lo, hi):  # x{1,3}: as many ways to split a run as x+
            frag = self.seq(body)
            self._link(frag.last, frag.first)  # the loop back to the next iteration
            return _Frag(frag.first, frag.last, max(frag.empty, 1 if lo == 0 else 0))
        tail = _Frag({}, {}, 1)  # the hi - lo optional copies, nested as x(x(x)?)?
        for _ in range(hi - lo):
            tail = self._either([self._then(self.seq(body), tail), _Frag({}, {}, 1)])
        frag = _Frag({}, {}, 1)
        for _ in range(lo):
            frag = self._then(frag, self.seq(body))
        return self._then(frag, tail)

    def item(self, item: tuple[Any, Any]) -> _Frag:
        op, av = item
        if op is const.SUBPATTERN:
            return self.seq(av[3])
        if op is const.BRANCH:
            return self._either([self.seq(branch) for branch in av[1]])
        if op in _REPEATS:
            return self._repeat(av[0], av[1], av[2])
        if op in _ATOMIC:  # one way through, whatever it holds: a position no other item shares
            return self._position(frozenset({f"\x00atomic{len(self.labels)}"}))
        if op is const.GROUPREF_EXISTS:
            return self._either([self.seq(av[1]), self.seq(av[2]) if av[2] else _Frag({}, {}, 1)])
        if op in _EMPTY_OPS:
            return _Frag({}, {}, 1)
        return self._char_item(item)


def _loops(lo: int, hi: int) -> bool:
    """Whether a repeat is read as a loop (else unrolled): see :meth:`_Positions._repeat`."""
    return _elastic(lo, hi) or hi > _WIDE or hi - lo > 1


def _simple_loops(items: Any) -> bool:
    """Every loop of the sequence repeats one character item (``\\d+``, ``\\s*``, ``[a-z]{2,}``) and
    none is inside another: each loop is a position of its own, which two paths cannot split (the
    common page-number and running-header patterns skip the search)."""
    for op, av in _flat(items):
        if op in _REPEATS and _loops(av[0], av[1]):
            body = _flat(av[2])
            if len(body) != 1 or body[0][0] in (*_REPEATS, const.BRANCH, const.GROUPREF_EXISTS):
                return False
            continue
        parts = [av[2]] if op in _REPEATS else av[1] if op is const.BRANCH else []
        if op is const.GROUPREF_EXISTS:
            parts = [av[1], av[2] or []]
        if not all(_simple_loops(part) for part in parts):
            return False
    return True


def _loops_ambiguously(parsed: Any, pattern: str) -> bool:
    """Whether two different paths through the pattern's positions read the same string from one
    position back to that position (a cycle of the pair graph through a pair that differs):
    the exponential ambiguity that makes a backtracking matcher try 2^n ways. Both paths stay in
    the position's own strongly connected part, so only pairs inside one part are searched."""
    graph = _Positions(parsed.state, pattern)
    graph.seq(parsed)
    labels = graph.labels
    succ: dict[int, list[int]] = {}
    for p, q in graph.follow:
        succ.setdefault(p, []).append(q)
    part_of: dict[int, int] = {}
    for n, part in enumerate(_components(list(succ), lambda p: succ.get(p, ()))):
        for p in part:
            part_of[p] = n
    steps = 0
    edges: dict[tuple[int, int], list[tuple[tuple[int, int], bool]]] = {}
    stack = [(p, p) for p in succ if any(part_of.get(q) == part_of[p] for q in succ[p])]  # on a cycle
    seen = set(stack)
    while stack:
        node = stack.pop()
        p, q = node
        home = part_of[p]
        out = edges.setdefault(node, [])
        for p2 in succ.get(p, ()):
            if part_of.get(p2) != home:
                continue
            for q2 in succ.get(q, ()):
                steps += 1
                if steps > _MAX_STEPS:
                    raise _TooBigError
                if part_of.get(q2) != home or (q2 < p2 and p == q) or not labels[p2] & labels[q2]:
                    continue  # (p2, q2) and (q2, p2) are the same pair of paths from (p, p)
                split = p != q or p2 != q2 or graph.follow[(p, p2)] > 1
                out.append(((p2, q2), split))
                if (p2, q2) not in seen:
                    seen.add((p2, q2))
                    stack.append((p2, q2))
    for pairs in _components(list(edges), lambda n: [nxt for nxt, _ in edges.get(n, [])]):
        if any(p == q for p, q in pairs) and any(
            split and nxt in pairs for n in pairs for nxt, split in edges.get(n, [])
        ):
            return True
    return False


_Node = TypeVar("_Node", int, tuple[int, int])


def _components(nodes: list[_Node], succ: Callable[[_Node], Iterable[_Node]]) -> list[set[_Node]]:
    """The strongly connected parts of a graph (Tarjan's algorithm, without recursion)."""
    index: dict[_Node, int] = {}
    low: dict[_Node, int] = {}
    on_stack: set[_Node] = set()
    stack: list[_Node] = []
    parts: list[set[_Node]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[_Node, list[_Node], int]] = [(root, list(succ(root)), 0)]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, out, i = work.pop()
            if i < len(out):
                work.append((node, out, i + 1))
                nxt = out[i]
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, list(succ(nxt)), 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                part: set[_Node] = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    part.add(top)
                    if top == node:
                        break
                parts.append(part)
    return parts


@functools.lru_cache(maxsize=256)
def backtracking_risk(pattern: str) -> bool:
    """Whether ``pattern`` (valid) can read one string in two ways around a loop: a repeat of a
    repeat with nothing fixed between its iterations, or a repeat of overlapping alternatives."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = sre_parse.parse(pattern)
        if _risky(parsed):
            return True
        if _simple_loops(parsed):
            return False
        try:
            return _loops_ambiguously(parsed, pattern)
        except _TooBigError:  # a pattern of hundreds of items: the check proves nothing either way
            return False


@functools.lru_cache(maxsize=256)
def matches_empty(pattern: str) -> bool:
    """Whether ``pattern`` (valid) matches the empty string: as a page marker it would match at
    every position (``''``, ``x*``, ``^``) and cut a page before every character."""
    return re.compile(pattern).search("") is not None
