"""The ESP-DL family's declaration: how its files look and its options (light: no imports)."""

from __future__ import annotations

import argparse

from ...family import Example, Family, FileKind, LayoutKind, Option, Signs, Usage

_LAYOUT = ("view", "pack", "draw")
_MAGICS = (b"EDL1", b"EDL2", b"PDL1", b"PDL2", b"PDL3")


def model_head(head: bytes) -> str | None:
    """Why the first bytes look like an .espdl file: an ESP-DL magic."""
    return f"magic {head[:4]!r}" if head[:3] in (b"EDL", b"PDL") else None


def info_head(head: bytes) -> str | None:
    """Why the first bytes look like esp-ppq's .info printout (`printable_graph` of its helper.py): the
    graph's header line `graph NAME (`, or `graph NAME {` for a graph without inputs, or newer
    esp-ppq's `model properties:` block before it."""
    if head.startswith(b"model properties:") and b"metadata_props:" in head[:200]:
        return "esp-ppq printout header 'model properties:'"
    line = head[:4096].partition(b"\n")[0].rstrip()
    if head.startswith(b"graph ") and line.endswith((b" (", b" {")):
        return f"esp-ppq printout header 'graph NAME {line[-1:].decode()}'"
    return None


def record_head(head: bytes) -> str | None:
    """Why the first bytes look like the .json quantization record esp-ppq writes beside a model
    (`export_quantization_config`: the objects `configs`, `dispatchings` and `values`, in that order;
    all three empty when no op was quantized)."""
    h = head[:512]
    if not h.lstrip().startswith(b"{") or b'"configs"' not in h:
        return None
    if (b'"bit_width"' in h and b'"policy"' in h) or b'"dispatchings"' in h:
        return "esp-ppq quantization record ('configs' of bit widths and policies)"
    return None


def key_bytes(text: str) -> bytes | None:
    """The 16-byte key written as 32 hex digits (spaces between byte pairs allowed), or None: the
    one rule of `--key` and of `model.crypto.parse_key`."""
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        return None
    return key if len(key) == 16 else None


def key_text(text: str) -> str:
    """argparse's `type` of `--key` (`key_bytes`), checked once, before any file is read, so a
    mistyped key is one usage error (exit 3), not a finding about every encrypted model. The text
    is never echoed (it may be a secret): its length only."""
    if key_bytes(text) is None:
        raise argparse.ArgumentTypeError(f"an ESP-DL model key is 16 bytes; expected 32 hex digits, found {len(text)} "
                                         "characters that are not 32 hex digits")
    return text


FAMILY = Family(
    name="espdl",
    title="Espressif ESP-DL",
    fixtures="binparse.formats.espdl.writers.fixtures:write",
    load="binparse.formats.espdl.register",
    signs=(Signs("espdl", ".espdl", names=("*.espdl",)), Signs("espdl", ".espdl", head=model_head),
           Signs("espdl", "info_printout", binary=False, head=info_head),  # `.info` says nothing: other tools write it
           Signs("espdl", "quantization_record", binary=False, head=record_head)),
    options=(
        Option(("--key",), ("inspect", "view", "draw", "doctor", "repair", "export", "compare"),
               "the AES-128 key (32 hex digits) of encrypted .espdl models", {"metavar": "HEX", "type": key_text}),
        Option(("--model",), ("export",), "the model of a pack (PDL1/PDL2/PDL3) to export", {"metavar": "NAME"}),
        Option(("--model",), ("compare",), "with MODEL.espdl DUMPS/: the model of a pack (PDL1/PDL2/PDL3) whose "
               "layers were dumped", {"metavar": "NAME"}),
        Option(("--rounding",), ("export",), "the export's rounding: auto (default: chosen per model from its test "
               "values, its .json record or its layouts, and said), half-even (ESP32-P4) or half-up (ESP32-S3 and C)",
               {"choices": ("auto", "half-even", "half-up")}),
        Option(("--rounding",), ("compare",), "with MODEL.espdl DUMPS/: the rounding the chip computes with, for the "
               "layers the dumps are compared with: auto (default: chosen per model from its test values, its .json "
               "record or its layouts), half-even (ESP32-P4) or half-up (ESP32-S3 and C)",
               {"choices": ("auto", "half-even", "half-up")}),
        Option(("--shape",), _LAYOUT, "with --espdl: the tensor's H,W,C", {"metavar": "H,W,C"}),
        Option(("--padding",), _LAYOUT, "with --espdl: padding rows and columns T,B,L,R", {"metavar": "T,B,L,R"}),
        Option(("--concat",), _LAYOUT, "with --espdl: the channel counts of tensors concatenated in one buffer",
               {"metavar": "C0,C1,..."}),
        Option(("--member",), _LAYOUT, "with --concat: which of the tensors (default 0)",
               {"type": int, "metavar": "I"}),
        Option(("--dtype",), _LAYOUT, "with --espdl: the element type, int8, int16, uint8 or float32",
               {"metavar": "TYPE"}),
        Option(("--exponent",), _LAYOUT, "with --espdl: value = q * 2^E", {"type": int, "metavar": "E"}),
    ),
    usages=(Usage("compare", "MODEL.espdl DUMPS/ [--model NAME] [--rounding {auto,half-even,half-up}] [--min-snr DB]"),),
    layouts=(LayoutKind("--espdl", "ESP-DL padded HWC tensor (old dl::Tensor)",
                        "binparse.formats.espdl.buffers.buffer_layout:make"),),
    kinds=(
        FileKind(".espdl", "model (EDL1, EDL2) or pack of models (PDL1, PDL2, PDL3): graph, weights in the chip's "
                           "blocking, test values; plain or AES-128-CTR encrypted", "ESP-DL v3 (esp-ppq, pack_espdl_models.py)",
                 "its magic, whatever its name"),
        FileKind("info_printout", "esp-ppq's .info printout of a model (graph, exponents, values)",
                 "esp-ppq: the older form, and the newer opening with the model's properties"),
        FileKind("quantization_record", "esp-ppq's .json quantization record (per-op bit widths, policies, scales)",
                 "esp-ppq"),
        FileKind("model folder", "a folder of .espdl models with esp-ppq's printouts and records",
                 "ESP-DL v3", "a folder holding an .espdl file"),
        FileKind("layer dumps", "the chip's tensors dumped layer by layer as .npy, named by tensor "
                                "(compare MODEL.espdl DUMPS/)", "ESP-DL v3", "the REFERENCE of compare, with a model"),
        FileKind("tensor buffer", "a padded HWC tensor of the older dl::Tensor (and tensors concatenated in one); "
                                  "v3's row-major TensorBase is read from Python (binparse.formats.espdl)",
                 "esp-dl v1 (dl::Tensor), v3 (TensorBase)", "no format of its own: read with --espdl and its --shape, --padding, --dtype"),
    ),
    examples=(
        Example("inspect", "inspect fixtures/espdl/models/conv_c.espdl", "an .espdl model: its graph and tensors"),
        Example("view", "view fixtures/espdl/models/conv_c.espdl --tensor w_conv --npy out/w_conv.npy",
                "a weight of an .espdl model in logical (N, H, W, C) order"),
        Example("view", "view --espdl --shape 5,3,4 --padding 1,2,2,1 --dtype int8 --exponent -3 "
                        "fixtures/espdl/tensors_and_models/feature_s8.buffer.bin --npy out/feature.npy --dequantize",
                "a padded HWC feature map (old dl::Tensor) as float32 values"),
        Example("pack", "pack --espdl --shape 5,3,4 --padding 1,2,2,1 --dtype int8 "
                        "fixtures/espdl/tensors_and_models/feature_s8.expected.npy --out out/feature.buffer.bin",
                "a logical H,W,C array into a padded ESP-DL buffer"),
        Example("draw", "draw fixtures/espdl/models/conv_s8_blocks.espdl --tensor w_conv --svg out/w_conv.svg",
                "an .espdl weight in its stored blocking (16 output channels a block)"),
        Example("doctor", "doctor fixtures/espdl/models", "ESP-DL models: what made each, and what is not verified"),
        Example("export", "export fixtures/espdl/models/conv_c.espdl -o out/conv_c.onnx",
                "an .espdl model as ONNX that computes what the chip computes (binparse[onnx])"),
        Example("repair", "repair fixtures/espdl/int32_defect/narrow_dims.espdl -o out/narrow_dims.fixed.espdl",
                "esp-ppq's int32 values in int64 vectors written as int64 (docs/espdl-repair.md)"),
    ),
)
