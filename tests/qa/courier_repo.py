"""Two small repos shaped unlike verl, with real patches the heuristic analyzer reads and recorded
reviews, for the classes of issue #12's second blind evaluation:

- relay/courier: a Go message relay, plain English or Chinese titles, Chinese bodies, YAML config whose
  defaults change (`queue.capacity` twice, `consumer.max_inflight` once), reviews by two people.
- lumen/batcher: a Python batching server, English bodies, an argparse flag (`--max-inflight`) whose
  default changes, tokenizer padding and JWT work.

The clock is Thursday 2025-09-18 15:30 in Asia/Shanghai (2025-W38; "last week" is 09-08 to 09-14). One
courier PR (#307) merged two days after the clock: no answer at the clock may show it. No text of either
repo says anything about cooking, rice, weather or jokes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from chatbot.clock import FixedClock
from chatbot.models import PRFile, PullHeader, PullRequest, Review
from chatbot.store.db import Database
from tests.qa.other_repos import store_written

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2025, 9, 18, 15, 30, tzinfo=SHANGHAI)
COURIER = "relay/courier"
BATCHER = "lumen/batcher"
REPOS = (COURIER, BATCHER)


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2025, month, day, hour, tzinfo=SHANGHAI)


def yaml_hunk(section: str, key: str, before: str, after: str) -> str:
    return f"@@ -1,3 +1,3 @@\n {section}:\n-  {key}: {before}\n+  {key}: {after}\n"


@dataclass(frozen=True, slots=True)
class PatchedPR:
    repo: str
    number: int
    merged: datetime
    author: str
    title: str
    body: str
    files: tuple[tuple[str, str], ...]  # (path, patch)
    reviewers: tuple[str, ...] = ()

    def pull_request(self) -> PullRequest:
        header = PullHeader(
            repo=self.repo,
            number=self.number,
            title=self.title,
            body=self.body,
            author=self.author,
            created_at=self.merged - timedelta(days=1),
            updated_at=self.merged,
            merged_at=self.merged,
            html_url=f"https://github.com/{self.repo}/pull/{self.number}",
            base_ref="main",
        )
        files = tuple(
            PRFile(
                path,
                "modified",
                sum(line.startswith("+") for line in patch.splitlines()),
                sum(line.startswith("-") for line in patch.splitlines()),
                patch,
            )
            for path, patch in self.files
        )
        reviews = tuple(
            Review(login, "APPROVED", "看过了", self.merged - timedelta(hours=2)) for login in self.reviewers
        )
        added = sum(f.additions for f in files)
        removed = sum(f.deletions for f in files)
        return PullRequest(
            header, files, reviews, additions=added, deletions=removed, changed_files=len(files)
        )


GO_CHANGE = "@@ -10,3 +10,4 @@ func (c *Consumer) Run(ctx context.Context) error {\n \tfor {\n-\t\tmsg := c.next()\n+\t\tmsg, ok := c.next(ctx)\n+\t\tif !ok { return nil }\n"


def courier(
    number: int, merged: datetime, author: str, title: str, body: str, *files: tuple[str, str], reviewers=()
) -> PatchedPR:
    return PatchedPR(COURIER, number, merged, author, title, body, files, tuple(reviewers))


def batcher(
    number: int, merged: datetime, author: str, title: str, body: str, *files: tuple[str, str]
) -> PatchedPR:
    return PatchedPR(BATCHER, number, merged, author, title, body, files)


PRS: tuple[PatchedPR, ...] = (
    courier(301, at(3, 4), "wu-jie", "Add queue consumer with batched acks", "新增消费者，批量确认消息。",
            ("internal/queue/consumer.go", GO_CHANGE)),
    courier(302, at(4, 8), "lin-q", "队列默认容量调大", "默认容量 512 太小，高峰期经常阻塞。",
            ("config/courier.yaml", yaml_hunk("queue", "capacity", "512", "1024"))),
    courier(303, at(6, 20), "lin-q", "Raise the queue capacity again", "压测显示 1024 仍然不够，改为 4096。",
            ("config/courier.yaml", yaml_hunk("queue", "capacity", "1024", "4096"))),
    courier(304, at(7, 2), "lin-q", "消费者重试加退避", "失败后指数退避重试，避免打满下游。",
            ("internal/queue/consumer.go", GO_CHANGE), ("internal/queue/retry.go", GO_CHANGE)),
    courier(305, at(8, 19, 9), "wu-jie", "Drop poison messages to a dead letter queue",
            "反复失败的消息转入死信队列。", ("internal/queue/dlq.go", GO_CHANGE)),
    courier(306, at(9, 9), "wu-jie", "修复关闭时丢消息", "关闭 consumer 时先排空在途消息再退出。",
            ("internal/queue/consumer.go", GO_CHANGE), reviewers=("zhao-min", "li-na")),
    courier(308, at(9, 10), "lin-q", "Allow more messages in flight per consumer",
            "在途消息上限默认从 64 提到 256，吞吐提升约三倍。",
            ("config/courier.yaml", yaml_hunk("consumer", "max_inflight", "64", "256")), reviewers=("zhao-min",)),
    courier(309, at(9, 11), "chen-y", "Reject unsigned admin tokens",
            "未签名的令牌也能通过校验，有安全隐患，现在一律拒绝。", ("internal/admin/token.go", GO_CHANGE),
            reviewers=("zhao-min",)),
    courier(310, at(9, 12), "chen-y", "日志字段统一为 snake_case", "统一结构化日志的字段命名。",
            ("internal/log/fields.go", GO_CHANGE), reviewers=("li-na",)),
    courier(307, at(9, 20), "wu-jie", "Add a NATS JetStream sink", "新增 JetStream 输出。",
            ("internal/sink/jetstream.go", GO_CHANGE), reviewers=("zhao-min",)),
    batcher(41, at(9, 5), "ana", "Pad tokenizer output to a multiple of 8",
            "Padding every batch to a multiple of 8 keeps the tensor cores busy.",
            ("batcher/tokenize.py", "@@ -1,2 +1,2 @@\n def encode(texts):\n-    return tok(texts)\n+    return tok(texts, pad_to_multiple_of=8)\n")),
    batcher(42, at(9, 8), "ben", "改用 JWT 校验请求", "Replace the shared secret with JWT verification.",
            ("batcher/auth.py", "@@ -1,2 +1,2 @@\n def verify(req):\n-    return req.secret == SECRET\n+    return jwt.decode(req.token, KEY)\n")),
    batcher(43, at(8, 28), "ana", "Raise the default in-flight request limit", "More requests in flight by default.",
            ("batcher/cli.py", "@@ -1,3 +1,3 @@\n def build_parser():\n"
             '-    parser.add_argument("--max-inflight", type=int, default=32)\n'
             '+    parser.add_argument("--max-inflight", type=int, default=128)\n')),
    batcher(44, at(9, 15), "ben", "Free cached batches sooner", "批次发送后立即释放，长时间运行时显存不再上涨。",
            ("batcher/cache.py", "@@ -1,2 +1,2 @@\n def release(batch):\n-    pass\n+    batch.free()\n")),
)  # fmt: skip


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)


def seed_courier(db: Database) -> None:
    """relay/courier alone: the one indexed repo."""
    store_written(db, [pr for pr in PRS if pr.repo == COURIER], NOW)
