"""A variational autoencoder: a sampling layer, an encoder and a decoder model, and a Model subclass whose
train_step adds the KL term to the reconstruction loss and tracks three metrics.

Data: 8x8 images of a bar at a random position, horizontal or vertical.
"""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


class Sampling(layers.Layer):
    """Draws z from N(z_mean, exp(z_log_var)) with the reparameterization trick."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        z_mean, z_log_var = inputs
        epsilon = keras.random.normal(shape=ops.shape(z_mean), seed=self.seed_generator)
        return z_mean + ops.exp(0.5 * z_log_var) * epsilon


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder
        self.total_loss_tracker = keras.metrics.Mean(name="total_loss")
        self.reconstruction_loss_tracker = keras.metrics.Mean(name="reconstruction_loss")
        self.kl_loss_tracker = keras.metrics.Mean(name="kl_loss")

    @property
    def metrics(self):
        return [self.total_loss_tracker, self.reconstruction_loss_tracker, self.kl_loss_tracker]

    def call(self, inputs):
        return self.decoder(self.encoder(inputs)[2])

    def train_step(self, data):
        def losses():
            z_mean, z_log_var, z = self.encoder(data, training=True)
            reconstruction = self.decoder(z, training=True)
            # Summed over the 64 pixels (one cross-entropy per pixel), averaged over the batch.
            per_pixel = keras.losses.binary_crossentropy(data[:, :, None], reconstruction[:, :, None])
            reconstruction_loss = ops.mean(ops.sum(per_pixel, axis=1))
            kl = -0.5 * (1 + z_log_var - ops.square(z_mean) - ops.exp(z_log_var))
            kl_loss = ops.mean(ops.sum(kl, axis=1))
            return reconstruction_loss + kl_loss, (reconstruction_loss, kl_loss)

        (total, (reconstruction_loss, kl_loss)), grads = keras.config.current_backend().variables_value_and_grad(
            losses, self.trainable_weights
        )
        self.optimizer.apply(grads, self.trainable_weights)
        self.total_loss_tracker.update_state(total)
        self.reconstruction_loss_tracker.update_state(reconstruction_loss)
        self.kl_loss_tracker.update_state(kl_loss)
        return {m.name: m.result() for m in self.metrics}


def make_bars(n, rng):
    x = np.zeros((n, 8, 8), "float32")
    for i in range(n):
        k = rng.integers(0, 8)
        if rng.random() < 0.5:
            x[i, k, :] = 1
        else:
            x[i, :, k] = 1
    return x.reshape(n, 64)


def main():
    keras.utils.set_random_seed(18)
    rng = np.random.default_rng(18)
    data = make_bars(256, rng)
    latent_dim = 2

    encoder_inputs = keras.Input(shape=(64,))
    h = layers.Dense(32, activation="relu")(encoder_inputs)
    z_mean = layers.Dense(latent_dim, name="z_mean")(h)
    z_log_var = layers.Dense(latent_dim, name="z_log_var")(h)
    z = Sampling()([z_mean, z_log_var])
    encoder = keras.Model(encoder_inputs, [z_mean, z_log_var, z], name="encoder")

    latent_inputs = keras.Input(shape=(latent_dim,))
    h = layers.Dense(32, activation="relu")(latent_inputs)
    decoder_outputs = layers.Dense(64, activation="sigmoid")(h)
    decoder = keras.Model(latent_inputs, decoder_outputs, name="decoder")

    vae = VAE(encoder, decoder)
    vae.compile(optimizer=keras.optimizers.Adam(0.005))
    history = vae.fit(data, epochs=8, batch_size=32, verbose=0)

    losses = history.history["total_loss"]
    assert set(history.history) == {"total_loss", "reconstruction_loss", "kl_loss"}
    assert losses[-1] < 0.6 * losses[0], losses
    assert history.history["kl_loss"][-1] > 0  # the latent code is used
    decoded = decoder.predict(np.zeros((1, latent_dim), "float32"), verbose=0)
    assert decoded.shape == (1, 64)
    return {k: v[-1] for k, v in history.history.items()}
