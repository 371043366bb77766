"""The functional API with two inputs and two named outputs, a loss and a loss weight per output."""

import numpy as np

import highlevel as keras
from highlevel import layers


def main():
    keras.utils.set_random_seed(4)
    rng = np.random.default_rng(4)
    n = 320
    title = rng.integers(1, 50, size=(n, 6))
    body = rng.normal(size=(n, 5)).astype("float32")
    priority = (body[:, :1] + 0.05 * (title[:, :1] % 5)).astype("float32")  # regression target
    department = title[:, 0] % 3  # class target, from the title's first token

    title_input = keras.Input(shape=(6,), name="title", dtype="int32")
    body_input = keras.Input(shape=(5,), name="body")
    title_features = layers.Flatten()(layers.Embedding(50, 8)(title_input[:, :1]))
    body_features = layers.Dense(8, activation="relu")(body_input)
    merged = layers.concatenate([title_features, body_features])
    priority_output = layers.Dense(1, name="priority")(merged)
    department_output = layers.Dense(3, activation="softmax", name="department")(merged)
    model = keras.Model(inputs=[title_input, body_input], outputs=[priority_output, department_output])

    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss={"priority": "mse", "department": "sparse_categorical_crossentropy"},
        loss_weights={"priority": 1.0, "department": 0.5},
        metrics={"department": ["accuracy"]},
    )
    history = model.fit(
        {"title": title, "body": body},
        {"priority": priority, "department": department},
        batch_size=32,
        epochs=10,
        verbose=0,
    )
    logs = model.evaluate(
        {"title": title, "body": body}, {"priority": priority, "department": department}, verbose=0, return_dict=True
    )
    predicted_priority, predicted_department = model.predict({"title": title, "body": body}, verbose=0)
    assert predicted_priority.shape == (n, 1) and predicted_department.shape == (n, 3)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert logs["department_accuracy"] > 0.8, logs
    return logs
