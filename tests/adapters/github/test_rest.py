"""Conversions from GitHub REST objects: odd but real payloads become clean PullRequests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from adapters.github.rest import MalformedPayload, header_from_rest, pull_request_from_rest
from chatbot.models import MAX_PATCH_CHARS, MAX_TOTAL_PATCH_CHARS

ITEM = {
    "number": 6512,
    "title": "[BREAKING][megatron] feat: 🚀 new checkpoint format",
    "body": None,
    "user": None,
    "created_at": "2026-06-15T01:00:00Z",
    "merged_at": "2026-06-16T02:30:00Z",
    "updated_at": "2026-06-16T02:31:00Z",
    "labels": [{"name": "breaking"}, "plain-string-label"],
    "base": {"ref": "main"},
}


def test_a_header_tolerates_a_deleted_author_a_null_body_and_mixed_labels():
    header = header_from_rest(ITEM, "Verl-Project/Verl")
    assert header.repo == "verl-project/verl"
    assert header.author == "ghost" and header.body == ""
    assert header.labels == ("breaking", "plain-string-label")
    assert header.merged_at == datetime(2026, 6, 16, 2, 30, tzinfo=UTC)
    assert header.html_url == "https://github.com/Verl-Project/Verl/pull/6512"


def test_broken_surrogates_in_text_are_replaced_not_raised():
    header = header_from_rest({**ITEM, "title": "bad \udcff title"}, "a/b")
    header.title.encode("utf-8")  # would raise on a lone surrogate


@pytest.mark.parametrize(
    "bad", [{"title": "no number"}, {**ITEM, "created_at": "yesterday"}, {**ITEM, "number": "x"}]
)
def test_malformed_objects_raise_a_clear_error(bad):
    with pytest.raises(MalformedPayload):
        header_from_rest(bad, "a/b")


def test_totals_come_from_the_pr_and_patches_are_capped():
    files = [
        {"filename": f"f{i}.py", "additions": 1, "deletions": 0, "patch": "+" * 50_000} for i in range(100)
    ]
    pr = pull_request_from_rest({**ITEM, "files": files, "additions": 7777, "changed_files": 3000}, "a/b")
    assert (pr.additions, pr.changed_files) == (7777, 3000)
    patches = [f.patch for f in pr.files if f.patch]
    assert all(len(p) <= MAX_PATCH_CHARS for p in patches)
    assert sum(len(p) for p in patches) <= MAX_TOTAL_PATCH_CHARS
    assert len(pr.files) == 100


def test_the_content_hash_changes_with_the_body_and_not_with_updated_at():
    a = pull_request_from_rest(ITEM, "a/b")
    assert (
        a.content_hash
        == pull_request_from_rest({**ITEM, "updated_at": "2026-07-01T00:00:00Z"}, "a/b").content_hash
    )
    assert a.content_hash != pull_request_from_rest({**ITEM, "body": "edited"}, "a/b").content_hash
