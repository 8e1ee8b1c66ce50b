"""Writing values back over the file they were read from (`original`): what did not change keeps
the file's own bytes.

- A field whose value is unchanged is written as the bytes it was read from (its padding, what
  followed its terminator, its zlib stream exactly as the file had them), when its size still
  says that many bytes; a record is gone through field by field, so a change inside it is
  written and the rest kept.
- The unused bytes of a record with a size (after its last field) are the file's.
- Bytes after the root's last field (read by no field: instances read at a position, or left
  unused) stay where they were when the fields before them keep their size; when those fields
  grew into them, they follow the fields if no instance of the schema is read at a position (a
  shift changes nothing then), else the build is refused (an instance would read other bytes).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import BinparseError
from ..runtime import stream as st
from .plan import Case, FieldPlan
from .records import NO, Host, WRec, attr_of, plain_of, same
from .stream import SizeNotYet, WStream


def orig_kid(rec: WRec, fp: FieldPlan, k: int | None, case: Case) -> Any:
    """The original file's record for element `k` of field `fp`, when it is of the same type."""
    from ..runtime.accessor import Accessor
    if rec.orig is None or case.target is None:
        return None
    x = attr_of(rec.orig, fp.attr.id)
    if k is not None and x is not NO and x is not None:
        try:
            x = x[k]
        except (IndexError, TypeError, BinparseError):
            return None
    if not isinstance(x, Accessor) or x._TYPE_PATH != case.target.path:
        return None
    return x


def _leaf(rec: WRec, fp: FieldPlan, v: Any) -> bool:
    """A field written from its own value alone: numbers, text, bytes, a processed record."""
    spec = fp.spec
    if spec.kind == "bits":
        return False
    if spec.kind in ("prim", "str", "bytes", "contents"):
        return True
    if spec.kind == "user":
        return spec.process is not None
    return not any(c.target is not None for _, c in fp.cases) and (fp.default is None or fp.default.target is None)


def original_bytes(orig: Any, i: int) -> bytes | None:
    """The bytes seq field `i` of an original record was read from (all its elements), or None."""
    try:
        start, _, _ = orig._loc(i)
        end = orig._end_of(i)
    except (BinparseError, IndexError):
        return None
    if type(end) is not int or type(start) is not int:
        return None
    return bytes(orig._mv[start:end])


def copy_original(w: Host, rec: WRec, fp: FieldPlan, v: Any, io: WStream) -> bool:
    """Write field `fp` as the original file's bytes when its value is the file's (True if it did)."""
    if rec.orig is None or io.bits_left or not _leaf(rec, fp, v):
        return False
    if not same(v, plain_of(attr_of(rec.orig, fp.attr.id))):
        return False
    raw = original_bytes(rec.orig, fp.index)
    if raw is None:
        return False
    spec = fp.spec
    at = io.tell()
    try:
        if spec.size is not None and not spec.repeated and int(rec.eval(spec.size, at)) != len(raw):
            return False  # its size changed: written afresh to the new size
        if spec.count is not None and int(rec.eval(spec.count, at)) != len(v):
            return False  # the count says otherwise: written afresh, and refused or followed there
    except SizeNotYet:
        return False
    io.write(raw)
    if spec.size_eos or spec.repeat == "eos":
        w.claim_eos(rec, fp.attr, io)
    return True


def filler(rec: WRec, fp: FieldPlan, k: int | None) -> bytes | None:
    """The bytes a field (not a repeat) with a size had in the original (kept after its terminator)."""
    if rec.orig is None or k is not None:
        return None
    return original_bytes(rec.orig, fp.index)


def gap(kid: WRec, start: int, end: int) -> bytes | None:
    """The original's bytes of a sized record between its last field and its end."""
    o = kid.orig
    if o is None:
        return None
    lo, hi = o._io_start + start, min(o._io_start + end, o._io_end)
    return bytes(o._mv[lo:hi]) if lo < hi else None


def under(orig: Any) -> Any:
    """The bytes of the original record's stream (for the unused bits of a byte), or None."""
    if orig is None:
        return None
    return orig._mv[orig._io_start:orig._io_end]


def _pos_instances(w: Host) -> list[str]:
    schemas = [w.schema, *w.schema.all_imports()]
    return [f"{t.path}.{a.id}" for s in schemas for t in s.root.all_types() for a in t.instances
            if a.kind != "value" and a.pos is not None]


def keep_tail(w: Host, root: WRec, io: WStream) -> None:
    """The original's bytes after the root's seq, kept (see the module doc)."""
    o = root.orig
    try:
        seq_end = st.aligned(o._seq_end())
    except BinparseError:
        return
    end = o._io_end
    if seq_end >= end:
        return
    io.align()
    here = io.tell()
    tail = bytes(o._mv[seq_end:end])
    readers = _pos_instances(w)
    if here <= seq_end and readers:  # instances may read there: every byte stays where it was
        io.write(bytes(o._mv[here:seq_end]) + tail)
        return
    if readers:
        raise w.consistency(root, None, f"its fields grew by {here - seq_end} bytes, over bytes after them that "
                            f"instances read at fixed positions ({', '.join(readers[:4])})",
                            hint="binparse keeps those bytes where they are: change the values so that the "
                                 "fields keep their size, or build without original= (those bytes are then not written)")
    io.write(tail)


__all__ = ["copy_original", "filler", "gap", "keep_tail", "orig_kid", "original_bytes", "under"]
