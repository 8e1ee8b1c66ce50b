"""Every file binparse writes goes through here (`draw --svg`, `pack --out`, `view --npy`,
`compare --svg`, `schema from-header --out`, `generate`, `fixture`): docs/contracts.md, "Writes".

- Only a regular file is ever replaced: a target that is a symbolic link, FIFO, socket, device
  node or folder is refused with a `WriteError` (exit code 3), nothing written.
- The bytes go to a new temporary file beside the target, created with O_EXCL under an
  unpredictable name (`tempfile.mkstemp`), then renamed over the target (`os.replace`): a reader
  never sees half a file, and a link planted at a predictable temporary name is never written
  through.
- A file replaced keeps its permission bits; a new file gets 0o666 less the umask, as `open` would.
- A target that is an input of the running command (`binparse.core.inputs`: the same file by device
  and inode, whatever path or hard link names it) is refused: a command never writes over what
  it reads.
- What is written is asked of the command's budget first (`binparse.core.budget`): a claim of a file
  never makes binparse write more than the budget.
- Inside `confined(root)` (the `fixture` command: `-o`), every target must lie inside `root`,
  its folders resolved: an absolute path, `..` or a folder link leading out is refused.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from . import budget, inputs
from .errors import WriteError
from .paths import special_kind, within
from .text import shown

_ROOT: contextvars.ContextVar[Path | None] = contextvars.ContextVar("binparse_write_root", default=None)


@contextlib.contextmanager
def confined(root: str | os.PathLike[str]) -> Iterator[Path]:
    """Confine every write in the block to `root` (a folder, made if missing; not a link)."""
    r = Path(root)
    _check_folder(r, make=True)
    token = _ROOT.set(r)
    try:
        yield r
    finally:
        _ROOT.reset(token)


def _check_folder(folder: Path, make: bool) -> None:
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        if not make:
            raise WriteError("the folder to write into does not exist", file=shown(folder),
                             hint="make the folder first") from None
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteError(f"cannot make the folder ({exc.strerror or exc})", file=shown(folder)) from None
        return
    except OSError as exc:
        raise WriteError(f"cannot look at the folder ({exc.strerror or exc})", file=shown(folder)) from None
    if stat.S_ISLNK(st.st_mode) and _ROOT.get() is not None:
        raise WriteError("is a symbolic link: binparse does not write through links here", file=shown(folder))
    if not os.path.isdir(folder):
        raise WriteError("is not a folder, so nothing can be written in it", file=shown(folder))


def check_target(path: str | os.PathLike[str], source: str | os.PathLike[str] | None = None) -> tuple[Path, int | None]:
    """(the target, the permission bits to keep or None for a new file); `WriteError` when the
    target may not be written (see the module's rules). `source`: a file the caller reads (for
    the Python API, outside a command, whose inputs `binparse.core.inputs` does not keep)."""
    p = Path(path)
    root = _ROOT.get()
    if root is not None:
        if not _lexically_under(p, root) or ".." in p.relative_to(root).parts:
            raise WriteError("is outside the output folder: fixture writes only inside -o",
                             file=shown(p), expected=f"a path inside {shown(root)}")
        _check_folder(p.parent, make=True)
        if not within(p.parent, root):
            raise WriteError("its folder leads out of the output folder (a link): not written",
                             file=shown(p), expected=f"a path inside {shown(root)}")
    elif p.parent != Path(""):
        _check_folder(p.parent, make=False)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return p, None
    except OSError as exc:
        raise WriteError(f"cannot look at the target ({exc.strerror or exc})", file=shown(p)) from None
    if stat.S_ISREG(st.st_mode):
        read = inputs.input_at(st)
        if read is None and source is not None and _same_file(st, source):
            read = os.fspath(source)
        if read is not None:
            read_as = "" if os.path.abspath(read) == os.path.abspath(p) else f" (read as {shown(read)})"
            raise WriteError(f"is an input of this command{read_as}: binparse never writes over what it reads, "
                             "nothing written", file=shown(p), hint="give the path of a new file")
        return p, stat.S_IMODE(st.st_mode)
    what = ("a symbolic link" if stat.S_ISLNK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode)
            else special_kind(st.st_mode) or "not a regular file")
    raise WriteError(f"is {what}: binparse replaces only regular files, nothing written", file=shown(p),
                     hint="give the path of a new or regular file")


def _same_file(st: os.stat_result, other: str | os.PathLike[str]) -> bool:
    try:
        o = os.stat(other)
    except (OSError, ValueError):
        return False
    return (o.st_dev, o.st_ino) == (st.st_dev, st.st_ino)


def _lexically_under(p: Path, root: Path) -> bool:
    try:
        p.relative_to(root)
    except ValueError:
        return False
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def open_for_write(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary file to write `path` through: a temporary file beside it, renamed over it when the
    block ends without an error (removed otherwise)."""
    target, keep = check_target(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=f".{target.name}.",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield cast(IO[bytes], _Budgeted(f, target))
            os.fchmod(f.fileno(), keep if keep is not None else 0o666 & ~_umask())
        check_target(target)  # still not a link, FIFO or folder (a rename would replace the link itself)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class _Budgeted:
    """A binary file whose writes ask the command's budget first (`budget.ask`)."""

    def __init__(self, f: IO[bytes], target: Path) -> None:
        self._f = f
        self._target = target

    def write(self, data: bytes | bytearray | memoryview) -> int:
        budget.ask(memoryview(data).nbytes, f"writing {shown(self._target)}", file=shown(self._target))
        return self._f.write(data)

    def __getattr__(self, name: str) -> object:
        return getattr(self._f, name)


def write_bytes(path: str | os.PathLike[str], data: bytes | bytearray | memoryview) -> None:
    """Write `data` to `path` by the module's rules."""
    with open_for_write(path) as f:
        f.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """`write_bytes` of UTF-8 text."""
    write_bytes(path, text.encode("utf-8"))


__all__ = ["check_target", "confined", "open_for_write", "write_bytes", "write_text"]
