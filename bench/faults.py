"""Fault injection on the real stack: each fault hits while studio generations stream, and the
bench counts the generations that ended (the row and a watcher both saw the end) and the
characters a watcher had seen that the final text lost.

    python -m bench.faults [--faults worker-sigkill,...] [--generations 2] [--out DIR]

Faults: the worker SIGKILLed (it comes back under its name and fails what it held, keeping the
text), the worker SIGTERMed (a warm shutdown drains it), Redis restarted (append-only file
kept), Daphne restarted under a watching client, and a flood on the project's channel-layer
group that overflows the watcher's channel. Watchers behave as the studio page does: they
reconnect and resync, resync on a gap in batches, and read the row over HTTP after
`QUIET_SECONDS` without news (static/studio/generation.js); each result counts those reads, the
ends only the row brought (the socket never delivered them) apart.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from bench.studio_sockets import cookie_header, open_socket
from studio.stack import Service, Stack, free_port, throwaway_stack, wait_worker_ready

PROMPT = "Write a detailed, step-by-step guide to baking bread at home, with every step explained."
ENDED = {"done", "failed", "cancelled"}
QUIET_SECONDS = 10.0  # as the studio page: read the row after this long without news
STREAMING_TOKENS = 8  # the fault hits once every generation has streamed this many tokens
END_TIMEOUT_SECONDS = 360.0
FLOOD_MESSAGES = 3000
FLOOD_AT_ONCE = 50


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Watched:
    """One generation as its watcher saw it."""

    generation: str = ""
    project: str = ""
    seq: int = 0
    text: str = ""
    tokens: int = 0
    final: dict[str, Any] | None = None
    gaps: int = 0
    reconnects: int = 0
    row_reads: int = 0  # quiet spells, each answered by reading the row as the page does
    ended_by_row: bool = False  # the end came from the row, not from the socket
    flood_seen: int = 0  # flood messages that reached the watcher (the rest were dropped)


@dataclass
class Watcher:
    """A studio client of one generation, on a thread, as the studio page is: reconnects and
    resyncs, resyncs on a gap, reads the row when it is quiet."""

    stack: Stack
    cookie: str
    watched: Watched = field(default_factory=Watched)
    accepted: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()
        if not self.accepted.wait(60):
            raise RuntimeError("the studio did not accept the generation")

    def _connect(self) -> ClientConnection:
        return open_socket(self.stack, self.cookie, self.watched.project)

    def _run(self) -> None:
        first = True
        while not self.stop.is_set() and self.watched.final is None:
            try:
                with self._connect() as connection:
                    if first:
                        connection.send(
                            json.dumps({"type": "generate", "prompt": PROMPT, "expert": "chat"})
                        )
                        first = False
                    else:
                        self._resync(connection)
                    self._read(connection)
            except (OSError, ConnectionClosed, TimeoutError):
                if first:
                    raise
                self.watched.reconnects += 1
                time.sleep(0.5)

    def _resync(self, connection: ClientConnection) -> None:
        connection.send(json.dumps({"type": "resync", "generation": self.watched.generation}))

    def _read_row(self) -> None:
        """What the page does when a running generation is quiet: read its row, and take an
        end, or text past what the batches brought."""
        watched = self.watched
        watched.row_reads += 1
        try:
            row = row_of(self.stack, self.cookie, watched.generation)
        except OSError:
            return  # Daphne restarting: the next quiet spell reads again
        if row["status"] in ENDED:
            watched.seq, watched.text, watched.final = row["seq"], row["text"], row
            watched.ended_by_row = True
        elif row["seq"] > watched.seq:
            watched.seq, watched.text = row["seq"], row["text"]

    def _read(self, connection: ClientConnection) -> None:
        watched = self.watched
        while not self.stop.is_set() and watched.final is None:
            try:
                frame = json.loads(connection.recv(timeout=QUIET_SECONDS))
            except TimeoutError:
                self._read_row()
                continue
            kind = frame.get("type")
            if "pad" in frame:
                watched.flood_seen += 1
            elif kind == "generation.accepted":
                watched.generation, watched.project = frame["generation"], frame["project"]
                self.accepted.set()
            elif frame.get("generation") != watched.generation:
                continue
            elif kind == "generation.delta":
                if frame["seq"] == watched.seq + 1:
                    watched.seq, watched.text = frame["seq"], watched.text + frame["delta"]
                    watched.tokens = frame["tokens"]
                elif frame["seq"] > watched.seq + 1:
                    watched.gaps += 1
                    self._resync(connection)
            elif kind in ("generation.snapshot", "generation.done"):
                if frame["seq"] >= watched.seq:
                    watched.seq, watched.text = frame["seq"], frame["text"]
                if kind == "generation.done" or frame["status"] in ENDED:
                    watched.final = frame


def row_of(stack: Stack, cookie: str, generation: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{stack.url}/api/generations/{generation}", headers={"Cookie": cookie}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        row: dict[str, Any] = json.load(response)
        return row


@dataclass
class FaultResult:
    fault: str
    generations: int
    ended: int
    chars_lost: int
    statuses: list[str]
    gaps: int
    reconnects: int
    row_reads: int  # quiet spells the watchers read the row for
    ended_by_row: int  # generations whose end only the row brought (the socket never did)
    seconds_to_end: float
    flood_dropped: int = 0  # flood messages that never reached the watcher before its end


class Faults:
    """The stack under test and how to hurt it."""

    def __init__(self, stack: Stack, worker: Service, redis_port: int, daphne_port: int) -> None:
        self.stack, self.worker = stack, worker
        self.redis_port, self.daphne_port = redis_port, daphne_port

    def _restart_worker(self) -> None:
        self.stack.services.remove(self.worker)
        self.worker = self.stack.start_worker(name="worker", concurrency=4)
        wait_worker_ready(self.worker, timeout=600)

    def worker_sigkill(self, watchers: list[Watcher]) -> None:
        os.killpg(self.worker.process.pid, signal.SIGKILL)
        self.worker.process.wait(timeout=30)
        self._restart_worker()

    def worker_sigterm(self, watchers: list[Watcher]) -> None:
        self.worker.stop(timeout=END_TIMEOUT_SECONDS)  # a warm shutdown drains running tasks
        self._restart_worker()

    def redis_restart(self, watchers: list[Watcher]) -> None:
        redis = next(s for s in self.stack.services if s.name == "redis")
        redis.stop()
        self.stack.services.remove(redis)
        time.sleep(2)  # the worker and Daphne meet a dead Redis for a moment
        # The new process is appended after Daphne; stop() order does not matter for Redis.
        self.stack.start_redis(self.redis_port)

    def daphne_restart(self, watchers: list[Watcher]) -> None:
        daphne = next(s for s in self.stack.services if s.name == "daphne")
        daphne.stop()
        self.stack.services.remove(daphne)
        time.sleep(2)
        self.stack.start_daphne(self.daphne_port)

    def channel_overflow(self, watchers: list[Watcher]) -> None:
        """Flood each project's group: channels-redis drops what a full channel cannot take,
        batches of the generation included."""
        from channels_redis.core import RedisChannelLayer  # type: ignore[import-untyped]

        async def flood() -> None:
            layer = RedisChannelLayer(hosts=[self.stack.env["REDIS_URL"]])
            # A type the studio's consumer handles (and the watcher ignores): one it did not
            # would end the consumer, a different fault.
            junk = {"type": "project.changed", "project": "", "pad": "x" * 200}
            for watcher in watchers:
                group = f"project.{watcher.watched.project}"
                for _ in range(FLOOD_MESSAGES // FLOOD_AT_ONCE):  # within the client's pool
                    await asyncio.gather(
                        *(layer.group_send(group, junk) for _ in range(FLOOD_AT_ONCE))
                    )
            await layer.close_pools()

        asyncio.run(flood())


FAULTS: dict[str, Callable[[Faults, list[Watcher]], None]] = {
    "none": lambda faults, watchers: None,  # the reference: generations with nothing done to them
    "worker-sigkill": Faults.worker_sigkill,
    "worker-sigterm": Faults.worker_sigterm,
    "redis-restart": Faults.redis_restart,
    "daphne-restart": Faults.daphne_restart,
    "channel-overflow": Faults.channel_overflow,
}


def common_prefix(a: str, b: str) -> int:
    """How many leading characters `a` and `b` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def run_fault(faults: Faults, name: str, generations: int) -> FaultResult:
    stack = faults.stack
    cookie = cookie_header(stack)
    watchers = [Watcher(stack, cookie) for _ in range(generations)]
    for watcher in watchers:
        watcher.start()
    deadline = time.monotonic() + 300
    while min(w.watched.tokens for w in watchers) < STREAMING_TOKENS:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name}: generations did not stream")
        time.sleep(0.1)
    seen = {id(w): w.watched.text for w in watchers}
    started = time.monotonic()
    FAULTS[name](faults, watchers)
    end_by = time.monotonic() + END_TIMEOUT_SECONDS
    while any(w.watched.final is None for w in watchers) and time.monotonic() < end_by:
        time.sleep(0.2)
    seconds = time.monotonic() - started
    ended, lost, statuses = 0, 0, []
    for watcher in watchers:
        watcher.stop.set()
        row = row_of(stack, cookie, watcher.watched.generation)
        statuses.append(row["status"])
        final = watcher.watched.final
        if final is not None and row["status"] in ENDED and final["text"] == row["text"]:
            ended += 1
        # What the watcher had seen before the fault and at its last frame, against the row.
        for text in (seen[id(watcher)], watcher.watched.text):
            lost += len(text) - common_prefix(text, row["text"])
    return FaultResult(
        fault=name,
        generations=generations,
        ended=ended,
        chars_lost=lost,
        statuses=statuses,
        gaps=sum(w.watched.gaps for w in watchers),
        reconnects=sum(w.watched.reconnects for w in watchers),
        row_reads=sum(w.watched.row_reads for w in watchers),
        ended_by_row=sum(w.watched.ended_by_row for w in watchers),
        seconds_to_end=round(seconds, 1),
        flood_dropped=sum(FLOOD_MESSAGES - w.watched.flood_seen for w in watchers)
        if name == "channel-overflow"
        else 0,
    )


@contextmanager
def fault_stack(run_dir: Path, extra_env: dict[str, str] | None = None) -> Iterator[Faults]:
    """Redis, one engine worker and Daphne on a throwaway database, for faults alone: a Redis
    restart reaches every client of that Redis, so nothing else may share it."""
    limits = {"MACARON_STUDIO_RATE_PER_MINUTE": "1000", "MACARON_STUDIO_MAX_CONCURRENT": "100"}
    stack = throwaway_stack(run_dir, {**limits, **(extra_env or {})})
    try:
        redis_port, daphne_port = free_port(), free_port()
        stack.start_redis(redis_port)
        worker = stack.start_worker(name="worker", concurrency=4)
        stack.start_daphne(daphne_port)
        log(f"waiting for the engine worker (logs in {run_dir})")
        wait_worker_ready(worker, timeout=900)
        yield Faults(stack, worker, redis_port, daphne_port)
    finally:
        stack.stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__)
    parser.add_argument("--faults", default=",".join(FAULTS), help=f"some of {list(FAULTS)}")
    parser.add_argument("--generations", type=int, default=2, help="streaming during each fault")
    parser.add_argument("--out", type=Path, default=Path("bench/results/faults"))
    args = parser.parse_args(argv)
    args.faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    if unknown := set(args.faults) - set(FAULTS):
        parser.error(f"unknown faults {sorted(unknown)}; choose from {list(FAULTS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results: list[FaultResult] = []
    with fault_stack(Path(tempfile.mkdtemp(prefix="macaron-faults-"))) as faults:
        for name in args.faults:
            log(f"{name}: {args.generations} generations streaming")
            result = run_fault(faults, name, args.generations)
            log(f"  {result}")
            results.append(result)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "faults.json").write_text(json.dumps([asdict(r) for r in results], indent=1) + "\n")
    header = f"{'fault':<18} {'ended':>7} {'lost':>6} {'gaps':>5} {'reconn':>6} {'rows':>5}"
    print(f"{header} {'by row':>6} {'dropped':>7} {'s':>6}  statuses")
    for r in results:
        print(
            f"{r.fault:<18} {r.ended:>3}/{r.generations:<3} {r.chars_lost:>6} {r.gaps:>5} "
            f"{r.reconnects:>6} {r.row_reads:>5} {r.ended_by_row:>6} {r.flood_dropped:>7} "
            f"{r.seconds_to_end:>6}  {','.join(r.statuses)}"
        )
    return 0 if all(r.ended == r.generations and r.chars_lost == 0 for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
