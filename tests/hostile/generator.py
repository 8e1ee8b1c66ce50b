"""The hostile suite's generator (issue 37): for every reader binparse has (every registered
binary format, every object a sniffer opens, every text format and folder a family's signs name;
asked of the registry and the families, never listed by hand), files whose claims are pushed to
their limits, made from a sample of that reader's own files:

- binary: each count, size, offset or dim word set to an extreme (huge counts in small files),
  64-bit words too, offsets repeated so that many fields point at one table (shared references),
  the file cut short and repeated;
- text: each kind of line of the sample stretched to 10^6 characters (its whitespace, its digits,
  its separators, the line repeated within itself, with and without its last character, which
  makes a backtracking expression try every split), repeated on 10^5 lines, and whole files of
  deep nesting, YAML aliases (a "billion laughs"), 5,000-digit JSON integers, 10^6 blank lines;
- folders: each file of the sample folder cut, stretched and emptied in turn;
- fixture specs (what `binparse fixture` reads: one of each shape a family's bundled specs have):
  each number set to an extreme (huge dims and counts, 2^31, 2^32 + 1, -1, 0, 200 digits), and the
  whole-file text cases.

`readers()` finds the samples (the bundled fixtures, then ../shared/real where present);
`cases(reader)` makes that reader's cases; `pick(...)` takes the sample CI runs. A new format, sniffer
or sign gets its cases without a line changed here.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from dataclasses import dataclass, field
from collections.abc import Callable
from functools import cache, cached_property
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIX = REPO / "fixtures"
REAL = Path(os.environ.get("BINPARSE_REAL", REPO.parent / "shared" / "real"))
LONG = 10**6  # characters of a stretched line
LINES = 10**5  # lines of a repeated line
TEXT_LINES = 12  # kinds of line of a text sample stretched (all of them in the long run)
MAX_SAMPLE = 2 << 20  # bytes: a sample larger than this is not mutated (its cases would be slow to write)


@dataclass(frozen=True)
class Sample:
    """A file (or folder) a reader reads: where, and the --format to force (a sibling version's bytes)."""

    reader: str
    path: Path
    format: str | None = None


@dataclass(frozen=True)
class Case:
    """One hostile input: `files` (relative path: bytes, made when first asked: `make`) laid out in a
    folder of their own; the commands are pointed at `target` (a relative path; "" for the folder)."""

    reader: str
    what: str
    make: Callable[[], dict[str, bytes]] = field(hash=False, compare=False, repr=False)
    target: str = ""
    format: str | None = None

    @property
    def key(self) -> str:
        return f"{self.reader}: {self.what}"

    @cached_property
    def files(self) -> dict[str, bytes]:
        return self.make()

    @property
    def size(self) -> int:
        return sum(map(len, self.files.values()))


def _skippable(p: Path) -> bool:
    return p.name in ("spec.yaml", "manifest.json") or p.suffix == ".npy" or ".buffer." in p.name


@cache
def readers(fixtures_only: bool = False) -> dict[str, Sample]:
    """{reader: its smallest sample}: the reader is the registered format an opened file is of, or
    the type of the object a sniffer opened it as; a registered format with no file of its own is
    read from a sibling version's file, forced (`--format`). Samples come from the bundled fixtures,
    then (unless `fixtures_only`) ../shared/real; a text format a family's signs name with no file
    anywhere gets samples of one line (`sign_cases`)."""
    import binparse
    from binparse.family import plugins, registry
    from binparse.engine.runtime import Accessor
    plugins.load_all()
    found: dict[str, Sample] = {}
    roots = [FIX] + ([REAL] if REAL.is_dir() and not fixtures_only else [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for root in roots:
            paths = [p for p in root.rglob("*") if not _skippable(p) and not p.is_symlink()]
            for p in sorted(paths, key=lambda p: (p.is_dir(), _size(p), str(p))):
                if _size(p) > MAX_SAMPLE:
                    continue
                try:
                    obj = binparse.open(p)
                except Exception:
                    continue
                key = registry.format_of(obj).name if isinstance(obj, Accessor) else type(obj).__qualname__
                found.setdefault(key, Sample(key, p))
        for fmt in registry.registered():
            if fmt.name not in found:
                sib = next((v for k, v in found.items() if k.startswith(fmt.name.rsplit(".", 1)[0] + ".")), None)
                if sib is not None:
                    found[fmt.name] = Sample(fmt.name, sib.path, fmt.name)
    return found


def _size(p: Path) -> int:
    try:
        return p.stat().st_size if p.is_file() else sum(f.stat().st_size for f in p.iterdir() if f.is_file())
    except OSError:
        return 1 << 62


def sign_names() -> dict[str, str]:
    """{"family kind pattern": a file name it matches} of every text format a family's signs name."""
    from binparse.family.plugins import signs
    out: dict[str, str] = {}
    for s in signs():
        if not s.binary:
            for pattern in s.names:
                out.setdefault(f"{s.family} {s.kind} {pattern}", pattern.replace("*", "m").replace("?", "m"))
    return out


def _is_binary(data: bytes) -> bool:
    return b"\x00" in data[:4096]


# --- binary ---------------------------------------------------------------------------------------
# Each way a file is pushed is (what, make): `make()` gives the bytes, made only for the cases run (all
# of them would be gigabytes).

Made = list[tuple[str, Callable[[], bytes]]]
_EXTREMES32 = (0xFFFFFFFF, 0x7FFFFFFF, 0x10000000)
_EXTREMES64 = (0x7FFFFFFFFFFFFFFF, 0x0000000100000000)


def _set(data: bytes, at: int, value: bytes) -> bytes:
    b = bytearray(data)
    b[at: at + len(value)] = value
    return bytes(b)


def _shared(data: bytes, k: int, v: int) -> bytes:
    """`data` with the 64 words after word k pointing (as FlatBuffers' relative offsets) where it points."""
    b = bytearray(data)
    for j in range(k + 1, min(k + 65, len(data) // 4)):
        if v > 4 * (j - k):
            b[4 * j: 4 * j + 4] = (v - 4 * (j - k)).to_bytes(4, "little")
    return bytes(b)


def binary_cases(data: bytes) -> Made:
    n = len(data)
    out: Made = [("empty", lambda: b""), ("first byte", lambda: data[:1]), ("cut in half", lambda: data[: n // 2]),
                 ("one byte short", lambda: data[:-1]), ("64 zero bytes more", lambda: data + bytes(64)),
                 ("itself twice", lambda: data + data)]
    words = sorted(set(range(0, min(n // 4, 64))) | set(range(max(0, n // 4 - 8), n // 4)))
    for k in words:  # a count, size, offset or dim: set to an extreme (a huge claim in a small file)
        for v in _EXTREMES32:
            out.append((f"word {k} = {v:#x}", lambda k=k, v=v: _set(data, 4 * k, v.to_bytes(4, "little"))))
    for k in range(0, min(n // 8, 32)):
        for v in _EXTREMES64:
            out.append((f"qword {k} = {v:#x}", lambda k=k, v=v: _set(data, 8 * k, v.to_bytes(8, "little"))))
    for k in range(0, min(n // 4, 128)):  # an offset repeated over the next words: many fields, one table
        v = int.from_bytes(data[4 * k: 4 * k + 4], "little")
        if 4 <= v < n and v % 4 == 0:
            out.append((f"offset at word {k} repeated over 64 words (shared references)",
                        lambda k=k, v=v: _shared(data, k, v)))
    return out


# --- text -----------------------------------------------------------------------------------------

_SHAPE = re.compile(r"\d+")
_WORD = re.compile(r"[A-Za-z_]+")
_SPACES = re.compile(r"[ \t]+")
_DIGITS = re.compile(r"\d+")


def _shape(line: str) -> str:
    return _WORD.sub("a", _SHAPE.sub("9", line))[:40]


def kinds_of_line(lines: list[str], every: bool) -> list[int]:
    """Indexes of one line of each shape (its digits and words folded), at most TEXT_LINES unless `every`."""
    seen: dict[str, int] = {}
    for i, line in enumerate(lines):
        if line.strip():
            seen.setdefault(_shape(line), i)
    picked = sorted(seen.values())
    return picked if every else picked[:TEXT_LINES]


def _spaces(line: str, each: int) -> str:
    return _SPACES.sub(lambda m: m.group(0)[0] * each, line)


def stretched(line: str) -> list[tuple[str, Callable[[], str]]]:
    """(what, make the line stretched to about LONG characters) for each way a line is pushed."""
    out: list[tuple[str, Callable[[], str]]] = []
    runs = len(_SPACES.findall(line))
    if runs:
        each = max(LONG // (runs + 1), 1)
        out.append(("its whitespace stretched", lambda: _spaces(line, each)))
        out.append(("its whitespace stretched, its last character gone", lambda: _spaces(line, each)[:-1]))
    else:
        out.append(("10^6 spaces before its end", lambda: line[:-1] + " " * LONG + line[-1:]))
    digits = len(_DIGITS.findall(line))
    if digits:
        each_d = max(LONG // (digits + 1), 1)
        out.append(("its numbers 10^6 digits long", lambda: _DIGITS.sub(lambda m: "9" * each_d, line)))
    seps = [c for c in dict.fromkeys(line) if c in ",;:=[]{}()<>|'\"%#/"]
    for c in seps[:4]:
        at = line.index(c)
        out.append((f"its first {c!r} repeated 10^6 times", lambda at=at, c=c: line[:at] + c * LONG + line[at + 1:]))
    times = max(LONG // max(len(line), 1), 2)
    out.append(("repeated within itself", lambda: " ".join([line] * times)))
    out.append(("repeated within itself, its last character gone", lambda: " ".join([line] * times)[:-1]))
    per = max(LONG // max(len(line), 1) // 4, 1)
    out.append(("each character 10^6 / length times", lambda: "".join(c * per for c in line)))
    return out


def text_cases(data: bytes, every: bool) -> Made:
    text = data.decode("utf-8", "replace")
    lines = text.splitlines()
    out: Made = [("empty", lambda: b""), ("cut in half", lambda: data[: len(data) // 2]),
                 ("NUL and bytes that are not UTF-8", lambda: data + b"\x00\xff\xfe\n")]
    for i in kinds_of_line(lines, every):
        for what, long in stretched(lines[i]):
            out.append((f"line {i + 1} {what}",
                        lambda i=i, long=long: "\n".join(lines[:i] + [long()] + lines[i + 1:]).encode()))
        times = min(LINES, LONG // max(len(lines[i]), 1))
        out.append((f"line {i + 1} repeated on {times:,} lines",
                    lambda i=i, times=times: "\n".join(lines[:i] + [lines[i]] * times + lines[i + 1:]).encode()))
    out += whole_text_cases()
    return out


def whole_text_cases() -> Made:
    """Files any text reader may be given: nesting, aliases, huge integers, blank lines, one long line."""
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for k in range(1, 9):
        bomb.append(f"{chr(ord('a') + k)}: &{chr(ord('a') + k)} [" + ", ".join([f"*{chr(ord('a') + k - 1)}"] * 10) + "]")
    return [("10^5 opening braces", lambda: b"{" * LINES), ("10^5 opening brackets", lambda: b"[" * LINES),
            ("JSON nested 10^5 deep", lambda: b'{"a":' * LINES + b"1" + b"}" * LINES),
            ("a 5,000-digit JSON integer", lambda: b'{"version": ' + b"9" * 5000 + b', "n": [' + b"7" * 5000 + b"]}"),
            ("a YAML alias bomb (10^9 elements)", lambda: ("\n".join(bomb) + "\n").encode()),
            ("YAML nested 2,000 deep", lambda: b"a:\n" + b"".join(b" " * k + b"- \n" for k in range(1, 2000))),
            ("YAML flow nested 10^5 deep", lambda: b"a: " + b"[" * LINES + b"]" * LINES),
            (f"{LONG:,} blank lines", lambda: b"\n" * LONG), (f"{LONG:,} spaces", lambda: b" " * LONG),
            ("a 10^6-character word", lambda: b"x" * LONG), ("10^6 lines of one '='", lambda: b"=\n" * (LONG // 2))]


SEEDS = ("Num of Layer Detected : 3", "a,b,c", "1,2,3", "key = value", "name: value # note", "#define X 1",
         "localparam int X = 1;", "WIDTH=8;", "%x[INT8, 1, 2, 3], exponents: [0]")


def sign_cases() -> Made:
    """A text format no file of which is at hand: one-line samples, then the whole-file cases."""
    out: Made = []
    for seed in SEEDS:
        for what, long in stretched(seed):
            out.append((f"{seed!r} {what}", lambda long=long: long().encode()))
    return out + whole_text_cases()


# --- fixture specs --------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.\-])\d+(?![\w.])")  # an integer of our own spec (bundled, trusted text)
_PATH_VALUE = re.compile(r"^(\s*[\w-]+:\s*)(\.\.?/\S+)\s*$", re.M)
SPEC_NUMBERS = 48  # numbers of a spec pushed (all of them in the long run)
_SPEC_EXTREMES = ("100000", "2147483648", "4294967297", "1000000000000", "-1", "0", "9" * 200)


@cache
def spec_samples() -> dict[str, Path]:
    """{"fixture spec FAMILY KIND (its keys)": the smallest bundled spec of that shape}: the inputs of
    `binparse fixture`, one of each shape the bundled specs have (found, never listed)."""
    import yaml
    found: dict[str, Path] = {}
    for p in sorted(FIX.rglob("spec.yaml"), key=lambda p: (p.stat().st_size, str(p))):
        spec = yaml.safe_load(p.read_text())
        entries = sorted({k for e in spec.get("files", []) for k in e})
        key = f"fixture spec {spec.get('family')} {spec.get('kind') or ''} {sorted(spec)} {entries or ''}"
        found.setdefault(" ".join(key.split()), p)
    return found


def spec_cases(path: Path, every: bool) -> Made:
    """A spec with each of its numbers set to an extreme in turn (paths it names made absolute, so the
    case reads what the spec reads from anywhere), then the whole-file text cases."""
    text = "".join(line for line in path.read_text().splitlines(keepends=True) if not line.lstrip().startswith("#"))
    text = _PATH_VALUE.sub(lambda m: m.group(1) + str((path.parent / m.group(2)).resolve()), text)
    spots = [m.span() for m in _NUMBER.finditer(text)]
    out: Made = []
    for a, b in spots if every else spots[:SPEC_NUMBERS]:
        line = text.count("\n", 0, a) + 1
        for v in _SPEC_EXTREMES:
            out.append((f"line {line}: {text[a:b]} -> {v[:12]}{'...' if len(v) > 12 else ''}",
                        lambda a=a, b=b, v=v: (text[:a] + v + text[b:]).encode()))
    return out + whole_text_cases()


# --- the cases -------------------------------------------------------------------------------------

def cases(reader: str, every: bool = False) -> list[Case]:
    """Every case of `reader` (a key of `readers()` or of `sign_names()`); the bytes of each are made
    when the case is run (`Case.files`)."""
    signs = sign_names()
    specs = spec_samples()
    if reader in specs:
        return [Case(reader, what, lambda make=make: {"spec.yaml": make()}, "spec.yaml")
                for what, make in spec_cases(specs[reader], every)]
    if reader in signs:
        name = signs[reader]
        return [Case(reader, what, lambda make=make: {name: make()}, name) for what, make in sign_cases()]
    sample = readers()[reader]
    if sample.path.is_dir():
        return folder_cases(sample, every)
    data = sample.path.read_bytes()
    name = sample.path.name
    made = binary_cases(data) if _is_binary(data) else text_cases(data, every)
    return [Case(reader, what, lambda make=make: {name: make()}, name, sample.format) for what, make in made]


def folder_cases(sample: Sample, every: bool) -> list[Case]:
    files = {p.name: p.read_bytes() for p in sorted(sample.path.iterdir()) if p.is_file() and not _skippable(p)}
    out = []
    for name, data in files.items():
        pushed = binary_cases(data) if _is_binary(data) else text_cases(data, every)[: None if every else 8]
        for what, make in pushed:
            out.append(Case(sample.reader, f"{name}: {what}", lambda name=name, make=make: {**files, name: make()}, ""))
    return out


def pick(all_cases: list[Case], n: int, seed: str) -> list[Case]:
    """`n` cases chosen by `seed` (the same seed, the same cases: a failure is reproduced)."""
    ranked = sorted(all_cases, key=lambda c: hashlib.sha256(f"{seed}/{c.key}".encode()).digest())
    return ranked[:n]


def every_reader() -> list[str]:
    return sorted(readers()) + sorted(sign_names()) + sorted(spec_samples())


__all__ = ["Case", "Sample", "cases", "every_reader", "pick", "readers", "sign_names", "spec_samples"]
