"""Running one cell in a session's kernel: submit, collect its output within a budget, stop it
at the wall-time limit. The kernel is untrusted: every wait here is bounded, the socket refuses
any message over the output budget, and a kernel that dies mid-cell is reported, not awaited.
"""

from __future__ import annotations

import queue
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zmq
from jupyter_client.blocking.client import BlockingKernelClient

POLL_SECONDS = 0.1
INTERRUPT_GRACE_SECONDS = 3.0
AFTER_REPLY_SECONDS = 1.0
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class KernelUnreachable(RuntimeError):
    """The kernel did not answer in time (or died): the session must start a new one."""


class KernelDiedStarting(KernelUnreachable):
    """The kernel's sandbox ended before the kernel first answered."""


@dataclass
class CellResult:
    stdout: str = ""
    stderr: str = ""
    result: str | None = None
    error: dict[str, Any] | None = None
    duration: float = 0.0
    truncated: bool = False
    timed_out: bool = False
    # Set when the kernel is not fit to go on (dead, or deaf to an interrupt): restart it.
    kernel_lost: bool = False
    notes: list[str] = field(default_factory=list)


class _Budget:
    """Output kept up to a byte budget; the rest is counted and dropped."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.truncated = False

    def take(self, text: str) -> str:
        if self.left <= 0:
            self.truncated = self.truncated or bool(text)
            return ""
        data = text.encode()
        if len(data) > self.left:
            self.truncated = True
            text = data[: self.left].decode(errors="ignore")
        self.left -= len(data)
        return text


class KernelConnection:
    """A client of one kernel, for one request: open, use, close."""

    def __init__(self, connection_file: Path, *, max_message_bytes: int) -> None:
        self.context = zmq.Context()
        # A bigger message from the kernel drops the connection (it reconnects) rather than
        # land in this process's memory.
        self.context.setsockopt(zmq.MAXMSGSIZE, max_message_bytes)
        self.client = BlockingKernelClient(context=self.context)
        self.client.load_connection_file(str(connection_file))
        self.client.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=True)
        iopub = self.client.iopub_channel.socket
        assert iopub is not None
        self.drops = iopub.get_monitor_socket(zmq.EVENT_DISCONNECTED)

    def close(self) -> None:
        self.client.stop_channels()
        self.drops.close(linger=0)
        self.context.destroy(linger=0)

    def __enter__(self) -> KernelConnection:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def wait_ready(self, *, seconds: float, alive: Callable[[], bool]) -> None:
        """Until the kernel answers on shell and its iopub reaches us (a fresh subscriber
        misses what is published before it is joined: kernel_info is asked until it is)."""
        self._wait_for_iopub(seconds=seconds, alive=alive, welcome_will_do=False)

    def wait_joined(self, *, seconds: float, alive: Callable[[], bool]) -> None:
        """Until this connection's iopub subscription has joined the running kernel: a cell
        sent before could publish its result before the join and its "idle" after, and come
        back empty. The kernel welcomes each subscriber as it joins; kernel_info is asked only
        if no welcome came within a second."""
        self._wait_for_iopub(seconds=seconds, alive=alive, welcome_will_do=True)

    def _wait_for_iopub(
        self, *, seconds: float, alive: Callable[[], bool], welcome_will_do: bool
    ) -> None:
        now = time.monotonic()
        deadline = now + seconds
        asked = None if welcome_will_do else self.client.kernel_info()
        ask_again = now + 1.0
        while (now := time.monotonic()) < deadline:
            if now > ask_again:
                asked, ask_again = self.client.kernel_info(), now + 1.0
            if not alive():
                raise KernelDiedStarting("the kernel stopped while starting")
            try:
                message = self.client.get_iopub_msg(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if welcome_will_do and message["msg_type"] == "iopub_welcome":
                return
            if asked is not None and message["parent_header"].get("msg_id") == asked:
                return
        raise KernelUnreachable(f"the kernel did not answer within {seconds:.0f} s")

    def dropped_messages(self) -> bool:
        dropped = False
        while self.drops.poll(0):
            self.drops.recv_multipart()
            dropped = True
        return dropped

    def run(
        self, code: str, *, wall_seconds: float, output_bytes: int, alive: Callable[[], bool]
    ) -> CellResult:
        started = time.monotonic()
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False)
        cell = CellResult()
        budget = _Budget(output_bytes)
        deadline = started + wall_seconds
        interrupted_at: float | None = None
        replied_at: float | None = None
        while True:
            now = time.monotonic()
            if interrupted_at is None and replied_at is None and now > deadline:
                self._interrupt()
                interrupted_at = now
                cell.timed_out = True
            if interrupted_at is not None and now > interrupted_at + INTERRUPT_GRACE_SECONDS:
                cell.kernel_lost = True
                break
            if replied_at is not None and now > replied_at + AFTER_REPLY_SECONDS:
                break  # the reply came, its "idle" did not: dropped with an oversized message
            try:
                message = self.client.get_iopub_msg(timeout=POLL_SECONDS)
            except queue.Empty:
                if replied_at is None and self._replied(msg_id):
                    replied_at = time.monotonic()
                elif not alive():
                    cell.kernel_lost = True
                    break
                continue
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "status" and content.get("execution_state") == "idle":
                break
            _collect(cell, budget, kind, content)
        cell.duration = round(time.monotonic() - started, 4)
        # A dying kernel drops its connections too: only a live one's drops are refused output.
        dropped = self.dropped_messages() and not cell.kernel_lost
        cell.truncated = budget.truncated or dropped
        return cell

    def _replied(self, msg_id: str) -> bool:
        while True:
            try:
                reply = self.client.get_shell_msg(timeout=0)
            except queue.Empty:
                return False
            if reply["parent_header"].get("msg_id") == msg_id:
                return True

    def _interrupt(self) -> None:
        self.client.control_channel.send(self.client.session.msg("interrupt_request", {}))


def _collect(cell: CellResult, budget: _Budget, kind: str, content: dict[str, Any]) -> None:
    if kind == "stream":
        text = budget.take(str(content.get("text", "")))
        if content.get("name") == "stderr":
            cell.stderr += text
        else:
            cell.stdout += text
    elif kind == "execute_result":
        cell.result = budget.take(str(content.get("data", {}).get("text/plain", "")))
    elif kind == "display_data":
        cell.stdout += budget.take(str(content.get("data", {}).get("text/plain", "")) + "\n")
    elif kind == "error":
        lines = [ANSI.sub("", str(line)) for line in content.get("traceback", [])]
        cell.error = {
            "name": str(content.get("ename", "")),
            "value": budget.take(str(content.get("evalue", ""))),
            "traceback": budget.take("\n".join(lines)),
        }
