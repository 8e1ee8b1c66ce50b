"""Format families: each module registers its formats with `binparse.registry` on import."""

from . import tidl

__all__ = ["tidl"]
