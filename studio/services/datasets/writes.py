"""Writing datasets: an upload or a paste (a new dataset, or a new version of the one with that
name), a column's type corrected (a new version), a rename, a delete.

Files are read and typed before any transaction starts; the write itself is one transaction,
so a refused or failed upload changes nothing: earlier datasets and versions stay as they were."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from studio.errors import NotFound
from studio.models import Dataset, DatasetVersion, Project
from studio.services.datasets.column_types import CellLocation, convert_column
from studio.services.datasets.limits import DatasetRejected, DatasetTooLarge, dataset_limits
from studio.services.datasets.names import dataset_name_clean, dataset_name_from_file
from studio.services.datasets.parse import ParsedTable, parse_paste, parse_upload
from studio.stored_tables.row_numbers import RowNumbering
from studio.stored_tables.storage import ROWS_CACHE, rows_encode
from ui4a.tables import COLUMN_TYPES

PASTED_SOURCE = "pasted table"
# A clipboard's table; larger ones come as files. Its JSON body (tabs and newlines escaped)
# stays under Django's 2.5 MB cap on a body that is not a file.
PASTE_MAX_BYTES = 1024 * 1024


def _version_add(
    *,
    project: Project,
    name: str,
    parsed: ParsedTable,
    label: str,
    source_name: str,
    author: Any,
) -> DatasetVersion:
    """Store `parsed` as the newest version of the project's dataset `name` (made if new)."""
    blob = rows_encode(parsed.rows)  # before the transaction: it holds the write lock
    with transaction.atomic():
        Project.objects.select_for_update().filter(pk=project.pk).first()  # one writer a time
        dataset = Dataset.objects.filter(project=project, name=name).first()
        if dataset is None:
            most = dataset_limits().max_datasets
            if Dataset.objects.filter(project=project).count() >= most:
                raise DatasetTooLarge(
                    "too_many_datasets",
                    f"A project holds at most {most} datasets; delete one, or upload this as a "
                    "new version of one it has.",
                )
            dataset = Dataset.objects.create(project=project, name=name)
        last = dataset.versions.aggregate(n=Max("number"))["n"] or 0
        version = DatasetVersion.objects.create(
            dataset=dataset,
            number=last + 1,
            label=label[:300],
            source_name=source_name[:255],
            source_format=parsed.source_format,
            columns=parsed.columns,
            row_count=len(parsed.rows),
            first_row=parsed.numbering.first,
            row_gaps=parsed.numbering.gaps_json(),
            rows=blob,
            author=author,
        )
        dataset.current_version = version
        dataset.save(update_fields=["current_version", "updated_at"])
    return version


def _target_name(name: object, fallback: str) -> str:
    if name is None or (isinstance(name, str) and not name.strip()):
        return fallback
    return dataset_name_clean(name)


def dataset_upload(
    *, project: Project, filename: str, data: bytes, name: object = None, author: Any = None
) -> DatasetVersion:
    """A file as a new dataset, or as the next version of the dataset called `name` (by
    default the name made from the file's name)."""
    target = _target_name(name, dataset_name_from_file(filename))  # cheap checks first
    parsed = parse_upload(data, filename, limits=dataset_limits())
    detail = f" ({parsed.detail})" if parsed.detail else ""
    return _version_add(
        project=project,
        name=target,
        parsed=parsed,
        label=f"uploaded {filename}{detail}",
        source_name=filename,
        author=author,
    )


def dataset_paste(
    *, project: Project, text: object, name: object = None, author: Any = None
) -> DatasetVersion:
    if not isinstance(text, str):
        raise DatasetRejected("invalid_text", "Paste the table as text.", param="text")
    target = _target_name(name, "pasted")
    limits = dataset_limits()
    limits = replace(limits, max_bytes=min(limits.max_bytes, PASTE_MAX_BYTES))
    parsed = parse_paste(text, limits=limits)
    return _version_add(
        project=project,
        name=target,
        parsed=parsed,
        label=f"pasted a table ({parsed.detail})",
        source_name=PASTED_SOURCE,
        author=author,
    )


def dataset_of_project(*, project: Project, name: str) -> Dataset:
    dataset = Dataset.objects.filter(project=project, name=name).first()
    if dataset is None:
        raise NotFound(
            "unknown_dataset",
            f'This project has no dataset "{name}" (renamed or deleted in another tab?).',
        )
    return dataset


def dataset_column_type_set(
    *, dataset: Dataset, column: object, kind: object, author: Any = None
) -> DatasetVersion:
    """A new version with `column` converted to `kind`; refused, naming the row, when a cell
    does not convert. Choosing the type a column already has changes nothing."""
    current = dataset.current_version
    if current is None:
        raise NotFound("unknown_dataset", "This dataset has no version yet.")
    index = next((i for i, c in enumerate(current.columns) if c["name"] == column), None)
    if index is None:
        raise DatasetRejected(
            "unknown_column", f'Dataset "{dataset.name}" has no column {column!r}.', param="column"
        )
    if not isinstance(kind, str) or kind not in COLUMN_TYPES:
        raise DatasetRejected(
            "invalid_type",
            f"{kind!r} is not a column type; choose one of {', '.join(COLUMN_TYPES)}.",
            param="type",
        )
    spec = current.columns[index]
    if spec["type"] == kind:
        return current
    rows = [list(row) for row in ROWS_CACHE.get(current.id, lambda: current.rows)]
    numbering = RowNumbering.from_stored(current.first_row, current.row_gaps)
    where = CellLocation(numbering=numbering, label=spec.get("label") or spec["name"])
    cells = convert_column([row[index] for row in rows], kind, where=where)
    for row, cell in zip(rows, cells, strict=True):
        row[index] = cell
    columns = [dict(c) for c in current.columns]
    columns[index]["type"] = kind
    parsed = ParsedTable(columns, rows, numbering, current.source_format, "")
    return _version_add(
        project=dataset.project,
        name=dataset.name,
        parsed=parsed,
        label=f"column {spec['name']}: {spec['type']} to {kind}",
        source_name=current.source_name,
        author=author,
    )


def dataset_rename(*, dataset: Dataset, name: object) -> Dataset:
    """Specs refer to datasets by name: ones that used the old name need editing after this."""
    cleaned = dataset_name_clean(name)
    if cleaned == dataset.name:
        return dataset
    taken = DatasetRejected(
        "name_taken", f'This project already has a dataset "{cleaned}".', param="name"
    )
    if Dataset.objects.filter(project=dataset.project_id, name=cleaned).exists():
        raise taken
    dataset.name = cleaned
    try:
        with transaction.atomic():
            dataset.save(update_fields=["name", "updated_at"])
    except IntegrityError:  # taken meanwhile
        raise taken from None
    return dataset


def dataset_delete(*, dataset: Dataset) -> None:
    dataset.delete()
