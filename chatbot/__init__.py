"""prhub's core: the PR index, analysis, reports and question answering, free of any chat platform."""
