"""A backtick fence line whose info string holds a backtick: no fence in CommonMark, named by a warning."""

from __future__ import annotations

from chunker.config import ChunkerConfig
from chunker.pipeline import chunk_markdown


def _findings(text: str) -> list[tuple[str, int | None]]:
    result = chunk_markdown(text, ChunkerConfig(), "page", "page.md")
    return [(d.code, d.line) for d in result.diagnostics.diagnostics]


def test_a_backtick_in_the_info_of_a_backtick_fence_is_named() -> None:
    # javascript.info's boxes: the closing ```` opens a fence that runs to the end of the page
    text = '# T\n\nIntro.\n\n````warn header="If `src` is set"\nText.\n\n```js\nx\n```\n````\n\n## Summary\n\nEnd.\n'
    found = _findings(text)
    assert ("fence-info-backtick", 5) in found
    assert ("unclosed-fence", 11) in found
    # three backticks: the fences pair otherwise, nothing is left open, the line is still named
    text = '# T\n\n```smart header="The `typeof(x)` syntax"\nText.\n```\n\n## Next\n\n```js\nx\n```\n'
    assert _findings(text) == [("fence-info-backtick", 3)]


def test_code_spans_and_real_fences_are_not_named() -> None:
    assert _findings('# T\n\n``` `x` ``` is a code span.\n\n```js title="a.js"\nx\n```\n') == []
    assert _findings('# T\n\n~~~smart header="The `x` syntax"\nText.\n~~~\n') == []
