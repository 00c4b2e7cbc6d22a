"""The Python panel's JSON endpoints: a project's sandboxed session (studio/services/
repl_projects.py), its cells, and the global tools every session can import.

    POST /p/<id>/repl/session   the project's session, started if there is none
    GET  /p/<id>/repl/cells     its cells past ?after=<index>, and the cell under way
    POST /p/<id>/repl/run       run {"code": ...} (starting the session if needed)
    POST /p/<id>/repl/reset     a fresh kernel and an empty home
    POST /p/<id>/repl/close     stop the session and remove its files
    POST /p/<id>/repl/ask       ask {"prompt", "expert": "agent"|"coding"}: the tool loop runs in
                                the session (its cells show in the log as they run); then
                                the expert's answer and the steps it ran
    GET  /studio/tools          the global tools (name, signature, doc)

Like the rest of /p/<uuid>/: the project's owner only (a visitor gets 401, anyone else a 404
as for a project that does not exist), POSTs checked for CSRF, errors as {"error": {"code",
"message"}}. Starting a kernel or running a cell blocks for up to a cell's wall-time limit, so
these views are async and run that work on a thread of its own (see studio/web/api/repl.py).
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET, require_POST

from studio.blocking import off_thread
from studio.errors import (
    PROJECT_GONE,
    InvalidRequest,
    NotAuthenticated,
    NotFound,
)
from studio.models import Project
from studio.selectors import project_of_user
from studio.services.global_tools import global_tools_list
from studio.services.repl import repl_owner_for_user
from studio.services.repl_ask import ask_expert, ask_prompt, project_repl_ask
from studio.services.repl_projects import (
    project_repl_cells,
    project_repl_close,
    project_repl_open,
    project_repl_reset,
    project_repl_run,
)
from studio.web.projects_api import error_json, signed_in_json
from studio.web.request_body import body_within

T = TypeVar("T")
PanelView = Callable[[HttpRequest, AbstractBaseUser, Project], Awaitable[dict[str, Any]]]
MAX_AFTER = 2**53  # an index past any session's (JSON's safe integers)


def project_json(
    view: PanelView,
) -> Callable[[HttpRequest, uuid.UUID], Coroutine[Any, Any, JsonResponse]]:
    """The signed-in owner's project handed to `view`; any refusal as its JSON error."""

    @functools.wraps(view)
    async def wrapper(request: HttpRequest, project_id: uuid.UUID) -> JsonResponse:
        try:
            user = await request.auser()
            if not user.is_authenticated:
                raise NotAuthenticated("not_signed_in", "Sign in to use the studio.")
            project = await database_sync_to_async(project_of_user)(
                user=user, project_id=project_id
            )
            if project is None:
                raise NotFound("unknown_project", PROJECT_GONE)
            assert isinstance(user, AbstractBaseUser)
            return JsonResponse(await view(request, user, project))
        except InvalidRequest as exc:
            return error_json(exc)

    return wrapper


def _json_body(request: HttpRequest, text_limit: int) -> dict[str, Any]:
    # The body holds one text, JSON-escaped (up to 6 bytes a character), and little else.
    body = body_within(request, 6 * text_limit + 1024)
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise InvalidRequest("bad_request", "The request body is not valid JSON.") from None
    return data if isinstance(data, dict) else {}


def _code(request: HttpRequest) -> str:
    code = _json_body(request, settings.MACARON_REPL_CODE_MAX_BYTES).get("code")
    if not isinstance(code, str) or not code.strip():
        raise InvalidRequest("bad_request", "'code' is required: the Python to run.")
    return code


def _after(request: HttpRequest) -> int:
    text = request.GET.get("after", "0")
    if not text.isdigit() or int(text) > MAX_AFTER:
        raise InvalidRequest("bad_request", "'after' must be a cell index: 0 or more.")
    return int(text)


@require_POST
@project_json
async def session(request: HttpRequest, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    return await off_thread(project_repl_open, user=user, project=project)


@require_GET
@project_json
async def cells(request: HttpRequest, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    after = _after(request)
    return await off_thread(project_repl_cells, user=user, project=project, after=after)


@require_POST
@project_json
async def run(request: HttpRequest, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    code = _code(request)
    return await off_thread(project_repl_run, user=user, project=project, code=code)


@require_POST
@project_json
async def ask(request: HttpRequest, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    """Runs as long as the loop does (up to MACARON_TOOL_LOOP_MAX_STEPS generations and their
    cells). A designer who leaves the page ends the request: the loop is cancelled with it."""
    data = _json_body(request, settings.MACARON_PROMPT_MAX_CHARS)
    prompt, expert = ask_prompt(data.get("prompt")), ask_expert(data.get("expert", "agent"))
    return await project_repl_ask(user=user, project=project, prompt=prompt, expert=expert)


@require_POST
@project_json
async def reset(request: HttpRequest, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    return await off_thread(project_repl_reset, user=user, project=project)


@require_POST
@project_json
async def close(request: HttpRequest, user: AbstractBaseUser, project: Project) -> dict[str, Any]:
    return await off_thread(project_repl_close, user=user, project=project)


@require_GET
@signed_in_json
def tools(request: HttpRequest) -> dict[str, Any]:
    assert isinstance(request.user, AbstractBaseUser)  # signed_in_json let only users in
    owner = repl_owner_for_user(request.user)
    return {"tools": global_tools_list(owner=owner)}
