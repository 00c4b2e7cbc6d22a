"""Asking an expert from a project's Python panel: the tool loop (services/tool_loop/) run for
the studio user in the project's own session, so the cells the expert runs land in the log the
panel polls (by "expert") as they happen. The question counts as one start against the user's
studio rate and holds one studio slot while the loop runs; its generations are the project's.

Callers check that the user owns the project first (studio.selectors.project_of_user).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from inference.protocol import Message
from inference.tool_calls import PROMOTE_TOOL, PYTHON_TOOL
from studio.blocking import off_thread
from studio.errors import InvalidRequest
from studio.models import Project
from studio.services.api_requests import ProjectCompletionRequest
from studio.services.completions import ChatCompletionRequest
from studio.services.repl import repl_owner_for_user
from studio.services.repl_projects import project_repl_open
from studio.services.tool_loop.loop import ToolLoop

# The text experts that call tools; the ui expert writes specs under a schema and cannot.
ASK_EXPERTS = ("agent", "coding")


def ask_prompt(prompt: object) -> str:
    """The question, checked: text, not blank, within the studio's prompt limit."""
    if not isinstance(prompt, str) or not prompt.strip():
        raise InvalidRequest("empty_prompt", "'prompt' is required: the question to ask.")
    prompt = prompt.strip()
    limit = settings.MACARON_PROMPT_MAX_CHARS
    if len(prompt) > limit:
        raise InvalidRequest(
            "prompt_too_long", f"The question has {len(prompt)} characters; the limit is {limit}."
        )
    return prompt


def ask_expert(expert: object) -> str:
    if expert not in ASK_EXPERTS:
        raise InvalidRequest("unknown_expert", f"'expert' must be one of {', '.join(ASK_EXPERTS)}.")
    return str(expert)


async def project_repl_ask(
    *, user: AbstractBaseUser, project: Project, prompt: str, expert: str
) -> dict[str, Any]:
    """Run the loop in the project's session (started if needed) until the expert answers;
    the answer, the steps it ran and why it stopped ("answer", "step_limit", ...). Raises
    `InvalidRequest` (a limit, a failed generation, the session lost). If the caller goes
    away (the request is cancelled), `finish` cancels the running generation and no further
    step starts."""
    opened = await off_thread(project_repl_open, user=user, project=project)
    session_id = opened["session"]["id"]
    chat = ChatCompletionRequest(
        model=settings.CELERY_TASK_DEFAULT_QUEUE,  # the profile studio generations run on
        messages=(Message("user", prompt),),
        router=expert,
        tools=(PYTHON_TOOL, PROMOTE_TOOL),
        repl=session_id,
    )
    request = ProjectCompletionRequest(int(user.pk), project, chat)
    loop = ToolLoop(chat, request, repl_owner_for_user(user))
    try:
        started = await loop.start()
        async for _ in loop.run():
            pass  # the panel sees the cells in the session's log as they run
    finally:
        await loop.finish()
    outcome = loop.outcome
    assert outcome is not None and outcome.repl is not None
    return {
        "answer": outcome.content,
        "expert": started.expert,
        "steps": outcome.repl["steps"],
        "stopped": outcome.repl["stopped"],
        "session": {"id": session_id},
        "notice": opened["notice"],
    }
