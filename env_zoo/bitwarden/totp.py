"""Authenticator (TOTP) keys: validation and RFC 6238 codes at the simulated time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, urlparse

from envfactory_gym import InvalidRequest

BASE32 = re.compile(r"^[A-Z2-7]+=*$")
ALGORITHMS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}


@dataclass(frozen=True)
class TotpKey:
    """A parsed authenticator key."""

    secret: bytes
    period: int = 30
    digits: int = 6
    algorithm: str = "SHA1"


def parse_key(value: str) -> TotpKey:
    """A base32 secret (spaces allowed) or an otpauth://totp/ URI; raises InvalidRequest when it is neither."""
    text = value.strip()
    options: dict[str, str] = {}
    if text.lower().startswith("otpauth://"):
        uri = urlparse(text)
        if uri.netloc.lower() != "totp":
            raise InvalidRequest("Only otpauth://totp/ authenticator keys are supported.")
        options = {k.lower(): v[0] for k, v in parse_qs(uri.query).items()}
        text = options.get("secret", "")
    secret = text.replace(" ", "").upper()
    if not secret or not BASE32.match(secret):
        raise InvalidRequest("The authenticator key is not a valid base32 secret or otpauth:// URI.")
    stripped = secret.rstrip("=")
    algorithm = options.get("algorithm", "SHA1").upper()
    if algorithm not in ALGORITHMS:
        raise InvalidRequest(f"Unsupported TOTP algorithm {algorithm}.")
    try:
        period, digits = int(options.get("period", 30)), int(options.get("digits", 6))
    except ValueError:
        raise InvalidRequest("The authenticator key's period and digits must be numbers.") from None
    if period < 1 or not 6 <= digits <= 10:
        raise InvalidRequest("The authenticator key's period or digits are out of range.")
    return TotpKey(base64.b32decode(stripped + "=" * (-len(stripped) % 8)), period, digits, algorithm)


def code_at(key: TotpKey, moment: datetime) -> tuple[str, int]:
    """The code valid at `moment` and the seconds it stays valid."""
    seconds = int(moment.timestamp())
    counter = seconds // key.period
    digest = hmac.new(key.secret, counter.to_bytes(8, "big"), ALGORITHMS[key.algorithm]).digest()
    offset = digest[-1] & 0x0F
    number = int.from_bytes(digest[offset : offset + 4], "big") & 0x7FFFFFFF
    return str(number % 10**key.digits).zfill(key.digits), key.period - seconds % key.period
