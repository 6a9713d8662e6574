"""Feishu (Lark): card JSON 2.0 rendering here; the adapter (lark-oapi handlers, sender, long
connection) in `adapters.feishu.app`, imported only when Feishu is configured because lark-oapi takes
over a second to import and creates an event loop as it does."""

from adapters.feishu.card import escape, render_card, render_text

__all__ = ["escape", "render_card", "render_text"]
