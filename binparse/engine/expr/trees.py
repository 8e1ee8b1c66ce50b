"""Walks of an expression's tree: the names it reads, its nodes, how deep it nests."""

from __future__ import annotations

from typing import Any

Expr = tuple[Any, ...]
MAX_DEPTH = 64  # how deep an expression's tree may nest (grammar.parse refuses deeper ones)


def depth(e: Expr) -> int:
    """How deep an AST nests (worked out without recursion)."""
    best, todo = 0, [(e, 1)]
    while todo:
        n, d = todo.pop()
        if d > best:
            best = d
        for part in n[1:]:
            if isinstance(part, tuple) and part:
                if isinstance(part[0], str):
                    todo.append((part, d + 1))
                else:
                    todo.extend((p, d + 1) for p in part if isinstance(p, tuple) and p)
    return best


def names(e: Expr) -> set[str]:
    """Bare names an expression reads (not attributes of them)."""
    if e[0] == "name":
        return {e[1]}
    out: set[str] = set()
    for part in e[1:]:
        if isinstance(part, tuple):
            if part and isinstance(part[0], str):
                out |= names(part)
            else:  # a tuple of ASTs (list items, call arguments, f-string parts)
                for p in part:
                    out |= names(p)
    return out


def nodes(e: Expr) -> list[Expr]:
    """Every node of an AST, the root first."""
    out = [e]
    for part in e[1:]:
        if isinstance(part, tuple):
            if part and isinstance(part[0], str):
                out.extend(nodes(part))
            else:
                for p in part:
                    out.extend(nodes(p))
    return out
