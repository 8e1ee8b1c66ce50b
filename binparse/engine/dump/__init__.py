"""What `inspect` shows of a record: its fields as text and JSON (`fields`, binparse's own formats),
the value tree of a user's schema written as it is read (`tree.dump`: `walk` and its sinks, `docs`
for JSON and YAML, `table` for text), the value a path names (`tree.find`) and the explorer page
(`explorer`)."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tree import dump, find


def __getattr__(name: str) -> Any:
    if name in ("dump", "find"):  # imported when asked for: `fields` alone (a family's --fields) needs none of it
        from . import tree
        return getattr(tree, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["dump", "find"]
