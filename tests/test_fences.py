"""The fence scan looks only at lines with a run of three backticks or tildes; it must answer as a
scan of every line would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunker.fences import _FENCE, _QUOTE_PREFIX, closing_line, fence_after, is_balanced


def every_line(text: str) -> tuple[str, str] | None:
    open_run, open_line = "", ""
    for line in text.split("\n"):
        stripped = _QUOTE_PREFIX.sub("", line)
        match = _FENCE.match(stripped) or _FENCE.match(stripped.lstrip())
        if match is None:
            continue
        run, rest = match.group(1), match.group(2)
        if not open_run:
            if run[0] == "`" and "`" in rest:
                continue
            open_run, open_line = run, line
        elif run[0] == open_run[0] and len(run) >= len(open_run) and not rest.strip():
            open_run = ""
    return (open_run, open_line) if open_run else None


PIECES = ["```", "~~~", "``", "~~", "`", "~", " ", "    ", "> ", ">", "\n", "a", "py", "\t", "- ", "````", "\n\n"]


TEXTS = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@given(TEXTS)
def test_the_fence_scan_is_a_scan_of_every_line(text: str) -> None:
    assert fence_after(text) == every_line(text)
    assert is_balanced(text) == (every_line(text) is None)


@given(TEXTS, TEXTS)
def test_the_scan_resumed_piece_by_piece_answers_as_one_scan(head: str, tail: str) -> None:
    if head and not head.endswith("\n"):
        head += "\n"  # pieces are cut at line starts
    assert fence_after(tail, fence_after(head)) == fence_after(head + tail)


def test_the_fence_scan_reports_the_marker_and_opening_line() -> None:
    assert fence_after("text\n```python\ncode\n") == ("```", "```python")
    assert fence_after("> ~~~~\n> x\n> ~~~~\n") is None
    assert fence_after("``` a ``` b\n") is None  # a backtick in the info string: not a fence
    assert fence_after("````\n```\n") == ("````", "````")  # a shorter run does not close
    assert fence_after("x\n", ("```", "   ```sh")) == ("```", "   ```sh")


def test_a_closing_line_keeps_quote_markers_and_turns_list_markers_into_spaces() -> None:
    assert closing_line("   ```sh", "```") == "   ```"
    assert closing_line("> > ~~~~", "~~~~") == "> > ~~~~"
    assert closing_line("1. ```python", "```") == "   ```"
    assert closing_line("> - ```", "```") == ">   ```"
