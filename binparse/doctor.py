"""`binparse doctor PATH`: what made each artifact, whether the files agree, and what to watch for.

For a folder (or one file): the family, kind and version of each file with the evidence (size,
version word, header); whether files that belong together agree (a descriptor and the network
it describes, a network and its parameters, printouts and what they print, dumps and mappings of
one compile); the padding and pitches that make naive readers wrong, one line each; and which
runtimes can load the artifacts. Unknown files are
listed, not fatal. Findings are `ok`, `note` (worth knowing) or `problem` (exit code 1). A folder
where no file could be identified is "nothing checked" (exit code 1 too), never "no problems";
subfolders are named, and checked one by one with `-r`.

This module identifies the files and runs the checks each family registered
(`binparse.family.register_check`); what to check lives with the family. A sub-folder a family
declares a companion (`Family.companions`, a folder a vendor's tools write beside their
artifacts) is read with its folder, its files named `<companion>/<file>`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from . import api
from .errors import BinparseError, FormatError
from .family import Artifact, FileReport, Finding, checks
from .lookalike import looks_like_artifact
from .registry import format_of
from .runtime import Accessor


def _unreadable(rep: FileReport, path: Path, error: str) -> FileReport:
    """A file binparse could not read: an artifact (named, with why) if it looks like one."""
    like = looks_like_artifact(path)
    if like is None:
        rep.evidence = f"{path.stat().st_size:,} bytes, no known format"
        return rep
    rep.family, rep.kind, rep.version = like.family, like.kind, "unreadable"
    rep.evidence, rep.error = like.why, error
    return rep


def _companions(folder: Path) -> list[Path]:
    """The sub-folders of `folder` whose files belong with its own (`Family.companions`, e.g. TI's tempDir/)."""
    from .plugins import families
    names = dict.fromkeys(c for fam in families() for c in fam.companions)
    return [folder / n for n in names if (folder / n).is_dir()]


def _identify(path: Path, name: str | None = None, options: Any = None) -> FileReport:
    rep = FileReport(name or path.name)
    try:
        obj = api.open(path)
        with_options = getattr(obj, "with_options", None)
        if options is not None and callable(with_options):  # the command line's family options (e.g. a key)
            obj = with_options(options)
        if isinstance(obj, Accessor) and isinstance(obj, Artifact):
            obj.summary()  # reads what `inspect` shows: a file that opens but cannot be read is caught here
    except BinparseError as exc:
        return _unreadable(rep, path, exc.describe(known_file=str(path)))
    except Exception as exc:  # a bug must not stop the report on the other files
        return _unreadable(rep, path, f"binparse failed ({type(exc).__name__}: {exc}); please report it")
    rep.obj = obj
    if isinstance(obj, Accessor):
        fmt = format_of(obj)
        rep.family, rep.kind, rep.version, rep.format = fmt.family, fmt.kind, fmt.version, fmt.name
        rep.evidence = (fmt.identifies() if fmt.magic is not None or fmt.identified_by
                        else f"size {path.stat().st_size:,} bytes")
    else:
        doc = obj.summary()
        rep.family, rep.kind = doc.get("family", "?"), doc.get("kind", "?")
        rep.version = doc.get("dialect") or doc.get("version", "")
        rep.evidence = "CSV header" if "dialect" in doc else ""
    return rep


def doctor(path: str | os.PathLike[str], options: Any = None) -> dict[str, Any]:
    """The doctor's report of a folder or a file; `options` (the command line's, e.g. `--key`) are
    given to each opened object that takes them (`with_options`), as `inspect` does."""
    p = Path(path)
    if not p.exists():
        raise FormatError("no such file or folder", file=str(p))
    folder = p if p.is_dir() else p.parent
    paths = sorted(x for x in (p.iterdir() if p.is_dir() else [p]) if x.is_file())
    companions = _companions(p) if p.is_dir() else []
    subfolders = sorted(x.name for x in p.iterdir() if x.is_dir() and x not in companions) if p.is_dir() else []
    reports = [_identify(x, None, options) for x in paths]
    findings: list[Finding] = []
    for sub in companions:  # read with the folder's files, as the vendor's tools meant them
        inside = sorted(x for x in sub.iterdir() if x.is_file())
        reports += [_identify(x, f"{sub.name}/{x.name}", options) for x in inside]
        findings.append(Finding("note", f"{sub.name}/ holds files that belong with this folder's ({len(inside)} "
                                        f"file(s)): checked together with them", [f"{sub.name}/"]))
    not_verified = []
    for r in reports:
        if r.error:
            a = "an" if r.family[:1] in "aeiou" else "a"
            findings.append(Finding("problem", f"{r.name} looks like {a} {r.family} {r.kind} ({r.evidence}) but could "
                                               f"not be read: {r.error}", [r.name]))
        unverified = getattr(r.obj, "unverified", None)
        if unverified:  # nothing is proven wrong, nothing is confirmed: said as such, never a problem or an "ok"
            not_verified.append(r.name)
            findings.append(Finding("note", f"not verified: {r.name} was read only in part or with a layout no "
                                            f"vendor file confirms: {unverified}", [r.name]))
    readable = [r for r in reports if not r.error]  # the checks see what could be read (they name the rest's absence)
    for check in checks():
        try:
            findings.extend(check(readable, folder))
        except Exception as exc:  # one failing check must not hide the others' findings
            findings.append(Finding("problem", f"the {check.__module__} check failed ({type(exc).__name__}: {exc}); "
                                               "please report it"))
    confirmed = {r.name for r in reports if r.verified_by and r.name in not_verified}
    if confirmed:  # a check found vendor evidence that confirms what the file's layout could not
        not_verified = [n for n in not_verified if n not in confirmed]
        findings = [f for f in findings if not (f.text.startswith("not verified: ") and f.files
                                                and f.files[0] in confirmed)]
    known = [r for r in reports if r.family != "unknown"]
    unknown = [r.name for r in reports if r.family == "unknown"]
    status = ("problem" if any(f.level == "problem" for f in findings) else
              "ok" if known else "nothing checked")  # never "no problems" about nothing
    return {"path": str(p), "status": status, "files": [r.to_json() for r in known], "unknown_files": unknown,
            "not_verified": not_verified,
            "subfolders": subfolders, "findings": [f.to_json() for f in findings]}


def doctor_tree(path: str | os.PathLike[str], options: Any = None) -> dict[str, Any]:
    """The doctor's reports of a folder and of every folder below it that holds files (`-r`).

    Each folder is checked on its own (files agree with the files beside them, as the tools
    write a compile's artifacts into one folder), with its companion sub-folders (not checked
    again on their own); status is the worst of them.
    """
    root = Path(path)
    if not root.is_dir():
        doc = doctor(root, options)
        return {"path": str(root), "status": doc["status"], "folders": [doc]}
    folders = [root, *sorted(x for x in root.rglob("*") if x.is_dir() and x not in _companions(x.parent))]
    docs = [doctor(f, options) for f in folders if f == root or any(x.is_file() for x in f.iterdir())]
    checked = [d for d in docs if d["status"] != "nothing checked"]
    status = ("problem" if any(d["status"] == "problem" for d in docs) else "ok" if checked else "nothing checked")
    return {"path": str(root), "status": status, "folders": checked or docs[:1]}


_HEADLINES = {"ok": "no problems found", "problem": "PROBLEMS FOUND",
              "nothing checked": "NOTHING CHECKED: no artifact binparse knows is in this folder"}


def report_text(doc: dict[str, Any]) -> str:
    if "folders" in doc:  # a tree
        return "\n\n".join(report_text(d) for d in doc["folders"])
    headline = _HEADLINES[doc["status"]]
    if doc.get("not_verified"):
        headline += (f"; NOT VERIFIED: {', '.join(doc['not_verified'])} (read only in part or with a layout no "
                     "vendor file confirms)")
    lines = [f"binparse doctor {doc['path']}: {headline}"]
    for f in doc["files"]:
        what = f"{f['family']} {f['kind']} {f['version']}".strip()
        shown = f["evidence"] and f["evidence"] not in what
        lines.append(f"  {f['file']}: {what} ({f['evidence']})" if shown else f"  {f['file']}: {what}")

        if f["runtime"]:
            lines.append(f"      loads on: {f['runtime']}")
    if doc["unknown_files"]:
        lines.append("  other files (not artifacts binparse knows): " + ", ".join(doc["unknown_files"]))
    if doc["subfolders"]:
        lines.append("  subfolders, not checked (`binparse doctor -r` checks each): " + ", ".join(doc["subfolders"]))
    for f in doc["findings"]:
        lines.append(f"  [{f['level']}] {f['text']}")
    return "\n".join(lines)


__all__ = ["doctor", "doctor_tree", "report_text"]
