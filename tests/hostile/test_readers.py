"""One generic hostile case per reader: every binary format binparse registers, every text format
a family's signs name, every folder reader. Inputs are generated from the bundled fixtures
(truncations, counts and dims set to extremes, corrupt bytes, absurd numbers and lines in text),
a reader's inputs batched in one capped subprocess that runs `inspect` (the format forced where the
fixture is of a sibling version) and `doctor` over them all. Each asserts: the only error is a
BinparseError's one line (exit 2), never a traceback; exit codes of the contract; peak RSS within
bound(largest input); the time limit."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from ..conftest import sample
from .generator import readers
from .harness import REPO, bound, run_python

FIX = REPO / "fixtures"
RNG_SEED = 20261124


def samples() -> dict[str, tuple[Path, str | None]]:
    """{reader: (a fixture it reads, the --format to force or None)}: the smallest fixture of each
    (`generator.readers`: every registered format and every object a sniffer opens)."""
    return {k: (v.path, v.format) for k, v in readers(fixtures_only=True).items()}


def text_signs() -> list[tuple[str, str]]:
    """(family kind, a file name) of every text format a family's signs name."""
    from binparse.family.plugins import signs
    out = {}
    for s in signs():
        if not s.binary:
            for pattern in s.names:
                out.setdefault(f"{s.family} {s.kind} {pattern}", pattern.replace("*", "m").replace("?", "m"))
    return sorted(out.items())


def binary_mutations(data: bytes) -> list[bytes]:
    rng = np.random.default_rng(RNG_SEED)
    out = [b"", data[:1], data[: len(data) // 2], data[:-1], data + bytes(64)]
    for k in range(0, min(len(data) // 4, 96), 6):  # a count, dim, size or offset set to an extreme
        for value in (0xFFFFFFFF, 0x7FFFFFFF, 0x10000000):
            b = bytearray(data)
            b[4 * k: 4 * k + 4] = value.to_bytes(4, "little")
            out.append(bytes(b))
    for _ in range(4):  # corrupt bytes
        b = bytearray(data)
        for pos in rng.integers(0, max(len(b), 1), size=8):
            if b:
                b[pos] ^= 0xFF
        out.append(bytes(b))
    return out


def text_mutations(data: bytes) -> list[bytes]:
    import re
    text = data.decode("utf-8", "replace")
    return [b"", data[: len(data) // 2], data + b"\x00\xff\xfe",
            re.sub(r"\d+", "99999999999999999999", text).encode(),
            re.sub(r"\d+", "-7", text).encode(),
            text.replace(",", ",,,,").replace(":", "").encode(),
            data + b"\n" + b"9," * 100_000 + b"\n",
            b"{" * 5000 + b"\n" + data]


CHILD = """
import contextlib, io, json, sys, warnings
warnings.simplefilter("ignore")
from binparse.cli import main
codes = []
for args in json.loads(sys.argv[1] if len(sys.argv) > 1 else {args!r}):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            codes.append(main(args))
        except SystemExit as exc:
            codes.append(exc.code)
print("CODES " + json.dumps(codes))
"""


def run_batch(argv: list[list[str]], largest: int, timeout: float = 120) -> list[int]:
    r = run_python(CHILD.format(args=json.dumps(argv)), timeout=timeout)
    assert not r.killed, f"time limit: {r.seconds:.0f} s"
    assert r.returncode == 0, r.stderr[-3000:]  # a traceback is a failure: only BinparseErrors end a command
    assert "binparse failed (" not in r.stderr, r.stderr[-3000:]  # nor a bug caught at the top
    assert all(line.startswith(("binparse: error: ", "binparse: warning: ")) for line in r.stderr.splitlines()), \
        r.stderr[-2000:]
    assert r.peak_rss <= bound(largest), (r.peak_rss, bound(largest))
    return list(json.loads(r.stdout.rsplit("CODES ", 1)[1]))


def test_every_registered_format_has_a_case() -> None:
    from binparse.family import registry
    missing = sorted(f.name for f in registry.registered() if f.name not in samples())
    assert missing == []


# a third of the readers and text formats in the default run, every one in the whole run (BINPARSE_FULL=1):
# tests/hostile/test_generated.py runs cases of every reader each time (CONTRIBUTING.md "Slow tests")
@pytest.mark.parametrize("reader", sample(sorted(samples()), 14, "readers"))
def test_reader_survives_generated_inputs(reader: str, tmp_path: Path) -> None:
    source, forced = samples()[reader]
    folder = tmp_path / "inputs"
    if source.is_dir():  # a folder reader: every file cut in half, its numbers absurd, empty, a FIFO
        inputs = []
        for k, mutate in enumerate((lambda d: d[: len(d) // 2], lambda d: text_mutations(d)[3], lambda d: b"")):
            copy = tmp_path / f"copy{k}"
            shutil.copytree(source, copy)
            for f in copy.iterdir():
                if f.is_file() and f.name not in ("spec.yaml",):
                    f.write_bytes(mutate(f.read_bytes()))
            inputs.append(copy)
        fifos = tmp_path / "fifos"  # every file a FIFO of the same name: a reader that opens one hangs
        fifos.mkdir()
        for f in source.iterdir():
            if f.is_file():
                os.mkfifo(fifos / f.name)
        inputs.append(fifos)
        links = tmp_path / "links"  # every file a link out of the folder, to a FIFO: following one hangs
        links.mkdir()
        os.mkfifo(tmp_path / "trap")
        for f in source.iterdir():
            if f.is_file():
                os.symlink(tmp_path / "trap", links / f.name)
        inputs.append(links)
        largest = sum(f.stat().st_size for f in source.iterdir() if f.is_file())
        argv = [["inspect", str(p)] for p in inputs] + [["doctor", str(p)] for p in inputs]
        if "Trace" in reader:
            argv += [["traces", str(p)] for p in inputs]
    else:
        folder.mkdir()
        data = source.read_bytes()
        binary = b"\x00" in data[:4096]
        muts = binary_mutations(data) if binary else text_mutations(data)
        paths = []
        for k, m in enumerate(muts):
            p = folder / f"{k:03d}_{source.name}"
            p.write_bytes(m)
            paths.append(p)
        largest = max(len(m) for m in muts)
        fmt = ["--format", forced] if forced else []
        argv = [["inspect", *fmt, str(p)] for p in paths] + [["doctor", str(folder)], ["doctor", "-r", str(tmp_path)]]
    codes = run_batch(argv, largest)
    if not source.is_dir() and binary:
        assert codes[0] == 2  # an empty file: read by no layout, exit 2
    allowed = {"inspect": {0, 2}, "doctor": {0, 1, 2}, "traces": {0, 2}}
    # a folder of FIFOs (or of links out to one) holds no file a reader may open: no family claims it, so `inspect` says it is a
    # folder, not a file (3, I/O), or a family that claims it finds nothing it reads (2)
    fifo_ok = {"inspect": {2, 3}, "traces": {2, 3}, "doctor": {2}}
    ok = [c in (fifo_ok if a[-1].endswith(("/fifos", "/links")) else allowed)[a[0]] for a, c in zip(argv, codes)]
    assert ok == [True] * len(argv), list(zip(argv, codes))


@pytest.mark.parametrize("sign, name", sample(text_signs(), 6, "text signs"))
def test_text_reader_survives_generated_inputs(sign: str, name: str, tmp_path: Path) -> None:
    """Every text format a family's signs name, fed lines no vendor tool writes."""
    lines = [b"", b"Num of Layer Detected : 99999999999\n", b"a,b,c\n" + b"1,2\n" * 1000,
             b"\"unclosed,quote\n1,2,3\n", b"key = \n = value\n" + b"x" * 200_000, b"\xff\xfe\x00garbage\n",
             b"{" * 5000, b"layer 1 : -99999999999999999999 dims 0x7fffffff\n"]
    paths = []
    for k, data in enumerate(lines):
        folder = tmp_path / f"f{k}"
        folder.mkdir()
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    argv = [["inspect", str(p)] for p in paths] + [["doctor", "-r", str(tmp_path)]]
    codes = run_batch(argv, max(map(len, lines)))
    assert [c in ({0, 2} if a[0] == "inspect" else {0, 1, 2}) for a, c in zip(argv, codes)] == [True] * len(argv), \
        list(zip(argv, codes))
