"""HTTP routes."""

from django.contrib import admin
from django.urls import path

from studio.web import (
    accounts,
    datasets_api,
    exports,
    project_pages,
    projects_api,
    repl_panel,
    views,
    widgets,
    widgets_api,
)
from studio.web.api import repl as api_repl
from studio.web.api import tools as api_tools
from studio.web.api import views as api

urlpatterns = [
    path("", project_pages.projects_page, name="projects"),
    path("signin/", accounts.SigninView.as_view(), name="signin"),
    path("signin/<str:uidb64>/<str:token>/", accounts.signin_link, name="signin-link"),
    path("signout/", accounts.SignoutView.as_view(), name="signout"),
    path("projects/new", project_pages.project_new, name="project-new"),
    path("p/<uuid:project_id>/", views.studio_project, name="project"),
    path("p/<uuid:project_id>/view", project_pages.project_view, name="project-view"),
    path("p/<uuid:project_id>/rename", project_pages.project_rename_view, name="project-rename"),
    path(
        "p/<uuid:project_id>/duplicate",
        project_pages.project_duplicate_view,
        name="project-duplicate",
    ),
    path("p/<uuid:project_id>/delete", project_pages.project_delete_view, name="project-delete"),
    # A project's history and hand edits (studio/web/projects_api.py).
    path("p/<uuid:project_id>/versions", projects_api.versions, name="project-versions"),
    path(
        "p/<uuid:project_id>/versions/<uuid:version_id>",
        projects_api.version,
        name="project-version",
    ),
    path(
        "p/<uuid:project_id>/versions/<uuid:version_id>/revert",
        projects_api.revert,
        name="project-version-revert",
    ),
    path(
        "p/<uuid:project_id>/versions/<uuid:version_id>/fork",
        projects_api.fork,
        name="project-version-fork",
    ),
    path(
        "p/<uuid:project_id>/versions/<uuid:version_id>/export.html",
        exports.version_export_html_view,
        name="project-version-export-html",
    ),
    path(
        "p/<uuid:project_id>/versions/<uuid:version_id>/export.json",
        exports.version_export_json_view,
        name="project-version-export-json",
    ),
    path("p/<uuid:project_id>/diff", projects_api.diff, name="project-diff"),
    path("p/<uuid:project_id>/edit", projects_api.edit, name="project-edit"),
    path("p/<uuid:project_id>/undo", projects_api.undo, name="project-undo"),
    path("p/<uuid:project_id>/redo", projects_api.redo, name="project-redo"),
    # A project's datasets (studio/web/datasets_api.py).
    path("p/<uuid:project_id>/datasets", datasets_api.datasets, name="project-datasets"),
    path("p/<uuid:project_id>/datasets/upload", datasets_api.upload, name="dataset-upload"),
    path("p/<uuid:project_id>/datasets/paste", datasets_api.paste, name="dataset-paste"),
    path("p/<uuid:project_id>/datasets/<str:name>/rows", datasets_api.rows, name="dataset-rows"),
    path(
        "p/<uuid:project_id>/datasets/<str:name>/type",
        datasets_api.column_type,
        name="dataset-column-type",
    ),
    path(
        "p/<uuid:project_id>/datasets/<str:name>/rename",
        datasets_api.rename,
        name="dataset-rename",
    ),
    path(
        "p/<uuid:project_id>/datasets/<str:name>/delete",
        datasets_api.delete,
        name="dataset-delete",
    ),
    # Published widgets: the owner's endpoints, then the public page and its loader.
    path("p/<uuid:project_id>/widgets", widgets_api.widgets, name="project-widgets"),
    path(
        "p/<uuid:project_id>/widgets/<str:public_id>",
        widgets_api.widget_detail,
        name="project-widget",
    ),
    path(
        "p/<uuid:project_id>/widgets/<str:public_id>/unpublish",
        widgets_api.widget_unpublished,
        name="project-widget-unpublish",
    ),
    path("w/embed.js", widgets.embed_js, name="widget-embed-js"),
    path("w/<str:public_id>", widgets.widget, name="widget"),
    # A project's Python session, for the studio's panel (studio/web/repl_panel.py).
    path("p/<uuid:project_id>/repl/session", repl_panel.session, name="project-repl-session"),
    path("p/<uuid:project_id>/repl/cells", repl_panel.cells, name="project-repl-cells"),
    path("p/<uuid:project_id>/repl/run", repl_panel.run, name="project-repl-run"),
    path("p/<uuid:project_id>/repl/reset", repl_panel.reset, name="project-repl-reset"),
    path("p/<uuid:project_id>/repl/close", repl_panel.close, name="project-repl-close"),
    path("p/<uuid:project_id>/repl/ask", repl_panel.ask, name="project-repl-ask"),
    path("studio/catalog", projects_api.catalog, name="studio-catalog"),
    path("studio/tools", repl_panel.tools, name="studio-tools"),
    path("api/generations/<uuid:generation_id>", views.generation_detail, name="generation"),
    path("healthz", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("v1/chat/completions", api.chat_completions, name="api-chat-completions"),
    path("v1/chat/completions/<str:completion_id>", api.completion_detail, name="api-completion"),
    path("v1/models", api.models, name="api-models"),
    path("v1/views/<str:token>", api.view_document, name="api-view"),
    path("v1/repl/sessions", api_repl.sessions, name="api-repl-sessions"),
    path("v1/repl/sessions/<str:session_id>", api_repl.session_detail, name="api-repl-session"),
    path(
        "v1/repl/sessions/<str:session_id>/execute",
        api_repl.session_execute,
        name="api-repl-execute",
    ),
    path("v1/repl/sessions/<str:session_id>/reset", api_repl.session_reset, name="api-repl-reset"),
    path("v1/repl/sessions/<str:session_id>/cells", api_repl.session_cells, name="api-repl-cells"),
    path("v1/tools", api_tools.tools, name="api-tools"),
    path("v1/tools/<str:name>", api_tools.tool_detail, name="api-tool"),
    path("v1/tools/<str:name>/activate", api_tools.tool_activate, name="api-tool-activate"),
]
