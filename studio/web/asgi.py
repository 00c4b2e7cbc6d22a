"""The ASGI entry point Daphne serves: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from studio.services.datasets.writes import PASTE_MAX_BYTES  # noqa: E402
from studio.web.body_limit import BodyLimit  # noqa: E402
from studio.web.origins import SameOriginWebSockets  # noqa: E402
from studio.web.routing import websocket_urlpatterns  # noqa: E402

# Only a dataset upload is large (its limit plus multipart framing). Every other studio body
# is a small JSON document or a pasted table, and the API's are small: each is refused here,
# before Django spools it.
UPLOAD_BODY_LIMIT = settings.MACARON_DATASET_MAX_BYTES + 256 * 1024
STUDIO_BODY_LIMIT = PASTE_MAX_BYTES + 64 * 1024
API_BODY_LIMIT = settings.MACARON_API_MAX_BODY_BYTES

application = ProtocolTypeRouter(
    {
        "http": BodyLimit(
            django_asgi_app,
            STUDIO_BODY_LIMIT,
            by_prefix={"/v1/": API_BODY_LIMIT},
            by_suffix={"/datasets/upload": UPLOAD_BODY_LIMIT},
        ),
        # The session cookie's user is scope["user"] (the studio consumer takes no one else);
        # the origin check (scheme, host and port) keeps other sites from riding on it.
        "websocket": SameOriginWebSockets(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
