"""``highlevel.callbacks``: training callbacks, built only on the public Model/Callback API."""
