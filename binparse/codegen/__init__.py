"""Accessor generator: schemas/*.ksy → binparse/accessors/**.py (typed, generated, committed)."""

from .generate import ACCESSORS_DIR, generate, generate_all, module_name, module_path, write_all

__all__ = ["ACCESSORS_DIR", "generate", "generate_all", "module_name", "module_path", "write_all"]
