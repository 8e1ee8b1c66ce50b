"""A mapped file that knows its file: dense reads by pread give the bytes the mapping shows, and
fall back to the mapping when the file at the path is no longer the one mapped."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.core.filemap import PREAD_FROM, READ_WHOLE, FileMap, read_range

from .conftest import FIXTURES, real

NET = FIXTURES / "tidl" / "net_08_06" / "910_tidl_net.bin"


def test_a_small_file_is_read_whole_and_a_larger_one_mapped(tmp_path: Path) -> None:
    small, large = tmp_path / "small.bin", tmp_path / "large.bin"
    small.write_bytes(bytes(range(256)) * (READ_WHOLE // 256))  # 256 KiB: read whole
    large.write_bytes(bytes(range(256)) * (READ_WHOLE // 256) + b"\x07")  # one byte more: mapped
    read, mapped = binparse.core.filemap.map_file(small), binparse.core.filemap.map_file(large)
    assert type(read) is bytes and len(read) == 262_144 and read[:3] == b"\x00\x01\x02" and read[-1] == 255
    assert isinstance(mapped, FileMap) and len(mapped) == 262_145 and mapped[-1] == 7 and mapped.path == str(large)


def test_read_range_is_the_mapped_bytes(tmp_path: Path) -> None:
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(range(256)) * 1100)  # 275 KiB: mapped
    mapped = binparse.core.filemap.map_file(path)
    assert isinstance(mapped, FileMap) and mapped.path == str(path)
    mv = memoryview(mapped)
    assert read_range(mv, 1000, PREAD_FROM) == bytes(mv[1000:1000 + PREAD_FROM])  # by pread
    assert read_range(mv, 10, 20) == bytes(range(10, 30))  # small: copied from the mapping
    os.replace(path, tmp_path / "moved.bin")  # another file at the path now: the mapping's bytes
    path.write_bytes(bytes(300 * 1024))
    assert read_range(mv, 1000, PREAD_FROM) == bytes(mv[1000:1000 + PREAD_FROM]) != bytes(PREAD_FROM)


def test_the_layer_table_is_a_private_copy_equal_to_the_records() -> None:
    path = real("tidl/j7-08.2/deeplabv3-ade20k/201_tidl_net.bin")
    if not path.exists():
        pytest.skip("real vendor files not present")
    net = binparse.open(path)
    t, records = net.table(), net.used_layers
    assert len(t) == 82 and t.layer_type.tolist() == records["layer_type"].tolist()
    assert t.out_shapes.tolist() == records["out_data_params"]["dim_values"].tolist()
    assert t.in_ids[1].tolist()[:2] == [records["in_data_params"]["data_id"][1][0], -1]
    assert not np.shares_memory(t.layer_type, records)  # the table's columns: not views of the file
    assert np.shares_memory(records, np.frombuffer(net._mv, np.uint8))  # the records: a view of it


def test_a_cut_net_after_a_whole_one_still_names_the_field() -> None:
    data = NET.read_bytes()
    assert len(binparse.open(data).table()) == 3  # the layout's record dtype is known from now on
    with pytest.raises(binparse.FormatError, match=r"tidl_net_j7.layers, offset 136 \(0x88\): field runs past the end"):
        binparse.open(data[:2000]).table()


def test_a_sniffer_with_a_least_size_is_asked_by_name_only_about_files_that_big(tmp_path: Path) -> None:
    from binparse.family import registry, sniffers
    asked: list[int] = []

    def sniffer(path: Path | None, head: bytes) -> None:
        asked.append(len(head))

    before = list(sniffers._SNIFFERS)
    registry.register_sniffer(sniffer, names=("*.zzq",), head=lambda h: h.startswith(b"ZZQ"), min_size=100)
    try:
        assert registry.sniff(str(tmp_path / "a.zzq"), b"\0" * 50, 50) is None and asked == []  # too small
        registry.sniff(str(tmp_path / "a.zzq"), b"\0" * 60, 200)  # big enough: asked by its name
        registry.sniff(str(tmp_path / "b.bin"), b"ZZQ" + b"\0" * 67, 70)  # any size: asked by its head test
        assert asked == [60, 70]
    finally:
        sniffers._SNIFFERS[:] = before


def test_the_files_bytes_go_with_the_last_accessor_not_at_the_next_garbage_collection() -> None:
    """No accessor refers to itself (the root's `_root` is itself without a stored reference): an
    io descriptor with its tensors, and a net after its layer table (its record dtype known), are
    freed when the last reference goes, and with them the file's bytes or mapping."""
    import gc
    import weakref
    io_path = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
    binparse.open(NET).table()  # the layout's record dtype, kept for every later net of it
    gc.disable()
    try:
        io, net = binparse.open(io_path), binparse.open(NET)
        assert [t.name for t in io.inputs + io.outputs] == ["images", "im_info", "logits", "seg_map", "detections"]
        assert net.table().layer_type.tolist() == [0, 1, 0]  # spec.yaml: DataLayer, ConvolutionLayer, DataLayer
        refs = [weakref.ref(io), weakref.ref(net)]
        del io, net
        assert [r() for r in refs] == [None, None]
    finally:
        gc.enable()
