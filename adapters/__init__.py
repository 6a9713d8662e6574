"""The edge: adapters that convert between vendor SDKs and prhub's neutral types."""
