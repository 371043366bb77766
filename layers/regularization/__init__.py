"""regularization layers."""

__all__ = []
