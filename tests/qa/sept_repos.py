"""Two more repos shaped unlike verl, written before any question about them, for questions by class on a
clock of another season:

- internlm/xtuner: a Chinese-first project. Most titles and every body are Chinese; some titles carry an
  English kind tag (`[Fix]`, `[Docs]`, `[Refactor]`), none a module tag.
- sgl-project/sglang: every title opens with a category tag that is a kind of change or an area, not a
  module of the code (`[Fix]`, `[Perf]`, `[Router]`, `[Deps]`), English bodies, some review text.

The clock is Thursday 2026-09-17 15:00 in Asia/Shanghai (2026-W38, Monday 09-14 to Sunday 09-20); each
repo has a PR merged later, which no answer at the clock may cite. xtuner has one PR of December 2025.
"""

from __future__ import annotations

from datetime import datetime

from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.qa.other_repos import SHANGHAI, Written, store_written

NOW = datetime(2026, 9, 17, 15, 0, tzinfo=SHANGHAI)
XTUNER = "internlm/xtuner"
SGLANG = "sgl-project/sglang"
REPOS = (XTUNER, SGLANG)


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(year: int, month: int, day: int, hour: int = 12) -> datetime:
    return datetime(year, month, day, hour, tzinfo=SHANGHAI)


def xtuner(
    number: int, merged: datetime, author: str, title: str, body: str, *files: str, review: str = ""
) -> Written:
    return Written(XTUNER, number, merged, author, title, body, files, review)


def sglang(
    number: int, merged: datetime, author: str, title: str, body: str, *files: str, review: str = ""
) -> Written:
    return Written(SGLANG, number, merged, author, title, body, files, review)


PRS: tuple[Written, ...] = (
    # internlm/xtuner ---------------------------------------------------------------------------------
    xtuner(901, at(2025, 12, 10), "pppppM", "[Feature] 支持 DeepSeek-V3 的 LoRA 微调",
           "新增 DeepSeek-V3 的 LoRA 配置，MoE 专家层也可以挂 LoRA。",
           "xtuner/configs/deepseek_v3/lora.py", "xtuner/model/modules/lora.py"),
    xtuner(905, at(2026, 8, 4), "HIT-cwh", "修复序列并行下 loss 计算错误",
           "开启 sequence parallel 后 loss 按卡数被重复平均，loss 偏小、梯度被缩小。现在按 token 数归一化。",
           "xtuner/parallel/sequence/reduce_loss.py", "tests/test_sp_loss.py"),
    xtuner(908, at(2026, 8, 12), "hhaAndroid", "[Docs] 新增多机训练文档",
           "补充 slurm 与 torchrun 的多机启动说明。", "docs/zh_cn/training/multi_node.md"),
    xtuner(911, at(2026, 8, 20), "LZHgrla", "升级依赖：torch>=2.5，transformers>=4.48",
           "requirements/runtime.txt 中提高版本下限，旧版本 mmengine 不再兼容。", "requirements/runtime.txt"),
    xtuner(914, at(2026, 8, 27), "pppppM", "[Refactor] 移除旧的 dataset map_fn 接口",
           "破坏性变更：`alpaca_map_fn` 等旧接口被删除，配置文件需要改用 `dataset_format` 字段。",
           "xtuner/dataset/map_fns/__init__.py", "xtuner/configs/_base_/datasets/alpaca.py"),
    xtuner(917, at(2026, 9, 1), "HIT-cwh", "FSDP 训练支持把优化器状态 offload 到 CPU",
           "优化器状态在 step 之间放到 CPU，70B 模型单机 8 卡的显存峰值下降 25%。", "xtuner/engine/fsdp.py"),
    xtuner(920, at(2026, 9, 3), "hhaAndroid", "支持昇腾 NPU 上的 DPO 训练",
           "在 Ascend 910B 上验证通过，使用 torch_npu 后端。", "xtuner/utils/device.py", "xtuner/model/dpo.py"),
    xtuner(923, at(2026, 9, 8), "LZHgrla", "修复 DPO 训练中 reference model 显存未释放导致 OOM",
           "每个 step 的 reference logits 一直留在显存里，长时间训练后 OOM。", "xtuner/model/dpo.py"),
    xtuner(926, at(2026, 9, 9), "pppppM", "新增 GRPO 算法支持",
           "支持 GRPO 训练，rollout 使用 lmdeploy 推理引擎，advantage 按组内标准差归一化。",
           "xtuner/rl/grpo.py", "xtuner/rl/rollout/lmdeploy_worker.py", review="建议补充一条收敛曲线。"),
    xtuner(929, at(2026, 9, 11), "HIT-cwh", "[Fix] 修复 GRPO 中 advantage 计算符号错误",
           "advantage 的符号取反了，导致 reward 不升反降。", "xtuner/rl/grpo.py"),
    xtuner(932, at(2026, 9, 12), "hhaAndroid", "增加 GRPO 的单元测试",
           "覆盖 advantage 归一化和 KL 惩罚两部分。", "tests/rl/test_grpo.py"),
    xtuner(935, at(2026, 9, 14), "LZHgrla", "默认学习率调度改为 cosine",
           "默认 lr scheduler 从 linear 改为 cosine，warmup_ratio 默认 0.03；沿用默认值的配置训练结果会变化。",
           "xtuner/configs/_base_/schedules/default.py"),
    xtuner(938, at(2026, 9, 15), "pppppM", "回滚 #926 中的 lmdeploy rollout",
           "lmdeploy rollout 在多机上卡死，先回退到 vLLM rollout。", "xtuner/rl/rollout/lmdeploy_worker.py"),
    xtuner(941, at(2026, 9, 16), "HIT-cwh", "加速 packed 数据集的预处理",
           "预处理改为多进程，100 万条样本从 40 分钟降到 6 分钟。", "xtuner/dataset/packing.py"),
    xtuner(944, at(2026, 9, 18), "hhaAndroid", "修复 GRPO 多机训练卡住",
           "Merged after the clock's time.", "xtuner/rl/grpo.py"),
    # sgl-project/sglang ------------------------------------------------------------------------------
    sglang(5101, at(2026, 8, 5), "merrymercy", "[Feature] Add EAGLE-3 speculative decoding",
           "Adds EAGLE-3 draft heads; the acceptance length is 3.2 on MT-Bench.",
           "python/sglang/srt/speculative/eagle3.py"),
    sglang(5110, at(2026, 8, 14), "zhyncs", "[CI] Split the nightly test suite by GPU count",
           "Nightly jobs now run 1-GPU and 8-GPU tests on separate runners.", ".github/workflows/nightly.yml"),
    sglang(5118, at(2026, 8, 25), "ispobock", "[Perf] Fuse the MoE align kernel for DeepSeek-V3",
           "One kernel instead of three; decode throughput up 11% on H200.", "sgl-kernel/csrc/moe/moe_align.cu"),
    sglang(5125, at(2026, 9, 2), "Ying1123", "[Fix] Radix cache leaks memory when requests are aborted",
           "Aborted requests kept their tree nodes locked, so GPU memory grew until the server hit OOM.",
           "python/sglang/srt/mem_cache/radix_cache.py"),
    sglang(5131, at(2026, 9, 4), "zhyncs", "[Deps] Bump flashinfer to 0.3.1 and torch to 2.8",
           "Needed by the new sampling kernels.", "python/pyproject.toml"),
    sglang(5136, at(2026, 9, 7), "hnyls2002", "[Router] Add cache-aware load balancing",
           "The router now picks a worker by its prefix-cache hit rate instead of round robin; p99 TTFT "
           "drops 30% on a shared-prompt workload.", "sgl-router/src/policies/cache_aware.rs"),
    sglang(5140, at(2026, 9, 8), "merrymercy", "[Refactor] Remove the deprecated --disable-flashinfer flag",
           "BREAKING: use --attention-backend instead. Launch scripts that still pass the old flag fail.",
           "python/sglang/srt/server_args.py"),
    sglang(5144, at(2026, 9, 10), "ispobock", "[Model] Support Qwen3-Next",
           "Adds the hybrid linear-attention layers of Qwen3-Next.", "python/sglang/srt/models/qwen3_next.py"),
    sglang(5149, at(2026, 9, 11), "Ying1123", "[Fix] Wrong logprobs with chunked prefill",
           "The first chunk's logprobs were dropped when chunked prefill was on, so returned logprobs were "
           "shifted by one chunk.", "python/sglang/srt/managers/scheduler.py", "test/srt/test_logprobs.py",
           review="Please add a test with two chunks."),
    sglang(5153, at(2026, 9, 13), "zhyncs", "[Doc] Document the router's cache-aware policy",
           "How the policy scores workers and when to use it.", "docs/router/cache_aware.md"),
    sglang(5158, at(2026, 9, 14), "hnyls2002", "[Feature] Support Ascend NPU in the attention backend",
           "Adds an NPU attention backend on torch_npu; tested on 910B.",
           "python/sglang/srt/layers/attention/ascend_backend.py"),
    sglang(5162, at(2026, 9, 15), "merrymercy", "[Fix] Change the default top_k from 50 to -1 to match OpenAI",
           "A default top_k of 50 truncated sampling; outputs at default settings will change.",
           "python/sglang/srt/sampling/sampling_params.py"),
    sglang(5166, at(2026, 9, 16), "ispobock", "[Perf] Overlap the scheduler with GPU compute for DP attention",
           "CPU scheduling of the next batch overlaps the forward pass; throughput up 8%.",
           "python/sglang/srt/managers/scheduler.py"),
    sglang(5170, at(2026, 9, 17, 18), "zhyncs", "[Fix] Router crash on an empty worker list",
           "Merged after the clock's time.", "sgl-router/src/router.rs"),
)  # fmt: skip

BY_KEY = {(pr.repo, pr.number): pr for pr in PRS}


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
