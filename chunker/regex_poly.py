"""Two loops of a pattern that read one run of text between them in polynomially many ways, and what
a search adds to a pattern: the second half of :mod:`chunker.regex_risk`'s check (its docstring says
why), over the positions of :mod:`chunker.regex_positions`."""

from __future__ import annotations

import warnings
from typing import Any

from chunker.regex_positions import Positions, TooBigError, components, flat

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import sre_constants as const

MAX_STEPS = 200_000
"""The steps a search of pairs or triples of positions may take (:class:`TooBigError` past them)."""


def searched_from_anywhere(graph: Positions, parsed: Any, frag: Any) -> None:
    """Add what a search adds: it tries the pattern at every position of the text, as if the pattern
    began with a loop that reads any character (a ``(?m)^`` at its start: any text up to a line end
    first; a ``^`` or ``\\A``: nothing, the pattern is tried once)."""
    items = flat(parsed)
    head = items[0] if items else None
    if head is not None and head[0] is const.AT and head[1] in (const.AT_BEGINNING, const.AT_BEGINNING_STRING):
        if head[1] is const.AT_BEGINNING_STRING or not parsed.state.flags & const.SRE_FLAG_MULTILINE:
            return
        anywhere = graph.position(frozenset(graph.probe))
        newline = graph.position(frozenset("\n"))
        graph.link(anywhere.last, anywhere.first)
        graph.link(anywhere.last, newline.first)
        graph.link(newline.last, frag.first)
        return
    anywhere = graph.position(frozenset(graph.probe))
    graph.link(anywhere.last, anywhere.first)
    graph.link(anywhere.last, frag.first)


def loops_polynomially(graph: Positions, barred: set[int], ends_anything: set[int]) -> bool:
    """Whether two positions p != q, each on a loop a run of any length can take, read one string v
    from p back to p, from p to q and from q back to q (the pattern's ambiguity grows with a power of
    the text's length: the cost of a failing match by backtracking grows with that power, n^2 for
    ``x\\s*-?\\s*\\d+`` on an ``x`` and n spaces). The three paths stay off ``barred`` (positions
    where a search would have matched already, or that no stripped line reaches); a q in
    ``ends_anything`` (``.*`` at the end of a line's pattern) accepts whatever follows, so the match
    cannot fail after it."""
    labels = graph.labels
    succ: dict[int, list[int]] = {}
    for p, q in graph.unbounded:
        if p not in barred and q not in barred:
            succ.setdefault(p, []).append(q)
    part_of: dict[int, int] = {}
    for n, part in enumerate(components(list(succ), lambda p: succ.get(p, ()))):
        for p in part:
            part_of[p] = n
    looping = [p for p in succ if any(part_of.get(q) == part_of[p] for q in succ[p])]
    pred: dict[int, list[int]] = {}
    for p, nexts in succ.items():
        for q in nexts:
            pred.setdefault(q, []).append(p)
    reach = {p: reachable(p, succ) for p in looping}
    coreach = {q: reachable(q, pred) for q in looping}
    budget = [MAX_STEPS]
    for p in looping:
        for q in looping:
            if q == p or q not in reach[p] or q in ends_anything or not labels[p] & labels[q]:
                continue
            if _three_paths(p, q, succ, labels, part_of, reach[p] & coreach[q], budget):
                return True
    return False


def _three_paths(
    p: int,
    q: int,
    succ: dict[int, list[int]],
    labels: list[frozenset[str]],
    part_of: dict[int, int],
    between: set[int],
    budget: list[int],
) -> bool:
    """Whether one string leads from p back to p (inside p's part), from p to q (through
    ``between``) and from q back to q (inside q's part): a search of the triples of positions.
    ``budget``: the steps left (:class:`TooBigError` when they run out)."""
    seen = {(p, p, q)}
    todo = [(p, p, q)]
    while todo:
        a, b, c = todo.pop()
        for a2 in succ.get(a, ()):
            if part_of.get(a2) != part_of[p]:
                continue
            for c2 in succ.get(c, ()):
                common = labels[a2] & labels[c2] if part_of.get(c2) == part_of[q] else None
                if not common:
                    continue
                budget[0] -= len(succ.get(b, ()))
                if budget[0] < 0:
                    raise TooBigError
                for b2 in succ.get(b, ()):
                    if b2 not in between or not common & labels[b2]:
                        continue
                    if (a2, b2, c2) == (p, q, q):
                        return True
                    if (a2, b2, c2) not in seen:
                        seen.add((a2, b2, c2))
                        todo.append((a2, b2, c2))
    return False


def dead(graph: Positions, frag: Any) -> set[int]:
    """The positions no stripped line reaches (its first character is no space): ``\\s*`` at the start
    of ``\\s*-?\\s*\\d+`` reads nothing of a line that ``embedding_drop_lines`` strips before matching."""
    succ: dict[int, list[int]] = {}
    for p, q in graph.follow:
        succ.setdefault(p, []).append(q)
    live: set[int] = set()
    for p in frag.first:
        if p not in live and any(not c.isspace() for c in graph.labels[p]):
            live |= reachable(p, succ)
    return set(range(len(graph.labels))) - live


def reachable(start: int, succ: dict[int, list[int]]) -> set[int]:
    found, todo = {start}, [start]
    while todo:
        for y in succ.get(todo.pop(), ()):
            if y not in found:
                found.add(y)
                todo.append(y)
    return found
