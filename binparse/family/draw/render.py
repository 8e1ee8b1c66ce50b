"""SVG of a memory map, written by hand (no plotting dependency): deterministic and small.

Small maps get one cell per element. Larger ones get one cell per block of elements (powers of two
along rows and columns, at most MAX_CELLS cells); a block is padding if any of its elements is, so
thin borders stay visible, else it takes its most common role. Maps taller than MAX_ROWS rows whose
channels / blocks repeat are drawn as their first two segments, as the manuals draw them.

A map of any size is read in bands of at most BAND_ELEMENTS elements (`MemoryMap.band`), each
folded into its cells before the next is made: the memory a drawing takes is one band's, asked of
the command's budget once (`budget.ask`), whatever the buffer's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from ...core.text import xml_text as escape  # names from files: XML-escaped, control characters too

import numpy as np
from numpy.typing import NDArray

from .model import CHANNEL, CHANNEL_COLORS, DATA, ROLE_CLASS, ROLE_COLOR, ROLE_NAMES, SPATIAL, UNUSED, MemoryMap

BAND_ELEMENTS = 1 << 20  # elements of a map made and folded at once
BAND_BYTES_PER_ELEMENT = 64  # what a band takes: roles, indices, channels, their folded copies, temporaries
MAX_CELLS = 2048
MAX_LOGICAL_CELLS = 1024
MAX_ROWS = 256
CELL = 10
LEFT, TOP = 90, 92
STYLE = ("rect{stroke:#ffffff;stroke-width:0.5}" + "".join(f".{ROLE_CLASS[r]}{{fill:{c}}}" for r, c in ROLE_COLOR.items())
         + ".legend{stroke:#000000}.separator{stroke:#000000;stroke-width:1.5}")


def _fold(arr: NDArray[Any], fy: int, fx: int, reduce: str, fill: int) -> NDArray[Any]:
    """Blocks of fy × fx cells reduced to one: by role (see the module doc), or the max / min value."""
    r, c = arr.shape
    ry, rx = -(-r // fy) * fy, -(-c // fx) * fx
    pad = np.full((ry, rx), fill, arr.dtype)
    pad[:r, :c] = arr
    blocks = pad.reshape(ry // fy, fy, rx // fx, fx).transpose(0, 2, 1, 3).reshape(ry // fy, rx // fx, fy * fx)
    out: NDArray[Any]
    if reduce == "role":
        counts = np.stack([(blocks == k).sum(axis=2) for k in range(len(ROLE_NAMES))], axis=2) * 2
        counts[..., DATA] += 1  # data wins ties
        padded = counts[..., SPATIAL] + counts[..., CHANNEL] > 0
        counts[..., [SPATIAL, CHANNEL]] += np.where(padded, 4 * fy * fx, 0)[..., None]
        out = counts.argmax(axis=2).astype(np.int8)
    else:
        out = blocks.max(axis=2) if reduce == "max" else blocks.min(axis=2)
    return out


def _factors(rows: int, cols: int, limit: int) -> tuple[int, int]:
    """Powers of two to fold rows and columns by so that at most `limit` cells remain."""
    fy = fx = 1
    while (-(-rows // fy)) * (-(-cols // fx)) > limit:
        if -(-cols // fx) >= -(-rows // fy):
            fx *= 2
        else:
            fy *= 2
    return fy, fx


@dataclass
class _Drawn:
    """The part of a memory map that is drawn, folded into cells."""

    role: NDArray[np.int8]
    channel: NDArray[np.int64]
    first: NDArray[np.int64]  # smallest logical index in each cell
    fy: int
    fx: int
    cols: int  # elements per memory row
    separators: list[int]  # memory rows
    note: str  # what is drawn, when not everything is


def _bands(m: MemoryMap, rows: int, step: int = 1) -> Iterator[tuple[int, NDArray[np.int8], NDArray[np.int64]]]:
    """(first row, roles, logical indices) of rows 0..rows of `m`, a band of at most BAND_ELEMENTS
    elements at a time (a whole number of `step` rows, so that folded blocks never straddle two bands)."""
    per = max(step, (BAND_ELEMENTS // max(m.shape[1], 1)) // step * step)
    for r0 in range(0, rows, per):
        role, index = m.band(r0, min(r0 + per, rows))
        yield r0, role, index


def _ask_budget(m: MemoryMap) -> None:
    """Ask the command's budget for the band the drawing works in (the only memory sized by the buffer)."""
    from ...core.budget import ask
    rows, cols = m.shape
    ask(min(rows * cols, max(BAND_ELEMENTS, cols)) * BAND_BYTES_PER_ELEMENT, f"drawing {m.title}")


def _drawn(m: MemoryMap) -> _Drawn:
    rows, cols = m.shape
    seps, count = m.separators_inside(rows, 2 if rows > MAX_ROWS else None)
    note = ""
    if rows > MAX_ROWS and count >= 2:
        note = (f"; showing the first 2 of {count + 1} segments ({seps[1]:,} of {rows:,} rows), "
                "the rest repeat the pattern")
        rows, seps = seps[1], seps[:1]
    elif rows > MAX_ROWS:
        seps = m.separators_inside(rows)[0]  # fewer than two: all of them
    fy, fx = _factors(rows, cols, MAX_CELLS)
    big = int(np.iinfo(np.int64).max)
    roles, chans, firsts = [], [], []
    for _, role, index in _bands(m, rows, fy):
        chan = m.channel_of(index)
        if fy * fx > 1:
            role, chan = _fold(role, fy, fx, "role", UNUSED), _fold(chan, fy, fx, "max", -1)
            index = _fold(np.where(index >= 0, index, big), fy, fx, "min", big)
        roles.append(role)
        chans.append(chan)
        firsts.append(index)
    return _Drawn(np.concatenate(roles), np.concatenate(chans), np.concatenate(firsts), fy, fx, cols, seps, note)


def _landing(m: MemoryMap, targets: NDArray[np.int64]) -> NDArray[np.int64]:
    """The memory element offset where each logical index of `targets` lands (-1 where none does),
    the whole map read band by band."""
    want = np.unique(targets)
    found = np.full(len(want), -1, np.int64)
    if not want.size:
        return found
    rows, cols = m.shape
    for r0, _, index in _bands(m, rows):
        flat = index.reshape(-1)
        at = np.minimum(np.searchsorted(want, flat), len(want) - 1)
        hit = np.flatnonzero((flat >= 0) & (want[at] == flat))
        if hit.size:
            which, first = np.unique(at[hit], return_index=True)  # the first element of the band for each
            new = found[which] < 0
            found[which[new]] = r0 * cols + hit[first[new]]
            if (found >= 0).all():
                break
    return found[np.searchsorted(want, targets)]


def _cells(out: list[str], cls: str, top: int, ys: NDArray[Any], xs: NDArray[Any], fills: list[str],
           tips: list[str]) -> None:
    """One <rect> per cell; a fill only where the class's CSS fill does not apply, a <title> where given."""
    for y, x, fill, tip in zip(ys.tolist(), xs.tolist(), fills, tips):
        attr = f' fill="{fill}"' if fill else ""
        body = f"><title>{escape(tip)}</title></rect>" if tip else "/>"
        out.append(f'<rect class="{cls}" x="{LEFT + x * CELL}" y="{top + y * CELL}" width="{CELL}" height="{CELL}"{attr}{body}\n')


def _channel_fills(channels: list[int]) -> list[str]:
    return [CHANNEL_COLORS[c % len(CHANNEL_COLORS)] for c in channels]


def _memory_panel(out: list[str], m: MemoryMap, d: _Drawn) -> None:
    for t in [0, *d.separators]:  # element offsets where a channel / block / slice starts
        out.append(f'<text class="offset" x="{LEFT - 6}" y="{TOP + (t // d.fy) * CELL + 9}" text-anchor="end">'
                   f"+{t * d.cols:,}</text>\n")
    out.append('<g id="memory">\n')
    folded = d.fy * d.fx > 1
    for r in sorted(ROLE_NAMES):
        ys, xs = np.nonzero(d.role == r)
        if r == DATA:
            coords = np.stack(np.unravel_index(d.first[ys, xs], m.logical_shape), axis=1).tolist()
            tips = [("first " if folded else "") + "logical (" + ",".join(map(str, c)) + ")" for c in coords]
            _cells(out, ROLE_CLASS[r], TOP, ys, xs, _channel_fills(d.channel[ys, xs].tolist()), tips)
        else:
            _cells(out, ROLE_CLASS[r], TOP, ys, xs, [""] * len(ys), [""] * len(ys))
    out.append("</g>\n")
    right = LEFT + d.role.shape[1] * CELL + 4
    for s in sorted({s // d.fy for s in d.separators}):
        out.append(f'<line class="separator" x1="{LEFT - 4}" y1="{TOP + s * CELL}" x2="{right}" y2="{TOP + s * CELL}"/>\n')


def _logical_panel(out: list[str], m: MemoryMap, top: int) -> int:
    """Draw the logical tensor (channel colours) below `top`; returns the panel's bottom."""
    lr, lc = m.logical_grid
    fy, fx = _factors(lr, lc, MAX_LOGICAL_CELLS)
    gr, gc = -(-lr // fy), -(-lc // fx)
    out.append(f'<text x="10" y="{top}" font-size="13" font-weight="bold">logical tensor '
               f'{"×".join(map(str, m.logical_shape))} as {escape(m.logical_note)}, same colours'
               + (f" (each cell {fy} × {fx} elements)" if fy * fx > 1 else "") + '</text>\n<g id="logical">\n')
    ys, xs = np.divmod(np.arange(gr * gc), gc)
    first = ys * fy * lc + xs * fx  # the first logical element of each cell
    lands = m.lands(first) if m.lands is not None else _landing(m, first)  # its memory element offset
    coords = np.stack(np.unravel_index(first, m.logical_shape), axis=1).tolist()
    tips = [f"logical ({','.join(map(str, c))}) → memory +{o:,}" for c, o in zip(coords, lands.tolist())]
    _cells(out, "logical", top + 12, ys, xs, _channel_fills(m.channel_of(first).tolist()), tips)
    out.append("</g>\n")
    return top + 12 + gr * CELL


def _legend(out: list[str], m: MemoryMap, d: _Drawn, top: int) -> None:
    present = [r for r in ROLE_NAMES if (d.role == r).any()]
    for k, r in enumerate(present):
        color = CHANNEL_COLORS[0] if r == DATA else ROLE_COLOR[r]
        out.append(f'<rect class="legend" x="10" y="{top + 18 * k}" width="12" height="12" fill="{color}"/>'
                   f'<text x="28" y="{top + 18 * k + 10}">{escape(ROLE_NAMES[r])}'
                   + (" (colour = channel; hover for the logical index)" if r == DATA else "") + "</text>\n")
    if d.separators:
        y = top + 18 * len(present)
        out.append(f'<line class="separator" x1="10" y1="{y + 6}" x2="22" y2="{y + 6}"/>'
                   f'<text x="28" y="{y + 10}">{escape(m.separator_note)}</text>\n')


def render(m: MemoryMap) -> str:
    """The SVG text of a memory map and its logical panel (same map, same bytes)."""
    _ask_budget(m)
    d = _drawn(m)
    cell_note = (f"each cell is a block of {d.fy} row(s) × {d.fx} element(s): padding if any of it is, "
                 "else its most common role" if d.fy * d.fx > 1 else "each cell is one element")
    lines = [f"memory, in address order: {m.row_note}{d.note}", cell_note, m.axis_y]
    body: list[str] = []
    _memory_panel(body, m, d)
    panel_top = TOP + d.role.shape[0] * CELL + 44
    legend_top = _logical_panel(body, m, panel_top) + 30
    _legend(body, m, d, legend_top)
    height = legend_top + 18 * (len(ROLE_NAMES) + 1)
    lc = -(-m.logical_grid[1] // _factors(*m.logical_grid, MAX_LOGICAL_CELLS)[1])
    width = max(LEFT + max(d.role.shape[1], lc) * CELL + 20, 20 + 7 * max(map(len, lines)), 20 + 9 * len(m.title))
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="11">\n<style>{STYLE}</style>\n'
            f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#ffffff" stroke="none"/>\n'
            f'<text x="10" y="18" font-size="14" font-weight="bold">{escape(m.title)}</text>\n',
            *(f'<text x="10" y="{36 + 16 * k}">{escape(t)}</text>\n' for k, t in enumerate(lines)),
            f'<text x="{LEFT}" y="{TOP - 6}">{escape(m.axis_x)}</text>\n']
    return "".join([*head, *body, "</svg>\n"])
