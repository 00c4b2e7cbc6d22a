"""Chat completions for the API: resolve profile and expert, store the generation, read it back.

The request takes the studio's path: a Generation row, a Celery task on its profile's queue once
the row is committed, batches on the channel layer. Routing is recorded on the row.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import transaction

from inference import router
from inference.experts import EXPERTS
from inference.profiles import PROFILES
from inference.protocol import Message
from studio.errors import InvalidRequest, NotFound
from studio.models import ApiKey, Generation, Project
from studio.selectors import CompletionResult, completion_of, expert_resolve
from studio.services.generations import generation_enqueue


@dataclass(frozen=True)
class ChatCompletionRequest:
    """A validated Chat Completions request (the API's protocol parses the wire into it)."""

    model: str
    messages: tuple[Message, ...]
    router: str | None = None
    stream: bool = False
    max_tokens: int | None = None
    temperature: float = 1.0  # OpenAI's default
    top_p: float = 1.0
    seed: int | None = None  # OpenAI's: a sampled answer the same seed repeats
    stop: tuple[str, ...] = ()
    tools: tuple[dict[str, Any], ...] | None = None
    # Macaron's extension: "new" or a REPL session's id; the server runs `python` calls there.
    repl: str | None = None


# The expert that answers when the server's python loop is on and no `router` is named.
TOOL_LOOP_EXPERT = "agent"


def completion_create(
    *,
    generation_id: uuid.UUID,
    api_key: ApiKey | None,
    chat: ChatCompletionRequest,
    routing: router.Routing | None = None,
    project: Project | None = None,
) -> CompletionResult:
    """Store a queued generation of `chat` and enqueue it once committed: an API key's, or
    (`project`) a studio project's, as the tool loop of its Python panel makes them.

    The caller picks `generation_id` so it can join the generation's group first. `routing`
    is an earlier step's choice, kept by the next steps of a tool loop.
    """
    profile = _served_profile(chat.model)
    routing = routing or _routing(chat)
    resolved = expert_resolve(name=routing.expert)
    if resolved is None:  # an automatic choice is always a built-in, which always resolves
        raise NotFound("expert_not_found", f"No expert is named {routing.expert!r}.")
    if resolved.expert.structured and chat.tools:
        raise InvalidRequest(
            "tools_not_supported",
            f"The {routing.expert!r} expert writes UI4A specs under a schema and cannot call "
            "tools; leave out 'tools', or name a text expert in 'router' (chat, agent, coding).",
            param="tools",
        )
    messages = chat.messages
    chars = input_chars(messages)
    if chars > settings.MACARON_API_MAX_INPUT_CHARS:
        raise InvalidRequest(
            "context_length_exceeded",
            f"The messages hold {chars} characters; the limit is "
            f"{settings.MACARON_API_MAX_INPUT_CHARS}.",
            param="messages",
        )
    last_user = next(m.content for m in reversed(messages) if m.role == "user")
    with transaction.atomic():
        generation = Generation.objects.create(
            id=generation_id,
            api_key=api_key,
            project=project,
            profile=profile,
            expert=routing.expert,
            structured=resolved.expert.structured,
            prompt=last_user,
            messages=[{"role": m.role, "content": m.content} for m in messages],
            # The tools are in the messages, as their system message: the chat template
            # is not handed them again (inference/tool_calls.py).
            options={
                "max_tokens": chat.max_tokens,
                "temperature": chat.temperature,
                "top_p": chat.top_p,
                "seed": chat.seed,
                "stop": list(chat.stop),
            },
            routing=routing.as_dict(),
        )
        transaction.on_commit(lambda: generation_enqueue(generation))
    return completion_of(generation)


def input_chars(messages: tuple[Message, ...]) -> int:
    """The size MACARON_API_MAX_INPUT_CHARS bounds."""
    return sum(len(m.content) for m in messages)


def _served_profile(model: str) -> str:
    if model not in PROFILES:
        raise NotFound(
            "model_not_found",
            f"The model {model[:60]!r} does not exist; use one of {', '.join(PROFILES)}.",
            param="model",
        )
    if model not in settings.MACARON_SERVED_PROFILES:
        served = ", ".join(settings.MACARON_SERVED_PROFILES)
        raise NotFound(
            "model_not_served",
            f"The profile {model!r} exists, but no worker serves it on this deployment; "
            f"served here: {served}.",
            param="model",
        )
    return model


def _routing(chat: ChatCompletionRequest) -> router.Routing:
    """The expert named in `router`; else, with the server's python loop on, the agent; else
    the classifier's choice, among the text experts when tools are given (the ui expert
    cannot call them)."""
    if chat.router is not None:
        if expert_resolve(name=chat.router) is None:
            raise NotFound(
                "expert_not_found",
                f"No expert is named {chat.router[:40]!r}; use one of "
                f"{', '.join(sorted(EXPERTS))} or a registered expert, or leave 'router' out "
                "to route automatically.",
                param="router",
            )
        return router.explicit(chat.router)
    if chat.repl is not None:
        return router.Routing(expert=TOOL_LOOP_EXPERT, mode="tools")
    routing = router.route(chat.messages)
    if chat.tools and EXPERTS[routing.expert].structured and routing.scores:
        text_experts = {n: s for n, s in routing.scores.items() if not EXPERTS[n].structured}
        best = max(text_experts, key=text_experts.__getitem__)
        routing = replace(routing, expert=best)
    return routing
