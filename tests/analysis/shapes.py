"""Pull requests of repositories shaped unlike verl, written for these tests: a trl-like library (plain
titles, emoji titles, no `[module]` tags, code under `trl/`), a Chinese-first repository (Chinese titles
and bodies with 背景/改动/测试 sections, code under `swift/`), and a repository of conventional commits
(`feat(scheduler): …`, `fix!: …`, dependabot bumps, code under `src/flowkit/`). Each PR has the diff a
real one of its kind would have: docs-, test- and CI-only changes, dependency bumps in requirements,
pyproject, Dockerfiles and workflows, renames, reverts, and a huge PR whose patches GitHub cut."""

from __future__ import annotations

from chatbot.models import PRFile, PullRequest

from .builders import changed, make_pr

TRL = "acme/trl-like"
SWIFT = "acme/swift-like"
FLOW = "acme/flowkit"


def _pr(repo: str, number: int, title: str, body: str, *files: PRFile, **totals: int) -> PullRequest:
    return make_pr(title, body=body, files=files, repo=repo, number=number, **totals)


def _body(n: int, indent: str = "        ", name: str = "value") -> list[str]:
    """`n` lines of plain code, each a distinct statement."""
    return [f"{indent}{name}_{i} = self._compute({name}_{max(0, i - 1)}, step={i})" for i in range(n)]


# --- a trl-like library: plain titles, no module tags --------------------------------------------------

TRL_PADDING = _pr(
    TRL,
    101,
    "Fix padding in GRPOTrainer when use_vllm=True",
    "When `use_vllm=True`, completions come back from vLLM right-padded while the prompts are "
    "left-padded, so the concatenated `prompt_completion_ids` had padding in the middle and the "
    "per-token log-probs were shifted by the prompt padding length.\n\n"
    "This PR pads the completions with `pad_token_id` on the right after stripping the prompt padding, "
    "and builds the attention mask from the actual lengths.\n\nFixes #3120",
    changed(
        "trl/trainer/grpo_trainer.py",
        [
            "    def _generate_and_score_completions(self, inputs):",
            "        prompt_ids = [p[m.bool()] for p, m in zip(prompt_ids, prompt_mask)]",
            "        completion_ids = pad(completion_ids, padding_value=self.pad_token_id, padding_side='right')",
            "        attention_mask = torch.cat([prompt_mask, completion_mask], dim=1)",
            *_body(14),
        ],
        [
            "    def _generate_and_score_completions(self, inputs):",
            "        completion_ids = pad(completion_ids, padding_value=self.pad_token_id)",
            *_body(6, name="old"),
        ],
    ),
    changed(
        "tests/test_grpo_trainer.py",
        [
            "    def test_training_vllm_padding(self):",
            "        trainer = GRPOTrainer(model=MODEL, args=GRPOConfig(use_vllm=True))",
            "        trainer.train()",
        ],
    ),
)

TRL_DPO_CONFIG = _pr(
    TRL,
    102,
    "Add `max_completion_length` to DPOConfig",
    "Adds a `max_completion_length` option to `DPOConfig` so chosen and rejected completions can be "
    "truncated independently of the prompt; `max_length` keeps bounding the whole sequence.",
    changed(
        "trl/trainer/dpo_config.py",
        [
            "    max_completion_length: Optional[int] = field(",
            "        default=None,",
            '        metadata={"help": "Maximum length of the completion. Truncated from the right."},',
            "    )",
        ],
    ),
    changed(
        "trl/trainer/dpo_trainer.py",
        [
            "        if self.args.max_completion_length is not None:",
            "            chosen_ids = chosen_ids[: self.args.max_completion_length]",
            "            rejected_ids = rejected_ids[: self.args.max_completion_length]",
            *_body(9),
        ],
    ),
    changed("docs/source/dpo_trainer.md", ["- `max_completion_length`: truncates completions."]),
)

TRL_DOCS = _pr(
    TRL,
    103,
    "📝 Update docs",
    "",
    changed(
        "docs/source/grpo_trainer.md",
        ["Set `num_generations` to the group size.", "See the [vLLM guide](vllm.md)."],
        ["Set num_generations to the group size."],
    ),
    changed("docs/source/index.md", ["- [GRPO](grpo_trainer)"], ["- GRPO"]),
)

TRL_OOM = _pr(
    TRL,
    104,
    "🐛 Fix OOM when computing reference log-probs in DPOTrainer",
    "- the reference model's logits were kept for the whole batch before the loss\n"
    "- compute `ref_logps` one micro-batch at a time and free the logits after each\n"
    "- peak memory on Qwen2.5-7B: 61 GB → 38 GB",
    changed(
        "trl/trainer/dpo_trainer.py",
        [
            "    def compute_ref_log_probs(self, batch):",
            "        for chunk in batch.split(self.args.ref_batch_size):",
            "            logits = self.ref_model(chunk).logits",
            "            ref_logps.append(selective_log_softmax(logits, chunk))",
            "            del logits",
            *_body(18),
        ],
        ["    def compute_ref_log_probs(self, batch):", "        logits = self.ref_model(batch).logits"],
    ),
    changed(
        "tests/test_dpo_trainer.py",
        ["    def test_ref_logps_chunked(self):", "        assert torch.allclose(chunked, full)"],
    ),
)

TRL_LIGER = _pr(
    TRL,
    105,
    "Support Liger kernel loss in KTOTrainer",
    "KTOTrainer can now compute its loss with Liger's fused linear KTO loss, which never materialises "
    "the full logits tensor. Enable it with `use_liger_loss=True` in `KTOConfig`.\n\n"
    "| | peak memory | step time |\n|---|---|---|\n| before | 42.1 GB | 1.9 s |\n"
    "| after | 27.6 GB | 1.7 s |",
    changed(
        "trl/trainer/kto_trainer.py",
        [
            "class LigerKTOLossWrapper:",
            "    def __init__(self, beta):",
            "        self.loss_fn = LigerFusedLinearKTOLoss(beta=beta)",
            "    def __call__(self, hidden, weight, labels):",
            "        return self.loss_fn(weight, hidden, labels)",
            *_body(60),
        ],
    ),
    changed(
        "trl/trainer/kto_config.py",
        [
            "    use_liger_loss: bool = field(",
            "        default=False,",
            '        metadata={"help": "Use the Liger fused KTO loss."},',
            "    )",
        ],
    ),
    changed(
        "tests/test_kto_trainer.py",
        [
            "    def test_liger_loss(self):",
            "        trainer = KTOTrainer(args=KTOConfig(use_liger_loss=True))",
        ],
    ),
)

# A module-level function moved into the class as a method: the same name, now with `self`.
TRL_INTO_CLASS = _pr(
    TRL,
    106,
    "Refactor: make `get_per_token_logps` a method of GRPOTrainer",
    "Subclasses need to override how per-token log-probs are computed (e.g. for VLMs), so the helper "
    "becomes a method. No behaviour change.",
    PRFile(
        "trl/trainer/grpo_trainer.py",
        "modified",
        7,
        7,
        "@@ -80,9 +80,6 @@ from .utils import selective_log_softmax\n"
        " \n"
        "-def get_per_token_logps(model, input_ids, attention_mask, logits_to_keep):\n"
        "-    logits = model(input_ids=input_ids, attention_mask=attention_mask).logits\n"
        "-    return selective_log_softmax(logits[:, -logits_to_keep:], input_ids[:, -logits_to_keep:])\n"
        " \n"
        "@@ -412,6 +409,10 @@ class GRPOTrainer(Trainer):\n"
        "         self.model_accepts_loss_kwargs = False\n"
        "+\n"
        "+    def get_per_token_logps(self, model, input_ids, attention_mask, logits_to_keep):\n"
        "+        logits = model(input_ids=input_ids, attention_mask=attention_mask).logits\n"
        "+        return selective_log_softmax(logits[:, -logits_to_keep:], input_ids[:, -logits_to_keep:])\n"
        " \n"
        "@@ -901,7 +902,7 @@ class GRPOTrainer(Trainer):\n"
        "     def compute_loss(self, model, inputs):\n"
        "-        per_token_logps = get_per_token_logps(model, input_ids, attention_mask, logits_to_keep)\n"
        "+        per_token_logps = self.get_per_token_logps(model, input_ids, attention_mask, logits_to_keep)\n"
        "         per_token_kl = torch.exp(ref_logps - per_token_logps) - (ref_logps - per_token_logps) - 1",
    ),
)

TRL_BUMP = _pr(
    TRL,
    107,
    "Bump transformers to 4.57 and drop Python 3.9",
    "",
    changed(
        "pyproject.toml",
        ['requires-python = ">=3.10"', '    "transformers>=4.57.0",', '    "accelerate>=1.4.0",'],
        ['requires-python = ">=3.9"', '    "transformers>=4.56.0",', '    "accelerate>=1.2.0",'],
    ),
    changed(
        ".github/workflows/tests.yml",
        ["        python-version: ['3.10', '3.11', '3.12']"],
        ["        python-version: ['3.9', '3.10', '3.11', '3.12']"],
    ),
)

TRL_RENAME_ARG = _pr(
    TRL,
    108,
    "Rename `beta` to `kl_coef` in GRPOConfig",
    "`beta` was confusing next to DPO's `beta`. The old name is removed; set `kl_coef` instead.",
    changed(
        "trl/trainer/grpo_config.py",
        ["    kl_coef: float = field(", "        default=0.04,", "    )"],
        ["    beta: float = field(", "        default=0.04,", "    )"],
    ),
    changed(
        "trl/trainer/grpo_trainer.py",
        ["        self.kl_coef = args.kl_coef", "        loss = loss + self.kl_coef * per_token_kl"],
        ["        self.beta = args.beta", "        loss = loss + self.beta * per_token_kl"],
    ),
)

TRL_REVERT = _pr(
    TRL,
    109,
    'Revert "Add vLLM colocate mode to GRPOTrainer"',
    "Reverts acme/trl-like#3050: colocate mode deadlocks with DeepSpeed ZeRO-3 on more than one node.",
    changed(
        "trl/trainer/grpo_trainer.py",
        ["        self.llm = None"],
        [
            "        if self.args.vllm_mode == 'colocate':",
            "            self.llm = LLM(model=model.name_or_path, distributed_executor_backend='external_launcher')",
            *_body(30),
        ],
    ),
    changed(
        "trl/trainer/grpo_config.py",
        [],
        ["    vllm_mode: str = field(", '        default="server",', "    )"],
    ),
)

TRL_TESTS = _pr(
    TRL,
    110,
    "Add tests for RewardTrainer with PEFT",
    "",
    changed(
        "tests/test_reward_trainer.py",
        [
            "    def test_train_with_peft(self):",
            "        trainer = RewardTrainer(model=MODEL, peft_config=LoraConfig(r=8))",
            "        trainer.train()",
            "        assert trainer.state.log_history[-1]['train_loss'] is not None",
            *_body(30, indent="        ", name="check"),
        ],
    ),
)

# --- a Chinese-first repository: 背景/改动/测试 sections ------------------------------------------------

SWIFT_POSITION = _pr(
    SWIFT,
    201,
    "修复 Qwen2-VL 多图推理时 position_ids 错位的问题",
    "## 背景\n\n多张图片一起推理时，`get_rope_index` 只按第一张图的网格计算 `position_ids`，"
    "后面的图片位置整体错位，导致输出乱码。\n\n"
    "## 改动\n\n- 按每张图的 `image_grid_thw` 分别计算位置\n- 视频帧沿用同样的逻辑\n\n"
    "## 测试\n\n- 本地用 4 张图的样例验证输出正常",
    changed(
        "swift/llm/model/qwen2_vl.py",
        [
            "def get_rope_index(input_ids, image_grid_thw, video_grid_thw):",
            "    for index, grid in enumerate(image_grid_thw):",
            "        position_ids[:, index] = build_positions(grid)",
            *_body(24, indent="    "),
        ],
        [
            "def get_rope_index(input_ids, image_grid_thw, video_grid_thw):",
            "    position_ids = build_positions(image_grid_thw[0])",
        ],
    ),
)

SWIFT_MULTI_TURN = _pr(
    SWIFT,
    202,
    "支持 GRPO 训练的多轮 rollout",
    "## 背景\n\n智能体类任务需要模型与环境多轮交互，之前的 GRPO 只支持单轮生成。\n\n"
    "## 改动\n\n- 新增 `MultiTurnScheduler`，每轮把环境反馈拼接到上下文后继续生成\n"
    "- 新增参数 `--multi_turn_scheduler` 和 `--max_turns`\n"
    "- 奖励函数可以读取完整的对话轨迹\n\n"
    "## 测试\n\n在 Qwen2.5-7B 上跑通 math 多轮任务，奖励从 0.41 提升到 0.58。",
    changed(
        "swift/trainers/rlhf_trainer/grpo_trainer.py",
        [
            "class MultiTurnScheduler:",
            "    def __init__(self, max_turns):",
            "        self.max_turns = max_turns",
            "    def step(self, messages, response):",
            "        return self.env.step(messages, response)",
            *_body(150),
        ],
    ),
    changed(
        "swift/llm/argument/rlhf_args.py",
        [
            "    multi_turn_scheduler: Optional[str] = None",
            "    max_turns: int = 1",
        ],
    ),
    changed(
        "tests/train/test_grpo_multi_turn.py",
        ["def test_multi_turn():", "    assert run_grpo(max_turns=3)"],
    ),
)

SWIFT_VLLM_BUMP = _pr(
    SWIFT,
    203,
    "更新依赖：vllm 升级到 0.8.5",
    "vllm 0.8.5 修复了 Qwen3 MoE 的权重加载问题。",
    changed("requirements/framework.txt", ["vllm>=0.8.5"], ["vllm>=0.7.3"]),
    changed(
        "docker/Dockerfile",
        ["RUN pip install vllm==0.8.5 flash-attn==2.7.4.post1"],
        ["RUN pip install vllm==0.7.3 flash-attn==2.7.4.post1"],
    ),
)

SWIFT_DOCS = _pr(
    SWIFT,
    204,
    "文档：补充 Megatron-SWIFT 的使用说明",
    "补充了 Megatron-SWIFT 的安装、权重转换和训练示例。",
    changed(
        "docs/source/Instruction/Megatron-SWIFT训练.md",
        ["## 安装", "pip install megatron-core", "## 权重转换", "swift export --to_mcore true"],
    ),
)

SWIFT_PACKING = _pr(
    SWIFT,
    205,
    "优化 packing 数据集的加载速度",
    "## 背景\n\npacking 时每条样本都重新 tokenize，数据集大时启动很慢。\n\n"
    "## 改动\n\n- 先并行 tokenize 再做 packing，结果缓存到磁盘\n\n"
    "## 测试\n\n100 万条样本的数据集，加载时间由 1200s 降至 180s。",
    changed(
        "swift/llm/dataset/packing.py",
        [
            "def pack_dataset(dataset, max_length, num_proc):",
            "    tokenized = dataset.map(tokenize, num_proc=num_proc, load_from_cache_file=True)",
            *_body(40, indent="    "),
        ],
        ["def pack_dataset(dataset, max_length):", *_body(12, indent="    ", name="old")],
    ),
)

# A function folded into a class: `encode` leaves module level and becomes `Template.encode`.
SWIFT_INTO_CLASS = _pr(
    SWIFT,
    206,
    "重构 template 模块，把 encode 逻辑移到 Template 类中",
    "把模块级的 `encode` 函数移到 `Template` 类中，方便各模型的模板覆盖。行为不变。",
    PRFile(
        "swift/llm/template/base.py",
        "modified",
        4,
        4,
        "@@ -20,8 +20,4 @@ from .utils import Context\n"
        " \n"
        "-def encode(inputs, tokenizer):\n"
        "-    template = get_template(inputs)\n"
        "-    return template._encode(inputs, tokenizer)\n"
        "-\n"
        " \n"
        "@@ -140,6 +136,10 @@ class Template(ProcessorMixin):\n"
        "         self.max_length = max_length\n"
        "+\n"
        "+    def encode(self, inputs, tokenizer):\n"
        "+        return self._encode(inputs, tokenizer)\n"
        "+\n"
        " ",
    ),
    changed(
        "swift/llm/infer/infer_engine.py",
        ["        inputs = template.encode(inputs, tokenizer)"],
        ["        inputs = encode(inputs, tokenizer)"],
    ),
)

SWIFT_TYPO = _pr(
    SWIFT,
    207,
    "修复拼写错误",
    "",
    changed("swift/llm/infer/infer.py", ["    # 加载模型权重"], ["    # 加载模形权重"]),
)

SWIFT_LORA_MEMORY = _pr(
    SWIFT,
    208,
    "修复 LoRA 合并时显存泄漏",
    "## 背景\n\n`merge_lora` 合并后没有释放原始的 LoRA 权重，多次导出时显存持续上涨，最终 OOM。\n\n"
    "## 改动\n\n- 合并后删除 adapter 权重并调用 `torch.cuda.empty_cache()`\n\n## 测试\n\n连续导出 5 次显存稳定。",
    changed(
        "swift/llm/export/merge_lora.py",
        [
            "def merge_lora(model, adapter_name):",
            "    model.merge_and_unload()",
            "    del model.peft_config[adapter_name]",
            "    torch.cuda.empty_cache()",
            *_body(20, indent="    "),
        ],
        ["def merge_lora(model, adapter_name):", "    model.merge_and_unload()"],
    ),
)

# --- conventional commits --------------------------------------------------------------------------------

FLOW_PRIORITY = _pr(
    FLOW,
    301,
    "feat(scheduler): add priority queues for task dispatch",
    "Tasks can now declare a `priority`; the scheduler keeps one queue per priority level and always "
    "dispatches from the highest non-empty queue, with aging so low-priority tasks are not starved.",
    changed(
        "src/flowkit/scheduler/queues.py",
        [
            "class PriorityQueues:",
            "    def __init__(self, levels: int, aging_seconds: float):",
            "        self._queues = [deque() for _ in range(levels)]",
            "    def push(self, task, priority):",
            "        self._queues[priority].append(task)",
            "    def pop(self):",
            "        return self._oldest_first()",
            *_body(90),
        ],
        status="added",
    ),
    changed(
        "src/flowkit/scheduler/dispatcher.py",
        ["        task = self.queues.pop()", *_body(20)],
        ["        task = self.queue.popleft()"],
    ),
    changed(
        "src/flowkit/config.py",
        ["    priority_levels: int = 3", "    aging_seconds: float = 30.0"],
    ),
    changed(
        "tests/scheduler/test_queues.py",
        ["def test_highest_priority_first():", "    assert q.pop() is urgent"],
    ),
)

FLOW_DROP_PY38 = _pr(
    FLOW,
    302,
    "fix!: drop support for Python 3.8",
    "Python 3.8 is end-of-life. `flowkit` now requires Python 3.9 or newer.\n\n"
    "BREAKING CHANGE: installing on Python 3.8 fails; pin `flowkit<2.0` there.",
    changed("pyproject.toml", ['requires-python = ">=3.9"'], ['requires-python = ">=3.8"']),
    changed(
        ".github/workflows/ci.yml",
        ["        python: ['3.9', '3.10', '3.11', '3.12']"],
        ["        python: ['3.8', '3.9', '3.10', '3.11', '3.12']"],
    ),
)

FLOW_DEADLOCK = _pr(
    FLOW,
    303,
    "fix(executor): prevent deadlock when a worker exits early",
    "If a worker thread raised before acknowledging its task, `Executor.shutdown()` waited forever on "
    "the results lock. The root cause is that the lock was released only on the success path; it is "
    "now released in a `finally` block and the pending future is failed.",
    changed(
        "src/flowkit/executor/pool.py",
        [
            "    def _run(self, task):",
            "        self._results_lock.acquire()",
            "        try:",
            "            result = task()",
            "        finally:",
            "            self._results_lock.release()",
            "        self._lock = threading.Lock()",
            *_body(20),
        ],
        ["    def _run(self, task):", "        self._results_lock.acquire()", "        result = task()"],
    ),
    changed(
        "tests/executor/test_pool.py",
        ["def test_shutdown_after_worker_error():", "    pool.shutdown(timeout=1)"],
    ),
)

FLOW_ACTIONS_BUMP = _pr(
    FLOW,
    304,
    "chore(deps): bump actions/checkout from 3 to 4",
    "Bumps [actions/checkout](https://github.com/actions/checkout) from 3 to 4.\n\n"
    "<details>\n<summary>Release notes</summary>\n\n- Updated to the node20 runtime\n</details>\n\n"
    "Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself.",
    changed(
        ".github/workflows/ci.yml",
        ["      - uses: actions/checkout@v4"],
        ["      - uses: actions/checkout@v3"],
    ),
)

FLOW_PYDANTIC_BUMP = _pr(
    FLOW,
    305,
    "chore(deps): bump pydantic from 1.10.13 to 2.5.0",
    "Bumps [pydantic](https://github.com/pydantic/pydantic) from 1.10.13 to 2.5.0.",
    changed("requirements.txt", ["pydantic==2.5.0"], ["pydantic==1.10.13"]),
)

FLOW_RENAME_API = _pr(
    FLOW,
    306,
    "refactor(api)!: rename `Task.run` to `Task.execute`",
    "`run` clashed with the CLI's `run` command in the docs. Callers must switch to `Task.execute()`.",
    changed(
        "src/flowkit/api/task.py",
        ["    def execute(self, *args, **kwargs):", "        return self._call(*args, **kwargs)"],
        ["    def run(self, *args, **kwargs):", "        return self._call(*args, **kwargs)"],
    ),
    changed(
        "src/flowkit/scheduler/dispatcher.py",
        ["        result = task.execute()"],
        ["        result = task.run()"],
    ),
    changed("docs/api.md", ["task.execute()"], ["task.run()"]),
)

FLOW_DOCS = _pr(
    FLOW,
    307,
    "docs: fix broken links in README",
    "",
    changed(
        "README.md",
        ["See the [guide](https://flowkit.dev/guide/)."],
        ["See the [guide](https://flowkit.dev/guide)."],
    ),
)

FLOW_TESTS = _pr(
    FLOW,
    308,
    "test(executor): cover retry backoff",
    "- retries back off exponentially up to `max_backoff`\n- a task that keeps failing is given up",
    changed(
        "tests/executor/test_retry.py",
        [
            "def test_backoff_doubles():",
            "    assert delays == [1, 2, 4, 8]",
            "def test_gives_up_after_max_attempts():",
            "    assert task.state == 'failed'",
        ],
        status="added",
    ),
)

FLOW_CI = _pr(
    FLOW,
    309,
    "ci: cache pip downloads",
    "",
    changed(
        ".github/workflows/ci.yml",
        ["      - uses: actions/setup-python@v5", "        with:", "          cache: pip"],
        ["      - uses: actions/setup-python@v5"],
    ),
)

FLOW_DOCKER = _pr(
    FLOW,
    310,
    "build(docker): update base image to python:3.12-slim",
    "",
    changed("Dockerfile", ["FROM python:3.12-slim"], ["FROM python:3.11-slim"]),
)

# A huge PR: GitHub cut the patches of most of its files.
FLOW_S3 = _pr(
    FLOW,
    311,
    "feat(storage): add S3 backend",
    "Adds an S3 storage backend (`S3Store`) next to the local and GCS ones, with multipart uploads.",
    changed(
        "src/flowkit/storage/s3.py",
        [
            "class S3Store(BaseStore):",
            "    def put(self, key, data):",
            "        self._client.upload_fileobj(data, self.bucket, key)",
            *_body(200),
        ],
        status="added",
    ),
    *[PRFile(f"src/flowkit/storage/s3/part_{i}.py", "added", 60, 0, None) for i in range(110)],
    changed("tests/storage/test_s3.py", ["def test_put_get():", "    assert store.get('k') == b'v'"]),
)

FLOW_REVERT = _pr(
    FLOW,
    312,
    'Revert "feat(scheduler): add priority queues for task dispatch"',
    "This reverts #301: tasks of one priority were dispatched out of order.",
    changed(
        "src/flowkit/scheduler/queues.py",
        [],
        ["class PriorityQueues:", "    def push(self, task, priority):", *_body(90)],
        status="removed",
    ),
    changed(
        "src/flowkit/scheduler/dispatcher.py",
        ["        task = self.queue.popleft()"],
        ["        task = self.queues.pop()", *_body(20)],
    ),
)

FLOW_RENAME_FILES = _pr(
    FLOW,
    313,
    "refactor: rename utils module to helpers",
    "",
    PRFile("src/flowkit/helpers/__init__.py", "renamed", 0, 0, None, "src/flowkit/utils/__init__.py"),
    PRFile("src/flowkit/helpers/text.py", "renamed", 0, 0, None, "src/flowkit/utils/text.py"),
    changed(
        "src/flowkit/scheduler/dispatcher.py",
        ["from flowkit.helpers.text import slug"],
        ["from flowkit.utils.text import slug"],
    ),
)

SHAPES: dict[str, tuple[PullRequest, ...]] = {
    "trl-like": (
        TRL_PADDING,
        TRL_DPO_CONFIG,
        TRL_DOCS,
        TRL_OOM,
        TRL_LIGER,
        TRL_INTO_CLASS,
        TRL_BUMP,
        TRL_RENAME_ARG,
        TRL_REVERT,
        TRL_TESTS,
    ),
    "chinese-first": (
        SWIFT_POSITION,
        SWIFT_MULTI_TURN,
        SWIFT_VLLM_BUMP,
        SWIFT_DOCS,
        SWIFT_PACKING,
        SWIFT_INTO_CLASS,
        SWIFT_TYPO,
        SWIFT_LORA_MEMORY,
    ),
    "conventional": (
        FLOW_PRIORITY,
        FLOW_DROP_PY38,
        FLOW_DEADLOCK,
        FLOW_ACTIONS_BUMP,
        FLOW_PYDANTIC_BUMP,
        FLOW_RENAME_API,
        FLOW_DOCS,
        FLOW_TESTS,
        FLOW_CI,
        FLOW_DOCKER,
        FLOW_S3,
        FLOW_REVERT,
        FLOW_RENAME_FILES,
    ),
}
ALL: tuple[PullRequest, ...] = tuple(pr for prs in SHAPES.values() for pr in prs)
