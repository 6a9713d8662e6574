"""/metrics counts the team loop from the database, so every replica reports the same figures: 👍/👎
votes, corrections by kind and reading claims by state."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask

from adapters.web.metrics import Metrics
from chatbot.clock import FixedClock
from chatbot.team.corrections import CorrectionCommand, record_correction
from chatbot.team.feedback import AnswerRef, record_vote
from chatbot.team.reading import Reader, claim, finish
from tests.reports.fixtures import REPO, WEEK_START, seed

NOW = WEEK_START + timedelta(days=8)


def test_metrics_count_votes_corrections_and_claims(db):
    seed(db)
    li, wang = Reader("slack", "T1", "U1", "li"), Reader("feishu", "t", "ou_w", "ou_w")
    ref = AnswerRef("本周风险", REPO, (101,), "zh")
    record_vote(db, li, "C1", "1.1", "down", ref, NOW)
    record_vote(db, li, "C1", "1.1", "down", ref, NOW)  # a duplicate: counted once
    record_vote(db, wang, "oc", "om_1", "up", ref, NOW)
    record_vote(db, wang, "oc", "om_2", "up", ref, NOW)
    record_correction(
        db, REPO, CorrectionCommand("importance", "higher", 101, None), 101, li, "#101 更重要", NOW
    )
    claim(db, REPO, 101, li, NOW)
    finish(db, REPO, 102, wang, "", NOW)
    app = Flask(__name__)
    Metrics(db, FixedClock(NOW)).mount(app)
    text = app.test_client().get("/metrics").get_data(as_text=True)
    assert 'prhub_feedback_votes{vote="up"} 2.0' in text
    assert 'prhub_feedback_votes{vote="down"} 1.0' in text
    assert 'prhub_corrections{kind="importance"} 1.0' in text
    assert 'prhub_reading_claims{state="reading"} 1.0' in text
    assert 'prhub_reading_claims{state="done"} 1.0' in text
