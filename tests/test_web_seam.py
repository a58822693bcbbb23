"""The page never names a game: what it switches on comes from ``GET /api/v1/variants``.

Issue 24 asks that a new game be one package and one registry line. The phone page
(companion/web, plain ES modules) used to compare variant names ("gin", "gingo", ...) to
decide what to show; it now reads flags, labels and player choices from the variants
endpoint (and the same words in each game's ``rules``). The first test reads the page's
source for any registry name written into it; the second asks the real service for the
flags; the third runs the page's own card parser in real Chromium on the decks the
service describes. The service and the browser are tests/conftest.py's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from companion.games import VARIANTS
from companion.rules.base import KINDS
from tests.live_server import LiveServer
from tests.web_helpers import ROOT, phone_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser

WEB = ROOT / "companion" / "web"

# a string literal in JavaScript, with its quote: "x", 'x' or `x` (no interpolation inside)
_LITERAL = re.compile(r"""(["'`])([A-Za-z0-9_]+)\1""")
# comparing a game's variant field with any literal, or a literal default for it
_NAME_TEST = re.compile(r"""\bvariant\s*(===|!==|==|!=)\s*["'`]|\bvariant\s*:\s*["'`]""")
# a hand's ending kind ("gin") may share a game's name: such a literal sits beside the kind or
# its word, or is a words table's key and value (gin: "gin")
_KIND_CONTEXT = re.compile(r"kind|KIND|gin_word|endings")


def _a_kind(word: str, line: str) -> bool:
    return word in KINDS and bool(_KIND_CONTEXT.search(line) or re.search(rf"""\b{word}:\s*["'`]{word}["'`]""", line))


def _code_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a script without its comments (// to the end of a line, /* ... */)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        out.append((n, re.sub(r"(^|\s)//.*$", "", line)))
    return out


def page_naming_games(web: Path = WEB) -> list[str]:
    """Every place in the page's scripts that names a game of the registry, or compares a
    variant's name with a literal: ``file:line: text``."""
    names = set(VARIANTS)
    found = []
    for path in sorted(web.rglob("*.js")):
        for n, line in _code_lines(path.read_text()):
            hits = [m.group(2) for m in _LITERAL.finditer(line) if m.group(2) in names]
            hits = [h for h in hits if not _a_kind(h, line)]
            if hits or _NAME_TEST.search(line):
                found.append(f"{path.relative_to(web).as_posix()}:{n}: {line.strip()}")
    return found


def test_the_page_names_no_game() -> None:
    found = page_naming_games()
    assert not found, ("the page names a game (read a flag or label from GET /api/v1/variants instead):\n"
                       + "\n".join(found))


def test_the_check_finds_a_game_named_in_a_script(tmp_path: Path) -> None:
    """The scan above can fail: a script that switches on a game's name is caught, one that
    only words a hand's ending ("gin") is not."""
    (tmp_path / "a.js").write_text('if (game.variant === "x") go();\nconst K = { gin: "gin" }; // "gingo"\n'
                                   'if (kind === "gin") say();\n')
    (tmp_path / "b.js").write_text("const d = { variant: 'ginski' };\nshow(`color_gin`);\n")
    found = page_naming_games(tmp_path)
    assert [":".join(f.split(":")[:2]) for f in found] == ["a.js:1", "b.js:1", "b.js:2"]


def test_the_variants_endpoint_carries_what_the_page_switches_on(server: LiveServer) -> None:
    listed = {v["name"]: v for v in server.get("/api/v1/variants")["variants"]}
    assert list(listed) == list(VARIANTS)
    for name, v in listed.items():
        variant = VARIANTS[name]
        # the flags and words, as the Variant class declares them
        assert v["on_board"] is variant.on_board
        assert v["pile_draw"] is variant.pile_draw
        assert v["match_word"] == variant.match_word
        # every player count the new-game form offers, with its words and the options it sets
        choices = v["seat_choices"]
        assert [c["players"] for c in choices] == sorted({*variant.seats, *(c["players"] for c in choices)})
        assert set(variant.seats) <= {c["players"] for c in choices}
        assert all(isinstance(c["label"], str) and c["label"].startswith(str(c["players"])) for c in choices)
        # the older fields are all still there (the HTTP contract v1 only grows)
        assert {"label", "players", "default_players", "seat_word", "play_style", "deck", "hand_sizes",
                "default_preset", "presets", "preset_list", "options"} <= set(v)
    assert [v["name"] for v in listed.values() if v["on_board"]] == ["gingo"]
    assert listed["gingo"]["pile_draw"] is False and listed["gingo"]["match_word"] == "game"
    assert [v["name"] for v in listed.values() if v["side_wins"]] == ["gingo"]
    assert listed["gin"]["pile_draw"] is True and listed["gin"]["match_word"] == "match"
    four = {c["players"]: c for c in listed["gin"]["seat_choices"]}[4]
    assert four["options"] == {"team_mode": "pagat_partnership"} and four["teams"] == [[0, 2], [1, 3]]
    assert {c["players"]: c["label"] for c in listed["gingo"]["seat_choices"]} == {2: "2", 4: "4 (teams)"}
    # the rummy games' own words for their entry
    assert listed["ginski"]["gin_word"] == "Ginski"
    assert "open suits" in listed["color_gin"]["declared_help"]
    assert listed["ginski"]["declared_help"] != listed["gin"]["declared_help"]
    # and a game's rules carry the same flags (a page that has a game and not the list)
    token = server.pair("seam")
    g = server.post("/api/v1/games", {"variant": "gingo", "players": ["A", "B"]}, token)
    rules = (g.get("game") or g)["rules"]
    assert rules["pile_draw"] is False and rules["match_word"] == "game" and rules["on_board"] is True


def test_a_game_says_the_flags_the_page_reads_for_its_options(server: LiveServer) -> None:
    """What the page used to read off an option's value it reads from a flag: a team game
    (Gin Rummy's partnership) says ``team_play`` in the game, its summary line and its
    rules; a rule set whose stock-out hand is a showdown says ``stock_showdown``."""
    token = server.pair("seam-flags")
    made = server.post("/api/v1/games", {"variant": "gin", "players": ["A", "B", "C", "D"],
                                         "options": {"team_mode": "pagat_partnership"}}, token)
    team = made.get("game") or made
    assert team["team_play"] is True and team["rules"]["team_play"] is True
    assert team["team_mode"] == "pagat_partnership"  # the older field is still there
    line = next(g for g in server.get("/api/v1/games")["games"] if g["id"] == team["id"])
    assert line["team_play"] is True
    short = server.post("/api/v1/games", {"variant": "gin", "preset": "gin_002", "players": ["A", "B"]}, token)
    short = short.get("game") or short
    assert short["rules"]["stock_showdown"] is True and short["rules"]["team_play"] is False
    assert "team_play" not in short
    line = next(g for g in server.get("/api/v1/games")["games"] if g["id"] == short["id"])
    assert "team_play" not in line
    for variant in ("gin", "color_gin", "ginski"):
        plain = server.post("/api/v1/games", {"variant": variant, "players": ["A", "B", "C"][:VARIANTS[variant].seats[0]]},
                            token)
        assert (plain.get("game") or plain)["rules"]["stock_showdown"] is False, variant


def test_the_page_parses_cards_from_the_decks_it_is_given(browser: Browser, server: LiveServer) -> None:
    with phone_page(browser) as page:
        page.goto(server.url + "/")
        parsed: dict[str, Any] = page.evaluate("""async () => {
          const cards = await import("/js/cards.js");
          const list = (await (await fetch("/api/v1/variants")).json()).variants;
          const out = {};
          for (const v of list) {
            const deck = cards.deckFrom(v.deck);
            const one = (t) => { try { return cards.parseCard(t, deck); } catch (e) { return "error"; } };
            out[v.name] = { jk: one("jk"), jk2: one("JK2"), joker: one("joker"), plain: one(deck.name(deck.columns[0].key, 1)) };
          }
          return out;
        }""")
    for name, got in parsed.items():
        deck = VARIANTS[name].deck
        if deck.extra_label == "joker":  # a deck with jokers: "jk" and "joker" are the first, JK2 the second
            assert got["jk"] == got["joker"] == deck.extra[0] and got["jk2"] == deck.extra[1], (name, got)
        else:
            assert got["jk"] == got["jk2"] == "error", (name, got)
        assert got["plain"] != "error", (name, got)


# a game's shape sniffed from its fields ("phase" in game, "board" in g) instead of a flag
_SHAPE_TEST = re.compile(r"""["'`]\w+["'`]\s+in\s+(game|g|st)\b""")


def test_the_page_sniffs_no_games_shape() -> None:
    found = [f"{p.relative_to(WEB).as_posix()}:{n}: {line.strip()}" for p in sorted(WEB.rglob("*.js"))
             for n, line in _code_lines(p.read_text()) if _SHAPE_TEST.search(line)]
    assert not found, "the page tells games apart by their fields (read a flag instead):\n" + "\n".join(found)


# comparing with a literal, either way round: `x === "v"`, `"v" !== x`
_COMPARED = re.compile(r"""(?:(===|!==|==|!=)\s*(["'`])(?P<right>\w+)\2)|(?:(["'`])(?P<left>\w+)\4\s*(===|!==|==|!=))""")


def _options_of_games() -> tuple[frozenset[str], frozenset[str]]:
    """The registry's option names, and the values its choice options take, less those
    of the API's own enum the page sends (the flip's ``rule`` of ``POST
    /api/v1/rules/first-dealer``, which is also Gin Rummy's option ``first_dealer``)."""
    from typing import get_args

    from companion.api.routes.rules import FirstDealerRequest

    specs = [spec for v in VARIANTS.values() for spec in v.option_specs()]
    api_own = set(get_args(FirstDealerRequest.model_fields["rule"].annotation))
    return (frozenset(spec.name for spec in specs),
            frozenset(str(c) for spec in specs for c in spec.choices or () if isinstance(c, str)) - api_own)


def page_sniffing_options(web: Path = WEB) -> list[str]:
    """Every place in the page's scripts that compares a game's option with one of its
    values (``g.team_mode === "pagat_partnership"``, ``opts.stock_end === "showdown_at_2"``),
    or any field with a value that only a game's option takes (one with an underscore or a
    digit, like ``"pair_tournament"``): ``file:line: text``. What such a test decides is a
    flag the service serves (``team_play``, ``stock_showdown`` in a game's ``rules``)."""
    names, values = _options_of_games()
    own = {v for v in values if not v.isdigit() and any(ch == "_" or ch.isdigit() for ch in v)}
    found = []
    for path in sorted(web.rglob("*.js")):
        for n, line in _code_lines(path.read_text()):
            for m in _COMPARED.finditer(line):
                value = m.group("right") or m.group("left")
                if m.group("right"):  # the field compared: the last name before the operator
                    field = re.search(r"(\w+)\s*\)*\s*$", line[:m.start()])
                else:  # or the last name of the operand after it
                    field = re.match(r"\s*\(*\s*([\w.]+)", line[m.end():])
                name = field.group(1).rsplit(".", 1)[-1] if field else ""
                if value in own or (value in values and name in names):
                    found.append(f"{path.relative_to(web).as_posix()}:{n}: {line.strip()}")
                    break
    return found


def test_the_page_sniffs_no_games_option_values() -> None:
    found = page_sniffing_options()
    assert not found, ("the page compares a game's option with its value (read a flag the service serves):\n"
                       + "\n".join(found))


def test_the_check_finds_an_option_value_compared(tmp_path: Path) -> None:
    """The scan above can fail: comparing a game's option (or any field) with one of its
    values is caught, either way round; a flag, a hand's kind and a type check are not."""
    (tmp_path / "a.js").write_text('const teams = g.team_mode === "pagat_partnership";\n'
                                   'if ((g.options || {}).stock_end !== "void_at_2") say();\n'
                                   'if ("pair_tournament" == mode) go();\n'
                                   'if (o.knock_compare === "lt") go();\n')
    (tmp_path / "b.js").write_text('const teams = g.team_play === true;\nif (r.kind === "undercut") say();\n'
                                   'if (typeof v.players === "object") go();\nconst k = draft.mode === "cards";\n')
    found = page_sniffing_options(tmp_path)
    assert [":".join(f.split(":")[:2]) for f in found] == ["a.js:1", "a.js:2", "a.js:3", "a.js:4"]


def test_the_live_news_names_the_winning_side_from_the_variants_flag(browser: Browser, server: LiveServer) -> None:
    """The end of a game, said on every phone, names the winner as the variant's
    ``side_wins`` flag says: the side's players by the seats the variant gives each side
    (2 or 4 players), else the winning seat; run by the page's own news module on the
    service's own variants, in real Chromium."""
    with phone_page(browser) as page:
        page.goto(server.url + "/")
        said: dict[str, Any] = page.evaluate("""async () => {
          const news = await import("/js/news.js");
          const { normVariants } = await import("/js/new_game.js");
          const variants = normVariants(await (await fetch("/api/v1/variants")).json());
          const over = (id, variant, players, winner) => {
            news.liveNews({ type: "snapshot", games: [{ id, finished: false }] }, null, variants);
            return news.liveNews({ type: "event", event: { type: "hand", game_id: id, payload: {} },
                                   game: { id, variant, players, winner, finished: true } }, null, variants);
          };
          return { two: over("a", "gingo", ["Ana", "Bo"], 2), four: over("b", "gingo", ["Ana", "Bo", "Cy", "Di"], 1),
                   gin: over("c", "gin", ["Ana", "Bo"], 1) };
        }""")
    assert said == {"two": ["Match over: Bo wins the game"], "four": ["Match over: Ana and Cy win the game"],
                    "gin": ["Match over: Bo wins the match"]}
