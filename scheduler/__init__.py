"""APScheduler wiring for `prhub serve`: named jobs with explicit ids and timezone; job bodies are plain
functions (in `scheduler.jobs`) that take the clock and the ports."""
