"""REPL sessions: who owns which kernel, kept as files so that any process can find them.

A session is a folder under the REPL root, named by its id: `state.json` (owner, times, the
sandbox's pid), the client's `connection.json`, the sandbox's `run/` (its sockets), `home/`
and `library/` (the modules its kernel started with), and the cell log (studio/repl/cell_log.py),
outside the sandbox's reach.
Every change to a session happens under an flock on its `lock` file, so a web process, a
second one and the worker's sweep never start, run or reap the same session at once.

A reaped (idled-out) session leaves only its `state.json`, marked reaped, so a late caller is
told it idled out rather than that it never existed; a closed one leaves nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import secrets
import shutil
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from studio.repl.cell_log import (
    LogBounds,
    cell_record,
    log_append,
    log_read,
    log_running,
    log_running_cell,
    log_running_done,
    reset_record,
)
from studio.repl.cells import (
    INTERRUPT_GRACE_SECONDS,
    CellResult,
    KernelConnection,
    KernelDiedStarting,
    KernelUnreachable,
)
from studio.repl.sandbox import (
    Identity,
    Limits,
    SandboxUnavailable,
    sandbox_alive,
    sandbox_failure,
    sandbox_seal,
    sandbox_start,
    sandbox_stop,
)

log = logging.getLogger(__name__)
SESSION_ID = re.compile(r"^[0-9a-f]{16}$")
READY_SECONDS = 30.0
# How long a running kernel may take to let a new connection's iopub join, before its cell.
JOIN_SECONDS = 10.0
# A sandbox that ends before its kernel first answers, having said nothing, is started again
# this many times in all before the request is refused: on a loaded host a fresh sandbox has
# died in its first 0.2 s without a word (bench/RESULTS.md, the agent bench of 2026-12-02 and
# a CI run of 2026-12-03), which is no fault of the session's code, none of which has run.
START_ATTEMPTS = 2
TOMBSTONE_SECONDS = 24 * 3600
# A cell that leaves processes behind may end while they still fork: its count is read again
# until it holds still, for at most this long.
SETTLE_SECONDS = 0.5
SETTLE_STEP_SECONDS = 0.05
MAX_MESSAGE_BYTES = 8 << 20


class SessionMissing(LookupError):
    """No such session for this owner: unknown, closed, or someone else's (one answer)."""


class SessionReaped(LookupError):
    """The session idled out; its variables and files are gone."""


class TooManySessions(RuntimeError):
    pass


@dataclass(frozen=True)
class ReplConfig:
    root: Path
    limits: Limits
    identity: Identity
    idle_seconds: float
    cell_seconds: float
    output_bytes: int
    max_sessions_per_owner: int
    # The modules every kernel can import, as {file name: source}: asked each time a kernel
    # starts (created, reset or restarted), so a running kernel keeps the ones it started with.
    modules: Callable[[], Mapping[str, str]] | None = None
    log_cells: int = 100  # the cell log keeps this many records
    log_field_bytes: int = 4096  # and clips each record's texts to this

    @property
    def log_bounds(self) -> LogBounds:
        return LogBounds(keep=self.log_cells, field_bytes=self.log_field_bytes)


@dataclass
class SessionState:
    id: str
    owner: str
    created_at: float
    last_used_at: float
    pid: int = 0
    status: str = "running"  # or "reaped"
    cells: int = 0
    restarts: int = 0
    tag: str = ""  # what the owner started it for (the studio: "project:<id>")
    logged: int = 0  # the cell log's last index (cells and resets)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "object": "repl.session",
            "created_at": int(self.created_at),
            "last_used_at": int(self.last_used_at),
            "status": self.status,
            "cells": self.cells,
            "restarts": self.restarts,
        }


class ReplSessions:
    def __init__(self, config: ReplConfig) -> None:
        self.config = config

    # -- the operations ----------------------------------------------------------------------

    def create(self, owner: str, *, tag: str = "") -> SessionState:
        self.reap_idle()
        root = self.config.root
        root.mkdir(parents=True, exist_ok=True)
        with _locked(root / "lock"):
            mine = [s for s in self._states() if s.owner == owner and s.status == "running"]
            if len(mine) >= self.config.max_sessions_per_owner:
                raise TooManySessions(
                    f"You have {len(mine)} REPL sessions open, the most allowed; "
                    "close one (DELETE /v1/repl/sessions/<id>) first."
                )
            session_id = secrets.token_hex(8)
            folder = root / session_id
            folder.mkdir(mode=0o700)
        now = time.time()
        state = SessionState(id=session_id, owner=owner, created_at=now, last_used_at=now, tag=tag)
        with _locked(folder / "lock"):
            try:
                self._start(folder, state)
            except (SandboxUnavailable, KernelUnreachable):
                shutil.rmtree(folder, ignore_errors=True)
                raise
        return state

    def tagged(self, owner: str, tag: str, *, start: bool) -> SessionState | None:
        """The owner's session with this tag (the newest; a reaped one too, so the caller can
        say so), or a new one when `start` and none is running. Two callers at once get the
        same session: the second waits on a lock of the owner's and the tag's. Without
        `start` it only reads (a panel asks about once a second)."""
        if not start:
            mine = sorted(
                (s for s in self._states() if s.owner == owner and s.tag == tag),
                key=lambda s: (s.status == "running", s.created_at),
            )
            return mine[-1] if mine else None
        locks = self.config.root / "tags"
        locks.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256(f"{owner}\0{tag}".encode()).hexdigest()[:32]
        with _locked(locks / name):
            mine = [s for s in self.owned(owner) if s.tag == tag]
            running = [s for s in mine if s.status == "running"]
            if running:
                return running[-1]
            return self.create(owner, tag=tag)

    def owned(self, owner: str) -> list[SessionState]:
        self.reap_idle()
        mine = [s for s in self._states() if s.owner == owner]
        return sorted(mine, key=lambda s: s.created_at)

    def get(self, session_id: str, owner: str) -> SessionState:
        """The owner's session, if it is there and has not idled out."""
        folder = self._folder(session_id)
        self._reap_if_idle(folder)
        return self._owned(folder, owner)

    def execute(
        self, session_id: str, owner: str, code: str, *, by: str | None = None
    ) -> tuple[SessionState, CellResult]:
        """Run a cell and log it (`by`: who ran it, "user", "api", "expert"). The cell's index
        in the log is the returned state's `logged`."""
        folder = self._folder(session_id)
        self._reap_if_idle(folder)
        with _locked(folder / "lock"):
            state = self._owned(folder, owner)
            bounds = self.config.log_bounds
            index, started_at = state.logged + 1, time.time()
            log_running(folder, index=index, code=code, by=by, bounds=bounds)
            try:
                cell = self._run_alive(folder, state, code)
            finally:
                log_running_done(folder)
            record = cell_record(
                index=index, code=code, cell=cell, by=by, started_at=started_at, bounds=bounds
            )
            log_append(folder, record, keep=bounds.keep)
            state.logged = index
            state.cells += 1
            state.last_used_at = time.time()
            _write_state(folder, state)
        return state, cell

    def cells(
        self, session_id: str, owner: str, *, after: int = 0
    ) -> tuple[SessionState, list[dict[str, Any]], dict[str, Any] | None]:
        """The session, its logged cells past index `after`, and the cell under way if any.
        Takes no lock: a reader never waits for a running cell."""
        folder = self._folder(session_id)
        state = self._owned(folder, owner, reaped_ok=True)
        if state.status != "running":
            return state, [], None
        records = log_read(folder, after=after) if state.logged > after else []
        # A cell under way for longer than joining, a cell, its interrupt and a restart take
        # was left by a process that died: not shown.
        stale = JOIN_SECONDS + self.config.cell_seconds + INTERRUPT_GRACE_SECONDS + READY_SECONDS
        return state, records, log_running_cell(folder, stale_after=stale)

    def reset(self, session_id: str, owner: str, *, by: str | None = None) -> SessionState:
        """A fresh kernel and an empty home: the session as new, under the same id. The cell
        log keeps its cells and marks the reset."""
        folder = self._folder(session_id)
        self._reap_if_idle(folder)
        with _locked(folder / "lock"):
            state = self._owned(folder, owner)
            sandbox_stop(state.pid, folder, marker=state.id)
            shutil.rmtree(folder / "home", ignore_errors=True)
            state.logged += 1
            log_append(folder, reset_record(index=state.logged, by=by), keep=self.config.log_cells)
            _write_state(folder, state)  # the index is taken even if the restart fails
            self._restart(folder, state, count=False)
        return state

    def close(self, session_id: str, owner: str) -> None:
        folder = self._folder(session_id)
        with _locked(folder / "lock"):
            state = self._owned(folder, owner, reaped_ok=True)
            sandbox_stop(state.pid, folder, marker=state.id)
            _remove_contents(folder)
        shutil.rmtree(folder, ignore_errors=True)

    def close_all(self) -> None:
        """Close every session of every owner (a host being retired; tests)."""
        for state in list(self._states()):
            with contextlib.suppress(SessionMissing):
                self.close(state.id, state.owner)

    def reap_idle(self, now: float | None = None) -> list[str]:
        """Stop the sessions idle longer than the limit; forget old tombstones. Sessions busy
        running a cell are skipped: they are not idle."""
        now = time.time() if now is None else now
        reaped = []
        for state in self._states():
            folder = self.config.root / state.id
            if state.status == "reaped":
                if now - state.last_used_at > TOMBSTONE_SECONDS:
                    shutil.rmtree(folder, ignore_errors=True)
            elif now - state.last_used_at > self.config.idle_seconds and self._reap_if_idle(
                folder, now=now
            ):
                reaped.append(state.id)
        return reaped

    def _reap_if_idle(self, folder: Path, *, now: float | None = None) -> bool:
        """Reap the session if it is idle past the limit (whether or not a sweep came by:
        using a session at 31 minutes finds it gone, as at 40). True when it was reaped."""
        now = time.time() if now is None else now
        with _locked(folder / "lock", wait=False) as got:
            current = _read_state(folder) if got else None
            if current is None or current.status != "running":
                return False
            if now - current.last_used_at <= self.config.idle_seconds:
                return False
            sandbox_stop(current.pid, folder, marker=current.id)
            _remove_contents(folder, keep=("state.json", "lock"))
            current.status = "reaped"
            _write_state(folder, current)
            return True

    # -- the parts ----------------------------------------------------------------------------

    def _start(self, folder: Path, state: SessionState) -> None:
        for attempt in range(1, START_ATTEMPTS + 1):
            modules = self.config.modules() if self.config.modules is not None else None
            state.pid = sandbox_start(
                folder,
                marker=state.id,
                limits=self.config.limits,
                identity=self.config.identity,
                modules=modules,
            )
            _write_state(folder, state)
            try:
                with self._connect(folder) as kernel:
                    kernel.wait_ready(
                        seconds=READY_SECONDS,
                        alive=lambda: sandbox_alive(state.pid, marker=state.id),
                    )
            except KernelUnreachable as exc:
                said = sandbox_failure(folder)
                sandbox_stop(state.pid, folder, marker=state.id)
                if said.startswith("bwrap:"):
                    raise SandboxUnavailable(
                        f"This host cannot run the REPL sandbox ({said}); sessions are refused "
                        "rather than run unsandboxed."
                    ) from exc
                if isinstance(exc, KernelDiedStarting) and not said and attempt < START_ATTEMPTS:
                    log.warning(
                        "REPL session %s: %s, saying nothing; starting it again", state.id, exc
                    )
                    continue
                raise KernelUnreachable(f"{exc}" + (f": {said}" if said else "")) from exc
            sandbox_seal(folder)
            state.last_used_at = time.time()  # idle from when it could first be used
            _write_state(folder, state)
            return

    def _restart(self, folder: Path, state: SessionState, *, count: bool = True) -> None:
        sandbox_stop(state.pid, folder, marker=state.id)
        if count:
            state.restarts += 1
        state.last_used_at = time.time()
        self._start(folder, state)

    def _run_alive(self, folder: Path, state: SessionState, code: str) -> CellResult:
        """Run a cell, first starting a new kernel if the session's had stopped."""
        notes = []
        if not sandbox_alive(state.pid, marker=state.id):
            said = sandbox_failure(folder)
            self._restart(folder, state)
            notes.append(
                "The session's kernel had stopped"
                + (f" ({said})" if said else "")
                + "; a new one was started, and earlier variables are gone."
            )
        cell = self._run(folder, state, code)
        cell.notes[:0] = notes
        return cell

    def _run(self, folder: Path, state: SessionState, code: str) -> CellResult:
        config = self.config
        processes_before = _process_count(folder)

        def alive() -> bool:
            return sandbox_alive(state.pid, marker=state.id)

        with self._connect(folder) as kernel:
            try:
                kernel.wait_joined(seconds=JOIN_SECONDS, alive=alive)
            except KernelUnreachable:
                unreachable = True
                cell = CellResult(kernel_lost=True)
            else:
                unreachable = False
                cell = kernel.run(
                    code,
                    wall_seconds=config.cell_seconds,
                    output_bytes=config.output_bytes,
                    alive=alive,
                )
        if cell.truncated:
            cell.notes.append(
                f"Output past {config.output_bytes} bytes was dropped; print less, or write "
                "large results to a file in the home folder."
            )
        running = alive()
        processes = _settled_process_count(folder, processes_before) if running else 0
        at_process_limit = processes >= config.limits.processes - 1
        if cell.timed_out and not cell.kernel_lost:
            cell.notes.append(
                f"The cell ran past its {config.cell_seconds:g} s wall-time limit and was "
                "interrupted; the session's variables are kept."
            )
        if cell.kernel_lost or not running or at_process_limit:
            if unreachable:
                why = (
                    f"the kernel did not answer within {JOIN_SECONDS:g} s, and the cell was not run"
                )
            elif at_process_limit:
                why = f"the cell left the sandbox at its process limit ({config.limits.processes})"
            elif cell.timed_out:
                why = (
                    f"the cell ran past its {config.cell_seconds:g} s wall-time limit and "
                    "did not stop when interrupted"
                )
            else:
                why = "the kernel died during the cell (a CPU-time limit, or the code ended it)"
            self._restart(folder, state)
            cell.kernel_lost = True
            cell.notes.append(
                f"The session was restarted: {why}. Earlier variables are gone; files in the "
                "home folder are kept."
            )
        return cell

    def _connect(self, folder: Path) -> KernelConnection:
        # A kernel batches a tight loop's prints into one message: take those up to 8 MiB (and
        # keep the budget's worth), drop bigger ones unread.
        largest = max(4 * self.config.output_bytes, MAX_MESSAGE_BYTES)
        return KernelConnection(folder / "connection.json", max_message_bytes=largest)

    def _folder(self, session_id: str) -> Path:
        if not SESSION_ID.match(session_id):
            raise SessionMissing(session_id)
        folder = self.config.root / session_id
        if not (folder / "state.json").exists():
            raise SessionMissing(session_id)
        return folder

    def _owned(self, folder: Path, owner: str, *, reaped_ok: bool = False) -> SessionState:
        state = _read_state(folder)
        if state is None or state.owner != owner:
            raise SessionMissing(folder.name)
        if state.status == "reaped" and not reaped_ok:
            raise SessionReaped(folder.name)
        return state

    def _states(self) -> Iterator[SessionState]:
        if not self.config.root.is_dir():
            return
        for folder in self.config.root.iterdir():
            if SESSION_ID.match(folder.name) and (state := _read_state(folder)) is not None:
                yield state


def _settled_process_count(folder: Path, before: int) -> int:
    """The sandbox's processes once the cell's children hold still: a fork bomb's kernel gets
    its refusal while its children still fork and before the newest are listed. A cell that left
    no more than it found costs one count."""
    count = _process_count(folder)
    deadline = time.monotonic() + SETTLE_SECONDS
    while count > before and time.monotonic() < deadline:
        time.sleep(SETTLE_STEP_SECONDS)
        count, last = _process_count(folder), count
        if count == last:
            break
    return count


def _process_count(folder: Path) -> int:
    """Processes (threads included, as RLIMIT_NPROC counts them) in the sandbox's pid
    namespace: every host process whose pid namespace is the one bubblewrap reported."""
    try:
        info = json.loads((folder / "bwrap-info.json").read_text())
        namespace = f"pid:[{int(info['pid-namespace'])}]"
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/{entry}/ns/pid") == namespace:
                count += len(os.listdir(f"/proc/{entry}/task"))
    return count


@contextlib.contextmanager
def _locked(path: Path, *, wait: bool = True) -> Iterator[bool]:
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)


def _read_state(folder: Path) -> SessionState | None:
    try:
        return SessionState(**json.loads((folder / "state.json").read_text()))
    except (OSError, ValueError, TypeError):
        return None


def _write_state(folder: Path, state: SessionState) -> None:
    temporary = folder / "state.json.new"
    temporary.write_text(json.dumps(asdict(state)))
    os.replace(temporary, folder / "state.json")


def _remove_contents(folder: Path, keep: tuple[str, ...] = ("lock",)) -> None:
    for path in folder.iterdir():
        if path.name in keep:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
