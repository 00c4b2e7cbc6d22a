"""Projects, their versions and generations (turns), API keys and adapters.

A project belongs to one user and points at its current version. A version is one state of the
project's spec: every finished ui generation and every manual edit adds one, and versions are
never changed afterwards. A generation row holds the final text and timings; API generations
have no project but an API key, and carry the caller's messages. An adapter row is one
registered version of an expert's LoRA weights; a global tool row, one promoted version of a
function REPL sessions can import. A widget is a published version of a project,
framed by the sites it allows."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from inference.settings import DEFAULT_PROFILE


class Project(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Null only for projects made before accounts existed; nobody can open those.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="projects",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
    )
    name = models.CharField(max_length=120, default="Untitled project")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    current_version = models.ForeignKey(
        "Version", related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    # Version ids that undo stepped back from, newest last; any new version clears it.
    redo = models.JSONField(default=list, blank=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "-updated_at"], name="project_owner_updated")]

    def __str__(self) -> str:
        return f"project {self.name!r} ({self.id})"


class Version(models.Model):
    """One state of a project's spec, made by a generation, an edit, a revert or a fork."""

    class Kind(models.TextChoices):
        GENERATED = "generated"  # a prompt from scratch (or "start over")
        REFINED = "refined"  # a prompt applied to the previous version
        TARGETED = "targeted"  # a prompt applied to one selected subtree
        EDITED = "edited"  # a manual edit in the inspector
        REVERTED = "reverted"  # equal to an older version
        FORKED = "forked"  # the first version of a fork

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey(Project, related_name="versions", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()  # 1, 2, 3… within its project
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # What made it, for the timeline: the prompt, or "edited: label of button 'Save'".
    label = models.TextField()
    spec = models.JSONField()
    parent = models.ForeignKey(
        "self", related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    generation = models.ForeignKey(
        "Generation", related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="+",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "number"]
        constraints = [
            models.UniqueConstraint(fields=["project", "number"], name="one_number_per_version")
        ]

    def __str__(self) -> str:
        return f"version {self.number} of {self.project_id} ({self.kind})"


def new_widget_public_id() -> str:
    """128 random bits, URL-safe: the widget's address, which nobody can guess or enumerate."""
    return secrets.token_urlsafe(16)


class Widget(models.Model):
    """A project's view published at `/w/<public_id>`: pinned to one version, or following the
    project's current version when `version` is null. `allowed_origins` (exact, normalised
    `scheme://host[:port]`) are the only sites that may frame it and receive its host events;
    an empty list means link-only. Unpublishing sets `unpublished_at` and is final (410)."""

    id = models.BigAutoField(primary_key=True)
    public_id = models.CharField(
        max_length=32, unique=True, default=new_widget_public_id, editable=False
    )
    project = models.ForeignKey(Project, related_name="widgets", on_delete=models.CASCADE)
    version = models.ForeignKey(
        Version, related_name="widgets", on_delete=models.CASCADE, null=True, blank=True
    )
    allowed_origins = models.JSONField(default=list, blank=True)
    # Labels of the buttons whose clicks are host events too (chosen by the owner); a form's
    # submit always is one.
    event_buttons = models.JSONField(default=list, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="+",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    unpublished_at = models.DateTimeField(null=True, blank=True)
    # Incremented in the database (F() + 1), so concurrent views are never lost.
    view_count = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["project", "-created_at"]

    def __str__(self) -> str:
        state = "unpublished" if self.unpublished_at else "live"
        return f"widget {self.public_id} of {self.project_id} ({state})"

    @property
    def live(self) -> bool:
        return self.unpublished_at is None


class ApiKey(models.Model):
    """A Bearer key for the HTTP API. Only its sha256 is stored; the prefix identifies it."""

    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"api key {self.prefix}… ({'revoked' if self.revoked else 'active'})"


class Adapter(models.Model):
    """One registered version of an expert's adapter. Rows are never deleted: re-registering a
    name retires the old row and adds one with a new `lora_id`, so an id, once handed to vLLM,
    always means the same weights (vLLM caches adapters by id)."""

    class Status(models.TextChoices):
        ACTIVE = "active"  # served under its name
        RETIRED = "retired"  # unregistered or replaced; its lora_id is never reused

    name = models.CharField(max_length=64)  # the public name requests use
    purpose = models.CharField(max_length=200, blank=True, default="")
    structured = models.BooleanField(default=False)  # decodes under the UI4A schema
    builtin = models.BooleanField(default=False)  # one of chat, agent, coding, ui
    base_model = models.CharField(max_length=500)
    base_sha256 = models.CharField(max_length=64)
    path = models.CharField(max_length=1000)
    sha256 = models.CharField(max_length=64, db_index=True)  # of adapter_model.safetensors
    rank = models.PositiveSmallIntegerField()
    target_modules = models.JSONField(default=list)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    manifest = models.JSONField(default=dict, blank=True)
    lora_id = models.PositiveIntegerField(unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["name"], condition=Q(status="active"), name="one_active_adapter_per_name"
            )
        ]
        indexes = [models.Index(fields=["status", "name"], name="adapter_status_name")]

    def __str__(self) -> str:
        return f"adapter {self.name} ({self.status}, {self.sha256[:12]})"


class GlobalTool(models.Model):
    """One promoted version of a global tool: a function from a REPL session, with the tests it
    passed in a fresh sandbox. Every new session can `from macaron_tools import <name>` the
    active version. Rows are never deleted or edited: promoting again adds a version and
    makes it the active one; demoting leaves a name with no active version."""

    name = models.CharField(max_length=64)  # a Python identifier (services/global_tools.py)
    version = models.PositiveIntegerField()  # 1, 2, 3… per name
    source = models.TextField()  # the function's `def`, as the session had it
    signature = models.CharField(max_length=1000)  # "(text: str) -> str"
    doc = models.TextField(blank=True, default="")
    tests = models.TextField()
    test_output = models.TextField(blank=True, default="")  # what the promotion run printed
    author = models.CharField(max_length=64)  # the REPL owner: "key:<id>" or "user:<id>"
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="one_global_tool_version"),
            models.UniqueConstraint(
                fields=["name"], condition=Q(active=True), name="one_active_global_tool_per_name"
            ),
        ]

    def __str__(self) -> str:
        return f"tool {self.name} v{self.version}" + ("" if self.active else " (inactive)")


class Generation(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        # Its caller went away (an API client disconnected) and the engine request was aborted.
        CANCELLED = "cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    project = models.ForeignKey(
        Project, related_name="generations", on_delete=models.CASCADE, null=True, blank=True
    )
    api_key = models.ForeignKey(
        ApiKey, related_name="generations", on_delete=models.CASCADE, null=True, blank=True
    )
    profile = models.CharField(max_length=64, default=DEFAULT_PROFILE)  # also its Celery queue
    # API generations: the caller's conversation, sampling options and how the expert was chosen.
    messages = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    routing = models.JSONField(null=True, blank=True)
    prompt = models.TextField()
    # Studio refinement: the version the prompt revises (None: a fresh start), and the JSON
    # pointer of the selected subtree a targeted refinement may change ("" for all of it).
    base_version = models.ForeignKey(
        Version, related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    target = models.CharField(max_length=200, blank=True, default="")
    expert = models.CharField(max_length=64)
    structured = models.BooleanField(default=False)  # a UI4A spec, rendered as a view
    # Which registered weights answered, and what making them resident cost (None: resident).
    adapter_sha256 = models.CharField(max_length=64, blank=True, default="")
    adapter_load_ms = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    # The Celery worker (`name@host`) that claimed it: a worker that restarts fails the rows it
    # left running, since a generation runs at most once (studio/worker/orphans.py).
    worker = models.CharField(max_length=255, blank=True, default="")
    # The text so far while running (updated with every batch), the final text once done.
    text = models.TextField(blank=True, default="")
    seq = models.PositiveIntegerField(default=0)
    spec = models.JSONField(null=True, blank=True)  # the repaired UI4A spec (ui expert only)
    problems = models.JSONField(default=list, blank=True)
    # A first ui turn waiting for its other drafts once the streamed one has ended:
    # {"drafts", "writing", "until" (ISO time)}, so a page loaded meanwhile can say so.
    comparing = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    finish_reason = models.CharField(max_length=16, blank=True, default="")
    tokens = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)  # the whole templated prompt
    queued_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    first_token_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["queued_at"]
        # The orphan sweep looks up the few running rows among every generation ever made.
        indexes = [models.Index(fields=["status", "worker"], name="generation_status_worker")]

    def __str__(self) -> str:
        return f"generation {self.id} ({self.expert}, {self.status})"

    @property
    def finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    def timings(self) -> dict[str, Any]:
        """Queue wait, time to first token and decode speed, in seconds and tokens/s."""

        def seconds(start: Any, end: Any) -> float | None:
            return round((end - start).total_seconds(), 3) if start and end else None

        decode = seconds(self.first_token_at, self.finished_at)
        return {
            "queue_wait_s": seconds(self.queued_at, self.started_at),
            "time_to_first_token_s": seconds(self.started_at, self.first_token_at),
            "total_s": seconds(self.queued_at, self.finished_at),
            "tokens": self.tokens,
            "tokens_per_s": round((self.tokens - 1) / decode, 2) if decode else None,
            "adapter_load_ms": self.adapter_load_ms,
        }


FINISHED_STATUSES = (Generation.Status.DONE, Generation.Status.FAILED, Generation.Status.CANCELLED)


class Dataset(models.Model):
    """A table a designer brought into a project, under a name the spec refers to
    (`{"from": name}`). Its content lives in immutable versions; the newest is current."""

    project = models.ForeignKey(Project, related_name="datasets", on_delete=models.CASCADE)
    # Lower-case letters, digits and underscores (studio/services/datasets/names.py).
    name = models.CharField(max_length=63)
    current_version = models.ForeignKey(
        "DatasetVersion", related_name="+", on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["project", "name"]
        constraints = [
            models.UniqueConstraint(fields=["project", "name"], name="one_dataset_name_per_project")
        ]

    def __str__(self) -> str:
        return f"dataset {self.name!r} of {self.project_id}"


class DatasetVersion(models.Model):
    """One upload (or one type correction) of a dataset: typed rows, never changed afterwards.

    The rows are stored in the row itself, as zlib-compressed JSON of lists (one list per row,
    cells in column order): a version and its rows are written in one transaction (a failed
    upload leaves nothing behind, deleting a project deletes them, no files to orphan or
    back up separately), lists without repeated keys plus compression keep a 100,000-row
    table a few MB, and readers that list versions defer the field (see the selectors)."""

    class Format(models.TextChoices):
        CSV = "csv"
        TSV = "tsv"
        JSON = "json"
        XLSX = "xlsx"
        PASTE = "paste"

    # A uuid, not a counter: in-process caches of decoded rows key on it, and it is never reused.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    dataset = models.ForeignKey(Dataset, related_name="versions", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()  # 1, 2, 3… within its dataset
    # What made it: "uploaded sales.csv", or "column price: text to number".
    label = models.CharField(max_length=300)
    source_name = models.CharField(max_length=255, blank=True, default="")
    source_format = models.CharField(max_length=8, choices=Format.choices)
    # [{"name", "label", "type", "inferred"}]: name is what specs use, label the header as
    # written, inferred the type the reader guessed (type differs once the designer corrects it).
    columns = models.JSONField()
    row_count = models.PositiveIntegerField()
    # The source's number for the first data row (2 under a header row, 1 for JSON records),
    # so messages about row N name the row the designer sees in their file.
    first_row = models.PositiveIntegerField(default=2)
    # Blank rows skipped on the way in, as [[index of the stored row after them, how many]].
    row_gaps = models.JSONField(default=list, blank=True)
    rows = models.BinaryField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        related_name="+",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dataset", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["dataset", "number"], name="one_number_per_dataset_version"
            )
        ]

    def __str__(self) -> str:
        return f"version {self.number} of dataset {self.dataset_id}"
