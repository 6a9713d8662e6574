"""Public definitions in the languages a followed repository may be written in: a changed signature, a
removal and a rename are found in Go, Rust, TypeScript, Java and Kotlin as in Python; private ones are
not anyone's API; a signature that only gained optional parameters breaks no caller."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import PRFeatures, extract_features
from chatbot.analysis.modules import load_module_map

from .builders import changed, make_pr

REPO = "acme/ferry"

# (path, old line, new line) of a public definition whose parameters changed, per language.
RESIGNED = {
    "go method": (
        "pkg/queue/queue.go",
        "func (q *Queue) Push(item Item) error {",
        "func (q *Queue) Push(ctx context.Context, item Item) error {",
    ),
    "go function": (
        "internal/wire/codec.go",
        "func Decode(b []byte) (Msg, error) {",
        "func Decode(r io.Reader) (Msg, error) {",
    ),
    "rust": (
        "src/pool.rs",
        "    pub fn acquire(&self) -> Conn {",
        "    pub fn acquire(&self, timeout: Duration) -> Conn {",
    ),
    "rust async": (
        "src/lib.rs",
        "pub async fn connect(url: &str) -> Result<Client> {",
        "pub async fn connect(cfg: Config) -> Result<Client> {",
    ),
    "typescript": (
        "src/client.ts",
        "export async function fetchJobs(limit: number): Promise<Job[]> {",
        "export async function fetchJobs(query: JobQuery): Promise<Job[]> {",
    ),
    "java": (
        "src/main/java/io/acme/Ferry.java",
        "    public Ticket book(String route) {",
        "    public Ticket book(String route, Seat seat) {",
    ),
    "kotlin": (
        "app/src/Ferry.kt",
        "    fun book(route: String): Ticket {",
        "    fun book(route: String, seat: Seat): Ticket {",
    ),
    "python return type": (
        "ferry/score.py",
        "def score(answer: str) -> bool:",
        "def score(answer: str) -> float:",
    ),
}

# (path, removed definition line, its name) of a private definition, per language: nobody outside calls it.
PRIVATE = {
    "go": ("pkg/queue/queue.go", "func push(item Item) error {", "push"),
    "rust crate-private": ("src/pool.rs", "pub(crate) fn acquire(&self) -> Conn {", "acquire"),
    "rust private": ("src/pool.rs", "fn acquire(&self) -> Conn {", "acquire"),
    "typescript": ("src/client.ts", "async function fetchJobs(limit: number) {", "fetchJobs"),
    "java": ("src/main/java/io/acme/Ferry.java", "    private Ticket book(String route) {", "book"),
    "kotlin": ("app/src/Ferry.kt", "    private fun book(route: String): Ticket {", "book"),
    "python": ("ferry/score.py", "def _score(answer):", "_score"),
}


def features(*files: object, title: str = "Rework the booking flow") -> PRFeatures:
    return extract_features(make_pr(title, files=files, repo=REPO), load_module_map(REPO))  # type: ignore[arg-type]


@pytest.mark.parametrize("case", sorted(RESIGNED))
def test_a_changed_public_signature_is_found_in_every_language(case: str) -> None:
    path, old, new = RESIGNED[case]
    found = features(changed(path, [new, "    return nil"], [old, "    return nil"]))
    assert len(found.api_resigned) == 1
    resigned = found.api_resigned[0]
    assert resigned.path == path and resigned.old != resigned.new
    assert not found.api_removed and not found.api_added


@pytest.mark.parametrize("case", sorted(PRIVATE))
def test_a_private_definition_is_nobodys_api(case: str) -> None:
    path, line, name = PRIVATE[case]
    found = features(changed(path, ["    return nil"], [line, "    return nil"]))
    assert not any(h.line.startswith(name) for h in (*found.api_removed, *found.api_changed))


@pytest.mark.parametrize(
    ("path", "line", "name"),
    [
        ("pkg/queue/queue.go", "func (q *Queue) Drain() []Item {", "Drain"),
        ("src/pool.rs", "pub struct PoolStats {", "PoolStats"),
        ("src/client.ts", "export interface JobQuery {", "JobQuery"),
        ("src/main/java/io/acme/Ferry.java", "public class Ferry {", "Ferry"),
        ("app/src/Ferry.kt", "data class Seat(val row: Int)", "Seat"),
    ],
)
def test_a_removed_public_definition_is_a_removal_for_its_callers(path: str, line: str, name: str) -> None:
    found = features(changed(path, ["// nothing left here"], [line, "}"]))
    assert [h.line for h in found.api_removed] == [name]


@pytest.mark.parametrize(
    ("path", "old", "new"),
    [
        ("ferry/rollout.py", "def send(self, weights):", "def send(self, weights, step: int | None = None):"),
        ("ferry/rollout.py", "def load(self, path) -> None:", "def load(self, path, **kwargs) -> None:"),
        (
            "src/client.ts",
            "export function post(url: string) {",
            "export function post(url: string, retries?: number) {",
        ),
        (
            "app/src/Ferry.kt",
            "fun book(route: String): Ticket {",
            "fun book(route: String, seat: Seat? = null): Ticket {",
        ),
    ],
)
def test_a_signature_that_only_gains_optional_parameters_breaks_no_caller(
    path: str, old: str, new: str
) -> None:
    found = features(changed(path, [new, "    pass"], [old, "    pass"]))
    assert not found.api_resigned and not found.api_changed


def test_a_go_function_renamed_in_its_file_is_a_rename_not_a_removal() -> None:
    found = features(
        changed(
            "pkg/queue/queue.go",
            ["func (q *Queue) Enqueue(item Item) error {", "\treturn q.push(item)"],
            ["func (q *Queue) Push(item Item) error {", "\treturn q.push(item)"],
        )
    )
    assert [(r.old, r.new) for r in found.api_renamed] == [("Push", "Enqueue")] and not found.api_removed


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_breaking_rust_signature_change_is_named_in_the_analysis(language: str) -> None:
    path, old, new = RESIGNED["rust"]
    pr = make_pr(
        "Pool: acquire takes a timeout",
        body="Callers must now pass how long to wait for a connection.",
        files=[changed(path, [new, "        self.wait(timeout)"], [old, "        self.wait_forever()"])],
        repo=REPO,
    )
    analysis = HeuristicAnalyzer().analyze(pr, language=language)  # type: ignore[arg-type]
    assert any("acquire(&self, timeout: Duration) -> Conn" in point for point in analysis.key_points)
