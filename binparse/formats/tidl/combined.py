"""The combined multi-subgraph net and io TIDL 11.x writes when every node is offloaded.

TI's import (`tidl_onnxRtImport_EP.cpp`, tools 11_02_04_00) joins the subgraphs' files and renames
the result `<subgraph0>_tidl_net.bin` / `_tidl_io_1.bin`; TI's runtime (`tidl_rt_ovx.c`) splits them:

    net: u32 netVersion, u32 0xFF00FF00, u32 N, N x {u32 offset, u32 size, u32 0, u32 0}, the N nets
    io:  one sTIDL_IOBufDesc_t (the external inputs and outputs), then u32 0xFF00FF00, u32 N, the same
         table, the N subgraphs' io descriptors

Offsets count from the magic word and each one from the previous subgraph's start: the runtime
adds offset[i] to its pointer before subgraph i (the writer puts the table's length, (2 + 4N) x 4,
in offset[0] and the size of subgraph i-1 in offset[i]). The table is checked against the bytes
present before anything is read: a subgraph outside the file is a torn table, refused.
"""

from __future__ import annotations

import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.buffers import BufferLike, byte_view
from ...core.errors import BinparseError, FormatError, UsageError
from ...core.text import shown

MAGIC = 0xFF00FF00
IO_SIZES = (94616, 189208, 378392)  # the io descriptors of TIDL 10.00-11.x (1, 2, 4 cores): the combined ones
COMBINED_IO_MIN = IO_SIZES[0] + 8  # a combined io holds a descriptor, the magic and a count at least


@dataclass(frozen=True)
class Subgraph:
    index: int
    start: int
    size: int


def table(mv: memoryview, magic_at: int, file: str | None) -> list[Subgraph]:
    """The subgraphs the table after the magic word at `magic_at` names, each inside the file."""
    end = mv.nbytes
    if end - magic_at < 8:
        raise FormatError("the combined TIDL file ends inside its subgraph table", file=file, offset=magic_at,
                          expected="the magic word and a subgraph count", found=f"{end - magic_at} bytes")
    (n,) = struct.unpack_from("<I", mv, magic_at + 4)
    room = (end - magic_at - 8) // 16
    if not 1 <= n <= room:
        raise FormatError("the combined TIDL file's subgraph count does not fit it", file=file,
                          offset=magic_at + 4, expected=f"1..{room} (16-byte entries in the bytes present)",
                          found=n, hint="the file is cut or not a combined TIDL file")
    out = []
    at = magic_at
    for i in range(n):
        offset, size, r0, r1 = struct.unpack_from("<IIII", mv, magic_at + 8 + 16 * i)
        at += offset
        if at + size > end or size == 0:
            raise FormatError(f"torn subgraph table: subgraph {i} lies outside the file", file=file,
                              offset=magic_at + 8 + 16 * i, expected=f"a block inside the {end:,} bytes",
                              found=f"offset {offset} -> bytes {at:,}..{at + size:,}",
                              hint="TI's runtime would read past the file: it is cut or was not written whole")
        out.append(Subgraph(i, at, size))
    return out


def is_combined_net(head: bytes) -> bool:
    return len(head) >= 12 and struct.unpack_from("<I", head, 4)[0] == MAGIC


def io_magic_at(mv: memoryview) -> int | None:
    """Where the io table's magic word is: right after a whole io descriptor of a 10.00-11.x size."""
    for size in IO_SIZES:
        if mv.nbytes >= size + 8 and struct.unpack_from("<I", mv, size)[0] == MAGIC:
            return size
    return None


class Combined:
    """A combined net or io: the subgraphs, each opened as the file it is (zero-copy slices)."""

    def __init__(self, mv: memoryview, kind: str, magic_at: int, file: str | None) -> None:
        self._mv, self.kind, self.magic_at, self._file = mv, kind, magic_at, file
        self.subgraphs = table(mv, magic_at, file)

    @classmethod
    def from_buffer(cls, buf: BufferLike, *, file: str | None = None) -> Combined:
        mv = byte_view(buf, file=file)
        if is_combined_net(bytes(mv[:12])):
            return cls(mv, "net", 4, file)
        at = io_magic_at(mv)
        if at is None:
            raise FormatError("not a combined TIDL net or io", file=file,
                              expected="0xFF00FF00 at byte 4 (net) or after a whole io descriptor (io)")
        return cls(mv, "io", at, file)

    @property
    def num_subgraphs(self) -> int:
        return len(self.subgraphs)

    @property
    def unverified(self) -> str | None:
        whys = [f"subgraph {i}: {w}" for i in range(self.num_subgraphs) if (w := getattr(self.subgraph(i),
                                                                                          "unverified", None))]
        return "; ".join(whys) or None

    def head(self) -> Any:
        """The io's first descriptor (the external inputs and outputs of the whole model)."""
        if self.kind != "io":
            raise FormatError("a combined net has no descriptor of its own", file=self._file)
        from ...family import opening
        return opening.open(self._mv[:self.magic_at], format=None)

    def subgraph(self, index: int) -> Any:
        if not 0 <= index < self.num_subgraphs:
            raise UsageError("no such subgraph", file=self._file, expected=f"0..{self.num_subgraphs - 1}",
                              found=index)
        from ...family import opening
        s = self.subgraphs[index]
        try:
            sub = opening.open(self._mv[s.start:s.start + s.size])
        except BinparseError as exc:  # the subgraph's bytes: the error names where they lie
            if exc.file is None:
                exc.file = f"{self._file or 'buffer'}[subgraph {index} at byte {s.start:,}]"
            raise
        if self._file and hasattr(sub, "_file"):
            sub._file = f"{self._file}[subgraph {index}]"  # errors and reports name where it lies
        return sub

    def with_options(self, options: Any) -> Any:
        """`--subgraph N` picks one subgraph for view, traces, compare and draw."""
        n = getattr(options, "subgraph", None)
        return self if n is None else self.subgraph(int(n))

    def summary(self) -> dict[str, Any]:
        subs = []
        for s in self.subgraphs:
            sub = self.subgraph(s.index)
            names = [t.name for t in getattr(sub, "inputs", [])], [t.name for t in getattr(sub, "outputs", [])]
            subs.append({"index": s.index, "offset": s.start, "size": s.size, "version": getattr(sub, "version", None),
                         **({"layers": int(sub.num_layers)} if self.kind == "net" else
                            {"inputs": names[0], "outputs": names[1]})})
        versions = ", ".join(dict.fromkeys(f"TIDL {s['version']}" for s in subs))
        doc: dict[str, Any] = {"family": "tidl", "kind": f"combined {self.kind}",
                               "version": f"{len(subs)} subgraphs, {versions}", "subgraphs": subs,
                               "unverified": self.unverified}
        if self.kind == "net":
            doc["net_version"] = f"0x{struct.unpack_from('<I', self._mv, 0)[0]:08X}"
        else:
            h = self.head()
            doc["inputs"], doc["outputs"] = [t.name for t in h.inputs], [t.name for t in h.outputs]
        return doc

    def report(self) -> str:
        d = self.summary()
        head = (f"TIDL combined {self.kind}: {self.num_subgraphs} subgraphs"
                + (f", netVersion {d['net_version']}" if self.kind == "net" else
                   f" (model inputs {_names(d['inputs'])}; outputs {_names(d['outputs'])})"))
        lines = [head]
        for s in d["subgraphs"]:
            what = (f"{s['layers']} layers" if self.kind == "net" else
                    f"inputs {_names(s['inputs'])}; outputs {_names(s['outputs'])}")
            lines.append(f"  subgraph {s['index']}: bytes {s['offset']:,}..{s['offset'] + s['size']:,} "
                         f"({s['size']:,} B), TIDL {s['version']}, {what}")
        from ...family.hints import command
        lines.append("--subgraph N reads one of them (inspect, view, traces, compare, draw)"
                     + (f": {command('inspect', self._file, '--subgraph', '0')}" if self._file else ""))
        return "\n".join(lines)


def _names(names: list[str]) -> str:
    """Tensor names from the file, escaped (`text.shown`), or "-"."""
    return ", ".join(map(shown, names)) or "-"


def sniff(path: Path | None, head: bytes) -> Any:
    """`binparse.open` of a combined net (magic at byte 4) or, by path, a combined io."""
    if is_combined_net(head):
        return lambda source: _open(source)
    if path is None:
        return None
    try:  # one stat (every open of an io descriptor by its name asks)
        st = os.stat(path)
    except OSError:
        return None
    size = st.st_size if stat.S_ISREG(st.st_mode) else 0
    if size < COMBINED_IO_MIN:  # too small to hold a table after the smallest descriptor
        return None
    for io_size in IO_SIZES:
        if size >= io_size + 8:
            with path.open("rb") as f:
                f.seek(io_size)
                if struct.unpack("<I", f.read(4).ljust(4, b"\0"))[0] == MAGIC:
                    return lambda source: _open(source)
    return None


def _open(source: Any) -> Combined:
    from ...core.filemap import map_file
    if isinstance(source, (str, Path)):
        return Combined.from_buffer(map_file(str(source)), file=str(source))
    return Combined.from_buffer(source)


def combine(parts: list[bytes], head: bytes | None = None) -> bytes:
    """The combined file TI's import writes from `parts` (nets; io descriptors after the io `head`)."""
    n = len(parts)
    first = (2 + 4 * n) * 4
    rows = b"".join(struct.pack("<IIII", first if i == 0 else len(parts[i - 1]), len(p), 0, 0)
                    for i, p in enumerate(parts))
    if head is None:  # a net: its netVersion, then the table
        return parts[0][:4] + struct.pack("<II", MAGIC, n) + rows + b"".join(parts)
    return head + struct.pack("<II", MAGIC, n) + rows + b"".join(parts)


__all__ = ["COMBINED_IO_MIN", "Combined", "combine", "MAGIC", "Subgraph", "is_combined_net", "sniff", "table"]
