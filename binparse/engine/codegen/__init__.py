"""Accessor generator: .ksy schemas → typed Python modules (binparse's own, committed in
binparse/engine/accessors/; a user's, in a package of their own; `binparse.compile`'s, in a cache)."""

from .generate import generate, module_name, module_path
from .write import ACCESSORS_DIR, generate_all, package_files, write_all, write_package

__all__ = ["ACCESSORS_DIR", "generate", "generate_all", "module_name", "module_path", "package_files", "write_all",
           "write_package"]
