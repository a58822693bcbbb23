"""Plumbing the rummy rule modules share: option fields, presets, overrides, hands.

:mod:`companion.rules.gin`, :mod:`~companion.rules.color_gin` and
:mod:`~companion.rules.ginski` build their options and read their hands the same way;
what differs between them comes in as arguments: the ``Options`` class, the game's
name as its messages spell it (the module's name: ``gin``, ``color_gin``, ``ginski``),
the deck, how many cards a seat may hold and the words of the messages that differ.

Every check raises ``ValueError`` naming what is wrong (a refusal about one seat's cards an
:func:`companion.errors.refusal`, a ``ValueError`` whose details name the field and seat), as the module surface in
:mod:`companion.rules.base` promises.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from companion.errors import refusal
from companion import cards as C
from companion.rules.base import HandResult

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
OptionsT = TypeVar("OptionsT", bound="DataclassInstance")


def option_field(default: T, help_text: str, choices: tuple[T, ...] | None = None, *,
                 minimum: int | None = None) -> T:
    """A dataclass field for one option: its ``default``, a one-line ``help`` for the
    new-game screen, for an enumerated option its ``choices``, and for a whole number
    its ``minimum`` when that is not 0 (a target of 0 would end the match at once).

    >>> @dataclasses.dataclass(frozen=True)
    ... class Demo:
    ...     side: str = option_field("left", "which side", ("left", "right"))
    >>> dataclasses.fields(Demo)[0].metadata["choices"]
    ('left', 'right')
    """
    meta: dict[str, object] = {"help": help_text}
    if choices is not None:
        meta["choices"] = choices
    if minimum is not None:
        meta["min"] = minimum
    return dataclasses.field(default=default, metadata=meta)


#: The largest number any option takes (bonuses, targets, limits): far above any real
#: game, small enough for a phone to show.
OPTION_INT_MAX = 100_000


def check_option_fields(options: DataclassInstance, game: str) -> None:
    """Check every field of the dataclass ``options`` against its declaration: one of
    the field's ``choices`` where it has some, then true or false where the default is
    a bool, a whole number from the field's ``min`` (else 0) to :data:`OPTION_INT_MAX`
    where the default is an int. Messages start with
    ``"<game> option <name>"``.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Demo:
    ...     size: int = option_field(3, "how many", (2, 3))
    >>> check_option_fields(Demo(size=4), "demo")
    Traceback (most recent call last):
    ...
    ValueError: demo option size=4 is not one of 2, 3
    """
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        choices = f.metadata.get("choices")
        if choices is not None and value not in choices:
            raise ValueError(
                f"{game} option {f.name}={value!r} is not one of {', '.join(map(str, choices))}"
            )
        if isinstance(f.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{game} option {f.name} must be true or false, got {value!r}")
        elif isinstance(f.default, int) and (
            not isinstance(value, int) or isinstance(value, bool)
            or not f.metadata.get("min", 0) <= value <= OPTION_INT_MAX
        ):
            raise ValueError(f"{game} option {f.name} must be a whole number from {f.metadata.get('min', 0)} "
                             f"to {OPTION_INT_MAX}, got {value!r}")


def with_overrides(options: OptionsT, overrides: Mapping[str, object], game: str) -> OptionsT:
    """``options`` with ``overrides`` applied (the dataclass checks the values); an
    unknown option name raises ``ValueError`` listing the known ones, sorted."""
    known = {f.name for f in dataclasses.fields(options)}
    for key in overrides:
        if key not in known:
            raise ValueError(f"unknown {game} option {key!r} (one of {', '.join(sorted(known))})")
    return dataclasses.replace(options, **overrides)


def preset_options(
    presets: Mapping[str, OptionsT], preset: str | None, default: str, game: str,
    aliases: Mapping[str, str] | None = None,
) -> OptionsT:
    """The options of ``preset`` (``default`` when None); ``aliases`` maps other
    accepted names to preset names. An unknown name raises ``ValueError`` listing the
    presets, then the aliases.

    >>> preset_options({"a": 1, "b": 2}, "bee", "a", "demo", {"bee": "b"})
    2
    >>> preset_options({"a": 1}, "c", "a", "demo")
    Traceback (most recent call last):
    ...
    ValueError: unknown demo preset 'c' (one of a)
    """
    aliases = aliases or {}
    if preset is not None and not isinstance(preset, str):
        raise ValueError(f"a {game} preset is a name (one of {', '.join([*presets, *aliases])}), not {preset!r}")
    name = default if preset is None else aliases.get(preset, preset)
    if name not in presets:
        names = ", ".join([*presets, *aliases])
        raise ValueError(f"unknown {game} preset {preset!r} (one of {names})")
    return presets[name]


def resolve_options(
    preset: str | None,
    options: OptionsT | None,
    overrides: dict[str, Any],
    *,
    cls: type[OptionsT],
    game: str,
    make: Callable[..., OptionsT],
    apply: Callable[[OptionsT, dict[str, Any]], OptionsT] | None = None,
) -> OptionsT:
    """The options a scoring call works with: ``make(preset, **overrides)`` (the
    module's ``make_options``) when no ``options`` are given, else ``options`` with
    the ``overrides`` on top, through ``apply(options, overrides)`` or, without it,
    :func:`with_overrides`. Both a preset and options, or options that are not a
    ``cls``, raise ``ValueError``."""
    if options is None:
        return make(preset, **overrides)
    if preset is not None:
        raise ValueError("give either a preset or options, not both")
    if not isinstance(options, cls):
        raise ValueError(f"options must be {game}.Options, not {type(options).__name__}")
    if apply is None:
        return with_overrides(options, overrides, game)
    return apply(options, overrides)


def read_seat_hands(
    hands: Sequence[Any],
    players: int,
    deck: int,
    *,
    players_text: str,
    not_in_deck: str,
    count_error: Callable[[int, int], str | None],
) -> list[int]:
    """Each seat's cards as a mask, from ``hands`` in seat order (card names, ints or a
    mask per seat).

    There must be ``players`` hands (else ``"<players_text>: expected N hands, got
    M"``). Seat by seat the cards must parse, lie in ``deck`` (else ``"seat S: <cards>
    <not_in_deck>"``), not be in an earlier seat's hand, and number what
    ``count_error(seat, count)`` accepts: it returns None, or what the seat should hold
    (``"seat S holds N cards; <that>"``).

    >>> read_seat_hands(["AS 2S", "3S"], 2, C.STANDARD_DECK, players_text="two",
    ...                 not_in_deck="is foreign", count_error=lambda seat, n: None)
    [3, 4]
    >>> read_seat_hands(["AS 2S", "2S"], 2, C.STANDARD_DECK, players_text="two",
    ...                 not_in_deck="is foreign", count_error=lambda seat, n: None)
    Traceback (most recent call last):
    ...
    companion.errors.IllegalAction: seat 1: 2S is already in another hand
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ValueError("hands must be a list with each player's cards in seat order")
    if len(hands) != players:
        raise ValueError(f"{players_text}: expected {players} hands, got {len(hands)}")
    masks: list[int] = []
    seen = 0
    for seat, hand in enumerate(hands):
        try:
            mask = C.to_mask(hand)
        except ValueError as exc:
            raise refusal(f"seat {seat}: {exc}", field="hands", seat=seat) from None
        foreign = mask & ~deck
        if foreign:
            raise refusal(f"seat {seat}: {', '.join(C.mask_names(foreign))} {not_in_deck}", field="hands", seat=seat)
        dup = mask & seen
        if dup:
            names = ", ".join(C.mask_names(dup))
            raise refusal(f"seat {seat}: {names} is already in another hand", field="hands", seat=seat)
        seen |= mask
        count = mask.bit_count()
        expected = count_error(seat, count)
        if expected is not None:
            raise refusal(f"seat {seat} holds {count} cards; {expected}", field="hands", seat=seat)
        masks.append(mask)
    return masks


def check_result(
    result: HandResult, number: int, players: int, variant: str, game_title: str,
    noun: str = "hand",
) -> None:
    """Check that ``result``, the ``number``-th (from 1) of a match, is a ``variant``
    result with points for ``players`` seats; messages call it ``"<noun> <number>"``
    and the game ``game_title``.

    >>> check_result(HandResult("gin", "void", None, None, [0, 0], [0, 0]), 3, 2,
    ...              "ginski", "Ginski", "round")
    Traceback (most recent call last):
    ...
    ValueError: round 3 is a gin result, not Ginski
    """
    if result.variant != variant:
        raise ValueError(f"{noun} {number} is a {result.variant} result, not {game_title}")
    if len(result.points) != players:
        raise ValueError(
            f"{noun} {number} has points for {len(result.points)} seats, not {players}")


__all__ = [
    "OPTION_INT_MAX", "option_field", "check_option_fields", "with_overrides", "preset_options",
    "resolve_options", "read_seat_hands", "check_result",
]
