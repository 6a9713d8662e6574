"""What an author writes around the change is not a point of it: thanks to people, the emphasis markers
of a markdown body, routine method names ahead of the names that say what a PR adds."""

from __future__ import annotations

import pytest

from chatbot.analysis.heuristic import HeuristicAnalyzer
from tests.analysis.builders import changed, code, make_pr

ANALYZER = HeuristicAnalyzer(language="en")


def _said(pr) -> str:  # type: ignore[no-untyped-def]
    texts = ANALYZER.analyze(pr).localized("en")
    return " ".join((texts.gist, *texts.key_points))


@pytest.mark.parametrize(
    "thanks",
    [
        "Credit to @alice for pointing out the need for the shift from the current colocate mode.",
        "Thanks to @bob for the careful review of the first version of this change.",
        "Special thanks @carol, who found the original race in the reward loop.",
        "感谢 @dave 提出把教师模型与训练共置的建议，并帮忙验证了多机场景。",
    ],
)
def test_thanks_to_people_are_no_key_point(thanks: str) -> None:
    body = f"{thanks}\n\nThe teacher model now shares the GPUs of the actor instead of its own pool."
    pr = make_pr("Teacher colocate mode", body=body, files=[code("pkg/teacher/colocate.py", 80)])
    said = _said(pr)
    assert thanks[:20] not in said, said


def test_thanks_that_go_on_to_say_what_was_done_are_kept() -> None:
    body = "Thanks so much to @alice and @bob, we implemented the group-wise weights update for SGLang."
    pr = make_pr("Group-wise weight update", body=body, files=[code("pkg/rollout/sync.py", 80)])
    assert "group-wise weights update" in _said(pr)


def test_single_asterisk_emphasis_is_dropped_from_what_the_analysis_quotes() -> None:
    body = (
        "This PR supports multi-turn and tool call for *recipe/fully_async_policy*, referencing the "
        "implementation of *recipe/retool*."
    )
    pr = make_pr("Support multi-turn in the async recipe", body=body, files=[code("recipe/async/a.py", 60)])
    said = _said(pr)
    assert "recipe/fully_async_policy" in said and "*recipe" not in said, said


def test_routine_method_names_come_after_the_names_that_say_what_is_added() -> None:
    names = ["apply", "build", "call", "dump_skipped", "replay_cached"]
    lines = [f"def {name}(x):" for name in names] + ["    x = 1"] * 40
    pr = make_pr("feat: skip rollout v2", files=[changed("pkg/skip.py", lines)])
    (point,) = [p for p in ANALYZER.analyze(pr).localized("en").key_points if p.startswith("New public")]
    assert point.startswith("New public definitions: dump_skipped, replay_cached, "), point


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (
            "This PR adds a bucketed weight sync so the engine never holds two copies of a layer.",
            "bucketed weight",
        ),
        (
            "This pull request also adds a bucketed weight sync so the engine never holds two copies.",
            "bucketed",
        ),
        ("本 PR 为推理引擎增加分桶权重同步，避免同时持有一层权重的两份拷贝。", "分桶权重同步"),
        ("该PR为推理引擎增加分桶权重同步，避免同时持有一层权重的两份拷贝。", "分桶权重同步"),
    ],
)
def test_a_key_point_quoting_the_author_does_not_open_with_this_pr(body: str, fragment: str) -> None:
    pr = make_pr("Bucketed weight sync", body=body, files=[code("pkg/rollout/sync.py", 80)])
    for language in ("zh", "en"):
        texts = HeuristicAnalyzer(language=language).analyze(pr).localized(language)
        quoted = [p for p in (texts.gist, *texts.key_points) if fragment in p.lower()]
        assert not any(p.lower().startswith(("this p", "本", "该")) for p in quoted), (language, quoted)
        if language == "zh" or fragment.isascii():
            assert quoted, (language, texts)
