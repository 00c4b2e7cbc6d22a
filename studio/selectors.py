"""Reads for views, consumers, tasks and the registry's services."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from inference.experts import EXPERTS, Expert, expert_summary, manifest_summary
from inference.loras import AdapterRef
from studio.models import Adapter, Generation, Project


def project_get(*, project_id: uuid.UUID) -> Project | None:
    return Project.objects.filter(pk=project_id).first()


def project_latest_generation(*, project: Project) -> Generation | None:
    return project.generations.order_by("-queued_at").first()


def adapter_get_active(*, name: str) -> Adapter | None:
    return Adapter.objects.filter(name=name, status=Adapter.Status.ACTIVE).first()


def adapters_active() -> QuerySet[Adapter]:
    return Adapter.objects.filter(status=Adapter.Status.ACTIVE).order_by("name")


@dataclass(frozen=True)
class ResolvedExpert:
    expert: Expert
    # The registered weights to run; None for a built-in the registry has not recorded yet,
    # which the engine then serves from its folder under the adapter root.
    adapter: AdapterRef | None


def expert_resolve(*, name: str) -> ResolvedExpert | None:
    """The expert a request names, as registered now; None if there is no such expert."""
    record = adapter_get_active(name=name)
    if record is not None:
        prompt = record.manifest.get("system_prompt", "")
        expert = Expert(
            record.name,
            record.purpose,
            record.structured,
            system_prompt=prompt if isinstance(prompt, str) else "",
        )
        ref = AdapterRef(record.name, record.lora_id, record.path, record.sha256)
        return ResolvedExpert(expert, ref)
    if name in EXPERTS:
        return ResolvedExpert(EXPERTS[name], None)
    return None


def experts_list() -> list[dict[str, Any]]:
    """Every expert a request may name, with its training manifest's summary; the internal
    LoRA id stays out."""
    listed: dict[str, dict[str, Any]] = {}
    for record in adapters_active():
        listed[record.name] = {
            "name": record.name,
            "purpose": record.purpose,
            "structured": record.structured,
            "builtin": record.builtin,
            "adapter_sha256": record.sha256[:12],
            "registered_at": record.created_at.isoformat(),
            **manifest_summary(record.manifest),
        }
    for name in EXPERTS:
        if name not in listed:
            listed[name] = {"builtin": True, **expert_summary(name)}
    builtins = [listed.pop(name) for name in sorted(EXPERTS) if name in listed]
    return builtins + [listed[name] for name in sorted(listed)]
