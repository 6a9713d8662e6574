"""Slack: replies rendered as Block Kit messages (the bolt listener lives alongside, when it exists)."""

from adapters.slack.blocks import SlackMessage, escape, render_blocks

__all__ = ["SlackMessage", "escape", "render_blocks"]
