"""Values checked against type hints: what a config file may give for an option of a declared type.

``as_type(hint, value)`` returns ``value`` when it is of type ``hint`` (``int``, ``bool``, ``str``,
``None``, a ``Literal[...]``, a union of those, or ``tuple[X, ...]`` given as a list or a set)
and raises :class:`WrongTypeError` naming the expected type otherwise. The hints are the resolved
ones (``typing.get_type_hints``), so a ``Literal`` declared on a field is what is checked.
"""

from __future__ import annotations

from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

__all__ = ["WrongTypeError", "as_type", "describe"]


class WrongTypeError(Exception):
    """A value that is not of the declared type; ``expected`` names the type for a message."""

    def __init__(self, expected: str, value: Any) -> None:
        super().__init__(expected)
        self.expected = expected
        self.value = value


def describe(hint: Any) -> str:
    """How an error message names a type: ``an integer``, ``one of a, b``, ``a list of strings``."""
    if hint in _NAMES:
        return _NAMES[hint]
    origin = get_origin(hint)
    if origin is Literal:
        choices = get_args(hint)
        return f"'{choices[0]}'" if len(choices) == 1 else "one of " + ", ".join(map(str, choices))
    if origin is tuple:
        item = get_args(hint)[0]
        return "a list of strings" if item is str else f"a list of items, each {describe(item)}"
    if origin in (Union, UnionType):
        return " or ".join(describe(arg) for arg in get_args(hint))
    raise AssertionError(f"no description for {hint}")  # pragma: no cover


_NAMES: dict[Any, str] = {int: "an integer", bool: "true or false", str: "a string", type(None): "empty"}


def as_type(hint: Any, value: Any) -> Any:
    """``value`` if it is of type ``hint`` (a list or set for a tuple); else :class:`WrongTypeError`."""
    origin = get_origin(hint)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise WrongTypeError(describe(hint), value)
        return value
    if hint in (bool, str, type(None)):
        if not isinstance(value, hint):
            raise WrongTypeError(describe(hint), value)
        return value
    if origin is Literal:
        if not isinstance(value, str) or value not in get_args(hint):
            raise WrongTypeError(describe(hint), value)
        return value
    if origin in (Union, UnionType):
        for arg in get_args(hint):
            try:
                return as_type(arg, value)
            except WrongTypeError:
                continue
        raise WrongTypeError(describe(hint), value)
    if origin is tuple:
        return _as_tuple(hint, value)
    raise AssertionError(f"no coercion for {hint}")  # pragma: no cover


def _as_tuple(hint: Any, value: Any) -> tuple[Any, ...]:
    """A list (or a set: sorted) of items of ``hint``'s item type, as a tuple."""
    if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
        raise WrongTypeError(describe(hint), value)
    item_hint = get_args(hint)[0]
    items = []
    for item in value:
        try:
            items.append(as_type(item_hint, item))
        except WrongTypeError:
            raise WrongTypeError(describe(hint), item) from None
    return tuple(sorted(set(items))) if isinstance(value, (set, frozenset)) else tuple(items)
