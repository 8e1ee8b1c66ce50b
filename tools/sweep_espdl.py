"""Sweep `binparse doctor` and `binparse inspect` over a corpus of ESP-DL folders and count what they say.

    python tools/sweep_espdl.py CORPUS [--out REPORT.json] [--jobs 2] [--timeout 600] [--key HEX]

CORPUS is a folder whose sub-folders hold `.espdl` models and what esp-ppq writes beside them (`.info`
printouts, `.json` quantization records), one folder per source folder, as the files sat together
(e.g. a corpus gathered from public repositories: it is read only from the path given, never from a
default). For every folder that holds such a file, in a subprocess each (with a time limit):
`doctor FOLDER --json`, `inspect FOLDER --json` when it holds a model, and `inspect FILE --json` of each
file. Counted: `[problem]` lines (each listed with its folder), files without a line of their own in
doctor (a model, printout or record no finding names), exit codes of doctor and of inspect, and the
cases where doctor and inspect disagree on an unreadable file (doctor 1, inspect 2). A corpus is
evidence for the rules, not a test: the checks CI runs stay on ../shared/real.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ENDINGS = (".espdl", ".info", ".json")


def folders(corpus: Path) -> list[Path]:
    """Every folder below `corpus` that holds a file of an ESP-DL kind (links not followed)."""
    out = []
    for top, dirs, files in os.walk(corpus, followlinks=False):
        dirs.sort()
        if any(f.endswith(ENDINGS) for f in files):
            out.append(Path(top))
    return sorted(out)


def _run(args: list[str]) -> tuple[int, str]:
    from binparse.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(args)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, buf.getvalue()


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def one(folder: Path, key: str | None) -> dict[str, Any]:
    """doctor and inspect of one folder and its files, in this process."""
    extra = ["--key", key] if key else []
    names = sorted(f.name for f in folder.iterdir() if f.is_file() and f.name.endswith(ENDINGS))
    code, text = _run(["doctor", str(folder), "--json", *extra])
    doc = _json(text) or {}
    findings = doc.get("findings", [])
    named = {n for f in findings for n in f.get("files", [])}
    named |= set(doc.get("not_verified", [])) | set(doc.get("unknown_files", []))  # "other files: ..." names them
    for f in findings:  # a pack's models are named MODEL.espdl/NAME in the text
        named |= {n for n in names if f["text"].startswith(n)}
    family = {f["file"]: f.get("family") for f in doc.get("files", [])}
    # a model, printout or record: every .espdl name, and what doctor identified as ESP-DL's (an `.info`
    # or `.json` of another tool, e.g. ESP-IDF's version stamp, is listed apart)
    artifacts = [n for n in names if n.endswith(".espdl") or family.get(n) == "espdl"]
    out: dict[str, Any] = {
        "folder": str(folder), "doctor": code, "status": doc.get("status"),
        "problems": [f["text"] for f in findings if f["level"] == "problem"],
        "notes": sum(f["level"] == "note" for f in findings),
        "not_verified": doc.get("not_verified", []),
        "without_line": [n for n in artifacts if n not in named],
        "other_files": [n for n in names if n not in artifacts],
        "inspect": {}}
    if any(n.endswith(".espdl") for n in names):
        out["inspect_folder"] = _run(["inspect", str(folder), "--json", *extra])[0]
    for n in artifacts:
        out["inspect"][n] = _run(["inspect", str(folder / n), "--json", *extra])[0]
    return out


def sweep(corpus: Path, jobs: int, timeout: float, key: str | None) -> dict[str, Any]:
    todo = folders(corpus)
    results: list[dict[str, Any]] = []
    started = time.time()

    def child(folder: Path) -> dict[str, Any]:
        cmd = [sys.executable, __file__, "--one", str(folder)] + (["--key", key] if key else [])
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"folder": str(folder), "error": f"over {timeout:.0f} s"}
        doc = _json(p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "")
        return doc if isinstance(doc, dict) else {"folder": str(folder), "error": (p.stderr or "no output")[-400:]}

    with ThreadPoolExecutor(jobs) as pool:
        for k, r in enumerate(pool.map(child, todo)):
            results.append(r)
            if (k + 1) % 50 == 0:
                print(f"  {k + 1}/{len(todo)} folders, {time.time() - started:.0f} s", file=sys.stderr)
    return summarize(corpus, results, time.time() - started)


def summarize(corpus: Path, results: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    files = Counter()
    for r in results:
        for n in r.get("inspect", {}):
            files[Path(n).suffix] += 1
    doctor_codes = Counter(r.get("doctor") for r in results)
    inspect_codes = Counter(c for r in results for c in r.get("inspect", {}).values())
    problems = [(r["folder"], p) for r in results for p in r.get("problems", [])]
    without = [(r["folder"], n) for r in results for n in r.get("without_line", [])]
    others = [(r["folder"], n) for r in results for n in r.get("other_files", [])]
    disagree = [(r["folder"], n) for r in results for n, c in r.get("inspect", {}).items()
                if c == 2 and any(p.startswith(n + " looks like") for p in r.get("problems", []))]
    return {"corpus": str(corpus), "seconds": round(seconds), "folders": len(results),
            "files": dict(files), "doctor_exit_codes": {str(k): v for k, v in sorted(doctor_codes.items(), key=str)},
            "inspect_exit_codes": {str(k): v for k, v in sorted(inspect_codes.items(), key=str)},
            "problem_lines": len(problems), "note_lines": sum(r.get("notes", 0) for r in results),
            "not_verified": sum(len(r.get("not_verified", [])) for r in results),
            "files_without_a_line": len(without), "other_files": len(others),
            "unreadable_disagreeing": len(disagree), "errors": [r for r in results if "error" in r],
            "problems": problems, "without_line": without, "results": results}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--out", type=Path, help="write the whole report (every folder's result) as JSON here")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--key", help="the key of encrypted models (32 hex digits)")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # the child: one folder, JSON out
    a = ap.parse_args(argv)
    if a.one:
        print(json.dumps(one(a.corpus, a.key)))
        return 0
    rep = sweep(a.corpus, a.jobs, a.timeout, a.key)
    if a.out:
        a.out.write_text(json.dumps(rep, indent=1))
    print(f"{rep['folders']} folders, files {rep['files']}, {rep['seconds']} s")
    print(f"doctor exit codes {rep['doctor_exit_codes']}; inspect exit codes (per file) {rep['inspect_exit_codes']}")
    print(f"[problem] lines: {rep['problem_lines']}; [note] lines: {rep['note_lines']}; files not verified: "
          f"{rep['not_verified']}; files without a line: {rep['files_without_a_line']}; "
          f"unreadable files doctor calls a problem and inspect exit 2: {rep['unreadable_disagreeing']}; "
          f"folders that failed or timed out: {len(rep['errors'])}; files of other tools: {rep['other_files']}")
    for folder, p in rep["problems"]:
        print(f"  [problem] {Path(folder).relative_to(a.corpus)}: {p[:300]}")
    for folder, n in rep["without_line"]:
        print(f"  [no line] {Path(folder).relative_to(a.corpus)}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
