"""Round trips of real files through the writer: read with a schema, `to_dict()`, build again.

Two builds per file the engine reads:
- with `original=` (the parsed file): every file must come back byte for byte (what did not change
  keeps the file's bytes: the contract of writing back);
- from the values alone (Kaitai's serialization): byte-identical, or identical over the bytes the
  root's fields read (the rest is read by no seq field), or different where no value holds the
  file's bytes, which the writer names (`notes`: bytes after a terminator, unused bits, a zlib
  stream compressed again, the unused end of a record with a size), or refused with the reason
  (an instance read at a position that an expression needs, which values alone do not give).

The files: every spec of Kaitai's test suite (each spec's data file under its schema) and the
gallery's sample files under their gallery schema, from ../shared/conformance.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"
SUITE = CONFORMANCE / "kaitai_struct_tests"
GALLERY = CONFORMANCE / "kaitai_struct_formats"
SAMPLES = CONFORMANCE / "kaitai_struct_samples"
COMPANIONS = (".license", ".md", ".py", ".txt", ".json", ".java", ".dts")  # texts beside the samples


@dataclass(frozen=True)
class Case:
    name: str
    schema: Path
    data: Path
    import_path: tuple[Path, ...]


def suite_cases() -> Iterator[Case]:
    dirs = (SUITE / "formats", SUITE / "formats" / "ks_path")
    for spec in sorted((SUITE / "spec" / "ks").glob("*.kst")):
        doc = yaml.safe_load(spec.read_text())
        if doc.get("exception"):
            continue  # the file is meant not to be read
        yield Case(f"suite/{doc['id']}", SUITE / "formats" / f"{doc['id']}.ksy", SUITE / "src" / doc["data"], dirs)


def gallery_cases() -> Iterator[Case]:
    for f in sorted(SAMPLES.rglob("*")):
        rel = f.relative_to(SAMPLES)
        if not f.is_file() or len(rel.parts) != 3 or f.name.endswith(COMPANIONS):
            continue
        ksy = GALLERY / rel.parts[0] / f"{rel.parts[1]}.ksy"
        if ksy.exists():
            yield Case(f"gallery/{rel}", ksy, f, (GALLERY,))


@dataclass
class Outcome:
    case: Case
    read: bool
    edit: str = ""  # "identical", or what differs
    pure: str = ""  # "identical", "identical over the fields", "differs", "refused"
    why: str = ""
    built: bytes = b""  # what the values alone built


def run(case: Case) -> Outcome:
    import binparse
    from binparse.core.errors import BinparseError
    from binparse.engine.serialize import ConsistencyError, build
    data = case.data.read_bytes()
    try:
        reader = binparse.compile(case.schema, import_path=list(case.import_path))
        root = reader.parse(data)
        root.validate()
        values = root.to_dict()
    except BinparseError:
        return Outcome(case, False)
    out = Outcome(case, True)
    edited = reader.build(root.to_dict(), original=root)
    out.edit = "identical" if edited == data else f"differs ({len(edited)} bytes, the file {len(data)})"
    notes: list[str] = []
    try:
        pure = build(reader.schema(), values, params=dict(root._params), notes=notes)
    except ConsistencyError as exc:
        out.pure, out.why = "refused", str(exc)
        return out
    out.built = pure
    end = root._nbytes_end()
    if pure == data:
        out.pure = "identical"
    elif pure[:end] == data[:end] and len(pure) >= end:
        out.pure, out.why = "identical over the fields", f"{len(data) - end} bytes after the root's fields"
    else:
        first = next((i for i in range(min(len(pure), len(data))) if pure[i] != data[i]), min(len(pure), len(data)))
        out.pure = "differs"
        out.why = f"from byte {first}; written where no value says how: " + ("; ".join(notes) if notes else
                                                                              "UNEXPLAINED")
    return out


def every_case() -> list[Case]:
    return [*suite_cases(), *gallery_cases()]


def sample(cases: list[Case], names: tuple[str, ...]) -> list[Case]:
    return [c for c in cases if c.name in names]


def whole_run() -> bool:
    return os.environ.get("BINPARSE_ROUNDTRIP_ALL", "") not in ("", "0")


def tally(outcomes: list[Outcome]) -> dict[str, Any]:
    read = [o for o in outcomes if o.read]
    return {"files": len(outcomes), "read": len(read),
            "edit identical": sum(o.edit == "identical" for o in read),
            **{f"pure {k}": sum(o.pure == k for o in read)
               for k in ("identical", "identical over the fields", "differs", "refused")}}


def kaitai_write(case: Case, modules: Path, size: int) -> bytes | None:
    """What Kaitai 0.11's own serialization writes for `case`'s file (the Python `ksc --read-write`
    makes, in `modules`, read then `_check()` and `_write()` into a stream of `size` bytes), or None
    when it cannot (a schema its compiler refuses, a `_check` or `_write` that raises)."""
    import importlib
    import sys
    from kaitaistruct import BytesIO, KaitaiStream

    from binparse.engine.backends.numpy_backend import camel
    names = {p.stem for p in modules.glob("*.py")}  # the same ids as the read-only modules other tests import
    saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
    sys.path.insert(0, str(modules))
    try:
        cls = getattr(importlib.import_module(case.schema.stem), camel(case.schema.stem))
        obj = cls(KaitaiStream(BytesIO(case.data.read_bytes())))
        if hasattr(cls, "SEQ_FIELDS"):  # `ks-debug: true`: the constructor does not read
            obj._read()
        obj._check()
        out = KaitaiStream(BytesIO(bytearray(size)))
        obj._write(out)
        return bytes(out.to_byte_array())
    except Exception:  # noqa: BLE001 - Kaitai's side could not write it: not compared
        return None
    finally:
        sys.path.remove(str(modules))
        for n in names:
            sys.modules.pop(n, None)
        sys.modules.update(saved)
