"""The LLM writes the report prose from the facts; an answer citing a PR outside the week is rejected."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from adapters.llm.openai_client import LLMSettings, OpenAICompatibleLLM
from chatbot.reports.builder import AnalyzedPR, compose_weekly_report
from chatbot.reports.llm_prose import LLMReportWriter
from chatbot.reports.model import WeeklyReport
from chatbot.weeks import parse_week
from tests.fakes.openai import FakeOpenAI
from tests.reports.fixtures import INJECTION, REPO, SHANGHAI, WEEK, WEEK_START, pr


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as started:
        assert isinstance(started, FakeOpenAI)
        yield started


@pytest.fixture
def fake(server: FakeOpenAI) -> Iterator[FakeOpenAI]:
    yield server
    server.reset()


def template_report() -> WeeklyReport:
    records = [AnalyzedPR(pr(n, title, merged), a) for n, title, merged, a in WEEK]
    return compose_weekly_report(
        REPO,
        parse_week("2026-W25", SHANGHAI),
        records,
        [],
        language="zh",
        generated_at=WEEK_START + timedelta(days=8),
    )


def writer(fake: FakeOpenAI) -> LLMReportWriter:
    return LLMReportWriter(
        OpenAICompatibleLLM(LLMSettings(api_key="test-key", base_url=fake.base_url, max_retries=0))
    )


def prose(*prs: int, **overrides: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "headline": f"本周合并 7 个 PR，重点是 #{prs[0]}。",
        "highlights": [{"text": f"#{n} 值得关注", "prs": [n]} for n in prs],
        "risks": [
            {
                "category": "memory",
                "severity": "high",
                "text": "#102 在 `pkg/rollout.py` 中把大块缓冲放在 GPU 上，长序列可能 OOM。",
                "prs": [102],
            }
        ],
        "follow_ups": [{"text": "为 #101 补充单元测试。", "prs": [101]}],
        "executive_summary": "平均重要性 5.5，平均洞察 4.0。",
    }
    answer.update(overrides)
    return answer


def test_a_valid_answer_replaces_the_template_prose_and_its_tokens_are_recorded(fake):
    fake.answer = lambda body: prose(101, 102)
    report = writer(fake)(template_report())
    assert report.prose == "llm"
    assert report.headline == "本周合并 7 个 PR，重点是 #101。"
    assert [h.prs for h in report.highlights] == [(101,), (102,)]
    assert report.risks[0].prs == (102,) and "pkg/rollout.py" in report.risks[0].text
    assert any(r.category == "missing-tests" for r in report.risks)  # the gathered line stays
    assert report.follow_ups == ("为 #101 补充单元测试。",)
    assert report.prose_tokens == fake.served_usage[0]
    [request] = fake.requests
    assert request["response_format"]["type"] == "json_schema"
    user = request["messages"][-1]["content"]
    assert "BEGIN FACTS" in user and "#101" not in request["messages"][0]["content"]
    assert INJECTION not in request["messages"][0]["content"]  # PR text only ever travels as data


def test_an_answer_citing_a_pr_outside_the_week_is_sent_back_once_then_dropped(fake):
    fake.answer = lambda body: prose(101, 4242)
    template = template_report()
    written = writer(fake)(template)
    assert written.prose == "template" and written.highlights == template.highlights
    assert len(fake.requests) == 2
    assert "#4242" in fake.requests[1]["messages"][-1]["content"]  # the problem is named in the retry
    assert written.prose_tokens == tuple(map(sum, zip(*fake.served_usage, strict=True)))


def test_a_retry_that_fixes_the_answer_is_used(fake):
    answers = iter([prose(101, 4242), prose(101, 102)])
    fake.answer = lambda body: next(answers)
    written = writer(fake)(template_report())
    assert written.prose == "llm" and len(fake.requests) == 2


def test_a_pr_number_invented_in_the_text_is_rejected_too(fake):
    fake.answer = lambda body: prose(101, executive_summary="另见 #999。")
    assert writer(fake)(template_report()).prose == "template"


@pytest.mark.parametrize(
    "identifier", ["`summon_full_params`", "FSDPModule.set_requires_gradient_sync", "--offload-all"]
)
def test_an_identifier_the_model_was_not_given_is_rejected(fake, identifier):
    fake.answer = lambda body: prose(101, headline=f"本周重点：{identifier} 的改动（#101）。")
    assert writer(fake)(template_report()).prose == "template"


def test_a_risk_naming_more_than_two_prs_is_rejected(fake):
    crowded = [{"category": "other", "severity": "low", "text": "多个 PR 有风险", "prs": [101, 102, 103]}]
    fake.answer = lambda body: prose(101, risks=crowded)
    assert writer(fake)(template_report()).prose == "template"


def test_a_failing_endpoint_keeps_the_templates(fake):
    fake.fail_next("server_error")
    template = template_report()
    assert writer(fake)(template) == template


def test_malformed_json_keeps_the_templates(fake):
    fake.fail_next("malformed")
    assert writer(fake)(template_report()).prose == "template"
