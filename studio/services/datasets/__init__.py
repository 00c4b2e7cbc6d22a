"""Datasets a designer owns: tables uploaded (CSV, TSV, JSON, XLSX) or pasted into a project,
typed by column, versioned on every re-upload or type correction.

Writes are in `writes`; the modules beside them read and type the files. Reading stored
datasets back is `studio.stored_tables` (renders call `project_tables`, prompts
`project_prompt_with_tables`), re-exported here for the web side.
"""

from studio.services.datasets.limits import DatasetLimits, DatasetRejected, dataset_limits
from studio.services.datasets.writes import (
    dataset_column_type_set,
    dataset_delete,
    dataset_of_project,
    dataset_paste,
    dataset_rename,
    dataset_upload,
)
from studio.stored_tables.reads import (
    dataset_preview,
    datasets_of_project,
    project_profiles_text,
    project_prompt_with_tables,
    project_tables,
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
