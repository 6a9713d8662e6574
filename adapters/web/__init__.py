"""The bot's one HTTP server: platform event endpoints, report pages, health checks."""
