"""REPL sessions for API keys and studio users: the library (studio/repl/) configured from
settings, its refusals turned into the errors the HTTP layer maps (studio/errors.py).

An owner is a string, `key:<id>` or `user:<id>` (a studio user's: studio/services/
repl_projects.py gives each project one). A session is only ever seen by its owner; anyone
else asking for it is told it does not exist, in the words used for an unknown id.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from studio.errors import Gone, NotFound, RateLimited, TooLarge, Unavailable
from studio.models import ApiKey
from studio.repl.cells import CellResult, KernelUnreachable
from studio.repl.sandbox import Identity, Limits, SandboxUnavailable
from studio.repl.sessions import (
    ReplConfig,
    ReplSessions,
    SessionMissing,
    SessionReaped,
    TooManySessions,
)
from studio.services.tool_library import repl_modules

NOT_FOUND = "No REPL session with that id (it may have been closed)."


def repl_owner_for_key(api_key: ApiKey) -> str:
    return f"key:{api_key.pk}"


def repl_owner_for_user(user: AbstractBaseUser) -> str:
    return f"user:{user.pk}"


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
        modules=repl_modules,
    )


def repl_sessions() -> ReplSessions:
    return ReplSessions(repl_config())


def repl_session_create(*, owner: str) -> dict[str, Any]:
    try:
        with repl_refusals():
            state = repl_sessions().create(owner)
    except TooManySessions as exc:
        raise RateLimited("too_many_sessions", str(exc), retry_after=60) from None
    return state.public()


def repl_session_list(*, owner: str) -> list[dict[str, Any]]:
    return [state.public() for state in repl_sessions().owned(owner)]


def repl_session_get(*, owner: str, session_id: str) -> dict[str, Any]:
    with repl_refusals():
        return repl_sessions().get(session_id, owner).public()


def repl_execute(
    *, owner: str, session_id: str, code: str, by: str | None = None
) -> dict[str, Any]:
    """Run a cell; `by` ("user", "api", "expert") goes into the session's cell log."""
    size = len(code.encode())
    if size > settings.MACARON_REPL_CODE_MAX_BYTES:
        raise TooLarge(
            "code_too_large",
            f"The code is {size} bytes; a cell takes at most "
            f"{settings.MACARON_REPL_CODE_MAX_BYTES}. Nothing was run.",
            param="code",
        )
    return repl_execute_server_code(owner=owner, session_id=session_id, code=code, by=by)


def repl_execute_server_code(
    *, owner: str, session_id: str, code: str, by: str | None = None
) -> dict[str, Any]:
    """Run the server's own code (not a caller's, so no size limit) in the owner's session,
    with the same refusals: another owner's session is as unknown as a made-up id."""
    with repl_refusals():
        state, cell = repl_sessions().execute(session_id, owner, code, by=by)
    body = asdict(cell)
    body["restarted"] = body.pop("kernel_lost")
    return {"object": "repl.execution", "index": state.logged, "session": state.public(), **body}


def repl_run_throwaway(*, owner: str, cells: Sequence[str]) -> list[CellResult]:
    """Run `cells` in order in a new session of `owner` (an internal one, such as the tool
    promotion's), stopping after the first that fails (an error, a timeout or a lost kernel);
    the session is closed whatever happens. At most MACARON_REPL_MAX_SESSIONS run at once per
    owner: past that, the caller is asked to retry."""
    sessions = repl_sessions()
    try:
        with repl_refusals():
            state = sessions.create(owner)
    except TooManySessions:
        raise RateLimited(
            "sandbox_busy",
            "Too many fresh sandbox runs are under way; nothing was run. Try again shortly.",
            retry_after=10,
        ) from None
    results: list[CellResult] = []
    try:
        with repl_refusals():
            for code in cells:
                _, cell = sessions.execute(state.id, owner, code)
                results.append(cell)
                if cell.error or cell.timed_out or cell.kernel_lost:
                    break
    finally:
        with suppress(SessionMissing):
            sessions.close(state.id, owner)
    return results


def repl_cells(*, owner: str, session_id: str, after: int = 0) -> dict[str, Any]:
    """The session's logged cells (and resets) past index `after`, and the cell under way."""
    with repl_refusals():
        state, records, running = repl_sessions().cells(session_id, owner, after=after)
    return {"object": "list", "session": state.public(), "data": records, "running": running}


def repl_session_reset(*, owner: str, session_id: str, by: str | None = None) -> dict[str, Any]:
    with repl_refusals():
        return repl_sessions().reset(session_id, owner, by=by).public()


def repl_session_close(*, owner: str, session_id: str) -> None:
    with repl_refusals():
        repl_sessions().close(session_id, owner)


def repl_sessions_reap() -> list[str]:
    """Stop the sessions idle past MACARON_REPL_IDLE_SECONDS (the worker's sweep calls it)."""
    return repl_sessions().reap_idle()


@contextmanager
def repl_refusals() -> Iterator[None]:
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
