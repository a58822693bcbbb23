"""Every import points down the layers, read from the source with ``ast``:

    domain       cards, board, board view, suit rows, errors, melds, games, rules, play
    application  table, store, pairing, stats (and the stats book), paths
    adapters     hardware, api, web, discovery, mqtt
    commands     commands (the service assembly and settings among them), cli

A module may import its own layer and the layers below it, never one above. Imports
inside functions count, and so do ``from companion import hardware`` and relative
imports. Every module of the package must sit in a layer, so a new one cannot slip
past the check."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"

#: bottom first; a module's layer is the first of its dotted name's prefixes listed here
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("domain", ("cards", "board", "boardview", "suit_rows", "errors", "melds", "games", "rules", "play")),
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
        "companion.cards (domain) imports companion.table (application)",
        "companion.hardware.sync (adapters) imports companion.cli (commands)",
        "companion.newthing is in no layer: add it to LAYERS in tests/test_layers.py",
        "companion.table.fold (application) imports companion.api (adapters)",
        "companion.table.fold (application) imports companion.api.app (adapters)",
        "companion.table.fold (application) imports companion.commands (commands)",
        "companion.table.fold (application) imports companion.commands.serve (commands)",
        "companion.table.fold (application) imports companion.hardware (adapters)",
    ]
