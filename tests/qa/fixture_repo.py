"""A written index for the question-answering tests: two repos, 59 merged PRs from late May to the morning
of Wednesday 2026-06-24 (2026-W26), each with a hand-made analysis, so every expected answer is exact.

Weeks in Asia/Shanghai: W22 05-25..05-31 (verl only), W23 06-01..06-07, W24 06-08..06-14,
W25 06-15..06-21 (the last complete week), W26 06-22..06-28 (this week, "now" is 06-24 10:00).
vllm-project/vllm has nothing merged in W26 nor in May: its empty windows are part of the battery.

Texts avoid accidental topic words ("change" contains "hang", "maintenance" contains "nan"): the topic
synonyms in `chatbot/qa/parse.py` search these documents by substring.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from chatbot.analysis.types import Analysis, ChangeType, Risk, RiskCategory, Severity, Verdict
from chatbot.clock import FixedClock
from chatbot.models import PRFile, PullHeader, PullRequest
from chatbot.store.analyses import save_analysis
from chatbot.store.db import Database
from chatbot.store.index import PRIndex
from chatbot.store.schema import PullRequestRow

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI)
SYNCED_AT = datetime(2026, 6, 24, 9, 45, tzinfo=SHANGHAI)
VERL = "verl-project/verl"
VLLM = "vllm-project/vllm"
REPOS = (VERL, VLLM)
INJECTION_PR = 6455  # its title carries `<!channel> @all`, which must stay inert text


def fixture_clock() -> FixedClock:
    return FixedClock(NOW)


@dataclass(frozen=True, slots=True)
class WrittenPR:
    """One PR of the fixture with its analysis, in as few words as a reader needs."""

    repo: str
    number: int
    merged: datetime
    author: str
    title: str
    modules: tuple[str, ...]
    change_type: ChangeType
    importance: float
    insight: float
    verdict: Verdict
    summary: str
    key_point: str
    risks: tuple[Risk, ...] = ()
    breaking: bool = False

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repo}/pull/{self.number}"

    def pull_request(self) -> PullRequest:
        header = PullHeader(
            repo=self.repo,
            number=self.number,
            title=self.title,
            body="",
            author=self.author,
            created_at=self.merged - timedelta(hours=6),
            updated_at=self.merged,
            merged_at=self.merged,
            html_url=self.url,
            base_ref="main",
        )
        path = f"{self.modules[0]}/{self.number}.py"
        return PullRequest(
            header, (PRFile(path, "modified", 40, 8),), additions=40, deletions=8, changed_files=1
        )

    def analysis(self) -> Analysis:
        return Analysis(
            title_zh=self.title,
            summary=self.summary,
            modules=self.modules,
            change_type=self.change_type,
            breaking=self.breaking,
            importance=self.importance,
            insight=self.insight,
            verdict=self.verdict,
            verdict_reason="手写的结论" if self.verdict != "skim" else "改动小",
            key_points=(self.key_point,),
            risks=self.risks,
            tests=self.change_type == "test",
            follow_ups=(f"关注 #{self.number} 的后续",),
        )


def at(month: int, day: int, hour: int = 12, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=SHANGHAI)


def risk(category: RiskCategory, severity: Severity, text: str) -> Risk:
    return Risk(category, severity, text, "")


def verl(
    number: int,
    merged: datetime,
    author: str,
    title: str,
    modules: tuple[str, ...],
    change_type: ChangeType,
    importance: float,
    insight: float,
    verdict: Verdict,
    summary: str,
    key_point: str,
    *risks: Risk,
    breaking: bool = False,
) -> WrittenPR:
    return WrittenPR(
        VERL, number, merged, author, title, modules, change_type, importance, insight, verdict, summary,
        key_point, risks, breaking,
    )  # fmt: skip


def vllm(
    number: int,
    merged: datetime,
    author: str,
    title: str,
    modules: tuple[str, ...],
    change_type: ChangeType,
    importance: float,
    insight: float,
    verdict: Verdict,
    summary: str,
    key_point: str,
    *risks: Risk,
) -> WrittenPR:
    return WrittenPR(
        VLLM, number, merged, author, title, modules, change_type, importance, insight, verdict, summary,
        key_point, risks,
    )  # fmt: skip


BOT = "dependabot[bot]"

PRS: tuple[WrittenPR, ...] = (
    # verl, 2026-W22 (May) --------------------------------------------------------------------------
    verl(6401, at(5, 26, 11), "alice", "[trainer] feat: add PPO KL controller warmup", ("trainer",), "feat",
         5.0, 4.0, "skim", "为 KL 控制器加入 warmup。", "warmup 步数的默认值",
         risk("config", "low", "默认 warmup 步数为 100")),
    verl(6405, at(5, 28, 15), "bob", "[ci] chore: 升级 GPU runner 镜像", ("ci",), "chore",
         2.0, 1.5, "skim", "CI 镜像升级。", "镜像标签",
         risk("dependency", "low", "CUDA 镜像从 12.4 升到 12.6")),
    verl(6409, at(5, 30, 20), BOT, "chore(deps): bump transformers from 4.52 to 4.53", ("ci",), "chore",
         1.2, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "medium", "transformers 升级可能影响 tokenizer 行为")),
    # verl, 2026-W23 --------------------------------------------------------------------------------
    verl(6420, at(6, 1, 10), "alice", "[megatron] feat: Megatron 后端支持 context parallel", ("megatron",),
         "feat", 7.5, 6.0, "must-read", "Megatron 后端新增 context parallel。", "CP 通信组的初始化顺序",
         risk("concurrency", "medium", "新增 CP 通信组，初始化顺序敏感"),
         risk("missing-tests", "medium", "没有覆盖 CP>1 的单测")),
    verl(6423, at(6, 2, 14), "bob", "[fsdp] fix: FSDP2 保存 checkpoint 时 OOM", ("fsdp",), "fix",
         6.5, 7.0, "must-read", "保存时不再 gather 完整的 state dict。", "改为分片保存",
         risk("memory", "high", "保存 checkpoint 时全量 gather 导致显存峰值翻倍")),
    verl(6426, at(6, 3, 9), "carol", "[rollout] feat: vLLM rollout supports async mode", ("rollout", "vllm"),
         "feat", 6.1, 5.0, "worth-reading", "rollout 可以异步运行。", "异步队列的背压",
         risk("concurrency", "medium", "异步 rollout 引入新的竞态")),
    verl(6429, at(6, 3, 18), BOT, "chore(deps): bump ray from 2.46 to 2.47", ("ci",), "chore",
         1.5, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "low", "ray 小版本升级")),
    verl(6431, at(6, 4, 11), "alice", "[doc] 补充 GRPO 配置说明", ("doc",), "doc",
         2.0, 2.0, "skim", "文档补充。", "GRPO 参数表"),
    verl(6434, at(6, 5, 16), "bob", "[trainer] refactor: 拆分 ray_trainer.py", ("trainer",), "refactor",
         4.5, 3.5, "skim", "把训练主循环拆成多个文件。", "新的文件划分",
         risk("missing-tests", "medium", "重构 1200 行代码没有新增测试")),
    verl(6437, at(6, 6, 13), "carol", "[sglang] fix: sglang rollout hangs on multi-node", ("sglang", "rollout"),
         "fix", 5.5, 6.0, "worth-reading", "修复多机 rollout 卡死。", "NCCL 初始化的先后",
         risk("concurrency", "high", "多机 NCCL 初始化可能死锁")),
    verl(6440, at(6, 7, 21), "alice", "[ci] test: 为 megatron 加 e2e 测试", ("ci", "megatron"), "test",
         3.0, 2.0, "skim", "新增端到端测试。", "测试覆盖的并行配置"),
    # verl, 2026-W24 --------------------------------------------------------------------------------
    verl(6450, at(6, 8, 10), "bob", "[megatron] perf: 优化 megatron 权重同步到 vLLM", ("megatron", "vllm"),
         "perf", 7.0, 6.5, "must-read", "权重同步改为分桶广播。", "分桶大小的选择",
         risk("memory", "medium", "权重同步时临时 buffer 占用额外显存")),
    verl(6452, at(6, 8, 19), "alice", "[BREAKING][trainer] feat: 新配置系统 (hydra → dataclass)", ("trainer",),
         "feat", 8.0, 5.5, "must-read", "配置从 hydra 迁移到 dataclass。", "旧键到新键的映射表",
         risk("breaking-change", "high", "旧的 yaml 配置键全部改名"),
         risk("config", "medium", "默认 micro batch 改为 auto"), breaking=True),
    verl(INJECTION_PR, at(6, 9, 15), "carol", "[doc] 更新 README <!channel> @all 请大家看看", ("doc",), "doc",
         1.0, 0.5, "skim", "README 更新。", "README 目录"),
    verl(6457, at(6, 10, 11), BOT, "chore(deps): bump torch from 2.6 to 2.7", ("ci",), "chore",
         3.5, 1.0, "skim", "依赖升级。", "版本号",
         risk("dependency", "high", "torch 大版本升级，可能影响 CUDA kernel 兼容")),
    verl(6460, at(6, 10, 17), "bob", "[fsdp] feat: FSDP2 支持 CPU offload", ("fsdp",), "feat",
         6.0, 5.0, "worth-reading", "参数可以卸载到 CPU。", "offload 的粒度",
         risk("memory", "medium", "CPU offload 会增加主机内存占用")),
    verl(6462, at(6, 11, 9, 30), "alice", "[rollout] fix: reward 计算中的 off-by-one", ("rollout", "trainer"),
         "fix", 4.0, 4.5, "skim", "修正 reward 下标。", "下标从 0 开始",
         risk("missing-tests", "low", "没有回归测试")),
    verl(6465, at(6, 12, 14), "carol", "[sglang] feat: sglang 支持 multi-turn tool calling", ("sglang", "rollout"),
         "feat", 6.8, 6.0, "worth-reading", "多轮工具调用。", "工具调用的状态机",
         risk("compatibility", "medium", "需要 sglang>=0.4.8")),
    verl(6467, at(6, 12, 20), "bob", "[ci] fix: 修复 nightly CI 偶发超时", ("ci",), "fix",
         2.5, 2.0, "skim", "延长超时并重试。", "重试次数"),
    verl(6470, at(6, 13, 12), "alice", "[megatron] fix: megatron 加载 HF checkpoint 时 dtype 错误", ("megatron",),
         "fix", 5.0, 5.5, "worth-reading", "修正加载时的 dtype 推断。", "dtype 推断的顺序",
         risk("compatibility", "low", "bf16 与 fp32 权重混用时行为不同")),
    verl(6472, at(6, 14, 22), "carol", "[trainer] feat: 支持 DAPO 算法", ("trainer",), "feat",
         6.6, 6.5, "worth-reading", "新增 DAPO 训练算法。", "动态采样的实现",
         risk("missing-tests", "medium", "新算法缺少收敛性测试")),
    # verl, 2026-W25 (the last complete week; 6500 opens it at Monday 00:00, 6528 closes it at 23:59) ---
    verl(6500, at(6, 15, 0), "alice", "[ci] chore: 每周一零点触发 benchmark", ("ci",), "chore",
         2.0, 1.0, "skim", "定时任务。", "cron 表达式"),
    verl(6503, at(6, 15, 11), "bob", "[fsdp] fix: FSDP 下 ref model 显存泄漏 (OOM after 200 steps)", ("fsdp",),
         "fix", 7.2, 7.5, "must-read", "ref model 的参数在每步之后释放。", "释放时机与 offload 的关系",
         risk("memory", "high", "ref model 参数未释放，200 步后 OOM")),
    verl(6505, at(6, 16, 10), "carol", "[rollout] perf: vLLM rollout 吞吐提升 30%", ("rollout", "vllm"), "perf",
         6.7, 6.0, "worth-reading", "rollout 批处理更大。", "批大小的自适应",
         risk("performance", "medium", "batch 过大时延迟上升")),
    verl(6507, at(6, 16, 16), BOT, "chore(deps): bump vllm from 0.9.1 to 0.9.2", ("ci",), "chore",
         3.0, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "medium", "vllm 升级可能影响采样默认值")),
    verl(6509, at(6, 17, 9), "alice", "[trainer] refactor: 统一 loss 聚合方式", ("trainer",), "refactor",
         5.2, 5.0, "worth-reading", "统一 loss_agg_mode。", "三种聚合方式的差别",
         risk("config", "medium", "loss_agg_mode 默认值从 token-mean 改为 seq-mean"),
         risk("missing-tests", "medium", "没有对比新旧聚合结果的测试")),
    verl(6512, at(6, 17, 15), "bob", "[megatron] feat: Megatron 支持 Qwen3-MoE expert parallel", ("megatron",),
         "feat", 8.8, 8.0, "must-read", "Megatron 后端支持 MoE 模型的 expert parallel。",
         "expert 路由与 all-to-all 通信的切分",
         risk("memory", "high", "EP=8 时 all-to-all buffer 显存占用大，70B 模型可能 OOM"),
         risk("concurrency", "medium", "all-to-all 通信组与 CP 组交错")),
    verl(6514, at(6, 18, 11), "carol", "[sglang] fix: sglang 权重更新后 KV cache 未清空", ("sglang", "rollout"),
         "fix", 5.8, 6.2, "worth-reading", "权重更新后清空 KV cache。", "清空的时机",
         risk("memory", "medium", "KV cache 未释放导致显存占用持续增长")),
    verl(6516, at(6, 18, 20), "alice", "[doc] docs: add megatron tuning guide", ("doc", "megatron"), "doc",
         3.2, 4.0, "skim", "新增 megatron 调优指南。", "调优参数表"),
    verl(6518, at(6, 19, 10), "bob", "[megatron] fix: megatron 下 grad norm 计算错误", ("megatron",), "fix",
         6.2, 6.8, "worth-reading", "grad norm 在 PP 各段之间正确归约。", "归约的通信组",
         risk("missing-tests", "medium", "没有覆盖 PP>1 的测试")),
    verl(6520, at(6, 19, 14), "carol", "[trainer] feat: 支持 reward model 异步打分", ("trainer",), "feat",
         5.6, 4.5, "worth-reading", "reward 打分与训练并行。", "同步点的位置",
         risk("concurrency", "medium", "异步打分与训练步之间缺少同步")),
    verl(6522, at(6, 20, 9), BOT, "chore(deps): bump flash-attn from 2.7.3 to 2.7.4", ("ci",), "chore",
         2.2, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "low", "flash-attn 小版本升级")),
    verl(6524, at(6, 20, 15), "alice", "[fsdp] perf: FSDP2 overlap 通信与计算", ("fsdp",), "perf",
         6.4, 6.6, "worth-reading", "通信与计算重叠。", "重叠的调度顺序",
         risk("performance", "low", "overlap 在小模型上可能变慢")),
    verl(6526, at(6, 21, 11), "bob", "[ci] fix: 修复 megatron e2e 测试不稳定", ("ci", "megatron"), "fix",
         2.8, 2.0, "skim", "固定随机种子。", "随机种子"),
    verl(6528, at(6, 21, 23, 59), "carol", "[rollout] feat: partial rollout 中断续采", ("rollout",), "feat",
         5.4, 5.0, "worth-reading", "rollout 可以中断后继续。", "续采的状态保存"),
    # verl, 2026-W26 (this week, until Wednesday 10:00; 6530 opens it at Monday 00:00) ---------------
    verl(6530, at(6, 22, 0), "alice", "[trainer] fix: 修复 resume 时 global step 错位", ("trainer",), "fix",
         5.0, 5.2, "worth-reading", "resume 时恢复正确的 global step。", "step 的保存位置",
         risk("missing-tests", "medium", "没有 resume 的端到端测试")),
    verl(6532, at(6, 22, 15), "bob", "[megatron] feat: Megatron 支持 FP8 训练", ("megatron",), "feat",
         7.8, 7.0, "must-read", "Megatron 后端支持 FP8 训练。", "amax history 的管理",
         risk("memory", "medium", "FP8 amax history 额外占用显存"),
         risk("compatibility", "high", "需要 Hopper GPU 和 TransformerEngine>=2.0")),
    verl(6535, at(6, 23, 10), "carol", "[vllm] fix: vLLM sleep mode 显存未释放 (OOM)", ("vllm", "rollout"), "fix",
         6.3, 6.5, "worth-reading", "sleep mode 下正确释放 KV cache。", "释放与唤醒的顺序",
         risk("memory", "high", "sleep mode 下 KV cache 未释放，连续训练 OOM")),
    verl(6537, at(6, 23, 18), BOT, "chore(deps): bump ray from 2.47 to 2.48", ("ci",), "chore",
         1.8, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "low", "ray 小版本升级")),
    verl(6539, at(6, 24, 8), "alice", "[doc] 新增中文 quickstart", ("doc",), "doc",
         2.4, 2.5, "skim", "中文入门文档。", "安装步骤"),
    verl(6541, at(6, 24, 9, 30), "bob", "[fsdp] feat: FSDP 支持 ulysses sequence parallel", ("fsdp",), "feat",
         6.9, 6.0, "worth-reading", "FSDP 后端支持序列并行。", "SP 组的划分",
         risk("concurrency", "medium", "sequence parallel 组与 DP 组交错")),
    # vllm, 2026-W23 --------------------------------------------------------------------------------
    vllm(19001, at(6, 1, 12), "carol", "[Kernel] feat: FlashInfer sampling kernel", ("kernel",), "feat",
         6.0, 5.0, "worth-reading", "采样改用 FlashInfer。", "top-p 的实现",
         risk("performance", "low", "小 batch 下可能更慢")),
    vllm(19004, at(6, 3, 10), "bob", "[Scheduler] fix: chunked prefill 饥饿问题", ("scheduler",), "fix",
         6.5, 6.5, "must-read", "长请求不再饿死短请求。", "调度优先级",
         risk("concurrency", "medium", "调度锁的粒度变化")),
    vllm(19006, at(6, 5, 16), BOT, "chore(deps): bump torch to 2.7", ("ci",), "chore",
         3.0, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "medium", "torch 升级")),
    vllm(19008, at(6, 6, 9), "alice", "[Doc] 更新部署文档", ("doc",), "doc",
         1.5, 1.0, "skim", "部署文档。", "部署步骤"),
    # vllm, 2026-W24 --------------------------------------------------------------------------------
    vllm(19010, at(6, 8, 11), "alice", "[Model] feat: support Qwen3-MoE", ("model",), "feat",
         7.0, 5.0, "must-read", "支持 Qwen3-MoE 模型。", "权重加载",
         risk("memory", "medium", "MoE 权重加载时峰值显存高")),
    vllm(19012, at(6, 9, 14), "bob", "[Kernel] perf: fused MoE kernel tuning for H100", ("kernel",), "perf",
         6.2, 6.0, "worth-reading", "H100 上的 MoE kernel 调参。", "调参表",
         risk("performance", "medium", "其他 GPU 上未验证")),
    vllm(19015, at(6, 10, 10), "carol", "[Scheduler] refactor: 调度器 v1 清理", ("scheduler",), "refactor",
         4.0, 3.0, "skim", "删除旧调度器代码。", "删除的接口",
         risk("missing-tests", "medium", "没有新增测试")),
    vllm(19017, at(6, 11, 16), BOT, "chore(deps): bump xformers", ("ci",), "chore",
         1.0, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "low", "xformers 升级")),
    vllm(19019, at(6, 12, 13), "alice", "[API] fix: OpenAI server 流式输出丢失最后一个 token", ("api",), "fix",
         5.5, 5.0, "worth-reading", "流式输出补上最后一个 token。", "结束标记的处理"),
    vllm(19021, at(6, 13, 18), "bob", "[CI] fix: speed up CI", ("ci",), "fix",
         2.0, 1.0, "skim", "CI 并行化。", "并行度"),
    # vllm, 2026-W25 --------------------------------------------------------------------------------
    vllm(19030, at(6, 15, 10), "carol", "[Kernel] fix: FP8 GEMM 在 A100 上出现 NaN", ("kernel",), "fix",
         6.8, 7.0, "must-read", "修正 A100 上的 FP8 GEMM。", "scale 的计算",
         risk("compatibility", "medium", "A100 与 H100 走不同路径")),
    vllm(19032, at(6, 16, 12), "alice", "[Model] fix: Llama4 加载时 OOM", ("model",), "fix",
         6.0, 6.0, "worth-reading", "加载时逐层读取权重。", "逐层加载",
         risk("memory", "high", "加载 Llama4 时 CPU 内存翻倍导致 OOM")),
    vllm(19034, at(6, 17, 11), "bob", "[Scheduler] feat: priority scheduling", ("scheduler",), "feat",
         7.4, 6.0, "must-read", "按优先级调度请求。", "优先级队列",
         risk("config", "medium", "新增 --scheduling-policy，默认仍为 fcfs")),
    vllm(19036, at(6, 17, 19), BOT, "chore(deps): bump transformers", ("ci",), "chore",
         2.0, 0.5, "skim", "依赖升级。", "版本号",
         risk("dependency", "low", "transformers 升级")),
    vllm(19038, at(6, 18, 10), "carol", "[API] feat: 支持 /v1/responses 接口", ("api",), "feat",
         5.8, 4.0, "worth-reading", "新增 responses 接口。", "接口字段",
         risk("security", "medium", "新接口未做鉴权限流")),
    vllm(19040, at(6, 19, 15), "alice", "[Doc] docs: 新增 FP8 量化文档", ("doc",), "doc",
         2.0, 2.0, "skim", "量化文档。", "量化步骤"),
    vllm(19042, at(6, 20, 11), "bob", "[Kernel] perf: CUDA graph 捕获更多 batch size", ("kernel",), "perf",
         5.6, 5.5, "worth-reading", "CUDA graph 覆盖更多 batch size。", "捕获的 batch size 列表",
         risk("memory", "medium", "CUDA graph 额外占用显存")),
    vllm(19044, at(6, 21, 16), "carol", "[CI] test: add multi-node test", ("ci",), "test",
         2.5, 2.0, "skim", "多机测试。", "测试拓扑"),
)  # fmt: skip

BY_KEY = {(pr.repo, pr.number): pr for pr in PRS}


def seed_fixture(db: Database) -> None:
    """Store every PR of the fixture with its analysis (which also fills the search index)."""
    with db.session() as session:
        index = PRIndex(session)
        for name in REPOS:
            repo = index.ensure_repo(name, NOW - timedelta(days=60))
            repo.last_synced_at = SYNCED_AT
            for pr in (p for p in PRS if p.repo == name):
                index.upsert(repo, pr.pull_request(), NOW)
            session.flush()
            rows = {row.number: row for row in session.query(PullRequestRow).filter_by(repo_id=repo.id)}
            for pr in (p for p in PRS if p.repo == name):
                save_analysis(
                    session,
                    rows[pr.number],
                    pr.analysis(),
                    analyzer="hand",
                    version="1",
                    language="zh",
                    now=NOW,
                )
