"""GraphQL + REST hybrid ingestion against the fake GitHub's real GraphQL server (graphql-core), which
enforces GitHub's pagination, node and cost rules: the same PullRequest as REST-only reading for PRs of
every shape, about 1 REST request and 0.12 GraphQL points per PR, separate budgets, the points limit,
and REST-only reading when the server has no GraphQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import SecretStr

from adapters.github.graphql import batch_query
from adapters.github.source import GitHubSource
from chatbot.ingest.sync import sync_repo
from chatbot.store.index import PRIndex
from tests.fakes.github import FakeGitHub, comment, make_file, review
from tests.fakes.github_graphql import NODE_LIMIT, SCHEMA, QueryRefused, measure

REPO = "acme/widgets"


@pytest.fixture
def hybrid_github(github: FakeGitHub) -> FakeGitHub:
    github.graphql = True
    return github


def shapes(github: FakeGitHub, clock) -> dict[int, str]:  # type: ignore[no-untyped-def]
    """PRs of many shapes, numbered; returns what each one exercises."""
    at = clock.now() - timedelta(days=1)
    t = lambda minutes: at + timedelta(minutes=minutes)  # noqa: E731
    github.add_pull(REPO, 1, merged_at=t(1), files=[])
    github.add_pull(
        REPO,
        2,
        merged_at=t(2),
        body="修复长 prompt 下的显存溢出，没有模板",
        files=[
            make_file("a.py", 3, 1),
            make_file("b/new.py", 9, 0, status="added"),
            make_file("c.py", 0, 7, status="removed"),
            {**make_file("d2.py", 1, 1, status="renamed"), "previous_filename": "d.py"},
        ],
        reviews=[review("bob", "APPROVED", "看起来不错", t(3)), review("eve", "PENDING", "draft", t(4))],
        review_comments=[comment("bob", "为什么这里要加锁？", t(5), path="a.py")],
        issue_comments=[comment("carol", "LGTM", t(6))],
    )
    github.add_pull(
        REPO,
        3,
        merged_at=t(3),
        files=[make_file(f"pkg/m{i:03}.py", i, 1, patch="+x\n" * 20) for i in range(250)],
    )
    huge = "@@ -1 +1 @@\n+" + "y" * 9_000
    github.add_pull(
        REPO,
        4,
        merged_at=t(4),
        files=[make_file(f"gen/f{i:04}.py", 100, 3, patch=huge) for i in range(3_000)],
    )
    github.add_pull(
        REPO,
        5,
        merged_at=t(5),
        reviews=[review(f"r{i}", "COMMENTED", f"review {i}", t(10 + i)) for i in range(70)],
        issue_comments=[comment(f"c{i}", f"comment {i}", t(100 + i)) for i in range(120)],
        review_comments=[comment(f"l{i}", f"line {i}", t(300 + i), path=f"f{i}.py") for i in range(33)],
    )
    deleted = comment("ghost", "by a deleted account", t(7))
    deleted["user"] = None
    github.add_pull(REPO, 6, merged_at=t(6), issue_comments=[deleted], title="no tag, English title")
    return {
        1: "no files",
        2: "statuses, PENDING, Chinese",
        3: "250 files",
        4: "3000 huge files",
        5: "paging",
        6: "ghost",
    }


def read_all(source: GitHubSource, github: FakeGitHub) -> dict[int, object]:
    page = source.list_closed_pulls(REPO)
    results = source.fetch_pulls(page.pulls)
    assert len(results) == len(page.pulls)
    return {h.number: r for h, r in zip(page.pulls, results, strict=True)}


def test_hybrid_reading_gives_the_same_pull_requests_as_rest(hybrid_github, settings, clock):
    shapes(hybrid_github, clock)
    hybrid = read_all(GitHubSource(settings), hybrid_github)
    hybrid_github.graphql = False
    rest_source = GitHubSource(settings)
    rest = {h.number: rest_source.fetch_pull(h) for h in rest_source.list_closed_pulls(REPO).pulls}
    assert set(hybrid) == set(rest) == {1, 2, 3, 4, 5, 6}
    for number in rest:
        assert hybrid[number] == rest[number], number
    assert len(rest[5].comments) == 120 + 33 and len(rest[5].reviews) == 70
    assert [r.state for r in rest[2].reviews] == ["APPROVED"]
    assert rest[6].comments[0].author == "ghost"


def test_patches_are_read_over_rest_only_while_the_analyzer_can_use_them(hybrid_github, settings, clock):
    shapes(hybrid_github, clock)
    hybrid_github.reset_calls()
    read_all(GitHubSource(settings), hybrid_github)
    file_pages = [c.request for c in hybrid_github.calls if c.request.path.endswith("/files")]
    pages = {}
    for request in file_pages:
        number = int(request.path.split("/")[-2])
        pages[number] = pages.get(number, 0) + 1
    # no request for a PR without files; 3 pages for 250 small files; one for 3,000 huge ones (its
    # patch budget is spent on the first page; the rest of the list comes from GraphQL)
    assert pages == {2: 1, 3: 3, 4: 1, 5: 1, 6: 1}


def test_a_backfill_costs_about_one_rest_request_and_a_tenth_of_a_point_per_pr(
    db, hybrid_github, settings, clock
):
    for n in range(1, 121):
        hybrid_github.add_pull(
            REPO,
            n,
            merged_at=clock.now() - timedelta(minutes=n),
            reviews=[review("bob", "APPROVED", "ok", clock.now())],
            issue_comments=[comment("carol", "thanks", clock.now())],
        )
    source = GitHubSource(settings)
    report = sync_repo(db, source, REPO, clock=clock, since=clock.now() - timedelta(days=1))
    assert (report.new, report.failed) == (120, 0)
    assert report.requests / 120 <= 1.1
    assert report.graphql_points / 120 <= 0.3
    assert report.graphql_points == sum(cost for cost, _ in hybrid_github.graphql_calls)
    budget = source.budget()
    assert budget.graphql_remaining == hybrid_github.user_graphql_bucket.remaining
    assert budget.remaining == hybrid_github.remaining  # REST's budget, not overwritten by GraphQL's
    again = sync_repo(db, source, REPO, clock=clock)
    # one conditional request (a 304, which GitHub does not charge) and no GraphQL
    assert (again.requests, again.graphql_points, again.not_modified) == (1, 0, True)
    assert hybrid_github.remaining == budget.remaining


def test_spent_graphql_points_stop_the_sync_cleanly_and_it_resumes(db, hybrid_github, settings, clock):
    for n in range(1, 61):
        hybrid_github.add_pull(REPO, n, merged_at=clock.now() - timedelta(minutes=n))
    hybrid_github.user_graphql_bucket.remaining = 3  # one batch of 25, then RATE_LIMITED
    hybrid_github.user_graphql_bucket.reset_at = clock.now() + timedelta(hours=1)
    source = GitHubSource(settings)
    stopped = sync_repo(db, source, REPO, clock=clock, since=clock.now() - timedelta(days=1), max_wait=0)
    assert not stopped.complete and stopped.new == 25 and stopped.failed == 0
    assert stopped.retry_at is not None and stopped.retry_at > clock.now() + timedelta(minutes=50)
    clock.sleep(3601)
    resumed = sync_repo(db, source, REPO, clock=clock)
    assert resumed.complete and resumed.new == 35 and resumed.unchanged == 25


def test_a_failing_graphql_call_reads_a_pr_over_rest_and_tries_graphql_again(
    db, hybrid_github, settings, clock
):
    for n in range(1, 31):
        hybrid_github.add_pull(REPO, n, merged_at=clock.now() - timedelta(minutes=n))
    hybrid_github.fail(r"^/graphql$", status=502, times=1)  # POSTs are not retried by the client
    report = sync_repo(db, GitHubSource(settings), REPO, clock=clock, since=clock.now() - timedelta(days=1))
    assert (report.new, report.failed) == (30, 0)
    assert report.graphql_points > 0  # GraphQL was used again after the failure
    assert report.requests == 1 + 4 + 29  # listing, one PR over REST, then files only


def test_a_pr_gone_between_listing_and_fetch_is_recorded_and_the_rest_stored(
    db, hybrid_github, settings, clock
):
    for n in range(1, 6):
        hybrid_github.add_pull(REPO, n, merged_at=clock.now() - timedelta(minutes=n))
    source = GitHubSource(settings)
    headers = source.list_closed_pulls(REPO).pulls
    del hybrid_github.repos[REPO][3]
    results = source.fetch_pulls(headers)
    failed = {h.number: r for h, r in zip(headers, results, strict=True) if isinstance(r, Exception)}
    assert list(failed) == [3] and "Could not resolve" in str(failed[3])


def test_a_server_without_graphql_is_asked_once_then_read_with_rest(db, github, settings, clock):
    for n in range(1, 61):
        github.add_pull(REPO, n, merged_at=clock.now() - timedelta(minutes=n))
    report = sync_repo(db, GitHubSource(settings), REPO, clock=clock, since=clock.now() - timedelta(days=1))
    assert (report.new, report.graphql_points) == (60, 0)
    assert [c.request.path for c in github.calls].count("/graphql") == 1
    assert report.requests == 1 + 4 * 60


def test_the_installation_budget_pays_for_graphql_with_a_github_app(db, hybrid_github, settings, clock):
    from tests.ingest.test_github_app import APP_ID, PRIVATE, PUBLIC

    hybrid_github.enable_app(APP_ID, PUBLIC)
    installation = hybrid_github.add_installation(42, "acme", [REPO])
    for n in range(1, 4):
        hybrid_github.add_pull(REPO, n, merged_at=clock.now() - timedelta(minutes=n))
    app = settings.model_copy(
        update={
            "github_token": None,
            "github_app_id": str(APP_ID),
            "github_app_private_key": SecretStr(PRIVATE),
        }
    )
    report = sync_repo(db, GitHubSource(app), REPO, clock=clock, since=clock.now() - timedelta(days=1))
    assert report.new == 3 and report.graphql_points == 1
    assert installation.graphql_bucket.remaining == 4999
    assert hybrid_github.user_graphql_bucket.remaining == 5000
    with db.session() as session:
        assert len(PRIndex(session).stored_updated_at(PRIndex(session).repo(REPO))) == 3


# The fake's enforcement of GitHub's rules ----------------------------------------------------------


def measured(query: str, variables: dict | None = None) -> tuple[int, int]:  # type: ignore[type-arg]
    from graphql import parse, validate

    document = parse(query)
    assert validate(SCHEMA, document) == []
    return measure(document, variables or {})


def test_the_cost_of_a_batch_follows_githubs_formula():
    # per PR: reviews, comments and reviewThreads (3 requests) plus one per thread (10): 13 requests
    assert measured(batch_query(list(range(1, 26))), {"owner": "a", "name": "b"}) == (
        3,
        25 * (50 + 50 + 10 + 50),
    )
    assert measured(batch_query([1]), {"owner": "a", "name": "b"})[0] == 1  # the minimum
    nested = 'query { repository(owner: "a", name: "b") { pullRequest(number: 1) { reviewThreads(first: $n) { nodes { comments(first: 100) { nodes { body } } } } } } }'
    assert measured(nested.replace("$n", "100")) == (1, 100 + 100 * 100)  # 101 requests / 100 -> 1


@pytest.mark.parametrize(
    ("connection", "kind"),
    [
        ("files { totalCount }", "MISSING_PAGINATION_BOUNDARIES"),
        ("files(first: 101) { totalCount }", "EXCESSIVE_PAGINATION"),
        ("files(first: 0) { totalCount }", "EXCESSIVE_PAGINATION"),
    ],
)
def test_connections_need_first_or_last_within_1_to_100(connection: str, kind: str):
    with pytest.raises(QueryRefused) as refused:
        measured(
            f'query {{ repository(owner: "a", name: "b") {{ pullRequest(number: 1) {{ {connection} }} }} }}'
        )
    assert refused.value.kind == kind


def test_a_query_over_the_node_limit_is_refused():
    aliases = " ".join(
        f"p{n}: pullRequest(number: {n}) {{ reviewThreads(first: 100) {{ nodes {{ comments(first: 100) {{ nodes {{ body }} }} }} }} }}"
        for n in range(51)
    )
    with pytest.raises(QueryRefused) as refused:
        measured(f'query {{ repository(owner: "a", name: "b") {{ {aliases} }} }}')
    assert refused.value.kind == "MAX_NODE_LIMIT_EXCEEDED"
    assert NODE_LIMIT < 51 * (100 + 100 * 100)


def test_the_fake_answers_a_refused_query_with_githubs_error_shape(hybrid_github):
    import requests

    answer = requests.post(
        f"{hybrid_github.url}/graphql",
        json={
            "query": 'query { repository(owner: "a", name: "b") { pullRequest(number: 1) { files { totalCount } } } }'
        },
        headers={"Authorization": "token test-token"},
        timeout=5,
    )
    assert answer.status_code == 200 and answer.headers["X-RateLimit-Resource"] == "graphql"
    assert answer.json()["errors"][0]["type"] == "MISSING_PAGINATION_BOUNDARIES"
    assert hybrid_github.user_graphql_bucket.remaining == 5000  # refused before it cost anything
