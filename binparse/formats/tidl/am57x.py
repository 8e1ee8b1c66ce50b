"""AM57x (TIDL-API) files without a header of their own: the param file, read through the network
beside it, and the TIDL-API configuration text.

`tidl_param_<name>.bin` holds the layers' parameters back to back (the rule is in `weights.py`);
only `tidl_net_<name>.bin` says where each array starts, so `binparse.open` of a param file opens
that net from the same folder and walks it. `tidl_config_<name>.txt` is TIDL-API's
`key = value` configuration (netBinFile, paramsBinFile, inWidth, inHeight, inNumChannels, ...).
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from numpy.typing import NDArray

from ...core.filemap import map_file
from ...family import opening
from ...core.errors import FormatError
from ...core.text import is_text, shown
from .net.model import NetTda2
from ...core.render import columns
from .net.weights import tda2_weights_read

_KEY = re.compile(r"\w+")


def _config_pair(line: str) -> tuple[str, str] | None:
    """(key, value) of a `key = value`, `key = "value"` line with an optional `# comment`, else None:
    cut with str methods in linear time (an expression with a lazy value before optional spaces and
    a comment tries every split of a long line)."""
    key, eq, rest = line.partition("=")
    key = key.strip()
    if not eq or not _KEY.fullmatch(key):
        return None
    rest = rest.lstrip()
    if rest.startswith('"'):
        rest = rest[1:]
    end = len(rest)
    for stop in ('"', "#"):
        at = rest.find(stop, 0, end)
        if at >= 0:
            end = at
    tail = rest[end:]
    tail = (tail[1:] if tail.startswith('"') else tail).lstrip()
    if tail and not tail.startswith("#"):
        return None
    return key, rest[:end].strip()


def read_config(text: str, file: str | None = None) -> dict[str, str]:
    """The `key = value` pairs of a TIDL-API configuration (quotes and comments removed).

    A line that is neither blank, a `#` comment nor `key = value` is refused, and so is a text
    without one pair: binparse does not know what TIDL-API would make of it, so it never shows
    such a file as read."""
    out: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        pair = _config_pair(line)
        if pair is None:
            raise FormatError("not a TIDL-API configuration line", file=file, path=f"line {n}",
                              expected='key = value, key = "value" or a # comment', found=s[:60])
        out[pair[0]] = pair[1]
    if not out:
        raise FormatError("not a TIDL-API configuration", file=file, expected="key = value lines",
                          found="none (an empty file, or comments only)")
    return out


@dataclass(frozen=True)
class Config:
    """A TIDL-API configuration file (`tidl_config_*.txt`)."""

    file: str
    values: dict[str, str]

    def summary(self) -> dict[str, Any]:
        return {"family": "tidl", "kind": "config.txt", "version": "AM57x TIDL-API", "values": dict(self.values)}

    def report(self) -> str:
        return "\n".join(["TIDL-API configuration", *columns(["key", "value"], sorted(self.values.items()))])


@dataclass(frozen=True)
class ParamFile:
    """A `tidl_param_*.bin` with the network that describes it: zero-copy views per layer."""

    file: str
    net_file: str
    net: NetTda2
    layers: list[dict[str, NDArray[Any]]]
    #: The inferred rule the file was read with, when TI's readers' rule does not give its size
    #: (`weights.UNSTORED_BN`): the net's layout is verified, which arrays the file stores is inferred,
    #: so the file is not verified (`unverified`: doctor's headline and tally, `inspect`'s exit code 2).
    not_verified: str | None = None

    @property
    def unverified(self) -> str | None:
        """Why the file is read but not verified (the inferred rule), None when TI's rule gives its size."""
        return (f"it matches {self.net_file} only under an inferred rule: {self.not_verified}"
                if self.not_verified else None)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> ParamFile:
        p = Path(path)
        net_path = p.with_name(p.name.replace("tidl_param_", "tidl_net_", 1))
        if not net_path.is_file():
            raise FormatError("a tidl_param file is read through its network, which is not beside it", file=str(p),
                              expected=net_path.name, found="no such file",
                              hint="put the tidl_net_*.bin made with it in the same folder")
        net = opening.open(net_path)
        if not isinstance(net, NetTda2):
            raise FormatError("the network beside the param file is not a TDA2/AM57x network", file=str(net_path))
        layers, rule = tda2_weights_read(net, map_file(p), file=str(p))
        return cls(str(p), net_path.name, net, layers, rule)

    def arrays(self) -> list[tuple[int, str, int, NDArray[Any]]]:
        """(layer, array name, byte offset in the file, view) in file order."""
        out, offset = [], 0
        for i, d in enumerate(self.layers):
            for name, v in d.items():
                out.append((i, name, offset, v))
                offset += v.nbytes
        return out

    def summary(self) -> dict[str, Any]:
        types = self.net.table().layer_type
        return {"family": "tidl", "kind": "param.bin", "version": self.net.version, "net": self.net_file,
                "size": sum(v.nbytes for *_, v in self.arrays()), "not_verified": self.not_verified,
                "arrays": [{"layer": i, "type": self.net.type_name(int(types[i])), "name": name, "offset": off,
                            "dtype": v.dtype.name, "count": int(v.size)} for i, name, off, v in self.arrays()]}

    def report(self) -> str:
        types = self.net.table().layer_type
        rows = [[f"{i}.{name}", self.net.type_name(int(types[i])), off, v.dtype.name, v.size]
                for i, name, off, v in self.arrays()]
        head = [f"NOT VERIFIED: {self.not_verified}"] if self.not_verified else []
        return "\n".join([*head, f"TIDL param file of {shown(self.net_file)} ({self.net.version}): {len(rows)} arrays",
                          *columns(["tensor", "layer type", "byte offset", "dtype", "elements"], rows)])

    def tensor_array(self, name: str, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """Array LAYER.NAME (e.g. "3.slope") as stored: a view of the file (no buffer is taken)."""
        found = {f"{i}.{n}": v for i, n, _, v in self.arrays()}
        if name not in found:
            raise FormatError(f"no parameter array {name!r}", file=self.file, expected=sorted(found)[:8] + ["…"])
        if dequantize:
            raise FormatError("TDA2/AM57x parameters carry no scale to dequantize with", file=self.file,
                              hint="the Q formats are in the layer's params (weightsQ, biasQ, slopeQ)")
        arr: NDArray[Any] = found[name]
        return arr, f"layer {name.split('.')[0]} {name.split('.', 1)[1]} as stored"


def sniff(path: Any, head: bytes) -> Any:
    """binparse.open() of an AM57x param file (its net beside it) or of a TIDL-API configuration."""
    if path is None:
        return None
    name = Path(path).name
    if fnmatch.fnmatch(name, "tidl_param_*.bin") and Path(path).with_name(
            name.replace("tidl_param_", "tidl_net_", 1)).is_file():
        return ParamFile.open
    if fnmatch.fnmatch(name, "tidl_config_*.txt") and is_text(head):
        return lambda source: Config(str(source), read_config(Path(source).read_text(errors="replace"), str(source)))
    return None


__all__ = ["Config", "ParamFile", "read_config", "sniff"]
