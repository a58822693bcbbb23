"""Shared test set-up. Area-specific fixtures live beside their tests."""

import os

# gpiozero must never look for real pins in the tests.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
