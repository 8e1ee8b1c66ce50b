"""The toy family's declaration: what binparse reads at start-up (no imports but binparse.family)."""

from binparse.family import Family, LayoutKind, Option, Signs


def toy_head(head: bytes) -> str | None:
    return "magic TOY1" if head.startswith(b"TOY1") else None


FAMILY = Family(
    name="toy",
    load="toyfam.register",
    signs=(Signs("toy", "toy file", names=("*.toy",), head=toy_head),),
    options=(Option(("--shape",), ("view", "pack", "draw"), "toy ROWS,COLS"),
             Option(("--toy-pitch",), ("view", "pack", "draw"), "toy: int16 values per buffer row", {"type": int})),
    layouts=(LayoutKind("--toy", "a toy device buffer: rows of --toy-pitch int16", "toyfam.layout:make"),),
)
