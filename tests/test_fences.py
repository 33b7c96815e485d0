"""The fence scan looks only at lines with a run of three backticks or tildes; it must answer as a
scan of every line would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunker.fences import _FENCE, _QUOTE_PREFIX, is_balanced, open_fence


def every_line(text: str) -> tuple[str, int] | None:
    open_run, open_line = "", 0
    for index, line in enumerate(text.split("\n")):
        stripped = _QUOTE_PREFIX.sub("", line)
        match = _FENCE.match(stripped) or _FENCE.match(stripped.lstrip())
        if match is None:
            continue
        run, rest = match.group(1), match.group(2)
        if not open_run:
            if run[0] == "`" and "`" in rest:
                continue
            open_run, open_line = run, index
        elif run[0] == open_run[0] and len(run) >= len(open_run) and not rest.strip():
            open_run = ""
    return (open_run, open_line) if open_run else None


PIECES = ["```", "~~~", "``", "~~", "`", "~", " ", "    ", "> ", ">", "\n", "a", "py", "\t", "- ", "````", "\n\n"]


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_open_fence_is_a_scan_of_every_line(text: str) -> None:
    assert open_fence(text) == every_line(text)
    assert is_balanced(text) == (every_line(text) is None)


def test_open_fence_reports_the_marker_and_line() -> None:
    assert open_fence("text\n```python\ncode\n") == ("```", 1)
    assert open_fence("> ~~~~\n> x\n> ~~~~\n") is None
    assert open_fence("``` a ``` b\n") is None  # a backtick in the info string: not a fence
    assert open_fence("````\n```\n") == ("````", 0)  # a shorter run does not close
