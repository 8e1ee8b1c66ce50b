"""The compiled readers of a user's schemas (`binparse.engine.codegen.reader`) on real files of the Kaitai
gallery's formats: the same values as the interpreter (each test reads both ways), zero copy, laziness,
and the gallery files that read wrong before (issue 45)."""

from __future__ import annotations

import ensurepip
import io
import sys
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import binparse
from binparse.engine.runtime import Accessor
from binparse.engine.runtime.compiled import CompiledRecord

from .conftest import DATA

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"
FORMATS, SAMPLES = CONFORMANCE / "kaitai_struct_formats", CONFORMANCE / "kaitai_struct_samples"
pytestmark = pytest.mark.skipif(not FORMATS.is_dir(), reason="../shared/conformance (the Kaitai gallery) is absent")


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "cache"))


def gallery(name: str) -> Any:
    return binparse.compile(FORMATS / f"{name}.ksy", import_path=[FORMATS])


@contextmanager
def interpreted(compiled: Any) -> Iterator[None]:
    """Every type of a compiled schema read by the interpreter (no compiled reader) inside the block."""
    package = compiled.module.__name__.rpartition(".")[0]
    classes = [v for n, m in list(sys.modules.items()) if n.startswith(package + ".") for v in vars(m).values()
               if isinstance(v, type) and issubclass(v, CompiledRecord) and "_READ" in vars(v)]
    saved = [(c, c._READ) for c in classes]
    for c in classes:
        c._READ = None
    try:
        yield
    finally:
        for c, read in saved:
            c._READ = read


def both(compiled: Any, data: Any, read: Any) -> Any:
    """`read(root)` by the compiled readers and by the interpreter: the same value."""
    fast = read(compiled.parse(data))
    with interpreted(compiled):
        slow = read(compiled.parse(data))
    assert fast == slow
    return fast


def test_a_valid_rule_naming_its_own_field_reads_an_itxt_chunk() -> None:
    """PNG's iTXt `compression_method` is checked against itself when the text is not compressed
    (`valid: 'compression_flag == 1 ? ... : compression_method'`): it recursed without end."""
    png = SAMPLES / "image" / "png" / "gimp-v2.10-exif-iptc-xmp-icc-thumb.png"
    if not png.exists():
        pytest.skip("the gallery's PNG samples are absent")
    itxt = both(gallery("image/png"), png.read_bytes(), lambda p: [
        (c.body.keyword, c.body.compression_flag, int(c.body.compression_method), c.body.text[:14])
        for c in p.chunks if c.type == "iTXt"])
    assert itxt == [("XML:com.adobe.xmp", 0, 0, "<?xpacket begi")]


def onnx_model(tmp_path: Path) -> tuple[Path, Any]:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
    w = numpy_helper.from_array(np.arange(300, dtype=np.float32).reshape(3, 100), "w")
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 100])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 100])], [w])
    model = helper.make_model(graph, producer_name="binparse", opset_imports=[helper.make_opsetid("", 17)])
    path = tmp_path / "relu.onnx"
    onnx.save(model, path)
    return path, model


def test_protobuf_varints_read_an_onnx_model(tmp_path: Path) -> None:
    """`common/vlq_base128_le` (each group's params read the group before it, its `valid` names its
    own field) recursed without end: no protobuf file (ONNX, TensorFlow) could be read."""
    path, model = onnx_model(tmp_path)
    pb = gallery("serialization/google_protobuf")
    top = both(pb, path.read_bytes(), lambda m: [
        (p.field_tag, int(p.wire_type), p.value.value if p.wire_type == 0 else p.value.body.tobytes())
        for p in m.pairs])
    graph = model.graph.SerializeToString()
    assert top == [(1, 0, model.ir_version), (2, 2, b"binparse"), (7, 2, graph),
                   (8, 2, model.opset_import[0].SerializeToString())]
    fields = both(pb, graph, lambda g: [(p.field_tag, len(p.value.body)) for p in g.pairs])
    assert [t for t, _ in fields] == [1, 2, 5, 11, 12]  # node, name, initializer, input, output (GraphProto)
    assert fields[2][1] == len(model.graph.initializer[0].SerializeToString())


def test_stl_triangles_of_a_real_file() -> None:
    """STL (`'Stl' object has no attribute '_u8'` on the 80-byte header): a tetrahedron numpy-stl 4.1.1
    wrote (tests/data/stl), its triangles a zero-copy structured view."""
    data = bytearray((DATA / "stl" / "tetrahedron.stl").read_bytes())
    stl = gallery("media/stl")
    head = both(stl, bytes(data), lambda s: (s.header.tobytes()[:17], s.num_triangles,
                                             [[(v.x, v.y, v.z) for v in t.vertices] for t in s.triangles]))
    assert head[:2] == (b"numpy-stl (4.1.1)", 4)
    assert head[2] == [[(0, 0, 0), (0, 1, 0), (1, 0, 0)], [(0, 0, 0), (1, 0, 0), (0, 0, 1)],
                       [(0, 0, 0), (0, 0, 1), (0, 1, 0)], [(1, 0, 0), (0, 1, 0), (0, 0, 1)]]
    root = stl.parse(data)
    view = root.triangles.array
    assert view.shape == (4,) and not view.flags.owndata and np.shares_memory(view, np.frombuffer(data, np.uint8))
    assert root.header.base is not None and np.shares_memory(root.header, np.frombuffer(data, np.uint8))
    view["abr"][3] = 7  # write-through: the file's bytes change under the view
    assert data[84 + 3 * 50 + 48] == 7 and stl.parse(data).triangles[3].abr == 7


def test_a_ternary_reads_only_the_branch_taken() -> None:
    """Mach-O's export trie: `uleb128.value` is `b1 + (b1 & 0x80 == 0 ? 0 : b2...)`; with one group its
    value is read without `b2`. What fails there is `b3`'s `if: b2 & 0x80 != 0` with `b2` absent,
    which Kaitai's own Python fails too (an AttributeError), so the trie is not read by either."""
    fat = SAMPLES / "executable" / "mach_o_fat" / "MachO-iOS-armv7-armv7s-arm64-Helloworld"
    if not fat.exists():
        pytest.skip("the gallery's Mach-O sample is absent")
    macho = gallery("executable/mach_o_fat")
    size = both(macho, fat.read_bytes(), lambda r: (
        lambda t: (t.b1, t.b2, t.value))(r.fat_archs[0].object.load_commands[4].body.exports.terminal_size))
    assert size == (0, None, 0)
    with pytest.raises(binparse.FormatError, match="operator '&' takes integers, not NoneType"):
        macho.parse(fat.read_bytes()).fat_archs[0].object.load_commands[4].body.exports.terminal_size.b3


def pip_wheel() -> bytes:
    return sorted(Path(ensurepip.__file__).parent.glob("_bundled/pip-*.whl"))[-1].read_bytes()


def test_a_bad_magic_is_named_at_its_record_before_the_records_after_it() -> None:
    """A zip's second section with a bad magic: the error names that section's magic (Kaitai reads a
    record's checks before the sizes of the records after it), by both readers."""
    data = bytearray(pip_wheel())
    second = data.find(b"PK\x03\x04", 4)
    data[second:second + 2] = b"XX"
    z = gallery("archive/zip")
    for root in (z.parse(bytes(data)),):
        with pytest.raises(binparse.ValidationError) as e:
            root.sections
        assert (e.value.path, e.value.offset) == ("zip.sections[1].magic", second)
    with interpreted(z), pytest.raises(binparse.ValidationError) as e:
        z.parse(bytes(data)).sections
    assert (e.value.path, e.value.offset) == ("zip.sections[1].magic", second)


def test_records_are_read_by_compiled_code_not_by_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading every section of a zip places no field the interpreter's way (`_place`), and the
    byte arrays are views of the caller's buffer."""
    data = pip_wheel()
    z = gallery("archive/zip")

    def refuse(*args: Any) -> Any:
        raise AssertionError("the interpreter placed a field")

    monkeypatch.setattr(Accessor, "_place", refuse)
    sections = z.parse(data).sections
    names = [s.body.header.file_name for s in sections if s.section_type == 0x0403]
    assert names[0] == "pip/__init__.py" and len(names) == sum(1 for s in sections if s.section_type == 0x0201)
    body = sections[0].body.body
    assert not body.flags.owndata and np.shares_memory(body, np.frombuffer(data, np.uint8))


def test_a_field_never_asked_for_is_never_read(tmp_path: Path) -> None:
    """Instances are read when first asked for; records of a fixed size are made when indexed."""
    ksy = tmp_path / "lazy.ksy"
    ksy.write_text("meta: {id: lazy, endian: le}\nseq:\n  - {id: n, type: u1}\n"
                   "  - {id: items, type: item, repeat: expr, repeat-expr: n}\n"
                   "instances:\n  far: {pos: 1000, type: u4}\n"
                   "types:\n  item:\n    seq:\n      - {id: a, type: u2}\n")
    lazy = binparse.compile(ksy)
    root = lazy.parse(bytes([3, 1, 0, 2, 0, 3, 0]))
    assert root.n == 3 and root.items._made is None  # type: ignore[attr-defined]
    assert [i.a for i in root.items] == [1, 2, 3]
    with pytest.raises(binparse.FormatError):
        root.far  # only now, when asked for


def test_records_read_whole_are_of_their_class_which_has_no_getattr() -> None:
    """A record a compiled reader made whole is of the generated class itself, a class with no
    `__getattr__` (whose attribute reads Python specialises); the file's root is of the lazy twin
    until its first field is asked for, then of the class itself (runtime/compiled.py)."""
    data = pip_wheel()
    root = gallery("archive/zip").parse(data)
    cls = type(root)._FAST
    assert cls is not None and type(root) is not cls and isinstance(root, cls) and type(root).__name__ == "Zip"
    section = root.sections[0]
    assert type(root) is cls and not hasattr(cls, "__getattr__")
    header = section.body.header
    first = zipfile.ZipFile(io.BytesIO(data)).infolist()[0]  # the standard library's reading of the same file
    assert (section.section_type, header.version, header.file_name) == (0x0403, first.extract_version, first.filename)
    assert (header.crc32, header.len_body_compressed) == (first.CRC, first.compress_size)
    assert type(section)._FAST is None and type(header)._FAST is None  # made whole: no twin
    assert not hasattr(type(header), "__getattr__") and not hasattr(type(header.file_mod_time.date), "__getattr__")
    date = header.file_mod_time.date  # value instances its reader worked out (bounded without a call)
    assert date.year == 1980 + date.year_minus_1980 and date.padded_month == f"{date.month:02d}"
    assert header._path == "zip.sections[0].body.header" and header._own_io is False  # worked out from the parent


def test_a_reader_asking_for_a_field_further_on_makes_lazy_twins() -> None:
    """android_sparse's chunk header checks `len_chunk` against an instance reading `chunk_type`, a
    field of the same run set after the check: its records are made of the lazy twin, whose
    `__getattr__` reads what is asked before it is set (as Kaitai's lazy instances do)."""
    img = SAMPLES / "archive" / "android_sparse" / "fill-4k-zeros.img"
    header = gallery("archive/android_sparse").parse(img.read_bytes()).chunks[0].header
    assert type(header)._FAST is not None and hasattr(type(header), "__getattr__")
    assert (int(header.chunk_type), header.reserved1, header.num_body_blocks, header.len_chunk) == (0xCAC2, 0, 1, 16)
    assert header.len_body_expected == 4 and header.len_body == 4


def test_a_value_that_fails_leaves_the_rest_of_its_record_readable(tmp_path: Path) -> None:
    """A value its reader could not work out (a division by zero) makes that record a lazy twin: asked
    for, the value raises its error naming it; its fields and the records beside it read as before."""
    ksy = tmp_path / "ratio.ksy"
    ksy.write_text("meta: {id: ratio}\nseq:\n  - {id: items, type: item, repeat: expr, repeat-expr: 2}\n"
                   "types:\n  item:\n    seq:\n      - {id: a, type: u1}\n      - {id: b, type: u1}\n"
                   "    instances:\n      q: {value: a / b}\n")
    items = binparse.compile(ksy).parse(bytes([7, 0, 9, 2])).items
    assert (items[0].a, items[0].b, items[1].q) == (7, 0, 4)
    assert type(items[1])._FAST is None and type(items[0])._FAST is type(items[1])
    with pytest.raises(binparse.FormatError, match=r"items\[0\]\.q"):
        items[0].q
