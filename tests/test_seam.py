"""How often the code outside ``companion/games/`` names a game: string literals that are
exactly a game's name (``"gin"``, ``"gingo"`` ...) and ``isinstance`` checks on a game's
Variant class, read from the source with ``ast`` (issue 24: the Variant is the only seam);
and how often the table, the API, MQTT and the commands name a value of one game's option
(``"pagat_partnership"``, ``"king8"`` ...), which is a game's name in another form: a branch
on how one game is played.

Run it to see where they are, by package::

    .venv/bin/python tests/test_seam.py          # the table by package
    .venv/bin/python tests/test_seam.py -v       # and every place

The test is a ratchet: the counts may fall, never rise. Lower the ceilings below when
a game's code moves behind its Variant.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "companion"

#: the classes of the games' Variants (and their shared base for the rummy games)
GAME_CLASSES = frozenset({"GinGo", "RummyVariant", "GinRummy", "ColorGin", "Ginski"})


def game_names(root: Path = ROOT) -> frozenset[str]:
    """The names of the registry's games, read from the Variant classes' ``name = "..."``."""
    names: set[str] = set()
    for path in sorted((root / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    target = stmt.target if isinstance(stmt, ast.AnnAssign) else (
                        stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None)
                    value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
                    if isinstance(target, ast.Name) and target.id == "name" and isinstance(value, ast.Constant) \
                            and isinstance(value.value, str):
                        names.add(value.value)
    return frozenset(names)


def _mentions_game_class(node: ast.expr) -> bool:
    return any(isinstance(n, ast.Name) and n.id in GAME_CLASSES or
               isinstance(n, ast.Attribute) and n.attr in GAME_CLASSES for n in ast.walk(node))


def places(root: Path = ROOT) -> list[tuple[str, str, int, str]]:
    """Every place outside ``games/`` that names a game: (kind, file, line, what)."""
    names = game_names(root)
    out: list[tuple[str, str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("games/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                out.append(("name", rel, node.lineno, repr(node.value)))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                    and len(node.args) == 2 and _mentions_game_class(node.args[1]):
                out.append(("isinstance", rel, node.lineno, ast.unparse(node.args[1])))
    return sorted(out)


def by_package(found: list[tuple[str, str, int, str]]) -> Counter[tuple[str, str]]:
    """Counts by (kind, top-level package or module)."""
    return Counter((kind, rel.split("/")[0].removesuffix(".py")) for kind, rel, _, _ in found)


#: the ceilings: what is left of the game names outside ``games/``, by package (issue 24).
#: No isinstance on a game class is left. Some names counted are not branches: "gin" is
#: also how a hand ends (an end kind), and "gingo" the program's own name (paths, mDNS).
CEILING: dict[tuple[str, str], int] = {
    ("name", "boardview"): 1,
    ("name", "cards"): 1,
    ("name", "cli"): 1,
    ("name", "commands"): 3,
    ("name", "discovery"): 1,
    ("name", "hardware"): 2,
    ("name", "mqtt"): 5,
    ("name", "paths"): 2,
    ("name", "play"): 4,
    ("name", "rules"): 2,
    ("name", "stats"): 1,
}


#: the adapters and the table, which ask a game's Variant, never read one game's option values
OPTION_SCOPE = ("table", "api", "mqtt", "commands")


def option_values() -> frozenset[str]:
    """The values of the registry's games' choice options that name a way one game is
    played (``"pagat_partnership"``, ``"showdown_at_2"``, ``"king8"``): those with an
    underscore or a digit, so plain words that are also ordinary strings (``"none"``,
    ``"winner"``, ``"normal"``) are not counted."""
    from companion.games import VARIANTS

    return frozenset(c for v in VARIANTS.values() for spec in v.option_specs() for c in spec.choices or ()
                     if isinstance(c, str) and not c.isdigit() and any(ch == "_" or ch.isdigit() for ch in c))


def option_places(values: frozenset[str], root: Path = ROOT) -> list[tuple[str, int, str]]:
    """Every literal in :data:`OPTION_SCOPE` that is one of ``values``: (file, line, what)."""
    out = []
    for pkg in OPTION_SCOPE:
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in values:
                    out.append((path.relative_to(root).as_posix(), node.lineno, repr(node.value)))
    return sorted(out)


#: the ceilings of option values named, by package. What is left: the first-dealer route's
#: own rule field (``POST /api/v1/rules/first-dealer``: ``flip_high_chooses``/``flip_low_deals``,
#: the API's enum, which is also Gin Rummy's option ``first_dealer``)
OPTION_CEILING: dict[str, int] = {"api": 3}


def test_the_counter_sees_option_values(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    (root / "table").mkdir(parents=True)
    (root / "games").mkdir()
    (root / "games" / "toy.py").write_text('MODE = "toy_teams"\n', encoding="utf-8")  # a game's own: not counted
    (root / "table" / "fold.py").write_text(
        'def f(o):\n    """plays toy_teams"""\n    return o.mode == "toy_teams" or o.mode == "toy"\n', encoding="utf-8")
    assert option_places(frozenset({"toy_teams"}), root) == [("table/fold.py", 3, "'toy_teams'")]


def test_the_option_values_are_those_of_the_games() -> None:
    values = option_values()
    assert {"pagat_partnership", "pair_tournament", "showdown_at_2", "king8"} <= values
    assert not values & {"none", "winner", "normal", "random", "1"}


def test_no_game_option_values_in_the_table_and_adapters() -> None:
    """The table, the API, MQTT and the commands ask the Variant how a game is played
    (its team plays, its board position ...) instead of comparing one game's option value."""
    found = option_places(option_values())
    counts = Counter(rel.split("/")[0] for rel, _, _ in found)
    grown = {k: (v, OPTION_CEILING.get(k, 0)) for k, v in counts.items() if v > OPTION_CEILING.get(k, 0)}
    assert not grown, (f"game option values named outside companion/games/ (count, ceiling): {grown}\n"
                       + "\n".join(f"  {rel}:{line}  {what}" for rel, line, what in found))


def test_the_counter_sees_names_and_isinstance(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    (root / "games").mkdir(parents=True)
    (root / "games" / "toy.py").write_text('class Toy:\n    name = "toy"\n', encoding="utf-8")
    (root / "table").mkdir()
    (root / "table" / "fold.py").write_text(
        'def f(v, game):\n    """a toy"""\n    if game == "toy":\n        return isinstance(v, (GinGo, x.Ginski))\n'
        '    return "toys", isinstance(v, int)\n', encoding="utf-8")
    assert places(root) == [("isinstance", "table/fold.py", 4, "(GinGo, x.Ginski)"),
                            ("name", "table/fold.py", 3, "'toy'")]


def test_no_new_game_names_outside_the_games() -> None:
    """The table, API, melds, cards and commands name a game no more often than the
    ceiling; lower it when code moves behind the Variant."""
    counts = by_package(places())
    grown = {k: (v, CEILING.get(k, 0)) for k, v in counts.items() if v > CEILING.get(k, 0)}
    assert not grown, f"game names grew outside companion/games/ (count, ceiling): {grown}"


def main(argv: list[str]) -> None:
    found = places()
    counts = by_package(found)
    print(f"{'package':<12} {'names':>6} {'isinstance':>10}")
    for pkg in sorted({p for _, p in counts}):
        print(f"{pkg:<12} {counts[('name', pkg)]:>6} {counts[('isinstance', pkg)]:>10}")
    total_n = sum(v for (k, _), v in counts.items() if k == "name")
    total_i = sum(v for (k, _), v in counts.items() if k == "isinstance")
    print(f"{'total':<12} {total_n:>6} {total_i:>10}  "
          f"({len({rel for k, rel, _, _ in found if k == 'name'})} modules with names, "
          f"{len({rel for k, rel, _, _ in found if k == 'isinstance'})} with isinstance)")
    if "-v" in argv:
        for kind, rel, line, what in found:
            print(f"  {kind:<10} {rel}:{line}  {what}")
    options = option_places(option_values())
    print(f"game option values named in {', '.join(OPTION_SCOPE)}: {len(options)}")
    if "-v" in argv:
        for rel, line, what in options:
            print(f"  option     {rel}:{line}  {what}")


if __name__ == "__main__":
    main(sys.argv[1:])
