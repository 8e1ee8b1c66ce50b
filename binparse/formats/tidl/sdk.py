"""`binparse doctor`: which TIDL SDK made a folder, named from the strongest evidence in it, with which.

Each file that says something of its SDK gives the releases it allows, strongest first:
- a J7 net's netVersion (the firmware refuses any other: "Network version ..., Expected version ..."):
  the one SDK of that netVersion (`net/versions.py`), also for a net read with its nearest layout;
- an io descriptor's size (TIDL-RT refuses any other size): the releases of that layout (08.x; 09.00-09.01;
  09.02; 10.00-11.01, or -11.02 for the 4-core size). A size solved by the struct rule names a field
  list, not an SDK: no evidence;
- the run's record: param.yaml's tools `version` (edgeai-benchmark writes it), or a record written by
  edgeai-tidlrunner, whose setup installs tidl_tools 11.0 to 11.2 (`setup_runner_pc.sh`);
- TI's netLog: 4 dims per tensor (N,C,H,W) in the 8.x and 9.0/9.1 printouts, 6 (N,D1,D2,C,H,W) from 9.1
  on (inferred from TI's printouts: 8.2, 9.0 and 9.1 on TDA4VM and AM62A print 4, 9.1 on AM68A, 10.00 and
  11.1 print 6).
When two or more agree, one `ok` line names the SDK they leave and which evidence (the strongest first);
when they cannot all hold, a `note` gives every side (a record or a printout is not a runtime: nothing
is proven wrong). A net and an io of different SDKs are the pair check's problem (`doctor.py`), not
repeated here. A param.yaml's artifacts folder (`artifacts_folder`) is read with it.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...family import opening
from ...core.errors import BinparseError
from ...family import FileReport, Finding, register_check
from ...core.paths import files_in
from ...family.registry import format_of
from .net.versions import BY_VALUE
from .printouts.files import Printout
from .records.folder import artifacts_folder
from .records.read import TIDLRUNNER, Record

Release = tuple[int, int]
RELEASES: tuple[Release, ...] = ((8, 0), (8, 1), (8, 2), (8, 4), (8, 5), (8, 6), (9, 0), (9, 1), (9, 2), (10, 0),
                                 (10, 1), (11, 0), (11, 1), (11, 2))


def span(first: Release, last: Release) -> frozenset[Release]:
    return frozenset(r for r in RELEASES if first <= r <= last)


IO_RELEASES = {"tidl.io.j7_08": span((8, 0), (8, 6)), "tidl.io.j7_09_00": span((9, 0), (9, 1)),
               **{f"tidl.io.j7_09_02.c{c}": span((9, 2), (9, 2)) for c in (1, 2, 4)},
               "tidl.io.j7_10.c1": span((10, 0), (11, 1)), "tidl.io.j7_10.c2": span((10, 0), (11, 1)),
               "tidl.io.j7_10.c4": span((10, 0), (11, 2))}
NETLOG_RELEASES = {4: span((8, 0), (9, 1)), 6: span((9, 1), (11, 2))}
TIDLRUNNER_RELEASES = span((11, 0), (11, 2))


def releases_in(text: str) -> frozenset[Release]:
    """The releases a version text names: "9.1.0" -> 9.1, "9.0/9.1" -> both, "08.06" -> 8.6."""
    return frozenset((int(a), int(b)) for a, b in re.findall(r"(\d+)[._](\d+)", text)) & frozenset(RELEASES)


def label(rs: frozenset[Release]) -> str:
    """"9.1", "9.0/9.1", "10.0-11.1"."""
    ordered = sorted(rs)
    names = [f"{a}.{b}" for a, b in ordered]
    if len(names) <= 2:
        return "/".join(names)
    return f"{names[0]}-{names[-1]}"


@dataclass(frozen=True)
class Evidence:
    strength: int  # 3 netVersion, 2 io size, 1 a record, 0 a printout's form
    file: str
    what: str  # what of the file says it: "netVersion 0x20211201", "size 37,256 bytes", ...
    releases: frozenset[Release]


def _says(group: list[Evidence]) -> str:
    """"A (what) says 8.2", or for files that say the same the same way, "A, B (what) say 8.2"."""
    e = group[0]
    return f"{', '.join(x.file for x in group)} ({e.what}) say{'s' if len(group) == 1 else ''} {label(e.releases)}"


def _of_net(name: str, net: Any) -> Evidence | None:
    known = BY_VALUE.get(int(getattr(net, "net_version", 0) or 0))
    rs = releases_in(known.sdk) if known else frozenset()
    return Evidence(3, name, f"netVersion {known.hex}", rs) if known and rs else None


def _of_io(name: str, fmt: str, size: int) -> Evidence | None:
    rs = IO_RELEASES.get(fmt)
    return Evidence(2, name, f"{size:,} bytes", rs) if rs else None


def _of_record(name: str, record: Record) -> Evidence | None:
    version = str(record.values.get("tools version") or "")
    if releases_in(version):
        return Evidence(1, name, f"version {version}", releases_in(version))
    if record.writer == TIDLRUNNER:
        return Evidence(1, name, "written by edgeai-tidlrunner, whose setup installs tidl_tools 11.0-11.2",
                        TIDLRUNNER_RELEASES)
    return None


def _of_netlog(name: str, printout: Printout) -> Evidence | None:
    dims = {len(r.out_nchw) for r in printout.rows}
    if len(dims) != 1 or next(iter(dims)) not in NETLOG_RELEASES:
        return None
    n = next(iter(dims))
    return Evidence(0, name, f"{n} dims a tensor", NETLOG_RELEASES[n])


def _of_report(r: FileReport) -> Evidence | None:
    if r.obj is None:
        return None
    if r.format.startswith("tidl.net.j7"):
        return _of_net(r.name, r.obj)
    if r.format.startswith("tidl.io.j7"):
        return _of_io(r.name, r.format, int(r.obj._mv.nbytes))  # the accessor's view of the whole file
    if isinstance(r.obj, Record) and r.obj.kind == "param.yaml record":
        return _of_record(r.name, r.obj)
    if isinstance(r.obj, Printout) and r.obj.kind == "netLog":
        return _of_netlog(r.name, r.obj)
    return None


def _of_artifacts(folder: Path, names: set[str]) -> list[Evidence]:
    """The evidence in the artifacts folder a param.yaml names (read here with it, as the record's)."""
    where = artifacts_folder(folder)
    if where is None or where.resolve() == folder.resolve():
        return []
    found: list[Evidence] = []
    rel = where.relative_to(folder).as_posix()
    for sub in (where, where / "tempDir"):
        if not sub.is_dir() or sub.is_symlink():
            continue
        for p in sorted(files_in(sub, folder)):  # regular files only, no link out of the folder given
            name = f"{rel}/{p.relative_to(where).as_posix()}"
            if name in names:
                continue
            try:
                with warnings.catch_warnings():  # a layout not verified is said by the doctor of that folder
                    warnings.simplefilter("ignore")
                    e = _of_file(name, p)
            except (BinparseError, OSError, ValueError):
                continue  # doctor of that folder says why
            if e is not None:
                found.append(e)
    return found


def _of_file(name: str, p: Path) -> Evidence | None:
    if p.name.endswith("_netLog.txt"):
        return _of_netlog(name, Printout.read(p))
    if not p.name.endswith(("_tidl_io_1.bin", "_tidl_net.bin")):
        return None
    obj = opening.open(p)
    fmt = _format(obj)
    if fmt.startswith("tidl.net.j7"):
        return _of_net(name, obj)
    return _of_io(name, fmt, p.stat().st_size) if fmt.startswith("tidl.io.j7") else None


def _format(obj: Any) -> str:
    try:
        return format_of(obj).name
    except (BinparseError, KeyError, TypeError, AttributeError):
        return ""  # not an accessor of a registered format (a combined net, a record)


def _paired(a: Evidence, b: Evidence) -> bool:
    """An io and a net of one import (their names share the subgraph prefix): the pair check's to judge."""
    kinds = {a.strength, b.strength}
    if kinds != {2, 3}:
        return False
    prefix = {e.file.rsplit("_tidl_", 1)[0] for e in (a, b)}
    return len(prefix) == 1


def sdk_findings(evidence: list[Evidence]) -> list[Finding]:
    """One line on which SDK made the folder: ok when the evidence agrees, a note with every side when not."""
    seen: set[tuple[int, frozenset[Release], str]] = set()
    unique = []
    for e in sorted(evidence, key=lambda e: (-e.strength, e.file.count("/"), e.file)):
        key = (e.strength, e.releases, e.file.rsplit("/", 1)[-1])
        if key not in seen:  # TI's tempDir/ holds copies of the io and net: one piece of evidence, said once
            seen.add(key)
            unique.append(e)
    evidence = unique
    if len(evidence) < 2:
        return []
    files = sorted({e.file for e in evidence})
    common = frozenset(RELEASES)
    for e in evidence:
        common &= e.releases
    groups: dict[tuple[int, str, frozenset[Release]], list[Evidence]] = {}
    for e in evidence:
        groups.setdefault((e.strength, e.what, e.releases), []).append(e)
    said = [_says(g) for g in groups.values()]
    if common:
        return [Finding("ok", f"made by TIDL {label(common)}: {said[0]} (the strongest)"
                              + "".join(f", {x}" for x in said[1:]), files)]
    clashes = [(a, b) for i, a in enumerate(evidence) for b in evidence[i + 1:]
               if not a.releases & b.releases and not _paired(a, b)]
    if not clashes:
        return []
    return [Finding("note", f"its files disagree on the SDK that made this folder: {'; '.join(said)}; the strongest "
                            f"is {evidence[0].file}'s {evidence[0].what}", files)]


@register_check
def check_sdk(reports: list[FileReport], folder: Path) -> list[Finding]:
    evidence = [e for e in map(_of_report, reports) if e is not None]
    if any(isinstance(r.obj, Record) and r.obj.kind == "param.yaml record" for r in reports):
        evidence += _of_artifacts(folder, {r.name for r in reports})
    return sdk_findings(evidence)


__all__ = ["Evidence", "RELEASES", "check_sdk", "label", "releases_in", "sdk_findings"]
