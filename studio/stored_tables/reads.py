"""Reading datasets: what the data panel lists and previews, and what renders and prompts use
(`project_tables`, `project_profiles_text`). Nothing here writes.

Listings never load rows (the field is deferred); tables load each current version's rows
through the per-process cache, so a render of a project with a 100,000-row table decodes it
once per process, not once per request."""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any

from studio.errors import NotFound
from studio.models import Dataset, DatasetVersion, Project
from studio.stored_tables.row_numbers import RowNumbering
from studio.stored_tables.storage import ROWS_CACHE, StoredRows
from ui4a.tables import Column, Table, profile_text

PREVIEW_ROWS = 50
PROFILE_CACHE_SIZE = 256


def _author(version: DatasetVersion) -> str:
    author = version.author
    return author.get_username() if author is not None else ""


def version_summary(version: DatasetVersion) -> dict[str, Any]:
    return {
        "id": str(version.id),
        "number": version.number,
        "label": version.label,
        "source_name": version.source_name,
        "source_format": version.source_format,
        "columns": version.columns,
        "row_count": version.row_count,
        "first_row": version.first_row,
        "author": _author(version),
        "created_at": version.created_at.isoformat(),
    }


def datasets_of_project(*, project: Project) -> dict[str, Any]:
    """Every dataset with its current version, and its versions newest first."""
    versions = (
        DatasetVersion.objects.filter(dataset__project=project)
        .defer("rows")
        .select_related("author")
        .order_by("dataset_id", "-number")
    )
    by_dataset: dict[int, list[DatasetVersion]] = {}
    for version in versions:
        by_dataset.setdefault(version.dataset_id, []).append(version)
    datasets = []
    for dataset in Dataset.objects.filter(project=project).order_by("name"):
        history = by_dataset.get(dataset.pk, [])
        current = next((v for v in history if v.id == dataset.current_version_id), None)
        datasets.append(
            {
                "name": dataset.name,
                "current": version_summary(current) if current else None,
                "versions": [
                    {k: v for k, v in version_summary(v).items() if k != "columns"} for v in history
                ],
            }
        )
    return {"datasets": datasets}


def _current_versions(project: Project) -> list[tuple[str, DatasetVersion]]:
    datasets = (
        Dataset.objects.filter(project=project, current_version__isnull=False)
        .select_related("current_version")
        .defer("current_version__rows")
        .order_by("name")
    )
    return [(d.name, d.current_version) for d in datasets if d.current_version is not None]


def _rows_of(version: DatasetVersion) -> list[list[Any]]:
    def load() -> bytes | memoryview:
        blob: bytes | memoryview = (
            DatasetVersion.objects.filter(pk=version.pk).values_list("rows", flat=True).get()
        )
        return blob

    return ROWS_CACHE.get(version.id, load)


def version_table(name: str, version: DatasetVersion) -> Table:
    columns = tuple(Column(c["name"], c["type"]) for c in version.columns)
    rows = StoredRows([c.name for c in columns], lambda: _rows_of(version), count=version.row_count)
    return Table(name=name, columns=columns, rows=rows)


def version_changes(version: DatasetVersion) -> dict[str, list[str]]:
    """What a new version changed in the columns specs refer to, against the one before."""
    previous = (
        DatasetVersion.objects.filter(dataset_id=version.dataset_id, number=version.number - 1)
        .only("columns")
        .first()
    )
    if previous is None:
        return {"added": [], "removed": [], "retyped": []}
    before = {c["name"]: c["type"] for c in previous.columns}
    after = {c["name"]: c["type"] for c in version.columns}
    return {
        "added": [name for name in after if name not in before],
        "removed": [name for name in before if name not in after],
        "retyped": [name for name in after if name in before and before[name] != after[name]],
    }


def dataset_preview(*, dataset: Dataset, limit: int = PREVIEW_ROWS) -> dict[str, Any]:
    """The current version's columns and its first `limit` rows (as lists, in column order)."""
    if dataset.current_version_id is None:
        raise NotFound("unknown_dataset", f'Dataset "{dataset.name}" has no version yet.')
    version = (
        DatasetVersion.objects.defer("rows")
        .select_related("author")
        .get(pk=dataset.current_version_id)
    )
    shown = _rows_of(version)[:limit]
    numbering = RowNumbering.from_stored(version.first_row, version.row_gaps)
    return {
        "name": dataset.name,
        "version": version_summary(version),
        "rows": shown,
        "row_numbers": numbering.numbers(len(shown)),  # as the source file numbers them
    }


def project_tables(project: Project) -> dict[str, Table]:
    """The current version of each of the project's datasets, by name, for resolving a spec's
    queries (`ui4a.resolve_data`). Rows are read on demand from the per-process cache."""
    return {name: version_table(name, version) for name, version in _current_versions(project)}


class _ProfileCache:
    """Profiles by version id: computing one reads every row, and a version never changes."""

    def __init__(self, size: int = PROFILE_CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[uuid.UUID, str], str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, name: str, version: DatasetVersion) -> str:
        key = (version.id, name)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        text = profile_text(version_table(name, version))
        with self._lock:
            self._entries[key] = text
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return text


PROFILES = _ProfileCache()


def project_profiles_text(project: Project) -> str:
    """What the ui expert is told about the project's datasets ("" when it has none): each
    one's name, columns, types, ranges and a few sample values; never the rows."""
    return "\n".join(PROFILES.get(name, version) for name, version in _current_versions(project))


def project_prompt_with_tables(project: Project, prompt: str) -> str:
    """The user turn for the ui expert: the datasets' profiles, then the prompt (unchanged
    when the project has no datasets). The same text as `ui4a.tables.prompt_with_tables`
    (a test holds them equal), with each profile cached by version."""
    profiles = project_profiles_text(project)
    if not profiles:
        return prompt
    return f"{profiles}\n\n{prompt}"
