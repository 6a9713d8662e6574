"""Subscriptions: channels that get a repo's weekly card every week, and the exactly-once push."""
