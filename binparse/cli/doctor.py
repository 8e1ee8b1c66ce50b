"""`binparse doctor PATH`: what made each artifact, whether the files agree, and what to watch for.

For a folder (or one file): the family, kind and version of each file with the evidence (size,
version word, header); whether files that belong together agree (a descriptor and the network
it describes, a network and its parameters, printouts and what they print, dumps and mappings of
one compile); the padding and pitches that make naive readers wrong, one line each; and which
runtimes can load the artifacts. Unknown files are
listed, not fatal. Findings are `ok`, `note` (worth knowing) or `problem` (exit code 1). What could
not be read or verified (a net read with a nearest layout, an encrypted model without its key, a
Git-LFS pointer, a FIFO, device, dangling link, link out of the folder or unreadable file named
like an artifact) is "not verified" (exit code 2) and named in the headline, never "no problems".
A folder where no file could be identified is "nothing checked" (exit code 2), never "no
problems"; subfolders are named, and checked one by one with `-r`. Nothing is opened before
`binparse.core.paths` has looked at it: links are followed only inside the folder given, FIFOs,
sockets and devices are never opened, permission denied is a finding about that name.

This module identifies the files and runs the checks each family registered
(`binparse.family.register_check`); what to check lives with the family. A sub-folder a family
declares a companion (`Family.companions`, a folder a vendor's tools write beside their
artifacts) is read with its folder, its files named `<companion>/<file>`.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..family import opening
from ..core import inputs
from .doctor_text import exit_code, report_text, tally, worst
from ..core.errors import BinparseError, PathError
from ..family import Artifact, FileReport, Finding, checks, read_by_checks
from ..family.lookalike import looks_like_artifact
from ..core.paths import Entry, entries, require_regular
from ..family.plugins import signs
from ..family.registry import format_of
from ..engine.runtime import Accessor
from ..core.text import LFS_POINTER, is_lfs_pointer, name_matches


def _unreadable(rep: FileReport, path: Path, error: str) -> FileReport:
    """A file binparse could not read: an artifact (named, with why) if it looks like one."""
    try:
        like = looks_like_artifact(path)
        size = f"{path.stat().st_size:,} bytes"
    except OSError as exc:
        like, size = None, f"cannot be read ({exc.strerror or exc})"
    if like is None:
        rep.evidence = f"{size}, no known format"
        return rep
    rep.family, rep.kind, rep.version = like.family, like.kind, "unreadable"
    rep.evidence, rep.error = like.why, error
    return rep


def _lfs_pointer(path: Path) -> bool:
    """True for a Git-LFS pointer (the text git leaves when the artifact itself was not fetched)."""
    try:
        with open(path, "rb") as f:  # a regular file: `paths.classify` said so
            return is_lfs_pointer(f.read(len(LFS_POINTER)))
    except OSError:
        return False


def _named_like(name: str) -> str | None:
    """'family kind' of the artifact `name` is named like (the families' name patterns), or None."""
    for sign in signs():
        if any(name_matches(name, pattern) for pattern in sign.names):
            return f"{sign.family} {sign.kind}"
    return None


def _companions(folder: Path) -> list[Path]:
    """The sub-folders of `folder` whose files belong with its own (`Family.companions`, e.g. TI's tempDir/)."""
    from ..family.plugins import families
    names = dict.fromkeys(c for fam in families() for c in fam.companions)
    out = []
    for n in names:
        try:
            if stat.S_ISDIR(os.lstat(folder / n).st_mode):  # a real folder: a link to one is not followed
                out.append(folder / n)
        except OSError:  # none there, or a path longer than the system allows (its folder is said so)
            pass
    return out


def _identify(path: Path, name: str | None = None, options: Any = None) -> FileReport:
    rep = FileReport(name or path.name)
    try:
        obj = opening.open(path)
        with_options = getattr(obj, "with_options", None)
        if options is not None and callable(with_options):  # the command line's family options (e.g. a key)
            obj = with_options(options)
        if isinstance(obj, Accessor) and isinstance(obj, Artifact):
            obj.summary()  # reads what `inspect` shows: a file that opens but cannot be read is caught here
        doc = None if isinstance(obj, Accessor) else obj.summary()
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
    elif doc is not None:
        rep.family, rep.kind = doc.get("family", "?"), doc.get("kind", "?")
        rep.version = doc.get("dialect") or doc.get("version", "")
        rep.evidence = "CSV header" if "dialect" in doc else ""
    return rep


def _skipped(e: Entry, name: str, findings: list[Finding], not_verified: list[str]) -> dict[str, str]:
    """A name in the folder that was not read (a link out, a FIFO, permission denied...), said as
    such; "not verified" when it is named like an artifact or could not be read."""
    like = _named_like(e.path.name)
    if like is not None or e.why == "permission denied":
        not_verified.append(name)
        what = f"named like a {like}" if like else "a file"
        findings.append(Finding("note", f"not verified: {name} ({what}) was skipped: {e.why}", [name]))
    return {"file": name, "why": e.why}


def _listing(p: Path, root: str | os.PathLike[str] | None) -> tuple[list[Entry], list[Path]]:
    """(the entries of a folder, or the one file given; its companion folders)."""
    if not p.is_dir():
        require_regular(p)  # missing, a FIFO, a device: refused before anything is opened
        return [Entry(p, "file")], []
    return entries(p, root or p), _companions(p)


def doctor(path: str | os.PathLike[str], options: Any = None,
           root: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The doctor's report of a folder or a file; `options` (the command line's, e.g. `--key`) are
    given to each opened object that takes them (`with_options`), as `inspect` does. Links are
    followed only to targets inside `root` (default: the folder itself)."""
    p = Path(path)
    refused_before = len(inputs.current().refused)  # what the budget refuses from here on was not read
    listed, companions = _listing(p, root)
    folder = p if p.is_dir() else p.parent
    findings: list[Finding] = []
    not_verified: list[str] = []
    skipped = [_skipped(e, e.path.name, findings, not_verified) for e in listed if e.kind == "skipped"]
    files = [(e.path, e.path.name) for e in listed if e.kind == "file"]
    for sub in companions:  # read with the folder's files, as the vendor's tools meant them
        try:
            inside = entries(sub, root or p)
        except PathError as exc:
            not_verified.append(f"{sub.name}/")
            findings.append(Finding("note", f"not verified: {sub.name}/ could not be listed: {exc.message}"))
            continue
        files += [(e.path, f"{sub.name}/{e.path.name}") for e in inside if e.kind == "file"]
        skipped += [_skipped(e, f"{sub.name}/{e.path.name}", findings, not_verified)
                    for e in inside if e.kind == "skipped"]
        findings.append(Finding("note", f"{sub.name}/ holds files that belong with this folder's "
                                        f"({sum(e.kind == 'file' for e in inside)} file(s)): checked together with "
                                        "them", [f"{sub.name}/"]))
    reports = []
    for path_, name in files:
        if _lfs_pointer(path_):  # the artifact itself is not there: nothing of it can be read
            not_verified.append(name)
            findings.append(Finding("note", f"not verified: {name} is a Git-LFS pointer: the file itself was not "
                                            "fetched (`git lfs pull`)", [name]))
        else:
            reports.append(_identify(path_, name if name != path_.name else None, options))
    for r in reports:
        if r.error:  # not read: nothing about it is proven (inspect of it exits 2 too), never a problem
            a = "an" if r.family[:1] in "aeiou" else "a"
            not_verified.append(r.name)
            findings.append(Finding("note", f"not verified: {r.name} looks like {a} {r.family} {r.kind} ({r.evidence}) "
                                            f"but could not be read: {r.error}", [r.name]))
        unverified = getattr(r.obj, "unverified", None)
        if unverified:  # nothing is proven wrong, nothing is confirmed: said as such, never a problem or an "ok"
            not_verified.append(r.name)
            findings.append(Finding("note", f"not verified: {r.name} was read only in part or with a layout no "
                                            f"vendor file confirms: {unverified}", [r.name]))
    readable = [r for r in reports if not r.error]  # the checks see what could be read (they name the rest's absence)
    for check in checks():
        try:
            found = check(readable, folder)
        except BinparseError as exc:  # a check that met what it cannot read: nothing proven, said as such
            found = []
            not_verified.append(f"{check.__module__.rsplit('.', 1)[-1]} check")
            findings.append(Finding("note", f"not verified: the {check.__module__} check could not read what it "
                                            f"checks: {exc}"))
        except Exception as exc:  # a bug: one failing check must not hide the others' findings, nor prove anything
            found = []
            not_verified.append(f"{check.__module__.rsplit('.', 1)[-1]} check")
            findings.append(Finding("note", f"not verified: binparse failed in the {check.__module__} check "
                                            f"({type(exc).__name__}: {exc}); please report it"))
        findings.extend(found)
        # a check that could not read or verify something of a file says so ("not verified: NAME ..."):
        # the file is then named in the headline as any other unread file
        not_verified += [f.files[0] for f in found if f.level == "note" and f.files
                         and f.text.startswith("not verified: ")]
    _refusals(inputs.current().refused[refused_before:], {str(p_): n for p_, n in files}, findings, not_verified)
    _passed_over(readable, findings, not_verified)
    confirmed = {r.name for r in reports if r.verified_by and r.name in not_verified}
    if confirmed:  # a check found vendor evidence that confirms what the file's layout could not
        not_verified = [n for n in not_verified if n not in confirmed]
        findings = [f for f in findings if not (f.text.startswith("not verified: ") and f.files
                                                and f.files[0] in confirmed)]
    known = [r for r in reports if r.family != "unknown"]
    unknown = [r.name for r in reports if r.family == "unknown"]
    status = ("problem" if any(f.level == "problem" for f in findings) else
              "not verified" if not_verified else
              "ok" if known else "nothing checked")  # never "no problems" about nothing
    return {"path": str(p), "status": status, "files": [r.to_json() for r in known], "unknown_files": unknown,
            "not_verified": list(dict.fromkeys(not_verified)), "skipped": skipped,
            "subfolders": [e.path.name for e in listed if e.kind == "folder" and e.path not in companions],
            "findings": [f.to_json() for f in findings]}


def _refusals(refused: list[Exception], names: dict[str, str], findings: list[Finding],
              not_verified: list[str]) -> None:
    """What the budget refused while the checks ran (`budget.BudgetError`, whoever caught it) was not
    read: never a proven problem. A problem that quotes a refusal becomes a "not verified" note, and the
    file refused is not verified."""
    if not refused:
        return
    said = [str(e.message) for e in refused if isinstance(e, BinparseError)]
    for k, f in enumerate(findings):
        if f.level == "problem" and any(s in f.text for s in said):
            findings[k] = Finding("note", f"not verified: {f.text}", f.files)
    for e in refused:
        file = getattr(e, "file", None)
        name = names.get(str(file)) or (os.path.basename(str(file)) if file else "budget")
        if name not in not_verified:
            not_verified.append(name)
            if not any(str(e.message) in f.text for f in findings if isinstance(e, BinparseError)):
                findings.append(Finding("note", f"not verified: {e}", [name]))


def _passed_over(readable: list[FileReport], findings: list[Finding], not_verified: list[str]) -> None:
    """The core's guarantee that no family's doctor drops a file: a file of a kind a check reads
    every file of (`family.register_check(reads=...)`) that no finding names was passed over (a
    check that met what it could not read and went on): it is said as not verified, never "ok"."""
    reads = read_by_checks()
    named = {n for f in findings for n in f.files}
    for r in readable:
        check = reads.get((r.family, r.kind))
        if check is not None and r.name not in named and r.name not in not_verified:
            not_verified.append(r.name)
            findings.append(Finding("note", f"not verified: {r.name} ({r.family} {r.kind}): no check read it "
                                            f"({check} passed over it); please report it", [r.name]))


def _unlisted(folder: Path, exc: PathError) -> dict[str, Any]:
    """The report of a folder below the one given that could not be listed (permission denied)."""
    name = folder.name + "/"
    return {"path": str(folder), "status": "not verified", "files": [], "unknown_files": [],
            "not_verified": [name], "skipped": [], "subfolders": [],
            "findings": [Finding("note", f"not verified: the folder could not be listed: {exc.message}",
                                 [name]).to_json()]}


def _walk(root: Path) -> list[Path]:
    """`root` and every folder below it, links not followed, companions left to their folder: a
    loop, not a recursion (a tree 1,200 folders deep is walked whole); a folder that cannot be
    listed (permission denied, a path longer than the system allows) is reported by `doctor`."""
    folders, todo = [root], [root]
    while todo:
        here = todo.pop()
        try:
            with os.scandir(here) as it:
                dirs = [e.name for e in it if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
        companions = set(_companions(here)) if dirs else set()
        below = [here / d for d in sorted(dirs) if here / d not in companions]
        folders += below
        todo += reversed(below)
    return folders


def doctor_tree(path: str | os.PathLike[str], options: Any = None,
                each: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The doctor's reports of a folder and of every folder below it that holds files (`-r`).

    Each folder is checked on its own (files agree with the files beside them, as the tools
    write a compile's artifacts into one folder), with its companion sub-folders (not checked
    again on their own); status is the worst of them. Links are never walked into (a link is
    listed as such where it is); a folder that cannot be listed is a finding about it. `tally`
    counts the folders walked, the files, problems, notes and what is not verified.

    `each` is given every folder's report the tree will list as soon as it is made (the command
    line prints them one by one); a progress line counts the folders on a terminal (`progress`).
    """
    from ..core.progress import counting
    root = Path(path)
    if not root.is_dir():
        doc = doctor(root, options)
        if each is not None:
            each(doc)
        return {"path": str(root), "status": doc["status"], "folders": [doc], "tally": tally([doc], 1)}
    folders = _walk(root)
    docs: list[dict[str, Any]] = []
    checked: list[dict[str, Any]] = []
    ordered = sorted(folders, key=lambda x: (x != root, str(x)))
    for k, f in enumerate(ordered):
        counting("doctor", len(ordered), k, str(f))
        try:
            doc = doctor(f, options, root)
        except PathError as exc:
            if f == root:
                raise
            doc = _unlisted(f, exc)
        except OSError as exc:  # e.g. a path longer than the system allows (ENAMETOOLONG): that folder unread
            if f == root:
                raise
            doc = _unlisted(f, PathError(f"cannot read it: {exc.strerror or exc}"
                                         + (f" (its path is {len(os.fsencode(f)):,} bytes)"
                                            if exc.errno == errno.ENAMETOOLONG else ""), file=str(f)))
        if f == root or doc["files"] or doc["unknown_files"] or doc["not_verified"] or doc["skipped"]:
            docs.append(doc)
            if doc["status"] != "nothing checked":
                checked.append(doc)
                if each is not None:
                    each(doc)
    counting("doctor", len(ordered), len(ordered))
    if not checked and each is not None:
        each(docs[0])
    status = worst(d["status"] for d in docs) if checked else "nothing checked"
    return {"path": str(root), "status": status, "folders": checked or docs[:1], "tally": tally(docs, len(folders))}


__all__ = ["doctor", "doctor_tree", "exit_code", "report_text", "worst"]
