"""What the gather tools (tools/gather_espdl.py, tools/gather_tidl.py) ask of a git directory.

A git directory is a clone's `.git` or a bare mirror (`fetch` snapshots: no work tree; files of 4 MiB
and more, and Git LFS content, may be absent). Every commit of every ref is looked at (`--all`), with
renames off (rename detection reads blobs a mirror may lack).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Callable

LFS_POINTER = b"version https://git-lfs.github.com/spec/v1"


def git(git_dir: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True).stdout


def repo_folder(git_dir: Path) -> str:
    """OWNER+REPO of a snapshot at /work/.mirror/OWNER+REPO/repo (or a clone's OWNER+REPO/.git)."""
    git_dir = git_dir.resolve()
    while git_dir.name in ("repo", ".git"):
        git_dir = git_dir.parent
    return git_dir.name


def touched(git_dir: Path, pathspecs: list[str], folder_of: Callable[[str], str | None]
            ) -> list[tuple[str, set[str]]]:
    """(commit, the folders `folder_of` gives for the paths it added or changed), oldest first; a path
    `folder_of` declines (None) is not counted."""
    out = git(git_dir, "log", "--all", "--reverse", "--format=@%H", "--name-only", "--no-renames",
              "--diff-filter=AM", "--", *pathspecs)
    commits: list[tuple[str, set[str]]] = []
    for line in out.splitlines():
        if line.startswith("@"):
            commits.append((line[1:], set()))
        elif line.strip() and commits and (folder := folder_of(line)) is not None:
            commits[-1][1].add(folder)
    return [(c, f) for c, f in commits if f]


def tree(git_dir: Path, commit: str, folder: str, recursive: bool = False) -> list[tuple[str, str, int | None]]:
    """(path, blob, bytes) of the files in `folder` at `commit` (below it too with `recursive`); bytes
    None where the git directory lacks the blob."""
    args = ["ls-tree", "-l", *(["-r"] if recursive else []), commit]
    out = git(git_dir, *args, *(["--", folder + "/"] if folder != "." else []))
    files = []
    for line in out.splitlines():
        meta, _, path = line.partition("\t")
        _mode, kind, blob, size = meta.split()
        if kind == "blob":
            files.append((path, blob, int(size) if size.isdigit() else None))
    return files


def blob(git_dir: Path, sha: str) -> bytes | None:
    """A blob's bytes, or None where the git directory does not hold it."""
    got = subprocess.run(["git", f"--git-dir={git_dir}", "cat-file", "blob", sha], capture_output=True)
    return got.stdout if got.returncode == 0 else None


def lfs_size(data: bytes) -> int | None:
    """The size a Git LFS pointer names (its content was never fetched), or None for any other file."""
    if not data.startswith(LFS_POINTER):
        return None
    for line in data.decode("ascii", "replace").splitlines():
        if line.startswith("size ") and line[5:].strip().isdigit():
            return int(line[5:])
    return -1


__all__ = ["blob", "git", "lfs_size", "repo_folder", "touched", "tree"]
