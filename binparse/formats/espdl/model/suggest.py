"""The commands an .espdl file's reports and errors suggest, on the file as it was named
(`binparse.family.hints`: each runs as printed); words without a command when the file has no path."""

from __future__ import annotations

from ....family.hints import command, stem_output


def repair_said(file: str | None) -> str:
    """`binparse repair FILE -o NAME.fixed.espdl`: the int32-in-int64 vectors written as int64."""
    return command("repair", file, "-o", stem_output(file, ".fixed.espdl")) if file else "binparse's repair"


def doctor_said(file: str | None) -> str:
    return command("doctor", file) if file else "binparse's doctor"


def inspect_said(file: str | None, what: str, *flags: str) -> str:
    """`binparse inspect FLAGS FILE` followed by what it shows."""
    return f"{command('inspect', *flags, file)} {what}" if file else f"inspect {' '.join(flags)} {what}"
