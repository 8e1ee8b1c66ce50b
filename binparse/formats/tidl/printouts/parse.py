"""TI's text printouts beside a J7 TIDL network, read into plain rows.

The TIDL import tool writes, next to `<name>_tidl_net.bin`:

- `<name>_tidl_net.bin_netLog.txt`: "Num of Layer Detected : N", a header line, then one
  `|`-separated row per layer: Num, TIDL layer type, out data name (the last 50 characters of a
  longer name), group, #Ins, #Outs, 8 in-buffer ids (`x` = none), out-buffer id, In NCHW, Out
  NCHW, MACS. The dims columns hold 4 values (N, C, H, W: 8.x, 9.0) or 6 (N, D1, D2, C, H, W:
  the 9.1 AM68A and every 10.x log), whatever the header calls them. Columns are found by the
  header line, so a column a later SDK adds is kept (`NetLogRow.extra`), not misread.
- `<name>_tidl_net.bin.layer_info.txt`: "layer index, out dataId, data name" per layer (the
  graph's output data layer repeats dataId 0 and its name, since it writes nothing).
- `<name>_tidl_net.bin_paramDebug.csv`: per quantised layer (one row per parameter tensor)
  the float-vs-quantised statistics and a histogram.

The readers check what they read (count line, column counts, numbers) and raise `FormatError`
naming the file and line; they compare nothing: `doctor.py` holds the comparisons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import os
import re
from dataclasses import dataclass
from typing import Any
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ....core import csv_rows
from ....core.errors import FormatError
from ....core.text import integer

NETLOG_NAME_WIDTH = 50  # TI prints `%-50s` of the name's last 50 characters


@dataclass(frozen=True)
class NetLogRow:
    """One layer of a `*_netLog.txt` (numbers as TI printed them)."""

    index: int
    layer_type: str  # e.g. "TIDL_ConvolutionLayer"
    out_name: str  # the last 50 characters when the name is longer
    group: int
    num_in: int
    num_out: int
    in_ids: tuple[int, ...]  # the used in-buffer ids (TI prints `x` for the rest)
    out_id: int
    in_nchw: tuple[int, ...]  # as printed: N,C,H,W (4 values) or N,D1,D2,C,H,W (6 values)
    out_nchw: tuple[int, ...]
    macs: int
    extra: tuple[tuple[str, str], ...] = ()  # columns this reader does not know: (header, text)

    def name_matches(self, full: str) -> bool:
        """True when `full` is the name this row shows (ends with it when TI cut it)."""
        if len(self.out_name) >= NETLOG_NAME_WIDTH:
            return full.endswith(self.out_name)
        return full == self.out_name


@dataclass(frozen=True)
class LayerInfoRow:
    """One line of a `*.layer_info.txt`."""

    index: int
    data_id: int
    name: str


@dataclass(frozen=True)
class ParamDebugRow:
    """One row of a `*_paramDebug.csv`: float-vs-quantised statistics of one parameter tensor."""

    layer_id: int
    mean_difference: float
    max_difference: float
    mean_orig_float: float
    mean_rel_difference: float
    org_max: float
    quantized_max: float
    org_at_max_diff: float
    quantized_at_max_diff: float
    max_rel_difference: float
    scale: float
    hist: NDArray[np.int64]
    extra: tuple[tuple[str, str], ...] = ()  # named columns this reader does not know: (header, text)


def _lines(path: str | os.PathLike[str]) -> list[str]:
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise FormatError(f"cannot read the printout: {exc.strerror}", file=str(p)) from None


def _int(text: str, file: str, line: int, what: str) -> int:
    try:
        return integer(text)
    except ValueError:
        raise FormatError(f"not a number in {what}", file=file, path=f"line {line}", expected="an integer",
                          found=text.strip()) from None


def _ints(text: str, file: str, line: int, what: str, count: int | None = None) -> tuple[int, ...]:
    vals = tuple(_int(v, file, line, what) for v in text.split() if v != "x")
    if count is not None and len(vals) != count:
        raise FormatError(f"wrong number of values in {what}", file=file, path=f"line {line}",
                          expected=count, found=len(vals))
    return vals


def _dims(text: str, file: str, line: int, what: str) -> tuple[int, ...]:
    """A dims cell: 4 values (N,C,H,W) or 6 (N,D1,D2,C,H,W)."""
    vals = _ints(text, file, line, what)
    if len(vals) not in (4, 6):
        raise FormatError(f"wrong number of values in {what}", file=file, path=f"line {line}",
                          expected="4 (N,C,H,W) or 6 (N,D1,D2,C,H,W)", found=len(vals))
    return vals


def common_dims(a: Sequence[int], b: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The dims two shapes both carry, in order: all of them when both print as many; else N and
    the last three (C, H, W), since a 4-value shape carries no D1, D2."""
    if len(a) == len(b):
        return tuple(a), tuple(b)
    return (a[0], *a[-3:]), (b[0], *b[-3:])


#: the netLog columns after the name (TI's header text; a log without a header line has these)
NETLOG_COLUMNS = ("Group", "#Ins", "#Outs", "Inbuf Ids", "Outbuf Id", "In NCHW", "Out NCHW", "MACS")


_COUNT = re.compile(r"^\s*Num of Layer Detected\s*:\s*(\d+)")
_ROW = re.compile(r"^\s*\d+\|")
_HEADER = re.compile(r"^\s*Num\s*\|")


def _after_name(lines: list[str]) -> list[str]:
    """The header's column names after "Out Data Name" (NETLOG_COLUMNS when there is no header)."""
    for text in lines:
        if _HEADER.match(text):
            cells = [c.strip() for c in text.split("|")]
            while cells and not cells[-1]:
                cells.pop()
            return cells[3:]
    return list(NETLOG_COLUMNS)


def _column(names: list[str], *wanted: str) -> int:
    for i, n in enumerate(names):
        if any(n.lower().startswith(w.lower()) for w in wanted):
            return i
    return -1


def read_netlog(path: str | os.PathLike[str]) -> list[NetLogRow]:
    """The layer rows of TI's `*_netLog.txt`, checked against its "Num of Layer Detected" line."""
    file = str(path)
    lines = _lines(path)
    declared = next((_int(m.group(1), file, 0, "Num of Layer Detected") for m in map(_COUNT.match, lines) if m), None)
    if declared is None:
        raise FormatError("not a TIDL netLog", file=file, expected="a 'Num of Layer Detected : N' line",
                          found=(lines[0][:60] if lines else "an empty file"))
    after = _after_name(lines)
    cols = {key: _column(after, *w) for key, w in (
        ("group", ("Group",)), ("num_in", ("#Ins",)), ("num_out", ("#Outs",)), ("in_ids", ("Inbuf",)),
        ("out_id", ("Outbuf",)), ("in", ("In ",)), ("out", ("Out ",)), ("macs", ("MACS",)))}
    missing = [k for k, i in cols.items() if i < 0]
    if missing:
        raise FormatError("netLog header lacks columns this reader needs", file=file, expected=list(NETLOG_COLUMNS),
                          found=after)
    known = set(cols.values())
    rows: list[NetLogRow] = []
    for n, text in enumerate(lines, 1):
        if not _ROW.match(text):
            continue
        f = text.split("|")
        if f and not f[-1].strip():
            f.pop()  # the row's closing '|'
        if len(f) < 3 + len(after):
            raise FormatError("netLog row has too few columns", file=file, path=f"line {n}",
                              expected=3 + len(after), found=len(f))
        head, tail = f[:2], f[len(f) - len(after):]  # the name (3rd column) may itself hold '|'
        name = "|".join(f[2:len(f) - len(after)]).rstrip()
        num_in = _int(tail[cols["num_in"]], file, n, "#Ins")
        in_ids = _ints(tail[cols["in_ids"]], file, n, "Inbuf Ids")
        if len(in_ids) != max(num_in, 0):
            raise FormatError("netLog row lists another number of in-buffers than #Ins", file=file,
                              path=f"line {n}", expected=max(num_in, 0), found=len(in_ids))
        rows.append(NetLogRow(
            index=_int(head[0], file, n, "Num"), layer_type=head[1].strip(), out_name=name,
            group=_int(tail[cols["group"]], file, n, "Group"), num_in=num_in,
            num_out=_int(tail[cols["num_out"]], file, n, "#Outs"), in_ids=in_ids,
            out_id=_int(tail[cols["out_id"]], file, n, "Outbuf Id"),
            in_nchw=_dims(tail[cols["in"]], file, n, after[cols["in"]]),
            out_nchw=_dims(tail[cols["out"]], file, n, after[cols["out"]]),
            macs=_int(tail[cols["macs"]], file, n, "MACS"),
            extra=tuple((after[i], tail[i].strip()) for i in range(len(after)) if i not in known)))
    if len(rows) != declared:
        raise FormatError("netLog has another number of rows than it declares", file=file,
                          expected=f"{declared} (Num of Layer Detected)", found=len(rows),
                          hint="the printout may be cut short")
    return rows


def read_layer_info(path: str | os.PathLike[str]) -> list[LayerInfoRow]:
    """The rows of TI's `*.layer_info.txt` ("index dataId name" per line)."""
    file = str(path)
    rows: list[LayerInfoRow] = []
    for n, text in enumerate(_lines(path), 1):
        if not text.strip():
            continue
        parts = text.strip().split(maxsplit=2)
        if len(parts) < 2:
            raise FormatError("layer_info line needs 'index dataId name'", file=file, path=f"line {n}",
                              found=text[:60])
        rows.append(LayerInfoRow(_int(parts[0], file, n, "layer index"), _int(parts[1], file, n, "dataId"),
                                 parts[2] if len(parts) > 2 else ""))
    return rows


_PARAM_COLUMNS = 11  # LayerId and the 10 statistics, before the empty columns and the histogram


def read_param_debug(path: str | os.PathLike[str]) -> list[ParamDebugRow]:
    """The rows of TI's `*_paramDebug.csv`. The header names the columns: LayerId and the 10
    statistics first, then (a later SDK may add some) other named columns, kept in `extra`, then
    blank ones and "Hist", where the histogram starts."""
    file = str(path)
    lines = _lines(path)
    if not lines or not lines[0].replace(" ", "").startswith("LayerId,meanDifference"):
        raise FormatError("not a TIDL paramDebug.csv", file=file, expected="a 'LayerId , meanDifference, ...' header",
                          found=(lines[0][:60] if lines else "an empty file"))
    header = [c.strip() for c in next(csv_rows.rows(lines[:1], file=file))]
    hist_at = next((i for i, c in enumerate(header) if c.lower() == "hist"), _PARAM_COLUMNS)
    named = [(i, c) for i, c in enumerate(header[_PARAM_COLUMNS:hist_at], _PARAM_COLUMNS) if c]
    rows: list[ParamDebugRow] = []
    for n, f in enumerate(csv_rows.rows(lines[1:], file=file, first_line=2), 2):
        if not f:
            continue
        if len(f) < _PARAM_COLUMNS:
            raise FormatError("paramDebug row has too few columns", file=file, path=f"line {n}",
                              expected=f">= {_PARAM_COLUMNS}", found=len(f))
        try:
            stats = [float(v) for v in f[1:_PARAM_COLUMNS]]
            hist = np.array([v for v in f[min(hist_at, len(f)):] if v.strip()], dtype=np.int64)
        except ValueError as exc:
            raise FormatError("not a number in a paramDebug row", file=file, path=f"line {n}",
                              found=str(exc)) from None
        extra = tuple((c, f[i].strip()) for i, c in named if i < len(f))
        rows.append(ParamDebugRow(_int(f[0], file, n, "LayerId"), stats[0], stats[1], stats[2], stats[3], stats[4],
                                  stats[5], stats[6], stats[7], stats[8], stats[9], hist, extra))
    return rows


#: the printouts TI's import tool writes beside `<net>`: file-name suffix → (kind, reader)
PRINTOUTS: dict[str, tuple[str, Callable[[str | os.PathLike[str]], Sequence[Any]]]] = {
    "_netLog.txt": ("netLog", read_netlog),
    ".layer_info.txt": ("layer_info", read_layer_info),
    "_paramDebug.csv": ("paramDebug", read_param_debug),
}

__all__ = ["NETLOG_COLUMNS", "PRINTOUTS", "LayerInfoRow", "common_dims", "NetLogRow", "ParamDebugRow", "read_layer_info", "read_netlog",
           "read_param_debug"]
