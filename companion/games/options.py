"""One options mechanism for every game, and the one place options are described and
checked: each option described the same way (:class:`OptionSpec`, read from the rules
module's ``Options`` dataclass), every value checked by :meth:`OptionSpec.check` (an
override from the API, a preset, a record a rules module builds: :func:`check_record`),
every preset named in plain words (:class:`Preset`). A refused value is an
:class:`~companion.errors.InvalidInput` with code ``invalid_options`` (a ``ValueError``
too, as the rules modules' callers expect).

A game's options are a frozen dataclass in its rules module whose fields are made with
:func:`option_field` (``help``, ``choices``, ``min``) and whose ``__post_init__`` calls
:func:`check_record`; presets are records of it. The rules modules build their options
with :func:`preset_options`, :func:`with_overrides` and :func:`resolve_options`, so
whatever fields a rules module adds are described, checked and served to the phone with
no change here. This module imports nothing of the games above it (the rules modules
import it).

>>> from companion.games.gin import rules as gin
>>> specs = {s.name: s for s in option_specs(gin.Options, {"knock_limit": "Knock limit"})}
>>> s = specs["knock_limit"]
>>> s.kind, s.default, s.label, s.maximum
('int', 10, 'Knock limit', 100000)
>>> specs["stock_end"].kind, specs["stock_end"].choices
('choice', ('void_at_2', 'showdown_at_2'))
>>> s.check(11, "Gin Rummy")
11
>>> s.check(True, "Gin Rummy")
Traceback (most recent call last):
...
companion.errors.InvalidInput: Gin Rummy option knock_limit must be a whole number from 0 to 100000, got True
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from companion import cards as C
from companion.errors import InvalidInput

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

OptionKind = Literal["bool", "int", "choice", "card", "text"]
T = TypeVar("T")
OptionsT = TypeVar("OptionsT", bound="DataclassInstance")

#: How well a dealt game's bots play (``options.bot_level``): the choices and their help,
#: one field every game's options share (:func:`bot_level_field`).
BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
BOT_LEVEL_HELP = ("how well the companion's bots play: easy makes a beginner's mistakes, normal plays "
                  "sound cards, strong also reads what the others took and threw and weighs the unseen cards")


#: one line per level, for the new-game and Play screens (and the docs); a game whose bots
#: play differently says so with its own (:attr:`companion.games.base.Variant.level_words`)
BOT_LEVEL_WORDS: dict[str, str] = {
    "easy": "Easy: plays for the least deadwood and nothing more; a beginner can beat it.",
    "normal": "Normal: plays sound cards, knocks in time, keeps its discards safe.",
    "strong": "Strong: also reads what you took and threw, and weighs the unseen cards before it knocks.",
}


def same_as_normal(game: str) -> str:
    """The strong level's line in a game whose strong bot is the normal one, said plainly.

    >>> same_as_normal("Ginski")
    'Strong: in Ginski the same bot as Normal, for now (no stronger one has beaten it yet).'
    """
    return f"Strong: in {game} the same bot as Normal, for now (no stronger one has beaten it yet)."


def bot_level_field() -> str:
    """The ``bot_level`` option of every game (dealt play only): ``"strong"`` unless set
    (the strongest bot measured: a player who wants an easier one asks for it)."""
    return option_field("strong", BOT_LEVEL_HELP, BOT_LEVELS, dealt_only=True)


#: The largest number any option takes (bonuses, targets, limits): far above any real
#: game, small enough for a phone to show.
OPTION_INT_MAX = 100_000


def option_field(default: T, help_text: str, choices: tuple[T, ...] | None = None, *,
                 minimum: int | None = None, per_hand: bool = False, dealt_only: bool = False) -> T:
    """A dataclass field for one option: its ``default``, a one-line ``help`` for the
    new-game screen, for an enumerated option its ``choices``, for a whole number its
    ``minimum`` when that is not 0 (a target of 0 would end the match at once), and
    ``per_hand`` for a value set with each hand (Oklahoma's upcard), and ``dealt_only``
    for an option of dealt play only (the bots' level: a tracked game has no bots).

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
    if per_hand:
        meta["per_hand"] = True
    if dealt_only:
        meta["dealt_only"] = True
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its ``name`` (as the API spells it), ``kind``, ``default``,
    a ``label`` and ``help`` in plain words, ``choices`` (with plain-word
    ``choice_labels``) for an enumerated option, ``per_hand`` for a value set with each
    hand (Oklahoma's upcard) rather than for the game, ``dealt_only`` for an option of
    dealt play only (the new-game screen of a tracked game leaves it out), and the range
    of a number."""

    name: str
    kind: OptionKind
    default: Any
    label: str
    help: str
    choices: tuple[Any, ...] | None = None
    choice_labels: tuple[str, ...] | None = None
    per_hand: bool = False
    minimum: int | None = None
    maximum: int | None = None
    dealt_only: bool = False

    def check(self, value: Any, game: str) -> Any:
        """``value`` if this option accepts it, else :class:`InvalidInput` naming the
        option, what it takes and what was given (``details``: option, value, choices)."""
        def refuse(what: str) -> InvalidInput:
            details: dict[str, Any] = {"option": self.name, "value": _jsonable(value)}
            if self.choices is not None:
                details["choices"] = [_jsonable(c) for c in self.choices]
            return InvalidInput(f"{game} option {self.name} {what}, got {value!r}", code="invalid_options",
                                details=details)

        if self.choices is not None and self.kind == "choice":
            for c in self.choices:  # True == 1 in Python: the type must match as well
                if c == value and isinstance(c, bool) == isinstance(value, bool):
                    return c
            raise refuse("must be one of " + ", ".join(map(str, self.choices)))
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise refuse("must be true or false")
        elif self.kind == "int":
            lo = 0 if self.minimum is None else self.minimum
            hi = OPTION_INT_MAX if self.maximum is None else self.maximum
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise refuse(f"must be a whole number from {lo} to {hi}")
        elif self.kind == "card":
            if value is None:
                return None
            try:  # a card of the 52-card deck, by name (or number), written back by name
                card = C.parse_card(value) if isinstance(value, str) else value
            except ValueError:
                card = None
            if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
                raise refuse("is not a card of the 52-card deck (name one such as 7D)")
            return C.card_name(card)
        elif self.kind == "text":
            if value is not None and not isinstance(value, str):
                raise refuse("must be text")
        return value

    def as_dict(self) -> dict[str, Any]:
        """The option as ``GET /api/v1/variants`` serves it."""
        return {
            "name": self.name, "type": self.kind, "default": _jsonable(self.default), "label": self.label,
            "help": self.help, "choices": None if self.choices is None else [_jsonable(c) for c in self.choices],
            "choice_labels": None if self.choice_labels is None else list(self.choice_labels),
            "per_hand": self.per_hand, "min": self.minimum, "max": self.maximum,
            "dealt_only": self.dealt_only,
        }


@dataclass(frozen=True)
class Preset:
    """A named rule set: its ``label`` in plain words, a line of ``help`` and the values
    of every option it sets (``values``: the whole options record)."""

    name: str
    label: str
    help: str
    values: Mapping[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "help": self.help,
                "options": {k: _jsonable(v) for k, v in self.values.items()}}


def _kind(tp: Any, default: Any, choices: tuple[Any, ...] | None, name: str) -> OptionKind:
    """An option's kind from its type and default (a field named ``upcard`` is a card)."""
    if isinstance(default, bool) or tp is bool:
        return "bool"
    if choices is not None:
        return "choice"
    if isinstance(default, int) or tp is int:
        return "int"
    if name == "upcard":
        return "card"
    return "text"


def option_specs(cls: type, labels: Mapping[str, str] | None = None,
                 choice_labels: Mapping[str, Mapping[Any, str]] | None = None) -> tuple[OptionSpec, ...]:
    """Every option of the ``Options`` dataclass ``cls``, in field order. ``labels``
    gives plain-word labels (default: the name in words); ``choice_labels`` plain words
    for the choices of an option (default: the choice in words)."""
    labels = labels or {}
    choice_labels = choice_labels or {}
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # pragma: no cover - a forward reference the module cannot resolve
        hints = {}
    out: list[OptionSpec] = []
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else None
        meta = dict(f.metadata)
        tp = hints.get(f.name, f.type)
        choices = meta.get("choices")
        if choices is None and typing.get_origin(tp) is Literal:
            choices = typing.get_args(tp)
        choices = tuple(choices) if choices is not None else None
        kind = _kind(tp, default, choices, f.name)
        words = choice_labels.get(f.name, {})
        out.append(OptionSpec(
            name=f.name, kind=kind, default=default, label=labels.get(f.name, words_of(f.name)),
            help=str(meta.get("help", "")), choices=choices,
            choice_labels=None if choices is None else tuple(words.get(c, words_of(c)) for c in choices),
            per_hand=bool(meta.get("per_hand", False)),
            minimum=int(meta.get("min", 0)) if kind == "int" else None,
            maximum=OPTION_INT_MAX if kind == "int" else None,
            dealt_only=bool(meta.get("dealt_only", False)),
        ))
    return tuple(out)


def check_overrides(specs: tuple[OptionSpec, ...], overrides: Any, game: str) -> dict[str, Any]:
    """``overrides`` checked against ``specs``: a mapping of known option names to values
    each option accepts, else :class:`InvalidInput` (an unknown name lists the known ones)."""
    if not isinstance(overrides, Mapping):
        raise InvalidInput(f"{game} options are an object of option names and values, not {overrides!r}",
                           code="invalid_options")
    known = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    for name, value in overrides.items():
        spec = known.get(name)
        if spec is None:
            raise InvalidInput(f"unknown {game} option {name!r} (one of {', '.join(known)})",
                               code="invalid_options", details={"option": str(name), "known": list(known)})
        out[name] = spec.check(value, game)
    return out


def specs_of(cls: type) -> tuple[OptionSpec, ...]:
    """:func:`option_specs` of ``cls`` without labels (what checking needs), read once."""
    found = _SPECS.get(cls)
    if found is None:
        found = _SPECS[cls] = option_specs(cls)
    return found


_SPECS: dict[type, tuple[OptionSpec, ...]] = {}


def check_record(options: DataclassInstance, game: str) -> None:
    """Check every field of an options record with its :class:`OptionSpec` (call it from
    the dataclass's ``__post_init__``); a value the check writes back in its own form (a
    card named ``"♦7"`` is ``"7D"``) is set on the record.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Demo:
    ...     size: int = option_field(3, "how many", (2, 3))
    ...     def __post_init__(self) -> None:
    ...         check_record(self, "demo")
    >>> Demo(size=4)
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: demo option size must be one of 2, 3, got 4
    """
    for spec in specs_of(type(options)):
        value = getattr(options, spec.name)
        clean = spec.check(value, game)
        if clean is not value and clean != value:
            object.__setattr__(options, spec.name, clean)


def with_overrides(options: OptionsT, overrides: Mapping[str, Any], game: str) -> OptionsT:
    """``options`` with ``overrides`` applied: every name and value checked by
    :func:`check_overrides` (an unknown name lists the known ones), the record's own
    ``__post_init__`` then checks how the values go together."""
    clean = check_overrides(specs_of(type(options)), overrides, game)
    return dataclasses.replace(options, **clean) if clean else options


def preset_options(presets: Mapping[str, OptionsT], preset: str | None, default: str, game: str,
                   aliases: Mapping[str, str] | None = None) -> OptionsT:
    """The options of ``preset`` (``default`` when None); ``aliases`` maps other
    accepted names to preset names. An unknown name is refused listing the presets,
    then the aliases.

    >>> preset_options({"a": 1, "b": 2}, "bee", "a", "demo", {"bee": "b"})
    2
    >>> preset_options({"a": 1}, "c", "a", "demo")
    Traceback (most recent call last):
    ...
    companion.errors.InvalidInput: unknown demo preset 'c' (one of a)
    """
    aliases = aliases or {}
    names = [*presets, *aliases]
    if preset is not None and not isinstance(preset, str):
        raise InvalidInput(f"a {game} preset is a name (one of {', '.join(names)}), not {preset!r}",
                           code="invalid_options", details={"preset": _jsonable(preset), "presets": names})
    name = default if preset is None else aliases.get(preset, preset)
    if name not in presets:
        raise InvalidInput(f"unknown {game} preset {preset!r} (one of {', '.join(names)})",
                           code="invalid_options", details={"preset": _jsonable(preset), "presets": names})
    return presets[name]


def resolve_options(preset: str | None, options: OptionsT | None, overrides: Mapping[str, Any], *,
                    cls: type[OptionsT], game: str, make: Callable[..., OptionsT]) -> OptionsT:
    """The options a scoring call works with: ``make(preset, **overrides)`` (the rules
    module's ``make_options``) when no ``options`` are given, else ``options`` with the
    ``overrides`` on top. Both a preset and options, or options that are not a ``cls``,
    are refused."""
    if options is None:
        return make(preset, **overrides)
    if preset is not None:
        raise InvalidInput("give either a preset or options, not both", code="invalid_options")
    if not isinstance(options, cls):
        raise InvalidInput(f"options must be {game}.Options, not {type(options).__name__}", code="invalid_options")
    return with_overrides(options, overrides, game)


def words_of(value: Any) -> str:
    """A code in words: ``"void_at_2"`` -> ``"void at 2"``; True -> ``"yes"``.

    >>> words_of("double_game_bonus"), words_of(False), words_of(50)
    ('double game bonus', 'no', '50')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


def _jsonable(v: Any) -> Any:
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return str(v)


def options_dict(options: Any) -> dict[str, Any]:
    """A game's options record as plain data (a dataclass or a mapping)."""
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        return dataclasses.asdict(options)
    if isinstance(options, Mapping):
        return dict(options)
    return {}


__all__ = ["BOT_LEVELS", "BOT_LEVEL_HELP", "BOT_LEVEL_WORDS", "same_as_normal", "bot_level_field", "OptionKind", "OptionSpec", "Preset", "OPTION_INT_MAX", "option_field", "option_specs", "specs_of",
           "check_overrides", "check_record", "with_overrides", "preset_options", "resolve_options", "words_of",
           "options_dict"]
