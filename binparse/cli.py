"""The `binparse` command: inspect, view, draw, pack, fixture, doctor, schema, generate, schemas.

Exit codes: 0 ok, 1 `generate --check` found stale modules, 2 usage error, 3 bad input
(the error's one-line message on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import BinparseError

if TYPE_CHECKING:
    from .formats.intel_dla import CompileFolder, OutputConfiguration
    from .formats.tidl import Tensor


def _keyed(acc: Any, args: argparse.Namespace) -> Any:
    """Give an .espdl file the key of its encrypted models (`--key HEX`)."""
    if not getattr(args, "key", None):
        return acc
    from .formats.espdl import EspdlFile
    from .formats.espdl.crypto import parse_key
    if not isinstance(acc, EspdlFile):
        raise BinparseError("--key is for encrypted .espdl models", found=type(acc).__name__)
    return acc.with_key(parse_key(args.key))


def _inspect(args: argparse.Namespace) -> int:
    from . import api, registry, render
    from .family import Artifact
    from .runtime import Accessor
    acc: Any = _keyed(api.open(args.file, format=args.format), args)
    if not isinstance(acc, Accessor):  # text formats and folders: their own summary and report
        print(json.dumps({"file": args.file, **acc.summary()}, indent=1) if args.json else acc.report())
        return 0
    fmt = registry.get(args.format) if args.format else registry.format_of(acc)
    acc.validate()
    size = os.stat(args.file).st_size
    meta = {"file": args.file, "format": fmt.name, "size": size}
    family: Artifact | None = None if args.fields or not isinstance(acc, Artifact) else acc
    if args.json:
        doc = {**meta, **family.summary()} if family else {**meta, "version": fmt.version, "fields": render.plain_json(acc)}
        print(json.dumps(doc, indent=1))
    else:
        title = f"{args.file}: {fmt.name}, {fmt.version}, {size:,} bytes"
        print(title + "\n" + family.report() if family else render.table(acc, title))
    return 0


def _intel_source(source: str) -> CompileFolder | OutputConfiguration:
    """A compile folder or a saved output configuration (.json)."""
    from .formats import intel_dla
    if source.endswith(".json"):
        return intel_dla.OutputConfiguration.load(source)
    if os.path.isdir(source):
        return intel_dla.CompileFolder(source)
    raise BinparseError("SOURCE must be a compile folder or a saved output configuration (.json)", file=source)


def _intel_output(source: str) -> OutputConfiguration:
    """The output configuration of a compile folder or a saved configuration."""
    from .formats import intel_dla
    src = _intel_source(source)
    return src.output_configuration() if isinstance(src, intel_dla.CompileFolder) else src


def _tidl_tensor(source: str, name: str | None, direction: str, fmt: str | None) -> Tensor:
    from . import api
    from .formats.tidl.io import IoTensors
    io = api.open(source, format=fmt)
    if not isinstance(io, IoTensors) or name is None:
        raise BinparseError(f"give a TIDL io descriptor and --{direction} NAME|INDEX", file=source)
    return io.tensor(int(name) if name.isdigit() else name, direction)


def _save_npy(path: str, arr: Any, what: str) -> None:
    import numpy as np
    out = np.ascontiguousarray(arr)
    with open(path, "wb") as f:
        np.save(f, out)
    print(f"{path}: {what}, {out.dtype}, shape {tuple(out.shape)}")


def _ints(text: str | None, n: int, what: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in (text or "").split(","))
    except ValueError:
        values = ()
    if len(values) != n:
        raise BinparseError(f"{what} needs {n} comma-separated integers", found=text)
    return values


def _device_layout(args: argparse.Namespace) -> Any:
    """The ESP-DL or dlhdl layout the options describe."""
    from .formats import dlhdl, espdl
    if args.espdl:
        shape = _ints(args.shape, 3, "--shape H,W,C")
        padding = _ints(args.padding or "0,0,0,0", 4, "--padding T,B,L,R")
        if args.concat is None:
            return espdl.DlTensor(shape, padding, args.dtype or "int8", args.exponent or 0)  # type: ignore[arg-type]
        channels = list(_ints(args.concat, len(args.concat.split(",")), "--concat C0,C1,..."))
        k = args.member or 0
        if not 0 <= k < len(channels):
            raise BinparseError("--member K names one of the --concat tensors", expected=f"0..{len(channels) - 1}",
                                found=k)
        if channels[k] != shape[2]:
            raise BinparseError("--shape's C is the channel count of the --member tensor",
                                expected=channels[k], found=shape[2])
        return espdl.concat(shape[:2], channels, padding, args.dtype or "int8")[k]  # type: ignore[arg-type]
    if args.dlhdl == "fc":
        if args.size is None:
            raise BinparseError("--dlhdl fc needs --size K")
        return dlhdl.FcLayout(args.size, args.dtype or "float32")
    if args.thread_number is None:
        raise BinparseError("--dlhdl conv needs --thread-number T")
    return dlhdl.ConvLayout(args.thread_number, _ints(args.shape, 3, "--shape X,Y,Z"),  # type: ignore[arg-type]
                            args.dtype or "float32")


def _files(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    device = args.espdl or args.dlhdl
    want = names[1:] if device else names
    if len(args.files) != len(want):
        raise BinparseError(f"expected {' '.join(want).upper()}", found=" ".join(args.files))
    return list(args.files)


def _view_named(args: argparse.Namespace) -> int:
    """`view SOURCE [BUFFER] --tensor NAME`: any artifact that names its tensors (`TensorSource`)."""
    from . import api
    from .family import TensorSource
    if not 1 <= len(args.files) <= 2:
        raise BinparseError("expected SOURCE [BUFFER] with --tensor", found=" ".join(args.files))
    source = _keyed(api.open(args.files[0], format=args.format), args)
    if not isinstance(source, TensorSource):
        raise BinparseError("this file names no tensors that `view --tensor` can read", file=args.files[0],
                            hint="TIDL io descriptors take --input/--output NAME and a buffer; "
                                 "device buffers take --espdl/--dlhdl/--intel-dla")
    buf = api.map_file(args.files[1]) if len(args.files) == 2 else None
    arr, what = source.tensor_array(args.tensor, buf, stored=args.stored, dequantize=args.dequantize)
    _save_npy(args.npy, arr, what)
    return 0


def _view(args: argparse.Namespace) -> int:
    from . import api
    from .progress import LONG_BUFFER_BYTES, task
    if args.tensor is not None:
        return _view_named(args)
    files = _files(args, ("source", "buffer"))
    buf = api.map_file(files[-1])
    with task(f"viewing {files[-1]} ({len(buf) / 2**20:,.0f} MB)", long=len(buf) > LONG_BUFFER_BYTES):
        return _view_buffer(args, files, buf)


def _view_buffer(args: argparse.Namespace, files: list[str], buf: Any) -> int:
    try:
        if args.espdl or args.dlhdl:
            layout = _device_layout(args)
            if args.dlhdl == "fc":
                arr, what = layout.view(buf), "dlhdl FC output (frames, size)"
            elif args.dlhdl:
                arr, what = layout.to_logical(buf), "dlhdl conv (X, Y, Z)"
            else:
                arr = layout.dequantize(buf) if args.dequantize else layout.view(buf)
                what = "ESP-DL tensor (H, W, C)"
            _save_npy(args.npy, arr, what)
            return 0
        if args.intel_dla:
            _save_npy(args.npy, _intel_output(files[0]).to_logical(buf), "FPGA AI Suite output")
            return 0
        direction = "input" if args.input_name is not None else "output"
        tensor = _tidl_tensor(files[0], args.input_name or args.name, direction, args.format)
        arr = tensor.dequantize(buf) if args.dequantize else tensor.view(buf)
    except BinparseError as exc:
        raise exc.with_file(files[-1]) from None
    _save_npy(args.npy, arr, f"{tensor.direction} {tensor.name or tensor.index}")
    return 0


def _draw(args: argparse.Namespace) -> int:
    from . import draw
    from .fixtures.common import write_atomic
    files = list(args.files)
    if args.espdl or args.dlhdl:
        if files:
            raise BinparseError("--espdl / --dlhdl draw from --shape (and --padding / --thread-number), no file",
                                found=" ".join(files))
        layout = _device_layout(args)
        if args.dlhdl == "fc":
            raise BinparseError("an FC output is a plain vector of SIZE values; draw a conv layout (--dlhdl conv)")
        memory = draw.dlhdl_map(layout) if args.dlhdl else draw.espdl_map(layout)
    elif len(files) != 1:
        raise BinparseError("expected SOURCE (an io descriptor or an Intel compile folder)", found=" ".join(files))
    elif args.tensor is not None:  # a weight of an .espdl model, in its blocking
        from . import api
        from .formats.espdl import EspdlFile
        model = _keyed(api.open(files[0], format=args.format), args)
        if not isinstance(model, EspdlFile):
            raise BinparseError("--tensor draws a tensor of an .espdl model", file=files[0])
        memory = draw.espdl_weight_map(model.tensor(args.tensor))
    elif args.intel_dla:
        memory = draw.intel_map(_intel_output(files[0]))
    else:
        direction = "input" if args.input_name is not None else "output"
        memory = draw.tidl_map(_tidl_tensor(files[0], args.input_name or args.name, direction, args.format))
    data = draw.render(memory).encode()
    write_atomic(Path(args.svg), data)
    print(f"{args.svg}: {memory.title}, {len(data):,} bytes")
    return 0


def _pack(args: argparse.Namespace) -> int:
    import numpy as np

    from .fixtures.common import write_atomic
    from .progress import LONG_BUFFER_BYTES, task
    files = _files(args, ("source", "array"))
    try:
        logical = np.load(files[-1], allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise BinparseError(f"cannot read the array: {exc}", file=files[-1]) from None
    if args.espdl or args.dlhdl:
        layout = _device_layout(args)
        if args.dlhdl == "fc":
            data = np.ascontiguousarray(logical, dtype=layout.view(bytes(4 * layout.size)).dtype).tobytes()
            layout.view(data)  # checks it is a whole number of outputs
        else:
            values = layout.quantize(logical) if args.espdl and args.quantize else logical
            data = bytes(layout.pack(values))
        what = f"{'ESP-DL' if args.espdl else 'dlhdl'} buffer, {len(data)} bytes"
    elif args.intel_dla:
        from .formats import intel_dla
        src = _intel_source(files[0])
        if not isinstance(src, intel_dla.CompileFolder):
            raise BinparseError("packing an input needs a compile folder with the input dump", file=files[0])
        cfg = src.input_configuration(cvec=args.cvec)
        data = bytes(cfg.to_ip(logical))
        what = f"FPGA AI Suite input {cfg.name}, FP16, {cfg.ip_size} elements"
    else:
        tensor = _tidl_tensor(files[0], args.input_name, "input", args.format)
        data = bytes(tensor.pack(tensor.quantize(logical) if args.quantize else logical))
        what = f"TIDL input {tensor.name or tensor.index}, {tensor.dtype}, {len(data)} bytes"
    with task(f"writing {args.out} ({len(data) / 2**20:,.0f} MB)", long=len(data) > LONG_BUFFER_BYTES):
        write_atomic(Path(args.out), data)
    print(f"{args.out}: {what}")
    return 0


def _fixture(args: argparse.Namespace) -> int:
    from .fixtures import generate
    paths = generate(args.spec, args.out)
    for p in paths:
        print(p)
    return 0


def _kv(text: str | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in (text or "").split(","):
        if item.strip():
            k, _, v = item.partition("=")
            try:
                out[k.strip()] = int(v, 0)
            except ValueError:
                raise BinparseError(f"params are NAME=INT pairs, got {item!r}") from None
    return out


def _schema_side(ref: str, params: str | None, type_name: str | None) -> tuple[Any, dict[str, int], str]:
    """A diff operand: a registered format name or a .ksy path (+ params), optionally a nested type."""
    from .registry import registered
    from .schema import SCHEMAS_DIR, load_schema
    fmt = next((f for f in registered() if f.name == ref), None)
    if fmt is not None:
        schema, p, label = load_schema(SCHEMAS_DIR / f"{fmt.accessor._SCHEMA}.ksy"), dict(fmt.params), ref
    else:
        schema, p, label = load_schema(ref), {}, ref
    p.update(_kv(params))
    t = schema.root
    if type_name:
        t = t.resolve_type(type_name)
        p = {k: v for k, v in p.items() if k in {x.id for x in t.params}} or {x.id: p[x.id] for x in t.params if x.id in p}
    return t, p, label


def _schema_cmd(args: argparse.Namespace) -> int:
    if args.schema_command == "from-header":
        from .cheader import header_to_ksy
        from .fixtures.common import write_atomic
        defines = {}
        for d in args.define or []:
            k, _, v = d.partition("=")
            defines[k] = v or "1"
        text, lay = header_to_ksy(args.headers, args.struct, defines=defines, pointer_size=args.pointer_size,
                                  schema_id=args.id, strings=args.string or None)
        write_atomic(Path(args.out), text.encode())
        print(f"{args.out}: {args.struct}, {lay.layout.size:,} bytes, {len(lay.layout.fields)} fields")
        return 0
    from .schema.diff import diff
    a, pa, la = _schema_side(args.a, args.params_a, args.type)
    b, pb, lb = _schema_side(args.b, args.params_b, args.type)
    changes, full = diff(a, pa, b, pb)
    if args.json:
        print(json.dumps({"a": la, "b": lb, "complete": full, "changes": [c.to_json() for c in changes]}, indent=1))
    else:
        print(f"{la} → {lb}: {len(changes)} change(s)" + ("" if full else " (fields after a data-dependent one not compared)"))
        for c in changes:
            print("  " + c.describe())
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from .doctor import doctor, doctor_tree, report_text
    doc = doctor_tree(args.path) if args.recursive else doctor(args.path)
    print(json.dumps(doc, indent=1) if args.json else report_text(doc))
    return 0 if doc["status"] == "ok" else 1


def _generate(args: argparse.Namespace) -> int:
    from .codegen import write_all
    changed = write_all(check=args.check)
    for p in changed:
        print(("stale: " if args.check else "wrote: ") + str(p))
    if args.check and changed:
        print("generated accessors are stale: run `binparse generate`", file=sys.stderr)
        return 1
    if not changed:
        print("generated accessors are up to date")
    return 0


def _schemas(args: argparse.Namespace) -> int:
    from .registry import registered
    rows = [(f.name, f.version, f.identifies(), f.accessor._SCHEMA) for f in registered()]
    head = ("format", "version", "identified by", "schema")
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(4)]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0


def _device_options(p: argparse.ArgumentParser) -> None:
    side = p.add_mutually_exclusive_group()
    side.add_argument("--output", dest="name", help="TIDL output tensor name or index")
    side.add_argument("--input", dest="input_name", help="TIDL input tensor name or index")
    family = p.add_mutually_exclusive_group()
    family.add_argument("--intel-dla", action="store_true", help="FPGA AI Suite IP buffer (FP16)")
    family.add_argument("--espdl", action="store_true", help="ESP-DL padded HWC tensor")
    family.add_argument("--dlhdl", choices=("conv", "fc"), help="MATLAB DL HDL conv or FC module buffer")
    p.add_argument("--shape", help="ESP-DL H,W,C or dlhdl X,Y,Z")
    p.add_argument("--padding", help="ESP-DL T,B,L,R")
    p.add_argument("--concat", help="ESP-DL: the channel counts C0,C1,... of tensors concatenated in one buffer")
    p.add_argument("--member", type=int, help="ESP-DL: which of the --concat tensors (default 0)")
    p.add_argument("--dtype", help="ESP-DL int8|int16|uint8|float32; dlhdl float32|int8")
    p.add_argument("--exponent", type=int, help="ESP-DL exponent: value = q * 2^exponent")
    p.add_argument("--thread-number", type=int, help="dlhdl ConvThreadNumber (4, 9, 16, 25, 36, 49, 64)")
    p.add_argument("--size", type=int, help="dlhdl FC output size")
    p.add_argument("--format", help="format of the io file; default: detect")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="binparse", description="Read accelerator artifacts and device buffers from declarative schemas.")
    sub = p.add_subparsers(dest="command", required=True)
    i = sub.add_parser("inspect", help="print the fields of a file")
    i.add_argument("file")
    i.add_argument("--format", help="format name (see `binparse schemas`); default: detect")
    i.add_argument("--json", action="store_true", help="JSON instead of a table")
    i.add_argument("--fields", action="store_true", help="every raw field instead of the family's summary")
    _key_option(i)
    i.set_defaults(run=_inspect)
    v = sub.add_parser("view", help="write a tensor of a device buffer as .npy (logical order, no padding)")
    v.add_argument("files", nargs="+", metavar="[SOURCE] BUFFER",
                   help="TIDL: io descriptor and buffer; --intel-dla: compile folder or saved configuration "
                        "and buffer; --espdl / --dlhdl: the buffer")
    v.add_argument("--npy", required=True, help="where to write the array")
    v.add_argument("--dequantize", action="store_true", help="float32: TIDL (q - zero point) / scale, ESP-DL q * 2^exponent")
    v.add_argument("--tensor", help="a tensor the SOURCE names (an .espdl model's initializer or test tensor; "
                                    "MODEL/TENSOR in a pack)")
    v.add_argument("--stored", action="store_true", help="with --tensor: the elements as the device stores them "
                                                          "(blocked, padded) instead of logical order")
    _key_option(v)
    _device_options(v)
    v.set_defaults(run=_view)
    d = sub.add_parser("draw", help="an SVG picture of a device buffer: data, padding and blocking, by role")
    d.add_argument("files", nargs="*", metavar="SOURCE",
                   help="TIDL: io descriptor (with --output/--input); --intel-dla: compile folder or saved "
                        "configuration; --espdl / --dlhdl: none (the shape options describe the buffer)")
    d.add_argument("--svg", required=True, help="where to write the picture")
    d.add_argument("--tensor", help="a weight (or test tensor) of an .espdl model: its stored blocking")
    _key_option(d)
    _device_options(d)
    d.set_defaults(run=_draw)
    k = sub.add_parser("pack", help="write a logical .npy array into a device buffer (padding zero)")
    k.add_argument("files", nargs="+", metavar="[SOURCE] ARRAY", help="as for view, with the .npy instead of the buffer")
    k.add_argument("--out", required=True, help="the buffer file to write")
    k.add_argument("--quantize", action="store_true", help="quantise float values (TIDL scale, ESP-DL exponent)")
    k.add_argument("--cvec", type=int, help="FPGA AI Suite CVEC when the dump does not tell it")
    _device_options(k)
    k.set_defaults(run=_pack)
    f = sub.add_parser("fixture", help="write the artifacts, device buffers and expectations a spec describes")
    f.add_argument("spec", help="fixture spec (YAML; see README)")
    f.add_argument("-o", "--out", help="output folder (default: beside the spec)")
    f.set_defaults(run=_fixture)
    g = sub.add_parser("generate", help="regenerate binparse/accessors from schemas/")
    g.add_argument("--check", action="store_true", help="only report stale modules (exit 1)")
    g.set_defaults(run=_generate)
    dr = sub.add_parser("doctor", help="what made each artifact in a folder, and whether they agree")
    dr.add_argument("path")
    dr.add_argument("--json", action="store_true")
    dr.add_argument("-r", "--recursive", action="store_true", help="also every folder below PATH, each on its own")
    dr.set_defaults(run=_doctor)
    sc = sub.add_parser("schema", help="schemas from C headers, and differences between versions")
    scs = sc.add_subparsers(dest="schema_command", required=True)
    fh = scs.add_parser("from-header", help="turn a C struct into a .ksy")
    fh.add_argument("headers", nargs="+")
    fh.add_argument("--struct", required=True, help="typedef name or struct tag")
    fh.add_argument("--define", action="append", help="MACRO[=VALUE] (repeatable)")
    fh.add_argument("--pointer-size", type=int, choices=(4, 8), default=8)
    fh.add_argument("--id", help="meta/id of the schema (default: from the struct name)")
    fh.add_argument("--string", action="append", help="glob of char arrays to read as strings (default *Name)")
    fh.add_argument("--out", required=True)
    df = scs.add_parser("diff", help="fields added, removed, moved, resized between two versions")
    df.add_argument("a", help="a format name (binparse schemas) or a .ksy")
    df.add_argument("b")
    df.add_argument("--params-a", help="NAME=INT,... for a")
    df.add_argument("--params-b", help="NAME=INT,... for b")
    df.add_argument("--type", help="compare a nested type (e.g. layer) instead of the root")
    df.add_argument("--json", action="store_true")
    sc.set_defaults(run=_schema_cmd)
    s = sub.add_parser("schemas", help="list known formats and what identifies them")
    s.set_defaults(run=_schemas)
    return p


def _key_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--key", help="AES-128 key (32 hex digits) of encrypted .espdl models")


def _plain_warnings() -> None:
    """Print `BinparseWarning`s as one `binparse: warning: …` line, not Python's file:line format."""
    import warnings

    from .errors import BinparseWarning
    python_format = warnings.formatwarning

    def fmt(message: Warning | str, category: type[Warning], filename: str, lineno: int,
            line: str | None = None) -> str:
        if issubclass(category, BinparseWarning):
            return f"binparse: warning: {message}\n"
        return python_format(message, category, filename, lineno, line)

    warnings.formatwarning = fmt


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BinparseError as exc:
        print(f"binparse: error: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return 0


def console() -> int:
    """The `binparse` command itself: `main` with warnings printed as plain lines."""
    _plain_warnings()
    return main()


if __name__ == "__main__":
    sys.exit(console())
