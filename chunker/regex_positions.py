"""The positions of a parsed regular expression (Glushkov's construction) and the strongly connected
parts of a graph: what :mod:`chunker.regex_risk` searches for two paths that read one string.

Each character item of the pattern is a position with the characters it reads (of :data:`PROBE`
and the pattern's characters beyond ASCII); ``follow[(p, q)]`` counts the ways the pattern can read
q right after p (two ways are two paths a backtracking matcher tries). A repeat of one character
item up to :data:`WIDE` times is unrolled, any other repeat is a loop (its last positions linked back
to its first); ``unbounded`` holds the links a run of any length can take again and again (not the
loop links of a repeat of at most :data:`LONG` more iterations). ``free`` are the positions after
which the pattern ends with nothing left to check (no ``$``, ``\\b`` or lookahead), save the ends
of a line where the caller says the match is of one whole line.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_compile
    import sre_constants as const
    import sre_parse

WIDE = 10
"""A repeat that may iterate this many more times than its minimum counts as elastic; a repeat of
a fixed count up to this many times (or one optional copy more) is unrolled, any other is a loop."""
LONG = 256
"""A loop of at most this many more iterations than its minimum cannot make the cost of a match grow
with the length of the text (``\\d{1,3}``, ``x{0,100}``): its loop links are not ``unbounded``."""
MAX_POSITIONS = 300
ATOMIC = tuple(getattr(const, n) for n in ("ATOMIC_GROUP", "POSSESSIVE_REPEAT") if hasattr(const, n))
EMPTY_OPS = (const.AT, const.ASSERT, const.ASSERT_NOT, const.GROUPREF)
PROBE = "".join(map(chr, range(128))) + "\u00a0\u00e9\u00df\u03a9\u0663\u2028\u4e2d\U0001f600"
"""Characters that stand for every character when two items are asked whether they read a common one."""
_LINE_ENDS = (const.AT_END, const.AT_END_LINE, const.AT_END_STRING)
REPEATS = (const.MAX_REPEAT, const.MIN_REPEAT)


class TooBigError(Exception):
    """The pattern has more positions, or its search more steps, than the check allows."""


def flat(items: Any) -> list[tuple[Any, Any]]:
    """The items of a sequence, with plain groups opened."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is const.SUBPATTERN:
            out.extend(flat(av[3]))
        else:
            out.append((op, av))
    return out


def elastic(lo: int, hi: int) -> bool:
    return hi == const.MAXREPEAT or hi - lo >= WIDE


def loops(lo: int, hi: int) -> bool:
    """Whether a repeat is read as a loop (else unrolled): see :meth:`Positions._repeat`."""
    return elastic(lo, hi) or hi > WIDE or hi - lo > 1


Counts = dict[int, int]
CAP = 1 << 16
"""Ways are counted up to this many (the checks ask whether there is more than one way, or more than
:data:`chunker.regex_ways.MAX_WAYS`)."""


def _add(into: Counts, key: int, n: int) -> None:
    if n:  # no way is no entry (a link of no way is no link)
        into[key] = min(CAP, into.get(key, 0) + n)


class Frag:
    """What a part of the pattern can start and end on (positions, each with its number of ways,
    capped at :data:`CAP`), in how many ways it can read nothing, the positions it can end on with nothing
    to check after them (``free``), and whether it can read nothing without a check (``open``)."""

    __slots__ = ("empty", "first", "free", "last", "open")

    def __init__(
        self, first: Counts, last: Counts, empty: int, free: frozenset[int] = frozenset(), open: bool = True
    ) -> None:
        self.first, self.last, self.empty, self.free, self.open = first, last, empty, free, open


_NOTHING = Frag({}, {}, 1)


_LABELS: dict[tuple[str, int, str], frozenset[str]] = {}
"""The characters of :data:`PROBE` (and more) each character item reads, across patterns (5,000
running headers share their ``\\d``)."""


_PROBE_SET = frozenset(PROBE)


def probe_of(pattern: str) -> str:
    """:data:`PROBE` and the pattern's own characters beyond ASCII."""
    return _probe_with(frozenset(c for c in pattern if c > "\x7f") - _PROBE_SET)


@functools.lru_cache(maxsize=256)
def _probe_with(extra: frozenset[str]) -> str:
    return PROBE + "".join(sorted(extra))


def label_of(item: tuple[Any, Any], state: Any, probe: str) -> frozenset[str]:
    """The characters of ``probe`` that one character item reads."""
    op, av = item
    if op is const.LITERAL and not state.flags & const.SRE_FLAG_IGNORECASE:
        return frozenset({chr(av)})
    key = (repr(item), state.flags, probe)
    label = _LABELS.get(key)
    if label is None:
        compiled = sre_compile.compile(sre_parse.SubPattern(state, [item]), state.flags)
        label = frozenset(c for c in probe if compiled.fullmatch(c))
        if len(_LABELS) >= 4096:
            _LABELS.clear()
        _LABELS[key] = label
    return label


class Positions:
    """Glushkov's construction over the parsed pattern (the module says what it holds). ``line``:
    the pattern is matched against one whole line, so that ``$`` at its end checks nothing; ``unroll``:
    every repeat of at most :data:`WIDE` iterations is unrolled (``\\d{1,3}``: a start's paths end
    after three digits), as the count of ways needs."""

    def __init__(self, state: Any, pattern: str, *, line: bool = False, unroll: bool = False) -> None:
        self.state = state
        self.line = line
        self.unroll = unroll
        self.labels: list[frozenset[str]] = []
        self.follow: dict[tuple[int, int], int] = {}
        self.unbounded: set[tuple[int, int]] = set()
        self.probe = probe_of(pattern)

    def position(self, label: frozenset[str]) -> Frag:
        if len(self.labels) >= MAX_POSITIONS:
            raise TooBigError
        self.labels.append(label)
        p = len(self.labels) - 1
        return Frag({p: 1}, {p: 1}, 0, frozenset({p}), False)

    def _char_item(self, item: tuple[Any, Any]) -> Frag:
        return self.position(label_of(item, self.state, self.probe))

    def link(self, a: Counts, b: Counts, *, bounded: bool = False) -> None:
        for p, n in a.items():
            for q, m in b.items():
                if n * m:
                    self.follow[(p, q)] = min(CAP, self.follow.get((p, q), 0) + n * m)
                    if not bounded:
                        self.unbounded.add((p, q))

    def then(self, a: Frag, b: Frag) -> Frag:
        """``a`` followed by ``b``."""
        self.link(a.last, b.first)
        first = dict(a.first)
        for p, n in b.first.items():
            _add(first, p, n * a.empty)
        last = dict(b.last)
        for p, n in a.last.items():
            _add(last, p, n * b.empty)
        free = b.free | a.free if b.open else b.free
        return Frag(first, last, min(CAP, a.empty * b.empty), free, a.open and b.open)

    def seq(self, items: Any) -> Frag:
        frag = _NOTHING
        for item in items:
            frag = self.then(frag, self.item(item))
        return frag

    def _either(self, frags: list[Frag]) -> Frag:
        first: Counts = {}
        last: Counts = {}
        for f in frags:
            for p, n in f.first.items():
                _add(first, p, n)
            for p, n in f.last.items():
                _add(last, p, n)
        free = frozenset().union(*(f.free for f in frags))
        return Frag(first, last, min(CAP, sum(f.empty for f in frags)), free, any(f.open for f in frags))

    def _repeat(self, lo: int, hi: int, body: Any) -> Frag:
        if loops(lo, hi) and not (self.unroll and hi <= WIDE):  # x{1,3}: as many ways to split a run as x+
            frag = self.seq(body)
            bounded = hi != const.MAXREPEAT and hi - lo <= LONG
            self.link(frag.last, frag.first, bounded=bounded)  # the loop back to the next iteration
            if frag.empty and lo > 1:  # (a?){25}: which of the forced iterations read nothing, 2^25 ways
                self.link(frag.last, frag.first, bounded=bounded)
            # reading nothing: no iteration (x{0,}), or iterations that read nothing, ((ab)?)* two ways
            empty = min(CAP, (1 if lo == 0 else 0) + frag.empty)
            # and after an iteration that read something, one more may read nothing: (a?)+ leaves 'a' two ways
            last = {p: min(CAP, n * (1 + frag.empty)) for p, n in frag.last.items()} if frag.empty else frag.last
            return Frag(frag.first, last, empty, frag.free, lo == 0 or frag.open)
        tail = _NOTHING  # the hi - lo optional copies, nested as x(x(x)?)?
        for _ in range(hi - lo):
            tail = self._either([self.then(self.seq(body), tail), _NOTHING])
        frag = _NOTHING
        for _ in range(lo):
            frag = self.then(frag, self.seq(body))
        return self.then(frag, tail)

    def _atomic(self, body: Any) -> Frag:
        """An atomic group or a possessive repeat: one way through, whatever it holds (a start gives one
        end): one position that reads any character the group can read, once, and that may be skipped
        when the group can read nothing (``a?+``)."""
        inner = Positions(self.state, "", line=self.line)
        inner.probe = self.probe
        frag = inner.seq(body)
        if not inner.labels:
            return Frag({}, {}, 1, frozenset(), frag.open)
        p = self.position(frozenset().union(*inner.labels))
        p.empty, p.open = min(1, frag.empty), frag.open
        return p

    def item(self, item: tuple[Any, Any]) -> Frag:
        op, av = item
        if op is const.SUBPATTERN:
            return self.seq(av[3])
        if op is const.BRANCH:
            return self._either([self.seq(branch) for branch in av[1]])
        if op in REPEATS:
            return self._repeat(av[0], av[1], av[2])
        if op in ATOMIC:
            return self._atomic(av if op is ATOMIC[0] else [(const.MAX_REPEAT, av)])
        if op is const.GROUPREF_EXISTS:
            return self._either([self.seq(av[1]), self.seq(av[2]) if av[2] else _NOTHING])
        if op in EMPTY_OPS:  # read nothing; a check, save a line's end when the match is of one line
            return Frag({}, {}, 1, frozenset(), self.line and op is const.AT and av in _LINE_ENDS)
        return self._char_item(item)


_Node = TypeVar("_Node", int, tuple[int, int])


def components(nodes: list[_Node], succ: Callable[[_Node], Iterable[_Node]]) -> list[set[_Node]]:
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
