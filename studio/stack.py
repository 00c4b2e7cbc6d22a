"""Starts and stops the whole local stack: Redis, a Celery worker hosting the engine, Daphne.

`manage.py runstack` uses it for `make run`, and the test suite uses it for its real-stack tests,
so both start the product the same way. Each process gets its own log file under the run folder.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path

from inference.paths import REPO_ROOT
from studio.embedded_redis import redis_password, redis_url, write_redis_config


class StackError(RuntimeError):
    """A service did not come up; the message names its log file."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0


@dataclass
class Service:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    ready_file: Path | None = None  # workers touch it once their engine is up

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def check_alive(self) -> None:
        if self.process.poll() is not None:
            raise StackError(
                f"{self.name} exited with {self.process.returncode}; see {self.log_path}:\n"
                + self.log_tail()
            )

    def stop(self, timeout: float = 60) -> int | None:
        """SIGTERM, wait, then SIGKILL the whole process group; returns the exit code."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode


@dataclass
class Stack:
    run_dir: Path
    env: dict[str, str]
    services: list[Service] = field(default_factory=list)
    http_port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def signin_url(self, username: str | None = None) -> str:
        """A one-time sign-in link for `username` (created if missing; None: the local user),
        printed by `manage.py signin_url` as a designer would run it against this stack."""
        argv = [sys.executable, "manage.py", "signin_url", "--url", self.url]
        result = subprocess.run(
            [*argv, *(["--username", username] if username is not None else [])],
            cwd=REPO_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise StackError(f"signin_url failed ({result.returncode}): {result.stderr.strip()}")
        return result.stdout.strip().splitlines()[-1]

    def signin_cookies(self, username: str | None = None) -> dict[str, str]:
        """The cookies of a session signed in through a fresh link, for clients that are not a
        browser (a WebSocket client sends them as its Cookie header)."""
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(self.signin_url(username), timeout=30) as response:
            response.read()
        cookies = {cookie.name: cookie.value or "" for cookie in jar}
        if "sessionid" not in cookies:
            raise StackError(f"signing {username or 'the local user'} in set no session cookie")
        return cookies

    def _spawn(self, name: str, argv: list[str], env: Mapping[str, str] | None = None) -> Service:
        log_path = self.run_dir / f"{name}.log"
        log = log_path.open("ab")
        process = subprocess.Popen(
            argv,
            cwd=REPO_ROOT,
            env={**self.env, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        service = Service(name, process, log_path)
        self.services.append(service)
        return service

    def start_redis(self, port: int, *, data_dir: Path | None = None) -> Service:
        """Start the embedded Redis on loopback (`studio.embedded_redis`: a password and
        append-only persistence, kept in `data_dir`, by default `redis` under the run folder).
        Refuses a port where something already listens: a Redis this stack did not start may
        be anyone's, with anyone's data; to use one on purpose, set `REDIS_URL` instead."""
        if port_open(port):
            raise StackError(
                f"something already listens on port {port}, and this stack did not start it. "
                "Stop it, choose another port (runstack --redis-port), or to use that Redis "
                f"on purpose name it: runstack --redis-url redis://:PASSWORD@127.0.0.1:{port}/0 "
                "(or set REDIS_URL)."
            )
        folder = data_dir or self.run_dir / "redis"
        password = redis_password(folder)
        config = write_redis_config(folder, port, password)
        url = redis_url(port, password)
        self.env["REDIS_URL"] = url
        service = self._spawn("redis", ["redis-server", str(config)])
        _wait(lambda: _redis_answers(url), service, timeout=20)
        return service

    def start_worker(
        self,
        name: str = "worker",
        concurrency: int = 4,
        env: Mapping[str, str] | None = None,
        include: Sequence[str] = (),
    ) -> Service:
        """A worker named `name@<host>` on this stack's profile queue; `env` adds settings
        for this worker alone (e.g. its engine sizing), `include` modules with more tasks
        (UI4A-Bench's variant runs). Several may serve one queue."""
        ready = self.run_dir / f"{name}.ready"
        ready.unlink(missing_ok=True)
        env_queue = self.env.get("MACARON_PROFILE", "macaron-tiny")
        service = self._spawn(
            name,
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "studio.worker.app",
                "worker",
                "-P",
                "threads",
                "-c",
                str(concurrency),
                "-Q",
                env_queue,
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel",
                "INFO",
                *(["--include", ",".join(include)] if include else []),
            ],
            env,
        )
        service.ready_file = ready
        return service

    def start_daphne(self, port: int) -> Service:
        self.http_port = port
        service = self._spawn(
            "daphne",
            [
                sys.executable,
                "-m",
                "studio.web.serve",  # Daphne, with the studio's WebSocket message limit
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "studio.web.asgi:application",
            ],
        )
        _wait(lambda: _http_ok(f"{self.url}/healthz"), service, timeout=60)
        return service

    def stop(self) -> None:
        for service in reversed(self.services):
            service.stop()
        self.services.clear()


def _redis_answers(url: str) -> bool:
    """True once Redis answers an authenticated PING: it may accept connections before it has
    replayed its append-only file, and answers "loading" until then."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _wait(ready: Callable[[], bool], service: Service, *, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        service.check_alive()
        if ready():
            return
        time.sleep(0.2)
    raise StackError(f"{service.name} not ready after {timeout:.0f} s; see {service.log_path}")


def wait_worker_ready(service: Service, *, timeout: float = 300) -> None:
    assert service.ready_file is not None, f"{service.name} is not a worker"
    _wait(service.ready_file.exists, service, timeout=timeout)


def exit_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit, so a script's `finally: stack.stop()` still runs; its
    services live in sessions of their own and would otherwise outlive it."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))


def new_stack(run_dir: Path, extra_env: Mapping[str, str] | None = None) -> Stack:
    run_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
    env["PYTHONUNBUFFERED"] = "1"
    env["MACARON_RUN_DIR"] = str(run_dir)
    env.update(extra_env or {})
    return Stack(run_dir=run_dir, env=env)


def throwaway_stack(run_dir: Path, extra_env: Mapping[str, str] | None = None) -> Stack:
    """A stack on its own migrated SQLite database and REPL root in `run_dir`: what tests and
    benches run. (A shared REPL root would mix its sessions with another database's: owners
    are key and user ids, which every fresh database numbers from 1.)"""
    own = {
        "DATABASE_URL": f"sqlite:///{run_dir / 'db.sqlite3'}",
        "MACARON_REPL_HOME": str(run_dir / "repl"),
    }
    stack = new_stack(run_dir, {**own, **(extra_env or {})})
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=REPO_ROOT,
        env=stack.env,
        check=True,
    )
    return stack


@contextmanager
def running_web(run_dir: Path, extra_env: Mapping[str, str] | None = None) -> Iterator[Stack]:
    """Redis and Daphne, no worker, on a throwaway database: the web process as `runstack`
    starts it, for checks that need no engine."""
    stack = throwaway_stack(run_dir, extra_env)
    try:
        stack.start_redis(free_port())
        stack.start_daphne(free_port())
        yield stack
    finally:
        stack.stop()
