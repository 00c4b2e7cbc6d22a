"""The embedded Redis as `runstack` and the tests start it: on loopback, with a password and
append-only persistence, both kept in a folder of its own under the data folder.

- The password is made once, on first start, and kept in that folder (0600), so a restarted
  Redis takes the same one and the processes' `REDIS_URL` stays valid. Anyone else on the
  host who reaches the port cannot use it without the file: they could otherwise queue tasks
  for the worker or broadcast remote-control commands to it.
- It is handed to Redis in a config file (0600), never on its command line, which `ps` shows
  to every local user.
- Append-only persistence (fsync every second) keeps queued tasks and channel-layer state
  across a Redis restart, losing at most the last second.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import quote

PASSWORD_FILE = "password"
CONFIG_FILE = "redis.conf"
DEFAULT_PORT = 6379  # runstack's --redis-port


def redis_password(folder: Path) -> str:
    """The embedded Redis's password, made on first use and kept in `folder` (0600)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / PASSWORD_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        password = path.read_text().strip()
        if password:
            return password
        raise RuntimeError(f"{path} is empty: remove it to have a new password made") from None
    with os.fdopen(fd, "w") as handle:
        password = secrets.token_urlsafe(32)
        handle.write(password + "\n")
    return password


def redis_url(port: int, password: str, host: str = "127.0.0.1") -> str:
    return f"redis://:{quote(password, safe='')}@{host}:{port}/0"


def default_redis_url(folder: Path) -> str:
    """Where a process without `REDIS_URL` finds Redis: the embedded one `runstack` starts
    from `folder`, with its password once one was made, so `manage.py` commands run beside it
    (`register_adapter` broadcasts to the workers) reach it too."""
    path = folder / PASSWORD_FILE
    password = path.read_text().strip() if path.is_file() else ""
    if not password:
        return f"redis://127.0.0.1:{DEFAULT_PORT}/0"
    return redis_url(DEFAULT_PORT, password)


def write_redis_config(folder: Path, port: int, password: str) -> Path:
    """The server's config file in `folder` (0600: it holds the password)."""
    lines = [
        f"port {port}",
        "bind 127.0.0.1",
        "protected-mode yes",
        f"dir {_quoted(str(folder.resolve()))}",
        'save ""',  # no RDB snapshots: the append-only file is the persistence
        "appendonly yes",
        "appendfsync everysec",
        f"requirepass {_quoted(password)}",
    ]
    path = folder / CONFIG_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    os.chmod(path, 0o600)  # an older file may have been created with other bits
    return path


def _quoted(value: str) -> str:
    """A double-quoted Redis config argument."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
