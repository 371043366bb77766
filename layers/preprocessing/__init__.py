"""preprocessing layers."""

__all__ = []
