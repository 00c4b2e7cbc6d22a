"""The ASGI entry point Daphne serves: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from studio.web.body_limit import BodyLimit  # noqa: E402
from studio.web.origins import SameOriginWebSockets  # noqa: E402
from studio.web.routing import websocket_urlpatterns  # noqa: E402

# The largest body the studio takes is a dataset upload, plus its multipart framing; the API's
# are small, and are refused here too, before Django spools them.
BODY_LIMIT = settings.MACARON_DATASET_MAX_BYTES + 256 * 1024
API_BODY_LIMIT = settings.MACARON_API_MAX_BODY_BYTES

application = ProtocolTypeRouter(
    {
        "http": BodyLimit(django_asgi_app, BODY_LIMIT, by_prefix={"/v1/": API_BODY_LIMIT}),
        # The session cookie's user is scope["user"] (the studio consumer takes no one else);
        # the origin check (scheme, host and port) keeps other sites from riding on it.
        "websocket": SameOriginWebSockets(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
