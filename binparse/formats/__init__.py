"""Format families: each module registers its formats with `binparse.registry` on import."""

from . import intel_dla, tidl

__all__ = ["intel_dla", "tidl"]
