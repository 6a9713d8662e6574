"""Risks that name a mechanism read from the code a PR adds, in Go, TypeScript, Rust and Python: tokens
read unverified or without expiry, a lock held across a return, goroutines, tasks, timers and threads
that nothing stops, and tests that assert nothing (tests/analysis/service_shapes.py). Each names the
file and function and what could go wrong; its look-alikes that do it right get no such risk."""

from __future__ import annotations

import pytest

from chatbot.analysis import Analysis, HeuristicAnalyzer
from chatbot.analysis.heuristic import TEXT
from chatbot.models import PRFile, PullRequest

from . import service_shapes as s
from . import shapes
from .builders import changed, make_pr
from .claims import ungrounded
from .service_shapes import added

ANALYZER = HeuristicAnalyzer()


def analysed(pr: PullRequest) -> Analysis:
    return ANALYZER.analyze(pr)


def _said(pr: PullRequest, key: str, language: str = "en") -> list[str]:
    """The risks of `pr` worded from `TEXT[key]` in `language`: their fixed words are all there."""
    pieces = [p for p in _words(TEXT[key][language]) if len(p) >= 6]
    return [r for r in analysed(pr).localized(language).risks if all(p in r for p in pieces)]


def _words(template: str) -> list[str]:
    out, rest = [], template
    while "{" in rest:
        head, _, rest = rest.partition("{")
        out.append(head)
        rest = rest.partition("}")[2]
    return [*out, rest]


MECHANISMS = [
    (s.GO_JWT, "risk.token_no_expiry", "internal/auth/middleware.go", "Middleware"),
    (s.TS_SESSION, "risk.token_unverified", "src/server/session.ts", "sessionUser"),
    (s.GO_ROUTE_CACHE, "risk.lock_return", "internal/router/cache.go", "Get"),
    (s.GO_HEALTH, "risk.goroutine", "internal/upstream/health.go", "StartHealthChecks"),
    (s.RUST_FLUSHER, "risk.task", "src/buffer.rs", "spawn_flusher"),
    (s.TS_POLLING, "risk.timer", "src/jobs/poller.ts", "startPolling"),
    (s.PY_WATCHER, "risk.thread", "loader/watch.py", "watch"),
    (s.GO_JWT, "risk.untested_hollow", "internal/auth/middleware_test.go", "TestMiddleware"),
    (s.TS_POLLING, "risk.hollow_test", "src/jobs/poller.test.ts", "polls the jobs endpoint"),
    (s.RUST_FLUSHER, "risk.hollow_test", "tests/buffer.rs", "flusher_runs"),
    (s.PY_WATCHER, "risk.hollow_test", "tests/test_watch.py", "test_watch_starts"),
]


@pytest.mark.parametrize(("pr", "key", "path", "name"), MECHANISMS, ids=[m[1] for m in MECHANISMS])
@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_mechanism_in_the_added_code_is_a_risk_naming_its_file_and_function(
    pr: PullRequest, key: str, path: str, name: str, language: str
) -> None:
    said = _said(pr, key, language)
    assert len(said) == 1, analysed(pr).localized(language).risks
    assert path in said[0] and name in said[0]


def test_a_pr_whose_only_test_asserts_nothing_counts_as_untested() -> None:
    analysis = analysed(s.GO_JWT)
    assert not analysis.tests
    assert any(r.category == "missing-tests" and "TestMiddleware" in r.evidence for r in analysis.risks)


def test_tests_that_check_through_assertions_helpers_or_failure_calls_are_not_hollow() -> None:
    for pr in (s.GO_ROUTE_CACHE, s.GO_STREAM, s.GO_REQUEST_ID, s.TS_SESSION, s.PY_CHECKED):
        analysis = analysed(pr)
        assert analysis.tests, pr.title
        assert not [r for r in analysis.risks if r.category == "missing-tests"], analysis.risks


# The same mechanisms done right: a goroutine that stops on its context, a deferred unlock, a cleared
# interval, a task whose handle is kept, a token whose expiry is required, a joined thread.
DONE_RIGHT: list[tuple[str, list[str]]] = [
    (
        "internal/upstream/health.go",
        [
            "func (p *Pool) StartHealthChecks(ctx context.Context, interval time.Duration) {",
            "\tgo func() {",
            "\t\tticker := time.NewTicker(interval)",
            "\t\tdefer ticker.Stop()",
            "\t\tfor {",
            "\t\t\tselect {",
            "\t\t\tcase <-ctx.Done():",
            "\t\t\t\treturn",
            "\t\t\tcase <-ticker.C:",
            "\t\t\t\tp.checkAll()",
            "\t\t\t}",
            "\t\t}",
            "\t}()",
            "}",
        ],
    ),
    (
        "internal/router/cache.go",
        [
            "func (c *RouteCache) Get(host string) (*Route, bool) {",
            "\tc.mu.Lock()",
            "\tdefer c.mu.Unlock()",
            "\tr, ok := c.routes[host]",
            "\tif !ok {",
            "\t\treturn nil, false",
            "\t}",
            "\treturn r, true",
            "}",
        ],
    ),
    (
        "src/jobs/poller.ts",
        [
            "export function startPolling(onJobs: (jobs: Job[]) => void): () => void {",
            "  const timer = setInterval(async () => onJobs(await fetchJobs()), 5000);",
            "  return () => clearInterval(timer);",
            "}",
        ],
    ),
    (
        "src/buffer.rs",
        [
            "pub fn spawn_flusher(buffer: Arc<Buffer>) -> JoinHandle<()> {",
            "    let handle = tokio::spawn(async move {",
            "        loop {",
            "            buffer.flush().await;",
            "        }",
            "    });",
            "    handle",
            "}",
        ],
    ),
    (
        "internal/auth/middleware.go",
        [
            "func parse(raw string, secret []byte) (*jwt.Token, error) {",
            "\treturn jwt.Parse(raw, keyFunc(secret), jwt.WithExpirationRequired())",
            "}",
        ],
    ),
    (
        "loader/watch.py",
        [
            "def watch(path, on_change):",
            "    thread = threading.Thread(target=_poll, args=(path, on_change))",
            "    thread.start()",
            "    thread.join()",
        ],
    ),
]


@pytest.mark.parametrize(("path", "lines"), DONE_RIGHT, ids=[p for p, _ in DONE_RIGHT])
def test_the_same_code_done_right_has_no_such_risk(path: str, lines: list[str]) -> None:
    pr = make_pr("Update the service", files=[changed(path, lines)], repo=s.GO)
    risks = analysed(pr).risks
    assert not [r for r in risks if r.category in ("security", "concurrency")], risks


def test_a_test_in_a_patch_github_cut_is_not_judged() -> None:
    """An added file whose patch shows fewer lines than it has, cut inside a test: what the test does past
    the cut is unknown. The same lines as a whole file are a test that asserts nothing."""
    test = added("tests/test_a.py", ["from pkg.a import a", "", "", "def test_a():", "    value = a()"])
    cut = PRFile(test.filename, "added", additions=40, deletions=0, patch=test.patch)
    for file, judged in ((cut, False), (test, True)):
        pr = make_pr("Add a", files=[changed("pkg/a.py", ["def a():", "    return 1"]), file])
        assert bool([r for r in analysed(pr).risks if "test_a" in r.text]) == judged


def test_a_function_defined_inside_a_python_test_is_no_test_of_its_own() -> None:
    lines = [
        "def test_registry():",
        "    @register('x')",
        "    def test_fn():",
        "        return 1",
        "    assert get('x') is test_fn",
    ]
    pr = make_pr("Registry", files=[added("tests/test_registry.py", lines), changed("pkg/reg.py", ["x = 1"])])
    assert not [r for r in analysed(pr).risks if r.category == "missing-tests" and "test_fn" in r.text]


SERVICE_AND_OTHER = (*s.ALL, *shapes.ALL)


@pytest.mark.parametrize("pr", SERVICE_AND_OTHER, ids=[f"{p.repo}#{p.number}" for p in SERVICE_AND_OTHER])
def test_every_identifier_in_a_risk_or_key_point_occurs_in_the_pr(pr: PullRequest) -> None:
    analysis = analysed(pr)
    for language in ("zh", "en"):
        t = analysis.localized(language)
        assert ungrounded(pr, [*t.risks, *t.key_points, t.gist], analysis.modules) == []
        assert ungrounded(pr, [r.evidence for r in analysis.risks], analysis.modules) == []
