"""The studio admin: operators register adapters (validated by the registry's service, which
also tells the workers), see every version, and unregister. Rows are read-only and never
deleted, so a LoRA id is never handed out twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from inference.loras import AdapterInvalid, inspect_adapter, served_base
from inference.settings import EngineSettings
from studio.errors import NotFound
from studio.models import Adapter
from studio.services.adapters import NAME, AdapterRejected, adapter_register, adapter_unregister


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
        """Check what the service will check, so problems show on the form; the service
        checks again when it writes."""
        data = super().clean() or {}
        if data.get("name") and not NAME.match(data["name"]):
            self.add_error("name", "Lowercase letters, digits, '-' and '_', from a letter.")
        if data.get("path"):
            settings = EngineSettings.from_env()
            try:
                inspect_adapter(
                    Path(data["path"]), served_base(settings.model, settings.max_lora_rank)
                )
            except AdapterInvalid as exc:
                self.add_error("path", str(exc))
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

    def save_model(self, request: HttpRequest, obj: Adapter, form: Any, change: bool) -> None:
        try:
            record = adapter_register(
                name=obj.name,
                path=obj.path,
                purpose=obj.purpose,
                structured=form.cleaned_data["structured"],
            )
        except AdapterRejected as exc:  # changed on disk since the form checked it
            self.message_user(request, exc.message, messages.ERROR)
            raise
        obj.__dict__.update({k: v for k, v in record.__dict__.items() if k != "_state"})
        obj._state = record._state

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
