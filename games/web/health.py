"""``/healthz``, for load balancers and monitors (docs/deployment.md)."""

from __future__ import annotations

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_safe

from games.models import Game
from games.runner import readiness
from games.services.fallback_cache import FallbackRedisCache, redis_down


@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """The process answers and the database does too (else the database middleware's 503).
    With ``?computer``, 503 until the computer has loaded its searches (scripts/serve).
    Redis unreachable: 503 with ``"status": "degraded"``, though the site still serves;
    with ``?degraded=ok`` 200 then, for a load balancer that should keep sending players."""
    Game.objects.exists()
    if "computer" in request.GET and not readiness.computer_ready():
        waiting = HttpResponse("the computer is getting ready", content_type="text/plain", status=503)
        waiting._has_been_logged = True  # type: ignore[attr-defined]  # expected while starting: no error log
        return waiting
    state = health_state()
    degraded = state["status"] != "ok"
    response = JsonResponse(state, status=503 if degraded and request.GET.get("degraded") != "ok" else 200)
    if degraded:
        response["Retry-After"] = "5"
        response._has_been_logged = True  # type: ignore[attr-defined]  # the cache logged the outage once
    response["Cache-Control"] = "no-store"
    return response


def health_state() -> dict[str, str]:
    redis = "unused"
    if any(isinstance(caches[alias], FallbackRedisCache) for alias in ("default", "live")):
        caches["default"].get("healthz")  # reaches Redis at most once per retry interval
        redis = "unreachable" if redis_down() else "ok"
    return {"status": "degraded" if redis == "unreachable" else "ok", "database": "ok", "redis": redis}
