"""The concern a PR belongs to (memory, hardware, a backend, the training API, dependencies…): what the
report's highlights and "key changes" gather PRs by.

Concerns are subjects, never kinds of change: a fix belongs to what it fixes. They are data: each names
the words of titles and gists, the modules, the change types and the risk categories that claim a PR,
tried in order, so docs and CI changes are never "memory" because they mention OOM, and a PR whose title
says it fixes an OOM is memory whichever backend it touches. What places a PR, in order: the words of its
own title, its kind (type, modules, risks), then the words of its gist, which may only name what the
change touches ("a novel policy optimization algorithm" is no performance work). A PR no concern claims
belongs to its main module (a subject the repository itself names), else to "other". Words are generic
ML-systems and engineering vocabulary, not one repository's: module names come from each repository's
module map."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from chatbot.analysis.features import ships
from chatbot.analysis.types import Analysis
from chatbot.messages import Language, say

# The prefix of a concern that is a module of the repository's own map ("module:data").
MODULE_CONCERN = "module:"
# Module names that say nothing of a subject: a PR in only these is "other".
GENERIC_MODULES = frozenset({"misc", "other", "others", "general", "common", "chore", "utils", "core"})


@dataclass(frozen=True, slots=True)
class Words:
    """The words of titles and gists that claim a concern, matched against lowercased text:
    `words`, a pattern a whole word must match (`bump|pins?|docker\\w*`: a word is a run of `\\w`);
    `phrases`, a pattern searched in the text (`\\b` on both sides) where one of its words matches
    `anchors` (every phrase holds such a word, so a text without one needs no search); `chinese`, a
    pattern searched anywhere in a text that is not ASCII. Words are looked up once per distinct word
    (`_word_claims`); the searches are the few phrases that need context."""

    words: re.Pattern[str] | None = None
    phrases: re.Pattern[str] | None = None
    anchors: re.Pattern[str] | None = None
    chinese: re.Pattern[str] | None = None


def _words(words: str = "", phrases: str = "", anchors: str = "", chinese: str = "") -> Words:
    """`|`-separated alternatives: see `Words`. A phrase needs its anchors."""
    assert bool(phrases) == bool(anchors), "a phrase is searched only where one of its anchors is"
    return Words(
        words=re.compile(f"(?:{words})") if words else None,
        phrases=re.compile(rf"\b(?:{phrases})\b") if phrases else None,
        anchors=re.compile(f"(?:{anchors})") if anchors else None,
        chinese=re.compile(chinese) if chinese else None,
    )


@dataclass(frozen=True, slots=True)
class Concern:
    """A concern claims a PR whose change type is in `change_types`, or one of whose modules is in
    `modules`, or that has a risk of a category in `risks`, or whose title or gist says one of `words`.
    Words and risks are weaker signals than a module: they do not claim a PR whose change type is in
    `skip_types` ("fix the hang the resume optimisation caused" is about the hang, not performance; a
    feature that adds a requirement is about the feature)."""

    key: str
    words: Words = Words()
    modules: frozenset[str] = frozenset()
    change_types: frozenset[str] = frozenset()
    risks: frozenset[str] = frozenset()
    skip_types: frozenset[str] = frozenset()
    # Modules that claim a PR only when they are all it touches (besides generic ones): an algorithm
    # change that also updates its docs page is about the algorithm, not the docs.
    sole: bool = False

    def claims_by_kind(self, change_type: str, modules: frozenset[str], risks: frozenset[str]) -> bool:
        """Whether the PR's change type, modules or risk categories claim it (set lookups)."""
        return (
            change_type in self.change_types
            or self._claims_modules(modules)
            or (change_type not in self.skip_types and not self.risks.isdisjoint(risks))
        )

    def _claims_modules(self, modules: frozenset[str]) -> bool:
        if self.modules.isdisjoint(modules):
            return False
        return not self.sole or all(m in self.modules or m in GENERIC_MODULES for m in modules)

    def claims_by_words(self, said: Said, bit: int, change_type: str) -> bool:
        """Whether a title or gist (`said`; `bit`: this concern's in `said`'s masks) claims the PR."""
        if change_type in self.skip_types:
            return False
        if said.words & bit:
            return True
        words = self.words
        if said.anchors & bit and words.phrases is not None and words.phrases.search(said.text):
            return True
        return not said.ascii and words.chinese is not None and bool(words.chinese.search(said.text))


_DEPENDENCY_MODULES = frozenset({"deps", "docker", "build", "release"})
# Names of RL post-training algorithms (lowercase), as titles write them.
_RL_ALGORITHMS = (
    r"(?:ppo|grpo|dapo|gspo|gdpo|gmpo|cispo|vapo|remax|rloo|reinforce|dpo|kto|orpo|simpo|opo|sppo)"
)

# The risk category of a dependency change in what the project ships (a Dockerfile, requirements,
# setup.py), as `concern_of` tells it from the risk's evidence: a pin in a docs page or a CI workflow is not.
SHIPPED_DEPENDENCY = "dependency:shipped"

CONCERNS: tuple[Concern, ...] = (
    # A PR filed as docs whose diff moves what gets installed ("[doc] chore: update vllm to v0.18.0 in docs
    # and dockerfile") is about dependencies, as its title says.
    Concern("dependencies", risks=frozenset({SHIPPED_DEPENDENCY}), skip_types=frozenset({"feat", "perf"})),
    # Instructions for AI coding assistants (AGENTS.md, CLAUDE.md, Copilot instructions) are docs, never
    # the agent loop of a model: only an agent loop, tool calling or multi-turn rollout is "rollout".
    Concern(
        "docs",
        words=_words(
            phrases=r"agents\.md|claude\.md|gemini\.md|copilot[- ]instructions|claude code|cursor ?rules|"
            r"coding agents?|agent instructions|agent skills",
            anchors=r"agents?|claude|gemini|copilot|cursor|cursorrules|coding",
        ),
        change_types=frozenset({"doc"}),
        modules=frozenset({"doc", "docs"}),
        sole=True,
    ),
    # A PR that changes what gets installed (its diff moves a pin or an image) is about dependencies,
    # even when it is filed under CI ("[ci] fix: transformers upgrade to 5.3.0").
    Concern(
        "dependencies",
        modules=_DEPENDENCY_MODULES,
        risks=frozenset({"dependency"}),
        skip_types=frozenset({"feat", "perf"}),
    ),
    Concern("ci", change_types=frozenset({"test"}), modules=frozenset({"ci", "test", "tests"}), sole=True),
    Concern(
        "dependencies",
        # "image", "version", "package" and "release" alone are as often a vision input, a compatibility
        # fix, a Python package's `__init__` or freeing memory: only their build senses count.
        words=_words(
            r"bump|upgrade|pin|unpin|dependenc\w*|requirements?|docker\w*|wheels?|uv|pip|conda|packaging|pypi",
            phrases=r"(?:base|ci|container|runtime|nightly|release|dev|build|app|npu|cuda|rocm) images?|"
            r"images? (?:tags?|versions?|builds?|registry)|version (?:bumps?|pins?|upgrades?|files?|numbers?)|"
            r"(?:update|bump) (?:the )?(?:[\w.-]+ )?versions?|(?:branch|package|project) version|package data|"
            r"releases? (?:notes?|branch|candidate|workflow|process)|new release|release v?\d[\w.]*",
            anchors=r"images?|versions?|package|releases?",
            chinese=r"依赖|镜像|升级",
        ),
        modules=_DEPENDENCY_MODULES,
    ),
    # Logging or reporting memory is about what gets logged, not about using less of it; metrics of
    # something ("overlap metrics", "performance metrics") are about what gets measured.
    Concern(
        "observability",
        words=_words(
            phrases=r"(?:log|logs|logging|print|report|record|track|show|monitor)\w* (?:the )?(?:gpu |peak )?"
            r"memory|(?!(?:and|or|the|of|with)\b)[\w-]+ metrics",
            anchors=r"memory|metrics",
        ),
    ),
    # "Shared memory" is a way to pass tensors between processes (IPC), not memory use.
    Concern(
        "memory",
        words=_words(
            r"oom|leaks?|offload\w*|peak|empty_cache|recompute|summon",
            phrases=r"(?<!shared )memory|activation checkpointing|gradient checkpointing",
            anchors=r"memory|checkpointing",
            chinese=r"显存|内存|泄漏",
        ),
    ),
    Concern(
        "hardware",
        words=_words(
            r"npu|ascend|rocm|amd|mi\d{3}|xpu|mlu|hpu|gaudi|tpu|mps|910b|a2|a3|cann", chinese=r"昇腾|国产"
        ),
        modules=frozenset({"hardware", "npu", "ascend", "rocm", "amd", "xpu"}),
    ),
    # An RL algorithm's name alone is as often what a script, an example or a CI job trains with ("add
    # GRPO training scripts", "LoRA support for PPO"): a PR is about the algorithm when it adds, supports or
    # implements the algorithm itself ("support ReMax in the trainer", "add GDPO (…) algorithm"). A name
    # in code holding "reward" (`load_reward_manager`, `reward_extra_info`) is reward code, as one holding
    # "metric" (`compute_data_metrics`) is metrics code.
    Concern(
        "algorithm",
        words=_words(
            r"loss|advantages?|kl|entropy|\w*reward\w*|offpolicy|onpolicy|baseline|estimator|critic|curriculum|"
            r"objective|algorithms?",
            phrases=r"off-policy|on-policy|importance sampling|value model|reinforcement learning|"
            rf"(?:policy|preference) optimi[sz]ation|(?:support\w*|add\w*|implement\w*|enabl\w*) (?:the |a )?"
            rf"(?:(?!for |of |with )[\w-]+ )?{_RL_ALGORITHMS}\b(?: algorithm)?(?= in | for | to | into |\s*[(,]|$)",
            anchors=rf"policy|importance|value|reinforcement|preference|{_RL_ALGORITHMS}",
            chinese=rf"算法|奖励|损失|优势|策略优化|强化学习|(?:支持|新增|实现|添加) ?{_RL_ALGORITHMS}\b(?= ?算法|$|[，。（(])",
        ),
        modules=frozenset({"algo", "algorithm", "reward", "reward_model"}),
    ),
    Concern(
        "performance",
        words=_words(
            r"speedup|faster|throughput|latency|overlap\w*|perf\w*",
            # an algorithm's name ("Group Relative Policy Optimization") is no speed-up
            phrases=r"speed up|(?<!policy )(?<!preference )optimi[sz](?:e[sd]?|ing|ations?)",
            anchors=r"speed|optimi[sz](?:e[sd]?|ing|ations?)",
            chinese=r"加速|吞吐",
        ),
        modules=frozenset({"perf"}),
        change_types=frozenset({"perf"}),
        skip_types=frozenset({"fix"}),
    ),
    Concern(
        "data",
        words=_words(
            r"datasets?|dataloaders?|dataloading|preprocess\w*|tokeni[sz]\w*|jsonl|parquet|collat\w*|samplers?",
            phrases=r"data loading|data processing|chat template",
            anchors=r"data|chat",
            chinese=r"数据集|数据处理|数据加载|分词",
        ),
        modules=frozenset({"data", "dataset", "datasets", "dataloader", "tokenizer", "preprocess"}),
    ),
    Concern(
        "observability",
        words=_words(
            r"logg\w*|\w*metrics?|profil\w*|trac(?:e|es|ed|ing|er|ers)|wandb|tensorboard|mlflow|swanlab|"
            r"monitor\w*|telemetry|debugger|timeline",
            chinese=r"日志|监控|指标|性能分析",
        ),
        modules=frozenset({"profiler", "logging", "metrics", "tracking", "telemetry"}),
    ),
    Concern(
        "rollout",
        words=_words(
            r"rollout|generation|generate|inference|sampling|kvcache|server|serving|agent_?loops?|agentic|"
            r"tool_?call\w*|function_?call\w*|multiturn|vllm|sglang|trtllm|tensorrt",
            phrases=r"kv cache|weight sync\w*|agent loops?|tool call\w*|tool use|tool pars\w*|"
            r"function call\w*|multi-turn",
            anchors=r"kv|weight|agent|tool|function|multi",
            chinese=r"推理|采样",
        ),
        modules=frozenset(
            {"rollout", "vllm", "sglang", "trtllm", "agent", "agent_loop", "inference", "serving", "tool"}
        ),
    ),
    Concern(
        "training",
        words=_words(
            r"train\w*|worker|engine|checkpoint\w*|ckpt|optimizer|fsdp\d?|megatron|deepspeed|"
            r"parallel\w*|lora|peft|sharding|resharding|api|primitives?|rpc|controller",
            chinese=r"训练",
        ),
        modules=frozenset(
            {
                "trainer",
                "worker",
                "workers",
                "engine",
                "ckpt",
                "checkpoint",
                "fsdp",
                "megatron",
                "veomni",
                "single_controller",
                "ray",
                "parallel",
                "distributed",
                "training_utils",
                "optim",
            }
        ),
    ),
    # "model" alone is every ML PR's word ("retain the model output", "sync model weights"): a PR is
    # about model support when it names a model family or adds or supports a model.
    Concern(
        "models",
        words=_words(
            r"qwen\w*|llama\w*|deepseek\w*|gemma\w*|mistral\w*|glm\w*|vlm|vision|multimodal|moe",
            phrases=r"new models?|model support|models? architectures?|(?:support\w*|add\w*) (?:for |the |a )?"
            r"[\w.-]+ models?",
            anchors=r"models?",
            chinese=r"新模型|模型支持|支持.{1,20}模型|多模态",
        ),
        modules=frozenset({"model", "models"}),
    ),
    Concern(
        "config",
        words=_words(
            r"configs?|configuration|yaml|hydra|cli|flags?|arguments?|options?",
            phrases=r"command[- ]line",
            anchors=r"command",
            chinese=r"配置|参数",
        ),
        modules=frozenset({"cfg", "config", "configs", "cli"}),
    ),
)


# A dotted name in code: `MoEAlltoAllTokenDispatcher.preprocess`, `ray.util.collective` (not a file name
# such as `AGENTS.md`, nor a version).
_DOTTED = re.compile(
    r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.(?!(?:md|py|ya?ml|txt|json|toml|sh|cfg)\b)[A-Za-z_]\w*"
)
_WORD = re.compile(r"\w+")

# Modules of the concerns that claim a PR only when they are all it touches.
_SIDE_MODULES = frozenset(m for c in CONCERNS if c.sole for m in c.modules)


@lru_cache(maxsize=1 << 16)
def _word_claims(word: str) -> tuple[int, int]:
    """The concerns a word claims (bit `i` for `CONCERNS[i]`) and those whose phrases it anchors: the
    vocabulary of titles is small, so each distinct word is matched once."""
    claims = anchors = 0
    for i, concern in enumerate(CONCERNS):
        words = concern.words
        if words.words is not None and words.words.fullmatch(word):
            claims |= 1 << i
        if words.anchors is not None and words.anchors.fullmatch(word):
            anchors |= 1 << i
    return claims, anchors


class Said:
    """A title or gist as the concerns read it: lowercased, names in code left out, and which concerns
    its words claim or anchor a phrase of (`_word_claims`)."""

    __slots__ = ("anchors", "ascii", "text", "words")

    def __init__(self, text: str) -> None:
        if "." in text:
            # A name in code (`Dispatcher.preprocess`, `a.b.c`) says what the change touches, not its
            # subject.
            text = _DOTTED.sub(" ", text)
        self.text = text = text.lower()
        self.ascii = text.isascii()
        self.words = self.anchors = 0
        for word in set(_WORD.findall(text)):
            claims, anchors = _word_claims(word)
            self.words |= claims
            self.anchors |= anchors


@lru_cache(maxsize=1 << 12)
def _first_by_kind(change_type: str, modules: frozenset[str], risks: frozenset[str]) -> int:
    """The index of the first concern a PR's kind claims (`len(CONCERNS)` if none): PRs of a week
    share a few kinds, so each is looked up once."""
    return next(
        (i for i, c in enumerate(CONCERNS) if c.claims_by_kind(change_type, modules, risks)), len(CONCERNS)
    )


def concern_of(title: str, analysis: Analysis, gist: str = "") -> str:
    """The concern that claims the PR: by its title's words, else its modules, type and risks, else its
    gist's words (each tried in `CONCERNS` order); else its main module as a subject (`module:data`),
    else "other"."""
    modules = frozenset(analysis.modules)
    risks = frozenset(r.category for r in analysis.risks) | {
        SHIPPED_DEPENDENCY
        for r in analysis.risks
        if r.category == "dependency" and ships(r.evidence.split(": ", 1)[0].strip())
    }
    change_type = analysis.change_type
    # The set lookups first: only the concerns before the first one they claim need the title's words.
    first = _first_by_kind(change_type, modules, risks)
    # What the PR is about, in order: the words of its own title, then its kind (type, modules, risks),
    # and only then the words of its gist, which may name what the change merely touches ("a novel policy
    # optimization algorithm" is no performance work).
    heading = Said(title)
    for i, concern in enumerate(CONCERNS[:first]):
        if concern.claims_by_words(heading, 1 << i, change_type):
            return concern.key
    if first < len(CONCERNS):
        return CONCERNS[first].key
    text = Said(gist)
    for i, concern in enumerate(CONCERNS):
        if concern.claims_by_words(text, 1 << i, change_type):
            return concern.key
    named = [m for m in analysis.modules if m.lower() not in GENERIC_MODULES]
    # Its docs or CI module names the PR's subject only when it touches nothing else.
    module = next((m for m in named if m.lower() not in _SIDE_MODULES), named[0] if named else None)
    return f"{MODULE_CONCERN}{module}" if module else "other"


def concern_name(concern: str, language: Language) -> str:
    """A concern as a reader sees it: `显存与内存` / `memory`; a module concern by its module."""
    if concern.startswith(MODULE_CONCERN):
        return say("theme.module", language, module=concern.removeprefix(MODULE_CONCERN))
    return say(f"theme.{concern}", language)
