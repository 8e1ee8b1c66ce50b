"""The budget from Python (issue 47): what a caller hands a library call is its input, the budget can be
set with `binparse.budget(...)` / `binparse.set_budget(...)`, and a hostile file still meets it
(docs/python-api.md "The budget", docs/contracts.md "Resources")."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.core import budget, inputs
from binparse.core.budget import BudgetError
from binparse.core.errors import BinparseError
from binparse.formats.intel_dla import OutputConfiguration, read_table, write_mapping
from binparse.formats.intel_dla.fixtures import _mapping_columns

from .conftest import FIXTURES, full
from .hostile.test_espdl import shared_vector_model

KIND, DIALECT = "output_transform_mapping", "v2025_1"


@pytest.fixture(autouse=True)
def _fresh_process_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a fresh program: no file read yet, no budget set."""
    monkeypatch.setattr(inputs, "_PROCESS", inputs.Run())
    monkeypatch.setattr(budget, "_PROCESS_LIMIT", [None])
    monkeypatch.delenv(budget.ENV, raising=False)


def _columns(channels: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The columns of an output mapping table of `channels` x 25 x 40 elements (KVEC 32), and its IP offsets."""
    shape = (1, channels, 1, 25, 40)
    cfg = OutputConfiguration.from_layout(shape, 32)
    return _mapping_columns(KIND, DIALECT, cfg.logical_offsets, cfg.ip_offsets, shape, (1, 25, 40), 32), cfg.ip_offsets


def test_a_table_the_caller_made_is_the_input_of_its_writer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """write_mapping sizes its budget on the columns it is handed (88 bytes a row), not on the files read
    so far (none): with a 1 MiB allowance a 100,000-row table (40 MB of working text) is written, and
    read back from its file (the file is the reader's input). Outside the call nothing is left counted."""
    cols, ip = _columns(100)
    monkeypatch.setattr(budget, "ALLOWANCE", 2**20)
    assert len(ip) == 100_000
    with pytest.raises(BudgetError, match=r"needs 40,000,000 bytes, over the budget of 1,048,576 bytes \(8 × 0 bytes"):
        budget.ask(400 * len(ip), "the same claim, made by nobody's table")
    write_mapping(tmp_path / "m.csv", KIND, DIALECT, cols)
    assert inputs.handed_bytes() == 0 and budget.limit() == 2**20
    table = read_table(tmp_path / "m.csv")
    assert table.summary()["rows"] == 100_000 and np.array_equal(table.columns["ip_offset"], ip)  # type: ignore[union-attr]
    assert inputs.current().input_bytes == (tmp_path / "m.csv").stat().st_size == 3_707_527
    data = (tmp_path / "m.csv").read_bytes()
    assert np.array_equal(read_table(data).columns["logical_offset"], cols["logical_offset"])  # type: ignore[union-attr]


@full
def test_a_million_row_table_is_written_and_read_with_no_budget_setting(tmp_path: Path) -> None:
    """Issue 47's case at its size (the whole run: BINPARSE_FULL=1): 1,000,000 rows built in Python."""
    cols, ip = _columns(1000)
    write_mapping(tmp_path / "m.csv", KIND, DIALECT, cols)
    assert (tmp_path / "m.csv").stat().st_size == 40_736_027
    table = read_table(tmp_path / "m.csv")
    assert table.summary()["rows"] == 1_000_000 and np.array_equal(table.columns["ip_offset"], ip)  # type: ignore[union-attr]


def test_a_buffer_the_caller_passed_is_the_input_of_its_reader() -> None:
    """binparse.open(bytes) sizes the budget of what it reads on those bytes, as on a file of that size."""
    data = (FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin").read_bytes()
    assert binparse.open(data).num_input_buf == 2
    assert budget.limit() == 8 * 37_256 + budget.ALLOWANCE


def test_a_hostile_buffer_or_file_still_meets_the_budget(tmp_path: Path) -> None:
    """A 120 KB model whose graph expands to 20 GB: refused from bytes and from a path alike, with the
    hint in Python's terms; handing a writer a big table first does not lend its budget to a later read."""
    data = shared_vector_model()
    (tmp_path / "v.espdl").write_bytes(data)
    cols, _ = _columns(20)
    write_mapping(tmp_path / "m.csv", KIND, DIALECT, cols)
    for source in (data, tmp_path / "v.espdl"):
        with pytest.raises(BudgetError) as e:
            binparse.open(source).models[0].graph
        assert "needs 20,481,024,000 bytes, over the budget of " in e.value.message
        assert e.value.hint == ("if the file really is that large, raise the budget: with binparse.budget(SIZE): "
                                "(e.g. '4GiB'), binparse.set_budget(SIZE) or BINPARSE_BUDGET")
    assert budget.limit() == 8 * len(data) + budget.ALLOWANCE  # what was written is no input


def test_binparse_budget_sets_the_budget_of_a_block_and_set_budget_of_the_process() -> None:
    rule = budget.limit()
    with binparse.budget("64KiB"):
        assert budget.limit() == 65_536 and budget.describe() == "set by binparse.budget"
        with pytest.raises(BudgetError, match=r"over the budget of 65,536 bytes \(set by binparse.budget\)"):
            budget.ask(65_537, "a table")
        with binparse.budget(None):  # the rule again, inside
            assert budget.limit() == rule
    assert budget.limit() == rule
    binparse.set_budget(3 * 2**30)
    assert budget.limit() == 3 * 2**30 and budget.describe() == "set by binparse.set_budget"
    with binparse.budget(1000):  # a block wins over the process's setting
        assert budget.limit() == 1000
    with inputs.command(limit=5000):  # and a command's --budget over both
        assert budget.limit() == 5000 and budget.describe() == "set by --budget"
    binparse.set_budget(None)
    assert budget.limit() == rule


def test_a_budget_that_is_no_size_is_a_binparse_error() -> None:
    for bad in ("4 parsecs", -1, 2.5, True, "-3MiB"):
        with pytest.raises(BinparseError) as e:
            binparse.set_budget(bad)  # type: ignore[arg-type]
        assert e.value.message.startswith("budget: "), e.value.message
    with pytest.raises(BinparseError):
        with binparse.budget("lots"):
            pass
    assert budget.limit() == budget.ALLOWANCE  # nothing was set


def test_the_environment_variable_is_below_what_python_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(budget.ENV, "1GiB")
    assert budget.limit() == 2**30 and budget.describe() == f"set by {budget.ENV}"
    with binparse.budget("2GiB"):
        assert budget.limit() == 2 * 2**30
    assert os.environ[budget.ENV] == "1GiB"


def test_a_zlib_bomb_stops_at_the_budget_and_frees_what_it_made() -> None:
    """`process: zlib` inflates 1 MiB a step, each asked first; what it made before a refusal is freed when the
    error is raised, not when the error is (the budget keeps what it refused: inspect read such a field twice
    and held 2 × the budget)."""
    import zlib

    from binparse.engine.runtime.stream import INFLATE, inflate
    assert bytes(inflate(memoryview(zlib.compress(b"abc" * 1000)), None, "s.body")) == b"abc" * 1000
    bomb = memoryview(zlib.compress(bytes(64 * INFLATE), 9))
    with binparse.budget("8MiB"), pytest.raises(BudgetError) as e:
        inflate(bomb, None, "s.body")
    assert str(e.value).startswith("s.body: the zlib-decompressed bytes of s.body needs 9,437,184 bytes, over the budget "
                                   "of 8,388,608 bytes (set by binparse.budget): refused before it was made. ")
    tb = e.value.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_name != "inflate":
        tb = tb.tb_next
    assert tb is not None and tb.tb_frame.f_locals["out"] == bytearray()
