"""Chat completions for the API: resolve profile and expert, store the generation, read it back.

The request takes the studio's path: a Generation row, a Celery task on its profile's queue once
the row is committed, batches on the channel layer. Routing is recorded on the row.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from inference import router
from inference.experts import EXPERTS
from inference.profiles import PROFILES
from inference.protocol import Message
from studio.errors import InvalidRequest, NotFound
from studio.models import ApiKey, Generation
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
    stop: tuple[str, ...] = ()
    tools: tuple[dict[str, Any], ...] | None = None


def completion_create(
    *,
    generation_id: uuid.UUID,
    api_key: ApiKey,
    model: str,
    router_name: str | None,
    messages: tuple[Message, ...],
    max_tokens: int | None,
    temperature: float,
    top_p: float,
    stop: tuple[str, ...],
    tools: tuple[dict[str, Any], ...] | None,
) -> CompletionResult:
    """Store a queued API generation and enqueue it once committed.

    The caller picks `generation_id` so it can join the generation's group first.
    """
    profile = _served_profile(model)
    routing = _routing(router_name, messages)
    resolved = expert_resolve(name=routing.expert)
    if resolved is None:  # an automatic choice is always a built-in, which always resolves
        raise NotFound("expert_not_found", f"No expert is named {routing.expert!r}.")
    chars = sum(len(m.content) for m in messages)
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
            profile=profile,
            expert=routing.expert,
            structured=resolved.expert.structured,
            prompt=last_user,
            messages=[{"role": m.role, "content": m.content} for m in messages],
            options={
                "max_tokens": max_tokens,
                "temperature": temperature,
                "top_p": top_p,
                "stop": list(stop),
                "tools": list(tools) if tools else None,
            },
            routing=routing.as_dict(),
        )
        transaction.on_commit(lambda: generation_enqueue(generation))
    return completion_of(generation)


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


def _routing(router_name: str | None, messages: tuple[Message, ...]) -> router.Routing:
    if router_name is not None:
        if expert_resolve(name=router_name) is None:
            raise NotFound(
                "expert_not_found",
                f"No expert is named {router_name[:40]!r}; use one of "
                f"{', '.join(sorted(EXPERTS))} or a registered expert, or leave 'router' out "
                "to route automatically.",
                param="router",
            )
        return router.explicit(router_name)
    return router.route(messages)
