"""Real REPL sessions for tests: real kernels under real bubblewrap, in a short-lived root.

The root is a short path under /tmp: the kernel's Unix socket paths must fit in 108 bytes,
which pytest's own temporary folders can exceed."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from studio.repl.sandbox import Identity, Limits
from studio.repl.sessions import ReplConfig, ReplSessions

TEST_LIMITS = Limits(
    cpu_seconds=120,
    memory_bytes=1 << 30,
    processes=64,
    open_files=256,
    file_bytes=16 << 20,
    tmp_bytes=16 << 20,
)


def config(root: Path, **changes: object) -> ReplConfig:
    values: dict[str, object] = {
        "root": root,
        "limits": TEST_LIMITS,
        "identity": Identity(uid=65534, gid=65534),
        "idle_seconds": 600.0,
        "cell_seconds": 2.0,  # `while True: pass` costs this (plus the interrupt)
        "output_bytes": 64 * 1024,
        "max_sessions_per_owner": 3,
    }
    values.update(changes)
    return ReplConfig(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def repl_root() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="repl-", dir="/tmp"))
    yield root
    ReplSessions(config(root)).close_all()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def alice() -> str:
    """An API key's secret (the REPL owner `key:<id>`)."""
    return _key("alice")


@pytest.fixture
def bob() -> str:
    return _key("bob")


def _key(name: str) -> str:
    # Imported here: a kernel's launcher process imports this module without Django set up.
    from studio.services.api_keys import api_key_create

    return api_key_create(name=name)[1]


def call(method: str, path: str, key: str, body: object = None) -> Any:
    """An API request with `key`, through Django's test client."""
    headers = {"Authorization": f"Bearer {key}"}
    if method == "get":
        return Client().get(path, headers=headers)
    data = body if isinstance(body, bytes | str) else json.dumps(body or {})
    return getattr(Client(), method)(path, data, content_type="application/json", headers=headers)
