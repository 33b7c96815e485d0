"""Regular expressions of the config that could backtrack without end, or for hours, on some line.

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
merges into one character class (``(\\w|\\d)+``).

A pattern that reads one run in polynomially many ways costs a power of the run's length, which is
as bad on a long line: ``x\\s*-?\\s*\\d+`` tries every way to share a run of n spaces after the ``x``
between its two ``\\s*`` (n^2: 0.4 s at 8,000 spaces, about 2 hours at a million), ``.*a.*a.*a`` n^3
(``embedding_drop_lines`` strips a line first: a ``\\s*`` at its start reads nothing). Such patterns
(:func:`loops_polynomially`: two loops p and q, and one string read from p back to p, from p to q
and from q back to q; a ``.*`` at the end of a line's pattern reads whatever follows, so no match
fails after it) are refused too. A page marker is searched for at every position of a document:
a loop at its start reads each run once per position (``\\d+x``, ``[ \\t]*<!--``, ``(?m)^\\s*\\d+$``
over a million blank lines), unless the search would have matched already. Bounded repeats
(``\\d{1,3}``) cannot make the cost grow with the text.

What passes these checks is then held to a bound that is safe by construction
(:mod:`chunker.regex_ways`): no text may leave more than 100 paths of the pattern (and of its search)
alive at once, so that matching costs at most 100 steps a character whatever the text. A fixed count
of an optional item (``(a?){25}a{25}``, 2^25 ways over 25 ``a``), counted repeats of overlapping
alternatives and long word lists with one start are refused by it; so is a pattern the check cannot
walk (over 300 character items, or past its step limits): ``unchecked``, split it.
"""

from __future__ import annotations

import functools
import re
import warnings
from typing import Any, Literal

from chunker.regex_poly import MAX_STEPS, dead, loops_polynomially, searched_from_anywhere
from chunker.regex_positions import (
    LONG,
    PROBE,
    REPEATS,
    Positions,
    TooBigError,
    components,
    elastic,
    flat,
    label_of,
    loops,
    probe_of,
)
from chunker.regex_ways import MAX_WAYS, too_many_ways

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as const
    import sre_parse

__all__ = ["backtracking_risk", "matches_empty"]


def _haselastic(items: Any) -> bool:
    """A repeat that may iterate many times, backtracked into (not inside an atomic group)."""
    for op, av in flat(items):
        if op in REPEATS and (elastic(av[0], av[1]) or _haselastic(av[2])):
            return True
        if op is const.BRANCH and any(_haselastic(branch) for branch in av[1]):
            return True
    return False


def _allelastic(items: Any) -> bool:
    """Every item of the sequence may take more or fewer characters (or none): nothing fixed
    separates the iterations of a repeat around it."""
    items = [(op, av) for op, av in flat(items) if op is not const.AT]
    if not items:
        return False
    for op, av in items:
        if op in REPEATS and (av[0] != av[1] or _allelastic(av[2])):
            continue
        if op is const.BRANCH and all(_allelastic(branch) for branch in av[1]):
            continue
        return False
    return True


def _risky(items: Any) -> bool:
    for op, av in flat(items):
        if op in REPEATS:
            lo, hi, body = av
            if elastic(lo, hi) and _haselastic(body) and _allelastic(body):
                return True
            if _risky(body):
                return True
        elif op is const.BRANCH and any(_risky(branch) for branch in av[1]):
            return True
    return False


# ---------------------------------------------------------------- ambiguous loops
def _simple_loops(items: Any) -> bool:
    """Every loop of the sequence repeats one character item (``\\d+``, ``\\s*``, ``[a-z]{2,}``) and
    none is inside another: each loop is a position of its own, which two paths cannot split (the
    common page-number and running-header patterns skip the search)."""
    for op, av in flat(items):
        if op in REPEATS and loops(av[0], av[1]):
            body = flat(av[2])
            if len(body) != 1 or body[0][0] in (*REPEATS, const.BRANCH, const.GROUPREF_EXISTS):
                return False
            continue
        parts = [av[2]] if op in REPEATS else av[1] if op is const.BRANCH else []
        if op is const.GROUPREF_EXISTS:
            parts = [av[1], av[2] or []]
        if not all(_simple_loops(part) for part in parts):
            return False
    return True


def _loops_ambiguously(graph: Positions) -> bool:
    """Whether two different paths through the pattern's positions read the same string from one
    position back to that position (a cycle of the pair graph through a pair that differs):
    the exponential ambiguity that makes a backtracking matcher try 2^n ways. Both paths stay in
    the position's own strongly connected part, so only pairs inside one part are searched."""
    labels = graph.labels
    succ: dict[int, list[int]] = {}
    for p, q in graph.follow:
        succ.setdefault(p, []).append(q)
    part_of: dict[int, int] = {}
    for n, part in enumerate(components(list(succ), lambda p: succ.get(p, ()))):
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
                if steps > MAX_STEPS:
                    raise TooBigError
                if part_of.get(q2) != home or (q2 < p2 and p == q) or not labels[p2] & labels[q2]:
                    continue  # (p2, q2) and (q2, p2) are the same pair of paths from (p, p)
                split = p != q or p2 != q2 or graph.follow[(p, p2)] > 1
                out.append(((p2, q2), split))
                if (p2, q2) not in seen:
                    seen.add((p2, q2))
                    stack.append((p2, q2))
    for pairs in components(list(edges), lambda n: [nxt for nxt, _ in edges.get(n, [])]):
        if any(p == q for p, q in pairs) and any(
            split and nxt in pairs for n in pairs for nxt, split in edges.get(n, [])
        ):
            return True
    return False


Risk = Literal["exponential", "polynomial", "searched", "ambiguous", "unchecked"]


@functools.lru_cache(maxsize=256)
def backtracking_risk(pattern: str, searched: bool = False) -> Risk | None:
    """How ``pattern`` (valid) can read one string in many ways, if it can: ``exponential`` (two
    ways around a loop: a repeat of a repeat with nothing fixed between its iterations, or a repeat
    of overlapping alternatives), ``polynomial`` (two loops that read the same run with nothing
    fixed between them) or ``searched`` (``searched``: the pattern is looked for at every position of
    a text, and a loop at its start reads the same run as the search), ``ambiguous`` (some text
    leaves more than :data:`MAX_WAYS` paths alive at once) or ``unchecked`` (too large to walk). Else None. Without
    ``searched`` the pattern is matched against one whole line (``re.fullmatch``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = sre_parse.parse(pattern)
        if _risky(parsed):
            return "exponential"
        try:
            graph = None
            if not _simple_loops(parsed):
                graph = Positions(parsed.state, pattern, line=not searched)
                frag = graph.seq(parsed)
                if _loops_ambiguously(graph):
                    return "exponential"
            if _unbounded_loops(parsed, 1 if searched else 2) and not _separated(parsed, pattern, searched):
                if graph is None:
                    graph = Positions(parsed.state, pattern, line=not searched)
                    frag = graph.seq(parsed)
                risk = _polynomial_risk(graph, frag, parsed, searched)
                if risk:
                    return risk
            if not searched and _few_ways(parsed):
                return None
            return "ambiguous" if _too_many_ways(parsed, pattern, searched) else None
        except TooBigError:  # a pattern of hundreds of items, or a search too long: nothing is proven
            return "unchecked"


def _polynomial_risk(graph: Positions, frag: Any, parsed: Any, searched: bool) -> Risk | None:
    """``polynomial`` or ``searched`` (see :func:`backtracking_risk`), else None."""
    if searched:
        barred = set(frag.free)
        size = len(graph.labels)
        searched_from_anywhere(graph, parsed, frag)
        if loops_polynomially(graph, barred, set()):
            searched_loop = loops_polynomially(graph, barred | set(range(size, len(graph.labels))), set())
            return "polynomial" if searched_loop else "searched"
        return None
    return "polynomial" if loops_polynomially(graph, dead(graph, frag), _ends_anything(graph, frag)) else None


def _ends_anything(graph: Positions, frag: Any) -> set[int]:
    """The positions of a ``.*`` that ends the pattern: a line's match succeeds from there (a loop that
    reads any character any number of times: not ``.{3,19}``, which stops)."""
    anything = set(PROBE) - {"\n"}
    return {p for p in frag.free if anything <= graph.labels[p] and (p, p) in graph.unbounded}


def _too_many_ways(parsed: Any, pattern: str, searched: bool) -> bool:
    """The bound of :mod:`chunker.regex_ways` on the pattern's positions (and the search's)."""
    graph = Positions(parsed.state, pattern, line=not searched, unroll=True)
    frag = graph.seq(parsed)
    if not searched:
        return too_many_ways(graph, [frag.first], _ends_anything(graph, frag), line=True, stripped=True)
    size = len(graph.labels)
    searched_from_anywhere(graph, parsed, frag)
    starts = dict(frag.first)
    if len(graph.labels) > size:
        starts[size] = 1  # the search's own position, reading any character before a start
    return too_many_ways(graph, [starts], set(frag.free), line=False)


def _few_ways(parsed: Any) -> bool:
    """A quick bound for a plain sequence of character items and their repeats whose loops the checks
    above let pass (``Seite \\d+ von \\d+``, ``\\s*-?\\s*\\d+``): a path is the length each repeat
    reads, each repeat of at most ``LONG`` more iterations has that many choices, each loop two (where it
    stops among the ways the checks above leave); True when the product is at most :data:`MAX_WAYS`."""
    ways = 1
    for op, av in flat(parsed):
        if op is const.AT or op in _CHAR_OPS:
            continue
        if op not in REPEATS:
            return False
        body = flat(av[2])
        if len(body) != 1 or body[0][0] not in _CHAR_OPS:
            return False
        lo, hi = av[0], av[1]
        ways *= 2 if hi == const.MAXREPEAT or hi - lo > LONG else hi - lo + 1
        if ways > MAX_WAYS:
            return False
    return True


_CHAR_OPS = (const.LITERAL, const.NOT_LITERAL, const.IN, const.ANY, const.CATEGORY)


def _separated(parsed: Any, pattern: str, searched: bool) -> bool:
    """A quick answer for a plain sequence (``Seite \\d+ von \\d+``, ``<!--\\s*page:?\\s*(\\d+)\\s*-->``):
    every two loops of one character item (and, when ``searched``, the search before a loop) have an
    item between them that must read a character the two cannot both read. Then no two paths can
    share a run between them; False when the pattern is not such a sequence, or a pair is not
    separated (the search of the positions decides)."""
    probe = probe_of(pattern)
    loops_at: list[tuple[int, frozenset[str]]] = []  # (index among the items that must be read, label)
    must: list[str | frozenset[str]] = []  # the items that must be read: a literal's character, or a label
    items = flat(parsed)
    multiline = parsed.state.flags & const.SRE_FLAG_MULTILINE
    head = items[0] if items else None
    start = (const.AT, const.AT_BEGINNING)
    anchored = head == (const.AT, const.AT_BEGINNING_STRING) or (head == start and not multiline)
    if searched and not anchored:
        loops_at.append((0, frozenset(probe)))
    caseless = parsed.state.flags & const.SRE_FLAG_IGNORECASE
    for op, av in items:
        if op is const.AT:
            continue
        if op in REPEATS:
            body = flat(av[2])
            if len(body) != 1 or body[0][0] not in _CHAR_OPS:
                return False
            label = label_of(body[0], parsed.state, probe)
            if av[1] == const.MAXREPEAT or av[1] - av[0] > LONG:
                for at, before in loops_at:
                    common = before & label
                    if common and all(
                        (item in common) if isinstance(item, str) else bool(common & item) for item in must[at:]
                    ):
                        return False  # nothing between them that the run cannot be read by
                loops_at.append((len(must) + 1 if av[0] else len(must), label))
                if av[0]:
                    must.append(label)  # \d+ reads a digit at least
                continue
            if av[0] == 0:
                continue
            must.append(label)
        elif op is const.LITERAL and not caseless:
            must.append(chr(av))
        elif op in _CHAR_OPS:
            must.append(label_of((op, av), parsed.state, probe))
        else:
            return False
    return True


def _unbounded_loops(items: Any, enough: int) -> bool:
    """Whether the pattern holds at least ``enough`` repeats that a run of any length can take."""
    count = 0
    stack = [items]
    while stack:
        for op, av in flat(stack.pop()):
            if op in REPEATS:
                if av[1] == const.MAXREPEAT or av[1] - av[0] > LONG:
                    count += 1
                    if count >= enough:
                        return True
                stack.append(av[2])
            elif op is const.BRANCH:
                stack.extend(av[1])
            elif op is const.GROUPREF_EXISTS:
                stack.extend(x for x in (av[1], av[2]) if x)
    return False


@functools.lru_cache(maxsize=256)
def matches_empty(pattern: str) -> bool:
    """Whether ``pattern`` (valid) matches the empty string: as a page marker it would match at
    every position (``''``, ``x*``, ``^``) and cut a page before every character."""
    return re.compile(pattern).search("") is not None


RISKS = {
    "ambiguous": (
        "can backtrack for hours: some text can be read in more than 100 ways at once (a fixed count of an "
        "optional part, (a?){25}a{25}, or counted repeats of overlapping alternatives, ((a|aa){10}){4}, or a long "
        "list of alternatives with the same start); make the optional parts exclusive, or split the pattern "
        "into several simpler ones"
    ),
    "unchecked": (
        "is too large to be checked for backtracking (over 300 character items, or too many ways to walk); "
        "split it into several simpler patterns"
    ),
    "exponential": (
        "can backtrack without end: it can read one run of text in many ways (a repeat of a repeat with nothing "
        "fixed between the repeats, (a+)+ or (\\w+\\s?)+, or of alternatives that overlap, (a|aa)+); drop the outer "
        "repeat, make the alternatives exclusive, or make it atomic, (?>\\w+\\s?)+ or (?:a+)++"
    ),
    "polynomial": (
        "can backtrack for hours on one long line: two repeats read the same characters with nothing fixed "
        "between them that they cannot read (x\\s*-?\\s*\\d+ on an x and a run of spaces, .*a.*a.*a), so every "
        "way to share a run between them is tried (n^2 and more); make the repeats read different characters, "
        "put a fixed character between them, or make one atomic, (?>\\s*)"
    ),
    "searched": (
        "can backtrack for hours on one long line: it is searched for at every position of a document, and a "
        "repeat near its start reads the same run again from each position (\\d+x or [ \\t]*<!-- over a long run "
        "of digits or spaces, n^2); start it with a fixed character, or anchor it to a line's start, (?m)^"
    ),
}
"""What each answer of :func:`backtracking_risk` means for a pattern, and how to mend it: the message of a
configuration error (:mod:`chunker.config`)."""
