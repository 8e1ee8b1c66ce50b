"""C headers → schemas: sizes and every field offset equal the shipped schemas', a header-derived
schema reads the real files to the same values, and `schema diff` lists what changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import binparse
from binparse.engine.backends import numpy_backend as nb
from binparse.engine.cheader import header_to_ksy
from binparse.engine.cheader.to_ksy import offsets, snake
from binparse.cli import main
from binparse.engine.runtime import ABSENT, static_prefix
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import DATA, import_generated, real_tidl_io_files

HEADERS = DATA / "headers"
IO = SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy"
NET = SCHEMAS_DIR / "tidl" / "tidl_net_j7.ksy"


def shipped(t: Any, params: dict[str, int]) -> dict[str, tuple[int, int]]:
    specs = nb.field_specs(t)
    entries, _ = static_prefix(specs, params, nb._namespace(t))
    return {s.name: (o, z * (1 if c is None else c)) for s, (o, c, z) in zip(specs, entries) if z != ABSENT}


def test_snake_names() -> None:
    assert [snake(n) for n in ("inDIM2", "TIDLLayers", "numInputBuf", "rawDataInElementType", "inPadL", "ObjId",
                               "enableEWRelU")] == [
        "in_dim2", "tidl_layers", "num_input_buf", "raw_data_in_element_type", "in_pad_l", "obj_id", "enable_ew_relu"]


@pytest.mark.parametrize("header,defines,params,size", [
    ("itidl_io_08_06.h", {}, {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}, 37256),
    ("itidl_io_09_02_10.h", {}, {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 92}, 93976),
    ("itidl_io_09_02_10.h", {"SOC_J722S": "1"}, {"max_num_cores": 2, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 92}, 187928),
    ("itidl_io_09_02_10.h", {"SOC_J784S4": "1"}, {"max_num_cores": 4, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 92}, 375832),
    ("itidl_io_09_02_10.h", {"TIDL_IO_BUF_SIZES": "1"}, {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 100}, 94616),
    ("itidl_io_09_02_10.h", {"TIDL_IO_BUF_SIZES": "1", "SOC_J784S4": "1"}, {"max_num_cores": 4, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 100}, 378392),
])
def test_io_headers_match_the_shipped_schema(header: str, defines: dict[str, str], params: dict[str, int], size: int) -> None:
    _, lay = header_to_ksy([str(HEADERS / header)], "sTIDL_IOBufDesc_t", defines=defines)
    assert lay.layout.size == size
    assert offsets(lay) == shipped(load_schema(IO).root, params)


@pytest.mark.parametrize("defines,gen,layer,net_head", [({}, 86, 1792, 136), ({"TIDL_0902": "1"}, 92, 1824, 160)])
def test_net_headers_match_the_shipped_schema(defines: dict[str, str], gen: int, layer: int, net_head: int) -> None:
    schema = load_schema(NET)
    _, lay = header_to_ksy([str(HEADERS / "itidl_net.h")], "sTIDL_Layer_t", defines=defines)
    assert lay.layout.size == layer
    ours = shipped(schema.root.types["layer"], {"gen": gen})
    theirs = offsets(lay)
    assert theirs.pop("layer_params") == ours.pop("layer_params_raw")  # the union, kept raw in both
    ours = {k: v for k, v in ours.items() if not k.endswith("_pad")}  # binparse spells out C's padding
    assert theirs == ours
    _, dp = header_to_ksy([str(HEADERS / "itidl_net.h")], "sTIDL_DataParams_t", defines=defines)
    assert offsets(dp) == shipped(schema.root.types["data_params"], {"gen": gen})
    _, net = header_to_ksy([str(HEADERS / "itidl_net.h")], "sTIDL_Network_t", defines=defines)
    head = offsets(net)
    assert head["tidl_layers"][0] == net_head  # where the layers start: 136 (08.06) / 160 (09.02)
    ours_head = {k: v for k, v in shipped(schema.root, {"gen": gen}).items() if k != "align_pad"}
    assert {k: v for k, v in head.items() if k != "tidl_layers"} == ours_head
    _, conv = header_to_ksy([str(HEADERS / "itidl_net.h")], "sTIDL_ConvParams_t", defines=defines)
    assert conv.layout.size == (212 if gen == 86 else 244)
    assert offsets(conv) == shipped(schema.root.types["conv_params"], {"gen": gen})


def test_pointer_size_changes_the_layer() -> None:
    _, lay = header_to_ksy([str(HEADERS / "itidl_net.h")], "sTIDL_Layer_t", pointer_size=4)
    assert lay.layout.size == 1784  # no padding before a 4-byte pointer, 4-byte alignment


def test_header_derived_schema_reads_real_files_identically(tmp_path: Path) -> None:
    files = real_tidl_io_files()
    if not files:
        pytest.skip("real vendor files not present")
    out = tmp_path / "io_from_header.ksy"
    assert main(["schema", "from-header", str(HEADERS / "itidl_io_08_06.h"), "--struct", "sTIDL_IOBufDesc_t",
                 "--id", "io_from_header", "--out", str(out)]) == 0
    mod = import_generated(load_schema(out, tmp_path), tmp_path, "io_from_header_accessors")
    for f in files:
        data = f.read_bytes()
        ours = {k: v for k, v in binparse.open(data).to_dict().items() if v is not None}  # 08.x fields only
        assert mod.IoFromHeader.from_buffer(data).to_dict() == ours, f


def test_schema_diff_lists_what_the_facts_describe(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "diff", "tidl.io.j7_08", "tidl.io.j7_10.c1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    by_kind: dict[str, set[str]] = {}
    for c in doc["changes"]:
        by_kind.setdefault(c["change"], set()).add(c["field"])
    assert by_kind["added"] == {"num_cores", "num_virtual_cores", "num_super_batches", "inference_mode", "in_dim2",
                                "in_dim1", "in_buf_size", "out_dim2", "out_dim1", "out_buf_size", "num_valid_tensor_dims"}
    out_fields = {"out_width", "out_height", "out_num_channels", "out_channel_pitch", "out_num_batches", "out_pad_l",
                  "out_pad_t", "out_pad_r", "out_pad_b", "out_pad_ch", "out_element_type", "out_data_id",
                  "out_data_name", "out_tensor_scale", "out_zero_point", "out_layout"}
    assert by_kind["resized"] == out_fields  # TIDL_MAX_ALG_OUT_BUFS 32 -> 128
    assert "removed" not in by_kind and "num_input_buf" not in by_kind["moved"]
    width = next(c for c in doc["changes"] if c["field"] == "out_width")
    assert (width["old"], width["new"]) == ({"offset": 18952, "size": 128}, {"offset": 19352, "size": 512})


def test_a_header_including_another_with_system_includes_and_a_union(tmp_path: Path) -> None:
    """What TI's 11.02 itidl_ti.h needs: its `#include "itidl_io.h"` brings `<stdint.h>` and friends (dropped:
    the prelude has stdint), and a union's member list is written as valid YAML."""
    (tmp_path / "inner.h").write_text("#include <stdint.h>\n#include <float.h>\n"
                                      "typedef struct { int32_t n; float f; } sInner_t;\n")
    (tmp_path / "outer.h").write_text('#include <stdlib.h>\n#include "inner.h"\n'
                                      "typedef union { sInner_t a; int8_t name[12]; } uBoth_t;\n"
                                      "typedef struct { int32_t v; uBoth_t u; int32_t k[CORES]; } sOuter_t;\n")
    text, lay = header_to_ksy([str(tmp_path / "outer.h")], "sOuter_t", defines={"CORES": "2"})
    assert lay.layout.size == 4 + 12 + 8
    assert "    doc: u. A union of a, name, kept as raw bytes.\n" in text  # once "(anonymous: a, name)": not YAML
    out = tmp_path / "outer.ksy"
    out.write_text(text)
    schema = load_schema(out)
    assert [f.id for f in schema.root.seq] == ["v", "u", "k"]
