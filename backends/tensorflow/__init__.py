"""The tensorflow engine (being written)."""
