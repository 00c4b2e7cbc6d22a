"""Reads, for both processes: projects, their versions and diffs, generations as clients draw
them, API completions, experts and profiles. Nothing here writes."""

from __future__ import annotations

import datetime
import html
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.db.models import Count, F, QuerySet
from django.utils import timezone

import ui4a
from inference.experts import EXPERTS, Expert, expert_summary, manifest_summary
from inference.loras import AdapterRef
from inference.profiles import PROFILES
from studio.errors import InvalidRequest, NotFound
from studio.models import (
    FINISHED_STATUSES,
    Adapter,
    ApiKey,
    Generation,
    Project,
    Version,
    Widget,
)
from studio.rendered_views import view_payload
from studio.stored_tables import project_tables
from ui4a import diff as ui4a_diff
from ui4a.edit import editable_catalog
from ui4a.tree import walk


def project_get(*, project_id: uuid.UUID) -> Project | None:
    return Project.objects.filter(pk=project_id).first()


def project_of_user(*, user: Any, project_id: uuid.UUID | str) -> Project | None:
    """The project if `user` owns it; None for anyone else's (callers answer 404, never 403,
    so a stranger learns nothing about which ids exist)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Project.objects.filter(pk=project_id, owner=user).first()


PROJECT_QUERY_MAX_CHARS = 120  # no project name is longer


def projects_of_user(*, user: Any, query: str = "") -> QuerySet[Project]:
    """The user's projects whose name contains `query` (any case), last changed first, each
    with a count of its versions."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Project.objects.none()
    projects = Project.objects.filter(owner=user)
    query = " ".join(query.split())[:PROJECT_QUERY_MAX_CHARS]
    if query:
        projects = projects.filter(name__icontains=query)
    return projects.annotate(version_count=Count("versions")).order_by("-updated_at", "pk")


def project_latest_generation(*, project: Project) -> Generation | None:
    """The project's latest ui turn (its Python panel's chats with an expert are not drawn)."""
    return project.generations.filter(messages=[]).order_by("-queued_at").first()


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


def models_list() -> list[dict[str, Any]]:
    """Every profile, whether a worker serves it here, and its experts."""
    experts = experts_list()
    return [
        {
            "id": profile.name,
            "base": profile.base,
            "runs_on": profile.runs_on,
            "served": profile.name in settings.MACARON_SERVED_PROFILES,
            "experts": experts,
        }
        for profile in PROFILES.values()
    ]


def generation_snapshot(*, generation_id: uuid.UUID, user: Any = None) -> dict[str, Any]:
    """Everything a client needs to (re)draw a generation, whatever it has missed; with `user`,
    only a generation in one of their projects."""
    # API generations belong to their key: the studio's open endpoint never shows them.
    found = Generation.objects.filter(pk=generation_id, api_key__isnull=True)
    if user is not None:
        found = found.filter(project__owner=user) if user.is_authenticated else found.none()
    generation = found.first()
    if generation is None:
        raise InvalidRequest("unknown_generation", "That generation does not exist.")
    return generation_payload(generation)


def generation_payload(generation: Generation) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "generation": str(generation.id),
        "project": str(generation.project_id) if generation.project_id else None,
        "prompt": generation.prompt,
        "expert": generation.expert,
        "status": generation.status,
        "seq": generation.seq,
        "text": generation.text,
        "error": generation.error,
        "finish_reason": generation.finish_reason,
        "problems": generation.problems,
        "timings": generation.timings(),
        "adapter_sha256": generation.adapter_sha256,
    }
    if generation.comparing and not generation.finished:
        payload["comparing"] = comparing_drafts(generation.comparing)
    if generation.structured:
        spec = generation.spec if generation.finished else None
        tables = project_tables(generation.project) if generation.project else None
        payload.update(view_payload(generation.text, final_spec=spec, tables=tables))
    return payload


def comparing_drafts(comparing: dict[str, Any]) -> dict[str, Any]:
    """How the drafts of a turn stand while they are compared, as the drafts message says it
    (studio/messages.py): the wait left, from the time the worker stored."""
    until = datetime.datetime.fromisoformat(comparing["until"])
    wait_s = max(0.0, (until - timezone.now()).total_seconds())
    return {
        "drafts": comparing["drafts"],
        "writing": comparing["writing"],
        "wait_s": round(wait_s, 1),
    }


@dataclass(frozen=True)
class CompletionResult:
    """A finished (or failed) API generation, as the wire format needs it."""

    id: uuid.UUID
    created: int
    model: str
    expert: str
    structured: bool  # the text is a UI4A spec, with a rendered view
    adapter_sha256: str  # the registered weights that answered
    routing: dict[str, Any]
    text: str
    finish_reason: str
    failed: bool
    error: str
    tokens: int
    prompt_tokens: int
    spec: dict[str, Any] | None
    problems: list[dict[str, Any]]
    timings: dict[str, Any]


def completion_result(
    *, generation_id: uuid.UUID, api_key: ApiKey | None, project: Project | None = None
) -> CompletionResult:
    """A generation of this key's (or this project's chat), finished or not; any other's is
    'not found'."""
    generation = Generation.objects.filter(
        pk=generation_id, api_key=api_key, project=project
    ).first()
    if generation is None:
        raise NotFound("completion_not_found", "No completion with that id.")
    return completion_of(generation)


def completion_of(generation: Generation) -> CompletionResult:
    return CompletionResult(
        id=generation.id,
        created=int(generation.queued_at.timestamp()),
        model=generation.profile,
        expert=generation.expert,
        structured=generation.structured,
        adapter_sha256=generation.adapter_sha256,
        routing=generation.routing or {},
        text=generation.text,
        finish_reason=generation.finish_reason,
        failed=generation.finish_reason == "error",
        error=generation.error,
        tokens=generation.tokens,
        prompt_tokens=generation.prompt_tokens,
        spec=generation.spec,
        problems=list(generation.problems),
        timings=generation.timings(),
    )


def completion_finished(*, generation_id: uuid.UUID) -> bool:
    return Generation.objects.filter(pk=generation_id, status__in=FINISHED_STATUSES).exists()


def completion_text(*, generation_id: uuid.UUID) -> tuple[int, str]:
    """The sequence number and text so far, written together by every batch."""
    row = Generation.objects.filter(pk=generation_id).values_list("seq", "text").first()
    return (int(row[0]), str(row[1])) if row else (0, "")


# --- versions -------------------------------------------------------------------------------


def version_summary(version: Version) -> dict[str, Any]:
    """One version as the timeline lists it."""
    return {
        "id": str(version.id),
        "number": version.number,
        "kind": version.kind,
        "label": version.label,
        "created_at": version.created_at.isoformat(),
        "author": version.author.get_username() if version.author else None,
        "generation": str(version.generation_id) if version.generation_id else None,
        "parent": str(version.parent_id) if version.parent_id else None,
    }


def version_detail(version: Version) -> dict[str, Any]:
    """A version with its spec, and the body HTML and state the frame's render message needs."""
    return {
        **version_summary(version),
        "spec": version.spec,
        **view_payload("", final_spec=version.spec, tables=project_tables(version.project)),
    }


def version_of_project(*, project: Project, version_id: uuid.UUID | str) -> Version:
    """A version of this project; any other id (another project's included) is not found."""
    version = (
        Version.objects.select_related("author").filter(pk=version_id, project=project).first()
    )
    if version is None:
        raise NotFound("unknown_version", "That version is not part of this project.")
    return version


def version_can_undo(version: Version | None) -> bool:
    """Undo steps back over manual edits only; generations, reverts and forks stay."""
    return (
        version is not None
        and version.kind == Version.Kind.EDITED
        and version.parent_id is not None
    )


def project_history(*, project: Project) -> dict[str, Any]:
    """Where the project stands: its current version and whether undo and redo apply."""
    current = project.current_version
    return {
        "current": str(current.id) if current else None,
        "can_undo": version_can_undo(current),
        "can_redo": bool(project.redo),
    }


VERSIONS_LISTED = 1000


def project_versions(*, project: Project) -> dict[str, Any]:
    """The project's history and every version, oldest first (at most VERSIONS_LISTED)."""
    newest = (
        project.versions.select_related("author")
        .defer("spec")
        .order_by("-number")[:VERSIONS_LISTED]
    )
    return {
        **project_history(project=project),
        "versions": [version_summary(v) for v in reversed(list(newest))],
    }


def versions_diff(
    *, project: Project, from_id: uuid.UUID | str, to_id: uuid.UUID | str
) -> dict[str, Any]:
    """The changes from one version of the project to another: added and changed nodes are
    pointers into `to`, removed ones into `from`."""
    old = version_of_project(project=project, version_id=from_id)
    new = version_of_project(project=project, version_id=to_id)
    try:
        changes = ui4a_diff.diff(old.spec, new.spec)
    except ui4a.SpecTooLarge as exc:
        message = f"These versions are too large to compare: {exc}."
        raise InvalidRequest("spec_too_large", message) from None
    return {
        "from": version_summary(old),
        "to": version_summary(new),
        "changes": [change.as_dict() for change in changes],
        "summary": ui4a_diff.summary(changes),
    }


def component_catalog() -> dict[str, Any]:
    """The components, theme tokens, wrappers and actions the inspector edits with."""
    return editable_catalog()


def widgets_of_project(*, project: Project) -> QuerySet[Widget]:
    """Every widget the project ever published, live ones first, newest first."""
    return project.widgets.select_related("version", "published_by").order_by(
        F("unpublished_at").asc(nulls_first=True), "-created_at", "-pk"
    )


def widget_of_project(*, project: Project, public_id: str) -> Widget:
    widget = project.widgets.filter(public_id=public_id).first()
    if widget is None:
        raise NotFound("unknown_widget", "That widget is not one of this project's.")
    return widget


def _widget_spec(widget: Widget) -> object:
    version = widget.version if widget.version_id is not None else widget.project.current_version
    return version.spec if version is not None else None


def spec_button_labels(spec: object) -> list[str]:
    """The labels of a spec's buttons, in document order, once each; labels that read state
    ("Hi {name}") are left out, since the view shows them differently."""
    labels: list[str] = []
    for ref in walk(spec):
        label = ref.node.get("label")
        if ref.node.get("t") != "button" or not isinstance(label, str):
            continue
        label = " ".join(label.split())
        if label and "{" not in label and label not in labels:
            labels.append(label)
    return labels


def widget_summary(widget: Widget, *, base_url: str) -> dict[str, Any]:
    """What the Publish panel shows of a widget; `base_url` is the site's scheme://host."""
    version = widget.version
    return {
        "id": widget.public_id,
        "url": f"{base_url}/w/{widget.public_id}",
        "live": widget.live,
        "follows_latest": version is None,
        "version": {"id": str(version.id), "number": version.number} if version else None,
        "origins": list(widget.allowed_origins),
        "event_buttons": list(widget.event_buttons),
        # The buttons it shows now (a "latest" widget's change with the project), to choose from.
        "buttons": spec_button_labels(_widget_spec(widget)) if widget.live else [],
        "views": widget.view_count,
        "created_at": widget.created_at.isoformat(),
        "unpublished_at": widget.unpublished_at.isoformat() if widget.unpublished_at else None,
        "published_by": widget.published_by.get_username() if widget.published_by else None,
        "snippets": embed_snippets(widget=widget, base_url=base_url) if widget.live else None,
    }


def embed_snippets(*, widget: Widget, base_url: str) -> dict[str, str]:
    """What an owner pastes into a host page: a plain iframe (its events go to the first allowed
    origin; change `host` for another), or the loader, which adds `host` and sizes the frame."""
    page = f"{base_url}/w/{widget.public_id}"
    origins = list(widget.allowed_origins)
    src = f"{page}?host={quote(origins[0], safe='')}" if len(origins) > 1 else page
    title = html.escape(f"{widget.project.name} (Macaron widget)", quote=True)
    iframe = (
        f'<iframe src="{html.escape(src, quote=True)}" sandbox="allow-scripts allow-forms" '
        f'title="{title}" loading="lazy" style="width:100%;height:480px;border:0"></iframe>'
    )
    loader = (
        f'<div data-macaron-widget="{widget.public_id}" data-title="{title}"></div>\n'
        f'<script src="{html.escape(base_url, quote=True)}/w/embed.js" async></script>'
    )
    return {"iframe": iframe, "loader": loader}
