"""Every sentence prhub says to a user, Chinese and English side by side.

Tests compare against `say(...)`, never against copied strings. Values are formatted in with
`str.format`; they are plain text (renderers escape them), never markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

Language = Literal["zh", "en"]

_MESSAGES: dict[str, tuple[str, str]] = {
    # Weekly report -----------------------------------------------------------------------------------
    "report.title": (
        "{repo} {year}年第{week}周（{start}至{end}）周报",
        "{repo} weekly report, {year}-W{week:02d}",
    ),
    "report.quiet": (
        "{repo} 在 {period} 没有合并任何 PR。",
        "{repo} merged no pull requests in {period}.",
    ),
    "report.headline": (
        "本周合并 {count} 个 PR，重点在{themes}；{attention}",
        "{count} PRs merged this week, led by {themes}; {attention}",
    ),
    "report.attention": ("需关注：{risk}。", "watch: {risk}."),
    "report.no_attention": ("未发现需要特别关注的风险。", "no risk stands out."),
    "report.meta": (
        "仓库 {repo} · 周期 {period} · 合并 {count} 个 PR · {key} · 生成于 {generated}",
        "Repo {repo} · period {period} · {count} PRs merged · {key} · generated {generated}",
    ),
    # Key PRs are the reading list: the must-read and worth-reading PRs, as the chat counts them.
    "report.meta.key": ("重点 PR {n} 个（必读 {must} 个）", "{n} key PRs ({must} must-read)"),
    "report.meta.key.one": ("", "1 key PR ({must} must-read)"),
    "report.meta.key.none": ("没有必读或值得一读的 PR", "no PR rated must-read or worth reading"),
    "report.period": ("{start} 至 {end}", "{start} to {end}"),
    "report.summary": (
        "本周合并 {count} 个 PR（上周 {previous} 个，{delta}），平均重要性 {importance}，平均洞察 {insight}。"
        "改动主要集中在{themes}。{must_read}{breaking}",
        "{count} PRs were merged this week ({previous} the week before, {delta}), with an average importance "
        "of {importance} and an average insight of {insight}. Most changes were in {themes}.{must_read}{breaking}",
    ),
    "report.must_read": (
        "重点 PR（阅读清单）{n} 个：必读 {must} 个、值得一读 {worth} 个（{prs}）。",
        " The reading list has {n} key PRs: {must} must-read and {worth} worth reading ({prs}).",
    ),
    "report.must_read.one": (
        "",
        " The reading list has 1 key PR: {must} must-read and {worth} worth reading ({prs}).",
    ),
    # A week without a must-read: its key PRs are all worth reading, not "0 must-read and 21 worth reading".
    "report.must_read.worth_only": (
        "重点 PR（阅读清单）{n} 个，均为值得一读，没有必读（{prs}）。",
        " The reading list has {n} key PRs, all worth reading and none must-read ({prs}).",
    ),
    "report.must_read.worth_only.one": (
        "",
        " The reading list has 1 key PR, worth reading and not must-read ({prs}).",
    ),
    "report.breaking": (
        "{n} 个包含破坏性变更（{prs}），升级前请核对。",
        " {n} contain breaking changes ({prs}); check them before upgrading.",
    ),
    "report.reverted": (
        "{n} 个改动在本周内被回滚（{pairs}），下文不再列出。",
        " {n} changes were reverted within the week ({pairs}) and are left out below.",
    ),
    "report.reverted.pair": ("{pr} 由 {by} 回滚", "{pr} by {by}"),
    "report.reverted_earlier": (
        "本周回滚了此前合并的改动：{pairs}。",
        " Reverted this week from earlier weeks: {pairs}.",
    ),
    "report.reverted_earlier.pair": ("{by} 回滚 {pr}", "{by} reverts {pr}"),
    "report.delta_up": ("增加 {n} 个", "up {n}"),
    "report.delta_down": ("减少 {n} 个", "down {n}"),
    "report.delta_same": ("持平", "unchanged"),
    "report.risk.missing-tests": (
        "{n} 个 PR 修改了代码但没有相应测试：{prs}",
        "{n} PRs change code without tests: {prs}",
    ),
    "report.follow_up.breaking": (
        "升级前核对破坏性变更 {prs} 对下游配置和接口的影响。",
        "Before upgrading, check how the breaking changes {prs} affect downstream configs and APIs.",
    ),
    "report.follow_up.high_risk": ("优先评审高风险 PR {prs}。", "Review the high-risk PRs {prs} first."),
    "report.follow_up.read": (
        "精读 {prs}，了解本周最重要的设计与改动。",
        "Read {prs} closely: the week's most important designs and changes.",
    ),
    "report.and_more": ("及其他 {n} 个", "and {n} more"),
    # Themes, mechanisms, trends and participants (issue 13) ------------------------------------------
    "report.highlight": ("{theme}：{prs}", "{theme}: {prs}"),
    "report.highlight.pr": ("{what}（#{pr}）", "{what} (#{pr})"),
    "report.highlight.pr.point": ("{what}（#{pr}）：{point}", "{what} (#{pr}): {point}"),
    "report.highlight.more": ("；另有 {n} 个 PR", "; and {n} more PRs"),
    "report.change.point": ("{change}。{point}", "{change}. {point}"),
    "report.theme.label": ("{theme}（{modules}）", "{theme} ({modules})"),
    "report.theme.count": ("{theme}（{n}）", "{theme} ({n})"),
    "report.risk.mechanism": ("#{pr} {text}（{evidence}）", "#{pr}: {text} ({evidence})"),
    "report.risk.mechanism.bare": ("#{pr} {text}", "#{pr}: {text}"),
    # A change known to be breaking only from its title's [BREAKING] tag: what breaks, when the analysis
    # says it (another risk, a removal or rename among its key points), never the title again.
    "report.risk.breaking": (
        "#{pr} 破坏性变更：{what}（{evidence}）",
        "#{pr}: breaking change: {what} ({evidence})",
    ),
    "report.risk.breaking.bare": ("#{pr} 破坏性变更：{what}", "#{pr}: breaking change: {what}"),
    "report.risk.breaking.modules": ("#{pr}（{modules}）{what}", "#{pr} ({modules}): {what}"),
    "report.risk.untested": (
        "{n} 个改动代码的 PR 没有新增或修改测试：{prs}",
        "{n} code PRs come without new or changed tests: {prs}",
    ),
    "report.risk.untested.one": ("", "1 code PR comes without new or changed tests: {prs}"),
    "report.follow_up.theme": ("{theme} · #{pr}：{text}", "{theme} · #{pr}: {text}"),
    # English sentences never start with a module: a module is an identifier, never capitalised.
    "report.trend.rise": (
        "{module} 增至本周 {count} 个（上周 {previous} 个），例如 #{example}。",
        "PRs in {module} rose to {count} ({previous} the week before), led by #{example}.",
    ),
    "report.trend.fall": (
        "{module} 从上周 {previous} 个降到 {count} 个。",
        "PRs in {module} fell from {previous} to {count}.",
    ),
    "report.trend.new": (
        "{module} 本周新出现 {count} 个 PR。",
        "New this week: {count} PRs in {module}.",
    ),
    "report.trend.shift": (
        "本周重心转向{up}（{up_previous} → {up_count} 个，例如 #{example}），{down}减少（{down_previous} → {down_count} 个）。",
        "Work moved toward {up} ({up_previous} → {up_count} PRs, led by #{example}) and away from {down} "
        "({down_previous} → {down_count}).",
    ),
    "report.trend.theme_rise": (
        "{up}增加最多（{up_previous} → {up_count} 个，例如 #{example}）。",
        "{up} grew the most ({up_previous} → {up_count} PRs, led by #{example}).",
    ),
    "report.trend.theme_fall": (
        "{down}减少最多（{down_previous} → {down_count} 个）。",
        "{down} shrank the most ({down_previous} → {down_count} PRs).",
    ),
    # The same when the week's volume changed a lot: a move is against it, and the sentence says so.
    "report.trend.shift.scaled": (
        "相对 PR 总数的变化（{previous} → {count} 个），本周重心转向{up}（{up_previous} → {up_count} 个，例如 "
        "#{example}），{down}占比下降（{down_previous} → {down_count} 个）。",
        "Against the week's volume ({previous} → {count} PRs), work moved toward {up} ({up_previous} → "
        "{up_count}, led by #{example}) and away from {down} ({down_previous} → {down_count}).",
    ),
    "report.trend.theme_rise.scaled": (
        "相对 PR 总数的变化（{previous} → {count} 个），{up}占比上升最多（{up_previous} → {up_count} 个，例如 #{example}）。",
        "Against the week's volume ({previous} → {count} PRs), {up} gained the most ({up_previous} → "
        "{up_count}, led by #{example}).",
    ),
    "report.trend.theme_fall.scaled": (
        "相对 PR 总数的变化（{previous} → {count} 个），{down}占比下降最多（{down_previous} → {down_count} 个）。",
        "Against the week's volume ({previous} → {count} PRs), {down} lost the most ({down_previous} → "
        "{down_count}).",
    ),
    "report.trend.volume": (
        "各主题与模块随 PR 总数同步变化（上周 {previous} 个，本周 {count} 个）。",
        "Themes and modules moved with the week's volume ({previous} → {count} PRs).",
    ),
    "report.trend.steady": (
        "各主题与模块的 PR 数与上周相近。",
        "Themes and modules drew about as many PRs as the week before.",
    ),
    "report.participants": (
        "参与者：{authors} 位作者（{top_authors}），{reviewers} 位评审（{top_reviewers}）。",
        "Participants — authors: {authors} ({top_authors}); reviewers: {reviewers} ({top_reviewers}).",
    ),
    "report.participants.no_reviews": (
        "参与者：{authors} 位作者（{top_authors}），本周没有记录到评审。",
        "Participants — authors: {authors} ({top_authors}); no reviews were recorded this week.",
    ),
    "report.section.reading_guides": ("阅读指南", "Reading guides"),
    "report.section.highlights": ("本周亮点", "Highlights"),
    "report.section.risks": ("风险观察", "Risk observations"),
    "report.section.full": ("完整周报", "Full report"),
    "report.section.summary": ("执行摘要", "Executive summary"),
    "report.section.changes": ("重点改动（按主题）", "Key changes by theme"),
    "report.section.trends": ("模块与主题趋势", "Module and theme trends"),
    "report.section.key_prs": ("重点 PR", "Key pull requests"),
    "report.section.follow_ups": ("后续建议", "Follow-up suggestions"),
    "report.column.pr": ("PR", "PR"),
    "report.column.title": ("标题", "Title"),
    "report.column.module": ("模块", "Module"),
    "report.column.importance": ("重要性", "Importance"),
    "report.column.key_point": ("要点", "Key point"),
    "report.column.name": ("名称", "Name"),
    "report.column.count": ("本周", "This week"),
    "report.column.previous": ("上周", "Last week"),
    "report.column.change": ("变化", "Change"),
    "report.trend.modules": ("模块", "Modules"),
    "report.trend.themes": ("主题", "Themes"),
    "report.button.full": ("完整周报", "Full report"),
    "report.button.markdown": ("Markdown", "Markdown"),
    "report.button.pdf": ("PDF", "PDF"),
    "report.button.risks": ("本周风险", "This week's risks"),
    "report.more_prs": ("共 {n} 个重点 PR，完整列表：", "{n} key PRs in all; the full list: "),
    "report.more_prs.one": ("", "1 key PR in all; the full list: "),
    # Under the full report's key-PR table: the reading list's PRs past its rows.
    "report.key_prs.rest": ("另有 {n} 个重点 PR：{prs}", "{n} more key PRs: {prs}"),
    "report.key_prs.rest.one": ("", "1 more key PR: {prs}"),
    # A week with no PR worth reading: the table shows its most important PRs under this heading.
    "report.section.key_prs.none": (
        "最重要的 PR（本周没有必读或值得一读的 PR）",
        "Most important PRs (none rated must-read or worth reading)",
    ),
    "report.more_prs.local": (
        "共 {n} 个重点 PR，完整列表运行：",
        "{n} key PRs in all; for the full list run ",
    ),
    "report.more_prs.local.one": ("", "1 key PR in all; for the full list run "),
    "report.generated_by": ("由 prhub 生成（{prose}）", "Generated by prhub ({prose})"),
    "report.prose.template": ("模板", "templates"),
    "report.prose.llm": ("LLM 撰写摘要", "LLM-written summary"),
    # English singulars: `say` takes "KEY.one" instead of "KEY" when `n` (or `count`) is 1 --------------
    "report.headline.one": ("", "1 PR merged this week, in {themes}; {attention}"),
    "report.summary.one": (
        "",
        "1 PR was merged this week ({previous} the week before, {delta}), with an importance of "
        "{importance} and an insight of {insight}. It was in {themes}.{must_read}{breaking}",
    ),
    "report.reverted.one": ("", " 1 change was reverted within the week ({pairs}) and is left out below."),
    "report.breaking.one": ("", " 1 contains breaking changes ({prs}); check it before upgrading."),
    "report.risk.missing-tests.one": ("", "1 PR changes code without tests: {prs}"),
    "qa.count.one": ("", "1 PR"),
    "pr.meta.one": ("", "{repo} · by {author} · merged {merged} · +{additions}/-{deletions} · 1 file"),
    "qa.empty.offer.one": ("", "The last complete week, {week} ({period}), merged 1 PR; try: “{example}”"),
    "report.theme_heading": ("{name} · {n} 个 PR", "{name} · {n} PRs"),
    "report.theme_heading.one": ("", "{name} · 1 PR"),
    "report.severity.high": ("高", "high"),
    "report.severity.medium": ("中", "medium"),
    "report.severity.low": ("低", "low"),
    # One PR -----------------------------------------------------------------------------------------
    "pr.meta": (
        "{repo} · 作者 {author} · 合并于 {merged} · +{additions}/-{deletions} · {n} 个文件",
        "{repo} · by {author} · merged {merged} · +{additions}/-{deletions} · {n} files",
    ),
    "pr.open": ("在 GitHub 打开", "open on GitHub"),
    "pr.not_analyzed": (
        "这个 PR 还没有分析结果（运行 prhub analyze）。",
        "This PR has not been analysed yet (run prhub analyze).",
    ),
    "pr.verdict.must-read": ("必读", "must-read"),
    "pr.verdict.worth-reading": ("值得一读", "worth reading"),
    "pr.verdict.skim": ("浏览即可", "skim"),
    "pr.field.importance": ("重要性", "Importance"),
    "pr.field.insight": ("洞察", "Insight"),
    "pr.field.verdict": ("结论", "Verdict"),
    "pr.field.modules": ("模块", "Modules"),
    "pr.field.type": ("类型", "Type"),
    "pr.field.tests": ("测试", "Tests"),
    "pr.tests.yes": ("有新增或修改", "added or changed"),
    "pr.tests.no": ("无", "none"),
    "pr.section.key_points": ("要点", "Key points"),
    "pr.section.files": ("改动的文件（按改动行数）", "Files changed (most lines first)"),
    "pr.section.risks": ("风险", "Risks"),
    "pr.section.follow_ups": ("后续建议", "Follow-ups"),
    "pr.section.reviews": ("评审要点", "Review highlights"),
    "pr.section.reading_guide": ("阅读指南", "How to read it"),
    "pr.analyzed_by": ("分析器：{analyzer}", "Analysed by {analyzer}"),
    # Answers ----------------------------------------------------------------------------------------
    "qa.window": ("{start} 至 {end}", "{start} to {end}"),
    "qa.window.as_of": ("{start} 至 {end}（截至 {now}）", "{start} to {end} (as of {now})"),
    "qa.window.all_time": ("全部时间", "all time"),
    "qa.heading": ("{repo} · {window}", "{repo} · {window}"),
    "qa.freshness": ("索引更新于 {synced}", "Index last synced {synced}"),
    "qa.freshness.never": (
        "索引尚未从 GitHub 同步（数据来自导入）",
        "Index not synced from GitHub yet (imported data)",
    ),
    "qa.count": ("共 {n} 个 PR", "{n} PRs"),
    "qa.empty": (
        "{repo} 在 {window} 没有符合条件的已合并 PR。",
        "{repo} has no merged PRs matching that in {window}.",
    ),
    "qa.empty.offer": (
        "上一个完整周 {week}（{period}）合并了 {n} 个 PR，可以问：“{example}”",
        "The last complete week, {week} ({period}), merged {n} PRs; try: “{example}”",
    ),
    "qa.empty.offer_example": ("上周 {name} 有哪些风险？", "what were the risks in {name} last week?"),
    "qa.future": (
        "{window} 还没有开始，没有可回答的内容。",
        "{window} has not started yet, so there is nothing to report.",
    ),
    "qa.risks.title": ("风险观察", "Risk observations"),
    "qa.risks.more": ("及其他 {n} 条风险", "and {n} more risks"),
    # A risk whose analysis was written in the other language only: its category, in the asker's.
    "qa.risk.missing-tests": ("修改了代码但没有相应测试", "changes code without tests"),
    "qa.risk.where": ("（{evidence}）", " ({evidence})"),
    "qa.risk.dependency": ("变更了依赖或镜像版本", "changes dependency or image versions"),
    "qa.risk.breaking-change": ("含破坏性变更", "contains a breaking change"),
    "qa.risk.memory": ("涉及显存/内存敏感代码", "touches memory-sensitive code"),
    "qa.risk.concurrency": ("涉及并发或分布式代码", "touches concurrent or distributed code"),
    "qa.risk.config": ("修改了配置默认值", "changes configuration defaults"),
    "qa.risk.performance": ("可能影响性能", "may affect performance"),
    "qa.risk.security": ("涉及安全相关代码", "touches security-sensitive code"),
    "qa.risk.compatibility": ("有兼容性风险", "carries a compatibility risk"),
    "qa.risk.other": ("有其他风险", "carries another risk"),
    # A risk's category as a short label (PR cards)
    "risk.label.missing-tests": ("缺测试", "no tests"),
    "risk.label.dependency": ("依赖", "dependency"),
    "risk.label.breaking-change": ("破坏性", "breaking"),
    "risk.label.memory": ("显存/内存", "memory"),
    "risk.label.concurrency": ("并发", "concurrency"),
    "risk.label.config": ("配置", "config"),
    "risk.label.performance": ("性能", "performance"),
    "risk.label.security": ("安全", "security"),
    "risk.label.compatibility": ("兼容性", "compatibility"),
    "risk.label.other": ("其他", "other"),
    "qa.risks.none": ("这些 PR 的分析中没有发现风险。", "The analyses of these PRs found no risks."),
    # Asked for the risks of one severity ("高风险", "high-severity risks").
    "qa.risks.at": ("{severity}风险（{n} 条）", "{severity}-severity risks ({n})"),
    "qa.risks.none_at": (
        "这段时间没有{severity}风险。",
        "No {severity}-severity risks in this window.",
    ),
    "qa.risks.instead": (
        "{severity}风险有 {n} 条：",
        "There are {n} {severity}-severity ones:",
    ),
    "qa.risks.instead.one": ("", "There is one {severity}-severity one:"),
    "qa.risks.from_report": (
        "来自 {week} 周报（第 {version} 版）",
        "From the {week} weekly report (version {version})",
    ),
    "qa.person.none": ("这段时间没有 TA 的 PR。", "No PRs by them in this span."),
    "qa.merged_on": ("{date} 合并", "merged {date}"),
    "qa.newest.title": ("最新合并（按合并时间）", "Latest merges (newest first)"),
    "qa.highlights.title": ("主要改动（按重要性）", "Main changes (by importance)"),
    "qa.must_read.title": ("值得精读", "Worth a close read"),
    # Asked for the must-reads alone ("必读的 PR"): those, then, when there are few, the others worth reading.
    "qa.must_read.only_title": ("必读 PR（{n} 个）", "Must-read PRs ({n})"),
    "qa.must_read.only_none": (
        "这段时间没有被评为“必读”的 PR。",
        "No PR in this window was rated must-read.",
    ),
    "qa.must_read.also": ("另外值得一读（非必读）", "Also worth reading (not must-read)"),
    "qa.why.title": ("为什么是 #{number}", "Why #{number}"),
    "qa.respelled": (
        "索引的 PR 标题里没有这个词，按拼写最接近的词搜索：{pairs}。",
        "No PR title uses that word; searching for the closest spelling: {pairs}.",
    ),
    "qa.respelled.pair": ("'{written}' → '{word}'", "'{written}' → '{word}'"),
    "qa.why.scores": ("重要性 {importance} / 洞察 {insight}", "importance {importance} / insight {insight}"),
    "qa.why.reading": ("怎么读：", "How to read it:"),
    "qa.must_read.none": (
        "这段时间没有被评为“必读”或“值得一读”的 PR；最重要的几个是：",
        "No PR in this window was rated must-read or worth-reading; the most important ones are:",
    ),
    "qa.topic.title": ("相关 PR：{filters}", "Matching PRs: {filters}"),
    "qa.config.title": ("配置改动", "Configuration changes"),
    # A PR's line in a configuration answer: each kind of its recorded config facts, keys as code.
    "qa.config.default_changed": ("默认值变更：{items}", "defaults changed: {items}"),
    "qa.config.item.default_changed": ("`{key}` `{before}` → `{after}`", "`{key}` `{before}` → `{after}`"),
    "qa.config.required": (
        "不再有默认值、必须显式设置：{items}",
        "no default any more, must be set: {items}",
    ),
    "qa.config.item.required": ("`{key}`（原为 `{before}`）", "`{key}` (was `{before}`)"),
    "qa.config.follows": (
        "改为引用其他配置（不是新的默认值）：{items}",
        "now follows another setting (no new default): {items}",
    ),
    "qa.config.item.follows": (
        "`{key}` → `{after}`（原为 `{before}`）",
        "`{key}` → `{after}` (was `{before}`)",
    ),
    "qa.config.added": ("新增配置项：{items}", "new config keys: {items}"),
    "qa.config.item.added": ("`{key}`", "`{key}`"),
    "qa.config.removed": ("删除配置项：{items}", "removed config keys: {items}"),
    "qa.config.item.removed": ("`{key}`", "`{key}`"),
    "qa.config.renamed": ("配置项改名：{items}", "config keys renamed: {items}"),
    "qa.config.item.renamed": ("`{before}` → `{after}`", "`{before}` → `{after}`"),
    "qa.config.moved": ("配置项移动位置：{items}", "config keys moved: {items}"),
    "qa.config.item.moved": ("`{key}`（{before} → {after}）", "`{key}` ({before} → {after})"),
    "qa.config.flag_added": ("新增命令行参数：{items}", "new command-line options: {items}"),
    "qa.config.item.flag_added": ("`{key}`", "`{key}`"),
    "qa.config.flag_removed": ("删除命令行参数：{items}", "removed command-line options: {items}"),
    "qa.config.item.flag_removed": ("`{key}`", "`{key}`"),
    # A config key's value, asked of the key ("queue.capacity 现在默认是多少", "--max-inflight"): the newest
    # PR recording it says what it is now.
    "qa.config.value.default_changed": (
        "{key} 现在的默认值是 {after}：#{number}（{date}）把它从 {before} 改为 {after}。",
        "{key} now defaults to {after}: #{number} ({date}) changed it from {before} to {after}.",
    ),
    "qa.config.value.added": (
        "{key} 由 #{number}（{date}）新增，默认值 {after}。",
        "{key} was added by #{number} ({date}) with the default {after}.",
    ),
    "qa.config.value.required": (
        "{key} 自 #{number}（{date}）起必须显式设置，此前默认值是 {before}。",
        "{key} must be set explicitly since #{number} ({date}); it defaulted to {before} before.",
    ),
    "qa.config.value.renamed": (
        "{before} 已由 #{number}（{date}）改名为 {after}。",
        "{before} was renamed to {after} by #{number} ({date}).",
    ),
    "qa.config.value.change": (
        "#{number}（{date}）{before} → {after}",
        "#{number} ({date}) {before} → {after}",
    ),
    "qa.config.value.earlier": ("此前：{changes}。", " Before that: {changes}."),
    "qa.config.value.none": (
        "找到的 PR 的分析里没有记录 {key} 的取值变化；下面是提到它的 PR。",
        "The analyses of the PRs found record no change of {key}'s value; these are the PRs that mention it.",
    ),
    "qa.config.more": ("等 {total} 项", " and {n} more"),
    # Who works on what a question names ("谁在维护 dataloader"), most PRs first.
    "qa.people.title": ("谁在改 {subject}（按 PR 数排序）", "Who works on {subject} (most PRs first)"),
    "qa.people.title.all": ("谁在提交 PR（按 PR 数排序）", "Who is merging PRs (most PRs first)"),
    "qa.open.title": ("合并前开得最久的 PR", "PRs open longest before merging"),
    "qa.open": ("开了 {time} 才合并", "open {time} before merging"),
    "qa.hours": ("{n} 小时", "{n} h"),
    "qa.days": ("{n} 天", "{n} days"),
    "qa.stats.open": ("从创建到合并（中位数 / 最长）", "Open before merging (median / longest)"),
    "qa.size.title": ("改动最大的 PR（按改动行数）", "The largest PRs (most lines changed)"),
    "qa.size": ("{files} 个文件，+{added}/−{removed} 行", "{files} files, +{added}/−{removed} lines"),
    "qa.size.lines": ("+{added}/−{removed} 行", "+{added}/−{removed} lines"),
    "qa.versus.title": ("{subjects}：各自合并的 PR 数", "{subjects}: merged PRs each"),
    "qa.versus.more": ("{subject} 更多：{n} 个 PR，对 {m} 个。", "{subject} had more: {n} PRs against {m}."),
    "qa.versus.tie": ("一样多：各 {n} 个 PR。", "A tie: {n} PRs each."),
    "qa.versus.count": ("{n} 个 PR", "{n} PRs"),
    "qa.people.title.new": (
        "首次在这个仓库合并 PR 的贡献者",
        "First-time contributors (their first merged PR in this repo)",
    ),
    "qa.people.none_new": (
        "{repo} 在 {window} 没有首次合并 PR 的新贡献者。",
        "{repo} had no first-time contributors in {window}.",
    ),
    # Who reviewed the most PRs ("谁审的 PR 最多", "top reviewers"), bots and authors' own reviews left out.
    "qa.people.title.reviewers": (
        "谁 review 的 PR 最多（不计机器人和作者本人的 review）",
        "Who reviewed the most PRs (bots and authors' own reviews left out)",
    ),
    "qa.people.title.reviewers_of": (
        "谁在 review {subject}（按 review 的 PR 数排序，不计机器人和作者本人）",
        "Who reviews {subject} (most PRs reviewed first; bots and authors' own reviews left out)",
    ),
    "qa.people.reviewed.one": ("review 了 1 个 PR：", "reviewed 1 PR: "),
    "qa.people.reviewed.many": ("review 了 {n} 个 PR：", "reviewed {n} PRs: "),
    "qa.reviews.nobody": (
        "{repo} 在 {window} 合并的 {n} 个 PR 都没有他人的 review（机器人和作者本人的 review 不算）。",
        "None of the {n} {repo} PRs merged in {window} was reviewed by anyone but a bot or its author.",
    ),
    # The PRs one person reviewed ("alice review 了哪些 PR", "PRs reviewed by carol").
    "qa.reviewed_by.title": ("{reviewer} review 过的 PR", "PRs reviewed by {reviewer}"),
    "qa.reviewed_by.none": (
        "{reviewer} 没有 review 过 {repo} 在 {window} 合并的 PR。",
        "{reviewer} reviewed none of the {repo} PRs merged in {window}.",
    ),
    # The PRs merged without a review ("哪些 PR 没有经过 review 就合并了", "merged without review").
    "qa.unreviewed.title": ("未经 review 就合并的 PR", "PRs merged without a review"),
    "qa.unreviewed.count": (
        "{window} 合并的 {total} 个 PR 中，有 {n} 个没有经过他人 review（机器人和作者本人的 review 不算）。",
        "{n} of the {total} PRs merged in {window} had no review from anyone but a bot or their author.",
    ),
    "qa.unreviewed.none": (
        "{window} 合并的 {total} 个 PR 都经过了他人的 review。",
        "All {total} PRs merged in {window} were reviewed by someone other than a bot or their author.",
    ),
    # The index holds no reviews of the window's PRs at all (an import from an export without reviews).
    "qa.reviews.unrecorded": (
        "索引里没有 {repo} 在 {window} 合并的 PR 的 review 记录（例如数据导入自不含 review 的导出），"
        "所以无法回答谁 review 了哪些 PR、哪些 PR 未经 review。",
        "The index holds no reviews of the {repo} PRs merged in {window} (for example, they were imported "
        "from an export that carries none), so it cannot say who reviewed what or which PRs went unreviewed.",
    ),
    "qa.people.one": ("1 个 PR：", "1 PR: "),
    "qa.people.many": ("{n} 个 PR：", "{n} PRs: "),
    "qa.understood": (
        "按 {words} 搜索 {repo} {window} 的 PR：",
        "Searching {repo} PRs of {window} for {words}:",
    ),
    "qa.understood.breaking": ("破坏性变更", "breaking changes"),
    # A question about configuration, answered from what the analyses recorded of each PR's diff.
    "qa.understood.config.all": (
        "配置改动（按分析记录：配置项的增删、改名、默认值与引用）",
        "configuration changes (config keys added, removed, renamed, re-defaulted or pointed at another setting, as the analyses recorded them)",
    ),
    "qa.understood.config.default": (
        "默认值改动（按分析记录）",
        "changed defaults (as the analyses recorded them)",
    ),
    "qa.understood.config.cli": (
        "命令行参数增删（按分析记录）",
        "command-line options added or removed (as the analyses recorded them)",
    ),
    "qa.understood.config.added": (
        "新增配置项（按分析记录）",
        "new config keys (as the analyses recorded them)",
    ),
    "qa.understood.config.removed": (
        "配置项删除（按分析记录）",
        "removed config keys (as the analyses recorded them)",
    ),
    "qa.understood.within": (
        "按 {words} 搜索 {repo} {window} 的{filters}：",
        "Searching the {filters} of {repo}, {window}, for {words}:",
    ),
    # The question only filters (breaking changes, untested ones): no words were searched.
    "qa.understood.filtered": ("{repo} {window} 的{filters}：", "{filters} in {repo}, {window}:"),
    # After the PRs flagged breaking: those whose analysis sees a compatibility risk for callers.
    "qa.breaking.may_break": (
        "可能影响调用方（兼容性风险，未标为破坏性变更）",
        "May break callers (compatibility risks, not flagged breaking)",
    ),
    "qa.breaking.none_flagged": (
        "没有被标为破坏性变更的 PR；以下 PR 的分析指出可能影响调用方：",
        "No PR is flagged breaking; the analyses of these say they may break callers:",
    ),
    "qa.understood.untested": ("没有测试的改动", "changes without tests"),
    "qa.understood.semantics": ("改变训练或推理语义的改动", "changes to training or inference semantics"),
    "qa.widened": (
        "{window} 没有符合条件的 PR，以下是 {wider} 的：",
        "No matching PRs in {window}; here are those of {wider}:",
    ),
    "qa.relaxed.kind": (
        "没有这一类的 PR 与 {subject} 相关；以下是与 {subject} 相关的所有 PR：",
        "No PR of that kind is about {subject}; here are all the PRs about it:",
    ),
    "qa.relaxed.subject": (
        "没有与 {subject} 相关的符合条件的 PR；以下是这段时间里所有符合条件的：",
        "No PR about {subject} matches; here are all that match in this window:",
    ),
    # Fewer PRs than a few are about every subject named: those about some of them follow.
    "qa.partial.none": (
        "没有 PR 同时涉及 {subjects}；以下是涉及其中一部分的：",
        "No PR is about all of {subjects}; here are those about some of them:",
    ),
    "qa.partial.some": (
        "只有 {n} 个 PR 同时涉及 {subjects}；以下也列出涉及其中一部分的：",
        "Only {n} PRs are about all of {subjects}; those about some of them follow:",
    ),
    "qa.partial.some.one": (
        "只有 1 个 PR 同时涉及 {subjects}；以下也列出涉及其中一部分的：",
        "Only one PR is about all of {subjects}; those about some of them follow:",
    ),
    "qa.relaxed.terms": (
        "没有 PR 提到 {terms}，按问题的其余部分回答。",
        "No PR mentions {terms}; answering the rest of the question.",
    ),
    "qa.pr.which_repo": (
        "#{number} 在多个已索引仓库里都有：{known}。请带上仓库名再问一次，例如“{example} #{number} 讲了什么？”",
        "Several indexed repos have a #{number}: {known}. Please name the repo, e.g. “what did {example} #{number} change?”",
    ),
    "qa.paths.which_repo": (
        "{path} 在多个已索引仓库里都有：{known}。请带上仓库名再问一次，例如“{example} 里谁改了 {path}？”",
        "Several indexed repos have {path}: {known}. Please name the repo, e.g. “who changed {path} in {example}?”",
    ),
    "qa.author.title": ("{author} 的 PR", "PRs by {author}"),
    "qa.search.title": ("搜索“{text}”", "Search: “{text}”"),
    "qa.stats.title": ("统计", "Statistics"),
    "qa.stats.total": ("合并 PR", "PRs merged"),
    "qa.stats.authors": ("作者数", "Authors"),
    "qa.stats.avg": ("平均重要性 / 洞察", "Average importance / insight"),
    "qa.stats.top_modules": ("最活跃的模块", "Most active modules"),
    "qa.stats.top_authors": ("最活跃的作者", "Most active authors"),
    "qa.stats.types": ("改动类型", "Change types"),
    "qa.stats.per_day": ("平均每天", "Per day"),
    "qa.stats.per_day.value": (
        "{rate} 个（{n} 个 PR / {days} 天）",
        "{rate} ({n} PRs over {days} days)",
    ),
    "qa.compare.title": ("与上一时间段对比（{previous}）", "Compared with the previous window ({previous})"),
    "qa.compare.count": (
        "合并 PR：{now} 个（之前 {before} 个，{delta}）",
        "PRs merged: {now} (before: {before}, {delta})",
    ),
    "qa.compare.importance": (
        "平均重要性：{now}（之前 {before}）",
        "Average importance: {now} (before: {before})",
    ),
    "qa.compare.modules": ("模块变化", "Module changes"),
    # "哪个模块改动最多" / "who merged the most" asked in a comparison: named before the figures.
    "qa.compare.busiest.module": (
        "{window}改动最多的模块是 {names}（{n} 个 PR）",
        "The module changed most in {window} is {names} ({n} PRs)",
    ),
    "qa.compare.busiest.module.before": (
        "；{previous}是 {names}（{n} 个）。",
        "; in {previous} it was {names} ({n}).",
    ),
    "qa.compare.busiest.author": (
        "{window}合并 PR 最多的是 {names}（{n} 个）",
        "Most PRs merged in {window}: {names} ({n})",
    ),
    "qa.compare.busiest.author.before": (
        "；{previous}是 {names}（{n} 个）。",
        "; in {previous}: {names} ({n}).",
    ),
    # A report asked for a month or another span of weeks ("3月份的周报", "report for March").
    "qa.span_reports.title": ("这段时间的周报", "The weekly reports of this span"),
    "qa.span_reports.week": ("{week}（{period}）：{n} 个 PR", "{week} ({period}): {n} PRs"),
    "qa.span_reports.week.one": ("", "{week} ({period}): 1 PR"),
    "qa.span_reports.ask": ("完整周报：", "full report: "),
    "qa.span_reports.command": ("周报 {repo} {week}", "report {repo} {week}"),
    # A comparison with a named whole window ("十月和十一月比") whose asked window is not over yet.
    "qa.compare.partial": (
        "{window}还没有结束，它的数字只统计到现在；{previous}是完整的。",
        "{window} is not over yet: its figures run to now, while {previous} is complete.",
    ),
    "qa.more": ("及其他 {n} 个", "and {n} more"),
    "qa.upgrade.title": ("升级前值得注意的改动", "What to check before upgrading"),
    "qa.upgrade.breaking": ("破坏性变更", "Breaking changes"),
    "qa.upgrade.dependency": ("依赖变化", "Dependency changes"),
    "qa.upgrade.defaults": ("默认值、弃用与移除", "Changed defaults, deprecations and removals"),
    "qa.upgrade.revert": ("回滚", "Reverts"),
    "qa.upgrade.span": (
        "没有指定时间：看的是最近 {days} 天合并的 PR（索引里没有发布版本信息，无法从上一个版本算起）。",
        "No window named: this covers the PRs merged in the past {days} days (the index has no release "
        "tags to count from).",
    ),
    "qa.upgrade.none": (
        "这段时间没有破坏性变更、依赖变化、默认值变更或回滚。",
        "No breaking changes, dependency changes, changed defaults or reverts in this span.",
    ),
    # A reverted PR, then its revert: "#3425 Use vLLM colocate mode（06-03 合并）— 被 #3444 回滚（06-12）".
    "qa.revert.target": ("{title}（{merged} 合并）", "{title} (merged {merged})"),
    "qa.revert.by": ("被 ", "reverted by "),
    "qa.revert.on": (" 回滚（{date}）", " on {date}"),
    "qa.pr_line": (
        "{title} — {modules} · 重要性 {importance}",
        "{title} — {modules} · importance {importance}",
    ),
    # A follow-up asking for a position ("第二个讲了什么") the last answer's list does not have.
    "qa.ordinal.missing": (
        "上一个回答只列了 {n} 个 PR（{prs}），没有第 {position} 个。",
        "The last answer listed {n} PR(s) ({prs}); there is no number {position}.",
    ),
    "qa.ordinal.missing.one": (
        "上一个回答只有一个 PR（{prs}），没有第 {position} 个。问“展开 {prs}”可以看它的详情。",
        'The last answer had only one PR ({prs}); there is no number {position}. Ask "expand {prs}" for its details.',
    ),
    "qa.ordinal.none": (
        "上一个回答没有列出 PR，没有第 {position} 个可以展开。",
        "The last answer listed no PRs, so there is no number {position} to open.",
    ),
    "qa.pr.aspect.breaking.yes": ("#{pr} 是破坏性变更。", "Yes: #{pr} is a breaking change."),
    "qa.pr.aspect.breaking.no": ("#{pr} 没有被标记为破坏性变更。", "No: #{pr} is not flagged as breaking."),
    "qa.pr.aspect.risks.none": ("#{pr} 没有发现风险。", "No risks flagged for #{pr}."),
    "qa.pr.aspect.risks": (
        "#{pr} 有 {n} 条风险（最高：{severity}），见下方“风险”。",
        "#{pr} has {n} flagged risks (most severe: {severity}); see Risks below.",
    ),
    "qa.pr.aspect.risks.one": (
        "#{pr} 有 1 条风险（{severity}），见下方“风险”。",
        "#{pr} has 1 flagged risk ({severity}); see Risks below.",
    ),
    "qa.pr.aspect.tests.yes": ("#{pr} 新增或修改了测试。", "Yes: #{pr} adds or changes tests."),
    "qa.pr.aspect.tests.no": ("#{pr} 没有新增或修改测试。", "No: #{pr} adds or changes no tests."),
    "qa.pr.unknown": (
        "索引里没有 {repo} 的 #{number}。它可能还没合并、不属于这个仓库，或者还没同步（prhub sync {repo}）。",
        "#{number} is not in the index of {repo}. It may be unmerged, in another repo, or not synced yet (prhub sync {repo}).",
    ),
    "qa.paths.all_time": (
        "问题没有指定时间范围，按索引里的全部历史查找。",
        "No time window was named, so every PR in the index was searched, however old.",
    ),
    "qa.pr.not_yet_merged": (
        "截至 {now}，{repo} 的 #{number} 还没有合并，那时还没有可以回答的内容。",
        "As of {now}, #{number} of {repo} had not been merged yet, so there is nothing to say about it then.",
    ),
    "qa.repo.unknown": (
        "索引里没有仓库 {repo}。已索引的仓库：{known}。",
        "The repo {repo} is not indexed. Indexed repos: {known}.",
    ),
    "qa.repo.none_indexed": (
        "还没有索引任何仓库。管理员可以运行 prhub sync OWNER/REPO 开始。",
        "No repository is indexed yet. An admin can start with prhub sync OWNER/REPO.",
    ),
    # Questions across a channel's several subscribed repos (issue 12).
    "qa.across.title": ("{n} 个仓库：{repos}", "Across {n} repos: {repos}"),
    "qa.across.ranking": ("按合并 PR 数：{repos}", "By PRs merged: {repos}"),
    "qa.across.count": ("{repo}（{n} 个）", "{repo} ({n})"),
    "qa.across.quiet": (
        "{repos} 在 {window} 没有符合条件的已合并 PR。",
        "{repos}: no merged PRs matching that in {window}.",
    ),
    "qa.subscribed.none": (
        "这里还没有订阅任何仓库。可以发送“订阅 owner/repo”，或在问题里写上仓库名。",
        "Nothing is subscribed here yet. Send “subscribe owner/repo”, or name the repo in the question.",
    ),
    "qa.repo.which": (
        "想问哪个仓库？已索引：{known}。例如：“本周 {example} 有哪些风险？”",
        "Which repo? Indexed: {known}. For example: “what are this week's risks in {example}?”",
    ),
    "qa.unknown": (
        "我是 prhub：我根据已合并 PR 的索引回答问题（风险、改动、值得精读的 PR），并附上每个 PR 的链接。可以这样问：",
        "I'm prhub: I answer questions about merged pull requests (risks, changes, what deserves a close "
        "read) and link every PR I cite. Ask for example:",
    ),
    "qa.failed": (
        "抱歉，这次没能回答这个问题（内部错误，已记录）。请稍后再试，或换个问法。",
        "Sorry, I could not answer that this time (an internal error, now logged). Please try again later "
        "or ask it another way.",
    ),
    "qa.help.title": ("prhub 能回答这些问题", "What prhub can answer"),
    "qa.help.intro": (
        "我会根据已合并 PR 的索引回答，并给出每个 PR 的链接。可以这样问：",
        "I answer from the index of merged PRs and link every PR I cite. Ask for example:",
    ),
    "qa.help.commands": (
        "命令：周报 {repo} [上周|2026-W25]、帮助",
        "Commands: report {repo} [last week|2026-W25], help",
    ),
    "qa.example.risks": ("本周 {repo} 有哪些风险？", "What are the risks in {repo} this week?"),
    "qa.example.pr": ("#{number} 讲了什么？", "What did #{number} change?"),
    "qa.example.module": ("上周 {module} 有哪些改动？", "What changed in {module} last week?"),
    "qa.example.recent": ("上周有哪些主要改动？", "What were last week's main changes?"),
    "qa.example.must_read": (
        "最近两周有什么值得精读的 PR？",
        "Which PRs in the last two weeks deserve a close read?",
    ),
    "qa.example.stats": (
        "上个月合并了多少 PR，哪个模块最活跃？",
        "How many PRs were merged last month, and which module was most active?",
    ),
    "qa.example.report": ("周报 {repo} 上周", "report {repo} last week"),
    # Chat platforms ----------------------------------------------------------------------------------
    # The question a card's risks button asks; `target` is its value, "owner/repo 2026-W25".
    "button.report_risks.question": ("{target} 有哪些风险？", "What are the risks in {target}?"),
    "chat.apology": (
        "抱歉，这次没能给出回答，请稍后再试。",
        "Sorry, I could not answer this time. Please try again in a moment.",
    ),
    # The toast a Feishu card button shows at once; the answer itself follows in the card's thread.
    "feishu.toast.accepted": ("收到，答案马上发到话题里。", "Got it: the answer follows in the thread."),
    "feishu.toast.unknown": ("这个按钮已经失效了。", "This button no longer works."),
    # Slack "Add to Slack" (adapters/slack/oauth.py): the page the installer sees after Slack's consent ----
    "slack.install.done": (
        "prhub 已安装到 Slack 工作区 {team}。在频道里 @prhub 提问，或用 /prhub help 查看用法。",
        "prhub is installed in the Slack workspace {team}. Mention @prhub in a channel, or try /prhub help.",
    ),
    "slack.install.failed": (
        "安装没有完成（{reason}）。请回到安装页重新开始：{url}",
        "The installation did not complete ({reason}). Please start again from the install page: {url}",
    ),
    # Native surfaces: progress while an answer is worked out, the assistant panel, App Home -----------
    "progress.thinking": ("思考中…", "Thinking…"),
    "assistant.greeting": (
        "你好，我是 prhub：可以问我 {repos} 已合并 PR 的风险、值得精读的改动、某个 PR 讲了什么，或者要一份周报。",
        "Hi, I'm prhub: ask me about the merged PRs of {repos}: risks, changes worth a close read, what a "
        "PR did, or a weekly report.",
    ),
    "assistant.greeting.empty": (
        "你好，我是 prhub。还没有索引任何仓库：先在频道里 `订阅 owner/repo`，之后就可以问它的 PR 了。",
        "Hi, I'm prhub. No repository is indexed yet: `subscribe owner/repo` in a channel, then ask about "
        "its PRs.",
    ),
    "assistant.prompts.title": ("可以这样问：", "Try asking:"),
    "assistant.prompt.risks": ("风险", "Risks"),
    "assistant.prompt.must_read": ("值得精读", "Worth a close read"),
    "assistant.prompt.must_read.question": (
        "上周 {repo} 有哪些值得精读的 PR？",
        "Which {repo} PRs from last week deserve a close read?",
    ),
    "assistant.prompt.report": ("周报", "Weekly report"),
    "assistant.prompt.pr": ("一个 PR", "One PR"),
    "home.title": ("prhub", "prhub"),
    "home.subscriptions": ("*你所在频道的订阅*", "*Subscriptions of your channels*"),
    "home.subscriptions.none": (
        "你所在的频道都还没有订阅仓库。在频道里发 `@prhub 订阅 owner/repo` 即可订阅周报。",
        "None of your channels subscribes to a repo yet. Write `@prhub subscribe owner/repo` in a channel.",
    ),
    "home.subscriptions.unknown": (
        "看不到你所在的频道（应用缺少 channels:read / groups:read 权限），这里无法列出订阅。",
        "prhub cannot see which channels you are in (the app lacks channels:read / groups:read).",
    ),
    "home.subscription": (
        "{repo} · 每{weekday} {time}（{tz}）· {lang}{filters}",
        "{repo} · {weekday}s {time} ({tz}) · {lang}{filters}",
    ),
    "home.edit": ("修改", "Edit"),
    "home.ask": ("*可以问我什么*", "*What you can ask*"),
    "home.modal.title": ("修改订阅", "Edit subscription"),
    "home.modal.save": ("保存", "Save"),
    "home.modal.cancel": ("取消", "Cancel"),
    "home.modal.close": ("关闭", "Close"),
    "home.modal.weekday": ("推送日", "Weekday"),
    "home.modal.time": ("推送时间", "Time"),
    "home.modal.tz": ("时区", "Timezone"),
    "home.modal.lang": ("语言", "Language"),
    "home.modal.modules": (
        "只看这些模块（逗号分隔，可空）",
        "Only these modules (comma-separated, optional)",
    ),
    "home.modal.min_importance": ("最低重要性 0–10（可空）", "Minimum importance 0–10 (optional)"),
    "home.modal.exclude_authors": (
        "排除作者（逗号分隔，可空）",
        "Exclude authors (comma-separated, optional)",
    ),
    "home.modal.bad_tz": (
        "不认识的时区，例如 Asia/Shanghai、Europe/Berlin。",
        "Unknown timezone; e.g. Asia/Shanghai, Europe/Berlin.",
    ),
    "feishu.toast.editing": ("在卡片里修改后点保存。", "Edit it in the card, then save."),
    "feishu.menu.chats_unknown": (
        "看不到你所在的群（应用缺少 im:chat.members:read 权限），这里无法列出订阅。",
        "prhub cannot see which groups you are in (the app lacks im:chat.members:read).",
    ),
    "home.modal.gone": ("这个订阅已经不存在了。", "This subscription no longer exists."),
    "assistant.prompt.pr.question": ("{repo} #{number} 讲了什么？", "What did {repo} #{number} change?"),
    "assistant.status.searching": ("正在检索 {repo} {window}的 PR…", "Searching the {repo} PRs of {window}…"),
    "assistant.status.repo": ("正在检索 {repo} 的 PR…", "Searching the {repo} PRs…"),
    "assistant.status.pr": ("正在查看 {repo} #{number}…", "Reading {repo} #{number}…"),
    "assistant.status.report": (
        "正在整理 {repo} {window}的周报…",
        "Putting together the {repo} report for {window}…",
    ),
    # Subscriptions ----------------------------------------------------------------------------------
    "sub.subscribed": (
        "已订阅 {repo}：每{weekday} {time}（{tz}）推送上一周的周报，语言：{lang}{filters}。下次推送：{next}。",
        "Subscribed to {repo}: every {weekday} at {time} ({tz}) this channel gets last week's report, in {lang}{filters}. Next push: {next}.",
    ),
    "sub.updated": (
        "已更新 {repo} 的订阅：每{weekday} {time}（{tz}），语言：{lang}{filters}。下次推送：{next}。",
        "Updated the subscription to {repo}: every {weekday} at {time} ({tz}), in {lang}{filters}. Next push: {next}.",
    ),
    "sub.filters": ("；筛选：{filters}", "; filters: {filters}"),
    "sub.filter.modules": ("模块 {value}", "modules {value}"),
    "sub.filter.min_importance": ("重要性 ≥ {value}", "importance ≥ {value}"),
    "sub.filter.exclude_authors": ("排除作者 {value}", "excluding authors {value}"),
    "sub.backfill": (
        "{repo} 还没有索引：已确认仓库存在，正在后台回填最近 {weeks} 周的 PR。",
        "{repo} was not indexed yet: the repo exists, and the last {weeks} weeks of PRs are being backfilled in the background.",
    ),
    "sub.unsubscribed": (
        "已取消订阅 {repo}，这个频道不会再收到它的周报。",
        "Unsubscribed from {repo}: this channel will no longer get its report.",
    ),
    "sub.not_subscribed": (
        "这个频道没有订阅 {repo}。{listing}",
        "This channel is not subscribed to {repo}. {listing}",
    ),
    "sub.list.title": ("本频道的订阅", "Subscriptions of this channel"),
    "sub.list.line": (
        "{repo} — 每{weekday} {time}（{tz}），{lang}{filters}；下次推送 {next}",
        "{repo} — every {weekday} at {time} ({tz}), {lang}{filters}; next push {next}",
    ),
    "sub.list.empty": (
        "这个频道还没有订阅。试试：订阅 {example}",
        "This channel has no subscriptions yet. Try: subscribe {example}",
    ),
    "sub.refused.permission": (
        "只有管理员可以修改订阅（PRHUB_ADMINS）。",
        "Only admins may change subscriptions (PRHUB_ADMINS).",
    ),
    "sub.refused.allowlist": (
        "{repo} 不在允许订阅的仓库列表中（PRHUB_ALLOWED_REPOS），请联系管理员。",
        "{repo} is not in the list of repos that may be subscribed (PRHUB_ALLOWED_REPOS); ask an admin.",
    ),
    "sub.refused.bad_name": (
        "{repo} 不是 GitHub 仓库名。请写 owner/name，例如 verl-project/verl。",
        "{repo} is not a GitHub repo name. Write owner/name, e.g. verl-project/verl.",
    ),
    "sub.refused.missing": (
        "GitHub 上找不到仓库 {repo}（或者 token 无权访问）。",
        "The repo {repo} does not exist on GitHub (or the token cannot see it).",
    ),
    "sub.refused.unvalidated": (
        "{repo} 还没有索引，而且现在无法通过 GitHub 验证它：{reason}",
        "{repo} is not indexed and cannot be checked on GitHub right now: {reason}",
    ),
    "sub.refused.unknown_name": (
        "不知道 {repo} 指哪个仓库。请写完整的 owner/name；已索引：{known}。",
        "I don't know which repo {repo} is. Write owner/name in full; indexed: {known}.",
    ),
    "sub.refused.options": (
        "看不懂这些设置：{words}。例如：订阅 verl-project/verl 周一 09:30 tz=Asia/Shanghai lang=zh modules=megatron,fsdp min-importance=6",
        "I can't read these settings: {words}. For example: subscribe verl-project/verl mon 09:30 tz=Europe/Berlin lang=en modules=megatron,fsdp min-importance=6",
    ),
    "sub.refused.no_repo": (
        "要订阅哪个仓库？例如：订阅 verl-project/verl",
        "Which repo? For example: subscribe verl-project/verl",
    ),
    "sub.lang.zh": ("中文", "Chinese"),
    "sub.lang.en": ("英文", "English"),
    "sub.weekday.1": ("周一", "Monday"),
    "sub.weekday.2": ("周二", "Tuesday"),
    "sub.weekday.3": ("周三", "Wednesday"),
    "sub.weekday.4": ("周四", "Thursday"),
    "sub.weekday.5": ("周五", "Friday"),
    "sub.weekday.6": ("周六", "Saturday"),
    "sub.weekday.7": ("周日", "Sunday"),
    "sub.unavailable": (
        "这里不支持订阅命令（没有配置聊天平台）。",
        "Subscription commands are not available here (no chat platform configured).",
    ),
    "push.quiet": (
        "{repo} 在 {week} 没有合并任何符合订阅条件的 PR。",
        "{repo} merged no PRs matching this subscription in {week}.",
    ),
    # Risk ledger (chatbot/team/ledger.py) -------------------------------------------------------------
    "report.section.risk_follow_up": ("上周风险跟进", "Risk follow-up"),
    "ledger.resolved": ("已解决 {n} 条", "{n} resolved"),
    "ledger.followed": ("新的跟进 {n} 条（最严重的在前）", "{n} new follow-ups (most severe first)"),
    "ledger.followed.one": ("", "1 new follow-up"),
    "ledger.still_open": ("仍未解决 {n} 条（最早的在前）", "{n} still open (oldest first)"),
    "ledger.nothing": (
        "前几周没有未解决的风险，本周也没有新的跟进。",
        "No risk from the weeks before is open, and none was followed up this week.",
    ),
    "ledger.state.open": ("未处理", "open"),
    "ledger.state.followed-up": ("已跟进", "followed up"),
    "ledger.state.resolved": ("已解决", "resolved"),
    "ledger.state.accepted": ("不处理", "accepted"),
    "ledger.state.withdrawn": ("已撤回", "withdrawn"),
    "ledger.link.fixes": ("#{number} 说明修复了 #{pr}（已合并）", "#{number} says it fixes #{pr} (merged)"),
    "ledger.link.cites": ("#{number} 引用了 #{pr}", "#{number} cites #{pr}"),
    "ledger.link.function": (
        "#{number} 也改了 {detail}",
        "#{number} also changes {detail}",
    ),
    "ledger.alike": (
        "#{number} 又改了 {detail}，{n} 个更早的 PR 在这里留下的风险仍未解决：{prs}（最严重 [{severity}]：{text}）",
        "#{number} changes {detail} again, where {n} earlier PRs left risks open: {prs} (most severe "
        "[{severity}]: {text})",
    ),
    "ledger.link.undone": ("（关联已撤销：{who}）", " (link undone by {who})"),
    "ledger.closed.resolved": ("{who} 标记为已解决：{reason}", "marked resolved by {who}: {reason}"),
    "ledger.closed.accepted": ("{who} 决定不处理：{reason}", "accepted by {who}: {reason}"),
    "ledger.age": ("已 {n} 天", "{n} days"),
    "ledger.age.one": ("已 {n} 天", "1 day"),
    "ledger.line": ("#{pr} [{severity}] {text}", "#{pr} [{severity}] {text}"),
    "ledger.id": ("编号 {key}", "id {key}"),
    "ledger.pr.title": ("{repo}#{number} 的风险跟进", "Risk follow-up of {repo}#{number}"),
    "ledger.pr.none": (
        "#{number} 的分析没有记录风险。",
        "The analysis of #{number} recorded no risk.",
    ),
    "ledger.open.title": ("{repo} 未解决的风险（{n} 条）", "Open risks in {repo} ({n})"),
    "ledger.open.none": ("{repo} 没有未解决的风险。", "{repo} has no open risk."),
    "ledger.open.recent_title": (
        "{repo} 近 {weeks} 周未解决的高 / 中风险（{n} 条）",
        "Open high and medium risks in {repo}, last {weeks} weeks ({n})",
    ),
    "ledger.open.recent_none": (
        "{repo} 近 {weeks} 周没有未解决的高 / 中风险。",
        "{repo} has no open high or medium risk from the last {weeks} weeks.",
    ),
    "ledger.open.shown": ("列出其中 {shown} 条（共 {n} 条）。", "Showing {shown} of {n}."),
    "ledger.open.rest": (
        "另有 {n} 条更早或低严重度的未解决风险（共 {total} 条）：问「{example}」看全部，或用 prhub risks list {repo}。",
        "{n} more open risks are older or of low severity ({total} in all): ask '{example}' for all of "
        "them, or run prhub risks list {repo}.",
    ),
    "ledger.open.all_example": ("{repo} 所有未解决的风险", "all open risks in {repo}"),
    "ledger.window.title": ("{repo} {window}的风险跟进", "Follow-up of the risks of {repo}, {window}"),
    "ledger.window.summary": (
        "共 {total} 条风险：已解决 {resolved} 条、已跟进 {followed} 条、不处理 {accepted} 条、仍未处理 {open} 条。",
        "{total} risks: {resolved} resolved, {followed} followed up, {accepted} accepted, {open} still open.",
    ),
    "ledger.window.none": ("{repo} {window}没有记录风险。", "{repo} recorded no risk {window}."),
    "ledger.more": ("另有 {n} 条，见 prhub risks list {repo}", "{n} more; see prhub risks list {repo}"),
    "ledger.how_to": (
        "管理员可以回复「resolve 编号 原因」「不处理 编号 原因」「unlink 编号 #PR」。",
        "Admins can reply 'resolve ID why', 'accept ID why' or 'unlink ID #PR'.",
    ),
    "ledger.done.resolved": ("已标记 {keys} 为已解决。", "Marked {keys} resolved."),
    "ledger.done.accepted": ("已标记 {keys} 为不处理。", "Marked {keys} accepted."),
    "ledger.done.unlinked": ("已撤销 {keys} 与 #{number} 的关联。", "Undid the link of {keys} to #{number}."),
    "ledger.not_admin": (
        "只有管理员（PRHUB_ADMINS）可以修改风险状态。",
        "Only admins (PRHUB_ADMINS) can change a risk's state.",
    ),
    "ledger.needs_reason": (
        "请写明原因，例如「不处理 R-k3j9x 仅影响实验脚本」。",
        "Please say why, e.g. 'accept R-k3j9x only affects an example script'.",
    ),
    "ledger.none_for_pr": ("#{number} 没有记录风险。", "#{number} has no recorded risk."),
    "ledger.bad_ref": (
        "「{ref}」不是风险编号（例如 R-k3j9x）或 PR 编号。",
        "'{ref}' is not a risk id (like R-k3j9x) or a PR number.",
    ),
    "ledger.unknown": ("没有编号为 {ref} 的风险。", "No risk has the id {ref}."),
    "ledger.ambiguous": (
        "{ref} 对应多条风险，请多写几位。",
        "{ref} matches several risks; give more of the id.",
    ),
    "ledger.bad_state": (
        "状态只能是已解决或不处理，不能是 {state}。",
        "A risk can be resolved or accepted, not {state}.",
    ),
    "ledger.no_link": ("{ref} 与 #{number} 之间没有关联。", "{ref} is not linked to #{number}."),
    # Reading claims (chatbot/team/reading.py) --------------------------------------------------------
    "reading.section": ("阅读认领", "Reading"),
    "reading.section.read": ("上周阅读", "Read last week"),
    "reading.note": ("#{number} {names} 读完了", "#{number} read by {names}"),
    "reading.nobody": ("还没人认领", "nobody yet"),
    "reading.reading": ("{names} 在读", "{names} reading"),
    "reading.done": ("{names} 已读", "{names} read it"),
    "reading.button.claim": ("我来读 #{number}", "I'll read #{number}"),
    "reading.button.done": ("读完了 #{number}", "Done #{number}"),
    "reading.takeaway": ("{name}：{text}", "{name}: {text}"),
    "reading.takeaways": ("读后感", "Takeaways"),
    "reading.claimed": ("已记录：{name} 认领阅读 #{number}。", "Noted: {name} will read #{number}."),
    "reading.already": ("{name} 已经认领过 #{number}。", "{name} had already claimed #{number}."),
    "reading.finished": ("已记录：{name} 读完了 #{number}。", "Noted: {name} has read #{number}."),
    "reading.need_pr": (
        "请写明 PR 编号，例如「我来读 #6512」或「读完了 #6512 一句话心得」。",
        "Name the PR, e.g. 'I'll read #6512' or 'done #6512 one-line takeaway'.",
    ),
    "reading.state.reading": ("在读", "reading"),
    "reading.state.done": ("已读", "read"),
    "reading.mine.title": ("你认领的 PR（{n} 个）", "PRs you claimed ({n})"),
    "reading.mine.none": (
        "你还没有认领任何 PR：点周报卡片上的「我来读」，或回复「我来读 #6512」。",
        "You have not claimed any PR: press \"I'll read\" on a report card, or reply 'I'll read #6512'.",
    ),
    "reading.unclaimed.title": (
        "{repo} {week} 还没人认领的必读 / 值得一读 PR（{n} 个）",
        "{repo} {week}: must-read and worth-reading PRs nobody has claimed ({n})",
    ),
    "reading.unclaimed.none": (
        "{repo} {week} 的必读 / 值得一读 PR 都有人认领了。",
        "Every must-read and worth-reading PR of {repo} {week} has a reader.",
    ),
    "reading.unclaimed.taken": ("已认领：{claims}", "Claimed: {claims}"),
    "reading.how_to": ("回复「我来读 #PR」认领。", "Reply 'I'll read #PR' to claim one."),
    "reading.toast.claimed": ("已认领", "Claimed"),
    "reading.toast.done": ("已记录读完", "Marked as read"),
    "reading.modal.title": ("读完了", "Done reading"),
    "reading.modal.label": ("一句话心得（可不填）", "One-line takeaway (optional)"),
    "reading.modal.submit": ("提交", "Submit"),
    "reading.form.ask": (
        "读完了 #{number}。写一句心得吗？之后关于这个 PR 的回答会引用它（可不填）。",
        "Done with #{number}. A one-line takeaway? Later answers about the PR quote it (optional).",
    ),
    "reading.toast.takeaway": ("已记录心得", "Takeaway noted"),
    "reading.not_yours": ("这是别人的阅读记录。", "This is someone else's reading."),
    # Feedback and corrections (chatbot/team/feedback.py, corrections.py, calibration.py) ------------
    "feedback.button.up": ("👍 有用", "👍 Helpful"),
    "feedback.button.down": ("👎 有问题", "👎 Not right"),
    "feedback.reason.wrong_prs": ("PR 不对", "Wrong PRs"),
    "feedback.reason.missing_pr": ("漏了 PR", "Missing PR"),
    "feedback.reason.wrong_window": ("时间范围不对", "Wrong window"),
    "feedback.reason.wrong_language": ("语言不对", "Wrong language"),
    "feedback.reason.other": ("其他", "Other"),
    "feedback.thanks.up": ("已记录：这条回答有用。谢谢！", "Noted: this answer was helpful. Thanks!"),
    "feedback.thanks.down": ("已记录：这条回答有问题。", "Noted: this answer was not right."),
    "feedback.thanks.reason": ("已记录原因：{reason}。谢谢！", "Noted the reason: {reason}. Thanks!"),
    "feedback.ask_reason": (
        "哪里不对？点一个原因（或回复「反馈：具体说明」）：",
        "What was wrong? Tap a reason (or reply 'feedback: what was wrong'):",
    ),
    "feedback.nothing_to_rate": (
        "没有找到要评价的回答：请在回答所在的对话里回复，或点回答下面的 👍 / 👎。",
        "There is no answer here to rate: reply in the answer's conversation, or press 👍 / 👎 under it.",
    ),
    "feedback.not_yours": (
        "这不是你的反馈，无法修改。",
        "That feedback is someone else's; it was left as it is.",
    ),
    "feedback.modal.title": ("哪里不对？", "What was wrong?"),
    "feedback.modal.reason": ("原因", "Reason"),
    "feedback.modal.text": ("补充说明（可不填）", "More detail (optional)"),
    "feedback.modal.submit": ("提交", "Submit"),
    "feedback.toast.up": ("谢谢反馈！", "Thanks for the feedback!"),
    "feedback.toast.down": ("已记录，请选择原因", "Noted: please pick a reason"),
    "feedback.toast.reason": ("已记录原因，谢谢！", "Reason noted, thanks!"),
    "feedback.card.title": ("哪里不对？", "What was wrong?"),
    "feedback.card.placeholder": ("具体说明（可不填）", "What was wrong (optional)"),
    "correction.mark": ("（已更正）", " (corrected)"),
    "correction.done.importance.higher": (
        "已记录：#{number} 的重要性应更高。之后的回答和周报会按更正显示（标注「已更正」）。",
        "Noted: #{number} should rank higher. Answers and the next weekly report show it corrected.",
    ),
    "correction.done.importance.lower": (
        "已记录：#{number} 的重要性应更低。之后的回答和周报会按更正显示（标注「已更正」）。",
        "Noted: #{number} should rank lower. Answers and the next weekly report show it corrected.",
    ),
    "correction.done.breaking.no": (
        "已记录：#{number} 不是破坏性变更。之后的回答和周报不再把它列为破坏性变更。",
        "Noted: #{number} is not a breaking change. Answers and reports no longer list it as one.",
    ),
    "correction.done.breaking.yes": (
        "已记录：#{number} 是破坏性变更。之后的回答和周报会把它列为破坏性变更。",
        "Noted: #{number} is a breaking change. Answers and reports now list it as one.",
    ),
    "correction.done.risk": (
        "已记录 #{number} 漏掉的风险：{text}。之后关于它的回答会列出这条风险（标注「已更正」）。",
        "Noted a risk #{number} missed: {text}. Answers about it now list it (marked corrected).",
    ),
    "correction.repeat": (
        "你之前已经这样更正过 #{number}，记录保持不变。",
        "You had already made that correction to #{number}; nothing changed.",
    ),
    "correction.need_pr": (
        "请写明是哪个 PR，例如「#6512 重要性应该更高」「#6512 不是破坏性变更」「#6512 漏了风险：…」。",
        "Say which PR, e.g. 'importance of #6512 should be higher', '#6512 is not breaking', "
        "'#6512 missed a risk: …'.",
    ),
    # Themes ------------------------------------------------------------------------------------------
    "theme.docs": ("文档与示例", "docs and examples"),
    "theme.ci": ("测试与 CI", "tests and CI"),
    "theme.dependencies": ("依赖、镜像与构建", "dependencies, images and builds"),
    "theme.memory": ("显存与内存", "memory"),
    "theme.hardware": ("硬件适配", "hardware support"),
    "theme.algorithm": ("算法与训练目标", "algorithms and objectives"),
    "theme.performance": ("性能", "performance"),
    "theme.rollout": ("推理与采样", "rollout and inference"),
    "theme.training": ("训练后端与接口", "training backends and APIs"),
    "theme.models": ("模型支持", "model support"),
    "theme.data": ("数据加载与处理", "data loading and processing"),
    "theme.observability": ("日志、指标与性能分析", "logging, metrics and profiling"),
    "theme.config": ("配置与命令行", "configuration and CLI"),
    "theme.module": ("{module} 模块", "the {module} module"),
    "theme.other": ("其他", "other"),
}

LIST_SEPARATOR = {"zh": "、", "en": ", "}


def say(key: str, language: Language, /, **values: object) -> str:
    """The sentence `key` in `language`, with `values` filled in; in English its singular form "KEY.one"
    when there is one and `n` (or `count`) is 1. Unknown keys fail loudly."""
    zh, en = _MESSAGES[key]
    if language == "en" and 1 in (values.get("n"), values.get("count")) and f"{key}.one" in _MESSAGES:
        en = _MESSAGES[f"{key}.one"][1]
    return (zh if language == "zh" else en).format(**values)


def join(items: Iterable[str], language: Language) -> str:
    return LIST_SEPARATOR[language].join(items)


def join_all(items: Iterable[str], language: Language) -> str:
    """The items of a sentence's list: `推理、训练、性能` / `rollout and inference, training, and
    performance` (the serial comma keeps items that hold an "and" apart)."""
    items = list(items)
    if language == "zh" or len(items) < 2:
        return join(items, language)
    return " and ".join(items) if len(items) == 2 else ", ".join(items[:-1]) + ", and " + items[-1]


def join_either(items: Iterable[str], language: Language) -> str:
    """Alternatives as one phrase: `显存 或 性能` / `memory or performance`."""
    return (" 或 " if language == "zh" else " or ").join(items)


def pr_refs(numbers: Iterable[int], language: Language, limit: int = 6) -> str:
    """`#1、#2、#3 及其他 4 个` / `#1, #2, #3 and 4 more`."""
    numbers = list(numbers)
    shown = join((f"#{n}" for n in numbers[:limit]), language)
    if len(numbers) == limit + 1:
        return join((f"#{n}" for n in numbers), language)  # "and 1 more" would hide what fits
    if len(numbers) > limit:
        shown += (" " if language == "en" else "") + say("report.and_more", language, n=len(numbers) - limit)
    return shown
