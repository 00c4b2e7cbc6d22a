"""The adapter registry's writes: register (validated against the served base), unregister,
and keep the built-in experts' records in step with their folders under the adapter root.

Every change tells the running workers through `studio.worker.control` once it is committed:
a registration is loaded into each engine at once, an unregistration drains and unloads. The
broadcast only speeds things up and frees memory; correctness does not depend on it, because
each run resolves its expert's active record from the database (a worker that missed the
broadcast loads the adapter on first use and reports the load time).
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from inference.base_model import sha256_of
from inference.experts import EXPERTS, adapter_dir
from inference.loras import (
    WEIGHTS,
    AdapterFacts,
    AdapterInvalid,
    AdapterRef,
    inspect_adapter,
    served_base,
)
from inference.settings import EngineSettings
from studio.errors import InvalidRequest, NotFound
from studio.models import Adapter
from studio.selectors import adapter_get_active
from studio.services import adapter_broadcast

log = logging.getLogger(__name__)

NAME = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")


class AdapterRejected(InvalidRequest):
    """The folder is not an adapter the served base can take, or the name is not allowed."""


def adapter_register(
    *,
    name: str,
    path: str | Path,
    purpose: str = "",
    structured: bool | None = None,
    attempts: int = 3,
    reply_timeout: float = 5.0,
) -> Adapter:
    """Validate the folder against the served base and make it the active `name`, retiring
    the version it replaces. Raises `AdapterRejected`; nothing is written then.

    `structured` (else the manifest's `structured`, else false) makes the expert decode under
    the UI4A schema and its answers render as views; other registered experts write text.
    `reply_timeout` is how long the broadcast waits for workers to say they loaded it."""
    facts = adapter_check(name=name, path=path)
    settings = EngineSettings.from_env()
    builtin = EXPERTS.get(name)
    if builtin is not None:  # a built-in keeps its catalog role whatever the manifest says
        purpose, structured = builtin.purpose, builtin.structured
    else:
        purpose = purpose or str(facts.manifest.get("purpose", "")) or f"the {name} expert"
        structured = (
            bool(facts.manifest.get("structured", False)) if structured is None else structured
        )
    for attempt in range(attempts):
        try:
            with transaction.atomic():
                replaced = _retire(name)
                record = Adapter.objects.create(
                    name=name,
                    purpose=purpose[:200],
                    structured=structured,
                    builtin=builtin is not None,
                    base_model=settings.model,
                    base_sha256=facts.base_sha256,
                    path=facts.path,
                    sha256=facts.sha256,
                    rank=facts.rank,
                    target_modules=list(facts.target_modules),
                    manifest=facts.manifest,
                    lora_id=_next_lora_id(),
                )
                transaction.on_commit(functools.partial(_announce, record, replaced, reply_timeout))
            return record
        except IntegrityError:  # another registration took the same id or name: retry
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def adapter_check(*, name: str, path: str | Path) -> AdapterFacts:
    """Whether `name` may be registered from the folder at `path` for the served base: its
    facts, or `AdapterRejected` naming the field at fault (`param`). Writes nothing; the admin's
    form asks it first, and `adapter_register` asks it again when it writes."""
    if not NAME.match(name):
        raise AdapterRejected(
            "invalid_adapter_name",
            f"{name[:70]!r} is not a valid name: lowercase letters, digits, '-' and '_', "
            "starting with a letter, at most 64 characters",
            param="name",
        )
    settings = EngineSettings.from_env()
    base = served_base(settings.model, settings.max_lora_rank)
    try:
        return inspect_adapter(Path(path), base)
    except AdapterInvalid as exc:
        raise AdapterRejected("invalid_adapter", str(exc), param="path") from None


def adapter_unregister(*, name: str) -> Adapter:
    """Retire the active `name`: new requests are refused at once; every worker lets the
    requests already decoding with it finish, then unloads it."""
    if name in EXPERTS:
        raise AdapterRejected(
            "builtin_expert",
            f"{name!r} is a built-in expert: register a new version instead of removing it",
            param="name",
        )
    with transaction.atomic():
        record = adapter_get_active(name=name)
        if record is None:
            raise NotFound("adapter_not_found", f"No adapter named {name[:70]!r} is registered.")
        _retire(name)
        record.refresh_from_db()
        transaction.on_commit(lambda: adapter_broadcast.announce_unload(record.lora_id))
    return record


def adapters_sync_builtin(*, root: Path | None = None) -> list[Adapter]:
    """Register each built-in expert's folder under the adapter root when its record is
    missing, or when the weights there changed (an installed, retrained adapter). A built-in
    re-registered from elsewhere is left alone. Idempotent; returns the records it wrote."""
    root = root or EngineSettings.from_env().adapter_root
    written = []
    for name in sorted(EXPERTS):
        folder = adapter_dir(name, root)
        if not (folder / "adapter_config.json").is_file():
            log.warning("no adapter for the built-in expert %r under %s", name, root)
            continue
        # One transaction per name: two workers starting together register it once (SQLite
        # serializes them; elsewhere the unique active name refuses the second).
        with transaction.atomic():
            current = adapter_get_active(name=name)
            if current is not None and (
                Path(current.path) != folder.resolve()
                or sha256_of(folder / WEIGHTS) == current.sha256
            ):
                continue
            try:
                # Sent, not waited on: this runs as a worker starts, before its engine.
                written.append(
                    adapter_register(name=name, path=folder, attempts=1, reply_timeout=0)
                )
            except IntegrityError:
                log.info("the built-in %r was registered by another process meanwhile", name)
    return written


def adapter_ref(record: Adapter) -> AdapterRef:
    return AdapterRef(
        name=record.name, lora_id=record.lora_id, path=record.path, sha256=record.sha256
    )


def _retire(name: str) -> Adapter | None:
    current = Adapter.objects.select_for_update().filter(name=name, status="active").first()
    if current is not None:
        Adapter.objects.filter(pk=current.pk).update(
            status=Adapter.Status.RETIRED, retired_at=timezone.now()
        )
    return current


def _next_lora_id() -> int:
    """One above every id ever handed out: rows are never deleted, so ids are never reused."""
    highest = Adapter.objects.aggregate(highest=Max("lora_id"))["highest"]
    return int(highest or 0) + 1


def _announce(record: Adapter, replaced: Adapter | None, reply_timeout: float) -> None:
    adapter_broadcast.announce_load(adapter_ref(record), timeout=reply_timeout)
    if replaced is not None:
        adapter_broadcast.announce_unload(replaced.lora_id, timeout=min(reply_timeout, 2.0))
