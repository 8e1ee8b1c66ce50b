"""Issue 37's hangs: each text reader whose regular expression backtracked over a long line (a lazy
value before optional spaces and a comment, or a bracket of anything scanned from every `[`) is
given such a line of 10^6 characters. Each command (`inspect`, `doctor`) ends within the 10-second
limit (they took minutes), with the contract's exit code and no bug path."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import REPO, run_cli, within

N = 10**6
GUARD = "#ifndef __FPGA_ARCH_GEN_H__\n#define __FPGA_ARCH_GEN_H__\n#define K_VECTOR 16\n"
CASES = {
    # name: (file name, text)
    ".svh parameter": ("dla_dma_param.svh", "  localparam int A = 1;\n  localparam int X = 1" + " " * N + "2; x\n"),
    "IP header #define": ("m_fpga_arch_instantiator.h", GUARD + "#define X a" + " " * N + "b c\n#endif\n"),
    "IP header CONSTANT": ("m_fpga_arch_instantiator.h", GUARD + "CONSTANT int X = 1" + " " * N + "; x\n#endif\n"),
    "layer-device shape": ("m_dla_layer_device.csv", "Node name,Device,Node Type (extra info),Input Shape (extra info),"
                           "Output Shape (extra info)\nc,FPGA,Convolution,[1 3 4 4],[" + " " * N + "x]\n"),
    ".arch list line": ("m.arch", "family: 'AGX7'\nk_vector: 16\nc_vector: 16\npe_array { num_lanes: ["
                        + "1, " * (N // 3) + "1] }\n"),
    ".info declaration": ("m.info", "graph g (\n  %x" + "[INT8, " * (N // 7) + "\n) initializers (\n) {\n}\n"),
    ".info value entry": ("m.info", "graph g (\n  %x[INT8, 1], exponents: [0]\n) initializers (\n) {\n}\n"
                          "test inputs value:\n%x" + ", shape: [" * (N // 10) + "\n"),
    "AM57x configuration": ("tidl_config_m.txt", "numFrames = 1\nnetBinFile = a" + " " * N + "b c\n"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_10_6_character_line_is_read_in_linear_time(case: str, tmp_path: Path) -> None:
    name, text = CASES[case]
    path = tmp_path / name
    path.write_text(text)
    for args, codes in ((("inspect", path), {0, 2}), (("doctor", tmp_path), {0, 1, 2})):
        r = run_cli(*args, timeout=10)
        assert not r.killed, (case, args, "past 10 s")
        assert r.returncode in codes and "binparse failed" not in r.stderr, (case, args, r.returncode, r.stderr[-500:])
        assert all(line.startswith("binparse: ") for line in r.stderr.splitlines()), r.stderr[-500:]
        assert len(r.stdout) + len(r.stderr) < 2 * len(text) + 65536  # at most the line itself, once
        assert within(r, path.stat().st_size), (case, args, r.peak_rss)
