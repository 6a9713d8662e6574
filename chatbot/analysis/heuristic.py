"""The heuristic analyzer: the offline default. Deterministic, no network, a few milliseconds per PR.

It turns the features of `features.py` into an `Analysis`: scores from the weights of `weights.py`,
risks with their evidence, a verdict with its reason, key points and follow-ups. Every sentence it
writes comes from `TEXT` below (zh and en side by side)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from chatbot.analysis import weights as w
from chatbot.analysis.boilerplate import Block, plain_text
from chatbot.analysis.features import (
    ConfigChange,
    DependencyChange,
    FileFacts,
    LineHit,
    PRFeatures,
    Rename,
    extract_features,
    file_kind,
    infer_change_type,
    log_scale,
    references,
    ships,
    valid_text,
)
from chatbot.analysis.hazards import CODE_HAZARDS, EnvSet, Hazards, Tests, find_hazards
from chatbot.analysis.lead import (
    ACTION_PREFIX,
    REFERENCE,
    TITLE_MARKERS,
    AuthorText,
    balanced,
    breaking_statement,
    code_identifiers,
    join_unbalanced,
    leans_on_context,
    measured_figures,
    names_unchanged_file,
    read_author_text,
)
from chatbot.analysis.modules import ModuleMap, load_module_map
from chatbot.analysis.reading import reading_start
from chatbot.analysis.reverts import TITLE_NUMBER, RevertClues, revert_clues
from chatbot.analysis.types import (
    Analysis,
    ChangeType,
    ConfigFact,
    ConfigKind,
    LocalizedAnalysis,
    Risk,
    RiskCategory,
    Severity,
    Verdict,
)
from chatbot.models import PullRequest
from chatbot.prose import readable_in

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")

# Every sentence the analyzer writes, Chinese and English side by side. Placeholders are filled with
# PR data (paths, keys, numbers); the PR's own text is only ever quoted, never interpreted.
TEXT: dict[str, dict[Language, str]] = {
    "type.feat": {"zh": "新功能", "en": "feature"},
    "type.fix": {"zh": "修复", "en": "fix"},
    "type.refactor": {"zh": "重构", "en": "refactor"},
    "type.perf": {"zh": "性能优化", "en": "performance change"},
    "type.test": {"zh": "测试", "en": "test change"},
    "type.doc": {"zh": "文档", "en": "documentation"},
    "type.chore": {"zh": "维护性改动", "en": "maintenance"},
    "type.revert": {"zh": "回滚", "en": "revert"},
    "list.sep": {"zh": "、", "en": ", "},
    "list.more": {"zh": "等 {total} 项", "en": " and {more} more"},
    "summary.derived": {
        "zh": "{title}（{type}，涉及 {modules}；{files} 个文件，+{add}/−{dele}）。",
        "en": "{title} ({type} in {modules}; {files} files, +{add}/−{dele}).",
    },
    "summary.no_modules": {"zh": "未识别模块", "en": "unidentified modules"},
    "gist": {"zh": "{module} {type}：{what}", "en": "{module} {type}: {what}"},
    "gist.bare": {"zh": "{type}：{what}", "en": "{type}: {what}"},
    "gist.untyped": {"zh": "{module}：{what}", "en": "{module}: {what}"},
    "gist.focus": {"zh": "{kind}，集中在 {path} 的 {name}", "en": "{kind} centred on {name} in {path}"},
    "gist.what": {"zh": "{kind}：{what}", "en": "{kind}: {what}"},
    "gist.names": {"zh": "{kind}（{names}）", "en": "{kind} ({names})"},
    "gist.symptom": {"zh": "{kind}：{symptom}", "en": "{kind} for {symptom}"},
    "gist.files": {"zh": "{kind}：{path}（共 {n} 个文件）", "en": "{kind} in {path} ({n} files)"},
    # verdict reasons (without the verdict's label: renderers put "必读" / "Must read" in front)
    "reason.join": {"zh": "；", "en": "; "},
    "why.type": {"zh": "{type}", "en": "a {type}"},
    "why.breaking": {"zh": "破坏性变更", "en": "breaking change"},
    "why.size": {
        "zh": "改动较大（{files} 个文件，+{add}/−{dele}）",
        "en": "large change ({files} files, +{add}/−{dele})",
    },
    "why.core": {"zh": "涉及核心代码（{modules}）", "en": "touches core code ({modules})"},
    "why.modules": {"zh": "横跨 {n} 个模块", "en": "spans {n} modules"},
    "why.config_default": {"zh": "修改配置默认值（{keys}）", "en": "changes config defaults ({keys})"},
    "why.api": {"zh": "修改公共接口（{names}）", "en": "changes public API ({names})"},
    "why.api_removed": {"zh": "删除公共接口（{names}）", "en": "removes public API ({names})"},
    "why.config_added": {"zh": "新增配置项（{keys}）", "en": "adds config keys ({keys})"},
    "why.config_removed": {"zh": "删除配置项（{keys}）", "en": "removes config keys ({keys})"},
    "why.cli": {"zh": "新增命令行参数（{args}）", "en": "adds command-line options ({args})"},
    "why.keywords": {"zh": "涉及 {keywords}", "en": "about {keywords}"},
    "why.security": {"zh": "与安全相关", "en": "security-related"},
    "why.dependency": {"zh": "依赖或镜像版本变化", "en": "dependency or image version change"},
    "why.measured": {"zh": "附有实测数据", "en": "backed by measurements"},
    "why.review": {"zh": "评审讨论较多", "en": "much review discussion"},
    "why.words": {"zh": "描述详尽", "en": "a detailed description"},
    "why.design": {"zh": "包含设计说明（{sections}）", "en": "explains its design ({sections})"},
    "why.root_cause": {"zh": "给出了根因分析", "en": "names the root cause"},
    "why.measurements": {"zh": "附有测量结果", "en": "reports measurements"},
    "why.doc_only": {"zh": "仅文档改动", "en": "documentation only"},
    "why.test_only": {"zh": "仅测试改动", "en": "tests only"},
    "why.chore": {"zh": "CI、依赖或脚本等维护性改动", "en": "maintenance of CI, dependencies or scripts"},
    "why.renames": {"zh": "改名或移动（{renames}）", "en": "a rename or move ({renames})"},
    "why.trivial": {
        "zh": "琐碎改动（拼写、格式、链接等）",
        "en": "a trivial change (typo, formatting, links)",
    },
    "why.small": {
        "zh": "改动小（+{add}/−{dele}）且影响面有限",
        "en": "a small change (+{add}/−{dele}) of limited reach",
    },
    "why.peripheral": {
        "zh": "只涉及示例、脚本等外围代码",
        "en": "touches only examples, scripts or other periphery",
    },
    "why.limited": {"zh": "影响面有限", "en": "limited reach"},
    "why.capability": {"zh": "新增能力（{names}）", "en": "a new capability ({names})"},
    "why.semantics": {"zh": "改变训练或推理语义", "en": "changes training or inference semantics"},
    "why.core_fix": {"zh": "修复显存或正确性问题", "en": "fixes a memory or correctness problem"},
    "why.runtime_floor": {
        "zh": "提高最低 {runtime} 版本（{old} → {new}）",
        "en": "raises the minimum {runtime} version ({old} → {new})",
    },
    # keyword names
    "kw.oom": {"zh": "OOM", "en": "OOM"},
    "kw.leak": {"zh": "内存泄漏", "en": "a leak"},
    "kw.deadlock": {"zh": "死锁", "en": "a deadlock"},
    "kw.crash": {"zh": "崩溃", "en": "a crash"},
    "kw.hang": {"zh": "卡死", "en": "a hang"},
    "kw.regression": {"zh": "回归问题", "en": "a regression"},
    "kw.race": {"zh": "竞态", "en": "a race"},
    "kw.nan": {"zh": "NaN/数值问题", "en": "NaN/numerical issues"},
    "kw.corruption": {"zh": "数据损坏", "en": "data corruption"},
    # key points
    "kp.breaking": {"zh": "破坏性变更：{note}", "en": "Breaking change: {note}"},
    "kp.config_default": {
        "zh": "默认值变更：{key} 从 {old} 改为 {new}（{path}）",
        "en": "Default changed: {key} from {old} to {new} ({path})",
    },
    "kp.config_required": {
        "zh": "{key} 不再有默认值（原为 {old}），必须显式设置（{path}）",
        "en": "{key} has no default any more (was {old}) and must be set ({path})",
    },
    # a key that followed another (`${actor.x}`) and is now written here
    "kp.config_unlinked": {
        "zh": "{key} 不再引用 {old}，改为固定值 {new}（{path}）",
        "en": "{key} no longer follows {old}; it is now set to {new} ({path})",
    },
    # an interpolation whose source changed (`${actor.x}` -> `${model.x}`): no default written here
    "kp.config_follows": {
        "zh": "{key} 改为引用 {new}（原为 {old}），默认值随之而定（{path}）",
        "en": "{key} now refers to {new} (was {old}) and takes its value from there ({path})",
    },
    "kp.config_added": {"zh": "新增配置项：{keys}", "en": "New config keys: {keys}"},
    "kp.config_removed": {"zh": "删除配置项：{keys}", "en": "Removed config keys: {keys}"},
    "kp.api_changed": {"zh": "公共接口签名变化：{names}", "en": "Public signatures changed: {names}"},
    "kp.api_extended": {"zh": "新增可选参数：{names}", "en": "New optional parameters: {names}"},
    "kp.api_into_class": {
        "zh": "模块函数变为类方法：{changes}",
        "en": "Module functions now methods: {changes}",
    },
    "kp.api_out_of_class": {
        "zh": "类方法变为模块函数：{changes}",
        "en": "Methods now module functions: {changes}",
    },
    "kp.api_removed": {"zh": "删除公共接口：{names}", "en": "Public definitions removed: {names}"},
    "kp.api_removed_unread": {
        "zh": "从原文件删除的公共接口：{names}（{path} 的补丁未获取，可能移到了那里）",
        "en": "Public definitions removed from their files: {names} ({path} came without its patch; they may have moved there)",
    },
    "kp.cli": {"zh": "新增命令行参数：{args}", "en": "New command-line options: {args}"},
    "kp.measured": {"zh": "实测：{sentence}", "en": "Measured: {sentence}"},
    "kp.dependency": {"zh": "依赖/镜像变化：{changes}", "en": "Dependency/image changes: {changes}"},
    "kp.api_added": {"zh": "新增公共接口：{names}", "en": "New public definitions: {names}"},
    "kp.api_renamed": {"zh": "公共接口改名：{renames}", "en": "Renamed: {renames}"},
    "kp.files_renamed": {
        "zh": "源文件改名或移动：{moves}（{n} 个文件）",
        "en": "Source files renamed or moved: {moves} ({n} files)",
    },
    "kp.config_renamed": {"zh": "配置项改名：{renames}", "en": "Config keys renamed: {renames}"},
    "kp.api_moved": {
        "zh": "公共接口移动位置：{names}（{old} → {new}）",
        "en": "Moved: {names} ({old} → {new})",
    },
    "kp.config_moved": {
        "zh": "配置项移动位置：{keys}（{old} → {new}）",
        "en": "Config keys moved: {keys} ({old} → {new})",
    },
    "kp.cli_removed": {"zh": "删除命令行参数：{args}", "en": "Removed command-line options: {args}"},
    "kp.env_added": {"zh": "新读取的环境变量：{names}", "en": "New environment variables read: {names}"},
    "kp.env_set": {"zh": "设置的环境变量：{assignments}", "en": "Environment variables set: {assignments}"},
    "kp.modules_removed": {"zh": "删除的模块：{modules}", "en": "Modules deleted: {modules}"},
    "kp.env_removed": {
        "zh": "不再读取的环境变量：{names}",
        "en": "Environment variables no longer read: {names}",
    },
    "kp.review": {"zh": "评审：{text}", "en": "Review: {text}"},
    "kp.reverts": {"zh": "回滚 #{number}（{title}）", "en": "Reverts #{number} ({title})"},
    "kp.reverts_number": {"zh": "回滚 #{number}", "en": "Reverts #{number}"},
    "kp.reverts_why": {"zh": "回滚 #{number}，原因：{reason}", "en": "Reverts #{number}, because: {reason}"},
    "kp.reverts_reason": {"zh": "回滚原因：{reason}", "en": "Reverted because: {reason}"},
    "kp.reverts_title": {"zh": "回滚“{title}”", "en": "Reverts “{title}”"},
    "rename": {"zh": "{old} → {new}", "en": "{old} → {new}"},
    # reading guide (must-read and worth-reading PRs)
    "guide.start": {"zh": "从 {path} 的 {name} 读起", "en": "Start reading at {name} in {path}"},
    "guide.start_file": {"zh": "从 {path} 读起", "en": "Start reading at {path}"},
    "guide.design": {"zh": "值得学习的设计：{text}", "en": "Design decision worth learning: {text}"},
    "guide.verify.concurrency": {
        "zh": "验证：{where}经过 `{code}` 的每条路径在各 rank、各线程上都不会卡住",
        "en": "Verify: no path through `{code}` {where} can hang, on any rank or thread",
    },
    "guide.verify.memory": {
        "zh": "验证：{where} `{code}` 前后的峰值显存与释放时机",
        "en": "Verify: peak memory, and when it is freed, around `{code}` {where}",
    },
    "guide.verify.branch": {
        "zh": "验证：{where} `{code}` 的每一侧分支都在对应的{kind}上运行过",
        "en": "Verify: each side of `{code}` {where} has run, on the {kind} it is for",
    },
    "guide.verify.config": {
        "zh": "验证：依赖 {key} 旧默认值（{old}）的运行是否受影响",
        "en": "Verify: runs that relied on the old default of {key} ({old})",
    },
    "guide.verify.dependency": {
        "zh": "验证：镜像与安装文档都能装上 {names}",
        "en": "Verify: images and install docs resolve {names}",
    },
    "guide.verify.compatibility": {
        "zh": "验证：下游调用方与配置文件是否需要随之修改（{evidence}）",
        "en": "Verify: whether downstream callers and config files must change ({evidence})",
    },
    "guide.verify.untested": {
        "zh": "验证：{name} 的新行为目前没有测试覆盖，需要手动确认",
        "en": "Verify: nothing tests the new behaviour of {name} yet; check it by hand",
    },
    "guide.verify.tested": {
        "zh": "验证：{test} 是否覆盖了 {name} 的新行为",
        "en": "Verify: that {test} covers the new behaviour of {name}",
    },
    "guide.verify.unrelated_tests": {
        "zh": "验证：本 PR 改动的测试（{test}）没有提到 {name}，需确认其新行为有测试覆盖",
        "en": "Verify: the tests changed here ({test}) never name {name}; make sure its new behaviour is exercised",
    },
    "guide.verify.claim": {
        "zh": "验证：{name} 是否做到了描述所说的“{claim}”（目前没有测试覆盖）",
        "en": "Verify: that {name} does what the description says (“{claim}”); nothing tests it yet",
    },
    "guide.verify.measured": {
        "zh": "验证：在自己的配置上复现作者报告的结果（{figure}）",
        "en": "Verify: reproduce the reported result on your own setup ({figure})",
    },
    "guide.verify.symptom": {
        "zh": "验证：{name} 修复后不再出现 {symptom}",
        "en": "Verify: {symptom} no longer occurs with the fixed {name}",
    },
    "guide.verify.symptom_bare": {
        "zh": "验证：修复后不再出现 {symptom}",
        "en": "Verify: {symptom} no longer occurs",
    },
    "guide.follow_up": {"zh": "后续：{text}", "en": "Follow-up: {text}"},
    "guide.follow_up_test": {
        "zh": "后续：为 {path} 的 {name} 补充单元测试",
        "en": "Follow-up: add a unit test of {name} in {path}",
    },
    "dep.change": {"zh": "{name} {old} → {new}", "en": "{name} {old} → {new}"},
    "dep.added": {"zh": "新增 {name} {new}", "en": "added {name} {new}"},
    "dep.pinned": {"zh": "{name} 原先不限版本，现为 {version}", "en": "{name} unpinned → {version}"},
    "dep.unpinned": {"zh": "{name} 去掉了版本限制（原为 {version}）", "en": "{name} {version} → unpinned"},
    "dep.removed": {"zh": "移除 {name}", "en": "removed {name}"},
    # risks
    "risk.missing_tests": {
        "zh": "修改了 {lines} 行代码但没有新增或修改测试",
        "en": "{lines} lines of code changed without adding or changing tests",
    },
    "risk.fix_without_test": {
        "zh": "修复了问题但没有回归测试（{lines} 行代码改动）",
        "en": "a fix without a regression test ({lines} lines of code changed)",
    },
    "risk.dependency_key": {
        "zh": "关键依赖版本变化：{changes}；构建可能解析不到新版本，或与其他依赖冲突",
        "en": "Key dependency version change: {changes}; builds may fail to resolve the new versions or conflict with other pins",
    },
    "risk.dependency_unpinned": {
        "zh": "关键依赖不再限定版本：{changes}；新安装会取最新版本，其接口或行为可能已经改变",
        "en": "Key dependency unpinned: {changes}; new installs take the latest release, whose APIs or behaviour may have changed",
    },
    "risk.dependency_removed": {
        "zh": "移除了依赖 {changes}：仍导入它们的代码或镜像需要自行安装，否则在导入时失败",
        "en": "dependencies removed ({changes}): code or images that still import them must install them, or fail at the import",
    },
    "risk.dependency_major": {
        "zh": "依赖跨大版本变化：{changes}，新的大版本常会改变接口或行为",
        "en": "Major version change: {changes}; a new major version often changes APIs or behaviour",
    },
    "risk.image": {
        "zh": "基础镜像换了标签：{changes}，镜像里预装的一切（CUDA、驱动、库）随之一起变化",
        "en": "Base image tag moved: {changes}; everything preinstalled in it (CUDA, drivers, libraries) moves with it",
    },
    "risk.dependency_aside": {
        "zh": "示例、脚本或文档中的依赖版本变化：{changes}（{path}），只影响运行它们的人",
        "en": "Dependency change in examples, scripts or docs: {changes} ({path}); only those who run them are affected",
    },
    "risk.dependency": {
        "zh": "依赖或镜像版本变化：{changes}",
        "en": "Dependency or image version change: {changes}",
    },
    "risk.breaking": {
        "zh": "破坏性变更，下游的配置、命令行或调用代码可能需要修改",
        "en": "breaking change: downstream configs, command lines or callers may need updating",
    },
    "risk.breaking_said": {"zh": "破坏性变更：{said}", "en": "breaking change: {said}"},
    "risk.breaking_said_diff": {
        "zh": "破坏性变更：{said}（{changes}）",
        "en": "breaking change: {said} ({changes})",
    },
    "risk.breaking_diff": {
        "zh": "破坏性变更：{changes}，下游的配置、命令行或调用代码需随之修改",
        "en": "breaking change: {changes}; downstream configs, command lines and callers must follow",
    },
    "risk.breaking_unsaid": {
        "zh": "破坏性变更；描述中写道：{opening}",
        "en": "breaking change; the description says: {opening}",
    },
    "brk.renamed": {"zh": "{old} 改名为 {new}", "en": "{old} renamed to {new}"},
    "brk.removed": {"zh": "删除 {name}", "en": "{name} removed"},
    "brk.default": {"zh": "{key} 默认值 {old} → {new}", "en": "{key} defaults to {new} (was {old})"},
    "brk.required": {"zh": "{key} 必须显式设置（原默认 {old}）", "en": "{key} must now be set (was {old})"},
    "brk.signature": {"zh": "签名 {old} 改为 {new}", "en": "signature {old} becomes {new}"},
    "brk.rehomed": {"zh": "{old} 变为 {new}", "en": "{old} becomes {new}"},
    "risk.runtime_floor": {
        "zh": "最低 {runtime} 版本提高：{old} → {new}（{path}），仍在用更早版本的用户将无法安装或构建",
        "en": "The minimum {runtime} rises from {old} to {new} ({path}); users on an older {runtime} can no longer install or build it",
    },
    "fu.runtime_floor": {
        "zh": "在发布说明里写明支持的最低版本",
        "en": "State the new minimum version in the release notes",
    },
    "risk.caveat": {"zh": "作者提醒：{said}", "en": "The author warns: {said}"},
    "risk.caveat_review": {"zh": "评审 @{reviewer} 提醒：{said}", "en": "Reviewer @{reviewer} warns: {said}"},
    "risk.caveat_unread": {
        "zh": "描述中提醒了{harm}的可能",
        "en": "The description warns of {harm} (in Chinese); read its note before upgrading",
    },
    "harm.loss": {"zh": "数据丢失", "en": "data loss"},
    "harm.memory": {"zh": "内存增长", "en": "higher memory use"},
    "harm.slower": {"zh": "变慢", "en": "slower runs"},
    "harm.incompatible": {"zh": "需要使用方改动", "en": "changes users must make"},
    "harm.failure": {"zh": "失败或崩溃", "en": "failures"},
    "harm.surprise": {"zh": "行为意外变化", "en": "surprising behaviour"},
    "risk.api_removed": {
        "zh": "删除了公共接口 {names}，外部调用方会失效",
        "en": "public definitions removed ({names}); external callers will break",
    },
    "risk.api_renamed": {
        "zh": "公共接口改名（{renames}），按旧名调用的代码会失效",
        "en": "public definitions renamed ({renames}); callers using the old names will break",
    },
    "risk.api_removed_unread": {
        "zh": "公共接口 {names} 从原文件删除；{path} 的补丁未获取，无法确认它们是否移到了那里，外部调用方可能失效",
        "en": "public definitions removed from their files ({names}); {path} came without its patch, so whether they moved there is unknown and external callers may break",
    },
    "risk.config_removed": {
        "zh": "删除了配置项 {keys}，旧配置文件可能报错",
        "en": "config keys removed ({keys}); old config files may fail",
    },
    "risk.files_renamed": {
        "zh": "源文件改名或移动（{moves}），仍从 {old} 导入的代码会失效，除非旧路径保留了转发",
        "en": "source files renamed or moved ({moves}); code importing from {old} breaks unless the old path re-exports them",
    },
    "risk.config_renamed": {
        "zh": "配置项改名（{renames}），仍设置 {old} 的旧配置文件会报错或被忽略",
        "en": "config keys renamed ({renames}); old config files that still set {old} fail or are ignored",
    },
    "risk.config_default": {
        "zh": "默认值被修改：{changes}，未显式设置的用户和调用方行为会改变",
        "en": "defaults changed ({changes}); users and callers relying on them get new behaviour",
    },
    # a memory or synchronisation call the diff adds or removes: what it is, where, and what can go wrong
    "risk.call": {"zh": "{where}{sign} `{code}`：{mechanism}", "en": "`{code}` {sign} {where}: {mechanism}"},
    "risk.call_more": {
        "zh": "{where}{sign} `{code}`（共 {n} 处）：{mechanism}",
        "en": "`{code}` {sign} {where} ({n} such calls): {mechanism}",
    },
    "call.where": {"zh": "{path} 的 {function} 中", "en": "in {function} ({path})"},
    "call.where_file": {"zh": "{path} 中", "en": "in {path}"},
    "call.added": {"zh": "新增", "en": "added"},
    "call.removed": {"zh": "删除了", "en": "removed"},
    "mech.collective": {
        "zh": "每个 rank 都必须以相同顺序执行到这次集合通信，有 rank 走了别的分支就会卡死",
        "en": "every rank must reach this collective in the same order; a rank on another branch hangs the job",
    },
    "mech.collective_removed": {
        "zh": "依赖这次同步的 rank 可能读到尚未就绪的数据",
        "en": "ranks that relied on this synchronisation may read data that is not ready yet",
    },
    "mech.group": {
        "zh": "所有 rank 都必须以相同顺序创建这个进程组，否则初始化会卡住",
        "en": "every rank must create this process group, in the same order, or initialisation hangs",
    },
    "mech.lock": {
        "zh": "不同路径上加锁顺序不一致会死锁，持锁时的阻塞调用会拖住其他线程",
        "en": "locks taken in different orders deadlock, and a blocking call made under one stalls other threads",
    },
    "mech.event_loop": {
        "zh": "在已有事件循环运行的线程里再创建或运行循环会报错或阻塞",
        "en": "creating or running an event loop on a thread that already runs one fails or blocks",
    },
    "mech.ray_get": {
        "zh": "ray.get 会阻塞调用方直到结果返回，在循环里逐个等待会把并行变成串行",
        "en": "ray.get blocks until its result arrives; waiting one by one in a loop serialises the work",
    },
    "mech.workers": {
        "zh": "与工作线程或进程共享的状态需要同步，异常也需要传回主线程",
        "en": "state shared with the worker threads or processes needs synchronising, and their errors passing back",
    },
    "mech.sync_removed": {
        "zh": "需确认原先靠它保证的同步或顺序仍然成立",
        "en": "check that what it synchronised or ordered still holds",
    },
    "mech.freeing_removed": {
        "zh": "这部分显存不再及时释放，峰值显存可能上升",
        "en": "that memory is no longer released there, so peak memory may rise",
    },
    "mech.offload": {
        "zh": "被卸载的参数或状态必须在下次使用前加载回设备，漏掉一条路径就会出错或变慢",
        "en": "what is offloaded must be loaded back before its next use; a path that misses it fails or slows down",
    },
    "mech.host_copy": {
        "zh": "每次调用都会同步设备并把张量拷贝到主机内存",
        "en": "each call synchronises the device and copies the tensor to host memory",
    },
    "mech.empty_cache": {
        "zh": "每次调用都会同步设备并归还缓存，放在每步或循环里会拖慢训练",
        "en": "each call synchronises the device and returns the cache; once per step or in a loop it slows training",
    },
    "mech.pinned": {
        "zh": "锁页内存占用主机内存且不能换出，缓冲区大时会挤占主机内存",
        "en": "pinned memory holds host RAM that cannot be swapped; large buffers crowd the host",
    },
    "mech.freeing": {
        "zh": "只有在没有其他引用持有这些张量时显存才会真正释放",
        "en": "the memory is freed only once no other reference holds the tensors",
    },
    "risk.tests_removed": {"zh": "删除了测试：{paths}", "en": "tests removed: {paths}"},
    "risk.todo": {"zh": "{path} 新增 TODO：“{text}”{more}", "en": "TODO added in {path}: “{text}”{more}"},
    "risk.todo_more": {"zh": "（共 {n} 处）", "en": " ({n} in all)"},
    "risk.platform_branch": {
        "zh": "{where}新增按{kind}分支的代码 `{code}`{more}：{mechanism}",
        "en": "a {kind} branch `{code}` added {where}{more}: {mechanism}",
    },
    "risk.platform_more": {"zh": "（共 {n} 处）", "en": " ({n} such branches)"},
    "platform.version": {"zh": "版本", "en": "version"},
    "platform.device": {"zh": "硬件", "en": "hardware"},
    "mech.version_branch": {
        "zh": "两侧的分支各只在一部分版本上运行，一个 CI 镜像只测得到其中一支",
        "en": "each side runs only on some versions, and one CI image tests only one of them",
    },
    "mech.device_branch": {
        "zh": "每个分支只在对应的硬件上运行，没有该硬件的 CI 执行不到它",
        "en": "each branch runs only on its own hardware, which a CI without that hardware never executes",
    },
    "risk.platform_file": {
        "zh": "{path} 只在特定硬件上运行，没有该硬件的 CI 执行不到它",
        "en": "{path} runs only on particular hardware, which a CI without it never executes",
    },
    "risk.security": {
        "zh": "新增了潜在不安全的调用（{n} 处）；不可信输入可能借此执行代码",
        "en": "{n} potentially unsafe calls added; untrusted input could run code through them",
    },
    "risk.unsafe_call": {
        "zh": "{path} 新增 `{code}`{more}：{mechanism}",
        "en": "`{code}` added in {path}{more}: {mechanism}",
    },
    "mech.torch_load": {
        "zh": "没有 weights_only=True 的 torch.load 会反序列化 pickle，文件里的任意代码都会执行",
        "en": "torch.load without weights_only=True unpickles the file, running any code it holds",
    },
    "mech.pickle": {
        "zh": "反序列化来源不可信的数据会执行其中的任意代码",
        "en": "unpickling data from an untrusted source runs any code it holds",
    },
    "mech.remote_code": {
        "zh": "会执行模型仓库自带的 Python 代码",
        "en": "it runs the Python code shipped with the model repository",
    },
    "mech.shell": {
        "zh": "命令经 shell 解析，参数里的 shell 语法会被当作命令执行",
        "en": "a shell parses the command, so shell syntax in an argument runs as a command",
    },
    "mech.yaml_load": {
        "zh": "不指定安全 Loader 的 yaml.load 可以构造任意对象",
        "en": "yaml.load without a safe Loader can construct arbitrary objects",
    },
    "mech.eval": {
        "zh": "传入的字符串会被当作代码执行",
        "en": "whatever string reaches it runs as code",
    },
    "risk.tls_off": {
        "zh": "{path} 关闭了 TLS 证书校验（`{code}`）{more}：从这里下载的代码和包不再校验来源，网络路径上的任何人都能替换它们",
        "en": "TLS certificate checks turned off in {path} (`{code}`){more}: what is fetched there is no longer authenticated, so anyone on the network path can substitute the code or packages",
    },
    "risk.tls_more": {"zh": "（共 {n} 处）", "en": " ({n} such lines)"},
    "risk.env_set": {
        "zh": "{where}设置了环境变量 {assignments}：它们作用于整个进程及其启动的每个库和子进程，会覆盖用户自己导出的值",
        "en": "environment variables set {where}: {assignments}; they apply to the whole process and every library and child process it starts, overriding what a user exported",
    },
    "risk.on_by_default": {
        "zh": "新增的 {keys} 默认开启（{path}）：没有设置它的现有运行会直接得到新行为",
        "en": "new option {keys} is on by default ({path}): existing runs that never set it get the new behaviour without opting in",
    },
    "risk.on_by_default_many": {
        "zh": "新增的 {keys} 默认开启（{path}）：没有设置它们的现有运行会直接得到新行为",
        "en": "new options {keys} are on by default ({path}): existing runs that never set them get the new behaviour without opting in",
    },
    "risk.modules_removed": {
        "zh": "删除了模块 {modules}：仍导入它们的下游代码会在导入时失败",
        "en": "modules deleted ({modules}); downstream code that still imports them fails at the import",
    },
    "risk.mask_edit": {
        "zh": "{where}改动了掩码（`{code}`）：哪些 token 计入损失、价值或优势随之改变，结果可能与之前的运行不可比",
        "en": "masking changed {where} (`{code}`): which tokens count in the loss, values or advantages changes with it, so results may not match earlier runs",
    },
    # tests that assert nothing, and mechanisms read from the code a PR adds (hazards.CodeHazard)
    "risk.hollow_test": {
        "zh": "新增的测试没有任何断言（{path}：{names}）：只要代码不崩溃就会通过",
        "en": "the added test asserts nothing ({path}: {names}): it passes whatever the code does, short of crashing",
    },
    "risk.hollow_tests": {
        "zh": "新增的测试没有任何断言（{path}：{names}）：只要代码不崩溃就会通过",
        "en": "the added tests assert nothing ({path}: {names}): they pass whatever the code does, short of crashing",
    },
    "risk.untested_hollow": {
        "zh": "修改了 {lines} 行代码，而新增的测试没有任何断言（{path}：{names}）：只要代码不崩溃就会通过",
        "en": "{lines} lines of code changed, and the only tests added assert nothing ({path}: {names}): they pass whatever the code does, short of crashing",
    },
    "fu.hollow_test": {
        "zh": "为 {path} 的 {name} 补充断言，检查代码的返回值或行为",
        "en": "Add assertions to {name} ({path}) on what the code returns or does",
    },
    "risk.token_unverified": {
        "zh": "{where}的 `{code}` 读取令牌时不校验签名：任何人都能伪造带任意声明的令牌",
        "en": "`{code}` {where} reads the token without verifying its signature: anyone can forge a token with any claims",
    },
    "risk.token_checks_off": {
        "zh": "{where}的 `{code}` 关闭了令牌声明的校验：过期的令牌仍会被接受",
        "en": "`{code}` {where} turns off the checks of the token's claims: expired tokens are still accepted",
    },
    "risk.token_no_expiry": {
        "zh": "{where}的 `{code}` 会接受不带过期时间的令牌：改动中没有要求或检查 exp 声明，这样的令牌永久有效",
        "en": "`{code}` {where} accepts a token that carries no expiry: nothing in the diff requires or checks its exp claim, so such a token stays valid for ever",
    },
    "fu.token": {
        "zh": "补充测试：{function} 应拒绝过期、缺少过期时间或签名无效的令牌",
        "en": "Add a test that {function} rejects expired, non-expiring and badly signed tokens",
    },
    "risk.lock_return": {
        "zh": "{where}的 `{code}` 与解锁之间有 return，锁不会被释放：下一个调用方会永远阻塞",
        "en": "a return between `{code}` and its unlock {where} leaves the lock held: the next caller blocks for ever",
    },
    "risk.lock_unreleased": {
        "zh": "{where}的 `{code}` 在函数内从未解锁：除非别处解锁，下一个调用方会永远阻塞",
        "en": "`{code}` {where} is never unlocked in that function: unless other code unlocks it, the next caller blocks for ever",
    },
    "fu.lock": {
        "zh": "在 {function} 中加锁后立即用 defer（或 finally）解锁",
        "en": "Unlock with defer (or in a finally block) right after the lock in {function}",
    },
    "risk.goroutine": {
        "zh": "{where}启动的 goroutine 无限循环且没有退出途径（没有 context、done 通道或 Stop）：每调用一次就泄漏一个 goroutine",
        "en": "the goroutine started {where} loops for ever and nothing stops it (no context, done channel or Stop): each call leaks one goroutine",
    },
    "risk.task": {
        "zh": "{where}的 `{code}` 丢弃了任务句柄，任务无限循环：没有办法停止它，它失败了也没人知道",
        "en": "`{code}` {where} drops the task's handle and the task loops for ever: nothing can stop it or see it fail",
    },
    "risk.timer": {
        "zh": "{where}的 `{code}` 从未被清除（改动中没有任何代码停止它）：每调用一次就多一个永远运行的定时器",
        "en": "`{code}` {where} is never cleared (nothing in the diff stops it): each call adds a timer that runs for ever",
    },
    "risk.thread": {
        "zh": "{where}的 `{code}` 启动的线程既没有 join 也不是守护线程：它运行时进程无法退出，它抛出的异常只会被打印",
        "en": "`{code}` {where} starts a thread that is neither joined nor a daemon: the process cannot exit while it runs, and an exception in it is only printed",
    },
    "fu.stoppable": {
        "zh": "让 {function} 启动的后台任务可以停止（context 或 stop 调用），并补充停止它的测试",
        "en": "Give what {function} starts a way to stop (a context or a stop call), and a test that stops it",
    },
    "risk.perf_unmeasured": {
        "zh": "声称性能优化但描述中没有测量数据",
        "en": "claims a performance gain without measurements in the description",
    },
    "risk.huge": {
        "zh": "超大 PR（{files} 个文件，+{add}/−{dele}），难以逐行评审{cut}",
        "en": "very large PR ({files} files, +{add}/−{dele}); hard to review line by line{cut}",
    },
    "risk.huge_cut": {
        "zh": "；其中 {n} 个文件的补丁被截断未能获取，这些改动未经分析",
        "en": "; the patches of {n} of its files were cut and never fetched, so those changes were not analysed",
    },
    # follow-ups
    "fu.add_test": {"zh": "为 {path} 的改动补充单元测试", "en": "Add a unit test for the change in {path}"},
    "fu.regression_test": {
        "zh": "为 {path} 的修复补充回归测试",
        "en": "Add a regression test for the fix in {path}",
    },
    "fu.release_note": {
        "zh": "在发布说明中注明 {key} 的默认值从 {old} 改为 {new}",
        "en": "Note in the release notes that {key} now defaults to {new} (was {old})",
    },
    "fu.migration": {"zh": "为下游用户补充迁移说明", "en": "Write migration notes for downstream users"},
    "fu.dependency": {
        "zh": "确认 {names} 的新版本在 CI 镜像与安装文档中保持一致",
        "en": "Check that the new versions of {names} match the CI images and install docs",
    },
    "fu.tests_removed": {
        "zh": "确认 {path} 中删除的测试所覆盖的场景仍有测试",
        "en": "Make sure what the tests removed from {path} covered is still tested",
    },
    "fu.todo": {"zh": "跟踪 {path} 中新增的 TODO", "en": "Track the TODO added in {path}"},
    "fu.version_branch": {
        "zh": "在检查两侧的版本上各运行一次 {where}的测试",
        "en": "Run the tests of the code {where} on a version on each side of the check",
    },
    "fu.device_branch": {
        "zh": "在 {where}各分支对应的硬件上各跑一次端到端测试",
        "en": "Run an end-to-end test on the hardware of each branch {where}",
    },
    "fu.measure": {
        "zh": "补充性能测量数据（吞吐、显存、耗时）",
        "en": "Add measurements (throughput, memory, time)",
    },
    "fu.doc_config": {"zh": "在文档中说明新增配置项 {keys}", "en": "Document the new config keys {keys}"},
    "fu.collective_test": {
        "zh": "为 {function} 补充多进程测试（如 2 个进程的 gloo 进程组），覆盖 `{code}` 所在的每条分支",
        "en": "Add a multi-process test of {function} (a 2-process gloo group, say) covering each branch that reaches `{code}`",
    },
    "fu.peak_memory": {
        "zh": "在相同配置下对比 {function} 改动前后的峰值显存",
        "en": "Compare the peak memory of {function} before and after the change, on the same setup",
    },
    "fu.security": {"zh": "评审 {path} 中新增的不安全调用", "en": "Review the unsafe call added in {path}"},
    "fu.tls_off": {
        "zh": "改为安装所需的 CA 证书，恢复 {path} 中的证书校验",
        "en": "Install the CA certificate that is needed instead, and restore certificate checks in {path}",
    },
    "fu.mask_edit": {
        "zh": "用含 padding 的小批次对比 {function} 改动前后的输出",
        "en": "Compare the output of {function} before and after the change on a small batch with padding",
    },
}

_SUMMARY_HEADING = re.compile(
    r"what does this pr do|summary|description|overview|motivation|background|what|概述|简介|背景|说明", re.I
)
_SENTENCE_CUT = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?。！？；;](?=\s|$)")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_HAN_SPACE = re.compile(r"(?<=[\u4e00-\u9fff]) +(?=[\u4e00-\u9fff])")
# A title's `[module]` tags and `type(scope):` marker: a reverted title is quoted without them.
_DESIGN_CUE = re.compile(
    r"\b(?:instead of|rather than|so that|trade-?offs?|because|to avoid|in order to|the idea is|we chose|"
    r"(?:is|are|was|were) (?:chosen|preferred))\b|而不是|为了|从而|避免|因为|取舍",
    re.I,
)
_WORDS = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]")
_FILLER_WORDS = frozenset(
    {"a", "an", "the", "this", "pr", "to", "for", "of", "in", "and", "with", "on", "it"}
)


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A word without its inflection, so "adds", "added" and "add" (or "fixes", "fixed") compare equal."""
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


# Words of any change ("adds support for", "本 PR 新增…功能"): a sentence made of the title's words and
# these says nothing the title does not. Han characters count one by one, as `_WORDS` splits them.
_CHANGE_VOCABULARY = """
    add support new feature implement implementation enable introduce change update code file patch allow
    provide bug issue problem fix logic functionality option related corresponding some minor small simple
    backend module component also now which that be is are we by from as at so not do does can will our
    us make ensure
    本 该 此 个 了 的 在 中 对 为 和 与 及 新 增 加 添 支 持 修 复 功 能 一 些 用 于 将 把 进 行
"""
_GENERIC_WORDS = _FILLER_WORDS | frozenset(_stem(word) for word in _CHANGE_VOCABULARY.split())
GIST_CHARS = 120
_SEVERITY_ORDER: dict[Severity, int] = {"high": 0, "medium": 1, "low": 2}
SUMMARY_CHARS = 300
POINT_CHARS = 160
# A sentence with two words of its own restates the title when it has at least this many times as many.
RESTATED_SHARE = 4
# More words of its own than the title's modules, their folders and its acronyms could account for.
RESTATED_MAX_OWN = 6
CAPTION_CHARS = 100
CALL_CHARS = 60
TODO_CHARS = 100
_FIGURE_MARK = re.compile(r"%|→|->|=>")


def say(message: str, language: Language, /, **values: object) -> str:
    """The sentence `message` (a key of TEXT) in `language`, with its placeholders filled. In Chinese a
    space that a template keeps for a Latin value (`涉及 {keywords}`) goes when the value is Chinese
    (`涉及死锁`, not `涉及 死锁`)."""
    text = TEXT[message][language].format(**values)
    return _HAN_SPACE.sub("", text) if language == "zh" and " " in text else text


def _join(items: Iterable[str], language: Language, limit: int = 3) -> str:
    """`a、b、c 等 5 项` / `a, b, c and 2 more` (Chinese counts all, English the rest)."""
    values = list(dict.fromkeys(items))
    shown = TEXT["list.sep"][language].join(values[:limit])
    more = len(values) - limit
    return shown + (say("list.more", language, total=len(values), more=more) if more > 0 else "")


def _clip(text: str, limit: int) -> str:
    """Text cut at a sentence end (or a word) before `limit` characters."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_CUT.finditer(text, 0, limit) if balanced(text[: m.end()])]
    if ends and ends[-1] >= limit // 2:
        return text[: ends[-1]]
    cut = text.rfind(" ", limit // 2, limit - 1)
    return text[: cut if cut > 0 else limit - 1].rstrip(",;:，、 ") + "…"


def _clip_evidence(evidence: str, limit: int) -> str:
    """A risk's evidence (`path: what changed`) within `limit` characters without cutting its path: when
    the whole does not fit, the path alone, which is what a reader opens."""
    path, _, detail = evidence.partition(": ")
    if len(evidence) <= limit or not detail or " " in path:
        return _clip(evidence, limit)
    return path


def _count(n: int) -> str:
    return f"{n:,}"


@dataclass(frozen=True, slots=True)
class Contribution:
    """Points one feature added to a score, kept so the verdict can say why."""

    key: str
    points: float


def _total(parts: Iterable[Contribution]) -> float:
    return round(min(10.0, max(0.0, sum(p.points for p in parts))), 1)


def importance_parts(f: PRFeatures, change_type: ChangeType, modules: tuple[str, ...]) -> list[Contribution]:
    """The importance features of one PR with their points (see weights.py for each value's reason)."""
    # A chore that is mostly a change of shipped code changes what users run, as a refactor does: its label
    # says no more than that it adds no feature, and repositories label such PRs `chore`, `refactor` or
    # nothing. A bump or CI change that adapts a few call sites stays a chore.
    shipped = change_type == "chore" and 2 * f.code_lines >= max(f.total_lines, 2 * w.SHIPPED_CODE_MIN_LINES)
    parts = [Contribution("type", w.IMPORTANCE_BASE["refactor" if shipped else change_type])]
    if f.breaking:
        parts.append(Contribution("breaking", w.BREAKING))
    # A fix of what training computes in core code reaches every run, however few its lines.
    reaches_every_run = _semantic_core_fix(f, change_type) or _small_wrong_results_fix(f, change_type)
    lines = max(f.weighted_lines, w.SEMANTIC_FIX_LINES if reaches_every_run else 0)
    parts.append(Contribution("size", min(w.SIZE_CAP, w.SIZE_PER_LOG2 * log_scale(lines))))
    parts.append(Contribution("core", w.CORE_SHARE * f.core_share))
    parts.append(Contribution("modules", min(w.EXTRA_MODULE_CAP, w.EXTRA_MODULE * max(0, len(modules) - 1))))
    # Keys count once however many config files repeat them (verl mirrors keys across trainer yamls).
    defaults = len(_changed_defaults(f))
    added = len({c.key for c in f.config_changes if c.old is None})
    # A renamed key breaks the configs that set it, as a removed one does.
    removed = len({c.key for c in f.config_changes if c.new is None} | {r.old for r in f.config_renamed})
    each = w.USER_VISIBLE_MAX_EACH
    if change_type == "revert":
        # What a revert adds and removes is the undone change's: only the defaults it sets back count.
        added = removed = 0
    visible = (
        w.CONFIG_DEFAULT_CHANGED * min(defaults, each)
        + w.CONFIG_KEY_ADDED * min(added, each)
        + w.CONFIG_KEY_REMOVED * min(removed, each)
        + (0 if change_type == "revert" else w.API_CHANGED * min(len(f.api_changed) + len(_rehomed(f)), each))
        # A renamed definition breaks its callers as a removed one does.
        + (
            0
            if change_type == "revert"
            else w.API_REMOVED * min(len(f.api_removed) + len(f.api_renamed), each)
        )
        + (0 if change_type == "revert" else w.CLI_ARG_ADDED * min(len(f.cli_args), each))
    )
    parts.append(Contribution("user_visible", min(w.USER_VISIBLE_CAP, visible)))
    severe = [k for k in f.keywords if k in w.SEVERE_KEYWORDS]
    if severe:
        in_title = any(k in w.SEVERE_KEYWORDS for k in f.title_keywords)
        points = (w.KEYWORD_TITLE if in_title else w.KEYWORD_BODY) + w.KEYWORD_MORE * (len(severe) - 1)
        parts.append(Contribution("keywords", min(w.KEYWORD_CAP, points)))
    if "security" in f.keywords:
        parts.append(Contribution("security", w.SECURITY))
    if f.dependency_changes:
        key = any(d.key for d in f.dependency_changes)
        parts.append(Contribution("dependency", w.KEY_DEPENDENCY if key else w.DEPENDENCY))
    if _runtime_floor(f) is not None:
        parts.append(Contribution("runtime_floor", w.RUNTIME_FLOOR_RAISED))
    if f.measurements.found:
        parts.append(Contribution("measured", w.MEASURED))
    if f.review.total:
        review = w.REVIEW_PER_LOG2 * log_scale(f.review.total)
        review += w.CHANGES_REQUESTED if f.review.changes_requested else 0.0
        parts.append(Contribution("review", min(w.REVIEW_CAP, review)))
    if w.TRIVIAL_TITLE.search(f.title.description) and not f.breaking and not _renames_public(f):
        parts.append(Contribution("trivial", w.TRIVIAL))
    parts += _substance_parts(f, change_type)
    total = sum(p.points for p in parts)
    removal = f.deletions >= max(w.REMOVAL_MIN_LINES, w.REMOVAL_RATIO * f.additions)
    if (removal or w.RELOCATION_TITLE.search(f.title.description)) and total > w.RELOCATION_CAP:
        parts.append(Contribution("relocation", w.RELOCATION_CAP - total))
    elif total > w.IMPORTANCE_KNEE:
        parts.append(Contribution("saturation", (total - w.IMPORTANCE_KNEE) * (w.ABOVE_KNEE - 1.0)))
    return parts


def _runtime_floor(f: PRFeatures) -> tuple[str, str, str] | None:
    """The first raised minimum language version the PR declares (runtime, old, new), if any."""
    for d in f.dependency_changes:
        floor = _raised_runtime_floor(d)
        if floor is not None:
            return _RUNTIMES[d.name], *floor
    return None


def _renames_public(f: PRFeatures) -> bool:
    """Whether the diff renames, moves or re-homes a public definition or a config key: a rename its users
    must follow is no trivial change, whatever the title calls it."""
    return bool(
        f.api_renamed or f.api_moved or f.config_renamed or f.config_moved or f.files_renamed or _rehomed(f)
    )


def names_semantics(change_type: str, title: str) -> bool:
    """Whether a feature, fix or speed-up names in its title (its description, without tags) what
    training or inference computes: a loss, advantage, sampling, weight sync, precision…; the
    "changes training or inference semantics" signal of importance, which questions filter by too. A
    speed-up of packing, padding, attention or weight sync computes the same results faster, and only a
    fix of sharding or checkpoint loading changes what is computed."""
    if change_type not in w.SEMANTIC_TYPES:
        return False
    return any(
        (change_type != "perf" or not w.SAME_RESULTS_PERF.match(word))
        and (change_type == "fix" or not w.FIX_ONLY_SEMANTICS.match(word))
        for word in (m.group(0) for m in w.SEMANTICS_TITLE.finditer(title))
    )


def _semantic_core_fix(f: PRFeatures, change_type: ChangeType) -> bool:
    """A fix in core code whose title names what training or inference computes ("fix the seed reused
    in random sampling", "修复 KL 损失的符号"): however small, what its readers' results depend on."""
    title = f.title.description
    return (
        change_type == "fix"
        and f.core_share > 0
        and f.code_lines >= w.SMALL_FIX_MIN_LINES
        and names_semantics(change_type, title)
        # "Remove deprecated optimizer args" takes a knob away; it changes no computation.
        and not w.RELOCATION_TITLE.search(title)
    )


def _substance_parts(f: PRFeatures, change_type: ChangeType) -> list[Contribution]:
    """What the change does to users: a new capability, changed semantics, a memory or correctness fix."""
    title = f.title.description
    if f.code_lines < w.SHIPPED_CODE_MIN_LINES:
        parts = [Contribution("semantics", w.SEMANTICS)] if _semantic_core_fix(f, change_type) else []
        if _fixes_wrong_results(f, change_type) or _small_wrong_results_fix(f, change_type):
            parts.append(Contribution("core_fix", w.CORE_FIX))
        return parts
    parts = []
    if change_type == "feat" and f.api_added:
        added = min(w.NEW_CAPABILITY_CAP, w.NEW_CAPABILITY_EACH * len(f.api_added))
        parts.append(Contribution("capability", added))
    if names_semantics(change_type, title):
        parts.append(Contribution("semantics", w.SEMANTICS))
    if (change_type in ("fix", "perf") and w.CORE_FIX_TITLE.search(title)) or _fixes_wrong_results(
        f, change_type
    ):
        parts.append(Contribution("core_fix", w.CORE_FIX))
    return parts


def _small_wrong_results_fix(f: PRFeatures, change_type: ChangeType) -> bool:
    """A fix of a few lines in core code whose title names wrong results (off-by-one, wrong, silent…)
    and a second sign agrees: the title names what training computes, the description says results were
    wrong, or a regression test comes with it."""
    title = f.title.description
    return (
        change_type == "fix"
        and f.core_share > 0
        and w.SMALL_FIX_MIN_LINES <= f.code_lines < w.SHIPPED_CODE_MIN_LINES
        and bool(w.CORE_FIX_TITLE.search(title))
        and not w.RELOCATION_TITLE.search(title)
        and (
            names_semantics(change_type, title)
            or f.tests_changed
            or bool(w.WRONG_RESULTS.search(f.body.prose[: w.WRONG_RESULTS_PROSE_CHARS]))
        )
    )


def _fixes_wrong_results(f: PRFeatures, change_type: ChangeType) -> bool:
    """A fix of core code whose description says results were wrong and that adds a regression test."""
    return (
        change_type == "fix"
        and f.tests_changed
        and f.core_share > 0
        and f.code_lines >= w.WRONG_RESULTS_MIN_LINES
        and bool(w.WRONG_RESULTS.search(f.body.prose[: w.WRONG_RESULTS_PROSE_CHARS]))
    )


def insight_parts(f: PRFeatures, change_type: ChangeType) -> list[Contribution]:
    """The insight features of one PR with their points."""
    m = f.measurements
    measured = (
        (w.MEASURE_TABLE if m.tables else 0.0)
        + (w.MEASURE_NUMBERS if (m.percents or m.speedups or m.unit_numbers) else 0.0)
        + min(w.METRIC_WORD_CAP, w.METRIC_WORD * m.metric_words)
        + min(w.IMAGE_CAP, w.IMAGE * m.images)
    )
    parts = [
        Contribution("base", w.INSIGHT_BASE),
        Contribution("type", w.INSIGHT_TYPE[change_type]),
        Contribution("words", min(w.WORDS_CAP, w.WORDS_PER_LOG2 * log_scale(f.words))),
        Contribution("design", min(w.DESIGN_SECTION_CAP, w.DESIGN_SECTION * len(f.design_sections))),
        Contribution("root_cause", w.ROOT_CAUSE if f.root_cause else 0.0),
        Contribution("causal", min(w.CAUSAL_CAP, w.CAUSAL_PHRASE * f.causal_phrases)),
        Contribution("measurements", min(w.MEASURE_CAP, measured)),
        Contribution("test_section", w.TEST_SECTION if f.test_section else 0.0),
        Contribution("tests", w.TESTS_ADDED if f.tests_changed else 0.0),
    ]
    if f.review.total:
        parts.append(
            Contribution(
                "review", min(w.REVIEW_INSIGHT_CAP, w.REVIEW_INSIGHT_PER_LOG2 * log_scale(f.review.total))
            )
        )
    return parts


# --- risks and follow-ups ----------------------------------------------------------------------------


class _Findings:
    """Risks and the follow-ups that would address them, collected in rule order, duplicates dropped."""

    def __init__(self) -> None:
        self.risks: list[Risk] = []
        self.follow_ups: list[str] = []

    def add(self, risk: Risk | None, follow_up: str | None = None) -> None:
        if risk is not None:
            self.risks.append(risk)
        if follow_up and follow_up not in self.follow_ups:
            self.follow_ups.append(follow_up)


def _hit(hit: LineHit) -> str:
    return f"{hit.path}: {hit.line}" if hit.line else hit.path


def _largest(files: Iterable[FileFacts]) -> FileFacts | None:
    ranked = sorted(files, key=lambda f: (-f.lines, f.path))
    return ranked[0] if ranked else None


def _default_text(c: ConfigChange, language: Language, kind: str) -> str:
    """A changed default as a key point (`kind` "kp"), a breaking change's part ("brk") or an item of the
    defaults risk ("short": `key old → new`): a default that became OmegaConf's `???` is said to be
    required now, not to be "???"; one that followed another key and is now written here is said to
    follow it no more (`${other.key}` for the old value, not the whole `${oc.select:other.key,false}`)."""
    if c.kind == "required":
        key = "kp.config_required" if kind == "kp" else "brk.required"
        return say(key, language, key=c.key, old=c.old, path=c.path)
    followed = references(c.old or "")
    old = "${" + ", ".join(followed) + "}" if followed and not references(c.new or "") else c.old
    if kind == "kp" and old != c.old:
        return say("kp.config_unlinked", language, key=c.key, old=", ".join(followed), new=c.new, path=c.path)
    if kind == "kp":
        return say("kp.config_default", language, key=c.key, old=c.old, new=c.new, path=c.path)
    if kind == "brk":
        return say("brk.default", language, key=c.key, old=old, new=c.new)
    return f"{c.key} {old} → {c.new}"


def _dependency_text(d: DependencyChange, language: Language) -> str:
    if d.change == "changed":
        if not d.old or not d.new:  # a bare name pinned, or a pin dropped: say which, not "?"
            key = "dep.pinned" if d.new else "dep.unpinned"
            return say(key, language, name=d.name, version=d.new or d.old or "")
        return say("dep.change", language, name=d.name, old=d.old, new=d.new)
    if d.change == "removed":
        return say("dep.removed", language, name=d.name)
    return say("dep.added", language, name=d.name, new=d.new or "").strip()


def _missing_tests(
    f: PRFeatures, change_type: ChangeType, language: Language, out: _Findings, tests: Tests | None = None
) -> None:
    """Code without tests, and tests that assert nothing (`tests`, read by `find_tests`): when they are
    the only tests the PR brings, the code counts as untested and the risk names them."""
    tests = tests or Tests()
    hollow = tests.hollow
    if hollow:
        first = hollow[0]
        names = _join((h.line for h in hollow if h.path == first.path), language)
        follow = say("fu.hollow_test", language, name=first.line, path=first.path)
    # Only code that is still there after the PR wants a test: deleting a file or lines adds nothing to test.
    kept = [x for x in f.code_files if x.status != "removed" and x.additions]
    top = _largest(kept)
    lines = sum(x.lines for x in kept)
    tested = f.tests_changed and not tests.only_hollow
    if top is None or lines < w.MISSING_TESTS_MIN_LINES or tested or change_type in ("doc", "test", "revert"):
        # a revert restores code as it was: the test it lacks is the reverted change's
        if hollow and change_type != "revert":
            key = "risk.hollow_tests" if "," in names or "、" in names else "risk.hollow_test"
            text = say(key, language, path=first.path, names=names)
            out.add(Risk("missing-tests", "low", text, f"{first.path}: {first.line}"), follow)
        return
    is_fix = change_type == "fix"
    severity: Severity = "low"
    if lines >= w.MISSING_TESTS_HIGH_LINES:
        severity = "high"
    elif lines >= w.MISSING_TESTS_MEDIUM_LINES or is_fix:
        severity = "medium"
    if hollow:
        text = say("risk.untested_hollow", language, lines=_count(lines), path=first.path, names=names)
        out.add(Risk("missing-tests", severity, text, f"{first.path}: {first.line}"), follow)
        return
    text = say("risk.fix_without_test" if is_fix else "risk.missing_tests", language, lines=_count(lines))
    follow = say("fu.regression_test" if is_fix else "fu.add_test", language, path=top.path)
    out.add(Risk("missing-tests", severity, text, top.path), follow)


def _compatibility(f: PRFeatures, change_type: ChangeType, language: Language, out: _Findings) -> None:
    """The breaking change, then removals and new defaults; what the breaking risk names already (the
    removed definition, the re-defaulted key) is not said again as a risk of its own."""
    breaking = ""
    if f.breaking:
        breaking, evidence = _breaking(f, language)
        out.add(
            Risk("breaking-change", "high", breaking, _clip(evidence, POINT_CHARS)),
            say("fu.migration", language),
        )
    if change_type == "revert":
        return  # what a revert removes is what the change it undoes added, not a removal of its own

    def named(names: Iterable[str]) -> bool:
        return bool(breaking) and all(name in breaking for name in names)

    if f.api_removed and not named(h.line for h in f.api_removed):
        names = _join((h.line for h in f.api_removed), language)
        unread = _unread_code(f)
        if unread:
            # They may live on in the file whose patch was cut: a reason to check, not a certain break.
            text = say("risk.api_removed_unread", language, names=names, path=unread)
            out.add(Risk("compatibility", "low", text, _hit(f.api_removed[0])), say("fu.migration", language))
        else:
            text = say("risk.api_removed", language, names=names)
            out.add(
                Risk("compatibility", "medium", text, _hit(f.api_removed[0])), say("fu.migration", language)
            )
    definitions = [r for r in f.api_renamed if not named((r.old,))]
    if definitions:
        renames = _join((say("rename", language, old=r.old, new=r.new) for r in definitions), language)
        text = say("risk.api_renamed", language, renames=renames)
        rename = definitions[0]
        out.add(
            Risk("compatibility", "medium", text, f"{rename.path}: {rename.old} → {rename.new}"),
            say("fu.migration", language),
        )
    if f.files_renamed:
        moved = f.files_renamed[0]
        paths = list(dict.fromkeys(say("rename", language, old=r.old, new=r.new) for r in f.files_renamed))
        text = say("risk.files_renamed", language, moves=_join(paths, language), old=moved.old)
        out.add(Risk("compatibility", "low", text, f"{moved.path}: {moved.old} → {moved.new}"))
    renamed = f.config_renamed
    if renamed and not named(r.old for r in renamed):
        changes = _join((say("rename", language, old=r.old, new=r.new) for r in renamed), language)
        text = say("risk.config_renamed", language, renames=changes, old=renamed[0].old)
        where = f"{renamed[0].path}: {renamed[0].old} → {renamed[0].new}"
        out.add(Risk("compatibility", "medium", text, where), say("fu.migration", language))
    removed = [c for c in f.config_changes if c.new is None]
    if removed and not named(c.key for c in removed):
        text = say("risk.config_removed", language, keys=_join((c.key for c in removed), language))
        out.add(
            Risk("compatibility", "medium", text, f"{removed[0].path}: -{removed[0].key}: {removed[0].old}")
        )
    defaults = _changed_defaults(f)
    if defaults:
        first = defaults[0]
        follow = say("fu.release_note", language, key=first.key, old=first.old, new=first.new)
        if named(c.key for c in defaults):
            out.add(None, follow)
        else:
            changes = _join((_default_text(c, language, "short") for c in defaults), language, limit=2)
            text = say("risk.config_default", language, changes=changes)
            evidence = f"{first.path}: {first.key}: {first.old} → {first.new}"
            out.add(Risk("config", "medium", text, evidence), follow)
    added = [c.key for c in f.config_changes if c.old is None]
    if added and not any(x.kind == "doc" for x in f.files):
        out.add(None, say("fu.doc_config", language, keys=_join(added, language)))


def _breaking(f: PRFeatures, language: Language) -> tuple[str, str]:
    """A breaking change in the words that say what breaks, and its evidence: the author's BREAKING CHANGE
    note or a sentence of the description about what breaks, and what the diff renames, removes or
    re-defaults (definitions, config keys and defaults, command-line options). Without either, the
    description's opening is quoted; only a PR with neither cites its title."""
    note = f.breaking_note if f.breaking_note != "BREAKING CHANGE" else None
    said = note or breaking_statement(f.body, tuple(x.path for x in f.files))
    if said and (not readable_in(said, language) or _restates(said, f)):
        said = None
    changes, evidence = _breaking_changes(f, language)
    if said and changes:
        text = say("risk.breaking_said_diff", language, said=_clip(said, POINT_CHARS), changes=changes)
    elif said:
        text = say("risk.breaking_said", language, said=_clip(said, POINT_CHARS))
    elif changes:
        text = say("risk.breaking_diff", language, changes=changes)
    else:
        author = read_author_text(f.body, tuple(x.path for x in f.files), f.title.text)
        opening = author.opening if author.opening and readable_in(author.opening, language) else None
        if opening:
            return say("risk.breaking_unsaid", language, opening=_clip(opening, POINT_CHARS)), opening
        # Nothing but the tag says it breaks: the title is the only evidence there is.
        return say("risk.breaking", language), f"title: {f.title.text}"
    if not evidence:
        evidence = f"BREAKING CHANGE: {note}" if note else said or ""
    return text, evidence


def _breaking_changes(f: PRFeatures, language: Language) -> tuple[str, str]:
    """What the diff renames, removes or re-defaults, worded for a breaking change (up to three), and the
    first of them as evidence (`path: old → new`)."""
    worded: list[str] = []
    evidence: list[str] = []
    for r in (*f.api_renamed, *f.config_renamed):
        worded.append(say("brk.renamed", language, old=r.old, new=r.new))
        evidence.append(f"{r.path}: {r.old} → {r.new}")
    for h in (*f.api_removed, *f.cli_removed):
        worded.append(say("brk.removed", language, name=h.line))
        evidence.append(f"{h.path}: -{h.line}")
    for c in f.config_changes:
        if c.new is None:
            worded.append(say("brk.removed", language, name=c.key))
            evidence.append(f"{c.path}: -{c.key}")
        elif c.kind in _DEFAULT_KINDS:
            worded.append(_default_text(c, language, "brk"))
            evidence.append(f"{c.path}: {c.key}: {c.old} → {c.new}")
    for r in f.api_resigned:
        worded.append(say("brk.signature", language, old=r.old, new=r.new))
        evidence.append(f"{r.path}: {r.old} → {r.new}")
    for r in _rehomed(f):
        worded.append(say("brk.rehomed", language, old=r.old, new=r.new))
        evidence.append(f"{r.path}: {r.old} → {r.new}")
    return (_join(worded, language) if worded else ""), (evidence[0] if evidence else "")


def _dependencies(f: PRFeatures, language: Language, out: _Findings) -> None:
    """Where users get them (dependency files, shipped images): key frameworks, packages removed from a
    dependency file and packages whose major version changes are medium; a base image's new tag, other
    versions and install lines are low. Pins in examples, scripts and docs are low and said to be there;
    pins in CI workflows alone are no risk to users (the key points still list them)."""
    changes = []
    for d in f.dependency_changes:
        floor = _raised_runtime_floor(d)
        if floor is None:
            changes.append(d)
            continue
        runtime = _RUNTIMES[d.name]
        text = say("risk.runtime_floor", language, runtime=runtime, old=floor[0], new=floor[1], path=d.path)
        out.add(Risk("compatibility", "medium", text, d.path), say("fu.runtime_floor", language))
    shipped = [d for d in changes if ships(d.path)]
    aside = [d for d in changes if not ships(d.path) and file_kind(d.path) != "ci"]
    images = [d for d in shipped if d.image and d.change == "changed"]
    packages = [d for d in shipped if d not in images]
    key = [d for d in packages if d.key or (d.change == "removed" and d.declared)]
    major = [d for d in packages if d not in key and _major_change(d)]
    other = [d for d in packages if d not in key and d not in major]
    gone = [d for d in key if d.change == "removed"]
    unpinned = [d for d in key if d.change == "changed" and d.old and not d.new]
    groups: tuple[tuple[list[DependencyChange], Severity, str], ...] = (
        ([d for d in key if d not in gone and d not in unpinned], "medium", "risk.dependency_key"),
        (unpinned, "medium", "risk.dependency_unpinned"),
        (gone, "medium", "risk.dependency_removed"),
        (major, "medium", "risk.dependency_major"),
        (images, "low", "risk.image"),
        (other, "low", "risk.dependency"),
        (aside, "low", "risk.dependency_aside"),
    )
    for group, severity, text_key in groups:
        if group:
            said = (
                (d.name for d in group) if group is gone else (_dependency_text(d, language) for d in group)
            )
            text = say(text_key, language, changes=_join(said, language), path=group[0].path)
            risk = Risk("dependency", severity, text, group[0].path)
            # Only what is installed from now on needs checking against images and docs.
            current = [d.name for d in group if d.change != "removed"]
            out.add(risk, say("fu.dependency", language, names=_join(current, language)) if current else None)


_MAJOR = re.compile(r"\d+")
# The language a project declares it needs (`requires-python`, go.mod's `go` line), by its package name.
_RUNTIMES = {"python": "Python", "go": "Go"}
# A specifier's lower bound (`>=3.8,<3.13` -> 3.8; go.mod's bare `1.21`); a cap alone (`<3.13`) has none.
_LOWER_BOUND = re.compile(r"(?:>=|>|~=|==|\^|^)\s*v?(\d+(?:\.\d+)*)")


def _raised_runtime_floor(d: DependencyChange) -> tuple[str, str] | None:
    """The old and new minimum when a declared language version moves up (`>=3.8` -> `>=3.10`, `go 1.21`
    -> `go 1.23`): users on the versions in between can no longer install or build the project. A base
    image (`python:3.12-slim`) is no declared minimum."""
    if d.name not in _RUNTIMES or d.image or not d.declared or d.change != "changed":
        return None
    old, new = _LOWER_BOUND.search(d.old or ""), _LOWER_BOUND.search(d.new or "")
    if old is None or new is None:
        return None
    rises = tuple(map(int, new.group(1).split("."))) > tuple(map(int, old.group(1).split(".")))
    return (old.group(1), new.group(1)) if rises else None


def _major_change(d: DependencyChange) -> bool:
    """Whether a package (not an image or CI action) moves to another major version: `1.10.13` -> `2.5.0`."""
    if d.change != "changed" or d.image or not d.old or not d.new:
        return False
    old, new = _MAJOR.search(d.old), _MAJOR.search(d.new)
    return old is not None and new is not None and int(old.group(0)) != int(new.group(0))


# What a memory or synchronisation call can do, by the call (its sign first: "+" added, "-" removed) and
# most serious first: the mechanism a risk names, in TEXT as `mech.<kind>`.
_CALL_KINDS: tuple[tuple[RiskCategory, str, re.Pattern[str]], ...] = (
    ("concurrency", "collective", re.compile(r"^\+.*?([\w.]*\b(?:dist|distributed)\.\w+\(|[\w.]*barrier\()")),
    ("concurrency", "group", re.compile(r"^\+.*?([\w.]*new_group\()")),
    ("concurrency", "lock", re.compile(r"^\+.*?([\w.]*(?:R?Lock\(|Semaphore\(|Condition\())")),
    ("concurrency", "ray_get", re.compile(r"^\+.*?(ray\.get\()")),
    ("concurrency", "event_loop", re.compile(r"^\+.*?(asyncio\.\w+\(?)")),
    (
        "concurrency",
        "workers",
        re.compile(r"^\+.*?([\w.]*(?:ThreadPoolExecutor\(|threading\.Thread\(|multiprocessing\.\w+\())"),
    ),
    (
        "concurrency",
        "collective_removed",
        re.compile(r"^-.*?([\w.]*\b(?:dist|distributed)\.\w+\(|[\w.]*barrier\()"),
    ),
    ("concurrency", "sync_removed", re.compile(r"^-")),
    (
        "memory",
        "freeing_removed",
        re.compile(r"^-.*?([\w.]*(?:empty_cache\(|gc\.collect\(|offload\w*\()|\bdel\s)"),
    ),
    ("memory", "offload", re.compile(r"^\+.*?([\w.]*offload\w*\()")),
    ("memory", "host_copy", re.compile(r"^\+.*?(\.cpu\(\)|\.to\([\"']cpu)")),
    ("memory", "empty_cache", re.compile(r"^\+.*?([\w.]*empty_cache\()")),
    ("memory", "pinned", re.compile(r"^\+.*?(\.?pin_memory(?:\(|\s*=\s*True))")),
    ("memory", "freeing", re.compile(r"^\+.*?(gc\.collect\(|\bdel\s)")),
)


_KINDS_OF: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    category: [(kind, pattern) for cat, kind, pattern in _CALL_KINDS if cat == category]
    for category in ("memory", "concurrency")
}


@dataclass(frozen=True, slots=True)
class _Call:
    """The most serious memory or synchronisation call of one kind of risk, with how many there are."""

    hit: LineHit
    kind: str
    count: int


def _worst_call(category: RiskCategory, hits: Iterable[LineHit]) -> _Call | None:
    """The call whose kind comes first in `_CALL_KINDS` (memory statistics and other calls that change
    nothing are no risk), with the number of risky calls of the category."""
    kinds = _KINDS_OF[category]
    ranked: list[tuple[int, LineHit]] = []
    for hit in hits:
        rank = next((i for i, (_, pattern) in enumerate(kinds) if pattern.match(hit.line)), None)
        if rank is not None:
            ranked.append((rank, hit))
    if not ranked:
        return None
    rank, hit = min(ranked, key=lambda item: item[0])
    return _Call(hit, kinds[rank][0], len(ranked))


def _call_where(hit: LineHit, language: Language) -> str:
    if hit.where:
        return say("call.where", language, path=hit.path, function=hit.where)
    return say("call.where_file", language, path=hit.path)


def _call_code(hit: LineHit) -> str:
    """The statement of a call, or only the call (`ray.get(…)`) when the statement is long or goes on
    past its line."""
    statement = hit.line[1:].strip().replace("`", "'")
    if len(statement) <= CALL_CHARS and balanced(statement):
        return statement
    calls = [m.group(1) for _, _, pattern in _CALL_KINDS if (m := pattern.match(hit.line)) and m.lastindex]
    call = calls[0] if calls else ""
    if call.endswith("("):
        return f"{call}…)"
    return _clip(statement, CALL_CHARS)


def _sensitive(f: PRFeatures, language: Language, out: _Findings) -> None:
    """A memory or synchronisation call the diff adds or removes, named with its file, function and what
    can go wrong: medium in a large change to memory- or distribution-sensitive source (high when very
    large and untested), low where enough such calls change in a real code change. A large change to such
    code without one of these calls is no risk of its own: nothing in it says what could go wrong."""
    if not f.memory_signals and not f.concurrency_signals:
        return
    # Deleted files cannot leak or deadlock: only code that remains counts.
    source = [x for x in f.files if x.is_code and x.status != "removed"]
    checks: tuple[tuple[RiskCategory, list[FileFacts], tuple[LineHit, ...]], ...] = (
        ("memory", [x for x in source if x.memory_sensitive], f.memory_signals),
        ("concurrency", [x for x in source if x.distributed_sensitive], f.concurrency_signals),
    )
    for category, files, signals in checks:
        if not signals:
            continue
        lines = sum(x.lines for x in files)
        sensitive = {x.path for x in files}
        call = _worst_call(category, (h for h in signals if h.path in sensitive))
        severity: Severity = "low"
        if call is not None and lines >= w.SENSITIVE_LINES:
            severity = "high" if lines >= w.SENSITIVE_HIGH_LINES and not f.tests_changed else "medium"
        elif len(signals) >= w.SENSITIVE_SIGNALS and f.code_lines >= w.SENSITIVE_SIGNAL_MIN_CODE_LINES:
            call = _worst_call(category, signals)
        else:
            call = None
        if call is None:
            continue
        hit = call.hit
        values = {
            "where": _call_where(hit, language),
            "sign": say("call.added" if hit.line.startswith("+") else "call.removed", language),
            "code": _call_code(hit),
            "mechanism": say(f"mech.{call.kind}", language),
            "n": call.count,
        }
        text = say("risk.call_more" if call.count > 1 else "risk.call", language, **values)
        function = hit.where or hit.path
        follow = (
            say("fu.collective_test", language, function=function, code=values["code"])
            if call.kind in ("collective", "group")
            else say("fu.peak_memory", language, function=function)
            if category == "memory"
            else None
        )
        out.add(Risk(category, severity, text, _hit(hit)), follow)


# A line that branches (`if`, `elif`, `assert`, `while`, a conditional expression), not an import, a
# docstring or a comment that names a platform; and a check of a version rather than of a device.
_BRANCH = re.compile(r"^(?:(?:el)?if|assert|while)\b|\bif\b.+\belse\b")
_VERSION_CHECK = re.compile(r"version|__version__|is_version_ge|get_version", re.I)
_TODO_MARKER = re.compile(r"\b(?:TODO|FIXME|HACK|XXX)\b(?:\s*\([^)]*\))?|#\s*[Hh]ack\b")


def _todo_text(line: str) -> str:
    """What a TODO line says is left to do: the words after its marker (and its owner)."""
    marker = _TODO_MARKER.search(line)
    return line[marker.end() :].strip(" :-–—\"'") if marker else ""


def _branch_kind(line: str) -> str:
    """What a platform branch checks: "version" or "device"."""
    return "version" if _VERSION_CHECK.search(line) else "device"


def _branch_code(line: str) -> str:
    return _clip(line.replace("`", "'"), CALL_CHARS)


def _platform(f: PRFeatures, language: Language, out: _Findings) -> None:
    """A branch on a version or a device that the diff adds, named with its file and function and why
    one CI does not test it; else a changed file that only runs on particular hardware (`npu_patch.py`)."""
    branches = [h for h in f.platform_hits if _BRANCH.search(h.line)]
    if branches:
        hit = branches[0]
        kind = _branch_kind(hit.line)
        where = _call_where(hit, language)
        more = say("risk.platform_more", language, n=len(branches)) if len(branches) > 1 else ""
        text = say(
            "risk.platform_branch",
            language,
            where=where,
            kind=say(f"platform.{kind}", language),
            code=_branch_code(hit.line),
            more=more,
            mechanism=say(f"mech.{kind}_branch", language),
        )
        out.add(
            Risk("compatibility", "low", text, _hit(hit)), say(f"fu.{kind}_branch", language, where=where)
        )
        return
    files = [h for h in f.platform_hits if not h.line]
    if files:
        text = say("risk.platform_file", language, path=files[0].path)
        out.add(Risk("compatibility", "low", text, files[0].path))


_VERIFY_OFF = re.compile(r"\bverify\s*=\s*False\b")
# What each unsafe call does, for the risk that names it (`mech.<kind>` in TEXT).
_UNSAFE_CALLS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("torch_load", re.compile(r"torch\.load\(")),
    ("pickle", re.compile(r"pickle\.loads?\(")),
    ("remote_code", re.compile(r"trust_remote_code\s*=\s*True")),
    ("shell", re.compile(r"shell\s*=\s*True")),
    ("yaml_load", re.compile(r"yaml\.load\(")),
    ("eval", re.compile(r"(?<![.\w])(?:eval|exec)\(")),
)


def _patch_markers(f: PRFeatures, change_type: ChangeType, language: Language, out: _Findings) -> None:
    if f.tests_removed:
        text = say("risk.tests_removed", language, paths=_join(f.tests_removed, language, limit=2))
        follow = say("fu.tests_removed", language, path=f.tests_removed[0])
        out.add(Risk("missing-tests", "medium", text, f.tests_removed[0]), follow)
    # Hits come from shipped code only (the features leave examples, recipes and scripts out); a TLS
    # check turned off (`verify=False`) is its own risk, in `_hazards`.
    hits = [h for h in f.security_hits if not _VERIFY_OFF.search(h.line)]
    if hits:
        kind = next((k for k, pattern in _UNSAFE_CALLS if pattern.search(hits[0].line)), None)
        more = say("risk.tls_more", language, n=len(hits)) if len(hits) > 1 else ""
        text = (
            say(
                "risk.unsafe_call",
                language,
                path=hits[0].path,
                code=_branch_code(hits[0].line),
                more=more,
                mechanism=say(f"mech.{kind}", language),
            )
            if kind
            else say("risk.security", language, n=len(hits))
        )
        out.add(
            Risk("security", "medium", text, _hit(hits[0])), say("fu.security", language, path=hits[0].path)
        )
    _platform(f, language, out)
    todos = [h for h in f.todos if len(_todo_text(h.line).split()) >= w.TODO_MIN_WORDS]
    if todos:
        text = _clip(_todo_text(todos[0].line), TODO_CHARS)
        more = say("risk.todo_more", language, n=len(todos)) if len(todos) > 1 else ""
        risk = Risk(
            "other",
            "low",
            say("risk.todo", language, path=todos[0].path, text=text, more=more),
            _hit(todos[0]),
        )
        out.add(risk, say("fu.todo", language, path=todos[0].path))
    if change_type == "perf" and not f.measurements.found and f.code_lines:
        text = say("risk.perf_unmeasured", language)
        out.add(Risk("performance", "low", text, f"title: {f.title.text}"), say("fu.measure", language))
    if f.changed_files >= w.HUGE_PR_FILES or f.total_lines >= w.HUGE_PR_LINES:
        add, dele = _count(f.additions), _count(f.deletions)
        # GitHub cuts the patches of large PRs and lists at most 3,000 files: what it did not send was
        # not read, which a reviewer relying on this analysis needs to know.
        unread = sum(1 for x in f.files if not x.patched and x.lines and x.kind != "asset")
        unread += max(0, f.changed_files - len(f.files))
        cut = say("risk.huge_cut", language, n=_count(unread)) if unread else ""
        text = say("risk.huge", language, files=_count(f.changed_files), add=add, dele=dele, cut=cut)
        largest = _largest(f.files)
        out.add(Risk("other", "medium", text, largest.path if largest else ""))


def _env_assignments(sets: Iterable[EnvSet], language: Language) -> str:
    return _join((f"{e.name}={e.value}" if e.value is not None else e.name for e in sets), language)


def _core(f: PRFeatures, path: str) -> bool:
    return any(x.path == path and x.tier == "core" for x in f.files)


def _hazards(
    f: PRFeatures, hazards: Hazards, change_type: ChangeType, language: Language, out: _Findings
) -> None:
    """What the diff's own lines do that can go wrong: TLS checks off, environment variables set for the
    whole process, new options on by default, deleted modules, masks edited in loss or advantage code."""
    if hazards.tls_off:
        hit = hazards.tls_off[0]
        n = len(hazards.tls_off)
        more = say("risk.tls_more", language, n=n) if n > 1 else ""
        text = say("risk.tls_off", language, path=hit.path, code=_branch_code(hit.line), more=more)
        # An image or shipped code fetched without checks reaches users; a CI job or script, the project.
        severity: Severity = "medium" if any(ships(h.path) for h in hazards.tls_off) else "low"
        out.add(Risk("security", severity, text, _hit(hit)), say("fu.tls_off", language, path=hit.path))
    if change_type == "revert":
        return  # what a revert sets, deletes or switches on restores the state before the reverted change
    if hazards.env_set:
        first = hazards.env_set[0]
        where = _call_where(LineHit(first.path, "", first.where), language)
        text = say(
            "risk.env_set", language, where=where, assignments=_env_assignments(hazards.env_set, language)
        )
        severity = "medium" if _core(f, first.path) else "low"
        out.add(Risk("config", severity, text, f"{first.path}: {first.name}"))
    if hazards.on_by_default:
        switch = hazards.on_by_default[0]
        keys = _join((c.key for c in hazards.on_by_default), language)
        many = len(hazards.on_by_default) > 1
        text = say(
            "risk.on_by_default_many" if many else "risk.on_by_default", language, keys=keys, path=switch.path
        )
        severity = "medium" if _core(f, switch.path) else "low"
        out.add(Risk("config", severity, text, f"{switch.path}: {switch.key}: {switch.new}"))
    if hazards.modules_removed:
        text = say("risk.modules_removed", language, modules=_join(hazards.modules_removed, language))
        removed = next((x.path for x in f.files if x.status == "removed" and x.path.endswith(".py")), "")
        out.add(Risk("compatibility", "medium", text, removed), say("fu.migration", language))
    if hazards.mask_edits:
        hit = hazards.mask_edits[0]
        text = say("risk.mask_edit", language, where=_call_where(hit, language), code=_branch_code(hit.line))
        severity = "low" if f.tests_changed else "medium"
        follow = say("fu.mask_edit", language, function=hit.where or hit.path)
        out.add(Risk("other", severity, text, _hit(hit)), follow)


def _code_mechanisms(f: PRFeatures, hazards: Hazards, language: Language, out: _Findings) -> None:
    """What the code the PR adds does that can go wrong, named with its file, function and statement:
    tokens read unverified or unexpiring, locks held across a return, goroutines, tasks, timers and
    threads nothing stops (`hazards.find_code_hazards`)."""
    for hazard in hazards.code:
        category, severity = CODE_HAZARDS[hazard.kind]
        where = _call_where(LineHit(hazard.path, "", hazard.where), language)
        text = say(f"risk.{hazard.kind}", language, where=where, code=hazard.code)
        function = hazard.where or hazard.path
        follow = (
            say("fu.token", language, function=function)
            if hazard.kind.startswith("token")
            else say("fu.lock", language, function=function)
            if hazard.kind.startswith("lock")
            else say("fu.stoppable", language, function=function)
        )
        evidence = (
            f"{hazard.path}: {hazard.where}: {hazard.code}"
            if hazard.where
            else f"{hazard.path}: {hazard.code}"
        )
        out.add(Risk(category, severity, text, evidence), follow)


# What each harm a caveat warns of counts as, and how severe it is.
_CAVEAT_RISKS: dict[str, tuple[RiskCategory, Severity]] = {
    "loss": ("other", "high"),
    "memory": ("memory", "medium"),
    "slower": ("performance", "medium"),
    "incompatible": ("compatibility", "medium"),
    "failure": ("other", "medium"),
    "surprise": ("compatibility", "medium"),
}


def _caveats(f: PRFeatures, language: Language, out: _Findings) -> None:
    """The warnings the author or a reviewer wrote, as risks in their words (an English reader of a
    Chinese warning is told what it warns of); one the breaking change already quotes is not repeated."""
    note = f.breaking_note or ""
    for c in f.caveats:
        if c.said in note or (note and note in c.said):
            continue
        category, severity = _CAVEAT_RISKS[c.harm]
        said = _clip(c.said, POINT_CHARS)
        if not readable_in(c.said, language):
            text = say("risk.caveat_unread", language, harm=say(f"harm.{c.harm}", language))
        elif c.reviewer:
            text = say("risk.caveat_review", language, said=said, reviewer=c.reviewer)
        else:
            text = say("risk.caveat", language, said=said)
        out.add(Risk(category, severity, text, c.said))


def assess_risks(
    f: PRFeatures, change_type: ChangeType, language: Language, hazards: Hazards | None = None
) -> tuple[list[Risk], list[str]]:
    """Risks (most severe first, capped) and follow-ups for one PR; `hazards` are what its patches'
    lines do (`find_hazards`)."""
    out = _Findings()
    hazards = hazards or Hazards()
    _missing_tests(f, change_type, language, out, hazards.tests)
    _compatibility(f, change_type, language, out)
    _hazards(f, hazards, change_type, language, out)
    if change_type != "revert":
        _code_mechanisms(f, hazards, language, out)
    _dependencies(f, language, out)
    _sensitive(f, language, out)
    _patch_markers(f, change_type, language, out)
    _caveats(f, language, out)
    risks = sorted(out.risks, key=lambda r: _SEVERITY_ORDER[r.severity])  # stable: rule order within a level
    return risks[: w.MAX_RISKS], out.follow_ups[: w.MAX_FOLLOW_UPS]


# --- verdict -----------------------------------------------------------------------------------------


def decide_verdict(importance: float, insight: float, breaking: bool) -> Verdict:
    """must-read / worth-reading / skim from the two scores (thresholds in weights.py)."""
    if (
        importance >= w.MUST_READ_IMPORTANCE
        or (breaking and importance >= w.MUST_READ_BREAKING_IMPORTANCE)
        or (insight >= w.MUST_READ_INSIGHT and importance >= w.MUST_READ_INSIGHT_MIN_IMPORTANCE)
    ):
        return "must-read"
    if importance >= w.WORTH_READING_IMPORTANCE or insight >= w.WORTH_READING_INSIGHT:
        return "worth-reading"
    return "skim"


def _why(
    key: str, f: PRFeatures, change_type: ChangeType, modules: tuple[str, ...], language: Language
) -> str | None:
    """The phrase for one contribution, or None when it makes no sense as a reason."""
    if key == "type":
        return say("why.type", language, type=say(f"type.{change_type}", language))
    if key == "user_visible":
        return _user_visible_why(f, language)
    if key == "size":
        return say(
            "why.size",
            language,
            files=_count(f.changed_files),
            add=_count(f.additions),
            dele=_count(f.deletions),
        )
    if key == "core":
        core_modules = [x.module for x in sorted(f.files, key=lambda x: -x.lines) if x.tier == "core"]
        return say("why.core", language, modules=_join(core_modules or modules, language))
    if key == "modules":
        return say("why.modules", language, n=len(modules))
    if key == "keywords":
        names = [say(f"kw.{k}", language) for k in f.keywords if k in w.SEVERE_KEYWORDS]
        return say("why.keywords", language, keywords=_join(names, language))
    if key == "capability":
        return say(
            "why.capability", language, names=_join(_telling_first(_names(f.api_added)), language, limit=2)
        )
    if key == "design":
        return say("why.design", language, sections=_join(f.design_sections, language, limit=2))
    floor = _runtime_floor(f) if key == "runtime_floor" else None
    if floor is not None:
        return say("why.runtime_floor", language, runtime=floor[0], old=floor[1], new=floor[2])
    if f"why.{key}" in TEXT:
        return say(f"why.{key}", language)
    return None


def _rehomed(f: PRFeatures) -> tuple[Rename, ...]:
    """Functions that became methods and methods that became functions: callers must change how they
    call them, as for a changed signature."""
    return (*f.api_into_class, *f.api_out_of_class)


def _renames(f: PRFeatures, language: Language) -> list[str]:
    """What the diff renames or re-homes that its users must follow, each as `old → new`."""
    pairs = [(r.old, r.new) for r in (*f.api_renamed, *f.config_renamed, *_rehomed(f), *f.files_renamed)]
    return list(dict.fromkeys(say("rename", language, old=old, new=new) for old, new in pairs))


def _user_visible_why(f: PRFeatures, language: Language) -> str | None:
    """The most consequential user-visible change, named: defaults, then API, then new knobs."""
    changes = f.config_changes
    defaults = [c.key for c in _changed_defaults(f)]
    if defaults:
        return say("why.config_default", language, keys=_join(defaults, language, limit=2))
    if f.api_removed or f.api_changed or _rehomed(f):
        names = [h.line.split("(")[0] for h in (*f.api_removed, *f.api_changed)]  # name without signature
        names += [r.old for r in _rehomed(f)]
        # What a removal does to callers is more than "changes": they must stop calling it. Unless a file
        # came without its patch, where the definitions may have moved.
        removed_only = not (f.api_changed or _rehomed(f) or _unread_code(f))
        return say(
            "why.api_removed" if removed_only else "why.api", language, names=_join(names, language, limit=2)
        )
    removed = [c.key for c in changes if c.new is None]
    if removed:
        return say("why.config_removed", language, keys=_join(removed, language, limit=2))
    added = [c.key for c in changes if c.old is None]
    if added:
        return say("why.config_added", language, keys=_join(added, language, limit=2))
    if f.cli_args:
        return say("why.cli", language, args=_join((h.line for h in f.cli_args), language, limit=2))
    return None


def _skim_reason(f: PRFeatures, change_type: ChangeType, language: Language) -> str:
    if change_type == "doc":
        return say("why.doc_only", language)
    if change_type == "test":
        return say("why.test_only", language)
    renames = _renames(f, language)
    if renames:
        return say("why.renames", language, renames=_join(renames, language, limit=2))
    if w.TRIVIAL_TITLE.search(f.title.description):
        return say("why.trivial", language)
    if change_type == "chore":
        return say("why.chore", language)
    if f.files and all(x.tier == "peripheral" for x in f.files):
        return say("why.peripheral", language)
    if f.total_lines < w.SMALL_CHANGE_LINES:
        return say("why.small", language, add=_count(f.additions), dele=_count(f.deletions))
    return say("why.limited", language)


_WHERE_KEYS = frozenset({"core", "size", "modules"})


def verdict_reason(
    verdict: Verdict,
    importance: list[Contribution],
    insight: list[Contribution],
    f: PRFeatures,
    change_type: ChangeType,
    modules: tuple[str, ...],
    language: Language,
) -> str:
    """One line naming the two or three features that weighed most (the type only when nothing else did)."""
    if verdict == "skim":
        return _skim_reason(f, change_type, language)
    # Size and core share are reasons only when they are remarkable, not merely the largest numbers.
    unremarkable = {
        "type",
        *(("size",) if f.total_lines < w.REASON_LARGE_LINES else ()),
        *(("core",) if f.core_share < w.REASON_CORE_SHARE else ()),
        # Pins in examples or CI of a PR about something else are no reason to read it (the risks list them).
        *(("dependency",) if not _pins_to_point(f, after=False) else ()),
    }
    # Of equal points, what the change does (a fix of memory, a capability) before where it is.
    ranked = sorted(
        (c for c in importance if c.key not in unremarkable and c.points >= w.REASON_MIN_POINTS),
        key=lambda c: (-c.points, c.key in _WHERE_KEYS, c.key),
    )
    keys = [c.key for c in ranked[:2]]
    teaching = sorted(
        (
            c
            for c in insight
            if c.key in ("design", "root_cause", "measurements", "words") and c.points >= 0.6
        ),
        key=lambda c: (-c.points, c.key),
    )
    if teaching and (len(keys) < 2 or sum(c.points for c in insight) >= w.WORTH_READING_INSIGHT):
        keys.append(teaching[0].key)
    if "measured" in keys and "measurements" in keys:
        keys.remove("measured")
    phrases = [p for p in (_why(k, f, change_type, modules, language) for k in keys or ["type"]) if p]
    return TEXT["reason.join"][language].join(phrases)


# --- summary and key points --------------------------------------------------------------------------


def _summary(f: PRFeatures, change_type: ChangeType, modules: tuple[str, ...], language: Language) -> str:
    """The opening of the author's own description (preferring a "what does this PR do" section), or a
    sentence built from the title and the files when the author wrote nothing of substance."""
    sections = f.body.sections
    preferred = [s for s in sections if not s.heading and s.blocks]
    preferred += [s for s in sections if s.heading and _SUMMARY_HEADING.search(s.heading)]
    preferred += list(sections)
    for section in preferred:
        text = plain_text(_prose_blocks(section.blocks)).replace("\n", " ")
        if len(text) >= 20:
            return _clip(text, SUMMARY_CHARS)
    return say(
        "summary.derived",
        language,
        title=f.title.description,
        type=say(f"type.{change_type}", language),
        modules=_join(modules, language) if modules else say("summary.no_modules", language),
        files=_count(f.changed_files),
        add=_count(f.additions),
        dele=_count(f.deletions),
    )


def _prose_blocks(blocks: tuple[Block, ...]) -> list[Block]:
    """The paragraphs, lists and quotes of a section, without a caption: a label of the table or code
    block right after it ("benchmark result test with bucket_size=2GB") is no sentence of a summary."""
    return [
        block
        for block, following in zip(blocks, (*blocks[1:], None), strict=False)
        if block.kind in ("para", "list", "quote")
        and not (following is not None and following.kind in ("table", "code") and _caption(block))
    ]


def _caption(block: Block) -> bool:
    """A short paragraph that labels what follows it: no sentence end, no colon, one line's length, and
    no result of its own ("Gap is 0.2292 ==> 0.2064 (-9.95%)" is one)."""
    text = plain_text([block])
    return (
        len(text) <= CAPTION_CHARS
        and not text.endswith((".", "。", "!", "！", "?", "？", ":", "："))
        and not _FIGURE_MARK.search(text)
    )


_NULLS = frozenset({"none", "null", "~", "nil", ""})


def _value(text: str) -> str:
    """A default as compared across files: `None`, `null` and `~` are one value; quotes do not count."""
    value = text.strip().strip("\"'").lower()
    return "none" if value in _NULLS else value


# A default written anew (or made required): what "defaults changed" means; a key that now follows
# another (`follows`) has no default of its own here.
_DEFAULT_KINDS = ("default_changed", "required")


def _changed_defaults(f: PRFeatures, kinds: tuple[str, ...] = _DEFAULT_KINDS) -> list[ConfigChange]:
    """The defaults the PR changes (or, with `kinds`, the changed values of those kinds), each once: a
    key whose default moves from the same old to the same new value in several places (a dataclass field
    and the YAML files that mirror it) is one change."""
    seen: set[tuple[str, str, str]] = set()
    distinct = []
    for c in f.config_changes:
        if c.old is None or c.new is None or c.kind not in kinds:
            continue
        same = (c.key.rsplit(".", 1)[-1], _value(c.old), _value(c.new))
        if same not in seen:
            seen.add(same)
            distinct.append(c)
    return distinct


def _sources(c: ConfigChange) -> tuple[str, str]:
    """What a key that now follows another read before and reads now: the keys (or `$VARIABLES`) its
    interpolations name, the old value itself where it was a literal."""
    old, new = c.old or "", c.new or ""
    return ", ".join(references(old)) or old, ", ".join(references(new))


# At most this many configuration facts are stored for a PR (the busiest verl PR has 111; a generated
# config file could add thousands of keys).
CONFIG_FACTS_MAX = 200


def config_facts(f: PRFeatures) -> tuple[ConfigFact, ...]:
    """The configuration changes of the diff as language-neutral facts, each once (keys mirrored across
    files count once, as the key points count them): defaults changed or made required, keys that now
    follow another, renamed and moved keys, keys added and removed, command-line options and the
    environment variables read (not the ones every process reads), in that order."""
    facts = [ConfigFact(c.key, c.kind, c.old or "", c.new or "", c.path) for c in _changed_defaults(f)]
    facts += [ConfigFact(c.key, "follows", *_sources(c), c.path) for c in _changed_defaults(f, ("follows",))]
    facts += [ConfigFact(r.new, "renamed", r.old, r.new, r.path) for r in f.config_renamed]
    facts += [ConfigFact(m.path, "moved", m.old, m.new, m.new) for m in f.config_moved]
    for kind in ("added", "removed"):
        first: dict[str, ConfigChange] = {}
        for c in f.config_changes:
            if c.kind == kind:
                first.setdefault(c.key, c)
        facts += [ConfigFact(c.key, c.kind, c.old or "", c.new or "", c.path) for c in first.values()]
    facts += [ConfigFact(h.line, "flag_added", file=h.path) for h in f.cli_args]
    facts += [ConfigFact(h.line, "flag_removed", file=h.path) for h in f.cli_removed]
    env: tuple[tuple[ConfigKind, tuple[LineHit, ...]], ...] = (
        ("env_added", f.env_added),
        ("env_removed", f.env_removed),
    )
    for kind, hits in env:
        facts += [ConfigFact(h.line, kind, file=h.path) for h in hits if not _ROUTINE_ENV.search(h.line)]
    return tuple(facts[:CONFIG_FACTS_MAX])


def _names(hits: Iterable[LineHit]) -> list[str]:
    """Definition names without their signatures (`forward(self, x)` -> `forward`)."""
    return [h.line.split("(")[0] for h in hits]


# Method names every class may have: listed after the names that say what a PR adds ("SkipAction,
# SkipConfig and get", not "get, run and SkipConfig" when a list is cut short).
_ROUTINE_NAME = re.compile(
    r"(?:get|set|run|call|apply|update|reset|step|init|setup|build|load|save|forward|backward|main|process|"
    r"wrapper|inner|start|stop|close|open|read|write)",
    re.IGNORECASE,
)


def _telling_first(names: list[str]) -> list[str]:
    """`names` with the routine method names last, the others in their order."""
    return sorted(names, key=lambda name: bool(_ROUTINE_NAME.fullmatch(name)))


# Environment variables every process of a distributed job or a module's logger reads (a new file's
# `os.getenv("VERL_LOGGING_LEVEL", "WARN")`): reading one is no news about the change.
_ROUTINE_ENV = re.compile(
    r"^(?:(?:LOCAL_|NODE_|GROUP_)?RANK|(?:LOCAL_)?WORLD_SIZE|MASTER_(?:ADDR|PORT)|HOME|PATH|USER|PWD|TMPDIR)$|"
    r"(?:^|_)LOG_?LEVEL$|(?:^|_)LOGGING_LEVEL$"
)


def _diff_points(
    f: PRFeatures,
    language: Language,
    reverting: bool = False,
    hazards: Hazards | None = None,
    led: bool = False,
) -> list[str]:
    """What the diff adds, removes or renames that a user of the code sees: public definitions, config
    keys and defaults, command-line options, environment variables, dependency pins (those outside what
    the project ships only as `_pins_to_point` says; `led` when the author's points come first). For a
    revert only the defaults and pins it sets back: the definitions and keys it takes out are the
    reverted change's."""
    points: list[str] = []
    if reverting:
        for c in _changed_defaults(f)[:2]:
            points.append(_default_text(c, language, "kp"))
        if f.dependency_changes:
            changes = _join((_dependency_text(d, language) for d in f.dependency_changes), language)
            points.append(say("kp.dependency", language, changes=changes))
        return points
    if f.api_renamed:
        renames = (say("rename", language, old=r.old, new=r.new) for r in f.api_renamed)
        points.append(say("kp.api_renamed", language, renames=_join(renames, language)))
    if f.config_renamed:
        renames = (say("rename", language, old=r.old, new=r.new) for r in f.config_renamed)
        points.append(say("kp.config_renamed", language, renames=_join(renames, language)))
    if f.files_renamed:
        paths = list(dict.fromkeys(say("rename", language, old=r.old, new=r.new) for r in f.files_renamed))
        points.append(say("kp.files_renamed", language, moves=_join(paths, language), n=len(f.files_renamed)))
    for key, moves in (("kp.api_moved", f.api_moved), ("kp.config_moved", f.config_moved)):
        if moves:
            # The files of the first move, with every name that made the same move.
            first = moves[0]
            names = _join((m.path for m in moves if (m.old, m.new) == (first.old, first.new)), language)
            points.append(say(key, language, names=names, keys=names, old=first.old, new=first.new))
    for key, rehomed in (
        ("kp.api_into_class", f.api_into_class),
        ("kp.api_out_of_class", f.api_out_of_class),
    ):
        if rehomed:
            calls = (
                say("rename", language, old=r.old, new=r.new) if r.old != r.new else r.old for r in rehomed
            )
            points.append(say(key, language, changes=_join(calls, language)))
    if f.api_added:
        points.append(
            say("kp.api_added", language, names=_join(_telling_first(_names(f.api_added)), language, limit=4))
        )
    if f.api_removed:
        names = _join(_names(f.api_removed), language)
        unread = _unread_code(f)
        if unread:
            points.append(say("kp.api_removed_unread", language, names=names, path=unread))
        else:
            points.append(say("kp.api_removed", language, names=names))
    if f.api_changed:
        points.append(say("kp.api_changed", language, names=_join((h.line for h in f.api_changed), language)))
    if f.api_extended:
        points.append(
            say("kp.api_extended", language, names=_join((h.line for h in f.api_extended), language))
        )
    for c in _changed_defaults(f)[:2]:
        points.append(_default_text(c, language, "kp"))
    for c in _changed_defaults(f, ("follows",))[:1]:
        old, new = _sources(c)
        points.append(say("kp.config_follows", language, key=c.key, old=old, new=new, path=c.path))
    added = [c.key for c in f.config_changes if c.old is None]
    if added:
        points.append(say("kp.config_added", language, keys=_join(added, language, limit=4)))
    removed = [c.key for c in f.config_changes if c.new is None]
    if removed:
        points.append(say("kp.config_removed", language, keys=_join(removed, language, limit=4)))
    if f.cli_args:
        points.append(say("kp.cli", language, args=_join((h.line for h in f.cli_args), language, limit=4)))
    if f.cli_removed:
        points.append(say("kp.cli_removed", language, args=_join((h.line for h in f.cli_removed), language)))
    if hazards is not None and hazards.modules_removed:
        points.append(say("kp.modules_removed", language, modules=_join(hazards.modules_removed, language)))
    env_set = hazards.env_set if hazards is not None else ()
    if env_set:
        points.append(say("kp.env_set", language, assignments=_env_assignments(env_set, language)))
    set_names = {e.name for e in env_set}
    env_added = [h.line for h in f.env_added if not _ROUTINE_ENV.search(h.line) and h.line not in set_names]
    if env_added:
        points.append(say("kp.env_added", language, names=_join(env_added, language)))
    env_removed = [h.line for h in f.env_removed if not _ROUTINE_ENV.search(h.line)]
    if env_removed:
        points.append(say("kp.env_removed", language, names=_join(env_removed, language)))
    pins = _pins_to_point(f, after=led or bool(points))
    if pins:
        changes = _join((_dependency_text(d, language) for d in pins), language)
        points.append(say("kp.dependency", language, changes=changes))
    return points


# A title about dependencies or images: "bump", "upgrade sglang", "pin transformers", "依赖", "镜像".
_ABOUT_DEPENDENCIES = re.compile(
    r"\b(?:bump\w*|pin(?:s|ned|ning)?|upgrad\w*|downgrad\w*|versions?|deps?|dependenc\w*|requirements?|"
    r"images?|docker\w*|dockerfiles?|install\w*|uv|pip|conda)\b|升级|降级|依赖|镜像|版本",
    re.I,
)


def _pins_to_point(f: PRFeatures, after: bool) -> list[DependencyChange]:
    """The dependency changes worth a key point: pins in what the project ships; pins in examples,
    scripts, docs or tests only when the PR is about them (its title speaks of versions or images, or
    names a pinned package with a version, `vllm013`, or the PR is a pin and little else); pins in CI workflows then, in a CI PR, or `after`
    other points. A PR adding training scripts is not about the torch its install script pins, nor a
    rollout feature about its CI job's image: there the risks list them."""
    title = f.title.text
    named = any(re.search(rf"\b{re.escape(d.name)}[\s=v-]*\d", title, re.I) for d in f.dependency_changes)
    small = f.additions + f.deletions <= w.PIN_PR_LINES
    about = named or small or bool(_ABOUT_DEPENDENCIES.search(title))
    ci = after or "ci" in (*f.title.modules, f.title.type_word) or all(x.kind == "ci" for x in f.files)
    return [d for d in f.dependency_changes if ships(d.path) or about or (ci and file_kind(d.path) == "ci")]


# A sentence of a revert's description that says why the change is undone.
_REVERT_REASON = re.compile(
    r"\b(?:because|caus(?:e|es|ed|ing)|broke|breaks|broken|breaking|regress\w*|degrad\w*|due to|fail\w*|"
    r"crash\w*|hang\w*|wrong|incorrect\w*|bugs?|errors?|slow\w*|conflict\w*)\b|导致|因为|由于|引起|回归|报错|失败|错误",
    re.I,
)


def _revert_reason(f: PRFeatures, language: Language) -> str | None:
    """The first sentence of a revert's description that says why it undoes the change ("torch-npu
    2.7.1.post2 contains known bugs in the VLM model"), references and mentions left out."""
    blocks = (b for section in f.body.sections for b in section.blocks if b.kind in ("para", "list", "quote"))
    for block in blocks:
        for sentence in _SENTENCE_SPLIT.split(" ".join(plain_text([block]).split())):
            text = " ".join(REFERENCE.sub(" ", sentence).split()).strip(" -*:;,.()")
            # "Revert the actor changes that cause…" says what as much as why: a lead point, no reason.
            opens = _TYPE_ECHO["revert"].match(text)
            if len(text) >= 12 and not opens and _REVERT_REASON.search(text) and readable_in(text, language):
                return _clip(text, POINT_CHARS)
    return None


def _reverted(undone: RevertClues, f: PRFeatures, language: Language) -> str | None:
    """What a revert undoes and why, as its title and description say (`Reverts #5330: it fails the
    fully-async CI`); the undone PR's title only when this title does not quote it already; None when
    that is all the title says."""
    title = TITLE_MARKERS.sub("", TITLE_NUMBER.sub("", undone.title or "")).strip()
    known = _title_words(f.title.text)
    if title and {_stem(word) for word in _WORDS.findall(title.lower())} - _FILLER_WORDS <= known:
        title = ""  # `Revert "X"`: the title says what is undone
    reason = _revert_reason(f, language)
    number = undone.numbers[0] if undone.numbers else None
    if number and reason:
        point = say("kp.reverts_why", language, number=number, reason=reason)
    elif number and title:
        point = say("kp.reverts", language, number=number, title=_clip(title, POINT_CHARS))
    elif number:
        point = say("kp.reverts_number", language, number=number)
    elif title:
        point = say("kp.reverts_title", language, title=_clip(title, POINT_CHARS))
    elif reason:
        point = say("kp.reverts_reason", language, reason=reason)
    else:
        return None
    said = {_stem(word) for word in _WORDS.findall(point.lower())} - _FILLER_WORDS
    return None if said <= known else point


def _key_points(
    f: PRFeatures,
    author: AuthorText,
    reviews: list[str],
    language: Language,
    undone: RevertClues | None = None,
    hazards: Hazards | None = None,
    reason: str = "",
) -> list[str]:
    """Up to MAX_KEY_POINTS: the author's lead (quoted), a measured result, then the diff's user-visible
    facts that the verdict `reason` does not already name, then the first review remark. Where none of these exist there is no point: "the change
    centres on X" tells a reader nothing the title and the reading guide do not. A revert opens with the change it undoes, and its diff's definitions and keys are that change's."""
    points: list[str] = []
    reverted = _reverted(undone, f, language) if undone is not None else None
    if reverted:
        points.append(reverted)
    # What breaks, when the author says it; a title tag alone ("[BREAKING]") would only restate the
    # title here, while the diff points below name what was removed or renamed.
    note = f.breaking_note
    if note and note != "BREAKING CHANGE" and not _restates(note, f) and readable_in(note, language):
        points.append(say("kp.breaking", language, note=_clip(note, POINT_CHARS)))
    # The author's statement leads the key points even when the gist quotes it: the chat's answer about
    # a PR shows its key points, not its gist, and the gist is clipped to a line.
    opening = author.opening
    action = author.action if author.action != author.opening else None
    items = list(author.items)
    measured = [m if readable_in(m, language) else "; ".join(measured_figures(m)) for m in author.measured]
    measured = [m for m in measured if m]
    lead = [
        t
        for t in (opening, action, *items)
        if t
        and not _restates(t, f)
        and _says_something(t)
        and readable_in(t, language)
        and not (measured and _distinct([measured[0], t]) == [measured[0]])  # said as "Measured:" below
    ]
    points += [_clip(_unreferenced(t), POINT_CHARS) for t in lead[: w.MAX_LEAD_POINTS]]
    if measured:
        points.append(say("kp.measured", language, sentence=_clip(measured[0], POINT_CHARS)))
    diff = _diff_points(
        f, language, reverting=undone is not None, hazards=hazards or Hazards(), led=bool(points)
    )
    diff = [d for d in diff if not _names_only_the_title(d, f) and not _names_only_the_reason(d, reason)]
    reviews = [r for r in reviews if readable_in(r, language)]
    room = max(w.MIN_DIFF_POINTS, w.MAX_KEY_POINTS - len(points) - (1 if reviews else 0))
    points += diff[:room]
    if reviews:
        points.append(say("kp.review", language, text=reviews[0]))
    return _distinct(points)[: w.MAX_KEY_POINTS]


def _names_only_the_title(point: str, f: PRFeatures) -> bool:
    """Whether a fact of the diff names only what the title names ("New config keys: seed" under "Add
    `data.seed` to config", "New public definitions: unfuse_moe_params" under "move unfuse_moe_params
    to FSDP backend"): its words past the label are the title's, and so are its identifiers."""
    rest = _LABEL.sub("", point, count=1)
    title = f.title.text.lower()
    return not _content_words(rest) - _title_words(f.title.text) and all(
        name.lower() in title for name in code_identifiers(rest)
    )


# The label of a diff fact ("Public definitions removed: ", "新增配置项：") and what separates its names
# ("a, b and c", "a、b", "old → new").
_FACT_LABEL = re.compile(r"^[^:：\n]*[:：]\s*")
_NAME_SEPARATOR = re.compile(r"\s*(?:,|，|、|\band\b|和|及|→)\s*")


def _names_only_the_reason(point: str, reason: str) -> bool:
    """Whether a fact of the diff only lists names the verdict reason already shows ("New config keys:
    pad_to_length, pad_to_length_bucket" beside "adds config keys (pad_to_length, pad_to_length_bucket)",
    "Renamed: a → b" beside "a rename or move (a → b)"): the reader has read it. A fact that lists more
    names ("… and 6 more"), or says more than names (a default's values, a new signature), adds to it."""
    if not reason:
        return False
    names = [n for n in _NAME_SEPARATOR.split(_FACT_LABEL.sub("", point, count=1).strip()) if n]
    return bool(names) and all(re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.(])", reason) for name in names)


# "This PR …" / "本 PR …" opening the author's sentence: in a point about the PR, it is the PR again.
_SELF_REFERENCE = re.compile(
    r"^(?:this (?:pr|pull request)(?: also)?\s+|(?:本|该|此)\s*pr\s*)", re.IGNORECASE
)


def _unreferenced(text: str) -> str:
    """The author's sentence without its opening "This PR"/"本 PR" (what follows opens with a capital)."""
    rest = _SELF_REFERENCE.sub("", text, count=1)
    return rest[:1].upper() + rest[1:] if rest != text and rest else text


# A short label opening a point ("破坏性变更：", "BREAKING CHANGE:", "Default changed:"), left out when
# points are compared.
_LABEL = re.compile(r"^[^:：\n]{1,24}[:：]\s+|^[^:：\n]{1,8}[:：]")
# The share of a point's words another point holds for the two to say the same thing.
SAME_POINT = 0.8


def _distinct(points: list[str]) -> list[str]:
    """`points` without one that says what an earlier point says (most of its words, labels and markup
    left out, are the earlier one's): the author's note and the analyzer's quote of it are one point."""
    kept: list[tuple[str, set[str]]] = []
    for point in points:
        words = set(_WORDS.findall(_LABEL.sub("", point, count=1).lower())) - _FILLER_WORDS
        if not words:
            continue
        if any(len(words & other) >= SAME_POINT * min(len(words), len(other)) for _, other in kept):
            continue
        kept.append((point, words))
    return [point for point, _ in kept]


def _action_is_gist(action: str | None, f: PRFeatures, language: Language) -> bool:
    """The author's sentence of what the PR does is the gist in its own language, unless it only says
    what the title says, or the PR is a revert: there "This PR introduces a breaking change…" is about
    the PR it undoes."""
    return (
        bool(action)
        and f.title.type_word != "revert"
        and bool(_HAN.search(action or "")) == (language == "zh")
        and not _restates(action or "", f)
    )


def _gist_source(author: AuthorText, f: PRFeatures, language: Language) -> str | None:
    """The author's sentence the gist quotes: the one saying what the PR does, else the first listed
    change that says it (a body of bullets, or a Chinese 改动 list); None when neither is the gist."""
    for said in (author.action, author.listed_action):
        if said and _action_is_gist(said, f, language) and _says_something(said):
            return said
    return None


# Content words a sentence of the author's needs, references left out, to lead: "Fix a bug introduced in
# <url>" says only that there was a bug.
LEAD_CONTENT_WORDS = 2


def _says_something(text: str) -> bool:
    return len(_content_words(REFERENCE.sub(" ", text))) >= LEAD_CONTENT_WORDS


def _content_words(text: str) -> set[str]:
    """The stemmed words of `text` that carry content: fillers and the vocabulary of any change left out."""
    return {_stem(word) for word in _WORDS.findall(text.lower())} - _GENERIC_WORDS


@lru_cache(maxsize=1024)
def _title_words(title: str) -> frozenset[str]:
    return frozenset(_stem(word) for word in _WORDS.findall(title.lower()))


@lru_cache(maxsize=1024)
def _known_words(title: str, modules: tuple[str, ...], folders: tuple[str, ...]) -> frozenset[str]:
    """What a reader of the PR's title knows already: the title's words and the initials of its runs of
    three to five words ("DCP" for "dynamic context parallel"), the modules, and `folders`."""
    words = [_stem(word) for word in _WORDS.findall(title.lower())]
    initials = {
        "".join(word[0] for word in words[i : i + n]) for n in range(3, 6) for i in range(len(words) - n + 1)
    }
    named = " ".join((*modules, *folders))
    return frozenset({*words, *initials, *(_stem(word) for word in _WORDS.findall(named))})


def _restates(text: str, f: PRFeatures) -> bool:
    """Whether `text` says no more than the title: at most one word of its own, or two among many of the
    title's, and no code identifier the title does not name (`moe_router_pre_softmax`)."""
    words = _content_words(text)
    own = words - _title_words(f.title.text)
    if len(own) > RESTATED_MAX_OWN:
        return False  # more than the modules, folders and acronyms below could ever account for
    if len(own) > 1:
        # The folders of the title's modules are the title's too: "to checkpoint-engine" for `[ckpt]`.
        modules = f.title.modules
        folders = {
            folder for x in f.files if x.module in modules for folder in x.path.lower().split("/")[:-1]
        }
        own -= _known_words(f.title.text, (*modules, *f.path_modules), tuple(sorted(folders)))
    if not (len(own) <= 1 or (len(own) == 2 and len(own) * RESTATED_SHARE <= len(words))):
        return False
    title = f.title.text.lower()
    return all(name.lower() in title for name in code_identifiers(text))


def _gist(
    f: PRFeatures, author: AuthorText, change_type: ChangeType, modules: tuple[str, ...], language: Language
) -> str:
    """One line in `language`: the author's own statement of what the PR does ("This PR adds…", "Pads the
    completions…") when it is written in that language and says more than the title; else the kind of
    change, its main module, and what the title says, each said once (no "fix: Fix…", "文档：文档：…",
    "test test change"); an English reader of a Chinese title gets what the diff centres on instead."""
    said = _gist_source(author, f, language)
    if said:
        what = ACTION_PREFIX.sub("", said, count=1).strip()
        return _clip(what[:1].upper() + what[1:], GIST_CHARS).rstrip("。.")
    what = _clip(f.title.description, POINT_CHARS)
    kind = say(f"type.{change_type}", language)
    module = modules[0] if modules and modules[0] not in _TYPE_PLACES.get(change_type, ()) else None
    if not readable_in(what, language):
        return _diff_gist(f, kind, module, language)
    if _TYPE_ECHO[change_type].match(what):
        # The title's first word says the kind of change already.
        return say("gist.untyped", language, module=module, what=what) if module else what
    if module is None:
        return say("gist.bare", language, type=kind[:1].upper() + kind[1:], what=what)
    # The main module only: a list of module names ("fsdp、megatron等 5 项") says nothing of the change.
    return say("gist", language, module=module, type=kind, what=what)


# The modules that are where a kind of change lives: a docs change in `doc` is "documentation", not
# "doc documentation".
_TYPE_PLACES: dict[ChangeType, tuple[str, ...]] = {"doc": ("doc",), "test": ("test",)}
# A title that opens with its own kind of change ("Fix padding…", "修复 Qwen2-VL…", "Docs: …").
_TYPE_ECHO: dict[str, re.Pattern[str]] = {
    change_type: re.compile(pattern, re.I)
    for change_type, pattern in {
        "feat": r"^(?:feat(?:ure)?s?\b|新功能)",
        "fix": r"^(?:fix(?:es|ed|ing)?\b|bug ?fix|hotfix|修复|修正)",
        "refactor": r"^(?:refactor\w*|重构)",
        "perf": r"^(?:perf\b|optimi[sz]\w*|优化)",
        "test": r"^(?:tests?\b|测试)",
        "doc": r"^(?:docs?\b|documentation\b|文档)",
        "chore": r"^(?:chore\b)",
        "revert": r"^(?:revert\w*|回滚|回退)",
    }.items()
}


# A run of Latin script in a title of another script: the names it holds (`Qwen2-VL`, `weight sync`).
_LATIN_RUN = re.compile(r"[A-Za-z0-9_`'][A-Za-z0-9_.`'/ -]*[A-Za-z0-9_`']|[A-Za-z]")


def _diff_gist(f: PRFeatures, kind: str, module: str | None, language: Language) -> str:
    """A gist for a reader who cannot read the title's language: the kind of change, the failure a fix's
    title names (`修复 LoRA 合并时显存泄漏` is a fix for a leak), the names the title holds in Latin script
    (`Qwen2-VL`, `position_ids`), and the function the change centres on, else its dependency changes,
    else its largest file. The title itself is not translated: it stays the PR's title, in its language."""
    kind = f"{module} {kind}" if module else kind[:1].upper() + kind[1:]
    severe = [k for k in f.title_keywords if k in w.SEVERE_KEYWORDS]
    if severe and f.title.type_word != "revert":
        kind = say("gist.symptom", language, kind=kind, symptom=say(f"kw.{severe[0]}", language))
    names = [run.strip(" .,:;-") for run in _LATIN_RUN.findall(f.title.description)]
    names = [name for name in names if len(name) >= 2]
    if names:
        kind = say("gist.names", language, kind=kind, names=_join(names, language))
    if f.focus:
        return say("gist.focus", language, kind=kind, name=f.focus[0].line, path=_file_name(f.focus[0].path))
    if f.dependency_changes:
        changes = _join((_dependency_text(d, language) for d in f.dependency_changes), language, limit=2)
        return say("gist.what", language, kind=kind, what=changes)
    largest = _largest(f.files)
    if largest is None:
        return kind
    if f.changed_files > 1:
        return say(
            "gist.files", language, kind=kind, path=_file_name(largest.path), n=_count(f.changed_files)
        )
    return say("gist.what", language, kind=kind, what=_file_name(largest.path))


def _file_name(path: str) -> str:
    """A file by its name: a gist names the file, the reading guide its path (the folders of a path,
    `src/llamafactory/…`, would read as the PR's subject)."""
    return path.rsplit("/", 1)[-1]


def _design_sentence(f: PRFeatures) -> str | None:
    """The sentence where the author explains a design choice: in a design/approach section first, then
    anywhere in the description; one that names a file outside the diff, or leans on sentences before it
    ("uses the same approach"), is skipped."""
    if not _DESIGN_CUE.search(f.body.prose):
        return None
    changed = tuple(x.path for x in f.files)
    design = [s for s in f.body.sections if s.heading in f.design_sections]
    for sections in (design, f.body.sections):
        for section in sections:
            # one block a line: a list item's end is a sentence's end though it has no full stop
            sentences = (s for block in section.plain.split("\n") for s in _SENTENCE_SPLIT.split(block))
            for sentence in join_unbalanced(sentences):
                sentence = sentence.strip()
                if (
                    len(sentence) >= 30
                    and _DESIGN_CUE.search(sentence)
                    and not leans_on_context(sentence)
                    and not names_unchanged_file(sentence, changed)
                ):
                    return _clip(sentence, POINT_CHARS)
    return None


def _verify(
    f: PRFeatures,
    change_type: ChangeType,
    author: AuthorText,
    risks: list[Risk],
    language: Language,
    start: LineHit | None = None,
) -> str | None:
    """What a reader should check: the most serious risk's mechanism; else, for a fix, that the failure
    it names is gone; else the result the author measured; else whether the changed tests cover the
    function the guide starts at (`start`, else the one the change centres on)."""
    centre = f.focus[0] if f.focus else None
    focus = start or centre
    for risk in risks:
        if risk.category in ("memory", "concurrency"):
            signals = f.memory_signals if risk.category == "memory" else f.concurrency_signals
            hit = next((h for h in signals if _hit(h) == risk.evidence), None)
            if hit is not None:
                where = _call_where(hit, language)
                return say(f"guide.verify.{risk.category}", language, where=where, code=_call_code(hit))
        if risk.category == "config":
            first = next(iter(_changed_defaults(f)), None)
            if first is not None:
                return say("guide.verify.config", language, key=first.key, old=first.old)
        if risk.category == "dependency":
            # Each with the version the diff asks for (an image with its tag): "resolve transformers" alone
            # names no version to check.
            names = [
                f"{d.name}{':' if d.image else ' '}{d.new}" if d.new else d.name
                for d in f.dependency_changes
                if d.change != "removed"
            ]
            if names:
                return say("guide.verify.dependency", language, names=_join(names, language))
        branch = next((h for h in f.platform_hits if h.line and _hit(h) == risk.evidence), None)
        if branch is not None:
            return say(
                "guide.verify.branch",
                language,
                where=_call_where(branch, language),
                code=_branch_code(branch.line),
                kind=say(f"platform.{_branch_kind(branch.line)}", language),
            )
        if risk.evidence.startswith(tuple(x.path for x in f.platform_hits if not x.line)):
            continue  # a file for one platform: nothing downstream to check
        if (
            risk.category in ("breaking-change", "compatibility")
            and risk.evidence
            and readable_in(risk.evidence, language)
        ):
            return say("guide.verify.compatibility", language, evidence=_clip_evidence(risk.evidence, 80))
    symptom = _symptom(f, language) if change_type == "fix" else None
    if symptom:
        if focus is None:
            return say("guide.verify.symptom_bare", language, symptom=symptom)
        return say("guide.verify.symptom", language, symptom=symptom, name=focus.line)
    figures = [m if readable_in(m, language) else "; ".join(measured_figures(m)) for m in author.measured]
    figures = [m for m in figures if m]
    if figures:
        return say("guide.verify.measured", language, figure=_clip(figures[0], 100))
    if focus is None:
        return None
    tests = [x.path for x in f.files if x.kind == "test" and x.status != "removed"]
    if tests and focus != centre:
        return None  # which tests name the start was read for the centre only: nothing true to say
    if f.focus_tests:
        return say("guide.verify.tested", language, test=f.focus_tests[0], name=focus.line)
    if tests:
        return say(
            "guide.verify.unrelated_tests", language, test=_join(tests, language, limit=2), name=focus.line
        )
    # What the author says the change does (their opening may only state the problem).
    claims = [
        t
        for t in (author.action, *author.items, author.opening)
        if t and readable_in(t, language) and not leans_on_context(t)
    ]
    if claims:
        return say("guide.verify.claim", language, name=focus.line, claim=_clip(claims[0], 90).rstrip("。."))
    return say("guide.verify.untested", language, name=focus.line)


_EXCEPTION = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b")


def _symptom(f: PRFeatures, language: Language) -> str | None:
    """The failure a fix names: an exception its description or title quotes (`GraphRecursionError`),
    else a severe keyword of its title (OOM, a hang)."""
    quoted = _EXCEPTION.search(f"{f.title.text}\n{f.body.prose}")
    if quoted:
        return quoted.group(0)
    severe = [k for k in f.title_keywords if k in w.SEVERE_KEYWORDS]
    return say(f"kw.{severe[0]}", language) if severe else None


_READ_LAST = frozenset({"ci", "doc", "test", "asset", "generated"})


def _reading_guide(
    f: PRFeatures,
    change_type: ChangeType,
    verdict: Verdict,
    author: AuthorText,
    design: str | None,
    risks: list[Risk],
    follow_ups: list[str],
    language: Language,
    start: LineHit | None = None,
) -> tuple[str, ...]:
    """For a must-read or worth-reading PR: where to start (`start`, the largest added or changed public
    definition, else the focus the features found unless the PR deletes it), the design decision, what
    to verify, and what a follow-up should add. Empty for a skim."""
    if verdict == "skim":
        return ()
    guide: list[str] = []
    removed = {h.line.split("(")[0] for h in f.api_removed}
    focus = start or next(
        (h for h in f.focus if h.line.rsplit(".", 1)[-1] not in removed and not h.line.startswith("__")), None
    )
    kept = [x for x in f.files if x.status != "removed"]
    # The largest code file; without shipped code, an example's or recipe's source, else the largest file
    # that changes what users run (a dependency file, a config, a script or image) before CI and docs.
    largest = (
        _largest(x for x in kept if x.is_code)
        or _largest(x for x in kept if x.kind == "source")
        or _largest(x for x in kept if x.kind not in _READ_LAST)
        or _largest(kept)
    )
    focus_lines = next((x.lines for x in kept if focus is not None and x.path == focus.path), 0)
    # The focus is read from the patches GitHub sent; a code file at least twice its size whose patch
    # was cut (#5041's 354-line distillation losses beside a 124-line agent loop) is where to start.
    cut = largest is not None and not largest.patched and largest.lines >= 2 * focus_lines
    if focus is not None and not cut:
        guide.append(say("guide.start", language, path=focus.path, name=focus.line))
    elif largest is not None:
        guide.append(say("guide.start_file", language, path=largest.path))
    if (
        design
        and readable_in(design, language)
        and design.rstrip("。.;；") != (author.action or "").rstrip("。.;；")
    ):
        guide.append(say("guide.design", language, text=design))  # not the gist again
    check = _verify(f, change_type, author, risks, language, focus)
    if check:
        guide.append(check)
    if follow_ups:
        # A test for the file the reading starts in is a test of its function: named, not the file alone.
        tests_for_focus = focus is not None and follow_ups[0] in (
            say("fu.add_test", language, path=focus.path),
            say("fu.regression_test", language, path=focus.path),
        )
        if focus is not None and tests_for_focus:
            guide.append(say("guide.follow_up_test", language, path=focus.path, name=focus.line))
        else:
            guide.append(say("guide.follow_up", language, text=follow_ups[0]))
    return tuple(guide)


def _review_highlights(pr: PullRequest) -> list[str]:
    """Up to three substantive human review remarks: requested changes first, then inline comments,
    then the longest; each as `@author (path): first sentence`."""
    remarks: list[tuple[int, int, str]] = []
    bots = ("[bot]", "codecov", "github-actions", "gemini-code-assist", "coderabbitai")
    for order, review in enumerate(pr.reviews):
        body = " ".join(valid_text(review.body).split())
        if len(body) >= 30 and not review.author.lower().endswith(bots):
            rank = 0 if review.state.upper() == "CHANGES_REQUESTED" else 2
            remarks.append((rank, order, f"@{review.author}: {_clip(body, POINT_CHARS)}"))
    for order, comment in enumerate(pr.comments):
        body = " ".join(valid_text(comment.body).split())
        if (
            len(body) >= 30
            and not comment.author.lower().endswith(bots)
            and comment.author != pr.header.author
        ):
            where = f" ({comment.path})" if comment.path else ""
            rank = 1 if comment.path else 3
            remarks.append(
                (rank, len(pr.reviews) + order, f"@{comment.author}{where}: {_clip(body, POINT_CHARS)}")
            )
    remarks.sort(key=lambda r: (r[0], r[1]))
    return [text for _, _, text in remarks[:3]]


def _modules(f: PRFeatures) -> tuple[str, ...]:
    """The title's modules, else the paths'. A title whose modules hold none of the code the diff changes,
    only its docs, CI or images (`[doc] chore: npu docker support vllm013` that patches megatron), is
    joined by the modules of the paths: the tag names one kind of file, not where the code changed."""
    declared = f.title.modules
    if not declared:
        return f.path_modules
    code = [x for x in f.files if x.is_code and x.status != "removed"]
    tagged = [x for x in f.files if x.module in declared]
    if (
        sum(x.lines for x in code) < w.UNTAGGED_CODE_MIN_LINES
        or not tagged  # a tag of a concern (`[misc]`, `[perf]`) rather than of a place
        or any(x.is_code for x in tagged)
        or not any(x.module not in declared for x in code)
    ):
        return declared
    return (*declared, *(m for m in f.path_modules if m not in declared))


def _unread_code(f: PRFeatures) -> str | None:
    """The most changed source file that gained lines but came without its patch (GitHub cuts them on
    large PRs): what the PR removes elsewhere may have moved there."""
    unread = [x for x in f.files if x.kind == "source" and x.additions and not x.patched]
    return max(unread, key=lambda x: x.additions).path if unread else None


def _code_modules(f: PRFeatures) -> tuple[str, ...]:
    """The paths' modules that hold shipped code (all of them when none does): the modules a title's tags
    would name, as docs, examples and CI beside the code span no more of the product."""
    code = {x.module for x in f.files if x.is_code}
    return tuple(m for m in f.path_modules if m in code) or f.path_modules


# --- the analyzer ------------------------------------------------------------------------------------


class HeuristicAnalyzer:
    """The offline analyzer. Deterministic: the same PR always gives the same Analysis.

    `module_map` fixes the map for every PR; without it each PR's repository map is loaded (and cached)
    from `maps_dir` (PRHUB_MODULE_MAP_DIR) or the bundled `module_maps/`. `language` ("zh" or "en") is
    the default language of generated sentences."""

    name = "heuristic"
    version = w.ANALYZER_VERSION

    def __init__(
        self, module_map: ModuleMap | None = None, language: Language = "zh", maps_dir: Path | None = None
    ) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}; expected one of {', '.join(LANGUAGES)}")
        self._module_map = module_map
        self._language: Language = language
        self._maps_dir = maps_dir

    def module_map_for(self, repo: str) -> ModuleMap:
        """The map used for `repo`'s PRs: the one given to the constructor, else the repository's own."""
        return self._module_map or load_module_map(repo, maps_dir=self._maps_dir)

    def analyze(self, pr: PullRequest, language: Language | None = None) -> Analysis:
        """The analysis of one PR; generated sentences in `language` (default: the analyzer's)."""
        lang: Language = language or self._language
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
        f = extract_features(pr, self.module_map_for(pr.repo))
        author = read_author_text(f.body, tuple(x.path for x in f.files), f.title.text)
        change_type = infer_change_type(f, author.action or author.opening)
        modules = _modules(f)
        # The score counts the modules the PR is about (the title's, else the paths'): a docs or CI tag
        # joined by the paths' modules places the PR better, but spans no more of the product.
        scored = f.title.modules or _code_modules(f)
        importance_points = importance_parts(f, change_type, scored)
        insight_points = insight_parts(f, change_type)
        importance = _total(importance_points)
        insight = _total(insight_points)
        verdict = decide_verdict(importance, insight, f.breaking)
        undone = revert_clues(f.title.text, f.body.text) if change_type == "revert" else None
        reviews = _review_highlights(pr)
        design = _design_sentence(f) if verdict != "skim" else None
        # Risks are found once (their categories, severities and evidence do not depend on the language),
        # then worded in each language; `assess_risks` keeps the same rule order in both.
        hazards = find_hazards(pr, f)
        start = reading_start(pr, f) if verdict != "skim" else None
        worded = {language: assess_risks(f, change_type, language, hazards) for language in LANGUAGES}
        risks = worded[lang][0]
        reasons = {
            language: verdict_reason(
                verdict, importance_points, insight_points, f, change_type, scored, language
            )
            for language in LANGUAGES
        }
        texts: dict[str, LocalizedAnalysis] = {
            language: LocalizedAnalysis(
                gist=_gist(f, author, change_type, modules, language),
                verdict_reason=reasons[language],
                key_points=tuple(
                    _key_points(f, author, reviews, language, undone, hazards, reasons[language])
                ),
                risks=tuple(r.text for r in worded[language][0]),
                follow_ups=tuple(worded[language][1]),
                reading_guide=_reading_guide(
                    f,
                    change_type,
                    verdict,
                    author,
                    design,
                    worded[language][0],
                    worded[language][1],
                    language,
                    start,
                ),
            )
            for language in LANGUAGES
        }
        own = texts[lang]
        return Analysis(
            title_zh=f.title.text,
            summary=_summary(f, change_type, modules, lang),
            modules=modules,
            change_type=change_type,
            breaking=f.breaking,
            importance=importance,
            insight=insight,
            verdict=verdict,
            verdict_reason=own.verdict_reason,
            key_points=own.key_points,
            risks=tuple(risks),
            tests=f.tests_changed and not hazards.tests.only_hollow,
            follow_ups=own.follow_ups,
            review_highlights=tuple(reviews),
            analyzer=self.name,
            analyzer_version=self.version,
            texts=texts,
            config=config_facts(f),
        )
