"""SVG of a trace comparison: SNR (dB) by layer in the order compared, the limit as a dashed line,
identical layers at the top, the first divergence in red. Written by hand like `binparse.family.draw`:
deterministic and small, no plotting dependency."""

from __future__ import annotations

from typing import Any
from ....core.text import xml_text as escape  # names from files: XML-escaped, control characters too

LEFT, TOP, RIGHT, BOTTOM, HEIGHT, MIN_WIDTH = 70, 50, 30, 60, 300, 560
STYLE = (".axis{stroke:#000000;stroke-width:1}.limit{stroke:#c0392b;stroke-dasharray:6 4}"
         ".line{fill:none;stroke:#2c7bb6;stroke-width:1.5}.pt{fill:#2c7bb6}.same{fill:#1a9641}"
         ".low{fill:#fdae61}.first{fill:#d7191c}text{font-family:sans-serif;font-size:11px}")


def _ticks(lo: float, hi: float) -> list[float]:
    step = 10.0 if hi - lo <= 120 else 50.0 if hi - lo <= 600 else 10.0 ** len(str(int((hi - lo) / 5)))
    start = (lo // step) * step
    return [start + k * step for k in range(int((hi - start) // step) + 1) if start + k * step >= lo]


def snr_svg(c: Any) -> str:
    """The picture of a `trace_compare.TraceComparison` (its layers, first, min_snr_db, ordered_by)."""
    n = len(c.layers)
    inner = MIN_WIDTH - LEFT - RIGHT
    dx = inner / max(n, 1) if 24 * n <= inner else max(4.0, min(24.0, 900.0 / n))  # spread few, pack many
    width = max(LEFT + RIGHT + dx * max(n, 1), MIN_WIDTH)  # room for the titles
    finite: list[float] = [float(d.snr_db) for d in c.layers if d.snr_db is not None]
    hi = max([*finite, float(c.min_snr_db) + 20.0])
    lo = min([*finite, 0.0])
    top = hi + 10.0  # identical layers are drawn here

    def y(v: float) -> float:
        return TOP + (top - v) / (top - lo) * HEIGHT

    def x(k: int) -> float:
        return LEFT + dx * (k + 0.5)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{TOP + HEIGHT + BOTTOM}" '
           f'viewBox="0 0 {width:.0f} {TOP + HEIGHT + BOTTOM}"><style>{STYLE}</style>',
           f'<text x="{LEFT}" y="20">SNR of A against the reference B, by layer ({escape(c.ordered_by)})</text>']
    first = c.first
    if first is not None:
        out.append(f'<text x="{LEFT}" y="36" class="first">first divergence: dataId {first.data_id}, layer '
                   f'{escape(first.layer)} {escape(first.layer_type or "")}</text>')
    out.append(f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + HEIGHT}"/>')
    out.append(f'<line class="axis" x1="{LEFT}" y1="{TOP + HEIGHT}" x2="{width - RIGHT:.1f}" y2="{TOP + HEIGHT}"/>')
    for t in _ticks(lo, hi):
        out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{LEFT - 6}" y="{y(top) + 4:.1f}" text-anchor="end">same</text>')
    out.append(f'<text x="16" y="{TOP + HEIGHT / 2:.0f}" transform="rotate(-90 16 {TOP + HEIGHT / 2:.0f})">SNR dB</text>')
    out.append(f'<line class="limit" x1="{LEFT}" y1="{y(c.min_snr_db):.1f}" x2="{width - RIGHT:.1f}" '
               f'y2="{y(c.min_snr_db):.1f}"/>')
    pts = " ".join(f"{x(k):.1f},{y(top if d.snr_db is None else d.snr_db):.1f}" for k, d in enumerate(c.layers))
    if pts:
        out.append(f'<polyline class="line" points="{pts}"/>')
    for k, d in enumerate(c.layers):
        v = top if d.snr_db is None else d.snr_db
        cls = "first" if d is first else "same" if d.snr_db is None else "low" if d.snr_db < c.min_snr_db else "pt"
        label = (f"dataId {d.data_id}, layer {d.layer} {d.layer_type or ''}: "
                 + ("identical" if d.snr_db is None else f"{d.snr_db:.2f} dB"))
        out.append(f'<circle class="{cls}" cx="{x(k):.1f}" cy="{y(v):.1f}" r="{4 if d is first else 2.5}">'
                   f'<title>{escape(label)}</title></circle>')
        if n <= 60 or d is first:
            out.append(f'<text x="{x(k):.1f}" y="{TOP + HEIGHT + 14}" text-anchor="middle">{d.data_id}</text>')
    out.append(f'<text x="{LEFT + dx * max(n, 1) / 2:.0f}" y="{TOP + HEIGHT + 40}" text-anchor="middle">'
               'dataId of each layer output</text></svg>')
    return "\n".join(out) + "\n"


__all__ = ["snr_svg"]
