"""`prhub demo` as `make demo` runs it without a terminal: exit 0 and every section printed."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

from chatbot.demo import DEMO_QUESTIONS, DEMO_REPO


def test_the_demo_runs_without_a_terminal_and_shows_card_answers_and_next_steps(tmp_path: Path):
    env = {
        **os.environ,
        "COLUMNS": "60",  # narrow: off a terminal nothing may be wrapped to it
        "PRHUB_DATABASE_URL": f"sqlite:///{tmp_path / 'demo.db'}",
        "PRHUB_LANGUAGE": "zh",
        "PRHUB_TIMEZONE": "Asia/Shanghai",
        "OPENAI_API_KEY": "",
        "PRHUB_ANALYZER": "auto",
    }
    for _ in range(2):  # and again: seeding is idempotent
        result = subprocess.run(
            [sys.executable, "-m", "prhub_cli", "demo", "--as-of", "2026-06-24T10:00+08:00"],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        out = result.stdout
        assert f"prhub demo · {DEMO_REPO}" in out and "60 merged PRs" in out
        assert "2026年第25周（06-15至06-21）周报" in out and "本周亮点" in out and "风险观察" in out
        assert all(f"› {q.text}" in out for q in DEMO_QUESTIONS)
        assert f"/reports/{DEMO_REPO}/2026-W25" in out and "docs/slack.md" in out
        assert "Traceback" not in out + result.stderr
        lines = out.splitlines()
        # the weekly card once (it answers the first question), and never two rules in a row
        assert out.count("2026年第25周（06-15至06-21）周报") == 1
        is_rule = [set(line) <= set("─ ") for line in lines if line.strip()]
        assert not any(a and b for a, b in itertools.pairwise(is_rule))
        # no line broken inside a URL or a command
        assert any(line.endswith(f"http://127.0.0.1:8080/reports/{DEMO_REPO}/2026-W25") for line in lines)
        assert any(line.endswith(".venv/bin/prhub sync OWNER/REPO") for line in lines)
