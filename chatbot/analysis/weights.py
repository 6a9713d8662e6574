"""Every weight and threshold of the heuristic analyzer, in one place, each with the reason for its value.

Scores are sums of feature points clamped to 0..10. The values were calibrated on 2,745 merged PRs of
verl-project/verl (`bench/analysis.py` prints the distribution and the top and bottom 15): docs and typo
PRs land at 0–1.5, a typical small fix near 3–4, a large breaking change to core code at 8 and above;
importance has median 4.0 and p90 6.3, and about 4.7% of PRs are must-read (130 of 2,745).
Changing any value here changes stored analyses: bump ANALYZER_VERSION so they are recomputed."""

from __future__ import annotations

import re

from chatbot.analysis.types import ChangeType

ANALYZER_VERSION = "4.10.21"

# --- how much one changed line counts ----------------------------------------------------------------

# Per file kind: a line of source code is the unit; config lines are often user-facing, so they count
# more than tests or docs; generated files and lock files are churn, not change.
KIND_WEIGHTS: dict[str, float] = {
    "source": 1.0,
    "config": 0.6,
    "deps": 0.6,
    "docker": 0.4,
    "script": 0.3,
    "ci": 0.3,
    "test": 0.3,
    "doc": 0.1,
    "other": 0.2,
    "generated": 0.05,
    "asset": 0.0,
}
# Per tier (from the module map): the same line matters less in an example or recipe than in the trainer.
TIER_WEIGHTS: dict[str, float] = {"core": 1.0, "normal": 0.8, "peripheral": 0.35}
# Lines of files GitHub did not list (PRs over 3,000 files) count like peripheral test or doc lines.
UNLISTED_LINE_WEIGHT = 0.3
# Python files whose `name: type = value` fields and argparse defaults are user-facing configuration.
CONFIG_SOURCE = re.compile(r"config|args|arguments|settings|options", re.I)

# --- modules from paths --------------------------------------------------------------------------------

# A module must hold at least this share of the changed lines to be listed (so one touched __init__.py
# does not add a module), and at most this many are listed.
PATH_MODULE_MIN_SHARE = 0.15
PATH_MODULE_MAX = 4
# Lines of code outside a docs/CI-only title tag's files for the paths' modules to join the tag's.
UNTAGGED_CODE_MIN_LINES = 20
# A TODO says what is left to do in at least this many words (a bare `# TODO` says nothing).
TODO_MIN_WORDS = 3

# --- importance: how much the change matters to people who follow the repo ---------------------------

# Starting points per type: features and perf changes alter behaviour users see; fixes nearly as much;
# refactors matter to contributors; tests, docs and chores rarely change what users get. The type is the
# least certain fact of a PR (the same PR is `chore` in one repo's titles, `feat` or untyped in another's),
# so a chore or refactor starts no further below a fix than its diff justifies: a chore of CI, images or
# versions stays low by its lines' kinds (KIND_WEIGHTS), and a chore that changes shipped code starts where
# a refactor does (heuristic.importance_parts). On verl's PRs analysed with their tags, untagged and as
# conventional commits, refactor 1.9 and chore 1.0 (were 1.6 and 0.8) bring the mean importance difference
# between tagged and untagged from 0.32 to 0.29 (tagged and conventional: 0.27 to 0.20), verdicts agreeing
# from 91.4% to 92.4% (92.8% to 94.7%), and leave the median, p90 and must-read share as they were.
IMPORTANCE_BASE: dict[ChangeType, float] = {
    "feat": 2.4,
    "perf": 2.6,
    "fix": 2.2,
    "refactor": 1.9,
    "test": 0.6,
    "doc": 0.3,
    "chore": 1.0,
    # A revert undoes a change that broke something: followers need to know, as they need to know a fix.
    "revert": 2.2,
}
# A breaking change forces every user to act: the largest single feature.
BREAKING = 2.0
# Size on a log scale of weighted lines: points = SIZE_PER_LOG2 * log2(1 + lines), capped. 10 lines ≈ 1.0,
# 100 ≈ 2.0, 1,000 ≈ 3.0, 2,000+ at the cap: doubling the diff adds a constant, not a multiple.
SIZE_PER_LOG2 = 0.3
SIZE_CAP = 3.3
# Share of the weighted lines in core paths (trainer, workers…), times this.
CORE_SHARE = 0.8
# A repository whose map lists no core paths has its core inferred from its layout: shipped source outside
# helper folders (utils/, experimental/, vendored code) is core, as verl's map names trainer/ and workers/
# core and utils/ not (features._inferred_tier). On verl with the default map instead of its own, the mean
# core points per PR are 0.31 against 0.35 (0.23 when all shipped source counted at half share).
# Each module beyond the first, up to the cap: cross-cutting changes affect more readers.
EXTRA_MODULE = 0.25
EXTRA_MODULE_CAP = 0.75
# User-visible surface: a changed config default silently changes results; a removed or re-signed public
# function breaks callers; new config keys and CLI flags are new knobs. Capped together.
CONFIG_DEFAULT_CHANGED = 0.9
CONFIG_KEY_ADDED = 0.3
CONFIG_KEY_REMOVED = 0.5
API_CHANGED = 0.5
API_REMOVED = 0.6
CLI_ARG_ADDED = 0.3
USER_VISIBLE_MAX_EACH = 2  # each kind counts at most twice: ten new keys are one new feature, not ten
USER_VISIBLE_CAP = 1.4
# Severity keywords (OOM, deadlock, crash…): a title naming one says what the PR is about, so it is worth
# much more than a body mentioning one in passing; each further class adds a little. Security is separate
# and larger: a vulnerability fix is worth reading whatever its size.
KEYWORD_TITLE = 1.0
KEYWORD_BODY = 0.4
KEYWORD_MORE = 0.2
KEYWORD_CAP = 1.4
SEVERE_KEYWORDS = ("oom", "leak", "deadlock", "crash", "hang", "regression", "race", "nan", "corruption")
SECURITY = 1.4
# A dependency or image version change affects every installation; a key framework (torch, vllm…) more.
DEPENDENCY = 0.3
KEY_DEPENDENCY = 0.7
# A raised minimum language version (`requires-python = ">=3.10"`, go.mod's `go 1.23`) drops every user on
# the versions in between: not a rename of one call, but users must act, so it counts a third of a breaking change
# on top of the dependency points (a "Drop Python 3.8" title stays under the relocation cap).
RUNTIME_FLOOR_RAISED = 0.7
# Measured results make a perf or accuracy claim concrete, which is what users act on.
MEASURED = 0.4
# Review activity on a log scale of (reviews + comments); requested changes mean contested decisions.
REVIEW_PER_LOG2 = 0.3
REVIEW_CAP = 1.0
CHANGES_REQUESTED = 0.3
# Titles that announce a trivial change (typo, lint, format, rename, docstrings or type hints) lose points
# whatever the diff size: a docstring pass over torch_functional.py touches every signature it documents.
TRIVIAL = -1.2
TRIVIAL_TITLE = re.compile(
    r"\b(?:typos?|spelling|lint(?:ing)?|format(?:ting)?|pre-commit|whitespace|comments?|rename|badges?|"
    r"docstrings?|type hints?|type annotations?)\b|注释|拼写",
    re.I,
)

# What the change does, as a maintainer ranks it: a new capability, a change of training or inference
# semantics, or a memory or correctness fix in shipped code ranks above renames, moves, docs, CI and
# version bumps. Checked on verl (class medians in bench/analysis.py) and on a repository of another shape
# (tests/analysis/test_ranking.py: plain titles, Chinese and bullet-only bodies).
# A feature that adds public functions or classes to shipped code, per definition up to the cap.
NEW_CAPABILITY_EACH = 0.25
NEW_CAPABILITY_CAP = 0.75
# The title names training or inference semantics (loss, advantage, sampling, weights sync…) and shipped
# code changed: such a change alters results.
SEMANTICS = 0.5
# The change types whose title can say they change what training or inference computes.
SEMANTIC_TYPES = frozenset({"feat", "fix", "perf"})
# Seeds and sharding decide what each rank samples and holds, and a checkpoint load decides which weights
# training resumes from, so they belong here too. The quantities a loss is made of are named in titles as
# words and as the code's identifiers ("fix `vf_loss` factor", "kl_penalty", "old_log_probs"). A reward
# model, manager, loop or server is a component ("empty class_dict for the reward model resource pool"),
# not the reward computed; a reward function is what computes it ("reward functions that return None").
# Scoring is how a reward or evaluation is computed ("silent scoring failure in Ray workers"), and a loss,
# label or response mask decides which tokens are learned.
SEMANTICS_TITLE = re.compile(
    r"\b(?:loss|advantages?|kl|entropy|importance sampling|off[- ]?policy|on[- ]?policy|log[- ]?probs?|"
    r"logprobs?|rewards?(?! (?:models?|managers?|workers?|loops?|servers?|resource|pools?)\b)|"
    r"gradients?|grad|optimi[sz]er|learning rate|lr scheduler|sampling|temperature|"
    r"(?:weight|param(?:eter)?)s? (?:sync|update|resharding)|precision|dtype|fp8|bf16|tokeniz\w*|"
    r"attention|packing|padding|normali[sz]ation|seeds?|(?:re)?shard(?:ing|ed)?|scoring|scorers?|masking|"
    r"(?:label|token|response|completion|action|prompt)[ _]masks?|"
    r"(?:load(?:ing)?|resum(?:e|es|ed|ing)) (?:from )?(?:the )?(?:checkpoints?|ckpts?)|"
    r"(?:checkpoints?|ckpts?) (?:load(?:s|ed|ing)?|resum(?:e|es|ed|ing)))\b"
    r"|(?<![A-Za-z0-9])(?:[a-z0-9]+_)*(?:loss|advantages?|kl|entropy|log_probs?|logprobs?)(?:_[a-z0-9]+)*\b"
    # the same, as Chinese titles say it
    r"|损失|优势|熵|对数概率|奖励(?!模型|服务)|梯度|优化器|学习率|采样|温度|权重同步|参数同步|精度|分词|注意力|打包|评分|打分|掩码"
    r"|填充|归一化|随机种子|分片|加载检查点|断点续训|恢复训练",
    re.I,
)
# What a speed-up works on without changing what is computed: a faster packing, padding, attention kernel,
# weight sync or tokenizer gives the same results sooner, so in a perf title these words are no semantics.
SAME_RESULTS_PERF = re.compile(
    r"^(?:packing|padding|attention|(?:weight|param(?:eter)?)s? (?:sync|update|resharding)|tokeniz\w*|"
    r"打包|填充|注意力|权重同步|参数同步|分词)$",
    re.I,
)
# What only a fix changes the results of: sharding and checkpoint loading decide which weights a rank
# holds or resumes from when they are wrong, but a new sharding scheme or a faster load computes the same.
FIX_ONLY_SEMANTICS = re.compile(
    r"^(?:(?:re)?shard(?:ing|ed)?|(?:load(?:ing)?|resum\w*) (?:from )?(?:the )?(?:checkpoints?|ckpts?)|"
    r"(?:checkpoints?|ckpts?) (?:load\w*|resum\w*)|分片|加载检查点|断点续训|恢复训练)$",
    re.I,
)
# A fix (or perf change) whose title names memory, OOM, a leak or wrong results, in shipped code.
CORE_FIX = 0.8
# A silent failure (a scorer that returns 0 for every sample, a mask shifted by one token) is the worst of
# wrong results: nothing fails, the run trains on them.
CORE_FIX_TITLE = re.compile(
    r"\b(?:oom|out of memory|memory|leaks?|wrong|incorrect(?:ly)?|mismatch\w*|nan|inf|diverg\w*|"
    r"corrupt\w*|precision|accuracy|misalign\w*|off[- ]by[- ]one|silent(?:ly)?|mis-?calculat\w*|"
    r"mis-?comput\w*)\b|显存|内存|泄漏|错误|不一致|错位|错乱|乱码|静默|悄悄|差一",
    re.I,
)
# Shipped code (not tests, docs or examples) changed by at least this many lines makes the three above count.
SHIPPED_CODE_MIN_LINES = 10
# A fix whose description says results were wrong ("could silently shrink the advantages by orders of
# magnitude", "device mismatch", 结果不一致) and that brings a regression test is a correctness fix whatever
# its title says: the test is the evidence a title's word would otherwise give, so it counts as CORE_FIX.
# Such fixes are often a few lines in core code (a formula, a dtype, a default), so they count from this
# many lines of shipped code in core paths. The description is read as far as an author states the
# problem, not to the end, where logs and unrelated notes are. On verl (June 2026 left out), 21 fixes.
WRONG_RESULTS_MIN_LINES = 3
# A fix this small in core code still counts its title's semantics (SEMANTICS): a one-line change to how
# sampling seeds or a loss term are computed changes every run's results.
SMALL_FIX_MIN_LINES = 2
# Such a fix reaches every run however few its lines ("skip the seed when building SamplingParams", +1/−1,
# ended GRPO's collapse to zero advantages), so its size counts as at least this many lines: with its
# semantics and core share it lands at 4.7, above every rename (RELOCATION_CAP) and with the fixes of
# 15–30 lines that name the same, where the line count had left it at 4.0–4.4 among the skims.
SEMANTIC_FIX_LINES = 15
# A fix this small (under SHIPPED_CODE_MIN_LINES) in core code whose title names wrong results ("Correct
# off-by-one error in SFT loss mask slicing", +1/−1: the first generated token was never learned) counts as
# CORE_FIX, and its size as SEMANTIC_FIX_LINES, when a second sign agrees: the title also names what
# training computes, the description says results were wrong, or a regression test comes with it. One
# word is not enough: "Fix wrong import path" is a crash fix, seen at once.
WRONG_RESULTS_PROSE_CHARS = 1500
WRONG_RESULTS = re.compile(
    r"\b(?:silently|incorrect(?:ly)?|wrong(?:ly)?|mismatch(?:es|ed)?|does(?: not|n't) match|diverg\w*|nan|"
    r"corrupt\w*|orders? of magnitude|off-by-one)\b|结果错误|计算错误|不一致|静默",
    re.I,
)
# A move or rename is capped just above the worth-reading line: it is flagged breaking when it is, and
# readers must learn the new name, but from the key points, not by reading the diff closely. So is the
# removal of what was deprecated or unused ("Remove deprecated max_length from DPOConfig", "Drop Python
# 3.8"): readers learn what is gone from the key points.
RELOCATION_CAP = 4.6
RELOCATION_TITLE = re.compile(
    r"^(?:move|moves|moved|rename|renames|renamed|relocate|migrate|reorgani[sz]e|split out|extract)\b|"
    r"^(?:remove[sd]?|drop(?:s|ped)?|delete[sd]?|clean(?:s|ed)? up)\s+(?:the\s+|all\s+)?"
    r"(?:deprecated|legacy|unused|dead|obsolete|outdated)\b|^drop(?:s|ped)?\s+(?:support|python)\b|"
    r"重命名|改名|迁移|移动|(?:移除|删除|去掉|清理)(?:已)?(?:废弃|弃用|过时|无用|未使用)",
    re.I,
)

# Removing code is not adding it: the lines of a file the PR deletes (or only deletes from) count at this
# share of a changed line (what users lose is counted by the removed public definitions and config keys, not by the size).
REMOVED_FILE_LINE_WEIGHT = 0.15
# A diff that mostly deletes (this many times more lines removed than added, at least this many) is a
# removal: like a move, its readers learn what is gone from the key points, so it takes the same cap.
REMOVAL_RATIO = 3.0
REMOVAL_MIN_LINES = 100
# Importance saturates: past this many points each further point counts this share, so a PR that ticks
# every box (breaking, new API, config keys, semantics) stays above the must-read line without crowding
# out the top of the scale, where a week's most consequential change belongs.
IMPORTANCE_KNEE = 7.0
ABOVE_KNEE = 0.5

# --- insight: how much a reader learns from it ------------------------------------------------------

INSIGHT_BASE = 0.3
# Length of the author's own prose (template removed), log scale: 10 words ≈ 1.4, 100 ≈ 2.7, 400 ≈ 3.5.
WORDS_PER_LOG2 = 0.4
WORDS_CAP = 3.4
# Each non-trivial design/motivation/root-cause/results section the author wrote.
DESIGN_SECTION = 0.6
DESIGN_SECTION_CAP = 1.8
DESIGN_SECTION_MIN_WORDS = 15
# A named root cause is the most instructive thing a fix can carry; causal sentences ("because…") less so.
ROOT_CAUSE = 1.0
CAUSAL_PHRASE = 0.15
CAUSAL_CAP = 0.6
# Measurements: a results table, numbers with % / x / units, metric vocabulary, plots.
MEASURE_TABLE = 0.7
MEASURE_NUMBERS = 0.6
METRIC_WORD = 0.15
METRIC_WORD_CAP = 0.6
IMAGE = 0.25
IMAGE_CAP = 0.5
MEASURE_CAP = 2.2
# A written test plan shows how the change was validated.
TEST_SECTION = 0.3
# Tests in the diff are executable documentation of the new behaviour.
TESTS_ADDED = 0.2
# Per type: perf work tends to come with analysis; refactors with design reasoning; chores with neither.
INSIGHT_TYPE: dict[ChangeType, float] = {
    "perf": 0.5,
    "refactor": 0.2,
    "fix": 0.2,
    "feat": 0.2,
    "test": 0.0,
    "doc": 0.0,
    "chore": -0.2,
    "revert": 0.2,
}
# Review discussion carries reasoning the description may not.
REVIEW_INSIGHT_PER_LOG2 = 0.3
REVIEW_INSIGHT_CAP = 1.0

# --- verdict ------------------------------------------------------------------------------------------

# About 4.7% of verl's PRs (129 of 2,745, under two a week): as many as a team can actually read.
MUST_READ_IMPORTANCE = 7.1
# A breaking change is must-read from a lower importance: its readers have to act. Not from just above the
# worth-reading line, where a breaking rename, removal or dropped Python version lands (the relocation cap
# is 4.6): it is flagged breaking without leading the week's reading list. verl's breaking must-reads
# are 6.0 and above, so none moves.
MUST_READ_BREAKING_IMPORTANCE = 6.0
# An exceptional write-up is must-read when the change itself is not negligible.
MUST_READ_INSIGHT = 8.0
MUST_READ_INSIGHT_MIN_IMPORTANCE = 4.0
WORTH_READING_IMPORTANCE = 4.5
WORTH_READING_INSIGHT = 6.0
# A feature is named in the verdict reason when it added at least this many points; size only from this
# many changed lines, core code only from this share of the weighted lines.
REASON_MIN_POINTS = 0.5
REASON_LARGE_LINES = 300
REASON_CORE_SHARE = 0.5
# A skimmed PR below this many changed lines is called "small" in its reason.
SMALL_CHANGE_LINES = 60

# --- risk thresholds ---------------------------------------------------------------------------------

# Code lines (source and scripts outside peripheral paths) from which a change without tests is a risk,
# and from which that risk is medium or high. A fix without a regression test is at least medium.
MISSING_TESTS_MIN_LINES = 30
MISSING_TESTS_MEDIUM_LINES = 120
MISSING_TESTS_HIGH_LINES = 500
# Lines in memory- or distribution-sensitive paths that make a diff "large" there (medium), or very large
# (high when no tests changed); or enough added/removed memory/collective calls in a code change.
SENSITIVE_LINES = 200
SENSITIVE_HIGH_LINES = 800
SENSITIVE_SIGNALS = 4
SENSITIVE_SIGNAL_MIN_CODE_LINES = 80
# A PR this large cannot be reviewed line by line.
HUGE_PR_FILES = 100
HUGE_PR_LINES = 5_000
# Per-category caps on how many similar risks are listed (the rest are summarised as "and N more").
MAX_RISKS = 8
MAX_KEY_POINTS = 6
# Of the key points, the author's lead takes at most this many, and the diff's facts keep at least this
# many places: what the author says and what the code shows both reach the reader.
MAX_LEAD_POINTS = 3
MIN_DIFF_POINTS = 2
# A PR of at most this many changed lines is about the pins it changes, wherever they sit.
PIN_PR_LINES = 10
MAX_FOLLOW_UPS = 5
