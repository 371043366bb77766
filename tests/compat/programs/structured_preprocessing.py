"""Structured data with preprocessing layers: Normalization.adapt for numeric columns inside a functional model
that takes a dict of columns; StringLookup and IntegerLookup (with CategoryEncoding) adapted on the categorical
columns and applied to the data before it reaches the model (string inputs stay outside the model)."""

import numpy as np

import highlevel as keras
from highlevel import layers


def make_table(n, rng):
    age = rng.uniform(20, 80, size=n).astype("float32")
    income = rng.normal(50_000, 15_000, size=n).astype("float32")
    city = rng.choice(["paris", "lyon", "nice", "lille"], size=n)
    rooms = rng.choice([1, 2, 3, 4, 5], size=n)
    score = (age - 50) / 15 + (income - 50_000) / 15_000 + np.where(city == "nice", 1.5, 0) - 0.5 * (rooms == 1)
    return {"age": age, "income": income, "city": city, "rooms": rooms}, (score > 0).astype("int32")


def main():
    keras.utils.set_random_seed(22)
    rng = np.random.default_rng(22)
    data, target = make_table(320, rng)

    inputs, encoded = {}, []
    for name in ("age", "income"):
        inputs[name] = keras.Input(shape=(1,), name=name)
        normalizer = layers.Normalization()
        normalizer.adapt(data[name][:, None])
        encoded.append(normalizer(inputs[name]))
    city_lookup = layers.StringLookup(output_mode="int")
    city_lookup.adapt(data["city"])
    assert city_lookup.vocabulary_size() == 5  # four cities and the out-of-vocabulary token
    rooms_lookup = layers.IntegerLookup(output_mode="one_hot")
    rooms_lookup.adapt(data["rooms"])
    assert rooms_lookup.vocabulary_size() == 6

    def encode(columns):
        """The categorical columns as indices and one-hot rows; the numeric ones as they are."""
        city = keras.ops.convert_to_numpy(city_lookup(columns["city"]))
        rooms = keras.ops.convert_to_numpy(rooms_lookup(columns["rooms"]))
        return {
            "age": columns["age"][:, None],
            "income": columns["income"][:, None],
            "city": city[:, None],
            "rooms": rooms,
        }

    inputs["city"] = keras.Input(shape=(1,), name="city", dtype="int64")
    encoded.append(layers.CategoryEncoding(num_tokens=5, output_mode="one_hot")(inputs["city"]))
    inputs["rooms"] = keras.Input(shape=(6,), name="rooms")
    encoded.append(inputs["rooms"])

    h = layers.concatenate(encoded)
    h = layers.Dense(16, activation="relu")(h)
    outputs = layers.Dense(1, activation="sigmoid")(h)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy", metrics=["accuracy"])

    columns = encode(data)
    train = {k: v[:256] for k, v in columns.items()}
    test = {k: v[256:] for k, v in columns.items()}
    history = model.fit(train, target[:256], epochs=8, batch_size=32, verbose=0)
    logs = model.evaluate(test, target[256:], verbose=0, return_dict=True)
    sample = encode(
        {
            "age": np.array([70.0], "float32"),
            "income": np.array([80_000.0], "float32"),
            "city": np.array(["nice"]),
            "rooms": np.array([3]),
        }
    )
    assert model.predict(sample, verbose=0)[0, 0] > 0.8
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["accuracy"] > 0.85, logs
    return logs
