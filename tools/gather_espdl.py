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
import sys
from collections import Counter
from pathlib import Path, PurePosixPath

from gitcorpus import blob, repo_folder, touched, tree

ENDINGS = (".espdl", ".info", ".json")


def _state(git_dir: Path, commit: str, folder: str) -> dict[str, str]:
    """name -> blob of the ESP-DL files directly in `folder` at `commit` (a .json only beside a model)."""
    files = {PurePosixPath(path).name: sha for path, sha, _ in tree(git_dir, commit, folder) if path.endswith(ENDINGS)}
    if not any(n.endswith((".espdl", ".info")) for n in files):
        return {}
    return files


def gather(out: Path, git_dirs: list[Path]) -> Counter[str]:
    written: set[str] = set()
    counts: Counter[str] = Counter()
    for git_dir in git_dirs:
        repo = repo_folder(git_dir)
        seen: set[tuple[str, frozenset[tuple[str, str]]]] = set()
        for commit, folders in touched(git_dir, [f"*{e}" for e in ENDINGS], lambda p: str(PurePosixPath(p).parent)):
            for folder in sorted(folders):
                state = _state(git_dir, commit, folder)
                key = (folder, frozenset(state.items()))
                if not state or key in seen or set(state.values()) <= written:
                    continue
                seen.add(key)
                dest = out / repo / f"{folder.replace('/', '__')}@{commit[:8]}"
                kept = 0
                for name, sha in sorted(state.items()):
                    data = blob(git_dir, sha)
                    if data is None:  # a blob the mirror does not hold
                        counts["absent"] += 1
                        continue
                    dest.mkdir(parents=True, exist_ok=True)
                    (dest / name).write_bytes(data)
                    written.add(sha)
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
