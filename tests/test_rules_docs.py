"""The rules pages (docs/rules/<slug>.md): one per game, an anchor for every spec reference a
parameter cites, every such parameter named, working in-page and relative links, and nothing
that ships pointing at the ../shared folder a clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engines

pytestmark = pytest.mark.jitless

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SHIPPED = ("README.md", "docs", "sim", "engines", "agents", "reports")
FORBIDDEN = ("../shared", "shared/rules", "shared/sources")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor_ids(ref: str) -> list[str]:
    """The anchors a parameter's ``ref`` needs: one per reference ("A1/A5" -> a1, a5), each
    lower-cased with spaces as hyphens ("FFT A5" -> fft-a5)."""
    return [re.sub(r"[^a-z0-9]+", "-", part.strip().lower()).strip("-")
            for part in ref.split("/") if part.strip()]


def page(slug: str) -> str:
    path = RULES / f"{slug}.md"
    assert path.is_file(), f"no rules page for {slug}: {path.relative_to(ROOT)}"
    return path.read_text(encoding="utf-8")


def test_anchor_ids_of_a_reference():
    assert anchor_ids("A3") == ["a3"]
    assert anchor_ids("A1/A5") == ["a1", "a5"]
    assert anchor_ids("FFT A5") == ["fft-a5"]
    assert anchor_ids("B4 / C2") == ["b4", "c2"]


@pytest.mark.parametrize("slug", engines.available())
def test_every_reference_has_its_anchor_and_every_parameter_is_named(slug):
    text = page(slug)
    anchors = set(ANCHOR.findall(text))
    missing = [(info.key, ref) for info in engines.params_class(slug).describe()
               if info.ref for ref in anchor_ids(info.ref) if ref not in anchors]
    assert not missing, f"{slug}: parameters whose reference has no anchor: {missing}"
    unnamed = [info.key for info in engines.params_class(slug).describe()
               if info.ref and f"`{info.key}" not in text]
    assert not unnamed, f"{slug}: parameters with a reference the page never names: {unnamed}"


@pytest.mark.parametrize("slug", engines.available())
def test_the_page_is_titled_and_its_links_resolve(slug):
    text = page(slug)
    assert text.startswith("# ") and f"(`{slug}`)" in text.splitlines()[0]
    anchors = set(ANCHOR.findall(text))
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, fragment = target.partition("#")
        if not path:
            assert fragment in anchors, f"{slug}: link to a missing anchor #{fragment}"
            continue
        linked = (RULES / path).resolve()
        assert linked.is_file(), f"{slug}: link to a missing file {target}"
        if fragment and linked.suffix == ".md":
            assert fragment in ANCHOR.findall(linked.read_text(encoding="utf-8")), \
                f"{slug}: link to a missing anchor {target}"


def test_the_index_links_every_game():
    index = (RULES / "README.md").read_text(encoding="utf-8")
    unlisted = [slug for slug in engines.available() if f"]({slug}.md)" not in index]
    assert not unlisted, f"docs/rules/README.md does not link: {unlisted}"


def shipped_files() -> list[Path]:
    found: list[Path] = []
    for name in SHIPPED:
        path = ROOT / name
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found += [p for p in path.rglob("*")
                      if p.is_file() and "__pycache__" not in p.parts]
    return found


def test_nothing_shipped_points_at_the_shared_folder():
    files = shipped_files()
    assert len(files) > 100, "the shipped folders were not found"
    offending = [f"{p.relative_to(ROOT)}: {needle}" for p in files
                 for needle in FORBIDDEN if needle.encode() in p.read_bytes()]
    assert not offending, "files pointing at ../shared: " + "; ".join(offending)
