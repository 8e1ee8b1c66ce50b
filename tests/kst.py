"""Kaitai Struct's language-neutral test specs (`.kst`), run against any parser of the suite's schemas.

A spec names a schema (`id`), an input file (`data`) and either `asserts` (an `actual` expression
evaluated on the parsed root, an `expected` expression or an `exception` the evaluation raises)
or an `exception` the parse itself raises. Both sides are Kaitai expressions and are evaluated by
binparse's own expression interpreter, as Kaitai's test translator compares them: floats to 6
decimal places, `null` as "absent", byte arrays and arrays element by element, enum members by
member. The parser under test is given as a `Target`: binparse, or the Python the official
compiler writes (the reference).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any

import yaml

from binparse.engine.expr import Expr, evaluate, parse
from binparse.engine.expr import values as kv

SUITE = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "kaitai_struct_tests"


@dataclass
class Assert:
    actual: Expr
    expected: Expr | None  # None: the check is that evaluating `actual` raises `exception`
    exception: str | None
    text: str


@dataclass
class Spec:
    id: str
    data: str
    asserts: list[Assert] = field(default_factory=list)
    exception: str | None = None  # the parse raises this (asserts are not run)
    debug: bool = False  # `ks-debug: true`: an error in the parse leaves the objects read so far to check


def load_spec(path: Path) -> Spec:
    doc = yaml.safe_load(path.read_text())
    exc = doc.get("exception")
    if isinstance(exc, dict):
        exc = exc["type"]
    schema = SUITE / "formats" / f"{doc['id']}.ksy"
    meta = (yaml.safe_load(schema.read_text()) or {}).get("meta", {}) if schema.exists() else {}
    spec = Spec(doc["id"], doc["data"], exception=exc, debug=meta.get("ks-debug") is True)
    for a in doc.get("asserts") or []:
        spec.asserts.append(Assert(parse(str(a["actual"])), parse(a["expected"]) if "expected" in a else None,
                                   a.get("exception"), f"{a['actual']} == {a.get('expected', a.get('exception'))}"))
    return spec


def specs() -> list[Path]:
    return sorted((SUITE / "spec" / "ks").glob("*.kst"))


class Target:
    """A parser under test: how it parses, what its errors mean, how it resolves enum literals."""

    name = ""
    last: Any = None  # the root object of the last parse, also when the parse raised (debug mode's partial one)

    def parse(self, spec: Spec) -> Any:
        """The root object, parsed as eagerly as Kaitai's generated code parses (raises on bad input)."""
        raise NotImplementedError

    def error_kind(self, exc: BaseException) -> str | None:
        """Kaitai's name of the error (`EndOfStreamError`, `ValidationNotEqualError`, …), or None."""
        raise NotImplementedError

    def enum_value(self, root: Any, enum: str, member: str) -> Any:
        raise NotImplementedError

    def attr(self, obj: Any, name: str) -> Any:
        return getattr(obj, name)


class _Scope:
    def __init__(self, target: Target, root: Any, spec: Spec) -> None:
        self.target, self.root, self.spec = target, root, spec

    def lookup(self, name: str) -> Any:
        if name == "null":
            return None
        return self.target.attr(self.root, name)

    def attr(self, obj: Any, name: str) -> Any:
        return self.target.attr(obj, name)

    def enum_value(self, enum: str, member: str) -> Any:
        return self.target.enum_value(self.root, enum, member)


def same(actual: Any, expected: Any) -> bool:
    """Kaitai's test translator's equality: floats to 6 places, enums by member, arrays by element."""
    if expected is None:
        return actual is None
    if isinstance(expected, IntEnum):  # a member, or its code (binparse gives an array of enums as their codes)
        if isinstance(actual, IntEnum):
            return actual.name == expected.name and int(actual) == int(expected)
        return isinstance(kv.py(actual), int) and kv.py(actual) == int(expected)
    actual = kv.py(actual)
    if isinstance(actual, float) or isinstance(expected, float):
        return isinstance(actual, (int, float)) and not isinstance(actual, bool) and round(actual - expected, 6) == 0
    if isinstance(expected, bool):
        return actual is expected or (not isinstance(actual, bool) and isinstance(actual, int) and actual == expected)
    try:
        return kv.eq(actual, expected)
    except Exception:
        return False


@dataclass
class Outcome:
    passed: bool
    detail: str = ""


def run(spec: Spec, target: Target) -> Outcome:
    """Run one spec against one target."""
    if spec.exception is not None:
        want = spec.exception.split("<")[0]
        try:
            target.parse(spec)
        except Exception as exc:  # noqa: BLE001 - the spec names the error it expects
            kind = target.error_kind(exc)
            if kind == want:
                return Outcome(True)
            return Outcome(False, f"parse raised {type(exc).__name__} ({kind}), not {want}: {exc}")
        return Outcome(False, f"parse did not raise {want}")
    try:
        root = target.parse(spec)
    except Exception as exc:  # noqa: BLE001
        kind = target.error_kind(exc)
        if not (spec.debug and kind == "EndOfStreamError" and target.last is not None):
            return Outcome(False, f"parse raised {type(exc).__name__}" + (f" ({kind})" if kind else "") + f": {exc}")
        root = target.last  # Kaitai's debug mode: what was read before the end of the data stays readable
    scope = _Scope(target, root, spec)
    for a in spec.asserts:
        if a.expected is None:
            want = (a.exception or "").split("<")[0]
            try:
                got = evaluate(a.actual, scope)
            except Exception as exc:  # noqa: BLE001
                if target.error_kind(exc) == want:
                    continue
                return Outcome(False, f"{a.text}: raised {type(exc).__name__}: {exc}")
            return Outcome(False, f"{a.text}: gave {got!r}, not {want}")
        try:
            got = evaluate(a.actual, scope)
            want_v = evaluate(a.expected, scope)
        except Exception as exc:  # noqa: BLE001
            return Outcome(False, f"{a.text}: raised {type(exc).__name__}: {exc}")
        if not same(got, want_v):
            return Outcome(False, f"{a.text}: got {_show(got)}")
    return Outcome(True)


def _show(v: Any) -> str:
    text = repr(kv.plain(v) if not isinstance(v, IntEnum) else v)
    return text if len(text) < 200 else text[:200] + "…"


def run_all(target: Target, only: Callable[[Spec], bool] = lambda s: True) -> dict[str, Outcome]:
    out = {}
    for p in specs():
        s = load_spec(p)
        if only(s):
            out[s.id] = run(s, target)
    return out


class KaitaiPython(Target):
    """The reference: the Python that the official compiler writes, on the `kaitaistruct` runtime."""

    name = "kaitai"

    def __init__(self, out_dir: Path) -> None:
        import sys
        self.out_dir = out_dir
        if str(out_dir) not in sys.path:
            sys.path.insert(0, str(out_dir))

    def module(self, name: str) -> Any:
        import importlib
        return importlib.import_module(name)

    def parse(self, spec: Spec) -> Any:
        from binparse.engine.backends.numpy_backend import camel
        cls = getattr(self.module(spec.id), camel(spec.id))
        data = (SUITE / "src" / spec.data).read_bytes()
        import kaitaistruct
        from kaitaistruct import BytesIO, KaitaiStream
        # binparse's evaluator asks a record's class for its members (`_ks_member`, the whitelist
        # dispatch); Kaitai's objects are given one here, in the test harness, that reads their attributes
        kaitaistruct.KaitaiStruct._ks_member = lambda obj, name: self.attr(obj, name)  # type: ignore[attr-defined]
        obj = self.last = cls(KaitaiStream(BytesIO(data)))
        if hasattr(cls, "SEQ_FIELDS"):  # `ks-debug: true`: the constructor does not read
            obj._read()
        return obj

    def attr(self, obj: Any, name: str) -> Any:
        import kaitaistruct
        try:
            return getattr(obj, name)
        except AttributeError:
            if isinstance(obj, kaitaistruct.KaitaiStruct) and not name.startswith("_"):
                return None  # a field whose `if` is false is not set at all on Kaitai's objects
            raise

    def error_kind(self, exc: BaseException) -> str | None:
        import kaitaistruct
        if isinstance(exc, EOFError):
            return "EndOfStreamError"
        if isinstance(exc, kaitaistruct.KaitaiStructError):
            return type(exc).__name__
        if isinstance(exc, ValueError) and not isinstance(exc, UnicodeError):
            return "ConversionError"
        return None

    def enum_value(self, root: Any, enum: str, member: str) -> Any:
        from binparse.engine.backends.numpy_backend import camel
        parts = [p for p in enum.split("::") if p]
        owner: Any = type(root)
        for p in parts[:-1]:
            owner = getattr(owner, camel(p), None) or getattr(self.module(p), camel(p))
        return getattr(getattr(owner, camel(parts[-1])), member)


class Binparse(Target):
    """binparse: `binparse.compile` of the suite's schema, read as eagerly as Kaitai reads (`validate`)."""

    name = "binparse"

    def __init__(self) -> None:
        self.dirs = [SUITE / "formats", SUITE / "formats" / "ks_path"]
        self.compiled: dict[str, Any] = {}

    def compile(self, spec_id: str) -> Any:
        import binparse
        if spec_id not in self.compiled:
            self.compiled[spec_id] = binparse.compile(SUITE / "formats" / f"{spec_id}.ksy", import_path=self.dirs)
        return self.compiled[spec_id]

    def parse(self, spec: Spec) -> Any:
        root = self.last = self.compile(spec.id).parse((SUITE / "src" / spec.data).read_bytes())
        root.validate()
        return root

    def error_kind(self, exc: BaseException) -> str | None:
        return getattr(exc, "kaitai", None)

    def attr(self, obj: Any, name: str) -> Any:
        from binparse.engine.codegen.pytypes import pyname
        from binparse.engine.runtime import Accessor
        if isinstance(obj, Accessor):
            if name == "_sizeof":
                return obj.nbytes
            return getattr(obj, pyname(name) if not name.startswith("_") else name)
        return getattr(obj, name)

    def enum_value(self, root: Any, enum: str, member: str) -> Any:
        import importlib
        from binparse.engine.backends.numpy_backend import camel, class_name
        from binparse.engine.codegen.pytypes import pyname
        from binparse.engine.schema import load_schema
        schema = load_schema(SUITE / "formats" / f"{type(root)._SCHEMA.split('/')[-1]}.ksy", import_path=self.dirs)
        e = schema.root.resolve_enum(enum)
        owner = schema.root.enum_owner(e)
        package = type(root).__module__.rpartition(".")[0]
        cls = getattr(importlib.import_module(f"{package}.{owner.schema.id}"), class_name(owner))
        return getattr(getattr(cls, camel(e.name)), pyname(member))
