"""The README and docs/ are true: every shown command and Python line runs from a fresh checkout and prints
what the page shows (tools/docs_outputs.py does the running; `--update` rewrites the outputs)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import IN_CI, REPO

_spec = importlib.util.spec_from_file_location("docs_outputs", REPO / "tools" / "docs_outputs.py")
assert _spec is not None and _spec.loader is not None
docs_outputs = importlib.util.module_from_spec(_spec)
sys.modules["docs_outputs"] = docs_outputs
_spec.loader.exec_module(docs_outputs)

PAGES = [p for p in docs_outputs.pages(REPO) if docs_outputs.blocks(p.read_text())]
# Pages other branches add: linked before they exist, tolerated only while absent.
PENDING = {"docs/tidl-11.md", "docs/tidl-records.md", "docs/espdl-repair.md", "docs/espdl-decoder.md",
           "docs/espdl-onnx.md", "docs/intel-ip.md", "docs/contracts.md", "docs/benchmarks-run.md"}
TEST_COMMAND = "pip install -e '.[test]' && python -m pytest"
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.fixture(scope="module")
def checkouts() -> Iterator[dict[bool, Path]]:
    """One fresh copy of the checkout with ../shared/real beside it (the docs pages) and one without (the
    README, as a clone of the repository has none), made once for every page: each page checks what its
    own commands leave behind."""
    with contextlib.ExitStack() as stack:
        yield {real: stack.enter_context(docs_outputs.checkout(REPO, real=real)) for real in (True, False)}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_page_examples_run_as_shown(page: Path, checkouts: dict[bool, Path]) -> None:
    if IN_CI and not docs_outputs.REAL.is_dir():
        pytest.fail(f"CI must run every example, and {docs_outputs.REAL} is absent")
    repo_before = docs_outputs.git_status(REPO)
    readme = page.name == "README.md"  # a clone of the repository has no ../shared/real: the README runs without
    cwd = checkouts[not readme]
    before = docs_outputs.git_status(cwd)
    assert before or not IN_CI, "git is needed to check what the pages' commands leave behind"
    bs = docs_outputs.run_page(page, cwd)
    behind = docs_outputs.left_behind(cwd, before)
    # a reader who runs the page's commands from the repository root leaves it as clean as it was:
    # every file they write is in out/ (ignored), none lands beside the tracked files
    assert not behind, f"{page.name}: its commands leave files git does not ignore: {behind}"
    assert docs_outputs.git_status(REPO) == repo_before, "the docs test changed the checkout it runs from"
    ran = sum(c.got is not None for b in bs for c in b.commands) + sum(b.kind == "pycon" and not b.skipped for b in bs)
    diffs = docs_outputs.differences(page, bs)
    assert not diffs, ("\n\n".join(diffs) + "\n\n(if the new outputs are right: python tools/docs_outputs.py "
                       f"--update {page.relative_to(REPO)})")
    skipped = [c.text for b in bs for c in b.commands if c.got is None] + [f"pycon block at line {b.start}"
                                                                          for b in bs if b.skipped]
    assert ran or skipped, f"{page.name}: nothing ran"
    assert not (readme and skipped), f"the README's commands must run on a fresh clone, without ../shared/real: {skipped}"
    if skipped:
        pytest.skip(f"{len(skipped)} example(s) need {docs_outputs.REAL}, absent: {skipped[0]} ...")


def test_readme_runs_and_ci_runs_the_same_test_command() -> None:
    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert TEST_COMMAND in readme
    assert TEST_COMMAND in ci, "the README's test command is the line .ci/run executes"
    assert "python3 -m venv .venv && . .venv/bin/activate" in readme  # Debian's Python refuses a bare pip install


def test_readme_is_a_short_front_page() -> None:
    lines = (REPO / "README.md").read_text().splitlines()
    long = [i + 1 for i, line in enumerate(lines) if len(line) > 200]
    assert not long, f"README.md lines over 200 characters: {long}"
    assert len(lines) < 200, len(lines)
    table = next(i for i, line in enumerate(lines) if line.startswith("| family"))
    assert table < 80, f"the formats table starts at line {table + 1}"


def test_links_point_at_files() -> None:
    missing = []
    for page in docs_outputs.pages(REPO):
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            rel = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else str(path)
            if not path.exists() and rel not in PENDING:
                missing.append(f"{page.relative_to(REPO)} -> {target}")
    assert not missing, missing


def test_shown_output_matching() -> None:
    m = docs_outputs.matches
    assert m(["a  ", "b"], "a\nb   \n")
    assert m(["first", "...", "last"], "first\n2\n3\nlast\n")
    assert m(["x: ... bytes"], "x: 37,256 bytes\n")
    assert not m(["first", "last"], "first\n2\nlast\n")
    assert not m(["first", "...", "last"], "first\nlast\nmore\n")


SAMPLE = """# t

```console
$ binparse inspect fixtures/tidl/io_08x/900_tidl_io_1.bin --json   # a comment
{"wrong": 1}

$ binparse inspect fixtures/tidl/io_08x/900_tidl_io_1.bin
...
```

```console
$ binparse schema diff tidl.io.j7_08 tidl.io.j7_10.c1
tidl.io.j7_08 → tidl.io.j7_10.c0: 47 change(s)
...
  added    nothing
```

```pycon
>>> import binparse
>>> binparse.open("fixtures/tidl/io_08x/900_tidl_io_1.bin").num_input_buf
3
```
"""


def test_update_rewrites_what_differs_and_keeps_what_matches(tmp_path: Path) -> None:
    page = tmp_path / "sample.md"
    page.write_text(SAMPLE)
    with docs_outputs.checkout(REPO) as cwd:
        bs = docs_outputs.run_page(page, cwd)
        assert len(docs_outputs.differences(page, bs)) == 3
        assert docs_outputs.rewrite(page, bs) == 3
        json_out = docs_outputs.run_command("binparse inspect fixtures/tidl/io_08x/900_tidl_io_1.bin --json", cwd)
        assert docs_outputs.differences(page, docs_outputs.run_page(page, cwd)) == []
    text = page.read_text()
    assert json_out.startswith("{") and '"num_input_buf"' not in json_out
    assert f"# a comment\n{json_out}\n$ binparse inspect" in text       # the blank line between commands kept
    assert "900_tidl_io_1.bin\n...\n```" in text                           # a matching `...` output kept
    assert ".num_input_buf\n2\n```" in text                                # the io file's 2 inputs
    # a cut output is cut again the same way: its first line, `...`, its last line
    assert ("tidl.io.j7_10.c1\ntidl.io.j7_08 → tidl.io.j7_10.c1: 48 change(s)\n...\n"
            "  added    num_valid_tensor_dims            at 94104 (512 bytes)\n```") in text


def test_a_command_writes_files_the_next_line_reads(tmp_path: Path) -> None:
    with docs_outputs.checkout(REPO) as cwd:
        assert not (cwd / ".venv").exists() and (cwd / "README.md").is_file()
        out = docs_outputs.run_command("binparse view fixtures/tidl/io_08x/900_tidl_io_1.bin "
                                       "fixtures/tidl/io_08x/output_1_seg_map.buffer.bin --output seg_map --npy s.npy",
                                       cwd)
        assert out.startswith("s.npy: output seg_map"), out
        view, expected = np.load(cwd / "s.npy"), np.load(cwd / "fixtures/tidl/io_08x/output_1_seg_map.expected.npy")
        assert view.shape == (1, 1, 1, 21, 64, 64) and np.array_equal(view, expected)
        assert not (REPO / "s.npy").exists()


def test_console_lines_are_binparse_or_python_without_shell_syntax(tmp_path: Path) -> None:
    assert docs_outputs.run_command('python -c "import binparse; print(binparse.__name__)"', tmp_path) == "binparse\n"
    for text in ("binparse schemas | head", "ls fixtures", "binparse schemas > list.txt"):
        with pytest.raises(ValueError, match="without shell syntax"):
            docs_outputs.run_command(text, tmp_path)


CODE = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"^binparse(\.[A-Za-z_][A-Za-z0-9_]*)+$")
REPO_PATH = re.compile(r"^(binparse|schemas|tests|tools|bench|fixtures|docs|\.ci)/[A-Za-z0-9_./-]*$")


# Named in `code` but not a module or a path in the repository: the entry-point group, what the bench generates.
NOT_NAMES = {"binparse.families", "bench/.out/"}


def _resolves(dotted: str) -> bool:
    import importlib
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        for attr in parts[n:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_names_of_modules_and_files_in_the_docs_exist() -> None:
    """A module, function or repository path the pages name in `code` exists (they drift when code moves)."""
    missing, checked = [], 0
    for page in docs_outputs.pages(REPO):
        for name in CODE.findall(page.read_text()):
            name = name.strip().rstrip(".,:;")
            if name in NOT_NAMES:
                continue
            checked += bool(DOTTED.match(name) or REPO_PATH.match(name))
            if DOTTED.match(name) and not _resolves(name):
                missing.append(f"{page.relative_to(REPO)}: {name}")
            elif REPO_PATH.match(name) and "*" not in name and not (REPO / name).exists():
                missing.append(f"{page.relative_to(REPO)}: {name}")
    assert not missing, missing
    assert checked > 20, checked


def test_what_c_libraries_write_to_the_terminal_is_shown_in_order() -> None:
    with docs_outputs._terminal() as (out, read):
        out.write("from python\n")
        os.write(2, b"from C, fd 2\n")
        out.buffer.write(b"bytes\n")
        os.write(1, b"from C, fd 1\n")
        assert read() == "from python\nfrom C, fd 2\nbytes\nfrom C, fd 1\n"
