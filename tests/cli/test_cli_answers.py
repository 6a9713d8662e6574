"""`prhub analyze`, `pr show`, `report`, `ask` and `chat` as a user runs them, on both databases."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from slack_sdk.models.blocks import Block
from typer.testing import CliRunner

from chatbot.messages import say
from chatbot.store.db import open_database
from chatbot.store.index import PRIndex
from prhub_cli.main import REPORT_FORMATS, app
from tests.reports.fixtures import INJECTION, REPO, WEEK_START, pr, seed

AS_OF = "2026-06-24T10:00:00+08:00"  # Wednesday of the week after the fixture week (2026-W25)


@pytest.fixture
def env(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    db = open_database(database_url)
    seed(db)
    db.dispose()
    return {
        "PRHUB_DATABASE_URL": database_url,
        "PRHUB_TIMEZONE": "Asia/Shanghai",
        "COLUMNS": "200",
        "OPENAI_API_KEY": "",
        "PRHUB_ANALYZER": "auto",
        "PRHUB_PUBLIC_URL": "",
        "PRHUB_LANGUAGE": "zh",
    }


def prhub(env: dict[str, str], *args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env, input=stdin)


def test_analyze_runs_the_offline_analyzer_then_caches(env, database_url):
    db = open_database(database_url)
    with db.session() as session:  # a PR without an analysis yet
        index = PRIndex(session)
        index.upsert(index.repo(REPO), pr(120, "[rollout] fix: OOM in vLLM", WEEK_START), WEEK_START)
    db.dispose()
    first = prhub(env, "analyze", REPO)
    assert first.exit_code == 0, first.output
    assert "analyzed 12, cached 0, fell back 0, failed 0" in first.output  # the fixture's are by "test"
    again = prhub(env, "analyze", REPO)
    assert "analyzed 0, cached 12" in again.output
    assert prhub(env, "analyze", "--dry-run").exit_code == 1  # nothing to estimate offline


def test_pr_show_prints_the_analysis_and_json(env):
    shown = prhub(env, "pr", "show", REPO, "102")
    assert shown.exit_code == 0, shown.output
    assert "OOM in vLLM rollout" in shown.output and "7.8 / 10" in shown.output
    # the merge time in PRHUB_TIMEZONE, the zone named, as `prs list` shows it
    merged = re.search(r"合并于 (\d{4}-\d\d-\d\d \d\d:\d\d) Asia/Shanghai", shown.output)
    assert merged is not None, shown.output
    listed = prhub(env, "prs", "list", REPO)
    assert "Asia/Shanghai" in listed.output and merged.group(1) in listed.output
    data = json.loads(prhub(env, "pr", "show", REPO, "102", "--json").output)
    assert data["number"] == 102 and data["analysis"]["importance"] == 7.8
    missing = prhub(env, "pr", "show", REPO, "9999")
    assert missing.exit_code == 1 and "not in the index" in missing.output


@pytest.mark.parametrize("fmt", REPORT_FORMATS)
def test_report_writes_every_format_to_a_non_empty_file(env, tmp_path, fmt):
    out = tmp_path / f"report.{fmt}"
    result = prhub(env, "report", REPO, "--week", "2026-W25", "--format", fmt, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 0 and f"→ {out}" in result.output
    if fmt == "pdf":
        return
    text = out.read_text(encoding="utf-8")
    assert "2026年第25周" in text or "2026-W25" in text
    if fmt == "slack":
        [message] = json.loads(text)
        assert all(Block.parse(b) is not None for b in message["blocks"]) and "<!channel>" not in text
    if fmt == "json":
        assert json.loads(text)["prs"] == [101, 102, 103, 104, 105, 106, 107]
    if fmt == "terminal":  # a file is no terminal: no escape codes, every link listed once
        assert "\x1b" not in text and text.count("https://github.com/acme/widgets/pull/101") == 1


def test_report_pdf_has_the_chinese_title_as_text(env, tmp_path):
    out = tmp_path / "report.pdf"
    result = prhub(env, "report", REPO, "--as-of", AS_OF, "--format", "pdf", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "#101" in text
    if "周报" not in text:
        pytest.skip("no CJK font on this machine (make test installs fonts-wqy-microhei as root)")


def test_report_of_an_unknown_repo_is_one_line(env):
    result = prhub(env, "report", "acme/nope", "--week", "2026-W25")
    assert result.exit_code == 1 and "acme/nope is not in the index (indexed: acme/widgets)" in result.output


def test_ask_prints_the_structured_answer(env):
    result = prhub(env, "ask", "上周 widgets 有哪些风险？", "--as-of", AS_OF, "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert (answer["intent"], answer["repo"], answer["language"]) == ("risks", REPO, "zh")
    assert answer["window"]["start"].startswith("2026-06-15T00:00:00+08:00")
    assert (
        set(answer["pull_requests"]) <= {101, 102, 103, 104, 105, 106, 107} and 102 in answer["pull_requests"]
    )
    assert "https://github.com/acme/widgets/pull/102" in json.dumps(answer["reply"])


def test_ask_json_says_who_read_the_question_and_what_it_searched_for(env):
    result = prhub(env, "ask", "上周 widgets 有哪些 Qwen3 相关的改动？", "--as-of", AS_OF, "--json")
    answer = json.loads(result.output)
    assert (answer["read_by"], answer["searched_for"]) == ("rules", ["Qwen3"])
    assert 101 in answer["pull_requests"]  # "[megatron] feat: pipeline parallel for Qwen3"


def test_ask_in_english_answers_in_english(env):
    result = prhub(env, "ask", "what changed last week?", "--as-of", AS_OF, "--repo", REPO)
    assert result.exit_code == 0, result.output
    assert "Main changes" in result.output and "#101" in result.output


def test_chat_reads_questions_from_a_pipe(env):
    result = prhub(env, "chat", "--as-of", AS_OF, stdin="帮助\n#102 讲了什么\nwhat is the weather\n")
    assert result.exit_code == 0, result.output
    assert "prhub 能回答这些问题" in result.output
    assert "OOM in vLLM rollout" in result.output
    assert say("qa.unknown", "en") in result.output
    assert INJECTION not in result.output or "<!channel>" in result.output  # text, never markup


def test_chat_runs_subscription_commands_with_the_configured_policy(env):
    result = prhub(
        {**env, "PRHUB_ADMINS": ""},
        "chat",
        "--as-of",
        AS_OF,
        stdin="订阅 acme/widgets 周五 17:00\n订阅列表\n取消订阅 widgets\n",
    )
    assert result.exit_code == 0, result.output
    assert "已订阅 acme/widgets：每周五 17:00（Asia/Shanghai）" in result.output
    assert "本频道的订阅" in result.output and "已取消订阅 acme/widgets" in result.output
    refused = prhub({**env, "PRHUB_ADMINS": "UADMIN"}, "chat", stdin="订阅 acme/widgets\n")
    assert "只有管理员可以修改订阅" in refused.output


def test_off_a_terminal_a_listed_title_is_never_folded(env):
    listed = prhub({**env, "COLUMNS": "40"}, "prs", "list", REPO)
    assert listed.exit_code == 0, listed.output
    assert "[megatron] feat: pipeline parallel for Qwen3" in listed.output
    assert "[BREAKING][trainer] refactor: rename config keys" in listed.output


def test_chat_reads_a_follow_up_against_the_last_question(env):
    result = prhub(env, "chat", "--as-of", AS_OF, stdin="widgets 上上周有哪些风险？\n那上周呢？\n")
    assert result.exit_code == 0, result.output
    follow_up = result.output.split("› 那上周呢？", 1)[1]
    assert "风险观察" in follow_up and "2026-06-15" in follow_up


def test_ask_answers_each_question_on_its_own(env):
    prhub(env, "ask", "--as-of", AS_OF, "widgets 上上周有哪些风险？")
    alone = prhub(env, "ask", "--as-of", AS_OF, "那上周呢？")
    assert "风险观察" not in alone.output
