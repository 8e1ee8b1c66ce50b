"""Gather the TIDL files of git repositories (newest commit and whole history) into a corpus for tools/sweep_tidl.py.

    python tools/gather_tidl.py OUT GIT_DIR [GIT_DIR ...]

OUT gets one folder per repository, `OWNER+REPO/`, and a `MANIFEST.tsv`. A TIDL file is one TI's tools
write: nets and io descriptors (`*_tidl_net.bin`, `*_tidl_io_1.bin`, AM57x `tidl_*.bin` and
`tidl_config_*.txt`), printouts (netLog, layer_info, paramDebug), records
(`param.yaml`, `onnxrtMetaData.txt`, `allowedNode.txt`), layer traces, everything in a `tempDir/`, and a
renamed `*_net.bin` / `*_io.bin` whose bytes are a TIDL net's or io descriptor's. Files sit together
as a model folder: the folder of a file, its `tempDir/` with it, and an `artifacts/` folder with the
folder above it (where edgeai-benchmark and the model zoo keep `param.yaml`).

Each model folder of the newest commit (the snapshot's HEAD) is laid out where it sits in the repository,
`OWNER+REPO/PATH/`; each other state of it in the whole history (every ref) whose files were not all
written already (by a newer state, an earlier commit, or another repository: forks share history) as
`OWNER+REPO/PATH@COMMIT/` (`@COMMIT/` for the repository's top folder). A state of `param.yaml` alone is
left out. MANIFEST.tsv lists every file of every state laid out: repo, commit, path, blob, bytes,
status (`ok`; `absent` where the git directory lacks the blob, as fetched snapshots lack files of 4 MiB
and more; `lfs-pointer` where it holds a Git LFS pointer, the content never fetched; neither is written)
and folder (where it is in OUT). Prints what it wrote per repository.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import sys
from collections import Counter
from pathlib import Path, PurePosixPath

from binparse.formats.tidl.plugin import IO_NAMES, RECORD_NAMES, TRACE_NAMES, net_head
from binparse.formats.tidl.records.folder import ARTIFACTS, PRINTOUTS
from gitcorpus import blob, git, lfs_size, repo_folder, touched, tree

NAMES = (*ARTIFACTS, *PRINTOUTS, *RECORD_NAMES, *TRACE_NAMES, "tidl_*.bin", "tidl_config_*.txt")  # tidl_*.bin: AM57x
SNIFFED = ("*_net.bin", "*_io.bin")  # a net or io descriptor renamed: kept when its bytes are TIDL's
COMPANION = "tempDir"
FIELDS = ("repo", "commit", "path", "blob", "bytes", "status", "folder")


def _named(path: str) -> bool:
    p = PurePosixPath(path)
    return COMPANION in p.parts[:-1] or any(fnmatch.fnmatchcase(p.name, n) for n in (*NAMES, *SNIFFED))


def model_folder(path: str) -> str | None:
    """The model folder a repository path belongs with, or None for a file that is not TIDL's."""
    if not _named(path):
        return None
    parts = PurePosixPath(path).parts
    folder = PurePosixPath(*parts[:parts.index(COMPANION)]) if COMPANION in parts[:-1] else PurePosixPath(path).parent
    if folder.name == "artifacts":
        folder = folder.parent
    return str(folder)


class Gatherer:
    """Lays out the model folders of git directories in OUT, one state at a time, and lists each file."""

    def __init__(self, out: Path) -> None:
        from binparse.formats.tidl.register import IO_FORMATS, NET_FORMATS
        self.out, self.sizes = out, {f.size for f in (*IO_FORMATS, *NET_FORMATS) if f.size}
        self.done: set[str] = set()  # blobs laid out, listed, or found not TIDL's already
        self.rows: list[dict[str, str]] = []
        self.counts: dict[str, Counter[str]] = {}

    def _tidl_bytes(self, name: str, data: bytes | None) -> bool:
        """A file named for TIDL is one; a renamed `*_net.bin`/`*_io.bin` only when its bytes are (a J7 netVersion,
        or the size of an io descriptor or of an AM57x net)."""
        if any(fnmatch.fnmatchcase(name, n) for n in NAMES):
            return True
        return data is not None and (net_head(data[:4]) is not None or len(data) in self.sizes)

    def state(self, git_dir: Path, commit: str, folder: str) -> dict[str, tuple[str, int | None]]:
        """path -> (blob, bytes) of the TIDL files of one model folder at `commit`."""
        files = {p: (sha, size) for p, sha, size in tree(git_dir, commit, folder, recursive=True)
                 if model_folder(p) == folder}
        if all(PurePosixPath(p).name == "param.yaml" for p in files):
            return {}
        return files

    def lay_out(self, git_dir: Path, repo: str, commit: str, folder: str,
                files: dict[str, tuple[str, int | None]], dest: Path) -> None:
        counts = self.counts.setdefault(repo, Counter())
        kept = 0
        for path, (sha, size) in sorted(files.items()):
            data = blob(git_dir, sha)
            name = PurePosixPath(path).name
            if COMPANION not in PurePosixPath(path).parts[:-1] and not self._tidl_bytes(name, data):
                self.done.add(sha)
                continue  # a renamed .bin that is not TIDL's, or one the mirror lacks (its kind unknown)
            lfs = lfs_size(data) if data is not None else None
            status = "absent" if data is None else "lfs-pointer" if lfs is not None else "ok"
            rel = PurePosixPath(path).relative_to(folder) if folder != "." else PurePosixPath(path)
            target = dest / rel
            self.rows.append({"repo": repo.replace("+", "/", 1), "commit": commit, "path": path, "blob": sha,
                              "bytes": str(lfs if lfs is not None else size if size is not None else "-"),
                              "status": status, "folder": target.relative_to(self.out).as_posix()})
            self.done.add(sha)
            counts[status] += 1
            if data is None or lfs is not None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            kept += 1
        counts["folders"] += bool(kept)

    def gather(self, git_dir: Path) -> None:
        repo = repo_folder(git_dir)
        head = git(git_dir, "rev-parse", "HEAD").strip()
        seen: set[tuple[str, frozenset[tuple[str, tuple[str, int | None]]]]] = set()
        now = sorted({f for p, _, _ in tree(git_dir, head, ".", recursive=True) if (f := model_folder(p)) is not None})
        history = [(c, f) for c, folders in touched(git_dir, [*NAMES, *SNIFFED, f"*{COMPANION}/*"], model_folder) for f in sorted(folders)]
        for commit, folder in [(head, f) for f in now] + history:
            files = self.state(git_dir, commit, folder)
            key = (folder, frozenset(files.items()))
            if not files or key in seen or {sha for sha, _ in files.values()} <= self.done:
                continue
            seen.add(key)
            where = self.out / repo / folder if commit == head else (
                self.out / repo / f"{folder}@{commit[:8]}" if folder != "." else self.out / repo / f"@{commit[:8]}")
            self.lay_out(git_dir, repo, commit, folder, files, where)
        self.counts.setdefault(repo, Counter())

    def manifest(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        with (self.out / "MANIFEST.tsv").open("w", newline="") as f:
            w = csv.DictWriter(f, FIELDS, delimiter="\t", lineterminator="\n")
            w.writeheader()
            w.writerows(self.rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("git_dirs", type=Path, nargs="+")
    a = ap.parse_args(argv)
    g = Gatherer(a.out)
    for git_dir in a.git_dirs:
        g.gather(git_dir)
    g.manifest()
    total: Counter[str] = Counter()
    for repo, c in g.counts.items():
        total.update(c)
        print(f"{repo}: {c['folders']} folders, {c['ok']} files, {c['absent']} absent, {c['lfs-pointer']} lfs-pointer")
    print(f"in all: {len(g.counts)} repositories, {total['folders']} folders, {total['ok']} files, "
          f"{total['absent']} absent, {total['lfs-pointer']} lfs-pointer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
