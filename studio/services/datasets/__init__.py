"""Datasets a designer owns: tables uploaded (CSV, TSV, JSON, XLSX) or pasted into a project,
typed by column, versioned on every re-upload or type correction.

Writes are in `writes`, reads in `reads`; the modules beside them read and type the files.
Renders call `project_tables`, prompts `project_profiles_text` / `project_prompt_with_tables`.
"""

from studio.services.datasets.limits import DatasetLimits, DatasetRejected, dataset_limits
from studio.services.datasets.reads import (
    dataset_preview,
    datasets_of_project,
    project_profiles_text,
    project_prompt_with_tables,
    project_tables,
)
from studio.services.datasets.writes import (
    dataset_column_type_set,
    dataset_delete,
    dataset_of_project,
    dataset_paste,
    dataset_rename,
    dataset_upload,
)

__all__ = [
    "DatasetLimits",
    "DatasetRejected",
    "dataset_column_type_set",
    "dataset_delete",
    "dataset_limits",
    "dataset_of_project",
    "dataset_paste",
    "dataset_preview",
    "dataset_rename",
    "dataset_upload",
    "datasets_of_project",
    "project_profiles_text",
    "project_prompt_with_tables",
    "project_tables",
]
