"""TIDL 11.02 as TI's own headers define it: the hand-kept layouts equal the ones `binparse schema
from-header` generates from itidl_ti.h / itidl_io.h (schemas/tidl/from_header), the 11.02 fixtures read
back as 11.02 through both, and every 11.x netVersion reads with a stated layout."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.engine.accessors.tidl.from_header.tidl_io_11_02 import TidlIo1102
from binparse.engine.accessors.tidl.from_header.tidl_layer_11_02 import TidlLayer1102
from binparse.cli import main
from binparse.core.errors import BinparseWarning, FormatError
from binparse.formats.tidl import NetJ7, NetJ7Nearest
from binparse.family.registry import format_of

from .conftest import FIXTURES

TIDL = FIXTURES / "tidl"
GENERATED = Path(__file__).resolve().parents[1] / "schemas" / "tidl" / "from_header"
SOCS = {"j721e": (1, 176, 0), "am62a": (1, 176, 260), "j722s": (2, 176, 0), "j784s4": (4, 184, 0)}


@pytest.mark.parametrize("cores, pads", [
    (1, ["  added    pad_20                           at 100 (4 bytes)",
         "  added    pad_22                           at 172 (4 bytes)",
         "  added    tidl_layers                      at 176 (2838528 bytes)",
         "  removed  align_pad                        was at 100 (4 bytes)",
         "  removed  end_pad                          was at 172 (4 bytes)"]),
    (2, ["  added    pad_22                           at 172 (4 bytes)",
         "  added    tidl_layers                      at 176 (2838528 bytes)",
         "  removed  end_pad                          was at 172 (4 bytes)"]),
    (4, ["  added    pad_22                           at 180 (4 bytes)",
         "  added    tidl_layers                      at 184 (2838528 bytes)",
         "  removed  end_pad                          was at 180 (4 bytes)"])])
def test_the_11_02_header_equals_the_one_generated_from_tis_header(cores: int, pads: list[str],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Every header field at TI's offset; only padding names and the 1,536 fixed layer slots differ."""
    assert main(["schema", "diff", "schemas/tidl/tidl_net_j7.ksy", str(GENERATED / f"tidl_net_11_02_c{cores}.ksy"),
                 "--params-a", f"gen=112,cores={cores}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == pads and out[0].endswith(f"{len(pads)} change(s) (fields after a data-dependent one not compared)")


def test_the_11_02_layer_and_io_equal_the_generated_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "diff", "schemas/tidl/tidl_net_j7.ksy", str(GENERATED / "tidl_layer_11_02.ksy"),
                 "--params-a", "gen=112", "--type", "layer"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  added    layer_params                     at 0 (1544 bytes)",  # the union: raw there, decoded here
        "  removed  layer_params_raw                 was at 0 (1544 bytes)"]
    assert main(["schema", "diff", "tidl.io.j7_10.c4", str(GENERATED / "tidl_io_11_02.ksy")]) == 0
    assert capsys.readouterr().out == f"tidl.io.j7_10.c4 → {GENERATED / 'tidl_io_11_02.ksy'}: 0 change(s)\n"


@pytest.mark.parametrize("soc", sorted(SOCS))
def test_11_02_nets_read_back_as_11_02_with_their_socs_cores(soc: str) -> None:
    cores, start, device = SOCS[soc]
    path = TIDL / f"net_11_02_{soc}" / "1102_tidl_net.bin"
    net = binparse.open(path)
    assert type(net) is NetJ7 and format_of(net).name == "tidl.net.j7_11_02" and net.unverified is None
    assert (net.gen, net.soc_cores, net.num_cores, net.device_name, net.version) == (112, cores, cores, device, "11.02")
    assert net.field_info("layers")[0] == start and net.net_init_backup_data_offset.tolist() == [0] * cores
    assert [(b.offset, b.size) for b in net.net_buf_info][:2] == [(0, 5760), (5760, 192)]
    assert -(-(start + 3 * 1848) // 64) * 64 == 5760
    t = net.table()
    assert [net.type_name(int(x)) for x in t.layer_type] == ["TIDL_DataLayer", "TIDL_ConvolutionLayer",
                                                            "TIDL_DataLayer"]
    assert t.out_shapes[1, 0].tolist() == [1, 1, 1, 4, 8, 8] and net.layers[1].act_params.act_type == 1
    assert net.weights(1)["bias"].tolist() == [-300, 0, 300, 32767]
    # the same bytes through the accessor generated from TI's sTIDL_Layer_t
    layer = TidlLayer1102.from_buffer(path.read_bytes(), start + 1848)
    assert (layer.layer_type, layer.num_in_bufs, layer.num_out_bufs, int(layer.in_data[0])) == (1, 1, 1, 0)
    assert layer.out_data.dim_values.tolist() == [1, 1, 1, 4, 8, 8] and layer.out_data.tensor_scale == 16.0
    assert (layer.act_params.act_type, layer.weights_element_size_in_bits) == (1, 8)


def test_the_11_02_io_reads_back_through_tis_io_header() -> None:
    path = TIDL / "io_11_02_am62a" / "1102_tidl_io_1.bin"
    io = binparse.open(path)
    assert format_of(io).name == "tidl.io.j7_10.c4" and len(path.read_bytes()) == 378392
    assert "11.02 on every SoC" in format_of(io).version and getattr(io, "unverified", None) is None
    gen = TidlIo1102.from_buffer(path.read_bytes())
    assert (gen.num_input_buf, gen.num_output_buf, gen.num_cores) == (1, 1, 1)
    assert (gen.in_data_name[0], gen.out_data_name[0], gen.out_pad_t[0], gen.out_pad_b[0]) == ("input.1", "424", 1, 34)
    assert (gen.out_channel_pitch[0], gen.out_buf_size[0], gen.out_tensor_scale[0]) == (344, 688, 35.25)
    assert io.outputs[0].channel_pitch == 344 and io.outputs[0].name == "424"


@pytest.mark.parametrize("value, sdk", [(0x20250429, "11.00.04"), (0x20250630, "11.00"), (0x20250821, "11.01")])
def test_11_00_and_11_01_read_with_the_11_02_layout_not_verified(value: int, sdk: str) -> None:
    data = bytearray((TIDL / "net_11_02_j784s4" / "1102_tidl_net.bin").read_bytes())
    struct.pack_into("<I", data, 0, value)
    with pytest.warns(BinparseWarning, match="read with the 11.02 layout"):
        net = binparse.open(bytes(data))
    assert type(net) is NetJ7Nearest and (net.gen, net.soc_cores, net.version) == (112, 4, sdk)
    assert net.unverified.startswith(f"netVersion 0x{value:08X} (TIDL {sdk}) has no verified layout")


def test_a_header_that_holds_for_no_core_count_names_each() -> None:
    data = bytearray((TIDL / "net_11_02_j721e" / "1102_tidl_net.bin").read_bytes())
    struct.pack_into("<I", data, 96, 7)  # numCores of the one-core header
    with pytest.raises(FormatError) as e:
        NetJ7.from_buffer(bytes(data), gen=112)
    assert e.value.found == ("1 core: numCores reads 7, not within 1..1; 2 cores: numCores reads 0, not within 1..2; "
                             "4 cores: numCores reads 0, not within 1..4")


def test_11_02_12_reads_with_its_headers_layout() -> None:
    """0x20260423: 11.02's network and layer with dynDimMask ending the data params (1,856-byte layers)."""
    net = binparse.open(TIDL / "net_11_02_12_j784s4" / "110212_tidl_net.bin")
    assert format_of(net).name == "tidl.net.j7_11_02_12" and net.unverified is None
    assert (net.gen, net.soc_cores, net.version, net.field_info("layers")[0]) == (113, 4, "11.02.12", 184)
    assert net.field_info("layers")[2] == 1856 and [(b.offset, b.size) for b in net.net_buf_info][0] == (0, 5760)
    assert net.layers[1].out_data.dim_values.tolist() == [1, 1, 1, 4, 8, 8] and net.layers[1].out_data.dyn_dim_mask == 0
    assert net.weights(1)["bias"].tolist() == [-300, 0, 300, 32767]


def test_an_11_02_12_io_carries_a_bool_tensor() -> None:
    """11_02_12_00's itidl_io.h adds TIDL_Bool (9); its io descriptor is 11.02's."""
    from binparse.engine.build import fill
    from binparse.formats.tidl.fixtures import io_values
    spec = {"version": "11.02.12", "inputs": [{"name": "x", "dtype": "float32", "shape": [1, 2, 3]}],
            "outputs": [{"name": "mask", "dtype": "bool", "shape": [1, 2, 3]}]}
    schema, params, values, _, _ = io_values(spec)
    data = fill(schema, values, params)
    io = binparse.open(data)
    assert len(data) == 378392 and io.outputs[0].element_type == 9 and io.outputs[0].dtype == np.dtype("?")
    assert io.outputs[0].view(np.array([1, 0, 1, 1, 0, 0], "?").tobytes()).reshape(-1).tolist() == [
        True, False, True, True, False, False]


def test_schema_diff_from_10_01_to_11_02(capsys: pytest.CaptureFixture[str]) -> None:
    """The one-core header is 10.01's; the layer grew by the act params (20 -> 44 bytes)."""
    assert main(["schema", "diff", "tidl.net.j7_10_01", "tidl.net.j7_11_02"]) == 3  # the SoC's cores: asked for
    assert "tidl.net.j7_11_02 is laid out by cores" in capsys.readouterr().err
    assert main(["schema", "diff", "tidl.net.j7_10_01", "tidl.net.j7_11_02", "--params-b", "cores=1"]) == 0
    assert capsys.readouterr().out.startswith("tidl.net.j7_10_01 → tidl.net.j7_11_02: 0 change(s)")
    assert main(["schema", "diff", "tidl.net.j7_10_01", "tidl.net.j7_11_02", "--params-b", "cores=1", "--type",
                 "layer"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["tidl.net.j7_10_01 → tidl.net.j7_11_02: 14 change(s)",
                       "  resized  act_params                       1544 → 1544, 20 → 44 bytes",
                       "  moved    layer_type                       1564 → 1588"]
    assert out[-1] == "  moved    scratch_mem_required             1820 → 1844"
