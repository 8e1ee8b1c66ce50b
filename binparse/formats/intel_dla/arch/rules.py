"""The checks of an .arch file, each declared with the evidence that decides its verdict.

Three kinds of evidence, three verdicts (docs/intel-ip.md, "What doctor calls a problem"):

- `absurd` (a problem): a value past `BOUNDS`, far beyond every range Intel documents and every
  device's resources: no IP can be built from it, and binparse refuses to lay a buffer out from it
  (`view`/`pack`/`draw --arch`) instead of allocating what it implies.
- `contradiction` (a problem): the file contradicts itself or the hardware's structure: an
  auxiliary module whose two k_vector settings differ, a k_vector that is not a multiple of
  c_vector (the IP divides them: `dla_dma_param.svh` declares KVEC_OVER_CVEC as an integer).
- `manual` (a note): outside the IP Reference Manual's (768974) wording of the legal values.
  Intel does not publish which of these dla_compiler/dla_create_ip enforce, and where real builds
  show the tools accepting a value the manual words away (`WORDING_EVIDENCE`), the wording is
  proven not to be a check. The doctor cites, beside each such note, any build of the .arch
  found in its folder.
"""

from __future__ import annotations

from typing import Any

ArchFile = Any  # an arch.file.ArchFile (not imported: file.py imports this module)

MANUAL = "IP Reference Manual (768974)"
C_VECTORS = (4, 8, 16, 32, 64)
LANES = (1, 2, 4)
POOL_K_VECTORS = (1, 2, 4, 8, 16, 32, 64)
DEPTHWISE_K_VECTORS = (16, 32, 64)

# dotted path -> the largest value any IP could be built with. The manual's ranges stop at 128
# (k_vector), 64 (c_vector), 4 (lanes), 4096 (softmax channels); the largest Agilex 7 holds about
# 13,000 M20K blocks (~265 Mbit) and 13,000 DSPs: 4096 lanes of a vector, 2^24 words of a memory
# or 2^16-bit buses are past any device. binparse's own allocations from an .arch are bounded by these.
BOUNDS: dict[str, int] = {
    "k_vector": 4096, "c_vector": 4096, "num_lanes": 64,
    "stream_buffer_depth": 1 << 24, "output_channels_max": 1 << 24,
    "filter_size_width_max": 1 << 16, "filter_size_height_max": 1 << 16,
    "output_image_width_max": 1 << 20, "output_image_height_max": 1 << 20,
    "filter_scratchpad.filter_depth": 1 << 24, "filter_scratchpad.bias_scale_depth": 1 << 24,
    "pe_array.num_interleaved_features": 1 << 16, "pe_array.num_interleaved_filters": 1 << 16,
    "pe_array.exit_fifo_depth": 1 << 24, "xbar.xbar_k_vector": 4096,
    "input_stream_interface.data_width": 1 << 16, "input_stream_interface.fifo_depth": 1 << 24,
    "output_stream_interface.data_width": 1 << 16, "output_stream_interface.fifo_depth": 1 << 24,
    "lightweight_layout_transform_params.channels": 4096,
    "lightweight_layout_transform_params.input_bus_width": 1 << 16,
    "config_network.config_cache_depth": 1 << 24,
}

# rule -> what real builds show of it (the manual's wording that Intel's tools do not enforce)
WORDING_EVIDENCE = {
    "stream_2n": "Intel's tools built IP from input_stream_interface data_width 96 and output_stream_interface "
                 "fifo_depth 3072 (fpga-professional-association/agilex_3_ai_benchmarks: resnet8_agx3_logits.arch, "
                 "AGX3_Ddrfree.arch), so this wording is not a check they make",
}

Check = tuple[str, str, str]  # (kind: absurd | contradiction | manual, text, rule)


def absurd(arch: ArchFile) -> list[Check]:
    out: list[Check] = []
    for path, bound in BOUNDS.items():
        v = arch.get(path)
        if isinstance(v, int) and not isinstance(v, bool) and (v > bound or v < 0):
            out.append(("absurd", f"{path} {v} is impossible: no FPGA AI Suite IP can be built with more than "
                                  f"{bound:,} (or a negative value)", "bounds"))
    for label, w in arch.aux_k_vectors().items():
        if w > BOUNDS["k_vector"] or w < 0:
            out.append(("absurd", f"{label} k_vector {w} is impossible (more than {BOUNDS['k_vector']:,})", "bounds"))
    return out


def contradictions(arch: ArchFile) -> list[Check]:
    out: list[Check] = []
    k, c = arch.k_vector, arch.c_vector
    if k is not None and c is not None and c > 0 and k % c:
        out.append(("contradiction", f"k_vector {k} is not a multiple of c_vector {c} (the IP divides them: "
                                     "dla_dma_param.svh declares KVEC_OVER_CVEC an integer; "
                                     f"{MANUAL}, global parameters)", "k_multiple_of_c"))
    for label, msg in arch._aux_groups():
        gap = msg.generic_aux_parameters
        if msg.HasField("k_vector") and msg.HasField("generic_aux_parameters") and gap.HasField("k_vector") \
                and gap.k_vector != msg.k_vector:
            out.append(("contradiction", f"{label} sets k_vector {msg.k_vector} and generic_aux_parameters "
                                         f"k_vector {gap.k_vector}", "aux_twice"))
    return out


def manual(arch: ArchFile) -> list[Check]:
    """Values outside the manual's wording of the legal values (notes: no tool is known to refuse them)."""
    out: list[Check] = []
    k, c, m = arch.k_vector, arch.c_vector, arch.message

    def say(text: str, rule: str) -> None:
        out.append(("manual", text, rule))

    if c is not None and c not in C_VECTORS:
        say(f"c_vector {c} is not one of {list(C_VECTORS)} ({MANUAL}, global parameters)", "c_vector")
    if k is not None and not 1 <= k <= 128:
        say(f"k_vector {k} is outside [1, 128] ({MANUAL}, global parameters)", "k_vector")
    lanes = arch.get("num_lanes")
    if lanes is not None and lanes not in LANES:
        say(f"num_lanes {lanes} is not one of {list(LANES)} ({MANUAL}, global parameters)", "lanes")
    if lanes is not None and lanes > 1 and any(p.name == "softmax" for p in m.custom_aux_primitive):
        say(f"num_lanes {lanes} with a softmax module: the softmax module is not supported with lanes "
            f"({MANUAL}, num_lanes)", "lanes_softmax")
    widths = dict(arch.aux_k_vectors())
    if m.HasField("xbar") and m.xbar.HasField("xbar_k_vector"):
        widths["xbar"] = m.xbar.xbar_k_vector
    for label, w in widths.items():
        if k is not None and (w <= 0 or k % w):
            say(f"{label} k_vector {w} does not divide k_vector {k} ({MANUAL}, global parameters: k_vector must be "
                "divisible by the xbar and auxiliary k_vector values)", "aux_divides")
    pool_k = widths.get("pool")
    if pool_k is not None and pool_k not in POOL_K_VECTORS:
        say(f"pool k_vector {pool_k} is not one of {list(POOL_K_VECTORS)} ({MANUAL}, pool)", "pool_k")
    out += _depthwise(arch)
    for p in m.custom_aux_primitive:
        if p.HasField("max_num_channels") and not 1 <= p.max_num_channels <= 4096:
            say(f"custom_aux_primitive '{p.name}' max_num_channels {p.max_num_channels} is outside [1, 4096] "
                f"({MANUAL}, softmax)", "softmax_channels")
    lt = m.layout_transform_params
    if m.HasField("layout_transform_params") and lt.HasField("data_element_width") \
            and lt.data_element_width not in (8, 16):
        say(f"layout_transform_params data_element_width {lt.data_element_width} is not 8 or 16 "
            f"({MANUAL}, layout_transform_params)", "data_element_width")
    for g in ("input_stream_interface", "output_stream_interface"):
        s = getattr(m, g)
        for f in ("data_width", "fifo_depth"):
            if m.HasField(g) and s.HasField(f):
                v = getattr(s, f)
                if v < 16 or v & (v - 1):
                    say(f"{g} {f} {v} is not 2^n with n >= 4 as the manual words it ({MANUAL}, {g})", "stream_2n")
    return out


def _depthwise(arch: ArchFile) -> list[Check]:
    m, out = arch.message, list[Check]()
    if not m.HasField("depthwise"):
        return out
    d, k, c = m.depthwise, arch.k_vector, arch.c_vector
    if k is not None and c is not None and k != c:
        out.append(("manual", f"a depthwise module needs k_vector = c_vector, found {k} and {c} ({MANUAL}, global "
                              "parameters)", "depthwise_kc"))
    dk = arch.aux_k_vectors().get("depthwise")
    if dk is not None and dk not in DEPTHWISE_K_VECTORS:
        out.append(("manual", f"depthwise k_vector {dk} is not one of {list(DEPTHWISE_K_VECTORS)} ({MANUAL}, "
                              "depthwise)", "depthwise_k"))
    for names, legal in ((("max_window_height", "max_window_width"), (3, 5, 7)),
                         (("max_stride_vertical", "max_stride_horizontal"), (1, 2, 3, 4)),
                         (("max_dilation_vertical", "max_dilation_horizontal"), (1, 2, 3, 4, 5, 6))):
        for f in names:
            if d.HasField(f) and getattr(d, f) not in legal:
                out.append(("manual", f"depthwise {f} {getattr(d, f)} is not one of {list(legal)} ({MANUAL}, "
                                      "depthwise)", "depthwise_window"))
    return out


def checks(arch: ArchFile) -> list[Check]:
    return absurd(arch) + contradictions(arch) + manual(arch)


def evidence(rule: str) -> str:
    return WORDING_EVIDENCE.get(rule, "")


def first_absurd(arch: Any) -> str | None:
    """The first absurd value of an .arch, for the commands that lay buffers out from it."""
    found = absurd(arch)
    return found[0][1] if found else None


__all__ = ["BOUNDS", "MANUAL", "WORDING_EVIDENCE", "absurd", "checks", "contradictions", "evidence", "first_absurd",
           "manual"]
