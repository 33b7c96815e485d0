"""The bound that makes a config regex safe by construction: how many ways the pattern can be
reading one text at once.

A backtracking matcher tries, from a start, every path through the pattern's positions that reads
the text so far, one after the other; whatever the pattern holds, its work on n characters is at most
n times the largest number of paths that can be reading the text at once (the *ways*, each link
counted once per way it arises), and a search's work at most n times the ways of the search (every
start's paths together). :func:`too_many_ways` walks every set of paths, with their counts, that
some text can leave alive (Rabin and Scott's subset construction over the classes of characters the
positions tell apart) and answers True when some text leaves more than :data:`MAX_WAYS`, or when the
walk needs more than :data:`MAX_SETS` sets: what cannot be proven cheap is refused. So a pattern is
accepted only if no text makes it cost more than :data:`MAX_WAYS` steps a character (a fixed count
of an optional item, ``(a?){25}a{25}``, ``a?`` x 25 then ``a`` x 25, or counted repeats of
alternatives, ``((a|aa){10}){4}``, read a run in millions of ways: refused).

What the callers know about the match is kept: paths that have matched are dropped (a search stops
there; a ``.*`` ending a line's pattern accepts whatever follows), a stripped line starts with no
space, and a line holds no line end. An atomic group is one position (one way through it: see
:meth:`chunker.regex_positions.Positions._atomic`).
"""

from __future__ import annotations

from chunker.regex_positions import Counts, Positions

MAX_WAYS = 100
"""The most paths one text may leave alive at once (a word list of more than 100 words with one
first letter is over it: split it into several patterns)."""
MAX_SETS = 4_000
"""The most sets of paths the walk may visit."""


def char_classes(labels: list[frozenset[str]], chars: frozenset[str]) -> list[frozenset[str]]:
    """``chars`` cut into classes whose characters every label takes or leaves together."""
    classes = [chars]
    for label in set(labels):
        refined: list[frozenset[str]] = []
        for cls in classes:
            inside = cls & label
            if inside and inside != cls:
                refined.extend((inside, cls - inside))
            else:
                refined.append(cls)
        classes = refined
    return classes


def too_many_ways(
    graph: Positions, starts: list[Counts], dropped: set[int], *, line: bool, stripped: bool = False
) -> bool:
    """Whether some text leaves more than :data:`MAX_WAYS` paths alive, walking from each of
    ``starts`` (the ways to read a first character on each position). ``dropped``: positions where a
    path has matched (it is not followed); ``line``: the text is one line (no ``\\n``);
    ``stripped``: its first character is no space."""
    labels = graph.labels
    chars = frozenset(graph.probe) - ({"\n"} if line else set())
    classes = char_classes(labels, chars)
    reading = [{q for q in range(len(labels)) if next(iter(cls)) in labels[q]} for cls in classes]
    succ: dict[int, list[tuple[int, int]]] = {}
    for (p, q), ways in graph.follow.items():
        if q not in dropped:
            succ.setdefault(p, []).append((q, ways))
    seen: set[tuple[tuple[int, int], ...]] = set()
    todo: list[tuple[tuple[int, int], ...]] = []
    for root in starts:
        for k, cls in enumerate(classes):
            if stripped and all(c.isspace() for c in cls):
                continue
            first = tuple(sorted((q, ways) for q, ways in root.items() if q in reading[k] and q not in dropped))
            if first and first not in seen:
                seen.add(first)
                todo.append(first)
    while todo:
        alive = todo.pop()
        if sum(ways for _, ways in alive) > MAX_WAYS:
            return True
        if len(seen) > MAX_SETS:
            return True
        for k in range(len(classes)):
            nxt: dict[int, int] = {}
            readers = reading[k]
            for p, ways in alive:
                for q, link in succ.get(p, ()):
                    if q in readers:
                        nxt[q] = min(MAX_WAYS + 1, nxt.get(q, 0) + ways * link)
            key = tuple(sorted(nxt.items()))
            if key and key not in seen:
                seen.add(key)
                todo.append(key)
    return False
