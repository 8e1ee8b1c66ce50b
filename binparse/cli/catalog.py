"""What `binparse schemas` lists: every family's kinds of file, folder and device buffer, with the
formats of each and how binparse recognises one.

Built from the declarations alone (`Family.kinds`, `Family.signs`) and the registry's formats
(`registry.registered()`, which imports every family): a kind's formats say their size or magic,
its signs the names it is asked about and whether it is text, its declaration the rest (a size
that gives the release, a folder's contents, a buffer that has no format of its own and the
layout flag that reads it).
"""

from __future__ import annotations

from typing import Any

from ..family import Family, FileKind


def _recognised(kind: FileKind, fam: Family) -> list[str]:
    """How a file of `kind` is known: its declared rule, then its names and its text sign (the family's signs)."""
    own = [s for s in fam.signs if s.kind == kind.kind]
    names = list(dict.fromkeys(n for s in own for n in s.names))
    out = [kind.recognised] if kind.recognised else []
    named = "named " + ", ".join(names) if names else ""
    if own and not any(s.binary for s in own):
        head = any(s.head for s in own)
        out.append("a text file" + (f" {named}" if named else "")
                   + ((", or by its first bytes" if named else ", by its first bytes") if head else ""))
    elif named:
        out.append(named)
    return out


def _format(f: Any) -> dict[str, Any]:
    """A registered format as `schemas --json` shows it."""
    return {"format": f.name, "version": f.version, "identified_by": f.identifies(), "size": f.size,
            "magic": f.magic.hex() if f.magic is not None else None, "schema": f.accessor_class._SCHEMA}


def catalog() -> dict[str, Any]:
    """{"families": [{family, title, kinds: [{kind, what, versions, recognised_by, formats}]}]}, the
    families by title, each kind in its declaration's order; a format or sign whose kind the family
    does not declare is listed under that kind with nothing said of it (tests/test_cli_schemas.py
    finds none)."""
    from ..family.plugins import families
    from ..family.registry import registered
    formats = registered()  # every family imported: its formats registered
    out = []
    for fam in sorted(families(), key=lambda f: f.title or f.name):
        declared = list(fam.kinds)
        named = {k.kind for k in declared}
        for kind in dict.fromkeys([f.kind for f in formats if f.family == fam.name] + [s.kind for s in fam.signs]):
            if kind not in named:
                declared.append(FileKind(kind, ""))
                named.add(kind)
        kinds = [{"kind": k.kind, "what": k.what, "versions": k.versions, "recognised_by": _recognised(k, fam),
                  "formats": [_format(f) for f in formats if f.family == fam.name and f.kind == k.kind]}
                 for k in declared]
        out.append({"family": fam.name, "title": fam.title or fam.name, "kinds": kinds})
    return {"families": out}


def catalog_text(doc: dict[str, Any]) -> str:
    """The catalog as `binparse schemas` prints it: per family its kinds, each with what it is, the
    releases that write it, how it is recognised, and its formats in one table (name, version,
    what identifies a file, schema)."""
    from ..core.render import columns
    lines: list[str] = []
    for fam in doc["families"]:
        count = sum(len(k["formats"]) for k in fam["kinds"])
        lines.append(f"{fam['title']} ({fam['family']}): {len(fam['kinds'])} kinds of file, folder or buffer"
                     + (f", {count} formats with a schema" if count else ""))
        for k in fam["kinds"]:
            lines.append(f"  {k['kind']}: {k['what']}" if k["what"] else f"  {k['kind']}")
            if k["versions"]:
                lines.append(f"    versions: {k['versions']}")
            if k["recognised_by"]:
                lines.append(f"    recognised by: {'; '.join(k['recognised_by'])}")
            if k["formats"]:
                lines += columns(("format", "version", "identified by", "schema"),
                                 [(f["format"], f["version"], f["identified_by"], f["schema"]) for f in k["formats"]],
                                 indent="    ")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


__all__ = ["catalog", "catalog_text"]
