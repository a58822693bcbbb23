"""Hardware adapters: LEDs, chip sensors, buttons, the sensor link framing, layout and pin maps."""
