"""Format families: each module registers its formats with `binparse.registry` on import."""

from . import dlhdl, espdl, intel_dla, tidl

__all__ = ["dlhdl", "espdl", "intel_dla", "tidl"]
