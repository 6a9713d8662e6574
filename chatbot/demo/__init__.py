"""The bundled demo: a fictional RL post-training framework, prhub-demo/rlflow, with 60 merged PRs written
for prhub and dated relative to "now", so `prhub demo` can show the bot on fresh data without a token.

The core never imports adapters, so the caller converts the REST-shaped PRs at the edge:

    items = demo_pull_requests(clock.now(), tz)
    prs = [pull_request_from_rest(item, DEMO_REPO) for item in items]   # adapters.github.rest
    summary = seed_demo(db, prs, clock=clock, tz=tz, language="zh")
"""

from chatbot.demo.data import DEMO_QUESTIONS, DEMO_REPO, DemoQuestion, demo_pull_requests
from chatbot.demo.seed import DemoSummary, SeededReport, seed_demo

__all__ = [
    "DEMO_QUESTIONS",
    "DEMO_REPO",
    "DemoQuestion",
    "DemoSummary",
    "SeededReport",
    "demo_pull_requests",
    "seed_demo",
]
