"""Config facts: what a PR's diff does to its settings, stored on the analysis as language-neutral facts
(`Analysis.config`). Read from hand-built PRs of many shapes (YAML, dataclass fields, argparse options,
compose-style variables, structured configs) and from the real verl export where it is present. An
interpolation whose source moved is a key that now follows another, never a changed default."""

from __future__ import annotations

import gzip
import json

import pytest

from adapters.github.rest import pull_request_from_rest
from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import only_fallback_given, references, source_moved
from chatbot.analysis.types import Analysis, ConfigFact
from chatbot.models import PRFile, PullRequest
from tests.analysis.builders import make_pr
from tests.analysis.test_verl_data import DATA

ANALYZER = HeuristicAnalyzer()


def patch(context: str, removed: tuple[str, ...], added: tuple[str, ...], header: str = "") -> str:
    lines = [
        f"@@ -1,{len(removed) + 1} +1,{len(added) + 1} @@{' ' + header if header else ''}",
        f" {context}",
    ]
    return "\n".join(lines + [f"-{line}" for line in removed] + [f"+{line}" for line in added])


def one_file(path: str, text: str, title: str = "Tune settings", body: str = "") -> PullRequest:
    added = sum(1 for line in text.split("\n") if line.startswith("+"))
    removed = sum(1 for line in text.split("\n") if line.startswith("-"))
    return make_pr(title, body, [PRFile(path, "modified", added, removed, text)], repo="acme/knobs")


def facts(pr: PullRequest) -> tuple[ConfigFact, ...]:
    return ANALYZER.analyze(pr).config


# References: which keys or variables a value reads -------------------------------------------------


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("${oc.select:actor_rollout_ref.actor.qat,null}", ("actor_rollout_ref.actor.qat",)),
        ("${oc.select:a.b, null}", ("a.b",)),
        ("${model.path}", ("model.path",)),
        ("${..lr}", ("..lr",)),
        ("${.x}", (".x",)),
        ('"${data.dir}/train.parquet"', ("data.dir",)),
        ("${oc.env:PORT,8000}", ("$PORT",)),
        ("${env:HOME}", ("$HOME",)),
        ("${oc.decode:${oc.env:SIZES}}", ("$SIZES",)),
        ("${PORT:-8000}", ("$PORT",)),
        ("${div:${a.b},2}", ("a.b",)),
        ("${oc.select:a.qat,${oc.select:b.qat,null}}", ("a.qat", "b.qat")),
        ("1e-6", ()),
        ("'plain text'", ()),
    ],
)
def test_a_value_reads_the_keys_and_variables_its_interpolations_name(
    value: str, read: tuple[str, ...]
) -> None:
    assert references(value) == read


@pytest.mark.parametrize(
    ("old", "new", "moved"),
    [
        ("${oc.select:actor.qat,null}", "${oc.select:actor.fsdp_config.qat,null}", True),
        ("${actor.x}", "${model.x}", True),
        ("${..data.len}", "${..tokenizer.len}", True),
        ("${OLD_HOST:-0.0.0.0}", "${HOST:-0.0.0.0}", True),
        ("${oc.env:A}", "${oc.env:B}", True),
        ("${oc.select:a.qat,null}", "${oc.select:a.qat,${oc.select:b.qat,null}}", True),  # falls back to b
        ("1e-6", "${optim.lr}", True),  # a literal replaced by a reference
        ("${oc.env:PORT,8000}", "${oc.env:PORT,9000}", False),  # the same variable, a new fallback
        ("${optim.lr}", "1e-6", False),  # a value written here again
        ("1", "2", False),
    ],
)
def test_a_value_follows_another_source_only_when_its_references_change(
    old: str, new: str, moved: bool
) -> None:
    assert source_moved(old, new) is moved


@pytest.mark.parametrize(
    ("old", "new", "only"),
    [
        ("${rollout.n}", "${oc.select:rollout.n,1}", True),
        ("${oc.select:model.path,null}", "${model.path}", True),
        ("${oc.select:x,1}", "${oc.select:x,2}", False),  # a new fallback value is a new default
        ("${oc.env:PORT}", "${oc.env:PORT,8000}", False),  # a variable is often unset: a default now
        ("${a}", "${oc.select:b,1}", False),
        ("1", "2", False),
    ],
)
def test_a_reference_that_only_gains_or_loses_its_fallback_changes_nothing(
    old: str, new: str, only: bool
) -> None:
    assert only_fallback_given(old, new) is only


# Per PR, on hand-built diffs of other shapes ---------------------------------------------------------


def test_an_oc_select_whose_source_moved_is_a_key_that_now_follows_another() -> None:
    pr = one_file(
        "conf/rollout.yaml",
        patch(
            "rollout:",
            ("  temperature: ${oc.select:actor.temperature,1.0}",),
            ("  temperature: ${oc.select:sampling.temperature,1.0}",),
        ),
    )
    analysis = ANALYZER.analyze(pr)
    assert analysis.config == (
        ConfigFact(
            "rollout.temperature", "follows", "actor.temperature", "sampling.temperature", "conf/rollout.yaml"
        ),
    )
    for language in ("zh", "en"):
        texts = analysis.localized(language)
        assert not any("${" in point for point in texts.key_points), texts.key_points
        assert any("sampling.temperature" in point for point in texts.key_points)
        assert not any(risk.category == "config" for risk in analysis.risks)


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        # YAML: a literal default, a required value, a fallback of the same variable
        ("conf/optim.yaml", patch("optim:", ("  lr: 1.0e-5",), ("  lr: 3.0e-5",)),
         ConfigFact("optim.lr", "default_changed", "1.0e-5", "3.0e-5", "conf/optim.yaml")),
        ("conf/data.yaml", patch("data:", ("  path: /data/train",), ("  path: ???",)),
         ConfigFact("data.path", "required", "/data/train", "???", "conf/data.yaml")),
        ("conf/server.yaml", patch("server:", ("  port: ${oc.env:PORT,8000}",), ("  port: ${oc.env:PORT,9000}",)),
         ConfigFact("server.port", "default_changed", "${oc.env:PORT,8000}", "${oc.env:PORT,9000}", "conf/server.yaml")),
        # YAML: interpolations pointed elsewhere
        ("conf/model.yaml", patch("model:", ("  max_len: ${..data.max_len}",), ("  max_len: ${..tokenizer.max_len}",)),
         ConfigFact("model.max_len", "follows", "..data.max_len", "..tokenizer.max_len", "conf/model.yaml")),
        ("conf/host.yaml", patch("server:", ("  host: ${OLD_HOST:-0.0.0.0}",), ("  host: ${HOST:-0.0.0.0}",)),
         ConfigFact("server.host", "follows", "$OLD_HOST", "$HOST", "conf/host.yaml")),
        ("conf/train.yaml", patch("optim:", ("  warmup: 100",), ("  warmup: ${schedule.warmup}",)),
         ConfigFact("optim.warmup", "follows", "100", "schedule.warmup", "conf/train.yaml")),
        # dataclass fields: a default, `MISSING`, OmegaConf's `II(...)`
        ("pkg/config.py", patch("    seed: int = 0", ("    batch_size: int = 32",), ("    batch_size: int = 64",), "class TrainConfig:"),
         ConfigFact("TrainConfig.batch_size", "default_changed", "32", "64", "pkg/config.py")),
        ("pkg/config.py", patch("    seed: int = 0", ('    model: str = "base"',), ("    model: str = MISSING",), "class ModelConfig:"),
         ConfigFact("ModelConfig.model", "required", '"base"', "MISSING", "pkg/config.py")),
        ("pkg/config.py", patch("    seed: int = 0", ("    eval_lr: float = 1e-4",), ('    eval_lr: float = II("optim.lr")',), "class EvalConfig:"),
         ConfigFact("EvalConfig.eval_lr", "follows", "1e-4", "optim.lr", "pkg/config.py")),
        ("pkg/config.py", patch("    seed: int = 0", ('    out: str = "${paths.root}/out"',), ('    out: str = "${paths.output}/out"',), "class RunConfig:"),
         ConfigFact("RunConfig.out", "follows", "paths.root", "paths.output", "pkg/config.py")),
        # an argparse option's default
        ("pkg/cli.py", patch("def build_parser():", ('    parser.add_argument("--workers", type=int, default=4)',),
                             ('    parser.add_argument("--workers", type=int, default=8)',)),
         ConfigFact("--workers", "default_changed", "4", "8", "pkg/cli.py")),
    ],
)  # fmt: skip
def test_each_shape_of_setting_gives_its_fact(path: str, text: str, expected: ConfigFact) -> None:
    assert facts(one_file(path, text)) == (expected,)


def test_a_fallback_added_to_the_same_reference_is_no_change() -> None:
    text = patch(
        "critic:", ("  rollout_n: ${actor.rollout.n}",), ("  rollout_n: ${oc.select:actor.rollout.n,1}",)
    )
    analysis = ANALYZER.analyze(one_file("conf/critic.yaml", text))
    assert analysis.config == ()
    assert not any("rollout_n" in point for point in analysis.localized("en").key_points)


def test_a_key_that_stops_following_another_is_said_to_follow_it_no_more() -> None:
    text = patch("profiler:", ("  enable: ${oc.select:actor.profiler.enable,false}",), ("  enable: False",))
    analysis = ANALYZER.analyze(one_file("conf/ref.yaml", text))
    assert [(f.kind, f.key) for f in analysis.config] == [("default_changed", "profiler.enable")]
    for language, words in (
        ("zh", "不再引用 actor.profiler.enable"),
        ("en", "no longer follows actor.profiler.enable"),
    ):
        assert any(words in point for point in analysis.localized(language).key_points)


def test_keys_options_and_variables_added_removed_and_renamed_are_facts_too() -> None:
    yaml = patch("pool:", ("  timeout: 30", "  legacy_mode: false"), ("  request_timeout: 30", "  size: 8"))
    cli = patch(
        "def build_parser():",
        ('    parser.add_argument("--old-flag", action="store_true")',),
        (
            '    parser.add_argument("--dry-run", action="store_true")',
            '    token = os.environ.get("KNOBS_TOKEN")',
        ),
    )
    pr = make_pr(
        "Rename timeout to request_timeout",
        files=[
            PRFile("conf/pool.yaml", "modified", 2, 2, yaml),
            PRFile("knobs/cli.py", "modified", 2, 1, cli),
        ],
        repo="acme/knobs",
    )
    kinds = {(fact.kind, fact.key) for fact in facts(pr)}
    assert {
        ("renamed", "pool.request_timeout"),
        ("added", "pool.size"),
        ("removed", "pool.legacy_mode"),
        ("flag_added", "--dry-run"),
        ("flag_removed", "--old-flag"),
        ("env_added", "KNOBS_TOKEN"),
    } <= kinds


def test_a_key_mirrored_across_files_is_one_fact() -> None:
    """The same default moved the same way in a dataclass and two YAML files is one change."""
    files = [
        PRFile("conf/a.yaml", "modified", 1, 1, patch("optim:", ("  lr: 1e-5",), ("  lr: 3e-5",))),
        PRFile("conf/b.yaml", "modified", 1, 1, patch("optim:", ("  lr: 1e-5",), ("  lr: 3e-5",))),
    ]
    found = facts(make_pr("Raise lr", files=files, repo="acme/knobs"))
    assert [fact.kind for fact in found] == ["default_changed"]


def test_a_pr_that_only_talks_about_defaults_records_no_fact() -> None:
    text = patch("# Settings", (), ("The default learning rate is 3e-5.",))
    assert facts(one_file("docs/settings.md", text, "Document the defaults", "默认值说明")) == ()


def test_an_analysis_keeps_its_facts_through_json_and_an_older_one_without_them_loads() -> None:
    analysis = ANALYZER.analyze(
        one_file("conf/optim.yaml", patch("optim:", ("  lr: 1e-5",), ("  lr: 3e-5",)))
    )
    assert analysis.config
    stored = json.loads(json.dumps(analysis.to_dict()))
    assert Analysis.from_dict(stored) == analysis
    del stored["config"]
    assert Analysis.from_dict(stored).config == ()


def test_a_fact_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="config change kind"):
        ConfigFact("lr", "tweaked")  # type: ignore[arg-type]


# On real verl PRs (skipped without the export) -------------------------------------------------------


@pytest.fixture(scope="module")
def verl() -> dict[int, PullRequest]:
    if not DATA.is_file():
        pytest.skip(f"{DATA} is not available")
    with gzip.open(DATA, "rt", encoding="utf-8") as lines:
        prs = (pull_request_from_rest(json.loads(line), "verl-project/verl") for line in lines)
        # June 2026 is kept aside for evaluation
        return {
            pr.number: pr
            for pr in prs
            if pr.header.merged_at and pr.header.merged_at.strftime("%Y-%m") != "2026-06"
        }


def test_verl_5411s_qat_now_follows_the_engine_config_and_is_no_changed_default(
    verl: dict[int, PullRequest],
) -> None:
    analysis = ANALYZER.analyze(verl[5411])
    follows = [fact for fact in analysis.config if fact.kind == "follows"]
    assert [(f.key, f.before, f.after) for f in follows] == [
        ("qat", "actor_rollout_ref.actor.qat", "actor_rollout_ref.actor.fsdp_config.qat")
    ]
    assert not any(fact.kind == "default_changed" for fact in analysis.config)
    assert any(fact.kind == "added" and fact.key == "qat.enable" for fact in analysis.config)
    for language in ("zh", "en"):
        assert not any("${" in point for point in analysis.localized(language).key_points)
    assert not any(risk.category == "config" for risk in analysis.risks)


def test_on_verl_no_changed_default_is_an_interpolation_pointed_elsewhere_and_every_key_is_in_the_diff(
    verl: dict[int, PullRequest],
) -> None:
    changed = follows = 0
    for pr in verl.values():
        diff = "\n".join(f.patch or "" for f in pr.files)
        for fact in ANALYZER.analyze(pr).config:
            assert fact.key.rsplit(".", 1)[-1].rsplit("(", 1)[-1].rstrip(")") in diff, (pr.number, fact)
            if fact.kind == "default_changed":
                changed += 1
                assert not source_moved(fact.before, fact.after), (pr.number, fact)
            follows += fact.kind == "follows"
    assert changed > 50 and follows >= 1
