"""The torch engine (being written)."""
