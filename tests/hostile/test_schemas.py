"""Hostile schemas through every entry point (issue 44, docs/contracts.md "Schemas are data"): the cases of
`schemas.py`, each run by the command line (`inspect`, `inspect --json`, `view --tensor`, `fixture
--schema`, `generate`) and the Python API (`binparse.compile(S).parse`, `binparse.open(path, schema=S)`,
the package `generate` wrote, imported), every value read. Each must:

- end within 10 s (`SECONDS`) with peak RSS within the budget of its inputs + 128 MiB;
- exit with a code the case allows (3: the schema refused at load, one line naming file, line and
  key; 0 or 2: read as data), one line a message, never a traceback nor "binparse failed";
- raise nothing but `BinparseError`s from the API;
- never create the marker file an escape would write (`schemas.MARKER`).

The default run takes a sample (`CASES` cases of each class, by `BINPARSE_HOSTILE_SEED`); the whole:
`BINPARSE_HOSTILE=all python -m pytest tests/hostile/test_schemas.py` (`BINPARSE_FULL=1` too;
`BINPARSE_HOSTILE_REPORT=FILE` adds a line of numbers a batch: cases, commands, the slowest, the highest
peak RSS and the least headroom under its bound, the exit codes of the command line).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from ..conftest import FULL
from . import schemas
from .harness import FORKED, INTERPRETER, bound, run

SECONDS = 10.0
EVERY = os.environ.get("BINPARSE_HOSTILE", "") == "all" or FULL  # the whole run (CONTRIBUTING.md "Slow tests")
CASES = int(os.environ.get("BINPARSE_HOSTILE_CASES", "2"))
SEED = os.environ.get("BINPARSE_HOSTILE_SEED", schemas.SEEDS)
ENTRIES = ("inspect", "inspect-json", "view", "fixture", "generate", "package", "compile", "open")

CHILD = r'''
import contextlib, faulthandler, io, json, os, sys, time, warnings
warnings.simplefilter("ignore")
LIMIT = float(sys.argv[3])
import numpy as np
import binparse
from binparse.cli import main
from binparse.core.errors import BinparseError
from binparse.engine.runtime import Accessor

def walk(root):
    """Every value reachable from `root` (a bound on how many), read as a user would read them."""
    todo, seen = [root], 0
    while todo and seen < 20000:
        v = todo.pop()
        seen += 1
        if isinstance(v, Accessor):
            for py in type(v)._MEMBERS.values():
                try:
                    todo.append(getattr(v, py))
                except BinparseError:
                    pass
        elif isinstance(v, (str, bytes, bytearray, np.ndarray, int, float, type(None))):
            str(v)
        elif hasattr(v, "__len__") and hasattr(v, "__getitem__"):
            try:
                todo += [v[k] for k in range(min(len(v), 64))]
            except BinparseError:
                pass
        else:
            str(v)

def api(kind, where, schema, data):
    import importlib
    if kind == "compile":
        walk(binparse.compile(schema).parse(data))
    elif kind == "open":
        walk(binparse.open(data, schema=schema))
    elif kind == "package":  # what `generate` wrote (the job before), imported as a user imports it
        pkg = os.path.join(where, "gen", "pkg")
        if not os.path.isdir(pkg):
            return  # nothing written (the schema refused): nothing to import
        sys.path.insert(0, os.path.join(where, "gen"))
        first = next(n[:-3] for n in sorted(os.listdir(pkg)) if n.endswith(".py") and n != "__init__.py")
        module = importlib.import_module("pkg." + first)
        mod = importlib.import_module(module.__name__)
        cls = getattr(mod, mod.__all__[0])
        if cls._SCHEMA != os.path.basename(schema)[:-4]:  # another module of the package: find the root's
            for n in sorted(os.listdir(pkg)):
                m = importlib.import_module("pkg." + n[:-3]) if n.endswith(".py") and n != "__init__.py" else None
                if m is not None and getattr(m, m.__all__[0])._SCHEMA == os.path.basename(schema)[:-4]:
                    cls = getattr(m, m.__all__[0])
        walk(Accessor.from_buffer.__func__(cls, open(data, "rb").read()))  # (a field may be called from_buffer)

def one(job):
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    faulthandler.dump_traceback_later(2 * LIMIT, exit=True, file=sys.__stderr__)
    where = job["where"]
    os.chdir(where)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if job["cli"]:
                code = main(job["argv"])
            else:
                api(job["kind"], where, job["schema"], job["data"])
                code = "ok"
        except SystemExit as exc:
            code = exc.code
        except BinparseError as exc:
            code = "BinparseError" if not job["cli"] else f"raised {type(exc).__name__}: {exc}"
        except BaseException as exc:
            code = f"raised {type(exc).__name__}: {str(exc)[:300]}"
    seconds = time.monotonic() - start
    faulthandler.cancel_dump_traceback_later()
    said = err.getvalue()
    # a message a line; a schema error's message may be followed by the schema's line and a caret under the
    # place (indented: the schema's own text, shown)
    lines_ok = all(line.startswith(("binparse: error: ", "binparse: warning: ", "binparse: not read: ",
                                    "binparse: note: ", "wrote: ", " ")) for line in said.splitlines())
    if job["cli"] and code == 3:
        lines_ok = lines_ok and said.startswith("binparse: error: ") and said.count("\n") in (1, 3)
    return [code, round(seconds, 3), said[:1500], lines_ok,
            "binparse failed (" in said or "Traceback" in said, os.path.exists(os.path.join(where, "MARKER"))]

JOBS = json.load(open(sys.argv[1]))


def failed(text, seconds):
    return [text, seconds, "", False, False, False]
''' + FORKED


def jobs_of(case: schemas.SchemaCase, where: Path) -> tuple[list[dict[str, object]], int]:
    """The jobs of one case (its files written into `where`) and the bytes of its inputs."""
    where.mkdir(parents=True)
    ksy, data = case.make()
    s = where / case.name
    s.write_bytes(ksy.encode("utf-8", "surrogatepass") if isinstance(ksy, str) else ksy)
    d = where / "data.bin"
    d.write_bytes(data)
    (where / "values.yaml").write_text("{}\n")
    for rel, content in case.extra:
        (where / rel).write_bytes(content)
    size = s.stat().st_size + len(data) + sum(len(c) for _, c in case.extra)
    base = {"where": str(where), "schema": str(s), "data": str(d)}
    argvs = {"inspect": ["inspect", str(d), "--schema", str(s)],
             "inspect-json": ["inspect", str(d), "--schema", str(s), "--json"],
             "view": ["view", str(d), "--schema", str(s), "--tensor", case.tensor, "--npy", str(where / "out.npy")],
             "fixture": ["fixture", str(where / "values.yaml"), "--schema", str(s), "-o", str(where / "out.bin")],
             "generate": ["generate", str(s), "-o", str(where / "gen" / "pkg")]}
    jobs: list[dict[str, object]] = [{**base, "cli": True, "argv": argv, "entry": e} for e, argv in argvs.items()]
    jobs += [{**base, "cli": False, "kind": k, "entry": k} for k in ("package", "compile", "open")]
    return jobs, size


# exit codes each entry may give, on top of the case's own: view and fixture refuse what they cannot
# do with a schema that reads fine (no array at --tensor, a feature construct cannot build: exit 3)
EXTRA = {"view": {2, 3}, "fixture": {2, 3}, "generate": set(), "inspect": set(), "inspect-json": set()}


def check(case: schemas.SchemaCase, job: dict[str, object], result: list[object], size: int) -> list[str]:
    code, seconds, err, lines_ok, bug, marker, peak = result
    why = []
    entry = str(job["entry"])
    if job["cli"]:
        allowed = set(case.exits) | EXTRA[entry]
        if entry == "generate":  # 2: the budget refused the memory compiling a huge module takes
            allowed = ({0, 3} if 3 in case.exits else {0}) | ({2} if case.klass == "cost" else set())
        if code not in allowed:
            why.append(f"exit {code}, not one of {sorted(allowed)}")
        if not lines_ok:
            why.append("stderr is not one-line messages")
    elif code not in ("ok", "BinparseError"):
        why.append(f"the API {code}")
    if entry == "package" and code == "BinparseError" and 3 not in case.exits:
        pass  # the package of a schema that reads: its own errors are BinparseErrors too
    if bug:
        why.append("the bug path or a traceback")
    if marker:
        why.append("the marker file exists: code ran")
    if float(seconds) > SECONDS:  # type: ignore[arg-type]
        why.append(f"{seconds} s")
    if int(peak) > bound(size) + INTERPRETER:  # type: ignore[call-overload]
        why.append(f"peak RSS {int(peak):,} over {bound(size) + INTERPRETER:,}")  # type: ignore[call-overload]
    return why


def batches() -> list[tuple[str, list[schemas.SchemaCase]]]:
    every = schemas.cases()
    if EVERY:
        return [(k, [c for c in every if c.klass == k]) for k in dict.fromkeys(c.klass for c in every)]
    return [("sample", schemas.pick(every, CASES, SEED))]


@pytest.mark.parametrize("batch", [name for name, _ in batches()])
def test_hostile_schemas(batch: str, tmp_path: Path) -> None:
    cases = dict(batches())[batch]
    jobs: list[dict[str, object]] = []
    owner: list[tuple[schemas.SchemaCase, int]] = []
    for k, case in enumerate(cases):
        js, size = jobs_of(case, tmp_path / f"c{k:04d}")
        jobs += js
        owner += [(case, size)] * len(js)
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {"BINPARSE_CACHE": str(tmp_path / "cache")}
    r = run([sys.executable, str(script), str(tmp_path / "jobs.json"), str(tmp_path / "results.json"), str(SECONDS)],
            timeout=SECONDS * len(jobs) + 60, env=env)
    started = [int(line.split()[1]) for line in r.stderr.splitlines() if line.startswith("START ")]
    if r.killed or r.returncode != 0:
        k = started[-1] if started else 0
        pytest.fail(f"{owner[k][0].key}: {jobs[k]['entry']} ended the batch (killed {r.killed}, exit {r.returncode}): "
                    f"{r.stderr[-3000:]}")
    results = json.loads((tmp_path / "results.json").read_text())
    assert len(results) == len(jobs)
    failures = []
    for (case, size), job, result in zip(owner, jobs, results):
        why = check(case, job, result, size)
        if why:
            failures.append(f"{case.key}: {job['entry']}: {'; '.join(why)}: {str(result[2])[-400:]}")
    report = os.environ.get("BINPARSE_HOSTILE_REPORT")
    if report:
        slow = max(range(len(results)), key=lambda k: results[k][1])
        high = max(range(len(results)), key=lambda k: results[k][6])
        room = [bound(size) + INTERPRETER - int(result[6]) for (_, size), result in zip(owner, results)]
        tight = min(range(len(results)), key=lambda k: room[k])
        exits: dict[str, int] = {}
        for job, result in zip(jobs, results):
            if job["cli"]:
                exits[str(result[0])] = exits.get(str(result[0]), 0) + 1
        with open(report, "a") as f:
            f.write(json.dumps({"batch": batch, "cases": len(cases), "commands": len(jobs),
                                "slowest": [results[slow][1], owner[slow][0].key, jobs[slow]["entry"]],
                                "highest_rss": [results[high][6], owner[high][0].key, jobs[high]["entry"]],
                                "least_headroom": [room[tight], results[tight][6], bound(owner[tight][1]) + INTERPRETER,
                                                   owner[tight][0].key, jobs[tight]["entry"]],
                                "cli_exits": dict(sorted(exits.items())),
                                "seconds": round(r.seconds, 1), "failures": len(failures)}) + "\n")
    if os.environ.get("BINPARSE_HOSTILE_FAILURES"):
        with open(os.environ["BINPARSE_HOSTILE_FAILURES"], "a") as f:
            f.write("".join(x + "\n" for x in failures))
    assert failures == []
