"""The team loop: the risk ledger that follows risks across weeks (and, next, reading claims and
feedback that corrects analyses)."""
