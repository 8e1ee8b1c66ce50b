"""Gather every ESP-DL file of git repositories' whole history into a corpus for tools/sweep_espdl.py.

    python tools/gather_espdl.py OUT GIT_DIR [GIT_DIR ...]

For each repository (a git directory: a clone, or a bare mirror), every commit that added or changed a
`.espdl`, `.info` or `.json` file is looked at; each folder that then holds a `.espdl` or `.info` gives
one corpus folder per distinct state of its ESP-DL files (`.espdl`, `.info`, and the `.json` beside
them), named `OWNER+REPO/PATH@COMMIT`, as the files sat together. A state whose files were all written
already (by an earlier commit or another repository: forks share history) is left out, and so is a
file whose blob the git directory does not hold (a mirror may leave its largest files out). Prints
what it wrote: folders, files by ending, repositories.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path, PurePosixPath

ENDINGS = (".espdl", ".info", ".json")


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True).stdout


def _touched(git_dir: Path) -> list[tuple[str, set[str]]]:
    """(commit, folders whose ESP-DL files it added or changed), oldest first."""
    out = _git(git_dir, "log", "--all", "--reverse", "--format=@%H", "--name-only", "--no-renames", "--diff-filter=AM", "--",
               *[f"*{e}" for e in ENDINGS])
    commits: list[tuple[str, set[str]]] = []
    for line in out.splitlines():
        if line.startswith("@"):
            commits.append((line[1:], set()))
        elif line.strip() and commits:
            commits[-1][1].add(str(PurePosixPath(line).parent))
    return [(c, f) for c, f in commits if f]


def _state(git_dir: Path, commit: str, folder: str) -> dict[str, str]:
    """name -> blob of the ESP-DL files directly in `folder` at `commit` (a .json only beside a model)."""
    out = _git(git_dir, "ls-tree", commit, *(["--", folder + "/"] if folder != "." else []))
    files = {}
    for line in out.splitlines():
        meta, _, path = line.partition("\t")
        kind, blob = meta.split()[1:3]
        if kind == "blob" and path.endswith(ENDINGS):
            files[PurePosixPath(path).name] = blob
    if not any(n.endswith((".espdl", ".info")) for n in files):
        return {}
    return files


def gather(out: Path, git_dirs: list[Path]) -> Counter[str]:
    written: set[str] = set()
    counts: Counter[str] = Counter()
    for git_dir in git_dirs:
        repo = git_dir.parent.name if git_dir.name in ("repo", ".git") else git_dir.name
        seen: set[tuple[str, frozenset[tuple[str, str]]]] = set()
        for commit, folders in _touched(git_dir):
            for folder in sorted(folders):
                state = _state(git_dir, commit, folder)
                key = (folder, frozenset(state.items()))
                if not state or key in seen or set(state.values()) <= written:
                    continue
                seen.add(key)
                dest = out / repo / f"{folder.replace('/', '__')}@{commit[:8]}"
                kept = 0
                for name, blob in sorted(state.items()):
                    got = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", blob],
                                         capture_output=True)
                    if got.returncode != 0:  # a blob the mirror does not hold
                        counts["absent"] += 1
                        continue
                    dest.mkdir(parents=True, exist_ok=True)
                    (dest / name).write_bytes(got.stdout)
                    written.add(blob)
                    counts[PurePosixPath(name).suffix] += 1
                    kept += 1
                counts["folders"] += bool(kept)
        counts["repositories"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("git_dirs", type=Path, nargs="+")
    a = ap.parse_args(argv)
    counts = gather(a.out, a.git_dirs)
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
