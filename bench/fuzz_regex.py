"""Random config regexes against the backtracking check (chunker/regex_risk.py): every pattern the
check accepts is timed on hostile lines, and one that takes over a second on any of them is printed.

    .venv/bin/python bench/fuzz_regex.py --seconds 240 --seed 1        # prints 'accepted N slow M'
    PYTHONPATH=/tmp/ref .venv/bin/python bench/fuzz_regex.py            # another checkout's check

The patterns: 1-4 atoms (characters, classes, ``(?:a|ab)``, optional parts) with random repeats
(``*``, ``+``, ``?``, ``{n}``, ``{m,n}``, possessive when ``?`` meets ``+``), nested 3 deep, some
with alternatives; 30 % are checked as page markers (searched), the rest as lines (fullmatch of a
stripped line). Python's ``re`` checks for signals while matching, so an interval timer stops it.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import time

from chunker.regex_risk import backtracking_risk

ATOMS = ["a", "b", r"\d", r"\s", r"\w", ".", "[ab]", "x", "(?:a|ab)", "(?:a|b)", "a?", "(?:ab)?"]
LINES = ["a" * 3000 + "!", "ab" * 1500 + "!", " " * 3000 + "!", "1" * 3000 + "!", "a " * 1500 + "!", "x" * 3000 + "!"]


class _SlowError(Exception):
    pass


def pattern(rng: random.Random, depth: int = 0) -> str:
    out = ""
    for _ in range(rng.randrange(1, 5)):
        if depth < 3 and rng.random() < 0.3:
            alt = "|" + pattern(rng, depth + 1) if rng.random() < 0.3 else ""
            out += "(?:" + pattern(rng, depth + 1) + alt + ")"
        else:
            out += rng.choice(ATOMS)
        q = rng.random()
        if q < 0.2:
            out += "*"
        elif q < 0.35:
            out += "+"
        elif q < 0.45:
            out += "?"
        elif q < 0.6:
            out += f"{{{rng.randrange(2, 30)}}}"
        elif q < 0.7:
            lo = rng.randrange(0, 5)
            out += f"{{{lo},{lo + rng.randrange(1, 40)}}}"
    return out


def _alarm(*_: object) -> None:
    raise _SlowError


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    signal.signal(signal.SIGALRM, _alarm)
    accepted = slow = 0
    deadline = time.monotonic() + a.seconds
    while time.monotonic() < deadline:
        p = pattern(rng)
        try:
            rx = re.compile(p)
        except re.error:
            continue
        searched = rng.random() < 0.3
        if backtracking_risk(p, searched):
            continue
        accepted += 1
        for line in LINES:
            signal.setitimer(signal.ITIMER_REAL, 1.0)
            try:
                (rx.search if searched else rx.fullmatch)(line if searched else line.strip())
            except _SlowError:
                slow += 1
                print("slow", "searched" if searched else "line", repr(p), repr(line[:8]), flush=True)
                break
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    print(f"accepted {accepted} slow {slow}")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
