"""The companion's deal: a shuffle anyone can check once the hand is over.

A dealt game has one secret, the *match key* (32 random bytes from the operating system,
kept in the game's first event and never shown). Each hand ``k`` is shuffled from its
own seed, ``hand_seed(key, k) = HMAC-SHA256(key, "hand k")``, so publishing one hand's
seed tells nothing about the next hand's. Before hand ``k`` is played the game shows the
seed's *commitment*, ``SHA-256(seed)``; when the hand is over it shows the seed itself.
Anyone can then check that the seed matches the commitment and that shuffling with it
gives the hands that were dealt.

The shuffle is Python's own :meth:`random.Random.shuffle` (Fisher-Yates from the last
card down) driven by :class:`HashRandom`, whose random bits are SHA-256 in counter mode
over the seed: block ``i`` is ``SHA-256(seed || i as 8 bytes big-endian)``, read as a
big-endian number, its bits used lowest first. With a secret 256-bit seed nobody can
predict the order, and with the published seed everybody can recompute it.

>>> seed = bytes(range(32))
>>> commitment(seed)[:16]
'630dcd2966c43366'
>>> deck = list(range(10))
>>> HashRandom(seed).shuffle(deck)
>>> deck
[5, 9, 8, 3, 1, 6, 2, 7, 4, 0]
>>> hand_seed(b"k" * 32, 1) != hand_seed(b"k" * 32, 2)
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

SEED_BYTES = 32


def hand_seed(key: bytes, hand: int) -> bytes:
    """The seed of hand ``hand`` (1 is the first; 0 is the set-up, where there is one)."""
    return hmac.new(key, f"hand {hand}".encode("ascii"), hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """What is shown before the hand: ``SHA-256(seed)`` in hex."""
    return hashlib.sha256(seed).hexdigest()


class SecretDeal(ValueError):
    """A hand was to be shuffled from a seed that was never published (see :class:`Unpublished`)."""

    def __init__(self, hand: int) -> None:
        super().__init__(f"hand {hand}'s seed was never published: that hand's deal is secret")
        self.hand = hand


class Unpublished(random.Random):
    """The generator of a hand whose seed is still secret: a game replayed from what was
    published (an imported export) can fold every hand that was revealed, and stops with
    :class:`SecretDeal` the moment it would shuffle one that was not."""

    def __init__(self, hand: int) -> None:
        self.hand = hand
        super().__init__(0)

    def seed(self, a: Any = None, version: int = 2) -> None:  # noqa: D102 - random.Random calls it once
        return None

    def getrandbits(self, k: int) -> int:
        raise SecretDeal(self.hand)

    def random(self) -> float:
        raise SecretDeal(self.hand)


class HashRandom(random.Random):
    """A :class:`random.Random` whose bits are SHA-256 in counter mode over ``seed``
    (see the module notes); only :meth:`getrandbits` and :meth:`random` are its own,
    so ``shuffle``, ``randrange`` and ``choice`` draw through them."""

    def __init__(self, seed: bytes = b"\0" * SEED_BYTES) -> None:
        self._key = bytes(seed)
        self._counter = 0
        self._pool = 0  # unused bits, lowest first
        self._bits = 0
        super().__init__(0)

    def seed(self, a: Any = None, version: int = 2) -> None:  # noqa: D102 - random.Random calls it once
        return None

    def _more(self) -> None:
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool |= int.from_bytes(block, "big") << self._bits
        self._bits += 256

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._bits < k:
            self._more()
        out = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._bits -= k
        return out

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._counter, self._pool, self._bits)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._counter, self._pool, self._bits = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (HashRandom, (self._key,), self.getstate())

    def __setstate__(self, state: Any) -> None:
        self.setstate(state)


__all__ = ["HashRandom", "Unpublished", "SecretDeal", "hand_seed", "commitment", "SEED_BYTES"]
