"""Every repository path that ARCHITECTURE.md, README.md and docs/*.md name exists. Markdown links
are test_links.py's; this test reads the paths written as text:

- a path that starts with one of the repository's top-level folders (`src/`, `scripts/eval/eval.py`,
  in code or in prose) must exist from the repository root;
- any other path in code (`registry/plan.rs`, `symbolic/setops.rs`) must be the end of a path in
  the repository, and a bare Rust file name (`infer.rs`) the name of one of its files.

Placeholders (`<name>`, `*`), paths outside the checkout (`../shared/data`), build outputs (dist/,
target/, .cache/) and the wheel's installed layout (`sqlsim/lib/...`) are not files of the checkout
and are left out."""
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", ".cache", "target", "dist", "node_modules", "__pycache__", ".pytest_cache"}
PAGES = ["ARCHITECTURE.md", "README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))
TOP = sorted(p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in SKIP_DIRS and p.name != ".git")
# not files of the checkout: build outputs, the installed wheel, paths outside the repository
NOT_IN_CHECKOUT = ("../", ".../", "/", "dist/", "target/", ".cache/", ".venv/", "sqlsim/", "python/sqlsim/lib/",
                   ".dist-info/")
# folders of ../shared/data (DATA), which pages name relative to it (`bird/schema.json`)
DATA_FOLDERS = ("bird/", "spider/")

FENCE = re.compile(r"^\s*(```|~~~)")
CODE = re.compile(r"(`+)((?:(?!\1).)+?)\1")
PATH = re.compile(r"[\w.\-]+(?:/[\w.\-]+)*/?")
# in prose, a path from a top-level folder to a file with an extension or to a folder (`docs/`);
# a glob or placeholder (`sql/spider_eval*.sql`) is left out by the lookahead
PROSE_PATH = re.compile(r"(?<![\w./\-])((?:%s)/(?:[\w.\-]+/)*(?:[\w\-]+\.\w+)?)(?![\w.\-/*<>{])"
                        % "|".join(re.escape(t) for t in TOP))


def tree():
    """Every file and folder of the checkout, relative to its root (build outputs left out)."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        rel = Path(dirpath).relative_to(ROOT).as_posix()
        if rel != ".":
            found.add(rel)
        found.update(f"{rel}/{f}" if rel != "." else f for f in filenames)
    return found


TREE = tree()


def lines(page):
    """(line number, line) of a page outside fenced code blocks."""
    fenced = None
    for number, line in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if m:
            fenced = m.group(1) if fenced is None else (None if m.group(1) == fenced else fenced)
        elif fenced is None:
            yield number, line


def named_paths(line):
    """(path, exact) of each repository path a line names: exact when it starts at the root."""
    for m in CODE.finditer(line):
        text = m.group(2).strip()
        if not PATH.fullmatch(text) or text.startswith(NOT_IN_CHECKOUT + DATA_FOLDERS):
            continue
        if text.split("/")[0] in TOP and "/" in text:
            yield text, True
        elif "/" in text.rstrip("/") or text.endswith(".rs"):
            yield text, False
    for m in PROSE_PATH.finditer(CODE.sub("", line)):
        if not m.group(1).startswith(NOT_IN_CHECKOUT):
            yield m.group(1), True


def exists(path, exact):
    path = path.rstrip("/")
    return path in TREE if exact else path in TREE or any(p.endswith("/" + path) for p in TREE)


def missing(page):
    return [f"{page}:{number}: {path}" for number, line in lines(page) for path, exact in named_paths(line)
            if not exists(path, exact)]


@pytest.mark.parametrize("page", PAGES)
def test_every_path_a_page_names_exists(page):
    gone = missing(page)
    assert not gone, "paths that do not exist (moved or removed?):\n" + "\n".join(gone)


def test_the_check_sees_a_moved_path():
    assert list(named_paths("the ROC plot of `scripts/eval/eval.py`")) == [("scripts/eval/eval.py", True)]
    assert not exists("scripts/eval.py", True) and exists("scripts/eval/eval.py", True)
    assert [p for p, _ in named_paths("built by scripts/build_wheel.py (make wheel)")] == ["scripts/build_wheel.py"]
    assert not exists("src/stats.rs", True)
    assert exists("registry/plan.rs", False) and not exists("stats.rs", False)
    assert list(named_paths("`../shared/data`, `dist/sqlsim.so`, `src/plan/rules/<name>.rs`")) == []
    assert list(named_paths("sql/spider_eval*.sql at 1,000 examples/s")) == []


def test_architecture_names_every_python_module():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    modules = sorted(p.name for p in (ROOT / "python" / "sqlsim").glob("*.py"))
    unnamed = [m for m in modules if f"`{m}`" not in text]
    assert not unnamed, f"ARCHITECTURE.md's map of python/sqlsim/ does not name: {unnamed}"
