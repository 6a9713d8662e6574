"""Prose → spans: code becomes code spans, the week's PR numbers become links, and no character of the
text is lost, added or reordered (a reader copies an identifier out of any renderer exactly)."""

from __future__ import annotations

import random
import re

import pytest

from chatbot.models import inline_text
from chatbot.prose import _leading_reference_end, pr_url, prose, readable_in, without_references

REPO = "acme/widgets"


def _code(text: str) -> list[str]:
    return [s.text for s in prose(text, REPO, {101, 6556}) if s.style == "code"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("修复 `actor_wg` 中的显存泄漏", ["actor_wg"]),
        ("修复get_named_tensor_buckets问题", ["get_named_tensor_buckets"]),  # glued to Chinese
        ("calls self.rollout_wg.generate() twice", ["self.rollout_wg.generate()"]),
        ("megatron (core_v0.18.0) and vllm_ascend 0.11.0rc1", ["vllm_ascend"]),  # a version is not code
        (
            "skip model.to(device) under offload, call f_x(a, k=3) or g_y(see below)",
            ["model.to(device)", "f_x(a, k=3)", "g_y"],
        ),
        (
            "see verl/workers/fsdp_workers.py and docs/start.md",
            ["verl/workers/fsdp_workers.py", "docs/start.md"],
        ),
        (
            "`python -m rlflow.ckpt.convert_legacy <old> <new>` once",
            ["python -m rlflow.ckpt.convert_legacy <old> <new>"],
        ),
        ("__init__ and _private_helper", ["__init__", "_private_helper"]),
        (
            "New config keys: `schedule.skip_first`, schedule.wait; ray.util.collective.broadcast() enqueues",
            ["schedule.skip_first", "schedule.wait", "ray.util.collective.broadcast()"],
        ),
        ("e.g. Qwen3.5 on vLLM v0.8.3 works.Then i.e. fine", []),
        (
            "removed nsys.worker_nsight_options.cuda-graph-trace and co-author",
            ["nsys.worker_nsight_options.cuda-graph-trace"],
        ),
        (
            "qat ${oc.select:a.fsdp.qat,null} → ${oc.select:a.b,${oc.select:m.qat,null}}",
            [
                "${oc.select:a.fsdp.qat,null}",
                "${oc.select:a.b,${oc.select:m.qat,null}}",
            ],
        ),
        ("No code here: FSDP2, vLLM 0.9, n > 8, 3_000 steps, co-author", []),
        ("https://github.com/acme/widgets/blob/main/a_b.py", []),
        ("image docker/ascend/Dockerfile.ascend_8.5.1_a3_qwen3-5 is pinned", []),  # never cut at "8.5"
        ("bump to docker/Dockerfile.cu128 today", ["docker/Dockerfile.cu128"]),
        ("", []),
    ],
)
def test_code_becomes_code_spans_and_nothing_else_does(text: str, code: list[str]) -> None:
    assert _code(text) == code


@pytest.mark.parametrize(
    "text",
    [
        "修复 `actor_wg` 与 get_named_tensor_buckets（#101、#6556、#7）",
        "a `lone backtick and C# and foo#101 and &#101; and #101x",
        "Configs that set `use_v1: false` fail; see #101.",
        "<!channel> *bold* _it_ ~s~ @here [x](javascript:alert(1))",
    ],
)
def test_no_character_is_lost_added_or_reordered(text: str) -> None:
    spans = prose(text, REPO, {101, 6556})
    quoted = [s.text for s in spans if s.style == "code" and f"`{s.text}`" in text]
    expected = text
    for q in quoted:
        expected = expected.replace(f"`{q}`", q, 1)
    assert inline_text(spans) == expected


def test_only_the_given_prs_become_links() -> None:
    spans = prose("见 #101、#6556、#7 和 foo#101、&#101;", REPO, {101, 6556})
    assert [(s.text, s.url) for s in spans if s.url] == [
        ("#101", pr_url(REPO, 101)),
        ("#6556", pr_url(REPO, 6556)),
    ]
    assert not any(s.url for s in prose("见 #101", None, {101}))  # no repo, no link


def test_the_style_carries_over_to_plain_parts_and_links() -> None:
    spans = prose("需关注 #101 的 `x_y`", REPO, {101}, "bold")
    assert [(s.text, s.style) for s in spans] == [
        ("需关注 ", "bold"),
        ("#101", "bold"),
        (" 的 ", "bold"),
        ("x_y", "code"),
    ]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "Follow up the work from https://github.com/acme/rl/pull/5297 This PR adds vLLM-Omni as a backend",
            "This PR adds vLLM-Omni as a backend",
        ),
        ("Fix 2 bugs introduced by https://github.com/acme/rl/pull/5149.", "Fix 2 bugs introduced by #5149."),
        (
            "As proposed in https://github.com/other/repo/issues/7, weights stream",
            "As proposed in other/repo#7, weights stream",
        ),
        (
            "Fixed the bug reported by CI at https://github.com/acme/rl/actions/runs/1/job/2",
            "Fixed the bug reported by CI",
        ),
        ("Related to #12: weights now move in buckets of 512 MB", "weights now move in buckets of 512 MB"),
        ("See #12", "See #12"),  # nothing follows the reference: kept as it is
        # The sentence goes on from the reference: it is part of the point, not a pointer before it.
        (
            "First half of the #7085 split requested in review: the engine core and the FSDP backend",
            "First half of the #7085 split requested in review: the engine core and the FSDP backend",
        ),
        ("基于 #88，权重按 512 MB 分桶传输，避免一次性复制", "权重按 512 MB 分桶传输，避免一次性复制"),
    ],
)
def test_a_line_about_a_pr_shows_references_by_number_and_drops_a_clause_that_only_points(
    text: str, shown: str
) -> None:
    assert without_references(text, "acme/rl") == shown


# The leading-reference rule as a pattern: `without_references` finds the same end without the pattern's
# backtracking (it tries every way of cutting a long word into up to five pieces).
_LEADING_REFERENCE = re.compile(r"^(?:[^\s.。:：]+\s*){0,5}?(?:[\w.-]+/[\w.-]+)?#\d+[\s.,;:，；：。)）]*")


def test_a_leading_reference_ends_where_the_pattern_of_the_rule_ends() -> None:
    pieces = ["a", "bc", "中文", " ", "  ", "\t", "\n", "\u3000", "#", "#1", "12", "/", "o/r", ".", "-", "_",
              ":", "：", "。", ",", "，", ")", "）", "x-y.z"]  # fmt: skip
    rng = random.Random(13)
    # Each with a sentence after it, as the texts the rule reads have.
    texts = [
        "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) + " weights move in buckets"
        for _ in range(20_000)
    ]
    for text in texts:
        match = _LEADING_REFERENCE.match(text)
        assert _leading_reference_end(text) == (match.end() if match else None), text


@pytest.mark.parametrize(
    ("text", "language", "readable"),
    [
        ("Prompts are expanded lazily.", "en", True),
        ("Prompts are expanded lazily.", "zh", True),
        ("现在改为指数退避。", "zh", True),
        ("现在改为指数退避。", "en", False),
        ("`retry.max_backoff` 默认 30s", "en", False),
    ],
)
def test_a_quote_is_readable_unless_it_is_chinese_for_an_english_reader(
    text: str, language: str, readable: bool
) -> None:
    assert readable_in(text, language) is readable


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("added go.uber.org/zap v1.27.0", "go.uber.org/zap"),
        ("bump github.com/golang-jwt/jwt/v5 to v5.2.1", "github.com/golang-jwt/jwt/v5"),
        ("k8s.io/client-go moves to v0.30", "k8s.io/client-go"),
    ],
)
def test_a_module_path_that_starts_with_its_host_is_one_code_span(text: str, code: str) -> None:
    assert [s.text for s in prose(text) if s.style == "code"] == [code]
