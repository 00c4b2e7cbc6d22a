"""HTTP routes."""

from django.urls import path

from studio import views

urlpatterns = [
    path("", views.studio_new, name="studio"),
    path("p/<uuid:project_id>/", views.studio_project, name="project"),
    path("api/generations/<uuid:generation_id>", views.generation_detail, name="generation"),
    path("healthz", views.health, name="health"),
]
