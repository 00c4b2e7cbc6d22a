"""REPL sessions for API keys and studio users: the library (studio/repl/) configured from
settings, its refusals turned into the errors the HTTP layer maps (studio/errors.py).

An owner is a string, `key:<id>` (`user:<id>` is kept for the studio's panel, to come). A
session is only ever seen by its owner; anyone else asking for it is told it does not exist,
in the words used for an unknown id.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

from django.conf import settings

from studio.errors import Gone, NotFound, RateLimited, TooLarge, Unavailable
from studio.models import ApiKey
from studio.repl.cells import KernelUnreachable
from studio.repl.sandbox import Identity, Limits, SandboxUnavailable
from studio.repl.sessions import (
    ReplConfig,
    ReplSessions,
    SessionMissing,
    SessionReaped,
    TooManySessions,
)

NOT_FOUND = "No REPL session with that id (it may have been closed)."


def repl_owner_for_key(api_key: ApiKey) -> str:
    return f"key:{api_key.pk}"


def repl_config() -> ReplConfig:
    """The sessions' root, limits and times, from settings (bench/repl.py times these too)."""
    return ReplConfig(
        root=settings.MACARON_REPL_HOME,
        limits=Limits(
            cpu_seconds=settings.MACARON_REPL_CPU_SECONDS,
            memory_bytes=settings.MACARON_REPL_MEMORY_BYTES,
            processes=settings.MACARON_REPL_PROCESSES,
            open_files=settings.MACARON_REPL_OPEN_FILES,
            file_bytes=settings.MACARON_REPL_FILE_BYTES,
            tmp_bytes=settings.MACARON_REPL_TMP_BYTES,
        ),
        identity=Identity(uid=settings.MACARON_REPL_UID, gid=settings.MACARON_REPL_GID),
        idle_seconds=settings.MACARON_REPL_IDLE_SECONDS,
        cell_seconds=settings.MACARON_REPL_CELL_SECONDS,
        output_bytes=settings.MACARON_REPL_OUTPUT_BYTES,
        max_sessions_per_owner=settings.MACARON_REPL_MAX_SESSIONS,
    )


def repl_sessions() -> ReplSessions:
    return ReplSessions(repl_config())


def repl_session_create(*, owner: str) -> dict[str, Any]:
    try:
        with _refusals():
            state = repl_sessions().create(owner)
    except TooManySessions as exc:
        raise RateLimited("too_many_sessions", str(exc), retry_after=60) from None
    return state.public()


def repl_session_list(*, owner: str) -> list[dict[str, Any]]:
    return [state.public() for state in repl_sessions().owned(owner)]


def repl_session_get(*, owner: str, session_id: str) -> dict[str, Any]:
    with _refusals():
        return repl_sessions().get(session_id, owner).public()


def repl_execute(*, owner: str, session_id: str, code: str) -> dict[str, Any]:
    size = len(code.encode())
    if size > settings.MACARON_REPL_CODE_MAX_BYTES:
        raise TooLarge(
            "code_too_large",
            f"The code is {size} bytes; a cell takes at most "
            f"{settings.MACARON_REPL_CODE_MAX_BYTES}. Nothing was run.",
            param="code",
        )
    with _refusals():
        state, cell = repl_sessions().execute(session_id, owner, code)
    body = asdict(cell)
    body["restarted"] = body.pop("kernel_lost")
    return {"object": "repl.execution", "session": state.public(), **body}


def repl_session_reset(*, owner: str, session_id: str) -> dict[str, Any]:
    with _refusals():
        return repl_sessions().reset(session_id, owner).public()


def repl_session_close(*, owner: str, session_id: str) -> None:
    with _refusals():
        repl_sessions().close(session_id, owner)


def repl_sessions_reap() -> list[str]:
    """Stop the sessions idle past MACARON_REPL_IDLE_SECONDS (the worker's sweep calls it)."""
    return repl_sessions().reap_idle()


@contextmanager
def _refusals() -> Iterator[None]:
    """The library's refusals as request errors."""
    try:
        yield
    except SessionMissing:
        raise NotFound("session_not_found", NOT_FOUND, param="session_id") from None
    except SessionReaped:
        idle = settings.MACARON_REPL_IDLE_SECONDS
        raise Gone(
            "session_expired",
            f"This REPL session idled out (no use for {idle:g} s) and was stopped; its "
            "variables and files are gone. Start a new session.",
            param="session_id",
        ) from None
    except SandboxUnavailable as exc:
        raise Unavailable("sandbox_unavailable", str(exc)) from None
    except KernelUnreachable as exc:
        raise Unavailable("kernel_failed", f"The session's kernel did not answer: {exc}") from None
