"""HTTP routes."""

from django.contrib import admin
from django.urls import path

from studio.web import views
from studio.web.api import views as api

urlpatterns = [
    path("", views.studio_new, name="studio"),
    path("p/<uuid:project_id>/", views.studio_project, name="project"),
    path("api/generations/<uuid:generation_id>", views.generation_detail, name="generation"),
    path("healthz", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("v1/chat/completions", api.chat_completions, name="api-chat-completions"),
    path("v1/chat/completions/<str:completion_id>", api.completion_detail, name="api-completion"),
    path("v1/models", api.models, name="api-models"),
    path("v1/views/<str:token>", api.view_document, name="api-view"),
]
