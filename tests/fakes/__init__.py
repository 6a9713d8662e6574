"""Loopback fakes of the external services prhub talks to; the real client libraries talk to them."""
