"""Question answering over the index: parse a question into a Query, retrieve, compose the answer."""
