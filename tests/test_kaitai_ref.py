"""Cross-check with the official Kaitai Struct compiler: our schemas are real Kaitai, and the
parser it generates reads every fixture and real file to the same values as binparse."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import binparse
from binparse.engine import kaitai_ref
from binparse.engine.schema import Schema, load_all, load_schema

from .conftest import FEATURE_BYTES, FIXTURES, real_tidl_io_files


def test_every_schema_compiles(kaitai_out: Path) -> None:
    for s in load_all():
        assert (kaitai_out / f"{s.id}.py").exists(), s.name


def test_tidl_io_fixture_and_real_files(kaitai_out: Path) -> None:
    schema = load_schema(binparse.engine.schema.SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy")
    cls = kaitai_ref.root_class(kaitai_ref.load_module(kaitai_out, schema), schema)
    files = [FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin", *real_tidl_io_files()]
    for f in files:
        ours = binparse.open(f).to_dict()
        theirs = kaitai_ref.to_plain(cls(1, 32, 32, 8, kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(f.read_bytes()))), schema.root)
        assert theirs == ours, f
    assert theirs["num_input_buf"] >= 1


def test_every_fixture(kaitai_out: Path) -> None:
    import json
    checked = 0
    for manifest in sorted(FIXTURES.rglob("manifest.json")):
        for f in json.loads(manifest.read_text())["files"]:
            if f["role"] != "artifact" or "schema" not in f:
                continue
            schema = load_schema(binparse.engine.schema.SCHEMAS_DIR / f"{f['schema']}.ksy")
            data = (manifest.parent / f["path"]).read_bytes()
            ours = binparse.open(data)
            theirs = kaitai_ref.to_plain(kaitai_ref.parse(kaitai_out, schema, data, ours._params), schema.root)
            assert theirs == ours.to_dict(), f["path"]
            checked += 1
    assert checked >= 15


def test_feature_schema(kaitai_out: Path, features_schema: Schema, features: ModuleType) -> None:
    mod = kaitai_ref.load_module(kaitai_out, features_schema)
    obj = mod.Features(2, kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(FEATURE_BYTES)))
    ours = features.Features.from_buffer(FEATURE_BYTES, n_cores=2)
    assert kaitai_ref.to_plain(obj, features_schema.root) == ours.to_dict()
    assert (obj.double_items, obj.first_byte, obj.tail_words) == (6, 0x42, [2, 0x0302])
    assert obj.body.a == -5 and obj.table.cells == [1, 2, 3, 4, 5, 6]


def test_real_nets(kaitai_out: Path) -> None:
    from .conftest import real
    cases = [("tidl/j7-08.2/deeplabv3-ade20k/201_tidl_net.bin", "tidl_net_j7", {"gen": 82, "cores": 1}, 2),
             ("tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin", "tidl_net_j7", {"gen": 90, "cores": 1}, 2),
             ("tidl/j7-10.01/ow-tiny/ow_tiny_net.bin", "tidl_net_j7", {"gen": 101, "cores": 1}, 1)] + [
        (f"tidl/am57x/tidl_net_{n}.bin", "tidl_net_tda2", {"api": 13}, 2)
        for n in ("mnist_lenet", "jdetNet_ssd", "imagenet_jacintonet11v2")]
    for rel, name, params, conv in cases:
        path = real(rel)
        schema = load_schema(binparse.engine.schema.SCHEMAS_DIR / "tidl" / f"{name}.ksy")
        theirs = kaitai_ref.parse(kaitai_out, schema, path.read_bytes(), params)
        ours = binparse.open(path)
        assert kaitai_ref.to_plain(theirs, schema.root) == ours.to_dict(), rel
        # the union decoded through the instance agrees too
        assert theirs.layers[conv].layer_params.num_out_channels == ours.layers[conv].layer_params.num_out_channels > 0
