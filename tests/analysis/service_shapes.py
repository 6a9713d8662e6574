"""Pull requests of service repositories in Go, TypeScript and Rust (and a Python library), written for
the tests of risk mechanisms and key points: auth middleware that parses tokens, goroutines, timers and
tasks started with no way to stop them, a lock held across a return, tests that assert nothing, a pin
in go.mod, a removed exported function, and bodies of every shape (a What/Why template with measured
figures and a follow-up plan naming other files, Chinese sections, bullets only, no body at all)."""

from __future__ import annotations

from collections.abc import Sequence

from chatbot.models import PRFile, PullRequest

from .builders import changed, make_pr

GO = "acme/gatekeeper"
TS = "acme/console"
RUST = "acme/relay"
PY = "acme/loader"


def added(path: str, lines: Sequence[str]) -> PRFile:
    """A new file: its whole content is the patch's added lines."""
    patch = "\n".join([f"@@ -0,0 +1,{len(lines)} @@", *(f"+{line}" for line in lines)])
    return PRFile(filename=path, status="added", additions=len(lines), deletions=0, patch=patch)


def _pr(repo: str, number: int, title: str, body: str, *files: PRFile) -> PullRequest:
    return make_pr(title, body=body, files=files, repo=repo, number=number)


# --- a Go service ----------------------------------------------------------------------------------------

GO_JWT = _pr(
    GO,
    41,
    "Add JWT auth middleware",
    "Requests to `/api/*` now need a bearer token. The middleware parses it with the shared HMAC secret "
    "and puts the subject into the request context, so handlers can read it with `auth.Subject(ctx)`.\n\n"
    "Closes #38",
    added(
        "internal/auth/middleware.go",
        [
            "package auth",
            "",
            "import (",
            '\t"context"',
            '\t"net/http"',
            '\t"strings"',
            "",
            '\t"github.com/golang-jwt/jwt/v5"',
            ")",
            "",
            "type ctxKey struct{}",
            "",
            "// Middleware rejects requests without a valid bearer token.",
            "func Middleware(secret []byte, next http.Handler) http.Handler {",
            "\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {",
            '\t\traw := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")',
            "\t\ttoken, err := jwt.Parse(raw, func(t *jwt.Token) (interface{}, error) {",
            "\t\t\treturn secret, nil",
            "\t\t})",
            "\t\tif err != nil || !token.Valid {",
            '\t\t\thttp.Error(w, "unauthorized", http.StatusUnauthorized)',
            "\t\t\treturn",
            "\t\t}",
            "\t\tclaims := token.Claims.(jwt.MapClaims)",
            '\t\tctx := context.WithValue(r.Context(), ctxKey{}, claims["sub"])',
            "\t\tnext.ServeHTTP(w, r.WithContext(ctx))",
            "\t})",
            "}",
            "",
            "// Subject is the token subject the middleware stored.",
            "func Subject(ctx context.Context) string {",
            "\tsub, _ := ctx.Value(ctxKey{}).(string)",
            "\treturn sub",
            "}",
        ],
    ),
    added(
        "internal/auth/middleware_test.go",
        [
            "package auth",
            "",
            "import (",
            '\t"net/http"',
            '\t"net/http/httptest"',
            '\t"testing"',
            ")",
            "",
            "func TestMiddleware(t *testing.T) {",
            '\th := Middleware([]byte("k"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))',
            '\treq := httptest.NewRequest("GET", "/api/x", nil)',
            "\th.ServeHTTP(httptest.NewRecorder(), req)",
            "}",
        ],
    ),
    changed("go.mod", ["\tgithub.com/golang-jwt/jwt/v5 v5.2.1"]),
)

GO_HEALTH = _pr(
    GO,
    42,
    "Probe upstreams in the background",
    "### 背景\n上游实例宕机后，请求会一直被转发过去，直到下一次配置重载。\n\n"
    "### 改动\n- 新增 `StartHealthChecks`，按固定间隔探测所有上游\n- 探测失败的实例在恢复前不再接收请求\n\n"
    "### 测试\n本地用 3 个上游手动验证。",
    changed(
        "internal/upstream/health.go",
        [
            "// StartHealthChecks probes every upstream each interval.",
            "func (p *Pool) StartHealthChecks(interval time.Duration) {",
            "\tgo func() {",
            "\t\tticker := time.NewTicker(interval)",
            "\t\tfor range ticker.C {",
            "\t\t\tfor _, u := range p.upstreams {",
            "\t\t\t\tu.healthy.Store(p.probe(u) == nil)",
            "\t\t\t}",
            "\t\t}",
            "\t}()",
            "}",
            "",
            "func (p *Pool) probe(u *Upstream) error {",
            '\tresp, err := p.client.Get(u.URL + "/healthz")',
            "\tif err != nil {",
            "\t\treturn err",
            "\t}",
            "\treturn resp.Body.Close()",
            "}",
        ],
    ),
    changed(
        "internal/upstream/pool.go",
        ["\t\tif !u.healthy.Load() {", "\t\t\tcontinue", "\t\t}"],
    ),
)

GO_ROUTE_CACHE = _pr(
    GO,
    43,
    "Cache resolved routes per host",
    "- cache resolved routes per host instead of walking the route table on every request\n"
    "- p99 latency 12.4 ms → 7.9 ms (−36%) on the staging replay\n",
    changed(
        "internal/router/cache.go",
        [
            "type RouteCache struct {",
            "\tmu     sync.Mutex",
            "\troutes map[string]*Route",
            "}",
            "",
            "// Get returns the cached route of a host.",
            "func (c *RouteCache) Get(host string) (*Route, bool) {",
            "\tc.mu.Lock()",
            "\tr, ok := c.routes[host]",
            "\tif !ok {",
            "\t\treturn nil, false",
            "\t}",
            "\tc.mu.Unlock()",
            "\treturn r, true",
            "}",
            "",
            "// Put stores the route of a host.",
            "func (c *RouteCache) Put(host string, r *Route) {",
            "\tc.mu.Lock()",
            "\tdefer c.mu.Unlock()",
            "\tc.routes[host] = r",
            "}",
        ],
    ),
    changed(
        "internal/router/cache_test.go",
        [
            "func TestRouteCacheGet(t *testing.T) {",
            "\tc := &RouteCache{routes: map[string]*Route{}}",
            '\tc.Put("a", &Route{})',
            '\tif _, ok := c.Get("a"); !ok {',
            '\t\tt.Fatal("route not cached")',
            "\t}",
            "}",
        ],
    ),
)

GO_REMOVE_V1 = _pr(
    GO,
    44,
    "Remove the legacy v1 token endpoint",
    "The v1 endpoint was deprecated in 2.3. Clients must now call `/v2/token`.",
    changed(
        "internal/auth/legacy.go",
        [],
        [
            "// IssueV1Token issues a token in the v1 format.",
            "func IssueV1Token(user string) (string, error) {",
            "\treturn sign(v1Claims(user))",
            "}",
        ],
    ),
    changed("internal/api/router.go", [], ['\tmux.HandleFunc("/v1/token", handleV1Token)']),
)

GO_BUMP = _pr(
    GO,
    45,
    "chore(deps): bump golang.org/x/net from 0.28.0 to 0.33.0",
    "Bumps golang.org/x/net from 0.28.0 to 0.33.0.",
    changed("go.mod", ["\tgolang.org/x/net v0.33.0"], ["\tgolang.org/x/net v0.28.0"]),
    changed("go.sum", ["golang.org/x/net v0.33.0 h1:abc="], ["golang.org/x/net v0.28.0 h1:def="]),
)

GO_STREAM = _pr(
    GO,
    46,
    "Stream proxied responses",
    "## What\nStream large responses to the client in chunks instead of buffering them, so peak memory is "
    "bounded by the chunk size rather than by the response size.\n\n"
    "## Why\nA 2 GB export held the whole body in memory and the pod was OOM-killed.\n\n"
    "## Results\nPeak RSS 2.1 GB → 180 MB on the export benchmark.\n\n"
    "## Follow-up\nThe next PR will change `internal/export/csv.go` and `internal/export/xlsx.go` to "
    "write through the new `ChunkWriter`.",
    added(
        "internal/proxy/stream.go",
        [
            "package proxy",
            "",
            "// ChunkWriter flushes every chunk it is given.",
            "type ChunkWriter struct {",
            "\tw http.ResponseWriter",
            "}",
            "",
            "// CopyChunked copies src to w one chunk at a time.",
            "func CopyChunked(w http.ResponseWriter, src io.Reader, size int) error {",
            "\tbuf := make([]byte, size)",
            "\t_, err := io.CopyBuffer(&ChunkWriter{w: w}, src, buf)",
            "\treturn err",
            "}",
        ],
    ),
    added(
        "internal/proxy/stream_test.go",
        [
            "package proxy",
            "",
            "func TestCopyChunked(t *testing.T) {",
            "\trec := httptest.NewRecorder()",
            '\tif err := CopyChunked(rec, strings.NewReader("abcdef"), 2); err != nil {',
            '\t\tt.Fatalf("copy: %v", err)',
            "\t}",
            '\tassert.Equal(t, "abcdef", rec.Body.String())',
            "}",
        ],
    ),
)

GO_REQUEST_ID = _pr(
    GO,
    47,
    "Add request IDs to access logs",
    "",
    added(
        "internal/logging/request_id.go",
        [
            "package logging",
            "",
            "// RequestID tags each request with an ID and logs it.",
            "func RequestID(next http.Handler) http.Handler {",
            "\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {",
            "\t\tid := uuid.NewString()",
            '\t\tw.Header().Set("X-Request-ID", id)',
            "\t\tnext.ServeHTTP(w, r)",
            "\t})",
            "}",
        ],
    ),
    added(
        "internal/logging/request_id_test.go",
        [
            "package logging",
            "",
            "func TestRequestID(t *testing.T) {",
            "\trec := httptest.NewRecorder()",
            '\tRequestID(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))',
            '\trequire.NotEmpty(t, rec.Header().Get("X-Request-ID"))',
            "}",
        ],
    ),
)

# --- a TypeScript console ------------------------------------------------------------------------------

TS_POLLING = _pr(
    TS,
    201,
    "Poll job status on the dashboard",
    "The dashboard now refreshes job status every 5 s instead of only on page load, so a finished job "
    "shows up without a reload.",
    added(
        "src/jobs/poller.ts",
        [
            'import { fetchJobs } from "../api";',
            "",
            "export function startPolling(onJobs: (jobs: Job[]) => void): void {",
            "  setInterval(async () => {",
            "    onJobs(await fetchJobs());",
            "  }, 5000);",
            "}",
        ],
    ),
    added(
        "src/jobs/poller.test.ts",
        [
            'import { startPolling } from "./poller";',
            "",
            'describe("startPolling", () => {',
            '  it("polls the jobs endpoint", () => {',
            "    startPolling(() => {});",
            "  });",
            "});",
        ],
    ),
)

TS_SESSION = _pr(
    TS,
    202,
    "Read the session user from the token",
    "Instead of calling `/me` on every page, the server reads the user from the session token it was given.",
    changed(
        "src/server/session.ts",
        [
            'import jwt from "jsonwebtoken";',
            "",
            "export function sessionUser(token: string): User | null {",
            "  const claims = jwt.decode(token) as { sub?: string } | null;",
            "  return claims?.sub ? { id: claims.sub } : null;",
            "}",
        ],
    ),
    changed(
        "src/server/session.test.ts",
        [
            '  it("reads the subject", () => {',
            '    expect(sessionUser(TOKEN)).toEqual({ id: "u1" });',
            "  });",
        ],
    ),
)

# --- a Rust relay ----------------------------------------------------------------------------------------

RUST_FLUSHER = _pr(
    RUST,
    301,
    "Flush the write buffer in the background",
    "**Flush off the hot path**: writes return as soon as the record is buffered; a background task "
    "flushes the buffer every 50 ms.\n\n**Throughput**: 41k → 118k records/s on one core.",
    changed(
        "src/buffer.rs",
        [
            "pub fn spawn_flusher(buffer: Arc<Buffer>) {",
            "    tokio::spawn(async move {",
            "        loop {",
            "            tokio::time::sleep(Duration::from_millis(50)).await;",
            "            buffer.flush().await;",
            "        }",
            "    });",
            "}",
        ],
    ),
    changed(
        "tests/buffer.rs",
        [
            "#[tokio::test]",
            "async fn flusher_runs() {",
            "    let buffer = Arc::new(Buffer::default());",
            "    spawn_flusher(buffer.clone());",
            "    buffer.push(Record::new(1));",
            "}",
        ],
    ),
)

# --- a Python library --------------------------------------------------------------------------------------

PY_WATCHER = _pr(
    PY,
    401,
    "Reload the config when its file changes",
    "",
    changed(
        "loader/watch.py",
        [
            "def watch(path, on_change):",
            "    thread = threading.Thread(target=_poll, args=(path, on_change))",
            "    thread.start()",
            "    return path",
        ],
    ),
    added(
        "tests/test_watch.py",
        [
            "from loader.watch import watch",
            "",
            "",
            "def test_watch_starts(tmp_path):",
            '    config = tmp_path / "a.yaml"',
            '    config.write_text("a: 1")',
            "    watch(config, lambda: None)",
        ],
    ),
)

PY_CHECKED = _pr(
    PY,
    402,
    "Reject configs with duplicate keys",
    "Loading a YAML file that sets a key twice now raises `DuplicateKeyError` instead of keeping the last "
    "value silently.",
    changed(
        "loader/load.py",
        [
            "class DuplicateKeyError(ValueError):",
            "    pass",
            "",
            "def _check_duplicates(pairs):",
            "    seen = set()",
            "    for key, _ in pairs:",
            "        if key in seen:",
            "            raise DuplicateKeyError(key)",
            "        seen.add(key)",
        ],
    ),
    added(
        "tests/test_duplicates.py",
        [
            "import pytest",
            "",
            "",
            "def test_duplicate_key_raises(tmp_path):",
            '    path = tmp_path / "a.yaml"',
            '    path.write_text("a: 1\\na: 2")',
            "    with pytest.raises(DuplicateKeyError):",
            "        load(path)",
            "",
            "",
            "def test_loads_plain_file(tmp_path):",
            '    path = tmp_path / "b.yaml"',
            '    path.write_text("a: 1")',
            "    check_loaded(load(path), {'a': 1})",
        ],
    ),
)

ALL: tuple[PullRequest, ...] = (
    GO_JWT,
    GO_HEALTH,
    GO_ROUTE_CACHE,
    GO_REMOVE_V1,
    GO_BUMP,
    GO_STREAM,
    GO_REQUEST_ID,
    TS_POLLING,
    TS_SESSION,
    RUST_FLUSHER,
    PY_WATCHER,
    PY_CHECKED,
)
