"""Signing in (the password form, or a one-time link) and signing out."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from studio.services.accounts import signin_link_user

TEMPLATE = "accounts/signin.html"
LINK_REFUSED = (
    "This sign-in link has expired or was already used. Each link works once: run "
    "manage.py signin_url for a new one, or sign in with a password below."
)


class SigninView(LoginView):
    template_name = TEMPLATE
    redirect_authenticated_user = True


class SignoutView(LogoutView):
    """POST only (Django's LogoutView refuses GET), so a link cannot sign anyone out."""


@never_cache
@require_GET
def signin_link(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """Sign in by a link `manage.py signin_url` printed. Signing in moves the user's
    last_login, which the token is bound to: the link is dead once it has worked."""
    user = signin_link_user(uidb64=uidb64, token=token)
    if user is None:
        context = {"form": AuthenticationForm(request), "link_error": LINK_REFUSED}
        return render(request, TEMPLATE, context, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = settings.LOGIN_REDIRECT_URL
    return redirect(target)
