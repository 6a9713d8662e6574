"""`prhub serve` benchmark: start-up time to healthy, resident memory when idle with every adapter on,
and memory under a burst of chat events, of the real `prhub serve` process.

    .venv/bin/python bench/serve.py                  # 200 Slack events (and 200 Feishu ones when wired)
    .venv/bin/python bench/serve.py --events 1000    # a bigger burst

`prhub serve --port 0` runs as a subprocess on a fresh SQLite index holding the demo repository (as
`prhub demo` seeds it), with Slack in HTTP mode against the fake Slack, the GitHub webhook on with a fake
GitHub, the scheduler, report pages and metrics; Feishu in HTTP mode against the fake Feishu whenever
serve builds it (the start-up log says). The fakes and the load generator run in child processes, so
the figures are the server's alone, read from /proc/PID/status (VmRSS now, VmHWM the peak).
Phases: start-up (spawn → `/healthz` answers 200), idle (`--idle` seconds after healthy, the
scheduler's first push tick included), a burst of signed events fired all at once (each in its own
channel, as in bench/slack.py and bench/feishu.py) until every one is answered, then one HTML and one
PDF report page (the PDF loads WeasyPrint), then SIGTERM.
Target (issue 9): idle RSS <= 200 MB with all adapters on.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import os
import queue
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from multiprocessing.connection import Connection
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fakes live in tests/, which is not an installed package

from adapters.github.rest import pull_request_from_rest  # noqa: E402
from chatbot.clock import SystemClock  # noqa: E402
from chatbot.demo import DEMO_REPO, demo_pull_requests, seed_demo  # noqa: E402
from chatbot.store.db import open_database  # noqa: E402
from chatbot.weeks import last_complete_week  # noqa: E402
from tests.fakes.feishu import encrypt, signature, text_event  # noqa: E402
from tests.fakes.slack import BOT_TOKEN, SIGNING_SECRET, event_body, mention, signed  # noqa: E402

TZ = ZoneInfo("Asia/Shanghai")
TARGET_IDLE_MB = 200
WEBHOOK_SECRET = "bench-webhook-secret"
FEISHU_APP_ID, FEISHU_SECRET = "cli_bench_serve", "bench-app-secret"
FEISHU_KEY, FEISHU_TOKEN = "bench-encrypt-key", "bench-verification-token"
QUESTIONS = ("本周 rlflow 有哪些风险？", "rlflow #1249 讲了什么？", "What changed in rlflow last week?")
Shot = tuple[float, float, int]  # sent, answered (time.monotonic() in the load process), HTTP status


def serve_fakes(conn: Connection) -> None:
    """Child process: fake Slack, GitHub and Feishu. Sends their URLs, then answers each
    `(slack, feishu, timeout)` with how many Slack and Feishu answers they received, once there are
    that many (or at the timeout); None stops them. Each question first gets a thinking message /
    card, updated in place into the answer, so an answer is a `chat.update` / a card patch."""
    from tests.fakes.feishu import FakeFeishu
    from tests.fakes.github import FakeGitHub
    from tests.fakes.slack import FakeSlack

    slack, github, feishu = FakeSlack(), FakeGitHub(), FakeFeishu(app_secret=FEISHU_SECRET)
    for fake in (slack, github, feishu):
        fake.start()
    conn.send({"slack": slack.api_url, "github": github.url, "feishu": feishu.url})
    while (command := conn.recv()) is not None:
        slack_count, feishu_count, timeout = command
        deadline = time.monotonic() + timeout
        try:
            slack.wait_for("chat.update", slack_count, timeout=timeout)
            feishu.wait_for_sent(2 * feishu_count, max(0.0, deadline - time.monotonic()))
        except AssertionError:
            pass  # reported as "answered n/N"
        patches = [s for s in feishu.sent if s.kind == "patch"]
        conn.send((len(slack.called("chat.update", ok=True)), len(patches)))
    for fake in (slack, github, feishu):
        fake.stop()


def fire(port: int, requests: list[bytes], conn: Connection) -> None:
    """Child process: post every raw request at once, each on its own connection, from an asyncio client
    that costs microseconds a request. Sends back one Shot per request."""
    import asyncio

    async def shoot(raw: bytes, at: float) -> Shot:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        sent = time.monotonic()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(raw)
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        await reader.read()
        writer.close()
        return sent, time.monotonic(), status

    async def run() -> list[Shot]:
        start = time.monotonic() + 0.2  # every task created and waiting before the first fires
        return list(await asyncio.gather(*(shoot(raw, start) for raw in requests)))

    conn.send(asyncio.run(run()))


def raw_post(path: str, body: bytes, headers: dict[str, str]) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def slack_events(count: int) -> list[bytes]:
    run = uuid.uuid4().hex[:8]
    requests = []
    for i in range(count):
        text = QUESTIONS[i % len(QUESTIONS)]
        body = event_body(mention(text, channel=f"C{i}", ts=f"1750000000.{i:06d}"), f"Ev{run}{i}")
        requests.append(
            raw_post(
                "/slack/events", body.encode(), signed(body, SIGNING_SECRET, content_type="application/json")
            )
        )
    return requests


def feishu_events(count: int) -> list[bytes]:
    requests = []
    for i in range(count):
        event = text_event(f"@_user_1 {QUESTIONS[i % len(QUESTIONS)]}", chat_id=f"oc_bench_{i}")
        body = encrypt(event.payload(FEISHU_TOKEN, FEISHU_APP_ID), FEISHU_KEY)
        stamp, nonce = str(int(time.time())), uuid.uuid4().hex
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "X-Lark-Request-Timestamp": stamp,
            "X-Lark-Request-Nonce": nonce,
            "X-Lark-Signature": signature(stamp, nonce, FEISHU_KEY, body),
        }
        requests.append(raw_post("/feishu/events", body, headers))
    return requests


def memory(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM (peak RSS) in KiB and Threads, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM", "Threads"):
            fields[name] = int(value.split()[0])
    return fields


def mb(kib: int) -> str:
    return f"{kib / 1024:.0f} MB"


def get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class ServeProcess:
    """`prhub serve --port 0` as a subprocess; its output lines are collected on a thread."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "prhub_cli", "serve", "--port", "0"],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, name="serve-output", daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)

    def wait_listening(self, timeout: float = 60.0) -> int:
        """The port, from `prhub serve (all) listening on http://HOST:PORT`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if found := re.search(r"listening on http://[\d.]+:(\d+)", line):
                return int(found.group(1))
        self.process.kill()
        raise SystemExit("prhub serve did not start:\n" + "".join(self.output))

    def wait_healthy(self, port: int, timeout: float = 10.0) -> float:
        """Seconds from spawn to the first 200 from /healthz."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if get(port, "/healthz")[0] == 200:
                    return time.monotonic() - self.started
            except ConnectionError:
                time.sleep(0.01)  # the port is bound before the line is printed: rarely reached
        raise SystemExit("prhub serve never answered /healthz:\n" + "".join(self.output))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=200, help="events per chat platform (default 200)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds to sit idle (default 10)")
    args = parser.parse_args()
    spawn = mp.get_context("spawn")

    to_fakes, fakes_end = spawn.Pipe()
    fakes = spawn.Process(target=serve_fakes, args=(fakes_end,), daemon=True)
    fakes.start()
    urls = to_fakes.recv()
    with tempfile.TemporaryDirectory() as folder:
        database_url = f"sqlite:///{folder}/prhub.db"
        db = open_database(database_url)
        clock = SystemClock()
        demo = [pull_request_from_rest(item, DEMO_REPO) for item in demo_pull_requests(clock.now(), TZ)]
        seed_demo(db, demo, clock=clock, tz=TZ)
        db.dispose()
        env = {
            **os.environ,
            "PRHUB_DATABASE_URL": database_url,
            "PRHUB_TIMEZONE": str(TZ),
            "PRHUB_PUBLIC_URL": "",
            "OPENAI_API_KEY": "",
            "SLACK_BOT_TOKEN": BOT_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING_SECRET,
            "SLACK_APP_TOKEN": "",
            "SLACK_API_URL": urls["slack"],
            "GITHUB_TOKEN": "test-token",
            "GITHUB_API_URL": urls["github"],
            "GITHUB_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "FEISHU_APP_ID": FEISHU_APP_ID,
            "FEISHU_APP_SECRET": FEISHU_SECRET,
            "FEISHU_ENCRYPT_KEY": FEISHU_KEY,
            "FEISHU_VERIFICATION_TOKEN": FEISHU_TOKEN,
            "FEISHU_DOMAIN": urls["feishu"],
            "FEISHU_MODE": "http",
        }
        serve = ServeProcess(env, Path(folder))
        pid = serve.process.pid
        port = serve.wait_listening()
        startup = serve.wait_healthy(port)
        on = [line.split("on: ", 1)[1].strip() for line in serve.output if " on: " in line]
        off = [line.split("off: ", 1)[1].strip() for line in serve.output if " off: " in line]
        feishu_on = any(line.startswith("Feishu") for line in on)

        idle = []
        end = time.monotonic() + args.idle
        while time.monotonic() < end:  # a benchmark samples on a timer; tests never do
            idle.append(memory(pid)["VmRSS"])
            time.sleep(0.5)
        idle_now = memory(pid)

        requests = slack_events(args.events) + (feishu_events(args.events) if feishu_on else [])
        to_gun, gun_end = spawn.Pipe()
        gun = spawn.Process(target=fire, args=(port, requests, gun_end), daemon=True)
        gun.start()
        shots: list[Shot] = to_gun.recv()
        gun.join(5)
        to_fakes.send((args.events, args.events if feishu_on else 0, 120.0))
        slack_answers, feishu_answers = to_fakes.recv()
        answered_at = time.monotonic()
        loaded = memory(pid)

        page = f"/reports/{DEMO_REPO}/{last_complete_week(clock.now(), TZ).label}"
        statuses = {suffix: get(port, page + suffix)[0] for suffix in ("", ".pdf")}
        paged = memory(pid)

        stopping = time.monotonic()
        serve.process.send_signal(signal.SIGTERM)
        code = serve.process.wait(timeout=30)
        stopped = time.monotonic() - stopping
    to_fakes.send(None)
    fakes.join(5)

    acks = sorted((done - sent) * 1000 for sent, done, _ in shots)
    burst = answered_at - min(sent for sent, _, _ in shots)
    print(f"prhub serve (all roles), demo index on SQLite, pid {pid}")
    for line in on:
        print(f"  on:  {line}")
    for line in off:
        print(f"  off: {line}")
    if not feishu_on:
        print("  Feishu: off (prhub serve did not build it), so the burst is Slack only")
    print("| phase | figure |")
    print("|---|---|")
    print(f"| start-up: spawn → /healthz 200 | {startup:.2f} s |")
    print(
        f"| idle {args.idle:g} s after healthy | RSS {mb(idle_now['VmRSS'])} "
        f"(min {mb(min(idle))}, max {mb(max(idle))} over the samples), {idle_now['Threads']} threads |"
    )
    kinds = "Slack" + (" + Feishu" if feishu_on else "")
    print(
        f"| burst of {len(requests)} signed {kinds} events, all at once | peak RSS {mb(loaded['VmHWM'])}, "
        f"RSS after {mb(loaded['VmRSS'])}, {loaded['Threads']} threads |"
    )
    print(
        f"| burst: acks | HTTP {sorted({status for *_, status in shots})}, p50 {statistics.median(acks):.0f} ms, "
        f"max {acks[-1]:.0f} ms |"
    )
    answered = f"Slack {slack_answers}/{args.events}" + (
        f", Feishu {feishu_answers}/{args.events}" if feishu_on else ""
    )
    print(f"| burst: answered | {answered}, all within {burst:.1f} s |")
    print(
        f"| after one HTML and one PDF report page (HTTP {statuses['']}, {statuses['.pdf']}) | "
        f"RSS {mb(paged['VmRSS'])}, peak {mb(paged['VmHWM'])} |"
    )
    print(f"| SIGTERM → exit {code} | {stopped:.2f} s |")
    met = idle_now["VmRSS"] / 1024 <= TARGET_IDLE_MB
    print(f"target (idle RSS <= {TARGET_IDLE_MB} MB with all adapters on): " + ("met" if met else "MISSED"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
