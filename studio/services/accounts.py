"""Accounts: the user `make run` signs in as, and one-time sign-in links.

A link carries Django's password-reset token under a salt of its own, hashed over the user's
last login to the microsecond: signing in moves `last_login`, so a used link is dead by
construction and nothing has to be stored. Links also expire after
`MACARON_SIGNIN_LINK_SECONDS`.
"""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_decode, urlsafe_base64_encode

from studio.errors import InvalidRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import _User  # the configured user model, for mypy

# A token is "<base36 seconds>-<32 hex>"; anything much longer is not one of ours.
TOKEN_MAX_CHARS = 64
UID_MAX_CHARS = 64
FALLBACK_USERNAME = "designer"


class SigninTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "macaron.studio.SigninTokenGenerator"

    def _make_hash_value(self, user: _User, timestamp: int) -> str:
        # Django truncates last_login to the second for databases that drop microseconds;
        # ours keep them, and a link signed and used within one second must still die.
        login = "" if user.last_login is None else user.last_login.isoformat()
        active = getattr(user, "is_active", True)
        return f"{user.pk}|{user.password}|{login}|{active}|{timestamp}"

    def check_token(self, user: _User | None, token: str | None) -> bool:
        """Like Django's, but bounded in size and aged by our own setting, not
        PASSWORD_RESET_TIMEOUT (which governs password resets)."""
        if user is None or not token or len(token) > TOKEN_MAX_CHARS:
            return False
        stamp, dash, _ = token.partition("-")
        if not dash:
            return False
        try:
            issued = base36_to_int(stamp)
        except ValueError:
            return False
        age = self._num_seconds(self._now()) - issued
        if not 0 <= age <= settings.MACARON_SIGNIN_LINK_SECONDS:
            return False
        return any(
            constant_time_compare(self._make_token_with_timestamp(user, issued, secret), token)
            for secret in [self.secret, *self.secret_fallbacks]
        )


signin_tokens = SigninTokenGenerator()


def _default_username() -> str:
    """The OS account's name, as Jupyter-style local tools do; a fixed one if it won't do."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return FALLBACK_USERNAME
    try:
        _validate_username(name)
    except InvalidRequest:
        return FALLBACK_USERNAME
    return name


def _validate_username(username: str) -> None:
    User = get_user_model()
    field = User._meta.get_field(User.USERNAME_FIELD)
    limit = getattr(field, "max_length", None) or 150
    if not username or len(username) > limit:
        raise InvalidRequest(
            "invalid_username", f"A username has 1 to {limit} characters.", param="username"
        )
    try:
        User.username_validator(username)
    except ValidationError as exc:
        raise InvalidRequest("invalid_username", " ".join(exc.messages), param="username") from exc


def signin_user_ensure(*, username: str | None = None) -> tuple[Any, bool]:
    """The user a sign-in link is for, and whether it was just created.

    A named user is created if missing (a plain user). With no name: the first superuser, else
    the first active user; on an install without users, a superuser named after the OS account,
    so whoever ran `make run` can also manage users in the admin. New users get no usable
    password: they sign in by link until an admin sets one.
    """
    User = get_user_model()
    manager: Any = User._default_manager
    if username is not None:
        _validate_username(username)
        existing = manager.filter(**{User.USERNAME_FIELD: username}).first()
        if existing is not None:
            return existing, False
        return manager.create_user(username, password=None), True
    first = manager.filter(is_active=True).order_by("-is_superuser", "date_joined", "pk").first()
    if first is not None:
        return first, False
    return manager.create_superuser(_default_username(), email="", password=None), True


def signin_path(*, user: _User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("signin-link", args=[uid, signin_tokens.make_token(user)])


def signin_link_user(*, uidb64: str, token: str) -> Any:
    """The active user a sign-in link is for, if its token is good now; otherwise None."""
    if len(uidb64) > UID_MAX_CHARS:
        return None
    try:
        pk = urlsafe_base64_decode(uidb64).decode()
        user = get_user_model()._default_manager.filter(pk=pk, is_active=True).first()
    except (ValueError, UnicodeDecodeError, ValidationError):
        return None
    if user is None or not signin_tokens.check_token(user, token):
        return None
    return user


def signin_url(*, user: _User, base_url: str) -> str:
    """The one-time link for `user` on the studio at `base_url` (e.g. http://127.0.0.1:8000)."""
    return base_url.rstrip("/") + signin_path(user=user)
