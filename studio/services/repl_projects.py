"""A project's Python session in the studio: at most one per project, owned by the project's
owner (`user:<id>`), found by the tag `project:<id>` in the session's own state, so no table
maps projects to sessions and a closed or idled-out session leaves nothing behind.

Callers check that the user owns the project first (studio.selectors.project_of_user); these
functions trust the pair they are given.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from studio.errors import NotFound, RateLimited
from studio.models import Project
from studio.repl.sessions import SessionState, TooManySessions
from studio.services.repl import (
    repl_cells,
    repl_execute,
    repl_owner_for_user,
    repl_refusals,
    repl_session_close,
    repl_session_reset,
    repl_sessions,
)

NO_SESSION = "This project has no Python session; run a cell to start one."


def _tag(project: Project) -> str:
    return f"project:{project.id}"


def _limits() -> dict[str, Any]:
    return {
        "cell_seconds": settings.MACARON_REPL_CELL_SECONDS,
        "code_max_bytes": settings.MACARON_REPL_CODE_MAX_BYTES,
        "idle_seconds": settings.MACARON_REPL_IDLE_SECONDS,
        "prompt_max_chars": settings.MACARON_PROMPT_MAX_CHARS,  # a question to an expert
    }


def _found(user: AbstractBaseUser, project: Project) -> SessionState | None:
    with repl_refusals():
        return repl_sessions().tagged(repl_owner_for_user(user), _tag(project), start=False)


def project_repl_open(*, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    """The project's running session, started if there is none. `notice` says when the one
    before it had idled out (its variables are gone)."""
    owner, sessions = repl_owner_for_user(user), repl_sessions()
    notice = ""
    sessions.reap_idle()  # so a session idle past the limit is seen as the tombstone it is
    previous = _found(user, project)
    if previous is not None and previous.status == "reaped":
        minutes = settings.MACARON_REPL_IDLE_SECONDS / 60
        notice = (
            f"The previous session idled out (unused for {minutes:g} min); this one starts empty."
        )
        repl_session_close(owner=owner, session_id=previous.id)
    try:
        with repl_refusals():
            state = sessions.tagged(owner, _tag(project), start=True)
    except TooManySessions:
        raise RateLimited(
            "too_many_sessions",
            f"You have {settings.MACARON_REPL_MAX_SESSIONS} Python sessions open, the most "
            "allowed; end the session of another project (its Python panel, End session) "
            "first.",
            retry_after=60,
        ) from None
    assert state is not None
    return {"session": state.public(), "notice": notice, "limits": _limits()}


def project_repl_cells(
    *, user: AbstractBaseUser, project: Project, after: int = 0
) -> dict[str, Any]:
    """The project's session and its cells past `after` (none, with no session)."""
    state = _found(user, project)
    if state is None:
        return {"session": None, "cells": [], "running": None, "limits": _limits()}
    found = repl_cells(owner=repl_owner_for_user(user), session_id=state.id, after=after)
    return {
        "session": found["session"],
        "cells": found["data"],
        "running": found["running"],
        "limits": _limits(),
    }


def project_repl_run(*, user: AbstractBaseUser, project: Project, code: str) -> dict[str, Any]:
    """Run a cell the designer typed (starting the session if needed); its logged record."""
    opened = project_repl_open(user=user, project=project)
    owner, session_id = repl_owner_for_user(user), opened["session"]["id"]
    ran = repl_execute(owner=owner, session_id=session_id, code=code, by="user")
    logged = repl_cells(owner=owner, session_id=session_id, after=ran["index"] - 1)
    cell = next(r for r in logged["data"] if r["index"] == ran["index"])
    return {**opened, "session": logged["session"], "cell": cell}


def project_repl_reset(*, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    state = _running(user, project)
    session = repl_session_reset(owner=repl_owner_for_user(user), session_id=state.id, by="user")
    return {"session": session}


def project_repl_close(*, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    state = _found(user, project)
    if state is not None:
        repl_session_close(owner=repl_owner_for_user(user), session_id=state.id)
    return {"session": None, "closed": state is not None}


def _running(user: AbstractBaseUser, project: Project) -> SessionState:
    state = _found(user, project)
    if state is None or state.status != "running":
        raise NotFound("no_session", NO_SESSION)
    return state
