"""A repo whose analyses record interface and configuration changes, for the breaking-change and
configuration questions: `acme/anvil`, plain titles (no [module] tags), Chinese bodies, each PR with a
hand-made analysis in Chinese and English worded as the heuristic analyzer words its key points and risks
(and one worded freely, as an LLM would), so every expected answer is exact.

The clock is Wednesday 2026-04-22 10:00 in Asia/Shanghai (2026-W17); "last week" is 2026-W16 (04-13 to
04-19), "this month" April 2026."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from chatbot.analysis.types import Analysis, ConfigFact, LocalizedAnalysis, Risk, RiskCategory, Severity
from chatbot.clock import FixedClock
from chatbot.models import PRFile, PullHeader, PullRequest
from chatbot.store.analyses import save_analysis
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow
from tests.qa.other_repos import SHANGHAI

NOW = datetime(2026, 4, 22, 10, 0, tzinfo=SHANGHAI)
ANVIL = "acme/anvil"


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


@dataclass(frozen=True, slots=True)
class Said:
    """A risk in both languages."""

    category: RiskCategory
    severity: Severity
    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class HandPR:
    number: int
    merged: datetime
    title: str
    body: str
    path: str
    importance: float
    points: tuple[tuple[str, str], ...] = ()  # key points, (zh, en)
    risks: tuple[Said, ...] = ()
    breaking: bool = False
    module: str = "core"
    config: tuple[ConfigFact, ...] = ()  # the config facts, as the heuristic analyzer records them

    def pull_request(self) -> PullRequest:
        header = PullHeader(
            repo=ANVIL,
            number=self.number,
            title=self.title,
            body=self.body,
            author="dev",
            created_at=self.merged - timedelta(hours=6),
            updated_at=self.merged,
            merged_at=self.merged,
            html_url=f"https://github.com/{ANVIL}/pull/{self.number}",
            base_ref="main",
        )
        return PullRequest(header, (PRFile(self.path, "modified", 40, 8),), additions=40, deletions=8)

    def analysis(self) -> Analysis:
        risks = tuple(Risk(r.category, r.severity, r.zh, "") for r in self.risks)
        texts = {
            "zh": LocalizedAnalysis(
                self.title, "手写的结论", tuple(z for z, _ in self.points), tuple(r.zh for r in self.risks)
            ),
            "en": LocalizedAnalysis(
                self.title, "hand-written", tuple(e for _, e in self.points), tuple(r.en for r in self.risks)
            ),
        }
        return Analysis(
            title_zh=self.title,
            summary=self.body,
            modules=(self.module,),
            change_type="feat",
            breaking=self.breaking,
            importance=self.importance,
            insight=3.0,
            verdict="worth-reading",
            verdict_reason="手写的结论",
            key_points=tuple(z for z, _ in self.points),
            risks=risks,
            texts=texts,
            config=self.config,
        )


REMOVED_API = Said(
    "compatibility",
    "medium",
    "删除了公共接口 open_session，外部调用方会失效",
    "public definitions removed (open_session); external callers will break",
)

PRS: tuple[HandPR, ...] = (
    # breaking, flagged by the analysis
    HandPR(901, at(4, 14), "移除旧版存储格式", "旧格式的文件不再能读取。", "anvil/store/format.py", 7.5,
           (("破坏性变更：旧格式的文件不再能读取", "Breaking change: files in the old format no longer load"),),
           (Said("breaking-change", "high", "旧格式的文件不再能读取", "files in the old format no longer load"),),
           breaking=True, module="store"),
    # not flagged, but a public definition removed: may break callers
    HandPR(902, at(4, 15), "会话管理重构", "把会话的创建收进 SessionPool。", "anvil/session.py", 5.5,
           (("新增公共接口：SessionPool", "New public definitions: SessionPool"),), (REMOVED_API,),
           module="session"),
    # a config key renamed, as a compatibility risk: may break old config files
    HandPR(903, at(4, 16), "重命名超时配置", "统一超时配置的命名。", "anvil/config/defaults.yaml", 4.0,
           (("配置项改名：timeout → request_timeout", "Config keys renamed: timeout → request_timeout"),),
           (Said("compatibility", "medium", "配置项改名（timeout → request_timeout），仍设置 timeout 的旧配置文件会报错或被忽略",
                 "config keys renamed (timeout → request_timeout); old config files that still set timeout fail or are ignored"),),
           module="config", config=(ConfigFact("request_timeout", "renamed", "timeout", "request_timeout", "anvil/config/defaults.yaml"),)),
    # a compatibility risk that breaks nobody's calls (a newer dependency), and a low one
    HandPR(904, at(4, 16), "升级 grpc", "grpc 升到 1.62。", "requirements.txt", 3.0,
           (("依赖/镜像变化：grpcio 1.60 → 1.62", "Dependency/image changes: grpcio 1.60 → 1.62"),),
           (Said("compatibility", "medium", "需要 grpcio>=1.62", "requires grpcio>=1.62"),
            Said("compatibility", "low", "删除了公共接口 _helper，外部调用方会失效",
                 "public definitions removed (_helper); external callers will break")),
           module="deps"),
    # configuration: keys added, a default changed, CLI options added, one worded freely (an LLM's)
    HandPR(905, at(4, 14), "支持连接池", "新增连接池，池大小可配置。", "anvil/pool.py", 6.0,
           (("新增配置项：pool.size、pool.idle_timeout", "New config keys: pool.size, pool.idle_timeout"),
            ("连接复用", "Connections are reused")),
           config=(ConfigFact("pool.size", "added", "", "8", "anvil/pool.py"),
                   ConfigFact("pool.idle_timeout", "added", "", "30", "anvil/pool.py"))),
    HandPR(906, at(4, 17), "调整重试默认值", "默认重试次数改为 5。", "anvil/config/retry.py", 5.0,
           (("默认值变更：retry.max_attempts 从 3 改为 5（anvil/config/retry.py）",
             "Default changed: retry.max_attempts from 3 to 5 (anvil/config/retry.py)"),),
           (Said("config", "medium", "默认值被修改：retry.max_attempts 3 → 5，未显式设置的用户和调用方行为会改变",
                 "defaults changed (retry.max_attempts 3 → 5); users and callers relying on them get new behaviour"),),
           config=(ConfigFact("retry.max_attempts", "default_changed", "3", "5", "anvil/config/retry.py"),)),
    HandPR(907, at(4, 18), "命令行支持 dry run", "加了 --dry-run 和 --verbose。", "anvil/cli.py", 4.5,
           (("新增命令行参数：--dry-run、--verbose", "New command-line options: --dry-run, --verbose"),),
           module="cli", config=(ConfigFact("--dry-run", "flag_added", file="anvil/cli.py"),
                                 ConfigFact("--verbose", "flag_added", file="anvil/cli.py"))),
    HandPR(908, at(4, 18), "日志格式可配置", "日志格式可以在配置文件里指定。", "anvil/log.py", 3.5,
           (("日志格式可配置", "Log format is configurable"),),
           (Said("config", "low", "新的 log.format 配置项没有文档", "the new log.format option is undocumented"),)),
    # mentions configuration in words only: no analysis records a change
    HandPR(909, at(4, 17), "修复配置文件示例里的拼写", "修正文档里配置示例的拼写错误。", "docs/config.md", 1.0,
           module="doc"),
)  # fmt: skip


def seed(db: Database) -> None:
    with db.session() as session:
        index = PRIndex(session)
        repo = index.ensure_repo(ANVIL, NOW - timedelta(days=60))
        repo.last_synced_at = NOW - timedelta(minutes=10)
        for pr in PRS:
            index.upsert(repo, pr.pull_request(), NOW)
        session.flush()
        rows = {row.number: row for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
        for pr in PRS:
            save_analysis(
                session, rows[pr.number], pr.analysis(), analyzer="hand", version="1", language="zh", now=NOW
            )
