"""Python class names of a schema's types and enums in generated modules (one scheme: Kaitai's CamelCase,
made unique and free of keywords, builtins and the module's own imports: `binparse.engine.expr.idents`)."""

from __future__ import annotations

import weakref
from typing import Any

from ..expr.idents import camel as camel, free_class_name, root_class_name as root_class_name
from ..schema.model import TypeDef


# per schema (by id, with a weak reference that tells a schema from a later one at the same id)
_NAMES: dict[int, tuple[weakref.ref[Any], dict[int, str]]] = {}


def class_name(t: TypeDef) -> str:
    """Python class name of a type: its CamelCase name, or, when two types of its schema would
    share that name, the CamelCase of its whole path (`OuterInner`)."""
    entry = _NAMES.get(id(t.schema))
    names = entry[1] if entry is not None and entry[0]() is t.schema else None
    if names is None or id(t) not in names:
        types = t.schema.root.all_types()
        counts: dict[str, int] = {}
        for x in types:
            counts[camel(x.name)] = counts.get(camel(x.name), 0) + 1
        names = {}
        taken = {camel(x.name) for x in types if counts[camel(x.name)] == 1}
        for x in types:
            name = camel(x.name)
            if counts[name] > 1 and x.parent is not None:
                name = "".join(camel(p) for p in x.path.split("::"))
                while name in taken:
                    name += "_"
                taken.add(name)
            names[id(x)] = name
        used: set[str] = set()  # no keyword, builtin or name the module imports; each name once
        for x in types:
            names[id(x)] = free_class_name(names[id(x)], used)
            used.add(names[id(x)])
        _NAMES[id(t.schema)] = (weakref.ref(t.schema), names)
    return names[id(t)]


def enum_class_name(owner: TypeDef, enum: Any) -> str:
    """The name of an enum's class inside its type's class: its CamelCase name, made free of the
    names the class body uses (`IntEnum`) and of the type's other enums."""
    used: set[str] = set()
    for e in owner.enums.values():
        name = free_class_name(camel(e.name), used)
        if e is enum:
            return name
        used.add(name)
    return free_class_name(camel(enum.name))


def ref_name(target: TypeDef, schema: Any) -> str:
    """The name `target`'s class has in the generated module of `schema` (an imported class whose
    name a class of this schema already has is imported under `Name_schemaid`)."""
    name = class_name(target)
    if target.schema is schema:
        return name
    entry = _REFS.get(id(schema))
    table = entry[1] if entry is not None and entry[0]() is schema else None
    if table is None:  # every imported class of the closure, named once per schema
        table = {}
        used = {class_name(x) for x in schema.root.all_types()}
        for s in schema.all_imports():
            for x in s.root.all_types():
                n = class_name(x)
                if n in used:  # a name of this module or of an import before: `Name_schemaid`
                    n = free_class_name(f"{n}_{s.id}", used)
                table[id(x)] = n
                used.add(n)
        _REFS[id(schema)] = (weakref.ref(schema), table)
    return table.get(id(target), name)


_REFS: dict[int, tuple[weakref.ref[Any], dict[int, str]]] = {}


__all__ = ["camel", "class_name", "enum_class_name", "ref_name", "root_class_name"]
