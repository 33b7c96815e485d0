"""The variant record and registry of bench/hostile_variants.py (see there)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

MB = 2**20
SENT = "The quick brown fox jumps over the lazy dog. "


@dataclass
class Variant:
    name: str
    kind: str
    data: Callable[[], bytes] | None = None
    expect: str = "any"  # ok | error | any
    sentinels: tuple[str, ...] = ()
    line: str | None = None  # "3|4": a nonzero exit must name one of these lines
    ext: str = ".md"
    args: list[str] | None = None  # default: ["--stem", name]
    setup: Callable[[Path], None] | None = None  # builds sources/ (and more) itself
    hint: str | None = None  # text a nonzero exit's message must hold (default: the name)
    timeout: int = 30
    scale: Callable[[int], bytes] | None = None  # size n -> input; the runner times 1x and 10x
    note: str = ""
    extra: dict[str, str] = field(default_factory=dict)


V: list[Variant] = []


def add(name: str, kind: str, data: Callable[[], bytes] | bytes | str | None = None, **kw: object) -> None:
    if isinstance(data, str):
        data = data.encode("utf-8")
    if isinstance(data, bytes):
        raw = data
        data = lambda: raw  # noqa: E731
    V.append(Variant(name, kind, data, **kw))  # type: ignore[arg-type]


def text(s: str) -> Callable[[], bytes]:
    return lambda: s.encode("utf-8")


def with_config(config: str, document: str) -> Callable[[Path], None]:
    """A variant's setup: ``config.yaml`` holding ``config`` beside ``sources/d.md`` holding ``document``."""

    def setup(w: Path) -> None:
        (w / "config.yaml").write_text(config, encoding="utf-8")
        (w / "sources" / "d.md").write_text(document, encoding="utf-8")

    return setup
