"""Vault item rules: what each item type may hold and how its parts are validated, password history, and
matching items against a search text or a website."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

from envfactory_gym import InvalidRequest

from .inputs import CardInput, FieldInput, IdentityInput, LoginInput, UriInput
from .totp import parse_key

LOGIN, SECURE_NOTE, CARD, IDENTITY = 1, 2, 3, 4
TYPE_NAMES = {LOGIN: "login", SECURE_NOTE: "secure note", CARD: "card", IDENTITY: "identity"}
PASSWORD_HISTORY_SIZE = 5
MAX_NAME = 1000


def clean_name(name: str) -> str:
    """An item, folder or Send name as stored: trimmed (its argument type requires 1 to MAX_NAME characters)."""
    return name.strip()


def uris(values: list[UriInput]) -> list[dict[str, Any]]:
    """Validated login URIs as stored."""
    stored = []
    for value in values:
        text = value.uri.strip()
        if not text:
            raise InvalidRequest("A login URI can't be empty.")
        if value.match == 4:
            try:
                re.compile(text)
            except re.error:
                raise InvalidRequest(f"'{text}' is not a valid regular expression.") from None
        stored.append({"match": value.match, "uri": text})
    return stored


def totp(value: str | None) -> str | None:
    """A validated authenticator key ("" clears it)."""
    if value is None or not value.strip():
        return None
    parse_key(value)
    return value.strip()


def card(value: CardInput) -> dict[str, Any]:
    """A validated card as stored."""
    data = value.model_dump()
    if data["number"] is not None:
        digits = data["number"].replace(" ", "").replace("-", "")
        if not digits.isdigit() or not 12 <= len(digits) <= 19:
            raise InvalidRequest("A card number has 12 to 19 digits.")
        data["number"] = digits
    if data["expMonth"] is not None:
        data["expMonth"] = str(int(data["expMonth"]))
    return data


def identity(value: IdentityInput) -> dict[str, Any]:
    """A validated identity as stored."""
    return value.model_dump()


def custom_fields(values: list[FieldInput]) -> list[dict[str, Any]]:
    """Validated custom fields as stored."""
    stored = []
    for value in values:
        if not value.name.strip():
            raise InvalidRequest("A custom field needs a name.")
        if value.type == 2 and value.value not in ("true", "false"):
            raise InvalidRequest(f"The boolean field '{value.name}' must be 'true' or 'false'.")
        stored.append({"name": value.name.strip(), "value": value.value, "type": value.type})
    return stored


def content(
    item_type: int, login: LoginInput | None, card_value: CardInput | None, identity_value: IdentityInput | None
) -> dict[str, Any]:
    """The type-specific columns of a new item; a part given for another type is refused."""
    for part, owner, label in (
        (login, LOGIN, "login"),
        (card_value, CARD, "card"),
        (identity_value, IDENTITY, "identity"),
    ):
        if part is not None and item_type != owner:
            raise InvalidRequest(f"A {TYPE_NAMES[item_type]} item (type {item_type}) can't have {label} details.")
    values: dict[str, Any] = {
        "login_username": None,
        "login_password": None,
        "login_uris": None,
        "login_totp": None,
        "card": None,
        "identity": None,
    }
    if item_type == LOGIN:
        login = login or LoginInput()
        values.update(
            login_username=login.username,
            login_password=login.password,
            login_uris=uris(login.uris),
            login_totp=totp(login.totp),
        )
    elif item_type == CARD:
        values["card"] = card(card_value or CardInput())
    elif item_type == IDENTITY:
        values["identity"] = identity(identity_value or IdentityInput())
    return values


def retire_password(item: dict[str, Any], now: str) -> list[dict[str, Any]]:
    """The password history after the current password is replaced (newest first, five at most)."""
    if not item["login_password"]:
        return item["password_history"]
    entry = {"lastUsedDate": now, "password": item["login_password"]}
    return [entry, *item["password_history"]][:PASSWORD_HISTORY_SIZE]


def host(url: str) -> str:
    """The host name of a URI or bare domain, without www."""
    text = url.strip().lower()
    parsed = urlparse(text if "://" in text else f"https://{text}")
    name = parsed.hostname or ""
    return name.removeprefix("www.")


def base_domain(url: str) -> str:
    """The registrable domain (the last two labels, three for country second levels such as co.uk)."""
    labels = host(url).split(".")
    keep = 3 if len(labels) > 2 and labels[-2] in ("co", "com", "org", "ac", "gov") and len(labels[-1]) == 2 else 2
    return ".".join(labels[-keep:])


def matches_url(item: dict[str, Any], url: str) -> bool:
    """Whether a login would be offered for autofill on `url` under its URIs' match detection."""
    for entry in item["login_uris"] or []:
        match, uri = entry["match"], entry["uri"]
        if match in (None, 0) and base_domain(uri) == base_domain(url):
            return True
        if match == 1 and host(uri) == host(url):
            return True
        if match == 2 and url.startswith(uri):
            return True
        if match == 3 and url == uri:
            return True
        if match == 4 and re.search(uri, url, re.IGNORECASE):
            return True
    return False


def matches_search(item: dict[str, Any], text: str) -> bool:
    """Bitwarden's vault search: the name, the username, the URIs, a card's brand, or the ID."""
    needle = text.strip().casefold()
    haystack = [item["id"], item["name"], item["login_username"] or ""]
    haystack += [u["uri"] for u in item["login_uris"] or []]
    if item["card"]:
        haystack.append(item["card"].get("brand") or "")
    return any(needle in value.casefold() for value in haystack)
