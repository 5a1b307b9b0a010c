"""The pre-flight check of a benchmark's endpoint: it answers `GET /models` and serves the model asked for, before
anything is played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

try:  # the HTTP client the LLM client uses (see envfactory_gym.llm.client)
    import httpx2 as httpx
except ImportError:  # pragma: no cover - depends on the installed stack
    import httpx  # type: ignore[no-redef]


class EndpointCheckError(ValueError):
    """The endpoint cannot be used for the run: unreachable, rejecting the key, or not serving the model."""


@dataclass(frozen=True)
class EndpointInfo:
    """What the endpoint says about itself: its URL (without credentials or query), its kind (the served model's
    `owned_by`, e.g. `vllm`, or `openai-compatible`), and the context length when it reports one (vLLM's
    `max_model_len`). `listed` is False for an endpoint that does not list its models (the check was skipped)."""

    url: str
    kind: str
    max_model_len: int | None = None
    listed: bool = True

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"url": self.url, "kind": self.kind, "max_model_len": self.max_model_len, "listed": self.listed}


def public_url(url: str) -> str:
    """The URL without user information, query or fragment (what may be written into a report)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


def check_endpoint(base_url: str, model: str, api_key: str | None = None, timeout: float = 30.0) -> EndpointInfo:
    """`GET {base_url}/models` and check that `model` is among the listed ids. Raises `EndpointCheckError` with a
    one-line reason when the endpoint is unreachable, answers an error (401/403: the key) or does not serve the
    model (the served names are given). An endpoint without a `/models` route (404) passes unchecked."""
    url = base_url.rstrip("/") + "/models"
    shown = public_url(base_url)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        response = httpx.get(url, headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise EndpointCheckError(f"{shown}: GET /models timed out after {timeout:g} s") from None
    except httpx.HTTPError as exc:
        raise EndpointCheckError(f"cannot reach {shown}: {type(exc).__name__}: {exc}") from None
    if response.status_code == 404:
        return EndpointInfo(shown, "openai-compatible", listed=False)
    if response.status_code in (401, 403):
        raise EndpointCheckError(
            f"{shown} rejected the API key (HTTP {response.status_code}): set --api-key or ENVFACTORY_LLM_API_KEY"
        )
    if response.status_code >= 400:
        raise EndpointCheckError(f"{shown}: GET /models answered HTTP {response.status_code}: {response.text[:200]}")
    try:
        listed = response.json().get("data") or []
        entries = {str(entry["id"]): entry for entry in listed}
    except (ValueError, AttributeError, KeyError, TypeError):
        raise EndpointCheckError(f"{shown}: GET /models did not answer an OpenAI model list") from None
    if model not in entries:
        served = ", ".join(sorted(entries)[:10]) or "none"
        raise EndpointCheckError(f"{shown} does not serve {model!r} (it serves: {served})")
    entry = entries[model]
    length = entry.get("max_model_len")
    return EndpointInfo(
        shown, str(entry.get("owned_by") or "openai-compatible"), int(length) if isinstance(length, int) else None
    )
