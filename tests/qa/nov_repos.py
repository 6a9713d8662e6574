"""Two more repos shaped unlike verl, written before any question about them, for questions by class on a
clock in November:

- linkedin/liger-kernel: conventional-commit titles (`feat(ops): …`, `fix: …`, `feat!: …`), English
  bodies without a template, some review text; identifiers such as `shared_memory` in bodies that are
  not about what their words say.
- lobehub/lobe-chat: a TypeScript monorepo (`packages/model-runtime/src/…`), PR numbers in the tens of
  thousands, plain English titles, bodies mixing Chinese and English.

The clock is Thursday 2026-11-12 15:00 in Asia/Shanghai (2026-W46, Monday 11-09 to Sunday 11-15; last
week 11-02 to 11-08; November is partial); each repo has a PR merged later, which no answer at the clock
may cite. Neither repo has a PR in September.
"""

from __future__ import annotations

from datetime import datetime

from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.qa.other_repos import SHANGHAI, Written, store_written

NOW = datetime(2026, 11, 12, 15, 0, tzinfo=SHANGHAI)
LIGER = "linkedin/liger-kernel"
LOBE = "lobehub/lobe-chat"
REPOS = (LIGER, LOBE)


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


def liger(
    number: int, merged: datetime, author: str, title: str, body: str, *files: str, review: str = ""
) -> Written:
    return Written(LIGER, number, merged, author, title, body, files, review)


def lobe(
    number: int, merged: datetime, author: str, title: str, body: str, *files: str, review: str = ""
) -> Written:
    return Written(LOBE, number, merged, author, title, body, files, review)


PRS: tuple[Written, ...] = (
    # linkedin/liger-kernel ---------------------------------------------------------------------------
    liger(801, at(10, 6), "ByronHsu", "feat(ops): add fused linear cross entropy for Gemma 3",
          "Adds a Triton kernel that fuses the lm_head matmul with cross entropy so the logits are never "
          "materialised; peak memory drops 60% at a 256k vocabulary.",
          "src/liger_kernel/ops/fused_linear_cross_entropy.py", "src/liger_kernel/transformers/model/gemma3.py"),
    liger(806, at(10, 10), "lancerts", "fix(rms_norm): wrong gradient when casting to bf16",
          "The backward pass cast the weight to bf16 before the reduction and lost precision; gradients "
          "differed from PyTorch by 1e-2.", "src/liger_kernel/ops/rms_norm.py", "test/transformers/test_rms_norm.py",
          review="Can you add a case with fp32 weights?"),
    liger(810, at(10, 15), "shivam15s", "ci: run the convergence tests on AMD MI300X runners",
          "Adds a ROCm job next to the H100 one.", ".github/workflows/amd-ci.yml"),
    liger(813, at(10, 20), "austin362667", "docs: add a multi-GPU training example with FSDP",
          "Shows how to patch a Llama model and train it on 8 GPUs with FSDP and torchrun.",
          "examples/fsdp/README.md", "examples/fsdp/train.py"),
    liger(817, at(10, 24), "lancerts", "fix(swiglu): memory leak in the autograd function",
          "The ctx kept references to the input tensors after backward, so host memory grew every step "
          "until long runs hit OOM.", "src/liger_kernel/ops/swiglu.py"),
    liger(820, at(10, 28), "ByronHsu", "feat!: drop support for Python 3.8 and torch < 2.1",
          "BREAKING CHANGE: the minimum torch version is now 2.1 and the minimum Python 3.9; older installs "
          "fail at import.", "setup.py", "pyproject.toml"),
    liger(823, at(10, 30), "shivam15s", "chore(deps): bump triton to 3.1",
          "Triton 3.1 fixes the autotuner cache on H100.", "pyproject.toml"),
    liger(826, at(11, 2), "tyler-romero", "feat(transformers): support Qwen2-VL in the monkey patch",
          "apply_liger_kernel_to_qwen2_vl patches RMSNorm, SwiGLU and cross entropy of the vision-language "
          "model.", "src/liger_kernel/transformers/monkey_patch.py",
          "src/liger_kernel/transformers/model/qwen2_vl.py", review="LGTM, the convergence test passes on 4 GPUs."),
    liger(829, at(11, 4), "lancerts", "perf(rope): vectorise the rotary embedding kernel",
          "Each program now handles two heads and keeps cos/sin in shared_memory; the forward pass is 1.4x "
          "faster on A100.", "src/liger_kernel/ops/rope.py"),
    liger(832, at(11, 6), "shivam15s", "fix(ci): pin the CUDA image to 12.4 in the GPU workflow",
          "The 12.6 image broke the Triton build.", ".github/workflows/nvi-ci.yml"),
    liger(835, at(11, 7), "austin362667", "test: add convergence tests for multi-node DPO",
          "Runs DPO on 2 nodes x 8 GPUs with torchrun and compares the loss curve with the baseline.",
          "test/convergence/test_dpo_multinode.py"),
    liger(838, at(11, 9), "tyler-romero", "feat(chunked_loss): add ORPO and SimPO losses",
          "Chunked alignment losses that never hold the full logits, so memory stays flat in the sequence "
          "length.", "src/liger_kernel/chunked_loss/orpo_loss.py", "src/liger_kernel/chunked_loss/simpo_loss.py"),
    liger(841, at(11, 10), "ji-huazhong", "fix(layer_norm): NaN on Ascend NPU with fp16",
          "On NPU the variance underflowed in fp16; it is now computed in fp32.", "src/liger_kernel/ops/layer_norm.py"),
    liger(844, at(11, 11), "ByronHsu", "refactor(api)!: rename lce_weight to weight in the fused loss",
          "BREAKING CHANGE: callers that pass lce_weight= by keyword to LigerFusedLinearCrossEntropyLoss "
          "must rename it.", "src/liger_kernel/transformers/fused_linear_cross_entropy.py"),
    liger(847, at(11, 12, 10), "austin362667", "docs(readme): add a benchmark table for H100",
          "Throughput and peak memory of Llama 3 8B with and without the kernels.", "README.md"),
    liger(850, at(11, 12, 18), "lancerts", "fix(rope): wrong result for odd head dims",
          "Merged after the clock's time.", "src/liger_kernel/ops/rope.py"),
    # lobehub/lobe-chat -------------------------------------------------------------------------------
    lobe(10012, at(10, 8), "arvinxx", "Add DeepSeek R1 reasoning display",
         "支持展示 DeepSeek R1 的 reasoning_content，thinking 过程可以折叠。",
         "packages/model-runtime/src/deepseek/index.ts", "src/features/Conversation/Reasoning.tsx"),
    lobe(10031, at(10, 14), "canisminor1990", "Fix memory leak in the SSE stream parser",
         "长对话时 SSE 的 listener 没有移除，浏览器内存一直上涨。Listeners are now removed on abort.",
         "packages/model-runtime/src/utils/streams/sse.ts"),
    lobe(10047, at(10, 21), "arvinxx", "Upgrade Next.js to 15 and React to 19",
         "依赖升级：next 15, react 19。Some third-party plugins need an update.", "package.json", "pnpm-lock.yaml"),
    lobe(10058, at(10, 27), "sxjeru", "Support Ollama as a local model provider",
         "新增 Ollama provider，可以直接调用本地模型。", "packages/model-runtime/src/ollama/index.ts"),
    lobe(10066, at(10, 31), "arvinxx", "Add knowledge base file upload to S3",
         "文件上传到 S3 兼容存储（MinIO 也可以）。Files over 100 MB are uploaded in chunks.",
         "packages/file-loaders/src/s3.ts", "src/server/routers/files.ts"),
    lobe(10073, at(11, 3), "canisminor1990", "Remove the legacy plugin market API",
         "Breaking change: /api/plugin-market 已删除，自建部署需要改用 /api/v2/plugins。",
         "src/app/api/plugin-market/route.ts"),
    lobe(10079, at(11, 4), "lobehubbot", "Add Chinese translations for the settings page",
         "补充设置页的中文翻译（zh-CN locale）。", "locales/zh-CN/setting.json"),
    lobe(10085, at(11, 5), "canisminor1990", "Speed up the message list rendering",
         "使用虚拟列表，1000 条消息滚动不再卡顿；render time 300ms → 40ms。",
         "packages/ui/src/ChatList/VirtualList.tsx"),
    lobe(10091, at(11, 6), "sxjeru", "Add end-to-end tests for login",
         "Playwright 覆盖 GitHub 和邮箱两种登录方式。", "e2e/login.spec.ts"),
    lobe(10094, at(11, 7), "arvinxx", "Revert \"Speed up the message list rendering\"",
         "回退 #10085：虚拟列表在 Safari 上白屏。", "packages/ui/src/ChatList/VirtualList.tsx"),
    lobe(10098, at(11, 9), "sxjeru", "Fix Azure OpenAI streaming response being cut off",
         "Azure 返回的最后一个 chunk 没有被处理，so the reply lost its last sentence.",
         "packages/model-runtime/src/azure-openai/index.ts", review="Please check the Bedrock provider too."),
    lobe(10104, at(11, 10), "arvinxx", "Add a GitHub Actions workflow for the Docker image release",
         "推送 tag 时自动构建多架构 docker 镜像（amd64/arm64）。", ".github/workflows/docker.yml", "Dockerfile"),
    lobe(10110, at(11, 11), "arvinxx", "Support Claude tool calling in the Anthropic provider",
         "Anthropic provider 支持 function calling / tool use。", "packages/model-runtime/src/anthropic/index.ts"),
    lobe(10116, at(11, 12, 11), "canisminor1990", "Fix database migration failing on PostgreSQL 17",
         "迁移脚本里用了已废弃的语法，PG 17 上报错。", "packages/database/src/migrations/0021_add_index.sql"),
    lobe(10120, at(11, 13), "canisminor1990", "Fix theme flicker on first load",
         "Merged after the clock's time.", "src/layout/ThemeProvider.tsx"),
)  # fmt: skip

BY_KEY = {(pr.repo, pr.number): pr for pr in PRS}


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
