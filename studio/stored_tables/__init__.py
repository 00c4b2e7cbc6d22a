"""A project's datasets as stored, read back as `ui4a.tables.Table`s: the compact row storage,
its per-process cache, previews and the profiles the ui expert is shown.

The read side only, below the services (which write datasets, `studio.services.datasets`), so
renders (`studio.rendered_views`) and reads (`studio.selectors`) can resolve a spec's queries.
"""

from studio.stored_tables.reads import (
    dataset_preview,
    datasets_of_project,
    project_profiles_text,
    project_prompt_with_tables,
    project_tables,
)

__all__ = [
    "dataset_preview",
    "datasets_of_project",
    "project_profiles_text",
    "project_prompt_with_tables",
    "project_tables",
]
