"""The entry-point cache (binparse.family.plugin_cache) is used only whole and only for entry points an
installed distribution declares: a cache cut short keeps no family from being found, and a module
written into it is never imported."""

from __future__ import annotations

from pathlib import Path

from .harness import run_python

FAMILIES = "['dlhdl', 'espdl', 'intel_dla', 'tidl']"


def _env_code(cache: Path, extra: str, mods: Path | None = None) -> str:
    return f"""
import os, sys
os.environ["BINPARSE_CACHE_DIR"] = {str(cache)!r}
{f"sys.path.insert(0, {str(mods)!r})" if mods else ""}
from binparse.family import plugins, plugin_cache
key, state = plugins._environment()
path = plugins._cache_file(key)
{extra}
"""


def test_a_cache_cut_short_is_rebuilt_not_read_in_part(tmp_path: Path) -> None:
    first = run_python(_env_code(tmp_path, "print(sorted(f.name for f in plugins.families()))"), timeout=60)
    assert first.returncode == 0 and first.stdout.strip() == FAMILIES, first.stderr
    (cache,) = tmp_path.glob("families-*.txt")
    whole = cache.read_text()
    lines = whole.splitlines(keepends=True)
    assert lines[0] == "binparse families 2\n" and lines[-1].startswith("digest\t") and len(lines) == 7
    cache.write_text("".join(lines[:3]))  # header, state and one family: every line well formed
    again = run_python(_env_code(tmp_path, "print(sorted(f.name for f in plugins.families()))"), timeout=60)
    assert again.stdout.strip() == FAMILIES
    assert cache.read_text() == whole  # rebuilt, whole


def test_a_module_written_into_the_cache_is_never_imported(tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    mods, elsewhere = tmp_path / "mods", tmp_path / "elsewhere" / "evil-1.0.dist-info"
    mods.mkdir()
    elsewhere.mkdir(parents=True)
    (mods / "evil_mod.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\nFAMILY = None\n")
    (elsewhere / "entry_points.txt").write_text("[binparse.families]\nevil = evil_mod:FAMILY\n")
    # "builtin" names no binparse.formats module; an entry_points.txt of no distribution on sys.path;
    # a file that does not declare it
    for source in ("builtin", str(elsewhere / "entry_points.txt"), "/etc/passwd"):
        code = _env_code(tmp_path / "cache", f"""
plugins.families()  # writes a valid cache
rows = plugin_cache.read(path, state)
plugin_cache.write(path, state, [*rows, ("evil", "evil_mod:FAMILY", {source!r})])  # a valid digest
plugins._FAMILIES = None
print(sorted(f.name for f in plugins.families()))
""", mods)
        r = run_python(code, timeout=60)
        assert r.returncode == 0 and r.stdout.strip() == FAMILIES, (source, r.stderr)
        assert not marker.exists(), source
