"""Sweep `binparse export --check` over every .espdl under a folder: for each model that carries test
values, the share of test-output elements the ONNX export reproduces within one step, the rounding
chosen and why; for each model it cannot check, the reason. Ends with the totals (the evidence of
issue 38's "Done when": >= 99 % on every model with test values, the exceptions named).

    python tools/sweep_espdl_export.py FOLDER [--key HEX] [--json OUT.json] [--quiet]

Exit code 0 when every model with test values reproduces them (>= 99 % of every output), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any


def sweep(folder: Path, key: str | None) -> list[dict[str, Any]]:
    import binparse
    from binparse.core.errors import BinparseError
    from binparse.formats.espdl.onnx.verify import THRESHOLD, check_model
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.rglob("*.espdl")):
        rel = str(path.relative_to(folder))
        try:
            f = binparse.open(path)
            if key and hasattr(f, "with_key"):
                f = f.with_key(bytes.fromhex(key))
            models = list(f.models)
        except BinparseError as exc:
            rows.append({"file": rel, "model": "", "status": "unread", "reason": exc.message})
            continue
        for m in models:
            row: dict[str, Any] = {"file": rel, "model": m.name}
            start = time.perf_counter()
            try:
                if m.encrypted and m.key is None:
                    row.update(status="no key", reason="encrypted, no key")
                elif not (m.graph.test_inputs and m.graph.test_outputs):
                    row.update(status="no test values")
                else:
                    result = check_model(m)
                    count = sum(o.count for o in result.outputs)
                    within = sum(o.within for o in result.outputs)
                    exact = sum(o.exact for o in result.outputs)
                    ok = all(o.share >= THRESHOLD for o in result.outputs)
                    row.update(status="reproduced" if ok else "not reproduced", elements=count, within=within,
                               exact=exact, rounding=result.choice.rounding if result.choice else None,
                               evidence=result.choice.evidence if result.choice else None,
                               worst=min(((o.share, o.name) for o in result.outputs), default=(1.0, ""))[1],
                               worst_share=min((o.share for o in result.outputs), default=1.0))
            except BinparseError as exc:
                row.update(status="export failed", reason=exc.message)
            except Exception as exc:  # noqa: BLE001  (a sweep names every failure, never stops on one)
                row.update(status="crashed", reason=f"{type(exc).__name__}: {exc}"[:300])
            row["seconds"] = round(time.perf_counter() - start, 2)
            rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]]) -> str:
    counts = Counter(r["status"] for r in rows)
    tested = [r for r in rows if "elements" in r]
    elements = sum(r["elements"] for r in tested)
    within = sum(r["within"] for r in tested)
    exact = sum(r["exact"] for r in tested)
    roundings = Counter(r["rounding"] for r in tested)
    lines = [f"{len(rows)} models: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
             f"test values: {len(tested)} models, {within:,} of {elements:,} elements within one step "
             f"({100 * within / max(elements, 1):.2f} %), {exact:,} exact; rounding "
             + ", ".join(f"{k} {v}" for k, v in sorted(roundings.items(), key=str))]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--key")
    ap.add_argument("--json")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    rows = sweep(Path(args.folder), args.key)
    if not args.quiet:
        for r in rows:
            what = (f"{r['within']}/{r['elements']} within ({r['exact']} exact), rounding {r['rounding']}"
                    if "elements" in r else r.get("reason", ""))
            print(f"{r['status']:15} {r['file']}{'/' + r['model'] if r['model'] else ''}: {what}")
    print(summary(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 1 if any(r["status"] in ("not reproduced", "export failed", "crashed") and "elements" in r
                    for r in rows) or any(r["status"] == "not reproduced" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
