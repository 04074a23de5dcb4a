"""PKCE (RFC 7636, S256 only) and the sign-in `state`: the random values one authorization carries.

The verifier stays in the worker's memory; only its S256 challenge travels in the authorization URL, so
a code caught on its way back to the page is worth nothing without it. `plain` is never used.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

METHOD = "S256"


def verifier() -> str:
    """A fresh code verifier: 64 characters of the unreserved alphabet (RFC 7636 asks 43 to 128)."""
    return secrets.token_urlsafe(48)


def challenge(code_verifier: str) -> str:
    """BASE64URL(SHA256(verifier)) without padding."""
    digest = hashlib.sha256(code_verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def state() -> str:
    """An unguessable value that ties the redirect back to the sign-in the page started."""
    return secrets.token_urlsafe(24)
