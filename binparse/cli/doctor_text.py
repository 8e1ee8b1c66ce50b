"""The doctor's report as text, its status over several folders, its tally and its exit code.

Every name from the folder (file names, and whatever the findings quote) is shown escaped
(`text.shown`): a file name holding a newline or a terminal escape cannot forge an `[ok]` line or
a headline. The headline never says "no problems" while anything was not read or not verified.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core import exitcodes
from ..family.hints import command
from ..core.text import shown

_ORDER = ("problem", "not verified", "ok", "nothing checked")


def worst(statuses: Iterable[str]) -> str:
    """The worst of several folders' statuses: a problem, then not verified, then ok."""
    found = set(statuses)
    return next((s for s in _ORDER if s in found), "nothing checked")


def tally(docs: list[dict[str, Any]], folders: int) -> dict[str, int]:
    """What `doctor -r` walked and found, counted: its last line."""
    levels = [f["level"] for d in docs for f in d["findings"]]
    return {"folders": folders, "files": sum(len(d["files"]) + len(d["unknown_files"]) for d in docs),
            "problems": levels.count("problem"), "notes": levels.count("note"),
            "not_verified": sum(len(d["not_verified"]) for d in docs)}


def exit_code(doc: dict[str, Any]) -> int:
    """The contract's exit code of a doctor report (a folder's or a tree's): 0 ok, 1 a problem,
    2 something not verified or nothing checked."""
    return {"ok": exitcodes.OK, "problem": exitcodes.PROBLEM}.get(doc["status"], exitcodes.UNVERIFIED)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def headline(doc: dict[str, Any]) -> str:
    nv = doc.get("not_verified") or []
    names = ", ".join(map(shown, nv))
    if doc["status"] == "problem":
        return "PROBLEMS FOUND" + (f"; NOT VERIFIED: {names}" if nv else "")
    if doc["status"] == "nothing checked":
        return "NOTHING CHECKED: no artifact binparse knows is in this folder"
    if nv:
        rest = len({f["file"] for f in doc["files"]} - set(nv))
        tail = f"no problems in the other {rest}" if rest else "nothing else checked"
        return (f"NOT VERIFIED: {_plural(len(nv), 'file')} ({names}: read only in part, with a layout no vendor "
                f"file confirms, or not read); {tail}")
    return "no problems found"


def tally_line(doc: dict[str, Any]) -> str:
    t = doc["tally"]
    return (f"in all ({shown(doc['path'])}): {_plural(t['folders'], 'folder')}, {_plural(t['files'], 'file')}, "
            f"{_plural(t['problems'], 'problem')}, {_plural(t['notes'], 'note')}, {t['not_verified']} not verified")


def report_text(doc: dict[str, Any], verbose: bool = False) -> str:
    """A folder's report, or a tree's (each folder's, then the tally line); `verbose` (-v): under a finding
    that sums several up, each of them."""
    if "folders" in doc:
        return "\n\n".join(report_text(d, verbose) for d in doc["folders"]) + "\n\n" + tally_line(doc)
    lines = [f"binparse doctor {shown(doc['path'])}: {headline(doc)}"]
    for f in doc["files"]:
        what = shown(f"{f['family']} {f['kind']} {f.get('format_version') or f['version']}".strip())
        evidence = f["evidence"] and f["evidence"] not in what
        name = shown(f["file"])
        lines.append(f"  {name}: {what} ({shown(f['evidence'])})" if evidence else f"  {name}: {what}")
        if f["runtime"]:
            lines.append(f"      loads on: {shown(f['runtime'])}")
    if doc["unknown_files"]:
        lines.append("  other files (not artifacts binparse knows): " + ", ".join(map(shown, doc["unknown_files"])))
    for s in doc.get("skipped", []):
        lines.append(f"  skipped: {shown(s['file'])}: {shown(s['why'])}")
    if doc["subfolders"]:
        lines.append(f"  subfolders, not checked ({command('doctor', '-r', doc['path'])} checks each): "
                     + ", ".join(map(shown, doc["subfolders"])))
    for f in doc["findings"]:
        lines.append(f"  [{f['level']}] {shown(f['text'])}")
        lines.extend(f"      - {shown(d)}" for d in (f.get("details", []) if verbose else []))
    return "\n".join(lines)


__all__ = ["exit_code", "headline", "report_text", "tally", "tally_line", "worst"]
