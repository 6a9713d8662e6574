"""The terminal: replies rendered with rich (the chat-like console adapter builds on this)."""

from adapters.console.render import render_console, reply_renderable, sanitize

__all__ = ["render_console", "reply_renderable", "sanitize"]
