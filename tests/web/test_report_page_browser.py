"""The weekly report page as a person sees it: served by the real app, rendered by headless Chromium
(Debian's `chromium`), driven over the DevTools protocol with the `websockets` package prhub already
pins. Skipped when /usr/bin/chromium is absent (`make test` installs it when run as root)."""

from __future__ import annotations

import contextlib
import json
import queue
import struct
import subprocess
import threading
import time
from base64 import b64decode
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from adapters.github.rest import pull_request_from_rest
from adapters.web.app import BackgroundServer, create_app
from adapters.web.reports import ReportPages
from chatbot.analysis.heuristic import HeuristicAnalyzer
from chatbot.clock import FixedClock
from chatbot.demo import DEMO_REPO, demo_pull_requests, seed_demo
from chatbot.messages import say
from chatbot.reports.weekly import WeeklyReport, build_weekly_report
from chatbot.store.db import Database, open_database
from chatbot.weeks import last_complete_week
from tests.reports.fixtures import INJECTION, REPO, SHANGHAI, seed

CHROMIUM = Path("/usr/bin/chromium")
# Screenshots a person can look at after a run (build/ is git-ignored).
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"
NOW = datetime(2026, 6, 24, 10, 0, tzinfo=SHANGHAI)  # a Wednesday in 2026-W26: the page shows 2026-W25
WEEK = last_complete_week(NOW, SHANGHAI)
LAPTOP, PHONE = (1280, 800), (390, 844)
TIMEOUT = 15.0  # seconds for any one browser step; the whole module takes a few seconds

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (as root: apt-get install chromium)"
)

CDPMessage = dict[str, Any]


class Page:
    """One tab, attached as a flat DevTools session: navigate, evaluate, screenshot, and what it logged."""

    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser, self.session = browser, session
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def send(self, method: str, **params: Any) -> CDPMessage:
        return self.browser.send(method, params, self.session)

    def goto(self, url: str, size: tuple[int, int], *, mobile: bool = False) -> None:
        """Set the viewport (a phone viewport honours `<meta name=viewport>`), then load `url` and wait
        for its load event."""
        width, height = size
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self.send("Emulation.setScrollbarsHidden", hidden=True)  # the page, not a scrollbar, is `width` wide
        self.browser.events.clear()
        navigated = self.send("Page.navigate", url=url)
        assert "errorText" not in navigated, navigated
        self.browser.wait_for("Page.loadEventFired", self.session)

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def screenshot(self) -> bytes:
        """A PNG of the whole page, not only the viewport."""
        content = self.send("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": content["width"], "height": content["height"], "scale": 1}
        shot = self.send("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)
        return b64decode(shot["data"])

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions, browser-logged errors (CSP violations, failed loads) and
        dialogs since the last navigation."""
        found = []
        for event in self.browser.events:
            method, params = event["method"], event.get("params", {})
            if event.get("sessionId") != self.session:
                continue
            if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                found.append(f"console: {[a.get('value', a.get('description')) for a in params['args']]}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails'].get('text')}")
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(f"log: {params['entry']['text']} ({params['entry'].get('url', '')})")
            elif method == "Page.javascriptDialogOpening":
                found.append(f"dialog: {params['message']}")
        return found


class Chromium:
    """Headless Chromium on a free DevTools port, spoken to over its browser websocket. Every event that
    arrives is kept in `events` (cleared on navigation), so waits never sleep: they read the socket."""

    def __init__(self, profile: Path) -> None:
        self.process = subprocess.Popen(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",  # root in a container has no user namespaces for the sandbox
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.stderr: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._drain_stderr, name="chromium-stderr", daemon=True).start()
        try:
            self.socket: ClientConnection = connect(self._devtools_url(), max_size=None, open_timeout=TIMEOUT)
        except BaseException:
            self.process.kill()
            self.process.wait()
            raise
        self.events: list[CDPMessage] = []
        self._next_id = 0

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:  # also keeps the pipe from filling up and stalling Chromium
            self.stderr.put(line)

    def _devtools_url(self) -> str:
        """Chromium prints `DevTools listening on ws://…` once its port is bound."""
        deadline = time.monotonic() + TIMEOUT
        seen = []
        while time.monotonic() < deadline:
            try:
                line = self.stderr.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            seen.append(line)
            if line.startswith("DevTools listening on "):
                return line.removeprefix("DevTools listening on ").strip()
        raise AssertionError("Chromium did not open its DevTools port:\n" + "".join(seen))

    def _receive(self, deadline: float) -> CDPMessage:
        return json.loads(self.socket.recv(timeout=max(0.0, deadline - time.monotonic())))

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> CDPMessage:
        """Send a command and return its result; events that arrive meanwhile go to `events`."""
        self._next_id += 1
        command: CDPMessage = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        self.socket.send(json.dumps(command))
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self._receive(deadline)
            if message.get("id") == self._next_id:
                assert "error" not in message, f"{method}: {message['error']}"
                return dict(message["result"])
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method: str, session: str) -> CDPMessage:
        """The first event `method` of `session` since `events` was cleared, waiting for it if needed."""
        deadline = time.monotonic() + TIMEOUT
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event["method"] == method and event.get("sessionId") == session:
                    return event
            seen = len(self.events)
            message = self._receive(deadline)
            if "method" in message:
                self.events.append(message)

    def new_page(self) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone: the process is reaped below either way
            self.send("Browser.close")
        self.socket.close()
        try:
            self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk comes first
    return width, height


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    chromium = Chromium(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Database]]:
    """The report pages of the demo repo and of the written week (with its hostile PR title), on the
    real app. SQLite only: the page does not depend on the backend, and its queries are tested on both."""
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('site') / 'prhub.db'}")
    clock = FixedClock(NOW)
    demo = [pull_request_from_rest(item, DEMO_REPO) for item in demo_pull_requests(NOW, SHANGHAI)]
    seed_demo(db, demo, clock=clock, tz=SHANGHAI)
    seed(db)
    app = create_app()
    with BackgroundServer(app) as server:
        # mounted once the port is known, so the Markdown/PDF links point back at this server
        ReportPages(db, clock, SHANGHAI, "zh", HeuristicAnalyzer().analyze, public_url=server.url).mount(app)
        yield server.url, db
    db.dispose()


def weekly_report(db: Database, repo: str) -> WeeklyReport:
    return build_weekly_report(
        db, repo, WEEK, clock=FixedClock(NOW), language="zh", fallback=HeuristicAnalyzer().analyze
    ).report


KEY_PR_TABLE = """(() => {
  const heading = [...document.querySelectorAll('h3')].find(h => h.textContent === %s);
  const table = heading && heading.nextElementSibling && heading.nextElementSibling.querySelector('table');
  return table && [...table.tBodies[0].rows].map(row => row.cells[0].querySelector('a').href);
})()"""


@pytest.mark.parametrize(("size", "mobile"), [(LAPTOP, False), (PHONE, True)], ids=["laptop", "phone"])
def test_the_report_page_renders_with_its_chinese_title_and_key_pr_table(
    browser: Chromium, site: tuple[str, Database], tmp_path: Path, size: tuple[int, int], mobile: bool
) -> None:
    base, db = site
    report = weekly_report(db, DEMO_REPO)
    page = browser.new_page()

    page.goto(f"{base}/reports/{DEMO_REPO}/{WEEK.label}", size, mobile=mobile)

    png = page.screenshot()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"report-{size[0]}px.png").write_bytes(png)
    width, height = png_size(png)
    assert width == size[0] and height >= size[1]
    assert page.errors() == []
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    assert page.evaluate("document.querySelector('h1').textContent") == report.title
    assert page.evaluate("document.title") == report.title
    links = page.evaluate(KEY_PR_TABLE % json.dumps(say("report.section.key_prs", "zh")))
    assert report.key_prs and links == [pr.url for pr in report.key_prs]
    downloads = page.evaluate("[...document.querySelectorAll('nav.actions a')].map(a => a.href)")
    assert downloads == [f"{base}/reports/{DEMO_REPO}/{WEEK.label}{suffix}" for suffix in (".md", ".pdf")]
    # the page never scrolls sideways, and no element reaches past the viewport, even on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert page.evaluate(OVERFLOWING) == []


# Every element whose box reaches outside the viewport, sideways (a box scrolled inside another
# would hide it too: none may be wider than the screen).
OVERFLOWING = """[...document.querySelectorAll('body *')].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
}).map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px: ${e.textContent.slice(0, 40)}`)"""

# How the rows of every table are laid out, and the label each non-lead cell shows.
ROW_LAYOUT = """[...document.querySelectorAll('.table tbody tr')].map(tr => ({
  display: getComputedStyle(tr).display,
  labels: [...tr.cells].filter(td => !td.classList.contains('lead'))
    .map(td => getComputedStyle(td, '::before').content),
}))"""

# Text that names a PR (#1234) outside a link, in the list items of the page.
UNLINKED_PR_NUMBERS = """[...document.querySelectorAll('main li')].flatMap(li => {
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.closest('a') && /#\\d{3,}/.test(node.textContent)) found.push(node.textContent);
  }
  return found;
})"""


def test_on_a_phone_every_table_row_is_a_card_with_labelled_cells(
    browser: Chromium, site: tuple[str, Database]
) -> None:
    base, _ = site
    page = browser.new_page()

    page.goto(f"{base}/reports/{DEMO_REPO}/{WEEK.label}", PHONE, mobile=True)

    rows = page.evaluate(ROW_LAYOUT)
    assert rows and all(row["display"] == "block" for row in rows)
    key_pr_labels = [say(f"report.column.{c}", "zh") for c in ("module", "importance", "key_point")]
    assert [json.loads(label) for label in rows[-1]["labels"]] == key_pr_labels  # CSS strings are quoted
    assert page.evaluate("getComputedStyle(document.querySelector('.table thead')).position") == "absolute"

    page.goto(f"{base}/reports/{DEMO_REPO}/{WEEK.label}", LAPTOP)

    assert {row["display"] for row in page.evaluate(ROW_LAYOUT)} == {"table-row"}


def test_code_shows_as_code_and_every_pr_number_in_a_list_is_a_link(
    browser: Chromium, site: tuple[str, Database]
) -> None:
    base, _ = site
    page = browser.new_page()

    page.goto(f"{base}/reports/{DEMO_REPO}/{WEEK.label}", LAPTOP)

    assert "`" not in page.evaluate("document.querySelector('main').innerText")
    code = page.evaluate("[...document.querySelectorAll('main code')].map(c => c.textContent)")
    assert "rlflow/engines/weight_sync.py" in code
    assert page.evaluate(UNLINKED_PR_NUMBERS) == []


def test_a_pr_title_with_markup_shows_as_text_and_runs_nothing(
    browser: Chromium, site: tuple[str, Database]
) -> None:
    base, _ = site
    page = browser.new_page()

    page.goto(f"{base}/reports/{REPO}/{WEEK.label}", LAPTOP)

    assert page.errors() == []  # an injected <script> would be a CSP violation, an alert a dialog
    assert page.evaluate("document.scripts.length") == 0
    assert page.evaluate("document.querySelectorAll('a[href^=\"javascript:\"]').length") == 0
    assert "<script>alert(1)</script>" in page.evaluate("document.body.innerText")
    assert INJECTION.split(" ")[0] in page.evaluate("document.body.innerText")


def test_the_error_check_sees_console_errors_exceptions_and_failed_loads(
    browser: Chromium, site: tuple[str, Database]
) -> None:
    """Guards the `errors() == []` assertions above against passing vacuously."""
    base, _ = site
    page = browser.new_page()
    html = f'<img src="{base}/missing.png"><script>console.error("boom"); throw Error("bang")</script>'

    page.goto(f"data:text/html,{html}", LAPTOP)

    kinds = sorted({error.split(":")[0] for error in page.errors()})
    assert kinds == ["console", "exception", "log"], page.errors()
