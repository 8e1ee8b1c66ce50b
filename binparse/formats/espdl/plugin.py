"""The ESP-DL family's declaration: how its files look and its options (light: no imports)."""

from __future__ import annotations

from ...family import Family, LayoutKind, Option, Signs

_LAYOUT = ("view", "pack", "draw")
_MAGICS = (b"EDL1", b"EDL2", b"PDL1", b"PDL2", b"PDL3")


def model_head(head: bytes) -> str | None:
    """Why the first bytes look like an .espdl file: an ESP-DL magic."""
    return f"magic {head[:4]!r}" if head[:3] in (b"EDL", b"PDL") else None


def info_head(head: bytes) -> str | None:
    """Why the first bytes look like esp-ppq's .info printout: its graph header line, or newer
    esp-ppq's `model properties:` block before it."""
    if head.startswith(b"model properties:") and b"metadata_props:" in head[:200]:
        return "esp-ppq printout header 'model properties:'"
    return "esp-ppq printout header 'graph NAME ('" if head.startswith(b"graph ") and b" (" in head[:200] else None


def record_head(head: bytes) -> str | None:
    """Why the first bytes look like the .json quantization record esp-ppq writes beside a model."""
    h = head[:512]
    if h.lstrip().startswith(b"{") and b'"configs"' in h and b'"bit_width"' in h and b'"policy"' in h:
        return "esp-ppq quantization record ('configs' of bit widths and policies)"
    return None


FAMILY = Family(
    name="espdl",
    fixtures="binparse.formats.espdl.writers.fixtures:write",
    load="binparse.formats.espdl.register",
    signs=(Signs("espdl", ".espdl", names=("*.espdl",)), Signs("espdl", ".espdl", head=model_head),
           Signs("espdl", "info_printout", names=("*.info",), binary=False, head=info_head),
           Signs("espdl", "quantization_record", binary=False, head=record_head)),
    options=(
        Option(("--key",), ("inspect", "view", "draw", "doctor", "repair", "export", "compare"),
               "ESP-DL: AES-128 key (32 hex digits) of encrypted .espdl models"),
        Option(("--model",), ("export", "compare"), "ESP-DL: the model of a pack (PDL1/PDL2/PDL3) to export"),
        Option(("--rounding",), ("export", "compare"), "ESP-DL: the rounding of the export, half-even (default: esp-ppq's test "
               "values, the ESP32-P4) or half-up (what an ESP32-S3 computes)", {"choices": ("half-even", "half-up")}),
        Option(("--shape",), _LAYOUT, "ESP-DL H,W,C"),
        Option(("--padding",), _LAYOUT, "ESP-DL T,B,L,R"),
        Option(("--concat",), _LAYOUT, "ESP-DL: the channel counts C0,C1,... of tensors concatenated in one buffer"),
        Option(("--member",), _LAYOUT, "ESP-DL: which of the --concat tensors (default 0)", {"type": int}),
        Option(("--dtype",), _LAYOUT, "ESP-DL int8|int16|uint8|float32"),
        Option(("--exponent",), _LAYOUT, "ESP-DL exponent: value = q * 2^exponent", {"type": int}),
    ),
    layouts=(LayoutKind("--espdl", "ESP-DL padded HWC tensor (old dl::Tensor)",
                        "binparse.formats.espdl.buffers.buffer_layout:make"),),
)
