"""Feishu (Lark): replies rendered as card JSON 2.0, with a plain-text fallback."""

from adapters.feishu.card import escape, render_card, render_text

__all__ = ["escape", "render_card", "render_text"]
