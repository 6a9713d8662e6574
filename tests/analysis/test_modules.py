"""Module maps and title parsing: where a change is, in the words the index uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatbot.analysis.features import parse_title
from chatbot.analysis.modules import ModuleMapError, load_module_map

VERL = load_module_map("verl-project/verl")
DEFAULT = load_module_map("acme/widgets")


@pytest.mark.parametrize(
    ("title", "modules", "type_word", "breaking"),
    [
        ("[megatron, fsdp] feat: dynamic batching", ("megatron", "fsdp"), "feat", False),
        ("[BREAKING][fsdp] feat: new wrap policy", ("fsdp",), "feat", True),
        ("[BREAKING] [rollout, trainer] refactor: split workers", ("rollout", "trainer"), "refactor", True),
        ("fix(rollout): handle empty prompts", ("rollout",), "fix", False),
        ("feat(rollout, vllm)!: drop the v0 engine", ("rollout", "vllm"), "feat", True),
        ("[misc] fix(ci): pin the runner", ("misc", "ci"), "fix", False),
        ("[Docs] chore: fix links", ("doc",), "chore", False),
        ("[mcore] feat: support qwen3", ("megatron",), "feat", False),
        ("[1/n][trainer] refactor: extract loss", ("trainer",), "refactor", False),
        ("[WIP][single controller] fix: worker names", ("single_controller",), "fix", False),
        ("[fix] vllm: add swap space option", (), "fix", False),
        ("[BREAKING config] feat: rename the logger key", ("cfg",), "feat", True),
        ("【rollout】支持多轮对话", ("rollout",), None, False),
        ('Revert "[rollout] feat: async server"', ("rollout",), "revert", False),  # the undone change's
        ('Revert "[BREAKING][rollout] feat: async server"', ("rollout",), "revert", False),
        ("Add model merger for checkpoints", (), None, False),
    ],
)
def test_titles_declare_modules_type_and_breaking(
    title: str, modules: tuple[str, ...], type_word: str | None, breaking: bool
) -> None:
    info = parse_title(title, VERL)
    assert (info.modules, info.type_word, info.breaking) == (modules, type_word, breaking)


def test_the_description_is_the_title_without_prefix_and_type() -> None:
    assert parse_title("[megatron] feat: support MTP", VERL).description == "support MTP"


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("verl/workers/rollout/vllm_rollout/vllm_async_server.py", "vllm"),
        ("verl/workers/rollout/sglang_rollout/sglang_rollout.py", "sglang"),
        ("verl/workers/rollout/schemas.py", "rollout"),
        ("verl/trainer/ppo/ray_trainer.py", "trainer"),
        ("verl/trainer/ppo/core_algos.py", "algo"),
        ("verl/trainer/config/ppo_trainer.yaml", "cfg"),
        ("verl/utils/megatron_utils.py", "megatron"),
        ("verl/models/mcore/registry.py", "megatron"),
        ("verl/workers/fsdp_workers.py", "fsdp"),
        ("verl/single_controller/ray/base.py", "single_controller"),
        ("verl/utils/checkpoint/checkpoint_manager.py", "ckpt"),
        ("verl/utils/dataset/rl_dataset.py", "data"),
        ("verl/utils/torch_functional.py", "training_utils"),
        ("recipe/dapo/dapo_ray_trainer.py", "recipe"),
        ("docs/start/install.rst", "doc"),
        ("README.md", "doc"),
        (".github/workflows/e2e_ppo.yml", "ci"),
        ("docker/Dockerfile.vllm", "docker"),
        ("tests/workers/test_rollout.py", "test"),
        ("requirements.txt", "deployment"),
    ],
)
def test_verl_paths_map_to_verl_modules(path: str, module: str) -> None:
    assert VERL.module_for_path(path) == module


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("src/widgets/trainer/loop.py", "trainer"),
        ("widgets/rollout/engine.py", "rollout"),
        ("widgets/cli.py", "widgets"),
        ("widgets/utils/tokenizer/fast.py", "tokenizer"),
        # a folder of components named in the plural: the component is the module, its own files its own
        ("verl/workers/rollout/vllm_rollout/engine.py", "rollout"),
        ("verl/workers/fsdp_workers.py", "workers"),
        ("verl/workers/utils/padding.py", "workers"),
        ("internal/handlers/auth/login.go", "auth"),
        ("crates/core/src/lib.rs", "core"),
        ("packages/ui/src/components/Button.tsx", "ui"),
        ("src/engine/kernels/fused/rope.cu", "fused"),
        ("pkg/status/probe/check.go", "status"),
        ("widgets/analysis/graph/walk.py", "analysis"),
        ("docs/index.md", "doc"),
        (".github/workflows/ci.yml", "ci"),
        ("Dockerfile", "docker"),
        ("tests/test_cli.py", "test"),
        ("widgets/core_test.py", "test"),
        ("pyproject.toml", "deps"),
        ("requirements-dev.txt", "deps"),
        ("Makefile", "misc"),
    ],
)
def test_the_default_map_covers_any_repository(path: str, module: str) -> None:
    assert DEFAULT.module_for_path(path) == module


def test_tiers_say_what_is_core_and_what_is_peripheral() -> None:
    assert VERL.tier("verl/trainer/ppo/ray_trainer.py") == "core"
    assert VERL.tier("examples/grpo_trainer/run.sh") == "peripheral"
    assert VERL.tier("docs/index.rst") == "peripheral"
    assert VERL.tier("verl/experimental/agent_loop/agent_loop.py") == "normal"
    assert DEFAULT.tier("widgets/core.py") == "normal"


def test_sensitive_paths_come_from_the_map() -> None:
    assert VERL.is_distributed_sensitive("verl/workers/megatron_workers.py")
    assert VERL.is_memory_sensitive("verl/workers/sharding_manager/fsdp_vllm.py")
    assert not VERL.is_memory_sensitive("verl/utils/tokenizer.py")


def test_a_custom_map_file_is_layered_over_the_default(tmp_path: Path) -> None:
    custom = tmp_path / "widgets.toml"
    custom.write_text(
        'rules = [{ glob = "engine/*", module = "core" }]\n'
        '[synonyms]\nkernel = "core"\n'
        '[tiers]\ncore = ["engine/*"]\n'
        '[dependencies]\nkey = ["numpy"]\n',
        encoding="utf-8",
    )
    module_map = load_module_map("acme/widgets", custom)
    assert module_map.module_for_path("engine/step.py") == "core"
    assert module_map.module_for_path("docs/guide.md") == "doc"  # still from the default map
    assert module_map.normalize("Kernel") == "core"
    assert module_map.tier("engine/step.py") == "core"
    assert "numpy" in module_map.key_dependencies


def test_a_malformed_map_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("rules = [{ glob = 3 }]\n", encoding="utf-8")
    with pytest.raises(ModuleMapError, match="glob"):
        load_module_map("acme/widgets", broken)
    not_toml = tmp_path / "not.toml"
    not_toml.write_text("rules = [", encoding="utf-8")
    with pytest.raises(ModuleMapError, match="not valid TOML"):
        load_module_map("acme/widgets", not_toml)
    with pytest.raises(ModuleMapError, match="not found"):
        load_module_map("acme/widgets", tmp_path / "missing.toml")


def test_repository_names_are_matched_case_insensitively() -> None:
    assert load_module_map("Verl-Project/VERL") is VERL
