"""WebSocket routes."""

from django.urls import path

from studio.web.consumers import StudioConsumer

websocket_urlpatterns = [path("ws/studio/", StudioConsumer.as_asgi())]
