"""The demo repository as GitHub would return it: the written PRs of `pulls.py` dated relative to "now"
and shaped like REST pull-request objects (with `files`, `reviews` and `comments_list`, as in a JSON-lines
export), so they enter the index through the same conversion and import as real data."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from chatbot.demo.pulls import PULLS
from chatbot.demo.spec import DemoPR
from chatbot.qa.query import Intent
from chatbot.weeks import Week

DEMO_REPO = "prhub-demo/rlflow"
WEEK_MINUTES = 7 * 24 * 60


@dataclass(frozen=True, slots=True)
class DemoQuestion:
    """A sample question, and the intent it shows off (what the bot should take it for)."""

    text: str
    intent: Intent


# Questions that show what the bot does on the demo data, in Chinese and English.
DEMO_QUESTIONS: tuple[DemoQuestion, ...] = (
    DemoQuestion("rlflow 上周周报", "report"),  # first: `prhub demo` opens with the weekly card
    DemoQuestion("本周 rlflow 有哪些风险？", "risks"),
    DemoQuestion("What changed in rlflow last week?", "highlights"),
    DemoQuestion("rlflow #1249 讲了什么？", "pr"),
    DemoQuestion("上周 rlflow 有哪些必读 PR？", "must_read"),
    DemoQuestion("上周 rlflow 的 megatron 有哪些改动？", "topic"),
    DemoQuestion("How many PRs did rlflow merge last week?", "stats"),
    DemoQuestion("rlflow 本周和上周相比有什么变化？", "compare"),
)


def demo_pull_requests(now: datetime, tz: ZoneInfo) -> list[dict[str, Any]]:
    """The demo PRs as GitHub REST objects, merged over the three complete ISO weeks before `now`'s week
    (at their written local weekday and time in `tz`) and in `now`'s week up to `now` (their written
    times scaled into the part of the week that has passed). Deterministic for a given `now` and `tz`.
    Convert each with `adapters.github.rest.pull_request_from_rest(item, DEMO_REPO)`."""
    if now.tzinfo is None:
        raise ValueError("demo_pull_requests needs a timezone-aware `now`")
    now_utc = now.astimezone(UTC).replace(microsecond=0)
    current = Week.containing(now, tz)
    return [_rest_object(pr, _merged_at(pr, current, now_utc, tz), now_utc) for pr in PULLS]


def _merged_at(pr: DemoPR, current: Week, now_utc: datetime, tz: ZoneInfo) -> datetime:
    """When `pr` was merged, in UTC, whole seconds."""
    if pr.weeks_ago == 0:
        start = current.start.astimezone(UTC)
        share = pr.weekday_minutes / WEEK_MINUTES
        seconds = int((now_utc - start).total_seconds() * share)
        return start + timedelta(seconds=seconds)
    monday = current.start.date() - timedelta(weeks=pr.weeks_ago)
    minutes = pr.weekday_minutes
    day = monday + timedelta(days=minutes // (24 * 60))
    local = datetime.combine(day, time(minutes // 60 % 24, minutes % 60), tz)
    return local.astimezone(UTC)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _user(login: str) -> dict[str, str]:
    return {"login": login, "type": "Bot" if login.endswith("[bot]") else "User"}


def _rest_object(pr: DemoPR, merged: datetime, now_utc: datetime) -> dict[str, Any]:
    """One PR as `GET /repos/{owner}/{repo}/pulls/{number}` plus its files, reviews and comments."""
    created = merged - timedelta(hours=pr.open_hours)
    files = []
    for f in pr.files:
        additions, deletions = f.totals
        item: dict[str, Any] = {
            "filename": f.path,
            "status": f.status,
            "additions": additions,
            "deletions": deletions,
            "changes": additions + deletions,
            "patch": f.diff,
        }
        if f.previous_path:
            item["previous_filename"] = f.previous_path
        files.append(item)
    return {
        "number": pr.number,
        "title": pr.title,
        "body": pr.body,
        "user": _user(pr.author),
        "state": "closed",
        "merged": True,
        "created_at": _stamp(created),
        "updated_at": _stamp(min(merged + timedelta(seconds=90), now_utc)),
        "closed_at": _stamp(merged),
        "merged_at": _stamp(merged),
        "merge_commit_sha": hashlib.sha1(f"{DEMO_REPO}#{pr.number}".encode()).hexdigest(),
        "html_url": f"https://github.com/{DEMO_REPO}/pull/{pr.number}",
        "base": {"ref": "main"},
        "labels": [{"name": label} for label in pr.labels],
        "additions": sum(x["additions"] for x in files),
        "deletions": sum(x["deletions"] for x in files),
        "changed_files": len(files),
        "files": files,
        "reviews": [
            {
                "user": _user(r.author),
                "state": r.state,
                "body": r.body,
                "submitted_at": _stamp(min(created + timedelta(hours=r.hours), merged)),
            }
            for r in pr.reviews
        ],
        "comments_list": [
            {
                "user": _user(c.author),
                "body": c.body,
                "created_at": _stamp(min(created + timedelta(hours=c.hours), merged)),
                "path": c.path,
            }
            for c in pr.comments
        ],
    }
