"""The local web API (contract v1), its live channel and pairing; see :mod:`.app`."""

from companion.api.app import create_app

__all__ = ["create_app"]
