"""Every import points down the layers, and no import goes round in a cycle, read from
the source with ``ast``:

    cards        errors, cards, board, board view, suit rows, melds
    games        games (the registry, the Variant base, and one package per game with its
                 rules, options, match, full play and bots), rules and play (the rules and
                 play machinery the games share)
    application  table, store, pairing, stats (and the stats book), paths
    adapters     hardware, api, web, discovery, mqtt
    commands     commands (the service assembly and settings among them), cli

A module may import its own layer and the layers below it, never one above. Imports
inside functions count, and so do those under ``if TYPE_CHECKING:``, ``from companion
import hardware`` and relative imports. Every module of the package must sit in a layer,
so a new one cannot slip past the check. Within a layer, the modules import each other
without a cycle: ``a`` imports ``b`` which imports ``a`` (directly or round several
modules) is refused, however the import is hidden (in a function, for type checking).
No module of one game's package (``companion/games/<name>/``) imports another game's:
what games share lives beside them (the Variant base, the options) and in the shared
rules and play machinery (``companion/rules/``, ``companion/play/``), and only the
registry names them all. No module outside ``companion/games/`` imports a game's
package, the shared machinery included: it reaches a game through its Variant.

No class is split across files by inheritance. Anywhere in the package, a base class
from another module that has exactly one subclass in the package and is never made
itself (no module calls it), and is not a Protocol or an exception, is one class cut in
two files: its parts are to be held, not inherited (see :func:`split_classes_anywhere`).
A base with several subclasses (the Variant, the LED and sensor backends, the bot
policies, a mixin two bots share) or one that is made itself (the normal bot a sharper
one extends) is a class of its own. The table (``companion/table/``) is held to more: a
class there has no base class from another module of the package but a Protocol or an
exception (the table holds its parts: the ledger, the reads, the dealing, the outings)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"

#: bottom first; a module's layer is the first of its dotted name's prefixes listed here
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cards", ("errors", "cards", "board", "boardview", "suit_rows", "melds")),
    ("games", ("games", "rules", "play")),
    ("application", ("table", "store", "pairing", "stats", "stats_book", "paths")),
    ("adapters", ("hardware", "api", "web", "discovery", "mqtt")),
    ("commands", ("commands", "cli")),
)
RANK = {part: rank for rank, (_, parts) in enumerate(LAYERS) for part in parts}
NAMES = [name for name, _ in LAYERS]


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def rank_of(module: str, package: str = "companion") -> int | None:
    """The layer of ``companion.x.y`` (None for the package itself and for other packages)."""
    parts = module.split(".")
    if parts[0] != package or len(parts) < 2:
        return None
    return RANK.get(parts[1], -1)


def imported(path: Path, root: Path) -> set[str]:
    """Every module of the package that ``path`` imports, anywhere in it."""
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            # ``from companion import hardware`` imports the module companion.hardware
            found.update(f"{module}.{a.name}" for a in node.names if a.name != "*")
    return {m for m in found if m == root.name or m.startswith(root.name + ".")}


def violations(root: Path) -> list[str]:
    """One line per import that points up (or per module outside every layer)."""
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        rank = rank_of(name, root.name)
        if rank is None:
            continue  # the package's own __init__ (its version)
        if rank < 0:
            out.append(f"{name} is in no layer: add it to LAYERS in tests/test_layers.py")
            continue
        for target in sorted(imported(path, root)):
            to = rank_of(target, root.name)
            if to is not None and to > rank:
                out.append(f"{name} ({NAMES[rank]}) imports {target} ({NAMES[to] if to >= 0 else 'no layer'})")
    return out


def test_every_import_points_down() -> None:
    assert violations(ROOT) == []


def modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports, anywhere in
    it. ``from a.b import c`` is an import of the module ``a.b.c`` when there is one (Python
    runs the package ``a.b`` first either way; that a package's submodules need it is not
    counted as a cycle), else of ``a.b``, whose namespace holds ``c``."""
    mods = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                for a in node.names:
                    sub = f"{module}.{a.name}"
                    if sub in mods:
                        out.add(sub)
                    elif module in mods:
                        out.add(module)
        out.discard(name)
        graph[name] = out
    return graph


def cycles(root: Path) -> list[list[str]]:
    """Every set of modules that import each other round a cycle (strongly connected
    components of more than one module, found by Tarjan's algorithm), each with one cycle
    through it spelled out."""
    graph = import_graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_one_cycle(graph, comp) for comp in sorted(found)]


def _one_cycle(graph: dict[str, set[str]], comp: list[str]) -> list[str]:
    """A path from the first module of ``comp`` back to itself, inside ``comp``."""
    start, members = comp[0], set(comp)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & members):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                todo.append(w)
    return comp  # pragma: no cover - a component always has a cycle


def test_no_import_goes_round_a_cycle() -> None:
    found = cycles(ROOT)
    assert found == [], "\n".join(" -> ".join(c) for c in found)


def game_package(module: str, package: str = "companion") -> str | None:
    """The game package ``module`` belongs to (``companion.games.<name>`` for a module
    in or under a package of ``companion/games/``), None for every other module: the
    registry, the Variant base and the options of ``companion/games/`` serve every game
    and belong to none."""
    parts = module.split(".")
    if parts[:2] != [package, "games"] or len(parts) < 3:
        return None
    return ".".join(parts[:3]) if ".".join(parts[:3]) in _GAME_PACKAGES.get(package, set()) else None


#: the game packages of each tree checked (a package is a directory with an __init__.py)
_GAME_PACKAGES: dict[str, set[str]] = {}


def cross_game_imports(root: Path) -> list[str]:
    """One line per import from one game's package into another game's."""
    games = root / "games"
    _GAME_PACKAGES[root.name] = {f"{root.name}.games.{d.name}" for d in sorted(games.iterdir())
                                 if (d / "__init__.py").is_file()} if games.is_dir() else set()
    out: list[str] = []
    for name, targets in sorted(import_graph(root).items()):
        mine = game_package(name, root.name)
        if mine is None:
            continue
        for target in sorted(targets | imported(modules(root)[name], root)):
            theirs = game_package(target, root.name)
            if theirs is not None and theirs != mine:
                out.append(f"{name} ({mine}) imports {target} ({theirs})")
    return out


def test_no_game_imports_another_game() -> None:
    assert cross_game_imports(ROOT) == []


def game_imports_from_outside(root: Path) -> list[str]:
    """One line per import of a game's package by a module outside ``companion/games/``:
    the table, the API and the rest reach a game only through the registry and its
    Variant (``companion.games``, ``games.base``, ``games.seams`` ...), never by its package."""
    cross_game_imports(root)  # learns the tree's game packages
    out: list[str] = []
    for name, targets in sorted(import_graph(root).items()):
        if name.split(".")[:2] == [root.name, "games"]:
            continue
        for target in sorted(targets | imported(modules(root)[name], root)):
            theirs = game_package(target, root.name)
            if theirs is not None:
                out.append(f"{name} imports {target} ({theirs})")
    return out


def test_nothing_outside_the_games_imports_a_games_package() -> None:
    assert game_imports_from_outside(ROOT) == []


def write_tree(root: Path, files: dict[str, str]) -> None:
    """A temporary package for a check to read: each file's text by its path under ``root``."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_the_outside_check_sees_the_table_import_a_game(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    files = {
        "__init__.py": "", "games/__init__.py": "", "games/base.py": "",
        "games/registry.py": "from companion.games.gin import GIN\n",
        "games/gin/__init__.py": "GIN = 1\n", "games/gin/wait.py": "",
        "table/__init__.py": "", "table/fold.py": "from companion.games import base\n",
    }
    write_tree(root, files)
    assert game_imports_from_outside(root) == []  # the registry may name a game; the table the base
    (root / "table" / "fold.py").write_text("def f():\n    from companion.games.gin import wait\n", encoding="utf-8")
    assert game_imports_from_outside(root) == [
        "companion.table.fold imports companion.games.gin (companion.games.gin)",
        "companion.table.fold imports companion.games.gin.wait (companion.games.gin)",
    ]


def test_the_shared_machinery_imports_no_games_package() -> None:
    """The rules and play machinery and the melds serve every game: none of their modules
    imports a game's package (each game's rules and bots live in its own package)."""
    found = game_imports_from_outside(ROOT)
    for package in SHARED:
        assert (ROOT / package).is_dir()
        assert [line for line in found if line.startswith(f"companion.{package}.")] == []


#: the packages every game shares: none imports a game's package, nor any module by a name
SHARED = ("rules", "play", "melds")


def imports_by_name(root: Path, packages: tuple[str, ...] = SHARED) -> list[str]:
    """One line per import by a name string in ``packages`` (``importlib``, ``__import__``):
    an import the checks above cannot see, and a second map from names to games beside
    the registry (a game's rules reach the engine from its Variant)."""
    out: list[str] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "importlib" for a in node.names):
                    out.append(f"{rel}:{node.lineno} imports importlib")
                elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "importlib":
                    out.append(f"{rel}:{node.lineno} imports from importlib")
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
                    out.append(f"{rel}:{node.lineno} calls __import__")
    return out


def test_the_shared_machinery_imports_nothing_by_a_name() -> None:
    for package in SHARED:
        assert (ROOT / package).is_dir()
    assert imports_by_name(ROOT) == []


def test_the_name_check_sees_importlib_and_dunder_import(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    (root / "play").mkdir(parents=True)
    (root / "play" / "rummy.py").write_text(
        "def load(name):\n    import importlib\n    return importlib.import_module(name)\n", encoding="utf-8")
    (root / "play" / "bot.py").write_text("from importlib import import_module\nX = __import__('x')\n",
                                          encoding="utf-8")
    (root / "games").mkdir()
    (root / "games" / "registry.py").write_text("import importlib\n", encoding="utf-8")  # not shared
    assert imports_by_name(root, ("play",)) == [
        "play/bot.py:1 imports from importlib", "play/bot.py:2 calls __import__", "play/rummy.py:2 imports importlib"]


def test_the_outside_check_sees_shared_play_import_a_games_bot(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    files = {
        "__init__.py": "", "games/__init__.py": "", "games/gingo/__init__.py": "",
        "games/gingo/play/__init__.py": "", "games/gingo/play/search.py": "from companion.play import hints\n",
        "play/__init__.py": "", "play/hints.py": "", "rules/__init__.py": "", "rules/base.py": "",
    }
    write_tree(root, files)
    assert game_imports_from_outside(root) == []  # a game's bot may use the shared machinery
    (root / "play" / "hints.py").write_text("from companion.games.gingo.play.search import candidates\n",
                                            encoding="utf-8")
    (root / "rules" / "base.py").write_text("import companion.games.gingo\n", encoding="utf-8")
    assert game_imports_from_outside(root) == [
        "companion.play.hints imports companion.games.gingo.play.search (companion.games.gingo)",
        "companion.play.hints imports companion.games.gingo.play.search.candidates (companion.games.gingo)",
        "companion.rules.base imports companion.games.gingo (companion.games.gingo)",
    ]


def test_the_game_check_sees_an_import_between_games(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    files = {
        "__init__.py": "", "games/__init__.py": "", "games/base.py": "", "games/registry.py":
            "from companion.games.gin import GIN\nfrom companion.games.toy import TOY\n",
        "games/gin/__init__.py": "from companion.games.gin.rules import GIN\n",
        "games/gin/rules.py": "from companion.games import base\nGIN = 1\n",
        "games/toy/__init__.py": "TOY = 2\n",
    }
    write_tree(root, files)
    assert cross_game_imports(root) == []  # the registry names every game; a game its own modules and the base
    (root / "games/toy/__init__.py").write_text("def f():\n    from companion.games.gin import rules\n",
                                                encoding="utf-8")
    assert cross_game_imports(root) == [
        "companion.games.toy (companion.games.toy) imports companion.games.gin (companion.games.gin)",
        "companion.games.toy (companion.games.toy) imports companion.games.gin.rules (companion.games.gin)",
    ]


def test_the_cycle_check_sees_hidden_imports(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    files = {
        "__init__.py": "", "cards.py": "",
        "table/__init__.py": "from companion.table.service import Table\n",
        "table/service.py": "from companion.table import fold\nclass Table: pass\n",
        "table/fold.py": "from companion import cards\n",
        "play/__init__.py": "",
        "play/bot.py": "from companion.play import rummy\n",
        "play/rummy.py": "def f():\n    from companion.play.bot import choose\n",
        "play/strong.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from companion.play import policy\n",
        "play/policy.py": "from companion.play.strong import x\n",
    }
    write_tree(root, files)
    assert cycles(root) == [["companion.play.bot", "companion.play.rummy", "companion.play.bot"],
                            ["companion.play.policy", "companion.play.strong", "companion.play.policy"]]
    # a submodule that takes a name from its own package's namespace is in a cycle with it
    (root / "table" / "fold.py").write_text("from companion.table import Table\n", encoding="utf-8")
    assert ["companion.table", "companion.table.service", "companion.table.fold", "companion.table"] in cycles(root)


@pytest.mark.parametrize("low,high", [("cards", "games"), ("melds", "games"), ("melds", "rules"), ("cards", "play"),
                                      ("games", "table"), ("rules", "table"), ("play", "table")])
def test_cards_and_melds_sit_below_the_games_and_the_games_below_the_table(low: str, high: str) -> None:
    assert RANK[low] < RANK[high]


@pytest.mark.parametrize("name", ["companion.table", "companion.store", "companion.pairing", "companion.stats"])
def test_the_application_imports_no_adapter_or_command(name: str) -> None:
    """The application layer in so many words: nothing of it reaches hardware, api or commands."""
    base = ROOT / name.split(".")[1]
    files = sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]
    assert files and all(f.is_file() for f in files)
    for f in files:
        up = {m for m in imported(f, ROOT) if m.split(".")[1:2] in (["hardware"], ["api"], ["web"], ["commands"], ["cli"])}
        assert not up, f"{f.relative_to(ROOT)} imports {sorted(up)}"


def test_the_checker_sees_every_kind_of_upward_import(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    for rel in ("__init__.py", "cards.py", "table/__init__.py", "table/fold.py", "hardware/__init__.py",
                "hardware/sync.py", "api/__init__.py", "commands/__init__.py", "commands/serve.py"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("", encoding="utf-8")
    assert violations(root) == []
    (root / "cards.py").write_text("import companion.table\n", encoding="utf-8")
    (root / "table" / "fold.py").write_text(
        "from companion import cards\n"
        "from companion import hardware\n"
        "def f():\n    from companion.api import app\n"
        "from ..commands import serve\n", encoding="utf-8")
    (root / "hardware" / "sync.py").write_text("from companion.table import fold\nimport companion.cli\n",
                                                encoding="utf-8")
    (root / "commands" / "serve.py").write_text("from companion.hardware.sync import x\n", encoding="utf-8")
    (root / "newthing.py").write_text("", encoding="utf-8")
    assert violations(root) == [
        "companion.cards (cards) imports companion.table (application)",
        "companion.hardware.sync (adapters) imports companion.cli (commands)",
        "companion.newthing is in no layer: add it to LAYERS in tests/test_layers.py",
        "companion.table.fold (application) imports companion.api (adapters)",
        "companion.table.fold (application) imports companion.api.app (adapters)",
        "companion.table.fold (application) imports companion.commands (commands)",
        "companion.table.fold (application) imports companion.commands.serve (commands)",
        "companion.table.fold (application) imports companion.hardware (adapters)",
    ]


def test_the_table_packages_docstring_lists_its_modules_in_import_order() -> None:
    """``companion/table/__init__.py`` says each module imports only those listed before
    it: read the list from the docstring and check it against the imports."""
    import re

    text = (ROOT / "table" / "__init__.py").read_text(encoding="utf-8")
    listed = [m for m in re.findall(r":mod:`~companion\.table\.([a-z_]+)`", text.split("Event types")[0])]
    names = [module_name(p, ROOT) for p in sorted((ROOT / "table").glob("*.py")) if p.name != "__init__.py"]
    assert sorted(set(listed)) == sorted(n.rsplit(".", 1)[1] for n in names), "every module listed once"
    graph = import_graph(ROOT)
    seen: set[str] = set()
    for short in dict.fromkeys(listed):
        full = f"companion.table.{short}"
        later = {m for m in graph[full] if m.startswith("companion.table.") and m.rsplit(".", 1)[1] not in seen}
        assert not later, f"{short} imports {sorted(later)}, listed after it"
        seen.add(short)


def _class_index(root: Path) -> tuple[dict[str, dict[str, ast.ClassDef]], dict[str, dict[str, tuple[str, str | None]]]]:
    """Each module's top-level classes, and each module's imported names: ``name -> (module,
    attribute)`` (``attribute`` None when the name is the module itself)."""
    classes: dict[str, dict[str, ast.ClassDef]] = {}
    names: dict[str, dict[str, tuple[str, str | None]]] = {}
    for name, path in modules(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        classes[name] = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        seen: dict[str, tuple[str, str | None]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    seen[a.asname or a.name.split(".")[0]] = (a.name if a.asname else a.name.split(".")[0], None)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    module = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                for a in node.names:
                    sub = f"{module}.{a.name}"
                    seen[a.asname or a.name] = (sub, None) if sub in classes or (root.parent / (
                        sub.replace(".", "/") + ".py")).is_file() else (module, a.name)
        names[name] = seen
    return classes, names


def _resolve(base: ast.expr, here: str, names: dict[str, dict[str, tuple[str, str | None]]],
             classes: dict[str, dict[str, ast.ClassDef]]) -> tuple[str, str] | None:
    """The (module, class) of the package that the base expression ``base`` of a class of
    ``here`` names, or None for a class from elsewhere (the standard library, typing ...)."""
    if isinstance(base, ast.Subscript):  # Generic[T], Protocol[T]
        base = base.value
    if isinstance(base, ast.Name):
        if base.id in classes.get(here, {}):
            return here, base.id
        module, attr = names[here].get(base.id, ("", None))
        return (module, attr) if attr is not None and attr in classes.get(module, {}) else None
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        module, attr = names[here].get(base.value.id, ("", None))
        return (module, base.attr) if attr is None and base.attr in classes.get(module, {}) else None
    return None


def _is_protocol_or_exception(module: str, cls: str, names: dict[str, dict[str, tuple[str, str | None]]],
                              classes: dict[str, dict[str, ast.ClassDef]]) -> bool:
    import builtins

    todo, seen = [(module, cls)], set()
    while todo:
        mod, name = todo.pop()
        if (mod, name) in seen:
            continue
        seen.add((mod, name))
        for b in classes[mod][name].bases:
            spelled = ast.unparse(b.value if isinstance(b, ast.Subscript) else b).rsplit(".", 1)[-1]
            if mod == module and name == cls and spelled == "Protocol":
                return True
            builtin = getattr(builtins, spelled, None)
            if isinstance(builtin, type) and issubclass(builtin, BaseException):
                return True
            found = _resolve(b, mod, names, classes)
            if found is not None:
                todo.append(found)
    return False


def split_classes(root: Path, package: str = "table") -> list[str]:
    """One line per class of ``companion/<package>/`` that inherits a class defined in
    another module of that package, unless the base is a Protocol or an exception: a
    class split across files by inheritance (its parts are to be held, not inherited)."""
    classes, names = _class_index(root)
    prefix = f"{root.name}.{package}"
    out: list[str] = []
    for here in sorted(classes):
        if here != prefix and not here.startswith(prefix + "."):
            continue
        for cls, node in classes[here].items():
            for b in node.bases:
                found = _resolve(b, here, names, classes)
                if found is None or found[0] == here or not (found[0] == prefix or found[0].startswith(prefix + ".")):
                    continue
                if not _is_protocol_or_exception(*found, names, classes):
                    out.append(f"{here}.{cls} inherits {found[0]}.{found[1]}")
    return sorted(out)


def test_no_class_of_the_table_is_split_across_its_modules() -> None:
    assert split_classes(ROOT) == []


def _made(root: Path, classes: dict[str, dict[str, ast.ClassDef]],
          names: dict[str, dict[str, tuple[str, str | None]]]) -> set[tuple[str, str]]:
    """Every (module, class) of the package that a module of the package calls."""
    made: set[tuple[str, str]] = set()
    for here, path in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found = _resolve(node.func, here, names, classes)
                if found is not None:
                    made.add(found)
    return made


def split_classes_anywhere(root: Path) -> list[str]:
    """One line per class of the package split across two files by inheritance.

    The rule: a class ``C`` inherits a base ``B`` defined in another module of the
    package, ``C`` is the only subclass ``B`` has anywhere in the package, nobody makes
    a ``B`` itself (no module of the package calls it), and ``B`` is neither a Protocol
    nor an exception. Then ``B`` is not a class of its own but a slice of ``C`` kept in
    another file (typically with stubs for state only ``C`` sets), the split the
    developers' guide forbids: hold the part instead. Inheritance that is not a split
    passes: an interface with several implementations (``games.base.Variant``, the
    gpiozero-style ``LedBackend`` and ``SensorBackend``, ``play.policy.Policy``), a mixin
    two classes share (``SharpMixin``), a class made in its own right that a sharper one
    extends (``ColorGinPolicy``, ``GinskiPolicy``, ``StrongPolicy``), and a base in the
    same module. Subclasses and calls in tests do not count: a test's fake does not make
    a slice a class."""
    classes, names = _class_index(root)
    subclasses: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for here in sorted(classes):
        for cls, node in classes[here].items():
            for b in node.bases:
                found = _resolve(b, here, names, classes)
                if found is not None:
                    subclasses.setdefault(found, []).append((here, cls))
    made = _made(root, classes, names)
    out = []
    for (module, base), subs in subclasses.items():
        if len(subs) != 1 or subs[0][0] == module or (module, base) in made:
            continue
        if not _is_protocol_or_exception(module, base, names, classes):
            out.append(f"{subs[0][0]}.{subs[0][1]} inherits {module}.{base}, its only subclass (a {base} is "
                       "never made itself)")
    return sorted(out)


def test_no_class_is_split_across_files_by_inheritance() -> None:
    assert split_classes_anywhere(ROOT) == []


def test_the_split_check_sees_a_class_built_across_modules(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    files = {
        "__init__.py": "", "errors.py": "class CompanionError(ValueError):\n    pass\n",
        "store.py": "class Store:\n    pass\n",
        "table/__init__.py": "",
        "table/errors.py": "from companion.errors import CompanionError\nclass TableError(CompanionError):\n    pass\n",
        "table/seams.py": "from typing import Protocol\nclass GameTable(Protocol):\n    def game(self) -> None: ...\n",
        "table/reads.py": "class Reads:\n    def games(self) -> list: return []\n",
        "table/ledger.py": "from companion.table.reads import Reads\nclass Ledger:\n    def __init__(self):\n"
                           "        self.reads = Reads()\n",
        "table/service.py": "from abc import ABC\nfrom companion.store import Store\nfrom companion.table import errors\n"
                            "from companion.table.seams import GameTable\nfrom companion.table.ledger import Ledger\n"
                            "class Busy(errors.TableError):\n    pass\nclass Fake(GameTable):\n    pass\n"
                            "class Base(ABC):\n    pass\nclass Local(Base):\n    pass\nclass Saved(Store):\n    pass\n"
                            "class Table:\n    def __init__(self):\n        self.ledger = Ledger()\n",
    }
    write_tree(root, files)
    # held parts, an exception, a Protocol, a base of the same module or from outside the package: no split
    assert split_classes(root) == []
    (root / "table" / "ledger.py").write_text("from .reads import Reads\nclass Ledger(Reads):\n    pass\n",
                                             encoding="utf-8")
    (root / "table" / "service.py").write_text(
        "from companion.table import ledger\nfrom companion.table.reads import Reads as R\n"
        "class Table(ledger.Ledger):\n    pass\nclass Outings(R):\n    pass\n", encoding="utf-8")
    assert split_classes(root) == [
        "companion.table.ledger.Ledger inherits companion.table.reads.Reads",
        "companion.table.service.Outings inherits companion.table.reads.Reads",
        "companion.table.service.Table inherits companion.table.ledger.Ledger",
    ]


def test_the_split_check_anywhere_sees_a_slice_and_lets_interfaces_pass(tmp_path: Path) -> None:
    root = tmp_path / "companion"
    files = {
        "__init__.py": "", "errors.py": "class CompanionError(ValueError):\n    pass\n",
        "games/__init__.py": "",
        "games/base.py": "class Variant:\n    name = ''\n",
        "games/gin.py": "from companion.games.base import Variant\nclass Gin(Variant):\n    name = 'gin'\n",
        "games/toy.py": "from companion.games import base\nclass Toy(base.Variant):\n    name = 'toy'\n",
        "games/errors.py": "from companion.errors import CompanionError\nclass GameError(CompanionError):\n    pass\n",
        "play/__init__.py": "",
        "play/bot.py": "class Normal:\n    def move(self) -> int: return 1\nNORMAL = Normal()\n",
        "play/sharp.py": "from companion.play.bot import Normal\nclass Sharp(Normal):\n    pass\n"
                         "class Local:\n    pass\nclass Near(Local):\n    pass\n",
        "hardware/__init__.py": "",
        "hardware/receive.py": "class Receiver:\n    def send(self) -> bool:\n        raise NotImplementedError\n",
        "hardware/link.py": "from .receive import Receiver\nclass Link:\n    def __init__(self):\n"
                            "        self.receiver = Receiver()\n",
    }
    write_tree(root, files)
    # a variant-like base with two subclasses, an exception, a bot made itself and extended,
    # a base of the same module, a part held: no split
    assert split_classes_anywhere(root) == []
    (root / "hardware" / "link.py").write_text(
        "from .receive import Receiver\nclass Link(Receiver):\n    def send(self) -> bool: return True\n",
        encoding="utf-8")
    (root / "play" / "bot.py").write_text("class Normal:\n    def move(self) -> int: return 1\n", encoding="utf-8")
    assert split_classes_anywhere(root) == [
        "companion.hardware.link.Link inherits companion.hardware.receive.Receiver, its only subclass (a Receiver "
        "is never made itself)",
        "companion.play.sharp.Sharp inherits companion.play.bot.Normal, its only subclass (a Normal is never made "
        "itself)",
    ]
    # a second implementation makes the receiver an interface; a variant with one game left is a slice
    (root / "hardware" / "fake.py").write_text("from companion.hardware.receive import Receiver as R\n"
                                               "class Fake(R):\n    pass\n", encoding="utf-8")
    (root / "games" / "toy.py").write_text("", encoding="utf-8")
    assert split_classes_anywhere(root) == [
        "companion.games.gin.Gin inherits companion.games.base.Variant, its only subclass (a Variant is never made "
        "itself)",
        "companion.play.sharp.Sharp inherits companion.play.bot.Normal, its only subclass (a Normal is never made "
        "itself)",
    ]
