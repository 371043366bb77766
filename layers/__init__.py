"""``highlevel.layers``: the layer library, built only from ``highlevel.ops`` (see the models issue)."""
