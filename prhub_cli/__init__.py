"""The `prhub` command: the one place that wires settings, the store and the adapters together."""
