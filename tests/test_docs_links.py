"""Every relative link and image in README.md and docs/*.md points at a file that exists,
every ``#anchor`` names a heading of its target page, and README.md's "Where next" list
reaches every page in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

# [text](target) and ![alt](target); the target ends at whitespace or ")"
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_SRC = re.compile(r"""<(?:img|a)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.IGNORECASE)
FENCE = re.compile(r"^(```|~~~)")


def _prose(text: str) -> str:
    """The text outside fenced code blocks and inline code spans."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose(page.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _targets(page: Path) -> list[str]:
    text = _prose(page.read_text(encoding="utf-8"))
    return LINK.findall(text) + HTML_SRC.findall(text)


def _is_external(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in _targets(page):
        if _is_external(target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file {dest.relative_to(REPO) if dest.is_relative_to(REPO) else dest}")
            continue
        if anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.name}")
    assert not broken, f"{page.relative_to(REPO)} has broken links:\n  " + "\n  ".join(broken)


def test_readme_reaches_every_doc() -> None:
    readme = REPO / "README.md"
    linked = {(REPO / t.partition("#")[0]).resolve() for t in _targets(readme) if not _is_external(t)}
    missing = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not missing, f"README.md does not link to docs/{', docs/'.join(missing)}"


def test_checker_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n[ok](#title) [gone](missing.md) ![img](img/none.png)\n"
                    "`[not a link](nowhere.md)`\n```\n[code](nowhere.md)\n```\n", encoding="utf-8")
    assert _targets(page) == ["#title", "missing.md", "img/none.png"]
    assert _anchors(page) == {"title"}
