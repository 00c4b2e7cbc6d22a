"""Soak on the real stack: many studio WebSockets watch while generations run back to back, for a
while. Every batch must reach every watcher in order, any gap must be repaired (a resync), each
watcher's text must end as the row's, and no process may grow.

    python -m bench.soak [--seconds 300] [--sockets 50] [--generating 8] [--out DIR]

`--generating` projects each run one generation after another; the other sockets watch those
projects, spread evenly. Memory is each process tree's RSS (Redis, the worker with its engine,
Daphne) after the first round of generations and at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from bench.studio_sockets import cookie_header, open_socket
from studio.stack import Stack, free_port, throwaway_stack, wait_worker_ready

PROMPT = "Write a short paragraph about the history of the bicycle."
QUIET_SECONDS = 10.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Tally:
    """What one socket saw."""

    batches: int = 0
    out_of_order: int = 0  # a batch older than one already applied
    gaps: int = 0  # a batch past the next one: repaired by a resync
    finished: int = 0  # generations whose end this socket saw
    mismatched: int = 0  # ends whose text differs from what the socket had put together
    errors: list[str] = field(default_factory=list)


class Socket:
    """One studio WebSocket: puts each generation's text together from its batches, as the
    studio page does, and checks it against the final message."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.tally = Tally()
        self.texts: dict[str, tuple[int, str]] = {}  # generation -> (seq, text) put together
        self.last_batch: dict[str, int] = {}  # generation -> the seq of its latest batch
        # Batches that arrive while a resync is on its way, by seq: the snapshot is read from
        # the row when the server gets the resync, so it may be older than some of them.
        self.held: dict[str, dict[int, str]] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def take(self, frame: dict[str, Any]) -> str | None:
        """Apply one frame; returns the generation it ended, if it did."""
        kind, generation = frame.get("type"), str(frame.get("generation", ""))
        if kind == "error":
            self.tally.errors.append(str(frame.get("code")))
        elif kind == "generation.delta":
            self._batch(generation, frame["seq"], frame["delta"])
        elif kind == "generation.snapshot":
            self._snapshot(generation, frame["seq"], frame["text"])
        elif kind == "generation.done":
            self._done(generation, frame["text"])
            return generation
        return None

    def _batch(self, generation: str, seq: int, delta: str) -> None:
        tally = self.tally
        tally.batches += 1
        if seq <= self.last_batch.get(generation, 0):
            tally.out_of_order += 1  # older than a batch that came before it
        self.last_batch[generation] = max(seq, self.last_batch.get(generation, 0))
        known, text = self.texts.get(generation, (0, ""))
        if generation in self.held:
            self.held[generation][seq] = delta
        elif seq == known + 1:
            self.texts[generation] = (seq, text + delta)
        elif seq > known + 1:
            tally.gaps += 1  # repaired by a resync, as the studio page does
            self.held[generation] = {seq: delta}
            self.send({"type": "resync", "generation": generation})

    def _snapshot(self, generation: str, seq: int, text: str) -> None:
        held = self.held.pop(generation, None)
        if held is None:
            return  # an answer to a resync that the generation's end already settled
        if seq >= self.texts.get(generation, (0, ""))[0]:
            self.texts[generation] = (seq, text)
        seq, text = self.texts[generation]
        while seq + 1 in held:
            seq, text = seq + 1, text + held.pop(seq + 1)
        self.texts[generation] = (seq, text)
        if any(later > seq for later in held):  # still a hole: ask again
            self.held[generation] = {later: d for later, d in held.items() if later > seq}
            self.send({"type": "resync", "generation": generation})

    def _done(self, generation: str, final: str) -> None:
        self.tally.finished += 1
        # The final message carries the whole text: it must be what the batches built, unless
        # a resync is still on its way, or the socket joined too late to see any batch.
        seen = self.texts.get(generation)
        if seen is not None and seen[1] != final and generation not in self.held:
            self.tally.mismatched += 1
        for state in (self.texts, self.last_batch, self.held):
            state.pop(generation, None)

    def pump(self, until: float) -> str | None:
        """Read frames until a generation ends (returns it) or `until` passes."""
        while time.monotonic() < until:
            try:
                frame = json.loads(self.connection.recv(timeout=min(QUIET_SECONDS, 1.0)))
            except TimeoutError:
                continue
            ended = self.take(frame)
            if ended:
                return ended
        return None


@dataclass
class SoakResult:
    seconds: float
    sockets: int
    generating: int
    generations: int
    batches: int
    out_of_order: int
    gaps: int
    mismatched: int
    unfinished_watchers: int
    errors: list[str]
    rss_mb_start: dict[str, float]
    rss_mb_end: dict[str, float]


def rss_mb(stack: Stack) -> dict[str, float]:
    """Each service's RSS with its children (the worker's engine process), in MB."""
    sizes = {}
    for service in stack.services:
        try:
            root = psutil.Process(service.process.pid)
            tree = [root, *root.children(recursive=True)]
            sizes[service.name] = round(sum(p.memory_info().rss for p in tree) / 2**20, 1)
        except psutil.Error:
            sizes[service.name] = -1.0
    return sizes


def soak(
    stack: Stack, *, seconds: float, sockets: int, generating: int, username: str = "designer"
) -> SoakResult:
    """`username`'s sockets soak the stack; the designer is created if missing."""
    with ExitStack() as opened:
        cookie = cookie_header(stack, username)
        return _soak(stack, opened, cookie, seconds=seconds, sockets=sockets, generating=generating)


def _soak(
    stack: Stack, opened: ExitStack, cookie: str, *, seconds: float, sockets: int, generating: int
) -> SoakResult:
    def socket(project: str = "") -> Socket:
        return Socket(opened.enter_context(open_socket(stack, cookie, project)))

    makers = [socket() for _ in range(generating)]
    projects: list[str] = []
    for maker in makers:  # a first generation each, which makes its project
        maker.send({"type": "generate", "prompt": PROMPT, "expert": "chat"})
        while (frame := json.loads(maker.connection.recv(timeout=60)))["type"] != (
            "generation.accepted"
        ):
            maker.take(frame)
        projects.append(frame["project"])
    watchers = [socket(projects[n % generating]) for n in range(sockets - generating)]
    started = time.monotonic()
    end = started + seconds
    rss_start: dict[str, float] = {}
    generations = 0
    lock = threading.Lock()
    stop = threading.Event()

    def make(maker: Socket, project: str) -> None:
        nonlocal generations
        while True:
            if maker.pump(time.monotonic() + 600) is None:
                maker.tally.errors.append("no end within 600 s")
                return
            with lock:
                generations += 1
            if time.monotonic() >= end:
                return
            maker.send({"type": "generate", "prompt": PROMPT, "expert": "chat", "project": project})

    def watch(watcher: Socket) -> None:
        while not stop.is_set():
            try:
                watcher.pump(time.monotonic() + 1.0)
            except ConnectionClosed as exc:
                watcher.tally.errors.append(f"closed: {exc}")
                return

    pairs = zip(makers, projects, strict=True)
    threads = [threading.Thread(target=make, args=pair) for pair in pairs]
    threads += [threading.Thread(target=watch, args=(w,)) for w in watchers]
    for thread in threads:
        thread.start()
    while not rss_start and time.monotonic() < end:  # warm: after the first round
        if generations >= generating:
            rss_start = rss_mb(stack)
        time.sleep(0.5)
    for thread in threads[:generating]:
        thread.join()
    time.sleep(2)  # the last final messages reach the watchers
    stop.set()
    for thread in threads[generating:]:
        thread.join()
    elapsed = time.monotonic() - started
    rss_end = rss_mb(stack)
    tallies = [s.tally for s in makers + watchers]
    # A watcher of a project saw every generation its project ran, from the one it joined on.
    unfinished = sum(1 for w in watchers if w.tally.finished == 0)
    return SoakResult(
        seconds=round(elapsed, 1),
        sockets=sockets,
        generating=generating,
        generations=generations,
        batches=sum(t.batches for t in tallies),
        out_of_order=sum(t.out_of_order for t in tallies),
        gaps=sum(t.gaps for t in tallies),
        mismatched=sum(t.mismatched for t in tallies),
        unfinished_watchers=unfinished,
        errors=[e for t in tallies for e in t.errors][:20],
        rss_mb_start=rss_start,
        rss_mb_end=rss_end,
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--generating", type=int, default=8)
    parser.add_argument("--out", type=Path, default=Path("bench/results/soak"))
    args = parser.parse_args(argv)
    if not 0 < args.generating <= args.sockets:
        parser.error("--generating must be between 1 and --sockets")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    run_dir = Path(tempfile.mkdtemp(prefix="macaron-soak-"))
    limits = {
        "MACARON_STUDIO_RATE_PER_MINUTE": "10000",
        "MACARON_STUDIO_MAX_CONCURRENT": str(args.generating),
    }
    stack = throwaway_stack(run_dir, limits)
    try:
        stack.start_redis(free_port())
        worker = stack.start_worker(name="worker", concurrency=args.generating)
        stack.start_daphne(free_port())
        log(f"waiting for the engine worker (logs in {run_dir})")
        wait_worker_ready(worker, timeout=900)
        result = soak(stack, seconds=args.seconds, sockets=args.sockets, generating=args.generating)
    finally:
        stack.stop()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "soak.json").write_text(json.dumps(asdict(result), indent=1) + "\n")
    print(
        f"{result.seconds} s, {result.sockets} sockets, {result.generating} generating: "
        f"{result.generations} generations, {result.batches} batches delivered"
    )
    print(
        f"out of order {result.out_of_order}, gaps {result.gaps} (each repaired by a resync), "
        f"mismatched ends {result.mismatched}, watchers that saw no end "
        f"{result.unfinished_watchers}, errors {len(result.errors)}"
    )
    print(f"{'process':<10} {'RSS MB start':>13} {'end':>8} {'end/start':>10}")
    for name, start in result.rss_mb_start.items():
        end = result.rss_mb_end.get(name, -1.0)
        print(f"{name:<10} {start:>13} {end:>8} {end / start if start > 0 else 0:>10.2f}")
    clean = not (result.out_of_order or result.mismatched or result.errors)
    return 0 if clean and not result.unfinished_watchers else 1


if __name__ == "__main__":
    raise SystemExit(main())
