"""Run the examples of README.md and docs/*.md and check (or rewrite) the outputs they show.

    python tools/docs_outputs.py --check [FILE.md ...]    # exit 1 and a diff for each output that differs
    python tools/docs_outputs.py --update [FILE.md ...]   # rewrite the shown outputs with what runs today

What runs: in a ```console block every line `$ binparse ARGS` or `$ python ARGS` (shell words, a trailing
`# comment` ignored, no pipes or redirections), followed by the output shown; in a ```pycon block every `>>> ` example, as a doctest
(ELLIPSIS, NORMALIZE_WHITESPACE). The blocks of a file run in the order they appear, in one fresh
copy of the checkout (the files git tracks, in a temporary folder with `../shared/real` beside it),
from its root: a file an earlier line writes is there for the lines after it; the pycon blocks of a
file share their names. The copy is a git work tree of its own (`git init`, every file added), so
that `left_behind` can say which files a page's commands wrote that git does not ignore: the docs
write their outputs into `out/` (ignored), and a reader who runs them from the repository root
leaves the checkout as clean as it was (tests/test_docs.py asserts it for every page). `binparse` runs in this process (`binparse.cli.console`, stdout and stderr
and what C libraries write to file descriptors 1 and 2, captured together in the order written, as a
terminal shows them); `python` in a subprocess. A shown output matches when it is what the command
prints, trailing spaces aside; a line or part of a line `...` stands for anything (doctest's ELLIPSIS).
Lines and blocks naming `../shared/real` or `../shared/conformance` are skipped when that folder is absent.

`--update` keeps every shown output that still matches (its `...` included) and replaces the others
with the output of today, cut as the old one was (as many lines before its first whole-line `...` and
after its last); a part of a line `...` is not kept: put it back where the page means it.
tests/test_docs.py runs the same check.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = Path(os.environ.get("BINPARSE_REAL", ROOT.parent / "shared" / "real"))
REAL_WORD = "../shared/real"
# Kaitai's gallery and its samples, the test suite (docs/ksy.md reads gallery schemas on gallery samples)
CONFORMANCE = Path(os.environ.get("BINPARSE_CONFORMANCE", ROOT.parent / "shared" / "conformance"))
CONFORMANCE_WORD = "../shared/conformance"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass
class Command:
    """One `$ binparse …` line of a console block and the output lines shown under it."""
    line: int                       # index in the file's lines of the `$` line
    text: str
    shown: list[str]
    got: str | None = None          # what it printed; None when skipped


@dataclass
class Block:
    """A fenced block to run: `console` (commands) or `pycon` (a doctest)."""
    kind: str
    start: int                      # index of the first line inside the fence
    lines: list[str]
    commands: list[Command] = field(default_factory=list)
    failures: list[tuple[doctest.Example, str]] = field(default_factory=list)
    skipped: bool = False


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every docs/*.md, the pages whose examples run."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def blocks(text: str) -> list[Block]:
    """The console and pycon blocks of a Markdown text, in order."""
    out: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        if m.group(1) in ("console", "pycon"):
            b = Block(m.group(1), i + 1, lines[i + 1:j])
            if b.kind == "console":
                b.commands = _commands(b)
            out.append(b)
        i = j + 1
    return out


def _commands(b: Block) -> list[Command]:
    cmds: list[Command] = []
    for k, line in enumerate(b.lines):
        if line.startswith("$ "):
            cmds.append(Command(b.start + k, line[2:].strip(), []))
        elif cmds:
            cmds[-1].shown.append(line)
        elif line.strip():
            raise ValueError(f"line {b.start + k + 1}: output before any `$ ` command in a console block")
    return cmds


def _norm(text: str) -> str:
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def matches(shown: list[str], got: str) -> bool:
    """Whether the output shown is what ran: exact after trailing spaces, `...` matching anything."""
    want = _norm("\n".join(shown))
    return want == _norm(got) or doctest.OutputChecker().check_output(want, _norm(got), doctest.ELLIPSIS)


def git_status(cwd: Path) -> list[str]:
    """`git status --porcelain` of the work tree at cwd, every untracked file listed (empty when git is absent)."""
    try:
        done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=cwd,
                              capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    return done.stdout.decode(errors="replace").splitlines()


def left_behind(cwd: Path, before: list[str]) -> list[str]:
    """What git sees changed in the work tree at cwd since `before` (its `git_status` then): files a
    page's commands wrote outside the folders git ignores, or tracked files they changed."""
    was = set(before)
    return [line for line in git_status(cwd) if line not in was]


@contextlib.contextmanager
def checkout(root: Path = ROOT, real: bool = True) -> Iterator[Path]:
    """A fresh copy of the files git tracks, with ../shared/real and ../shared/conformance beside it (when
    present here and `real`; the README runs without them, as a clone of the repository does): a git work
    tree of its own with every file added (`git_status`), when git is installed."""
    with tempfile.TemporaryDirectory(prefix="binparse-docs-") as tmp:
        dst = Path(tmp) / "binparse"
        try:
            names = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True
                                   ).stdout.decode().split("\0")
        except (OSError, subprocess.CalledProcessError):  # not a git checkout: everything but the usual clutter
            names = [str(p.relative_to(root)) for p in root.rglob("*")
                     if p.is_file() and not {".git", ".venv", "__pycache__", ".kaitai"} & set(p.parts)]
        for name in filter(None, names):
            src = root / name
            if src.is_file() and not src.is_symlink():
                (dst / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst / name)
        with contextlib.suppress(OSError, subprocess.CalledProcessError):  # git_status says [] without git
            subprocess.run(["git", "init", "-q"], cwd=dst, check=True, capture_output=True)
            subprocess.run(["git", "add", "-A"], cwd=dst, check=True, capture_output=True)
        for name, src in (("real", REAL), ("conformance", CONFORMANCE)):
            if real and src.is_dir():
                (Path(tmp) / "shared").mkdir(exist_ok=True)
                (Path(tmp) / "shared" / name).symlink_to(src.resolve(), target_is_directory=True)
        yield dst


@contextlib.contextmanager
def _process_like(cwd: Path) -> Iterator[None]:
    """Run as a fresh `binparse` process would: in cwd, Python's default warning filters, 100 columns."""
    old_cwd, old_cols = Path.cwd(), os.environ.get("COLUMNS")
    old_fmt = warnings.formatwarning
    os.chdir(cwd)
    os.environ["COLUMNS"] = "100"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            for cat in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", cat)
            warnings.showwarning = _show  # to stderr as Python does, even where pytest records warnings
            yield
    finally:
        warnings.formatwarning = old_fmt
        os.chdir(old_cwd)
        if old_cols is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old_cols


def _show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
          file: object = None, line: str | None = None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


SHELL = {"|", "||", "&&", ";", ">", ">>", "<", "2>", "&"}


def run_command(text: str, cwd: Path) -> str:
    """stdout and stderr of `binparse ARGS` (run in this process) or `python ARGS` (a subprocess), from cwd."""
    words = shlex.split(text, comments=True)
    if not words or words[0] not in ("binparse", "python", "python3") or SHELL & set(words):
        raise ValueError(f"console blocks run `binparse ...` or `python ...` lines without shell syntax "
                         f"(use a ```sh block for others): $ {text}")
    if words[0] != "binparse":
        done = subprocess.run([sys.executable, *words[1:]], cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env={**os.environ, "COLUMNS": "100"}, timeout=600)
        return done.stdout.decode(errors="replace")
    from binparse.cli import console
    old_argv = sys.argv
    sys.argv = words
    try:
        with _process_like(cwd), _terminal() as (out, read):
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                try:
                    console()
                except SystemExit:  # argparse: usage errors and --help
                    pass
            return read()
    finally:
        sys.argv = old_argv


@contextlib.contextmanager
def _terminal() -> Iterator[tuple[io.TextIOWrapper, Callable[[], str]]]:
    """One file standing for the terminal: file descriptors 1 and 2 (what C libraries such as onnxruntime
    write to) and a text stream with a .buffer for sys.stdout and sys.stderr, all at one shared offset,
    so that the text comes out in the order it was written, as a terminal shows it."""
    sink = tempfile.TemporaryFile()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            stream.flush()
    saved = os.dup(1), os.dup(2)
    out = io.TextIOWrapper(io.FileIO(os.dup(sink.fileno()), "w"), encoding="utf-8", errors="replace",
                           write_through=True)

    def read() -> str:
        out.flush()
        sink.seek(0)
        return sink.read().decode("utf-8", errors="replace")
    try:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        yield out, read
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
        out.close()
        sink.close()


class _Runner(doctest.DocTestRunner):
    """A doctest runner that records each failing example with what it printed."""

    def __init__(self) -> None:
        super().__init__(optionflags=FLAGS)
        self.failed_examples: list[tuple[doctest.Example, str]] = []

    def report_failure(self, out, test, example, got):  # type: ignore[no-untyped-def]
        self.failed_examples.append((example, got))

    def report_unexpected_exception(self, out, test, example, exc_info):  # type: ignore[no-untyped-def]
        last = "".join(traceback.format_exception_only(*exc_info[:2])).rstrip()
        self.failed_examples.append((example, f"Traceback (most recent call last):\n  ...\n{last}\n"))


def run_page(page: Path, cwd: Path) -> list[Block]:
    """Run every block of a page in order in cwd (a checkout); each block records what it printed."""
    absent = [word for word, name in ((REAL_WORD, "real"), (CONFORMANCE_WORD, "conformance"))
              if not (cwd.parent / "shared" / name).is_dir()]
    globs: dict[str, object] = {"__name__": "__main__"}
    pycon_skipped = False
    bs = blocks(page.read_text())
    for b in bs:
        if b.kind == "console":
            for c in b.commands:
                if any(word in c.text for word in absent):
                    continue
                c.got = run_command(c.text, cwd)
            continue
        if pycon_skipped or any(word in "\n".join(b.lines) for word in absent):
            b.skipped = pycon_skipped = True  # later blocks may use the names this one makes
            continue
        test = doctest.DocTestParser().get_doctest("\n".join(b.lines) + "\n", globs, f"{page.name}:{b.start + 1}",
                                                   str(page), b.start)
        runner = _Runner()
        with _process_like(cwd):
            runner.run(test, clear_globs=False)
        globs.update(test.globs)  # DocTest runs on a copy: the names a block makes are the next blocks'
        b.failures = runner.failed_examples
    return bs


def differences(page: Path, bs: list[Block]) -> list[str]:
    """A readable report of every shown output that is not what ran."""
    rel = page.name if page.parent.name != "docs" else f"docs/{page.name}"
    report = []
    for b in bs:
        for c in b.commands:
            if c.got is not None and not matches(c.shown, c.got):
                report.append(f"{rel}:{c.line + 1}: $ {c.text}\n--- shown\n" + "\n".join(c.shown)
                              + f"\n--- printed\n{c.got}")
        for ex, got in b.failures:
            report.append(f"{rel}:{b.start + ex.lineno + 1}: >>> {ex.source.rstrip()}\n--- shown\n{ex.want}"
                          f"--- printed\n{got}")
    return report


def abbreviate(shown: list[str], new: list[str]) -> list[str]:
    """The new output, cut as the shown one was: as many lines before its first `...` line and after its last."""
    cuts = [i for i, line in enumerate(shown) if line.strip() == "..."]
    if not cuts:
        return new
    head, tail = cuts[0], len(shown) - 1 - cuts[-1]
    if head + tail + 1 >= len(new):
        return new
    return new[:head] + [shown[cuts[0]]] + (new[len(new) - tail:] if tail else [])


def rewrite(page: Path, bs: list[Block]) -> int:
    """Write what ran in place of each shown output that differs; the number of outputs rewritten."""
    lines = page.read_text().splitlines()
    edits: list[tuple[int, int, list[str]]] = []  # (first, end) line indices to replace, new lines
    for b in bs:
        for c in b.commands:
            if c.got is not None and not matches(c.shown, c.got):
                shown = len(c.shown)
                while shown and not c.shown[shown - 1].strip():  # keep the blank lines between commands
                    shown -= 1
                edits.append((c.line + 1, c.line + 1 + shown,
                              abbreviate(c.shown[:shown], [s.rstrip() for s in c.got.splitlines()])))
        for ex, got in b.failures:
            first = b.start + ex.lineno + ex.source.count("\n")
            edits.append((first, first + len(ex.want.splitlines()),
                           [s.rstrip() or "<BLANKLINE>" for s in got.splitlines()]))
    for first, end, new in sorted(edits, reverse=True):
        lines[first:end] = new
    if edits:
        page.write_text("\n".join(lines) + "\n")
    return len(edits)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="report each output that differs (exit 1)")
    mode.add_argument("--update", action="store_true", help="rewrite the outputs that differ in place")
    ap.add_argument("pages", nargs="*", type=Path, help="Markdown files (default: README.md and docs/*.md)")
    args = ap.parse_args(argv)
    status = 0
    for page in [p.resolve() for p in args.pages] or pages():
        with checkout() as cwd:
            before = git_status(cwd)
            bs = run_page(page, cwd)
            behind = left_behind(cwd, before)
        if behind:
            print(f"{page.relative_to(ROOT)}: its commands leave files git does not ignore (write them into out/): "
                  + ", ".join(behind))
            status = 1
        if args.update:
            for d in differences(page, bs):
                print("rewritten:", d.split("\n", 1)[0][:160])
            n = rewrite(page, bs)
            print(f"{page.relative_to(ROOT)}: {n} output(s) rewritten (review the diff)")
        else:
            for d in differences(page, bs):
                print(d)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
