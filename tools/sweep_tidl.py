#!/usr/bin/env python3
"""Run `binparse doctor -r` over a sweep of public TIDL folders and count what it says.

usage: python tools/sweep_tidl.py SWEEP [--json]

SWEEP holds one folder per source (e.g. OWNER+REPO/, each file where it sat in that repository, TI's
`tempDir/` with it) and, optionally, a MANIFEST.tsv (repo, commit, path, blob, bytes, status: `absent` for
a file the snapshot lacks, `lfs-pointer` for one whose content was never fetched). For each source it
prints the folders checked, files, problems, notes, files not verified, the SDK lines ("made by TIDL ..."
or the note when the files disagree) and the folders whose param.yaml says `input_optimization: true`;
then every problem line with its folder. Exit code 1 when any problem was found, else 0: the rule is
that TI's own output has none.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from binparse.cli.doctor import doctor_tree
from binparse.formats.tidl.records.read import read_param_yaml


def manifest(sweep: Path) -> dict[str, Counter[str]]:
    """Per source folder (OWNER+REPO): how many files of each status the MANIFEST lists."""
    out: dict[str, Counter[str]] = {}
    path = sweep / "MANIFEST.tsv"
    if path.is_file():
        with path.open(newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                out.setdefault(row["repo"].replace("/", "+", 1), Counter())[row["status"]] += 1
    return out


def optimized(folder: Path) -> list[str]:
    """The param.yaml files below `folder` that say input_optimization: true."""
    found = []
    for p in sorted(folder.rglob("param.yaml")):
        try:
            if read_param_yaml(p).values.get("input_optimization") is True:
                found.append(p.relative_to(folder).as_posix())
        except Exception:  # noqa: BLE001 - the doctor names a record it cannot read
            continue
    return found


def sweep_source(folder: Path) -> dict[str, Any]:
    tree = doctor_tree(folder)
    findings = [(d["path"], f) for d in tree["folders"] for f in d["findings"]]
    return {"source": folder.name, "tally": tree["tally"], "status": tree["status"],
            "problems": [f"{p}: {f['text']}" for p, f in findings if f["level"] == "problem"],
            "sdk": [f"{Path(p).relative_to(folder.parent)}: [{f['level']}] {f['text']}" for p, f in findings
                    if f["text"].startswith(("made by TIDL", "its files disagree on the SDK"))],
            "not_verified": [f"{Path(d['path']).relative_to(folder.parent)}/{n}" for d in tree["folders"]
                             for n in d["not_verified"]],
            "input_optimization": optimized(folder)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep", type=Path, help="a folder of source folders (OWNER+REPO/...) and its MANIFEST.tsv")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of the text")
    args = ap.parse_args(argv)
    sources = sorted(p for p in args.sweep.iterdir() if p.is_dir())
    listed = manifest(args.sweep)
    results = [sweep_source(p) for p in sources]
    for r in results:
        r["manifest"] = dict(listed.get(r["source"], {}))
    total = Counter[str]()
    for r in results:
        total.update({k: v for k, v in r["tally"].items()})
    if args.json:
        print(json.dumps({"sources": results, "total": dict(total)}, indent=1))
        return 1 if total["problems"] else 0
    for r in results:
        t, m = r["tally"], r["manifest"]
        absent = f"; manifest: {', '.join(f'{v} {k}' for k, v in sorted(m.items()))}" if m else ""
        print(f"{r['source']}: {t['folders']} folders, {t['files']} files, {t['problems']} problems, "
              f"{t['notes']} notes, {t['not_verified']} not verified{absent}")
        for line in r["sdk"]:
            print(f"  {line}")
        for p in r["input_optimization"]:
            print(f"  input_optimization: true in {p}")
    print(f"\nin all: {len(results)} sources, {total['folders']} folders, {total['files']} files, "
          f"{total['problems']} problems, {total['notes']} notes, {total['not_verified']} not verified, "
          f"{sum(len(r['input_optimization']) for r in results)} param.yaml with input_optimization: true")
    for r in results:
        for line in r["problems"]:
            print(f"PROBLEM {line}")
    return 1 if total["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
