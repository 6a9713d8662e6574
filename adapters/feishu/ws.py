"""The Feishu long connection (`lark_oapi.ws.Client`) on a thread of its own, stoppable.

The SDK's client runs on an event loop its module creates at import and `start()` never returns, so
the connection gets a thread that runs that loop, and `stop()` closes the socket and cancels the loop's
tasks from outside. That loop belongs to the module, hence one long connection per process (Feishu
spreads events over up to 50 connections of an app, so more processes scale out). Event handlers run
on the loop: they must hand work to other threads at once, or pings stall.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from concurrent.futures import TimeoutError as FutureTimeout

import lark_oapi as lark
from lark_oapi.ws import client as ws_client

log = logging.getLogger(__name__)

_ONE_PER_PROCESS = threading.Lock()
CLOSE_TIMEOUT = 2.0  # seconds the server gets to acknowledge the close before the socket is dropped


class LongConnection:
    """`start(dispatcher)` connects in the background (reconnecting as the server configures);
    `stop()` disconnects and waits for the thread to end."""

    def __init__(
        self, app_id: str, app_secret: str, domain: str, log_level: lark.LogLevel = lark.LogLevel.WARNING
    ):
        self.app_id, self.app_secret, self.domain, self.log_level = app_id, app_secret, domain, log_level
        self._client: ws_client.Client | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def start(self, dispatcher: lark.EventDispatcherHandler) -> None:
        if not _ONE_PER_PROCESS.acquire(blocking=False):
            raise RuntimeError("a Feishu long connection is already running in this process")
        self._thread = threading.Thread(target=self._run, args=(dispatcher,), name="feishu-ws", daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self, dispatcher: lark.EventDispatcherHandler) -> None:
        loop = ws_client.loop
        # The client binds a cache task to the current loop when it is built: build it on the SDK's.
        asyncio.set_event_loop(loop)
        try:
            try:
                self._client = ws_client.Client(
                    self.app_id,
                    self.app_secret,
                    event_handler=dispatcher,
                    domain=self.domain,
                    log_level=self.log_level,
                )
            finally:
                self._ready.set()
            self._client.start()
        except asyncio.CancelledError:
            pass  # stop() cancelled the loop's tasks
        except Exception:
            log.exception("the Feishu long connection stopped")
        finally:
            # The loop outlives this client: leave nothing of it behind for the next one.
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            connection = self._client._conn if self._client is not None else None
            if connection is not None:
                with contextlib.suppress(Exception):
                    loop.run_until_complete(asyncio.wait_for(connection.close(), CLOSE_TIMEOUT))
            _ONE_PER_PROCESS.release()

    def stop(self, timeout: float = 5.0) -> None:
        thread, client = self._thread, self._client
        if thread is None or client is None or not thread.is_alive():
            return

        async def shut_down() -> None:
            # The SDK has no way to stop: cancelling every task of its loop ends `start()`, and the
            # thread then closes the socket.
            client._auto_reconnect = False
            current = asyncio.current_task()
            for task in asyncio.all_tasks():
                if task is not current:
                    task.cancel()

        future = asyncio.run_coroutine_threadsafe(shut_down(), ws_client.loop)
        with contextlib.suppress(FutureTimeout):
            future.result(timeout)
        thread.join(timeout)
        if thread.is_alive():
            log.warning("the Feishu long connection did not stop within %.0f s", timeout)
