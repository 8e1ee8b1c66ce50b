"""The families' part of a command's `--help`: one argument group per family, and their examples.

Each family's declaration (`binparse.family.Family`) lists the options it adds to some commands
(`Option`) and its buffer-layout flags (`LayoutKind`); here they become one argument group named
after the family (`Family.title`), so `view --help` shows each family's options together instead
of one list of every family's. A flag two families declare (`--shape`) is parsed once (the first
family's declaration) and shown in each family's group with that family's help. The layout flags
of all families exclude each other (one layout describes a buffer).
"""

from __future__ import annotations

import argparse
import copy
from typing import Any

LAYOUT_COMMANDS = ("view", "pack", "draw")  # the commands a layout flag (`LayoutKind`) describes a buffer for


def add_family_arguments(command: str, parser: argparse.ArgumentParser) -> None:
    """Every family's options and layout flags that `command` takes, each family's in its own group."""
    from ..family.plugins import families
    added: dict[str, argparse.Action] = {}  # flag -> the action that parses it
    layouts: Any = None  # the group of mutually exclusive layout flags, made when the first one is added
    for fam in families():
        kinds = fam.layouts if command in LAYOUT_COMMANDS else ()
        options = [opt for opt in fam.options if command in opt.commands]
        if not kinds and not options:
            continue
        group = parser.add_argument_group(f"{fam.title or fam.name} options")
        for kind in kinds:
            if kind.choices:
                action = group.add_argument(kind.flag, choices=kind.choices, help=kind.help)
            else:
                action = group.add_argument(kind.flag, action="store_true", help=kind.help)
            if layouts is None:
                layouts = parser.add_mutually_exclusive_group()
            layouts._group_actions.append(action)  # argparse checks exclusion by this list, wherever shown
        exclusive: dict[str, Any] = {}
        for opt in options:
            first = added.get(opt.flags[0])
            if first is not None:  # declared by an earlier family too: parsed once, shown here with this help
                shown = copy.copy(first)
                shown.help = opt.help
                shown.metavar = opt.kwargs.get("metavar", first.metavar)
                group._group_actions.append(shown)
                continue
            target: Any = group
            if opt.group:
                target = exclusive.get(opt.group) or exclusive.setdefault(opt.group,
                                                                          group.add_mutually_exclusive_group())
            added[opt.flags[0]] = target.add_argument(*opt.flags, help=opt.help, **opt.kwargs)


def usages(command: str) -> list[str]:
    """The forms of `command` the families add to its usage line (`Family.usages`), without `binparse COMMAND`."""
    from ..family.plugins import families
    return [u.line for fam in families() for u in fam.usages if u.command == command]


def examples(command: str, core: tuple[tuple[str, str], ...] = ()) -> str:
    """The `Examples:` section of `command`'s help: the core's lines, then every family's."""
    from ..family.plugins import families
    rows = [*core, *((ex.line, ex.note) for fam in families() for ex in fam.examples if ex.command == command)]
    if not rows:
        return ""
    lines = ["Examples (from the repository root, on the bundled fixtures):"]
    for line, note in rows:
        lines += [f"  # {note}"] if note else []
        lines.append(f"  binparse {line}")
    return "\n".join(lines)


__all__ = ["LAYOUT_COMMANDS", "add_family_arguments", "examples", "usages"]
