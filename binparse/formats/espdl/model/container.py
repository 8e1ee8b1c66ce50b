"""`.espdl` model files and packs: the models inside, their graphs and tensors, zero-copy.

A model's payload is a zero-copy memoryview of the file; an encrypted one (mode 1) is decrypted
into a new buffer when a key is given (`EspdlFile.with_key`). PDL3 packs carry a SHA-256 that
`problems()` checks; `unread()` names what could not be read.
"""

from __future__ import annotations

import struct
from functools import cached_property
from typing import Any

from ....engine.accessors.espdl.espdl_container import EspdlContainer, ModelRecord
from ....core.budget import BudgetError
from ....core.errors import BinparseError, FormatError
from ....core.text import shown as text_shown
from .crypto import decrypt
from .graph import GENERATION, ROOT_CHECKS, Graph, NotAModel, escaped
from .model_tensor import ModelTensor
from .narrow import Narrow, summary
from .pack import check_apart
from .report import model_report, model_summary
from .suggest import doctor_said, inspect_said, repair_said
from .weights import WeightLayout

SHA256_AT, SHA256_SIZE = 24, 32  # PDL3: digest of the package with these bytes zeroed (fbs_loader.cpp)


class EspdlModel:
    """One model of a file or pack: its payload, graph and tensors."""

    def __init__(self, name: str, record: ModelRecord, file: str | None = None, key: bytes | None = None,
                 magic: str = "EDL2", twin: EspdlModel | None = None, padded: memoryview | None = None) -> None:
        self.name, self.record, self.file, self.key = name, record, file, key
        self.twin = twin  # an earlier entry of the pack whose record this one is (decoded once, by it)
        self.encrypted = int(record.mode) == 1
        self.magic = magic  # of the record (a PDL1 pack holds EDL1 records, PDL2/PDL3 EDL2 records)
        self.generation = GENERATION[magic]
        self.padded = padded  # an EDL1 record with EDL2's 16-byte header and payload (`padded_edl1`): the file's
        self.generation = "edl2" if padded is not None else self.generation  # bytes

    @property
    def payload_offset(self) -> int:
        return int(self.record.field_info("payload")[0]) + (4 if self.padded is not None else 0)

    @cached_property
    def payload(self) -> memoryview:
        """The FlatBuffer (espdl.fbs root `Model`): a zero-copy memoryview of the file, or of the
        decrypted copy for an encrypted model opened with its key."""
        if self.twin is not None:
            return self.twin.payload
        data: memoryview = self.record.payload.data.cast("B")
        if self.padded is not None:
            data = self.padded[16:16 + int(self.record.size)]
        if not self.encrypted:
            return data
        if self.key is None:
            raise FormatError("model payload is encrypted (AES-128-CTR)", file=self.file, path=self.record.path,
                              expected="mode 0 (plain)", found="mode 1",
                              hint="pass the 16-byte key (--key HEX, or EspdlFile.with_key)")
        return memoryview(decrypt(data, self.key, file=self.file))

    @cached_property
    def graph(self) -> Graph:
        """The decoded graph. The errors say what was checked: the root checks fail for a payload
        that is not a Model (with AES-CTR, a wrong key gives random bytes: the key is named then);
        a field deeper in that points outside the payload is a corrupt FlatBuffer (the container
        already holds every byte its header announces, so the file is not truncated)."""
        if self.twin is not None:
            return self.twin.graph
        try:
            return Graph.read(self.payload, file=self.file, base=self.payload_offset, generation=self.generation)
        except NotAModel as exc:
            what = exc.message.removeprefix("the ")  # "FlatBuffer root is not a Model (...)"
            if self.encrypted and len(self.payload) >= 8:  # too small is too small, whatever the key
                exc.message = "the decrypted payload's " + what
                exc.hint = (f"checked {ROOT_CHECKS}; AES-128-CTR with a wrong key gives random bytes, which fail "
                            "these checks: check the key")
            else:
                exc.message = "the payload's " + what
                exc.hint = f"checked {ROOT_CHECKS}: the payload is not an espdl.fbs Model"
            exc.args = (str(exc),)
            raise
        except FormatError as exc:
            exc.message = f"corrupt FlatBuffer: {exc.message}"
            exc.hint = (f"the root is a Model{' (so the key is right)' if self.encrypted else ''} and the file holds "
                        f"all {int(self.record.size):,} payload bytes its {self.magic} header announces; "
                        "this field of the FlatBuffer is damaged: re-export the model")
            exc.args = (str(exc),)
            raise

    @cached_property
    def inferred_layouts(self) -> dict[str, str]:
        """Layouts of unnamed Conv/Gemm weights that the model's named weights imply (`infer.py`)."""
        from .infer import inferred_layouts
        return inferred_layouts(self.graph)

    def tensor(self, name: str) -> ModelTensor:
        """The initializer or test tensor `name` (an unnamed weight's layout inferred where the model
        implies it: `ModelTensor.inferred`)."""
        g = self.graph
        t = g.by_name.get(name)
        if t is not None:
            inferred = self.inferred_layouts.get(t.name, "") if t.role == "initializer" and not t.layout else ""
            lay = WeightLayout.of(t.layout or inferred or None, t.dims, g.depthwise(t.name), tensor=t.name,
                                  file=self.file, matmul=g.matmul_weight(t.name)) \
                if t.role == "initializer" else WeightLayout.of(None, t.dims)
            meant = g.narrow_by_table.get(t.path, ())
            return ModelTensor(t, lay, self.payload, self.file, self.payload_offset, bool(inferred), meant)
        raise FormatError(f"no tensor named {name!r} in model {self.name or '(model)'}", file=self.file,
                          expected=f"one of {len(g.tensors)}: " + ", ".join(t.name for t in g.tensors[:12])
                          + (" ..." if len(g.tensors) > 12 else ""))

    def unreadable_layouts(self) -> list[str]:
        """The initializers whose named layout binparse cannot apply to their dims, each with why
        (`NAME (LAYOUT, dims [..]: why)`): read as stored, their logical form not verified."""
        from .report import once
        out = []
        for t in once(self.graph.initializers):
            try:
                self.tensor(t.name)
            except BinparseError as exc:
                out.append(f"{text_shown(t.name)} ({t.layout or 'no layout'}, dims {list(t.dims)}: {exc.message})")
        return out

    @property
    def narrow(self) -> list[Narrow]:
        """The int64 vectors that hold int32 values (read as meant); [] when the graph is not read."""
        if self.encrypted and self.key is None:
            return []
        try:
            return self.graph.narrow
        except BinparseError:
            return []

    def summary(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"name": self.name, "encrypted": self.encrypted, "size": int(self.record.size),
                               "payload_offset": self.payload_offset}
        if self.twin is not None:  # one record, many entries: described once
            doc["same_record_as"] = self.twin.name
            return doc
        if self.encrypted and self.key is None:
            doc["graph"] = None
            return doc
        try:
            doc["graph"] = self.graph.to_json()
        except BinparseError as exc:
            doc["graph"], doc["error"] = None, str(exc)
            return doc
        if self.graph.narrow:
            doc["int32_in_int64"] = [{"path": n.path, "read": None if n.read is None else list(n.read),
                                      "meant": list(n.meant), "inconsistent": n.inconsistent}
                                     for n in self.graph.narrow]
        return doc


def padded_edl1(mv: memoryview) -> memoryview | None:
    """`mv` (a whole file) when it is an EDL1 model laid out as esp-dl 6d78289e (2024-12-20, "align model
    parameters") wrote and read it until the magic became EDL2: a 16-byte header (magic, mode, size and 4
    zero bytes) and a payload of EDL2's generation (raw_data in 16-byte blocks). Told from the 12-byte
    EDL1 of before by its bytes: the file is exactly 16 + size bytes and bytes 12..16 are zero (in a
    12-byte EDL1 they are the FlatBuffer's root offset, never 0: 972 of 984 EDL1 files of the public sweep)."""
    if mv.nbytes < 16 or bytes(mv[:4]) != b"EDL1":
        return None
    size, pad = struct.unpack_from("<II", mv, 8)
    return mv if pad == 0 and size + 16 == mv.nbytes else None


class EspdlFile(EspdlContainer):
    """An .espdl file (EDL1/EDL2) or a pack of models (PDL1/PDL2/PDL3)."""

    __slots__ = ()

    @property
    def unverified(self) -> str | None:
        """Why the file was read only in part (encrypted models without their key, int32 values in
        int64 vectors read as meant), else None: the doctor then says "not verified" instead of "no
        problems" about what it could not read. Models that could not be read or hold an empty graph
        are `unread()` (`summary()["unread"]`: `inspect` exits 2; the doctor names each model)."""
        locked = [m.name or "the model" for m in self.models if m.encrypted and m.key is None]
        narrow = [m for m in self.models if m.twin is None and m.narrow]
        why = []
        if locked:
            why.append(f"{', '.join(locked)}: encrypted (AES-128-CTR) and no key given, so only the header was read "
                       "(pass --key HEX to read the model)")
        for m in narrow:
            why.append(f"{m.name or 'the model'}: read as meant, not as its schema reads: {len(m.narrow)} int64 "
                       f"vectors hold int32 values ({summary(m.narrow)}); {repair_said(self._file)} writes them as int64")
        return "; ".join(why) or None

    def with_key(self, key: bytes | None) -> EspdlFile:
        """Use `key` (16 bytes, AES-128) for the encrypted models; returns self."""
        self._cache["espdl.key"] = key
        self._cache.pop("espdl.models", None)
        return self

    @property
    def models(self) -> list[EspdlModel]:
        got: list[EspdlModel] | None = self._cache.get("espdl.models")
        if got is None:
            key = self._cache.get("espdl.key")
            if self.model is not None:
                got = [EspdlModel("", self.model, self._file, key, str(self.magic), padded=padded_edl1(self._mv))]
            else:
                inner, entries = ("EDL1" if self.magic == "PDL1" else "EDL2"), list(self.entries or [])
                check_apart(entries, 12 if inner == "EDL1" else 16, self._file)  # records lie apart, or shared
                first: dict[int, EspdlModel] = {}  # entries that point at one record share its decoding
                got = []
                for e in entries:
                    twin = first.get(int(e.data_off))
                    got.append(EspdlModel(e.name, e.model, self._file, key, inner, twin))
                    first.setdefault(int(e.data_off), got[-1])
            self._cache["espdl.models"] = got
        return got

    def model_named(self, name: str) -> EspdlModel:
        for m in self.models:
            if m.name == name:
                return m
        raise FormatError(f"no model named {name!r}", file=self._file, expected=[m.name for m in self.models])

    def tensor(self, name: str) -> ModelTensor:
        """A tensor by name: `TENSOR` in a single-model file, `MODEL/TENSOR` in a pack (or `TENSOR`
        when only one of its models has it)."""
        models = self.models
        if len(models) == 1:
            return models[0].tensor(name)
        for m in models:
            if name.startswith(m.name + "/"):
                return m.tensor(name[len(m.name) + 1:])
        having = [m for m in models if m.twin is None and not (m.encrypted and m.key is None) and name in m.graph.by_name]
        if len(having) == 1:
            return having[0].tensor(name)
        raise FormatError(f"name a tensor of this pack as MODEL/TENSOR", file=self._file, found=name,
                          expected=[m.name for m in models])

    def with_options(self, options: Any) -> EspdlFile:
        """The command line's `--key HEX` applied (the key of encrypted models), `-v` (the whole report);
        `--model` and `--rounding` kept for `compare` (which takes no options)."""
        self._cache["espdl.verbose"] = bool(getattr(options, "verbose", False))
        self._cache["espdl.export"] = {"model": getattr(options, "model", None),
                                       "rounding": getattr(options, "rounding", None)}
        if getattr(options, "key", None):
            from .crypto import parse_key
            return self.with_key(parse_key(options.key))
        return self

    def export_model(self, options: Any) -> tuple[bytes, str]:
        """The `Exportable` protocol: the model (`--model NAME` of a pack) as ONNX (`binparse[onnx]`)."""
        from ..onnx.api import export
        from ..onnx.convert import DEFAULT_ROUNDING
        rounding = getattr(options, "rounding", None) or DEFAULT_ROUNDING
        proto = export(self, model=getattr(options, "model", None), all_outputs=bool(getattr(options, "all_outputs", False)),
                       rounding=rounding)
        data: bytes = proto.SerializeToString()
        props = {p.key: p.value for p in proto.metadata_props}
        used = props.get("binparse.rounding", rounding)
        why = f" (chosen from: {props['binparse.rounding_source']})" if rounding == "auto" else ""
        return data, (f"ONNX opset {proto.opset_import[0].version}, {len(proto.graph.node)} nodes, "
                      f"{len(proto.graph.input)} input(s), {len(proto.graph.output)} output(s), rounding {used}{why}")

    def check_export(self, options: Any) -> Any:
        """The `Exportable` protocol: each model's export run on its own test inputs (`onnx.verify`)."""
        from ..onnx.api import check
        from ..onnx.convert import DEFAULT_ROUNDING
        return check(self, model=getattr(options, "model", None),
                     rounding=getattr(options, "rounding", None) or DEFAULT_ROUNDING)

    def compare(self, other: Any, *, min_snr_db: float = 30.0) -> Any:
        """The `Comparable` protocol: `compare MODEL.espdl DUMPS/`, the chip's per-layer .npy dumps
        against the ONNX export run on the PC (`onnx.layers`)."""
        from ..onnx.convert import pick_model
        from ..onnx.layers import compare_layers, folder_of
        chosen = self._cache.get("espdl.export") or {}
        return compare_layers(pick_model(self, chosen.get("model")), folder_of(other), min_snr_db=min_snr_db,
                              rounding=chosen.get("rounding"))

    def repaired(self, options: Any) -> tuple[bytes, str]:
        """The `Repairable` protocol: int32 values in int64 vectors written as int64 (`writers/repair.py`)."""
        from ..writers.repair import repaired_bytes
        data, said = repaired_bytes(self)
        return data, "; ".join(said)

    def buffer_layout(self, options: Any) -> Any:
        """The `LayoutSource` protocol: `draw MODEL.espdl --tensor NAME` draws a weight in its stored blocking."""
        from ..buffers.buffer_layout import WeightLayout
        if not getattr(options, "tensor", None):
            raise FormatError("name the tensor of this model to draw with --tensor NAME", file=self._file)
        return WeightLayout(self.tensor(options.tensor))

    def tensor_array(self, name: str | None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[Any, str]:
        """The `TensorSource` protocol: logical order by default (a view where no blocking is undone)."""
        if name is None:
            raise FormatError("name the tensor of this model with --tensor NAME (MODEL/NAME in a pack)",
                              file=self._file, hint=inspect_said(self._file, "lists the tensors", "-v"))
        if buffer is not None:
            raise FormatError("an .espdl file carries its tensors: give no buffer", file=self._file)
        t = self.tensor(name)
        arr = t.dequantize(stored=stored) if dequantize else t.array(stored=stored)
        return arr, t.describe(stored=stored, dequantize=dequantize)

    def sha256(self) -> tuple[bytes, bytes] | None:
        """PDL3: (stored, computed) digests; None for other formats."""
        if self.pdl3_header is None:
            return None
        size = int(self.pdl3_header.package_size)
        mv = self._mv
        if size > mv.nbytes or size <= SHA256_AT + SHA256_SIZE:
            raise FormatError("PDL3 package_size outside the file", file=self._file, path="espdl_container.pdl3_header.package_size",
                              offset=20, expected=f"{SHA256_AT + SHA256_SIZE + 1}..{mv.nbytes}", found=size)
        import hashlib  # PDL3 packs only (a few ms of every start-up otherwise)
        h = hashlib.sha256(mv[:SHA256_AT])
        h.update(bytes(SHA256_SIZE))
        h.update(mv[SHA256_AT + SHA256_SIZE:size])
        return bytes(self.pdl3_header.sha256), h.digest()

    def problems(self) -> list[str]:
        """What is proven wrong with the file: a PDL3 digest that differs from its bytes, or a package size
        outside the file (esp-dl's FbsLoader::verify_package_sha256 fails on both; load() does not check).
        What binparse could not read is not proof of anything: `unread()`."""
        out = []
        try:
            digests = self.sha256()
            if digests and digests[0] != digests[1]:
                out.append(f"PDL3 sha256 differs: stored {digests[0].hex()}, computed {digests[1].hex()} (esp-dl's "
                           "FbsLoader::verify_package_sha256 fails on it)")
        except BinparseError as exc:
            out.append(str(exc))
        return out

    def unread(self) -> list[str]:
        """What of the models could not be read or holds nothing to check, with why (a payload that does not
        decode, an empty graph: nothing to run or verify): "not verified" (exit 2) in `inspect` and `doctor`."""
        out = []
        for m in self.models:
            if m.encrypted and m.key is None or m.twin is not None:
                continue
            label = f"model {m.name}" if m.name else "the model"
            try:
                g = m.graph
            except BudgetError:  # not read: the command says so (exit 2), never a problem of the file
                raise
            except BinparseError as exc:
                out.append(f"{label} could not be read: {exc}")
                continue
            if not g.nodes:
                out.append(f"{label} is an empty graph {text_shown(repr(g.name))}: no nodes, {len(g.inputs)} inputs, "
                           f"{len(g.outputs)} outputs (nothing for esp-dl to run: its Model reports \"There's no "
                           "input in model.\"), nothing to verify")
            if bad := m.unreadable_layouts():
                out.append(f"{label}: {len(bad)} of {len(g.initializers)} initializers could not be read in their "
                           f"layout: {'; '.join(bad[:3])}" + (f"; and {len(bad) - 3} more" if len(bad) > 3 else ""))
        return out

    def summary(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"family": "espdl", "kind": "model_file" if self.model is not None else "model_pack",
                               "format": self.magic, "models": [m.summary() for m in self.models]}
        digests = self.sha256() if self.pdl3_header is not None and self.pdl3_header.package_size <= self._mv.nbytes else None
        if digests:
            doc["sha256"] = {"stored": digests[0].hex(), "computed": digests[1].hex(), "ok": digests[0] == digests[1]}
        doc["problems"] = self.problems()
        doc["unread"] = self.unread()
        return doc

    def report(self) -> str:
        """A summary of each model (with `-v`, `with_options`: every node, tensor and value too)."""
        verbose = bool(self._cache.get("espdl.verbose"))
        lines = [f"ESP-DL {self.magic} {'model' if self.model is not None else 'pack'}"]
        for m in self.models:
            lines.append(f"{escaped(m.name or 'model')}: {int(m.record.size):,} bytes of FlatBuffer at offset {m.payload_offset}"
                         + (", encrypted (AES-128-CTR)" if m.encrypted else ""))
            if m.twin is not None:
                lines.append(f"  the same record as {m.twin.name!r} (one model, two entries)")
                continue
            if m.encrypted and m.key is None:
                lines.append("  encrypted: header only (pass --key HEX to decode)")
                continue
            try:
                g = m.graph
            except BinparseError as exc:
                lines.append(f"  cannot decode: {text_shown(exc)}")
                continue
            lines.extend("  " + s for s in model_summary(g, m.generation).splitlines())
            if g.narrow:
                lines.append(f"  warning: {len(g.narrow)} int64 vectors hold int32 values ({summary(g.narrow)}), "
                             f"read as meant (not verified: the chip reads them otherwise); {doctor_said(self._file)} "
                             f"says more, {repair_said(self._file)} fixes them")
            if verbose:
                lines.extend("  " + s for s in model_report(g).splitlines())
        for p in self.problems():
            lines.append(f"problem: {text_shown(p)}")
        for p in self.unread():  # the models that did not decode said so above ("cannot decode")
            if " could not be read: " not in p:
                lines.append(f"not verified: {text_shown(p)}")
        if not verbose and any("  nodes: " in line for line in lines):
            lines.append(f"({inspect_said(self._file, 'shows every node, initializer, input, output and test value', '-v')})")
        return "\n".join(lines)

