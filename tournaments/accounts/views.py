"""The password-reset request, throttled per address and per e-mail without telling anyone it was."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpResponseRedirect

from config.security import client_ip

HOUR = 3600


def _over_limit(key: str) -> bool:
    """Count one request under ``key`` for an hour; True once the hour's count passes the limit."""
    limit = settings.ZAP_PASSWORD_RESETS_PER_HOUR
    try:
        if cache.add(key, 1, HOUR):
            count = 1
        else:
            count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, HOUR)
        count = 1
    except Exception:  # the cache is down: let the request through (the per-account mail is still one link)
        return False
    return count > limit


def reset_throttled(*, address: str | None, email: str) -> bool:
    """Count a reset request from ``address`` for ``email``; True when either is over its hourly limit."""
    mail_key = hashlib.sha256(email.strip().casefold().encode()).hexdigest()[:32]
    by_address = _over_limit(f"zap:reset:ip:{address or '-'}")
    by_email = _over_limit(f"zap:reset:email:{mail_key}")
    return by_address or by_email


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's reset request; beyond ZAP_PASSWORD_RESETS_PER_HOUR (per address, per e-mail) the same
    "se houver uma conta…" page answers and no mail goes out."""

    def form_valid(self, form):
        if reset_throttled(address=client_ip(self.request), email=form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
