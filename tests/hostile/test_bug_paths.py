"""Issue 37's bug paths on bad input ("binparse failed (...); please report it", two of them counted
as proven problems): each input now gets the contract's answer from `inspect` and `doctor` (exit 2:
not read, named), never the bug path, within the memory bound."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import run_cli, within

BOMB = "\n".join(["session: {target_device: AM68A}", "a: &a [x, x, x, x, x, x, x, x, x, x]"]
                 + [f"{chr(98 + k)}: &{chr(98 + k)} [" + ", ".join([f"*{chr(97 + k)}"] * 10) + "]" for k in range(8)])
CASES = {
    # name: (file name, bytes, what inspect says, inspect's exit code)
    "param.yaml whose version is a list": ("param.yaml", b"session:\n  version: [8, 2]\n  target_device: [AM68A]\n"
                                           b"  input_details: [{name: x, shape: x, type: [1]}]\nversion: [1]\n",
                                           "  tools version: [1]\n  inputs: x None\n", 0),
    "param.yaml of YAML aliases (a billion laughs)": ("param.yaml", BOMB.encode(), "with its aliases expanded needs", 2),
    "discovery ROM of 8-bit words": ("dla_dma_csr_discovery_rom.mif",
                                     b"WIDTH=8;\nDEPTH=4;\nCONTENT BEGIN\n0 : 41;\n1 : 42;\nEND;\n",
                                     "UNVERIFIED: a discovery ROM of 8-bit words", 2),
    ".build.json nested 100,000 deep": ("m.build.json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
                                        "nests deeper than 200 objects or lists", 2),
    ".build.json with a 5,000-digit integer": ("m.build.json", b'{"fmax_mhz": ' + b"9" * 5000 + b"}",
                                               "an integer of 5,000 digits (more than 100)", 2),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_gets_the_contracts_answer_not_the_bug_path(case: str, tmp_path: Path) -> None:
    name, data, said, code = CASES[case]
    path = tmp_path / name
    path.write_bytes(data)
    r = run_cli("inspect", path, timeout=30)
    assert r.returncode == code and "binparse failed" not in r.stderr, (r.returncode, r.stderr)
    assert said in r.stdout + r.stderr, r.stdout + r.stderr
    d = run_cli("doctor", tmp_path, timeout=30)
    assert d.returncode in (0, 2) and "binparse failed" not in d.stdout + d.stderr, (d.returncode, d.stdout)
    assert "[problem]" not in d.stdout  # what could not be read proves nothing
    assert within(r, len(data)) and within(d, len(data))
