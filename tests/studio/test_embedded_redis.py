"""The embedded Redis: a password on by default (made once, kept 0600 in its data folder, and
in the stack's REDIS_URL), append-only persistence there, and a port where something else
already listens refused rather than reused."""

from __future__ import annotations

import signal
import socket
import stat
import time
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
import redis

from studio.embedded_redis import default_redis_url, redis_password
from studio.stack import Stack, StackError, free_port, new_stack


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, int]]:
    stack = new_stack(tmp_path_factory.mktemp("redis"))
    port = free_port()
    stack.start_redis(port)
    yield stack, port
    stack.stop()


def test_it_refuses_a_client_without_the_password(started: tuple[Stack, int]) -> None:
    stack, port = started
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(host="127.0.0.1", port=port).ping()
    with pytest.raises(redis.AuthenticationError):
        redis.Redis(host="127.0.0.1", port=port, password="guess").ping()
    assert redis.Redis.from_url(stack.env["REDIS_URL"]).ping()


def test_its_password_is_kept_private_and_off_the_command_line(
    started: tuple[Stack, int],
) -> None:
    stack, _ = started
    folder = stack.run_dir / "redis"
    password = (folder / "password").read_text().strip()
    assert password in stack.env["REDIS_URL"]
    assert len(password) >= 32
    for name in ("password", "redis.conf"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    redis_service = next(s for s in stack.services if s.name == "redis")
    assert password not in " ".join(map(str, redis_service.process.args))  # type: ignore[arg-type]
    assert redis_password(folder) == password  # made once, then reused


def test_writes_reach_an_append_only_file(started: tuple[Stack, int]) -> None:
    stack, _ = started
    client = redis.Redis.from_url(stack.env["REDIS_URL"])
    client.set("macaron:test:kept", "yes")
    aof = stack.run_dir / "redis" / "appendonlydir"
    deadline = time.monotonic() + 5  # fsync'd every second
    while time.monotonic() < deadline:
        if any(b"macaron:test:kept" in f.read_bytes() for f in aof.glob("*.aof")):
            return
        time.sleep(0.2)
    pytest.fail(f"no append-only file under {aof} holds the write")


def test_a_port_where_something_else_listens_is_refused(tmp_path: Path) -> None:
    with socket.socket() as foreign:
        foreign.bind(("127.0.0.1", 0))
        foreign.listen()
        port = foreign.getsockname()[1]
        stack = new_stack(tmp_path)
        with pytest.raises(StackError, match=f"already listens on port {port}.*--redis-url"):
            stack.start_redis(port)
        assert stack.services == []
        assert "REDIS_URL" not in stack.env or f":{port}/" not in stack.env["REDIS_URL"]


def test_runstack_refuses_a_redis_it_did_not_start_unless_named() -> None:
    from django.core.management import call_command

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    err = StringIO()
    try:
        with socket.socket() as foreign:
            foreign.bind(("127.0.0.1", 0))
            foreign.listen()
            port = foreign.getsockname()[1]
            with pytest.raises(SystemExit) as exited:
                call_command(
                    "runstack", redis_port=port, redis_url="", stdout=StringIO(), stderr=err
                )
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    assert exited.value.code == 1
    assert f"already listens on port {port}" in err.getvalue()
    assert "--redis-url" in err.getvalue()


def test_processes_without_redis_url_find_the_embedded_redis_with_its_password(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "redis"
    assert default_redis_url(folder) == "redis://127.0.0.1:6379/0"  # none started here yet
    password = redis_password(folder)
    assert default_redis_url(folder) == f"redis://:{password}@127.0.0.1:6379/0"
