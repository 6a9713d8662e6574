"""Three more repos shaped unlike verl, written apart from the parser, for a second battery by class:

- OpenRLHF/OpenRLHF: plain English titles and English bodies with a checklist template.
- modelscope/ms-swift: Chinese titles and Chinese bodies, English file paths.
- axolotl-ai-cloud/axolotl: conventional-commit titles (`feat(deepspeed): …`), terse bodies.

The clock is Wednesday 2026-03-25 10:00 in Asia/Shanghai (2026-W13); each repo has a PR merged later
that week, which no answer at the clock may cite. #1288 exists in OpenRLHF and in axolotl. Analyses come
from the real heuristic analyzer, as a new deployment's would.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.qa.other_repos import Written, store_written

SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 3, 25, 10, 0, tzinfo=SHANGHAI)
RLHF = "openrlhf/openrlhf"  # OpenRLHF/OpenRLHF: the index keeps repo names lower-cased
SWIFT = "modelscope/ms-swift"
AXOLOTL = "axolotl-ai-cloud/axolotl"
REPOS = (RLHF, SWIFT, AXOLOTL)
TEMPLATE = "\n\n## Checklist\n- [x] I have read the contributing guide\n- [ ] I have added tests\n"


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


def rlhf(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(RLHF, number, merged, author, title, body + TEMPLATE, files)


def swift(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(SWIFT, number, merged, author, title, body, files)


def axolotl(number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(AXOLOTL, number, merged, author, title, body, files)


PRS: tuple[Written, ...] = (
    # OpenRLHF/OpenRLHF ------------------------------------------------------------------------------
    rlhf(1270, at(2, 24), "hijkzzz", "Support ring attention for packed samples in the reward model",
         "Ring attention now works with packed samples when training reward models.",
         "openrlhf/models/ring_attn_utils.py", "openrlhf/trainer/rm_trainer.py"),
    rlhf(1275, at(3, 2), "zhuzilin", "Fix vLLM weight sync hanging with tensor parallel > 1",
         "The NCCL group was created twice when tp > 1, so the broadcast deadlocked.",
         "openrlhf/trainer/ray/vllm_engine.py", "openrlhf/trainer/ray/ppo_actor.py"),
    rlhf(1279, at(3, 4), "hijkzzz", "Add REINFORCE++ baseline option",
         "Adds `--advantage_estimator reinforce_baseline`. Unlike GRPO it does not normalise by the "
         "group std.", "openrlhf/trainer/ppo_utils/experience_maker.py", "openrlhf/cli/train_ppo_ray.py"),
    rlhf(1282, at(3, 6), "xiaoxigua", "Update README with the new Docker image",
         "Document the new image tag and how to mount the datasets.", "README.md", "dockerfile/Dockerfile"),
    rlhf(1285, at(3, 9), "zhuzilin", "Reduce memory of the critic by offloading Adam states",
         "Critic Adam states are offloaded to CPU between steps; peak GPU memory on 70B drops by 18 GB.",
         "openrlhf/trainer/ray/ppo_critic.py", "openrlhf/utils/deepspeed/deepspeed.py"),
    rlhf(1288, at(3, 12), "hijkzzz", "Pin deepspeed to 0.16.4 and bump transformers",
         "deepspeed 0.16.5 breaks ZeRO-3 checkpoint loading.", "requirements.txt", "setup.py"),
    rlhf(1291, at(3, 13), "chenyang", "Add GRPO example scripts for Qwen2.5-7B",
         "Example scripts for GRPO with dynamic sampling.", "examples/scripts/train_grpo_qwen.sh"),
    rlhf(1294, at(3, 17), "zhuzilin", "Rename --colocate_all to --colocate_all_models",
         "BREAKING: the old flag is removed; scripts must use the new name.",
         "openrlhf/cli/train_ppo_ray.py", "examples/scripts/train_ppo_llama_ray.sh"),
    rlhf(1297, at(3, 18), "hijkzzz", "Fix NaN loss in DPO with bf16",
         "log-sigmoid overflowed in bf16; compute it in fp32.", "openrlhf/models/loss.py",
         "tests/test_loss.py"),
    rlhf(1300, at(3, 20), "chenyang", "Support Ascend NPU for the SFT trainer",
         "Uses torch_npu when available; tested on 910B.", "openrlhf/trainer/sft_trainer.py",
         "openrlhf/utils/device.py"),
    rlhf(1303, at(3, 23), "xiaoxigua", "Add unit tests for the experience maker",
         "Covers GAE and REINFORCE++ advantages.", "tests/test_experience_maker.py"),
    rlhf(1306, at(3, 24), "zhuzilin", "Speed up vLLM generation by batching prompts across engines",
         "Throughput up 1.6x on 8 engines.", "openrlhf/trainer/ray/vllm_engine.py"),
    rlhf(1309, at(3, 26), "hijkzzz", "Fix GRPO std normalisation with a single sample",
         "Merged after the clock's time.", "openrlhf/trainer/ppo_utils/experience_maker.py"),
    # modelscope/ms-swift ------------------------------------------------------------------------------
    swift(4101, at(2, 26), "Jintao-Huang", "支持 Qwen3 系列模型的 GRPO 训练",
          "新增 Qwen3 的 GRPO 训练脚本，并修复 reward 函数的注册问题。", "swift/trainers/rlhf_trainer/grpo_trainer.py",
          "examples/train/grpo/qwen3.sh"),
    swift(4105, at(3, 3), "tastelikefeet", "修复 Megatron 训练断点续训失败",
          "resume 时没有加载优化器状态，导致 loss 跳变。", "swift/megatron/utils/checkpoint.py"),
    swift(4108, at(3, 5), "Jintao-Huang", "更新文档：多模态数据集格式说明",
          "补充图片、视频数据集的字段说明。", "docs/source/Customization/dataset.md"),
    swift(4111, at(3, 10), "hjh0119", "修复多模态模型推理时显存泄漏",
          "推理结束后没有释放 vision encoder 的缓存，长时间运行会 OOM。", "swift/llm/infer/infer_engine/pt_engine.py"),
    swift(4114, at(3, 12), "tastelikefeet", "升级依赖：transformers>=4.50，peft>=0.15",
          "requirements 中的版本下限提高，旧版本不再支持。", "requirements/framework.txt"),
    swift(4117, at(3, 16), "hjh0119", "支持昇腾 NPU 上的 LoRA 训练",
          "在 Ascend 910B 上测试通过，使用 torch_npu。", "swift/utils/device.py", "docs/source/npu.md"),
    swift(4120, at(3, 17), "Jintao-Huang", "重构 template 模块，移除旧的 chat template 接口",
          "破坏性变更：`get_template_v1` 被删除，请改用 `get_template`。", "swift/llm/template/base.py"),
    swift(4123, at(3, 19), "tastelikefeet", "增加 DPO 训练的单元测试",
          "覆盖 sigmoid 与 hinge 两种损失。", "tests/train/test_dpo.py"),
    swift(4126, at(3, 23), "hjh0119", "vLLM 推理后端支持 LoRA 动态加载",
          "推理时可以按请求切换 LoRA adapter。", "swift/llm/infer/infer_engine/vllm_engine.py"),
    swift(4129, at(3, 24), "Jintao-Huang", "回滚 #4126",
          "LoRA 动态加载在多卡上报错，先回退。", "swift/llm/infer/infer_engine/vllm_engine.py"),
    swift(4132, at(3, 27), "hjh0119", "修复 GRPO 多机训练卡住",
          "Merged after the clock's time.", "swift/trainers/rlhf_trainer/grpo_trainer.py"),
    # axolotl-ai-cloud/axolotl ---------------------------------------------------------------------------
    axolotl(2601, at(2, 25), "winglian", "feat(deepspeed): add ZeRO-3 config for 8x H100",
            "New deepspeed_configs/zero3_h100.json.", "deepspeed_configs/zero3_h100.json"),
    axolotl(2604, at(3, 3), "NanoCode012", "fix(lora): merge adapters on CPU to avoid OOM",
            "Merging a 70B LoRA on GPU ran out of memory.", "src/axolotl/cli/merge_lora.py"),
    axolotl(2607, at(3, 5), "djsaunde", "docs: add multi-node training guide",
            "SLURM and torchrun examples.", "docs/multi-node.qmd"),
    axolotl(2610, at(3, 11), "winglian", "feat(rl): add GRPO trainer support",
            "Wraps TRL's GRPOTrainer with axolotl configs.", "src/axolotl/core/trainers/grpo/__init__.py",
            "src/axolotl/core/trainer_builder.py"),
    axolotl(1288, at(3, 12), "NanoCode012", "chore(deps): bump torch to 2.6 and flash-attn to 2.7.4",
            "Needed for the new kernels.", "requirements.txt", "setup.py"),
    axolotl(2613, at(3, 16), "djsaunde", "test(e2e): add tests for sequence parallelism",
            "Two-GPU test of ring attention.", "tests/e2e/multigpu/test_sp.py"),
    axolotl(2616, at(3, 18), "winglian", "refactor!: drop support for the legacy `datasets.type` strings",
            "BREAKING CHANGE: configs using `sharegpt:chat` must move to `chat_template`.",
            "src/axolotl/prompt_strategies/__init__.py"),
    axolotl(2619, at(3, 19), "NanoCode012", "fix(grpo): handle reward functions that return None",
            "A None reward crashed the trainer; it is now treated as 0.", "src/axolotl/core/trainers/grpo/trainer.py"),
    axolotl(2622, at(3, 23), "djsaunde", "perf(attention): enable flex attention for packed sequences",
            "Packed sequences no longer build a full mask; 1.3x faster on 8k.", "src/axolotl/monkeypatch/attention.py"),
    axolotl(2625, at(3, 24), "winglian", "revert: feat(rl): add GRPO trainer support",
            "Reverts #2610; it broke the DPO path.", "src/axolotl/core/trainers/grpo/__init__.py"),
    axolotl(2628, at(3, 26), "winglian", "feat(rl): add GRPO trainer support (again)",
            "Merged after the clock's time.", "src/axolotl/core/trainers/grpo/__init__.py"),
)  # fmt: skip

BY_KEY = {(pr.repo, pr.number): pr for pr in PRS}


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
