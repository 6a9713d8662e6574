"""A raised minimum language version drops every user on the versions in between: it raises importance
like a breaking-ish compatibility change and says so in the verdict reason, in Python and Go repositories,
whatever the title calls the PR; lowering it or capping it does not."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.models import PRFile

from .builders import changed, code, make_pr

ANALYZER = HeuristicAnalyzer()

RAISED = [
    (changed("go.mod", ["go 1.23"], ["go 1.21"]), "internal/queue/queue.go", "1.23"),
    (
        changed("pyproject.toml", ['requires-python = ">=3.10"'], ['requires-python = ">=3.8"']),
        "src/app.py",
        "3.10",
    ),
    (
        changed("setup.py", ['    python_requires=">=3.11",'], ['    python_requires=">=3.9",']),
        "src/app.py",
        "3.11",
    ),
]
SAME = {
    "go.mod": changed("go.mod", ["require golang.org/x/sync v0.8.0"], ["require golang.org/x/sync v0.7.0"]),
    "pyproject.toml": changed("pyproject.toml", ['    "rich>=13.8",'], ['    "rich>=13.7",']),
    "setup.py": changed("setup.py", ['    "rich>=13.8",'], ['    "rich>=13.7",']),
}


@pytest.mark.parametrize("title", ["Update toolchain", "chore: bump dependencies", "升级构建环境"])
@pytest.mark.parametrize(("floor", "source", "new"), RAISED)
def test_a_raised_runtime_floor_ranks_above_the_same_pr_bumping_a_package(
    title: str, floor: PRFile, source: str, new: str
) -> None:
    raised = ANALYZER.analyze(make_pr(title, files=[floor, code(source, 12)], repo="acme/widgets"))
    bumped = ANALYZER.analyze(
        make_pr(title, files=[SAME[floor.filename], code(source, 12)], repo="acme/widgets", number=2)
    )
    assert raised.importance >= bumped.importance + 0.6, (raised.importance, bumped.importance)


@pytest.mark.parametrize(("floor", "source", "new"), RAISED)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_reason_names_the_new_minimum_when_the_pr_is_worth_reading(
    floor: PRFile, source: str, new: str, language: str
) -> None:
    pr = make_pr(
        "feat: streaming parser",
        files=[
            floor,
            code(source.replace("/", "/utils/", 1), 200),
            changed("tests/test_parser.py", ["def test_stream():", "    pass"]),
        ],
        repo="acme/widgets",
    )
    analysis = ANALYZER.analyze(pr, language=language)  # type: ignore[arg-type]
    assert analysis.verdict != "skim", analysis.importance
    assert new in analysis.verdict_reason, analysis.verdict_reason


def test_a_lowered_runtime_floor_raises_nothing() -> None:
    lowered = changed("go.mod", ["go 1.21"], ["go 1.23"])
    bumped = SAME["go.mod"]
    a = ANALYZER.analyze(
        make_pr("Update toolchain", files=[lowered, code("internal/q.go", 12)], repo="acme/w")
    )
    b = ANALYZER.analyze(
        make_pr("Update toolchain", files=[bumped, code("internal/q.go", 12)], repo="acme/w")
    )
    assert abs(a.importance - b.importance) < 0.3
