"""REPL sessions through the library, on real kernels under real bubblewrap: variables persist,
a session outlives the process that started it, it idles out, and every escape attempt fails
with a clear result while the session survives (or is restarted, and says so).

One session (per test process) serves the escape tests in turn (a kernel starts in about a
second); each test ends by checking the session still answers. About 25 s in all, most of it
the wall-time and output cases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq
from django.conf import settings
from jupyter_client.blocking.client import BlockingKernelClient

from studio.repl.cells import CellResult, KernelUnreachable
from studio.repl.sandbox import sandbox_alive, sandbox_start
from studio.repl.sessions import ReplSessions, SessionMissing, SessionReaped, SessionState
from tests.studio.repl_fixtures import config, repl_root

__all__ = ["repl_root"]
OWNER = "key:1"


@pytest.fixture(scope="module")
def sessions(repl_root: Path) -> ReplSessions:
    return ReplSessions(config(repl_root))


@pytest.fixture(scope="module")
def session(sessions: ReplSessions) -> Iterator[SessionState]:
    """The escape tests' session, with what they check is kept: a variable (`canary`) and a
    file in the home folder. Set here, not by an earlier test: `make unit` spreads a module's
    tests over several processes, and each makes a session of its own."""
    state = sessions.create(OWNER)
    cell = sessions.execute(state.id, OWNER, "canary = 'alive'; open('mine', 'w').write('m')")[1]
    assert cell.result == "1", cell
    yield state
    sessions.close(state.id, OWNER)


def run(sessions: ReplSessions, session: SessionState, code: str) -> CellResult:
    return sessions.execute(session.id, OWNER, code)[1]


def assert_answers(sessions: ReplSessions, session: SessionState) -> None:
    cell = run(sessions, session, "6 * 7")
    assert (cell.result, cell.error) == ("42", None), cell


def assert_kept(sessions: ReplSessions, session: SessionState) -> None:
    """The kernel was not restarted: the variable set first is still there."""
    cell = run(sessions, session, "canary")
    assert cell.result == "'alive'", cell


def test_a_variable_lives_across_three_calls(sessions, session):
    assert run(sessions, session, "canary = 'alive'; n = 1").error is None
    assert run(sessions, session, "n += 1").error is None
    cell = run(sessions, session, "n += 1; n")
    assert (cell.result, cell.stdout, cell.error, cell.truncated) == ("3", "", None, False)
    printed = run(sessions, session, "import sys; print('out'); print('err', file=sys.stderr)")
    assert (printed.stdout, printed.stderr) == ("out\n", "err\n")


def test_sockets_reach_nothing(sessions, session):
    for target in ("('1.1.1.1', 80)", "('127.0.0.1', 6379)"):
        cell = run(sessions, session, f"import socket; socket.create_connection({target}, 1)")
        assert cell.error is not None, cell
        assert cell.error["name"] in ("OSError", "ConnectionRefusedError"), cell.error
    assert_kept(sessions, session)


@pytest.mark.parametrize(
    "path",
    [
        "/etc/shadow",
        str(settings.DATA_HOME / "secret_key"),
        str(settings.DATA_HOME / "macaron.sqlite3"),  # the served database (tests use another)
        str(settings.DATA_HOME),
    ],
)
def test_host_files_are_not_there(sessions, session, path):
    cell = run(
        sessions,
        session,
        f"import os; os.listdir({path!r}) if os.path.isdir({path!r}) else open({path!r}).read()",
    )
    assert cell.error is not None and cell.error["name"] == "FileNotFoundError", cell
    assert_kept(sessions, session)


def test_another_sessions_files_are_not_there(sessions, session, repl_root):
    other = sessions.create("key:2")
    try:
        wrote = sessions.execute(other.id, "key:2", "open('secret.txt', 'w').write('key 2')")[1]
        assert wrote.error is None
        assert (repl_root / other.id / "home" / "secret.txt").exists()
        for path in (repl_root / other.id / "home" / "secret.txt", repl_root):
            cell = run(sessions, session, f"open({str(path)!r}).read()")
            assert cell.error is not None and cell.error["name"] == "FileNotFoundError", cell
        # Nor is it this session's: its home holds only what it wrote itself.
        assert run(sessions, session, "import os; os.listdir()").result == "['mine']"
        # And the other key is told the session does not exist, as for an unknown id.
        with pytest.raises(SessionMissing):
            sessions.execute(other.id, OWNER, "1")
    finally:
        sessions.close(other.id, "key:2")


def test_writing_outside_home_fails(sessions, session):
    for path in ("/usr/evil", "/etc/evil", "/evil", f"{sys.prefix}/evil"):
        cell = run(sessions, session, f"open({path!r}, 'w')")
        assert cell.error is not None, (path, cell)
        assert "Read-only file system" in cell.error["value"] or cell.error["name"] in (
            "FileNotFoundError",
            "PermissionError",
        ), (path, cell.error)
    # Home and /tmp are the session's own.
    cell = run(sessions, session, "open('/tmp/t', 'w').write('t') + open('mine', 'w').write('m')")
    assert cell.result == "2", cell
    assert_kept(sessions, session)


def test_ptrace_from_a_c_call_is_refused(sessions, session):
    code = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "PTRACE_ATTACH = 16\n"
        "(libc.ptrace(PTRACE_ATTACH, os.getppid(), 0, 0), ctypes.get_errno())"
    )
    assert run(sessions, session, code).result == "(-1, 1)"  # EPERM
    assert_kept(sessions, session)


def test_killing_the_parent_does_nothing(sessions, session):
    cell = run(sessions, session, "import os, signal; os.kill(os.getppid(), signal.SIGKILL)")
    assert cell.error is None and not cell.kernel_lost, cell
    assert_kept(sessions, session)


def test_a_memory_bomb_gets_a_memory_error(sessions, session):
    cell = run(sessions, session, "hog = [bytes(10**7) for _ in range(1000)]")
    assert cell.error is not None and cell.error["name"] == "MemoryError", cell
    assert_kept(sessions, session)


def test_an_endless_loop_is_interrupted_at_the_wall_time_limit(sessions, session):
    cell = run(sessions, session, "while True: pass")
    assert cell.timed_out and not cell.kernel_lost, cell
    assert cell.error is not None and cell.error["name"] == "KeyboardInterrupt"
    assert "wall-time limit" in cell.notes[0]
    assert_kept(sessions, session)


def test_100_mb_of_output_is_cut_to_the_budget(sessions, session):
    cell = run(sessions, session, "import sys; sys.stdout.write('x' * 100_000_000)")
    assert len(cell.stdout) <= 64 * 1024
    if cell.kernel_lost:
        # On a loaded host the kernel may still be sending at the wall-time limit, deaf to
        # the interrupt: then it is restarted, and says so.
        assert cell.timed_out and "restarted" in cell.notes[-1], cell
        run(sessions, session, "canary = 'alive'")
    else:
        assert cell.truncated and any("dropped" in note for note in cell.notes), cell
    cell = run(sessions, session, "for _ in range(2000): print('y' * 1000)")
    assert cell.truncated and 0 < len(cell.stdout) <= 64 * 1024, cell.notes
    assert_kept(sessions, session)


def test_printed_output_is_not_kept_by_the_kernel(sessions, session):
    """IPython 9 keeps each cell's printed text for the kernel's life: 100 MB printed twice
    held 200 MB, and a later cell failed with a MemoryError. The kernel here keeps none.
    Python's own count of what it holds is read (tracemalloc), not the process's size: the C
    allocator may keep freed memory (about 62 MB under load), which nothing holds."""
    assert run(sessions, session, "import tracemalloc; tracemalloc.start()").error is None
    print_100_mb = "import sys\nfor _ in range(20): sys.stdout.write('x' * 5_000_000)"
    try:
        for _ in range(3):
            cell = run(sessions, session, print_100_mb)
            assert cell.truncated and cell.error is None, cell
        held = run(sessions, session, "tracemalloc.get_traced_memory()[0]").result
    finally:
        run(sessions, session, "tracemalloc.stop()")
    assert int(str(held)) < 32_000_000, f"the kernel holds {held} bytes after printing 300 MB"
    assert_kept(sessions, session)


def test_a_subscriber_that_joins_late_still_gets_the_cell(sessions, session, monkeypatch):
    """Each cell opens a new connection, whose iopub subscription joins the kernel a moment
    after its shell does: on a loaded host a quick cell published its result before the join
    and its "idle" after, and came back empty. Here every join takes 0.3 s."""
    subscribed: set[int] = set()
    get_iopub_msg = BlockingKernelClient.get_iopub_msg

    def connect_unsubscribed(client: BlockingKernelClient, identity: bytes | None = None) -> Any:
        return client._create_connected_socket("iopub", identity=identity)

    def get_after_a_late_join(client: BlockingKernelClient, *args: Any, **kwargs: Any) -> Any:
        socket = client.iopub_channel.socket
        if id(socket) not in subscribed:
            subscribed.add(id(socket))
            time.sleep(0.3)
            socket.setsockopt(zmq.SUBSCRIBE, b"")
        return get_iopub_msg(client, *args, **kwargs)

    monkeypatch.setattr(BlockingKernelClient, "connect_iopub", connect_unsubscribed)
    monkeypatch.setattr(BlockingKernelClient, "get_iopub_msg", get_after_a_late_join)
    assert_kept(sessions, session)
    cell = run(sessions, session, "print('said'); 6 * 7")
    assert (cell.stdout, cell.result, cell.kernel_lost) == ("said\n", "42", False), cell
    assert len(subscribed) == 2


def test_a_fork_bomb_hits_the_process_limit_and_the_session_restarts(sessions, session, repl_root):
    # Every process of this bomb stays, as a real bomb's do: the session is restarted for what
    # is left at the limit, and a bomb whose processes exit by themselves leaves a count that
    # depends on how fast the host runs them.
    bomb = (
        "import os, time\nkernel = os.getpid()\nwhile True:\n    try:\n        os.fork()\n"
        "    except OSError:\n        break\nif os.getpid() != kernel:\n    time.sleep(600)\n"
    )
    old_sandbox = _pid_namespace(repl_root / session.id)
    assert _live_processes_in(old_sandbox) > 0
    cell = run(sessions, session, bomb)
    assert cell.kernel_lost and "process limit" in cell.notes[-1], cell
    assert _live_processes_in(old_sandbox) == 0  # the bomb's processes went with the old sandbox
    assert_answers(sessions, session)
    assert run(sessions, session, "open('mine').read()").result == "'m'"  # home is kept


def test_a_kernel_that_kills_itself_is_restarted_with_a_message(sessions, session):
    cell = run(sessions, session, "import os; os.kill(os.getpid(), 9)")
    assert cell.kernel_lost and "restarted" in cell.notes[-1], cell
    assert_answers(sessions, session)


def test_a_session_outlives_the_process_that_started_it(sessions, repl_root):
    script = (
        "import sys; from studio.repl.sessions import ReplSessions; "
        "from tests.studio.repl_fixtures import config; from pathlib import Path; "
        "s = ReplSessions(config(Path(sys.argv[1]))); state = s.create('key:3'); "
        "s.execute(state.id, 'key:3', 'left = 99'); print(state.id)"
    )
    started = subprocess.run(
        [sys.executable, "-c", script, str(repl_root)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert started.returncode == 0, started.stderr
    session_id = started.stdout.strip().splitlines()[-1]
    try:
        assert sessions.execute(session_id, "key:3", "left + 1")[1].result == "100"
    finally:
        sessions.close(session_id, "key:3")


def test_a_session_idles_out(repl_root):
    root = repl_root / "idle"  # a root of its own: a sweep reaps every idle session in its root
    quick = ReplSessions(config(root, idle_seconds=1.0))
    swept, used = quick.create("key:4"), quick.create("key:4")
    try:
        assert quick.reap_idle(now=swept.last_used_at + 0.9) == []
        time.sleep(1.1)
        # Used after the limit, before any sweep: reaped all the same.
        with pytest.raises(SessionReaped):
            quick.execute(used.id, "key:4", "1")
        assert quick.reap_idle() == [swept.id]
        for state in (swept, used):
            assert not sandbox_alive(state.pid, marker=state.id)
            assert sorted(p.name for p in (root / state.id).iterdir()) == ["lock", "state.json"]
        with pytest.raises(SessionReaped):
            quick.execute(swept.id, "key:4", "1")
        assert [s.status for s in quick.owned("key:4")] == ["reaped", "reaped"]
        quick.close(swept.id, "key:4")
        with pytest.raises(SessionMissing):
            quick.execute(swept.id, "key:4", "1")
    finally:
        quick.close_all()  # also when an assertion failed: no kernel outlives the test


def test_unknown_and_malformed_ids_are_missing(sessions):
    for session_id in ("0123456789abcdef", "../../etc", "", "a" * 100):
        with pytest.raises(SessionMissing):
            sessions.execute(session_id, OWNER, "1")


def _pid_namespace(folder: Path) -> str:
    return f"pid:[{json.loads((folder / 'bwrap-info.json').read_text())['pid-namespace']}]"


def _live_processes_in(namespace: str) -> int:
    """Processes of a pid namespace, zombies aside: a killed sandbox's bubblewrap is a child of
    the host's init, which may take a while to reap it, and a zombie holds nothing."""
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/ns/pid") != namespace:
                    continue
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            count += state not in ("Z", "X")
    return count


def test_state_is_plain_json(session, repl_root):
    state = json.loads((repl_root / session.id / "state.json").read_text())
    assert state["owner"] == OWNER and state["status"] == "running"


def killed_at_start(monkeypatch: pytest.MonkeyPatch, times: int) -> list[int]:
    """Have the first `times` real sandboxes die silently as soon as they start (SIGKILL says
    nothing in the kernel's log), as one was seen to die on a loaded host; the pids started."""
    started: list[int] = []

    def start_then_kill(folder: Path, **options: Any) -> int:
        pid = sandbox_start(folder, **options)
        started.append(pid)
        if len(started) <= times:
            os.kill(pid, 9)
        return pid

    monkeypatch.setattr("studio.repl.sessions.sandbox_start", start_then_kill)
    return started


def a_sandbox(pid: int) -> bool:
    try:
        return b"MACARON_REPL_SESSION" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_a_sandbox_that_dies_silently_while_starting_is_started_again(
    sessions, monkeypatch, caplog
):
    started = killed_at_start(monkeypatch, times=1)
    state = sessions.create("key:5")
    try:
        assert len(started) == 2 and state.pid == started[1]
        assert sessions.execute(state.id, "key:5", "6 * 7")[1].result == "42"
        assert "stopped while starting, saying nothing; starting it again" in caplog.text
    finally:
        sessions.close(state.id, "key:5")


def test_a_sandbox_that_dies_silently_twice_is_refused_and_leaves_nothing(
    sessions, monkeypatch, repl_root
):
    started = killed_at_start(monkeypatch, times=2)
    before = {path.name for path in repl_root.iterdir()}
    with pytest.raises(KernelUnreachable, match="the kernel stopped while starting"):
        sessions.create("key:6")
    assert len(started) == 2
    assert not any(a_sandbox(pid) for pid in started)
    # The root's own lock may be new (this test can be its worker's first); no session is left.
    assert {path.name for path in repl_root.iterdir()} - before <= {"lock"}
    assert sessions.owned("key:6") == []


def test_a_preloaded_library_of_the_host_stays_out_of_the_sandbox_and_its_log(
    sessions, monkeypatch, repl_root
):
    """vLLM's CPU platform sets LD_PRELOAD in any process that imports it (a test worker that
    ran an engine test first, say): the sandbox starts all the same, says nothing about it,
    and its kernel does not see it."""
    monkeypatch.setenv("LD_PRELOAD", "/nowhere/libgomp.so.1")
    state = sessions.create("key:7")
    try:
        assert "libgomp" not in (repl_root / state.id / "kernel.log").read_text()
        cell = sessions.execute(state.id, "key:7", "import os; os.environ.get('LD_PRELOAD')")[1]
        assert (cell.result, cell.error) == (None, None), cell
    finally:
        sessions.close(state.id, "key:7")
