"""Every import points down the layers: domain (cards, melds, board, board view, games,
rules) <- application (table, store, pairing) <- adapters (hardware, api) <- commands.

Read from the source with ``ast`` (imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "companion"

DOMAIN = ["cards.py", "board.py", "boardview.py", "suit_rows.py", "errors.py", "melds", "games", "rules"]
APPLICATION = ["table", "store", "pairing.py"]
ADAPTERS = ("companion.hardware", "companion.api", "companion.web")
COMMANDS = ("companion.commands", "companion.cli")


def modules(names: list[str]) -> list[Path]:
    out: list[Path] = []
    for n in names:
        p = ROOT / n
        out.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return out


def imported(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def above(names: set[str], layers: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == layer or n.startswith(layer + ".") for layer in layers))


@pytest.mark.parametrize("path", modules(DOMAIN + APPLICATION), ids=lambda p: str(p.relative_to(ROOT)))
def test_domain_and_application_import_no_adapter_or_command(path: Path) -> None:
    bad = above(imported(path), ADAPTERS + COMMANDS)
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}: the layers above it must not be imported here"


@pytest.mark.parametrize("path", modules(DOMAIN), ids=lambda p: str(p.relative_to(ROOT)))
def test_domain_imports_no_application(path: Path) -> None:
    bad = above(imported(path), ("companion.table", "companion.store", "companion.pairing", "companion.settings"))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_adapters_import_no_command() -> None:
    for path in modules(["hardware", "api"]):
        bad = above(imported(path), COMMANDS)
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_checker_sees_a_bad_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from companion.hardware.sync import BoardSync\n    import companion.api.app\n")
    assert above(imported(bad), ADAPTERS) == ["companion.api.app", "companion.hardware.sync"]
