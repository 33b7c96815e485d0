"""Hardened loading of the YAML frontmatter at the start of a Markdown file.

``chunker.parse.frontmatter`` finds the block and hands over the YAML between
its fences. Everything that could hurt is refused before it
can: the size before parsing, the nesting depth while composing, alias bombs and
cycles on the node graph before any Python object is built, and every tag the
safe loader does not know. Accepted metadata holds only JSON values.

A plain mapping (no tabs, flow mappings, tags, anchors, block scalars...: nearly every
frontmatter) is first tried through libyaml, three times faster, with the same constructor
hooks and graph checks; whatever it refuses, flags or cannot take goes to the hardened
pure-Python loader, which alone decides every message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.error import Mark
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from chunker.config import ChunkerConfig
from chunker.frontmatter_graph import RefusedError, check_graph
from chunker.frontmatter_loaders import Loader, plain_mapping
from chunker.frontmatter_values import to_json
from chunker.models import Diagnostic
from chunker.policy import gated

__all__ = ("FrontmatterResult", "load_frontmatter")

_NEWLINE = re.compile(r"\r\n?|\n")
"""Line breaks as markdown-it counts them (PyYAML also counts U+2028, U+0085...)."""
_NULL_TAG = "tag:yaml.org,2002:null"


@dataclass(frozen=True, slots=True)
class FrontmatterResult:
    """What the frontmatter block turned out to be."""

    metadata: dict[str, Any] | None
    """JSON-safe metadata when accepted, else ``None``."""
    keep_as_body: bool
    """The block is not metadata (a YAML list or string): its lines are ordinary body text."""
    diagnostics: tuple[Diagnostic, ...]
    title: str | None = None
    """A block refused as invalid YAML: the text of its ``title:`` line, the page's title all the same."""


def load_frontmatter(yaml_text: str, first_line: int, cfg: ChunkerConfig) -> FrontmatterResult:
    """Load the YAML of a frontmatter block whose first line is file line ``first_line``."""
    at = _Lines(yaml_text, first_line)
    size = len(yaml_text) if len(yaml_text) * 4 <= cfg.max_frontmatter_bytes else _utf8_size(yaml_text)
    if size > cfg.max_frontmatter_bytes:
        return at.refuse(
            "frontmatter-too-large",
            f"is {size} bytes, over max_frontmatter_bytes={cfg.max_frontmatter_bytes}, and was not parsed",
            None,
        )
    plain = plain_mapping(yaml_text, cfg)
    if plain is not None:
        return FrontmatterResult(plain, False, ())
    return _hardened(yaml_text, cfg, at)


@dataclass(frozen=True, slots=True)
class _Lines:
    """File lines of marks in the YAML of a frontmatter, and the results that name them."""

    yaml_text: str
    first_line: int

    def line(self, mark: Mark | None) -> int:
        if mark is None:
            return self.first_line
        return self.first_line + len(_NEWLINE.findall(self.yaml_text, 0, min(mark.index, len(self.yaml_text))))

    def refuse(self, code: str, message: str, mark: Mark | None) -> FrontmatterResult:
        diag = gated(code, f"frontmatter {message}; the block was removed", line=self.line(mark))
        return FrontmatterResult(None, False, (diag,))

    def invalid(self, problem: str, mark: Mark | None) -> FrontmatterResult:
        """A block that is not YAML: refused, its ``title:`` line still read as the page's title (a site
        whose own reader takes ``title: {#if ...}`` or ``title: @sveltejs/kit`` as text, as svelte.dev's does)."""
        title = _title_line(self.yaml_text)
        kept = f" (its title line is read as the title: {title!r})" if title else ""
        message = (
            f"frontmatter is not valid YAML: {problem}; the block was removed{kept}; if a value there is text "
            "starting with {, [, @ or `, or holding ': ', quote it (title: '{#if ...}')"
        )
        return FrontmatterResult(None, False, (gated("frontmatter-invalid", message, line=self.line(mark)),), title)

    def not_mapping(self, kind: str, mark: Mark | None) -> FrontmatterResult:
        message = f"frontmatter is a YAML {kind}, not a mapping of key: value; the block is kept as body text"
        return FrontmatterResult(
            None, True, (Diagnostic("warning", "frontmatter-not-mapping", message, self.line(mark)),)
        )


# One except clause per way the YAML loader can fail, each mapped to its own finding.
def _hardened(yaml_text: str, cfg: ChunkerConfig, at: _Lines) -> FrontmatterResult:
    """The pure-Python loader, which decides every message."""
    try:
        loader = Loader(yaml_text, cfg.max_frontmatter_depth)  # checks every character first
    except yaml.reader.ReaderError as exc:
        mark = Mark("<frontmatter>", exc.position, 0, 0, None, 0)
        return at.refuse("frontmatter-invalid", f"holds the character #x{exc.character:04x}, which YAML forbids", mark)
    try:
        root = loader.get_single_node()
        if root is None or (isinstance(root, ScalarNode) and root.tag == _NULL_TAG):
            return FrontmatterResult({}, False, ())
        if not isinstance(root, MappingNode):
            return at.not_mapping("list" if isinstance(root, SequenceNode) else "scalar (text)", root.start_mark)
        check_graph(root, cfg.max_frontmatter_nodes, cfg.max_frontmatter_depth, cfg.max_frontmatter_bytes)
        data = loader.construct_document(root)
        if not isinstance(data, dict):  # a `!!set` root
            return at.not_mapping("set", root.start_mark)
        metadata = to_json(data)
    except RefusedError as exc:
        return at.refuse(exc.code, exc.message, exc.mark)
    except RecursionError:
        return at.refuse("frontmatter-too-deep", "nests too deeply for the YAML parser", loader.deepest)
    except yaml.MarkedYAMLError as exc:
        context = exc.context or ""
        if context and exc.context_mark is not None and exc.problem_mark is not None:
            context += f" at line {at.line(exc.context_mark)},"
        problem = " ".join(p for p in (context, exc.problem) if p) or "invalid"
        return at.invalid(problem, exc.problem_mark or exc.context_mark)
    except yaml.YAMLError as exc:
        return at.invalid(str(exc), None)
    except (ValueError, TypeError, AttributeError, ArithmeticError, LookupError) as exc:
        # PyYAML's safe constructors raise these on values that match a tag's pattern but not its
        # range (`2020-13-45`, `!!float abc`, `!!timestamp x`, an integer of more than 4300 digits),
        # or that are empty (`!!float`, `!!int`: IndexError; `!!bool`: KeyError).
        why = "a value its tag does not accept" if isinstance(exc, LookupError) else str(exc)
        return at.refuse("frontmatter-invalid", f"has a value YAML cannot construct ({why})", loader.constructing)
    finally:
        loader.dispose()
    return FrontmatterResult(metadata, False, _notes(loader, at))


def _notes(loader: Loader, at: _Lines) -> tuple[Diagnostic, ...]:
    """Duplicate keys and values converted for JSON, which the loader recorded."""
    diags: list[Diagnostic] = []
    for name, mark, first in loader.duplicates:
        diags.append(
            Diagnostic(
                "warning",
                "frontmatter-duplicate-key",
                f"frontmatter has a duplicate key {name!r} (first at line {at.line(first)}); the last value is kept",
                line=at.line(mark),
            )
        )
    if loader.converted:
        kinds = sorted(loader.converted.items(), key=lambda item: item[1].index)
        listed = ", ".join(f"{kind} (line {at.line(mark)})" for kind, mark in kinds)
        diags.append(
            Diagnostic(
                "info",
                "frontmatter-converted",
                f"frontmatter values JSON cannot hold were converted to strings or lists: {listed}",
                line=at.line(kinds[0][1]),
            )
        )
    return tuple(diags)


_TITLE_LINE = re.compile(r"^title:[ \t]+(\S(?:.*\S)?)[ \t]*$", re.IGNORECASE | re.MULTILINE)
_BLOCK_SCALAR = re.compile(r"[|>][-+0-9]*(?:[ \t]+#.*)?")


def _title_line(yaml_text: str) -> str | None:
    """The value of the first top-level ``title:`` line, as text (its quotes removed), if it is written on it."""
    found = _TITLE_LINE.search(yaml_text)
    if found is None:
        return None
    value = found.group(1)
    if _BLOCK_SCALAR.fullmatch(value):
        return None  # `title: >`: the text is on the lines below
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1].strip()
    return value or None


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
