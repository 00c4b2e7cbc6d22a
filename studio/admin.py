"""The studio admin: operators manage users (Django's UserAdmin), see projects with their owners,
register, list and unregister adapters, and see and demote global tools. Every adapter check
and write is the registry's service's (services/adapters.py), which also tells the workers;
adapter rows are read-only and never deleted, so a LoRA id is never handed out twice."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from studio.errors import NotFound
from studio.models import Adapter, Dataset, DatasetVersion, GlobalTool, Project, Widget
from studio.services.adapters import (
    AdapterRejected,
    adapter_check,
    adapter_register,
    adapter_unregister,
)
from studio.services.global_tools import global_tool_demote
from studio.services.widgets import widget_unpublish


class AdapterRegisterForm(forms.ModelForm):  # type: ignore[type-arg]
    # Three ways, not a checkbox: an unticked box would override a manifest that says
    # `structured`, and the operator could not tell "no" from "as the manifest says".
    structured = forms.TypedChoiceField(
        choices=[("", "As its manifest says"), ("yes", "Yes"), ("no", "No")],
        coerce=lambda value: value == "yes",
        empty_value=None,
        required=False,
        help_text="Decode under the UI4A schema and render views (else: text).",
    )

    class Meta:
        model = Adapter
        fields = ["name", "path", "purpose", "structured"]
        help_texts = {
            "path": "A peft LoRA folder with macaron-manifest.json, on the workers' disk.",
        }

    def clean(self) -> dict[str, Any]:
        """Ask the registry's service whether it would register this, so its reasons show on
        the form; it asks again when it writes."""
        data = super().clean() or {}
        if data.get("name") and data.get("path"):
            try:
                adapter_check(name=data["name"], path=data["path"])
            except AdapterRejected as exc:
                self.add_error(exc.param if exc.param in self.fields else None, exc.message)
        return data

    def validate_unique(self) -> None:
        """Registering a name that is active replaces it (a retrained version)."""


@admin.register(Adapter)
class AdapterAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "status", "sha_prefix", "rank", "structured", "builtin", "created_at"]
    list_filter = ["status", "builtin", "structured"]
    search_fields = ["name", "sha256"]
    actions = ["unregister"]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = AdapterRegisterForm
        return super().get_form(request, obj, change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return AdapterRegisterForm.Meta.fields
        return [f.name for f in Adapter._meta.fields if f.name != "id"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else self.get_fields(request, obj)

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        """A new version is registered by the service, whose record the admin then shows; rows
        are never edited."""
        if change:
            return form.instance
        data = form.cleaned_data
        try:
            return adapter_register(
                name=data["name"],
                path=data["path"],
                purpose=data.get("purpose", ""),
                structured=data["structured"],
            )
        except AdapterRejected as exc:  # changed on disk since the form checked it
            self.message_user(request, exc.message, messages.ERROR)
            raise

    def save_model(self, request: HttpRequest, obj: Adapter, form: Any, change: bool) -> None:
        """Nothing to save: `save_form` registered it, and rows are read-only."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """Nothing related to save: the service wrote the whole record."""

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="sha256")
    def sha_prefix(self, obj: Adapter) -> str:
        return obj.sha256[:12]

    @admin.action(description="Unregister (drain, then unload on every worker)")
    def unregister(self, request: HttpRequest, queryset: QuerySet[Adapter]) -> None:
        for record in queryset.filter(status=Adapter.Status.ACTIVE):
            try:
                adapter_unregister(name=record.name)
            except (AdapterRejected, NotFound) as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, f"Unregistered {record.name}.")


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Projects with their owners. Versions are the studio's to write (services/versions.py),
    so the admin shows the current one and edits only the name and the owner."""

    list_display = ["name", "owner", "updated_at", "created_at"]
    list_filter = [("owner", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["owner"]
    search_fields = ["name", "owner__username"]
    date_hierarchy = "updated_at"
    ordering = ["-updated_at"]
    fields = ["name", "owner", "current_version", "created_at", "updated_at"]
    readonly_fields = ["current_version", "created_at", "updated_at"]
    raw_id_fields = ["owner"]


class DatasetVersionInline(admin.TabularInline):  # type: ignore[type-arg]
    """A dataset's versions, read-only and without their rows (the studio's data panel
    previews those)."""

    model = DatasetVersion
    fields = ["number", "label", "source_format", "row_count", "author", "created_at"]
    readonly_fields = ["number", "label", "source_format", "row_count", "author", "created_at"]
    extra = 0
    can_delete = False
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[DatasetVersion]:
        return super().get_queryset(request).defer("rows").select_related("author")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Dataset)
class DatasetAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Datasets with their projects. Versions are written by the studio's dataset services
    (uploads and type corrections) and never edited; an operator may delete a dataset."""

    list_display = ["name", "project", "current_version", "updated_at"]
    list_select_related = ["project", "current_version"]
    search_fields = ["name", "project__name", "project__owner__username"]
    ordering = ["-updated_at"]
    fields = ["name", "project", "current_version", "created_at", "updated_at"]
    readonly_fields = ["name", "project", "current_version", "created_at", "updated_at"]
    inlines = [DatasetVersionInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Dataset]:
        return super().get_queryset(request).defer("current_version__rows")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Widget)
class WidgetAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Published widgets, for operators: who published what, where it may be framed, how often
    it was seen. Only unpublishing (the service's, immediate) is offered; the owner's Publish
    panel is where widgets are made and changed."""

    list_display = [
        "public_id",
        "project",
        "version",
        "origins",
        "view_count",
        "published_by",
        "created_at",
        "unpublished_at",
    ]
    list_filter = [("unpublished_at", admin.EmptyFieldListFilter)]
    list_select_related = ["project", "version", "published_by"]
    search_fields = ["public_id", "project__name", "published_by__username"]
    ordering = ["-created_at"]
    readonly_fields = [f.name for f in Widget._meta.fields]
    actions = ["unpublish"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="allowed origins")
    def origins(self, obj: Widget) -> str:
        return " ".join(obj.allowed_origins) or "(link only)"

    @admin.action(description="Unpublish (its page answers 410 at once)")
    def unpublish(self, request: HttpRequest, queryset: QuerySet[Widget]) -> None:
        for widget in queryset.filter(unpublished_at__isnull=True):
            widget_unpublish(widget=widget)
        self.message_user(request, "Unpublished.")


@admin.register(GlobalTool)
class GlobalToolAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Global tools, every version, read-only: they are promoted through /v1/tools after their
    tests passed in a fresh sandbox, and never edited. An operator may demote one (the
    service's; new sessions stop seeing it)."""

    list_display = ["name", "version", "active", "author", "created_at"]
    list_filter = ["active"]
    search_fields = ["name"]
    ordering = ["name", "-version"]
    readonly_fields = [f.name for f in GlobalTool._meta.fields]
    actions = ["demote"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Demote (new sessions can no longer import it)")
    def demote(self, request: HttpRequest, queryset: QuerySet[GlobalTool]) -> None:
        for tool in queryset.filter(active=True):
            try:
                global_tool_demote(name=tool.name, owner=None)
            except NotFound as exc:  # demoted meanwhile
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, f"Demoted {tool.name}.")
