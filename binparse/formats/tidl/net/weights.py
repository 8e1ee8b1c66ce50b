"""Weight, bias and scale views of TIDL layers (zero-copy, bounds-checked).

J7 (8.2 … 09.02): the layer parameters store absolute file offsets of their data
(`TIDL_alignParamsWrite`, 64-byte aligned). Weights are `(weightsElementSizeInBits + 7) / 8` bytes
(8 → int8, 16 → int16, 32 → float32); biases int16, int32 under quantisation style AsymNP2_TFL (5),
float32 with 32-bit weights; per-channel scales float32.

TDA2 / AM57x: the parameters are in a separate `tidl_param_*.bin`, read layer after layer in index
order without gaps. What is read per layer type is what TI's own readers of that file read
(`tidl_fillNetParamsMem()` of TI's TIDL test bench tidl_tb.c, TDA2 TIDL 01.xx, and
`vx_tidl_utils_readParams()` of TI's TDA2 OpenVX TIDL utils; TIDL-API hands the file to the same
device-side setup): Convolution and Deconv2D: weights `numInChannels*numOutChannels*kernelW*
kernelH/numGroups`, then `numOutChannels` biases only when `enableBias`; Bias: `numChannels`
biases; BatchNorm: `numChannels` weights and biases, then `numChannels` PReLU slopes when
`reluParams.reluType` is PReLU (whatever enableRelU says); InnerProduct: `numInNodes*numOutNodes`
weights, `numOutNodes` biases; DetectionOutput: `priorBoxSize` float32 prior boxes; no other
layer type reads the file. Weights are weightsElementSize bytes, stored unsigned with their zero
at zeroWeightValue (uint8 / uint16); biases biasElementSize bytes (int16 for 2); slopes
slopeElementSize bytes. Four AM57x param files TI ships in ../shared/real/tidl/am57x match
their nets to the byte under this rule, the PReLU one (1,984 slope bytes) included. The fifth,
dense_1x1 (1,041,488 B), is 24 bytes short: exactly its BatchNorm's 8 weights and 8 biases, the
one BatchNorm of all five nets whose weightsQ is 0 (the others have 131072). Read without them,
layer 2's 32 biases sit on bytes 256..319, the one run of small int16 values there (they would
be 280..343 with them), and so on for the later layers. A param file is read with that rule only
when it is exactly that size, and is then marked as not verified (`tda2_weights_read`).
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Callable

import numpy as np
from numpy.typing import NDArray

from ....core.buffers import BufferLike, byte_view, view
from ....core.errors import FormatError, LayoutError

_J7_WEIGHT: dict[int, np.dtype[Any]] = {1: np.dtype("i1"), 2: np.dtype("<i2"), 4: np.dtype("<f4")}
_TDA2_WEIGHT: dict[int, np.dtype[Any]] = {1: np.dtype("u1"), 2: np.dtype("<u2")}
_SIGNED: dict[int, np.dtype[Any]] = {1: np.dtype("i1"), 2: np.dtype("<i2"), 4: np.dtype("<i4")}
_TDA2_PRELU = 1  # eTIDL_reluType: RelU 0, PRelU 1, RelU6 2


#: A layer parameter by dotted name ("relu_params.relu_type"): the decoded layer params when
#: reading (`params_of`), the spec's values when a fixture writes a net, so both follow one rule.
Get = Callable[[str], Any]


def params_of(p: Any) -> Get:
    """The getter of a decoded layer-params accessor."""
    return lambda name: reduce(getattr, name.split("."), p)


def j7_param_counts(get: Get, kind: str, gen: int) -> dict[str, int]:
    """Element counts of a J7 layer's parameter arrays (`kind`: the layer type's snake-case name)."""
    if kind in ("convolution_layer", "deconv2d_layer"):
        groups = max(get("num_groups"), 1)
        return {"weights": get("num_out_channels") * (get("num_in_channels") // groups) * get("kernel_w")
                * get("kernel_h"), "bias": get("num_out_channels")}
    if kind == "inner_product_layer":
        if gen >= 92:
            return {"weights": get("num_in_cols") * get("num_out_cols"), "bias": get("num_out_cols")}
        return {"weights": get("num_in_nodes") * get("num_out_nodes"), "bias": get("num_out_nodes")}
    if kind == "batch_norm_layer":
        return {"weights": get("num_channels"), "bias": get("num_channels")}
    if kind == "detection_output_layer":
        return {"prior_box": get("prior_box_size")}
    return {}


def tda2_param_counts(get: Get, kind: str) -> dict[str, int]:
    """What TI's TDA2/AM57x param readers read for one layer, in file order (element counts; see
    the module doc)."""
    if kind in ("convolution_layer", "deconv2d_layer"):
        weights = (get("num_in_channels") * get("num_out_channels") * get("kernel_w") * get("kernel_h")
                   // max(get("num_groups"), 1))
        return {"weights": weights, "bias": get("num_out_channels")} if get("enable_bias") else {"weights": weights}
    if kind == "bias_layer":
        return {"bias": get("num_channels")}
    if kind == "batch_norm_layer":
        counts = {"weights": get("num_channels"), "bias": get("num_channels")}
        if int(get("relu_params.relu_type")) == _TDA2_PRELU:
            counts["slope"] = get("num_channels")
        return counts
    if kind == "inner_product_layer":
        return {"weights": get("num_in_nodes") * get("num_out_nodes"), "bias": get("num_out_nodes")}
    if kind == "detection_output_layer":
        return {"prior_box": get("prior_box_size")}
    return {}


def _check_count(n: int, path: str, file: str | None) -> None:
    if n < 0:
        raise FormatError("negative parameter count", file=file, path=path, expected=">= 0", found=n)


def j7_weights(net: Any, index: int) -> dict[str, NDArray[Any]]:
    """Views of layer `index`'s weights/bias/scales in a J7 net file (empty dict if it has none)."""
    layer = net.layers[index]
    kind = net.layer_types(int(layer.layer_type)).name if layer.layer_type in set(net.layer_types) else ""
    p = layer.layer_params
    if isinstance(p, np.ndarray):
        return {}
    counts = j7_param_counts(params_of(p), kind, net.gen)
    if not counts:
        return {}
    bits = int(layer.weights_element_size_in_bits)
    wdt = _J7_WEIGHT.get((bits + 7) // 8)
    if wdt is None:
        raise FormatError("unsupported weight element size", file=net._file,
                          path=f"{layer.path}.weights_element_size_in_bits", expected="8, 16 or 32", found=bits)
    bdt = np.dtype("<f4") if bits == 32 else (np.dtype("<i4") if net.quantization_style == 5 else np.dtype("<i2"))
    dtypes: dict[str, np.dtype[Any]] = {"weights": wdt, "bias": bdt, "prior_box": np.dtype("<f4")}
    out: dict[str, NDArray[Any]] = {}
    for name, n in counts.items():
        offset = getattr(p, name, 0)
        path = f"{p.path}.{name}"
        _check_count(n, path, net._file)
        if not offset:
            continue
        out[name] = _at(net._mv, dtypes[name], offset, n, path, net._file)
    scales = getattr(p, "weight_scales", None)
    if scales and counts.get("bias"):
        out["weight_scales"] = _at(net._mv, np.dtype("<f4"), scales, counts["bias"], f"{p.path}.weight_scales", net._file)
    return out


def _at(mv: memoryview, dt: np.dtype[Any], offset: int, n: int, path: str, file: str | None) -> NDArray[Any]:
    try:
        return view(mv, dt, offset, (n,), file=file, path=path)
    except LayoutError as exc:
        raise FormatError("parameter offset points outside the file", file=file, path=path, offset=offset,
                          expected=f"{n} x {dt} inside {mv.nbytes} bytes", found=exc.found) from None


#: Why a param file may lack a layer's arrays (see `tda2_weights_read`).
UNSTORED_BN = ("a BatchNorm layer whose weightsQ is 0 has no arrays in the param file (inferred from TI's "
               "dense_1x1 pair, which TIDL-API runs with a reference output: without its BatchNorm's {bytes} bytes "
               "the file is exactly the size the other layers need and each convolution's biases fall on the "
               "runs of small int16 values; no TI source states it)")


def _tda2_plan(net: Any, dtypes: dict[str, np.dtype[Any]], file: str | None,
               skip_unscaled_bn: bool) -> tuple[list[list[tuple[str, int, int, str]]], int, int]:
    """Per layer (name, count, offset, path), the total bytes, and the bytes of the layers skipped."""
    offset = skipped = 0
    plan: list[list[tuple[str, int, int, str]]] = []
    for i in range(int(net.num_layers)):
        layer = net.layers[i]
        p = layer.layer_params
        kind = layer.layer_type.name if hasattr(layer.layer_type, "name") else ""
        counts = {} if isinstance(p, np.ndarray) else tda2_param_counts(params_of(p), kind)
        if skip_unscaled_bn and kind == "batch_norm_layer" and int(p.weights_q) == 0:
            skipped += sum(n * dtypes[name].itemsize for name, n in counts.items())
            counts = {}
        entries = []
        for name, n in counts.items():
            path = f"{layer.path}.{name}"
            _check_count(n, path, file)
            entries.append((name, n, offset, path))
            offset += n * dtypes[name].itemsize
        plan.append(entries)
    return plan, offset, skipped


def tda2_weights_read(net: Any, params: BufferLike, *,
                      file: str | None = None) -> tuple[list[dict[str, NDArray[Any]]], str | None]:
    """Views of every used layer's parameters in a TDA2/AM57x `tidl_param_*.bin` (one dict per layer),
    and None, or the inferred rule it took (`UNSTORED_BN`) when the file is the size that rule gives.

    Raises FormatError when the network describes more or fewer bytes than the param file holds
    under both rules.
    """
    mv = byte_view(params, file=file)
    sizes = (int(net.weights_element_size), int(net.bias_element_size), int(net.slope_element_size))
    wdt, bdt, sdt = _TDA2_WEIGHT.get(sizes[0]), _SIGNED.get(sizes[1]), _TDA2_WEIGHT.get(sizes[2])
    if wdt is None or bdt is None or sdt is None:
        raise FormatError("unsupported element sizes", file=net._file, path=net.path,
                          expected="weightsElementSize 1 or 2, biasElementSize 1, 2 or 4, slopeElementSize 1 or 2",
                          found=sizes)
    dtypes: dict[str, np.dtype[Any]] = {"weights": wdt, "bias": bdt, "slope": sdt, "prior_box": np.dtype("<f4")}
    plan, total, _ = _tda2_plan(net, dtypes, file, False)
    rule = None
    if total != mv.nbytes:
        alt, alt_total, skipped = _tda2_plan(net, dtypes, file, True)
        if not skipped or alt_total != mv.nbytes:
            net_bytes = getattr(net, "_mv", None)  # TIDL-API's own tree once held a net copied under the param name
            copy = net_bytes is not None and len(net_bytes) == mv.nbytes and bytes(net_bytes) == bytes(mv)
            raise FormatError("param file size does not match the network", file=file,
                              expected=f"{total:,} bytes (from the network's layers)",
                              found=f"{mv.nbytes:,} bytes" + (", the network file's own bytes (a copy of the net, "
                                                              "not its parameters)" if copy else ""),
                              hint="use the tidl_param_*.bin made together with this tidl_net_*.bin")
        plan, rule = alt, UNSTORED_BN.format(bytes=skipped)
    return [{name: _at(mv, dtypes[name], off, n, path, file) for name, n, off, path in entries}
            for entries in plan], rule


def tda2_weights(net: Any, params: BufferLike, *, file: str | None = None) -> list[dict[str, NDArray[Any]]]:
    """Views of every used layer's parameters in a TDA2/AM57x `tidl_param_*.bin` (`tda2_weights_read`)."""
    return tda2_weights_read(net, params, file=file)[0]
