"""The jax engine (being written)."""
