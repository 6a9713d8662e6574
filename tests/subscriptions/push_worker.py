"""A push worker in a process of its own, for the fault tests to kill and to run side by side: one
`push_due` over the given database, posting through the real Slack client to a fake Slack, then its
PushReport as one line of JSON on stdout.

    python -m tests.subscriptions.push_worker DATABASE_URL SLACK_API_URL NOW WORKER [--wait-for-go]

NOW (ISO 8601) is the ledger's clock; pacing and Retry-After waits go to a FixedClock, so nothing
sleeps. With `--wait-for-go` the worker prints `ready` once it is imported and connected, then starts
when a line arrives on stdin, so that two workers can be let go at the same moment.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime

from adapters.slack.push import SlackPushSender
from adapters.slack.sender import ChannelPacer, SlackSender, web_client
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.store.db import open_database
from chatbot.subscriptions.delivery import PushContext, push_due
from tests.fakes.slack import BOT_TOKEN


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("database_url")
    parser.add_argument("slack_api_url", help="the fake Slack's Web API base URL (…/api/)")
    parser.add_argument("now", type=datetime.fromisoformat, help="the ledger clock, timezone-aware ISO 8601")
    parser.add_argument("worker", help="the name the worker claims deliveries under")
    parser.add_argument("--wait-for-go", action="store_true", help="print ready, start on a line on stdin")
    args = parser.parse_args(argv)

    db = open_database(args.database_url)
    waits = FixedClock(args.now)
    client = web_client(BOT_TOKEN, args.slack_api_url, waits, jitter=lambda: 0.0)
    sender = SlackPushSender(SlackSender(client, ChannelPacer(waits)))
    context = PushContext({"slack": sender}, HeuristicAnalyzer().analyze)
    if args.wait_for_go:
        print("ready", flush=True)
        sys.stdin.readline()
    report = push_due(db, FixedClock(args.now), context, worker=args.worker)
    print(json.dumps(asdict(report)), flush=True)
    db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
