"""Every relative link of every Markdown file in the repository resolves: the file or folder it
names exists, and its #anchor is a heading of the target (GitHub's anchor rules) or an explicit
<a id>/<a name>. External links (http:, https:, mailto:) are not fetched. Also: the page that
`make eval` writes into has its markers."""
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", ".cache", "target", "dist", "node_modules", "__pycache__"}
# Pages another branch adds (i17: the Python package and its command line). A link to one is
# checked like any other as soon as the file exists; until then it is not an error.
PENDING = {"docs/python.md", "LICENSE"}

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def markdown_files():
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".md"):
                yield Path(dirpath) / name


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fenced is None:
                fenced = m.group(1)
            elif m.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading: the rendered text lowercased, punctuation other than `-` and
    `_` removed, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links read as their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"(?<![\w])_+|_+(?![\w])", "", text)  # emphasis underscores, not snake_case
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for _, line in prose_lines(text):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            found.update(HTML_ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def links(path):
    """(line number, target) of every link in the prose of a Markdown file."""
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        m = REF_DEF.match(line)
        if m:
            yield number, m.group(1)
            continue
        for target in INLINE_LINK.findall(INLINE_CODE.sub("", line)):
            yield number, target


def broken_links(path):
    problems = []
    for number, target in links(path):
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # empty, or external (http:, https:, mailto:)
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        where = f"{path.relative_to(ROOT)}:{number}: {target}"
        if not dest.exists():
            rel = os.path.relpath(dest, ROOT)
            if rel not in PENDING:
                problems.append(f"{where}: no such file {rel}")
            continue
        if anchor and dest.is_file() and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{where}: no heading with anchor #{anchor} in {dest.relative_to(ROOT)}")
    return problems


FILES = list(markdown_files())


def test_markdown_files_found():
    names = {str(p.relative_to(ROOT)) for p in FILES}
    assert {"README.md", "ARCHITECTURE.md", "docs/functions.md"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path):
    problems = broken_links(path)
    assert problems == [], "broken links:\n" + "\n".join(problems)


def test_slug_follows_github():
    assert slug("The official report: `make spider-eval`") == "the-official-report-make-spider-eval"
    assert slug("Execution accuracy: `ETYPE=exec|all`") == "execution-accuracy-etypeexecall"
    assert slug("BIRD's other metrics") == "birds-other-metrics"
    assert slug("`sql_similarity`") == "sql_similarity"
    assert slug("Quality (`make eval`)") == "quality-make-eval"


def test_checker_finds_a_broken_link(tmp_path, monkeypatch):
    """The checker itself: a missing file and a missing anchor are reported, good links are not."""
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    (tmp_path / "a.md").write_text("# Title\n\n## Part two\n\n[ok](#part-two) [ok](b.md#x-y)\n"
                                   "[bad](#part-three) [bad](c.md)\n```\n[in code](nowhere.md)\n```\n")
    (tmp_path / "b.md").write_text("# X y\n")
    problems = broken_links(tmp_path / "a.md")
    assert len(problems) == 2, problems
    assert "#part-three" in problems[0] and "c.md" in problems[1]


def test_eval_markers_in_quality_page():
    """`make eval` (scripts/eval/eval.py --readme $(EVAL_TABLE), docs/quality.md) writes between these markers."""
    text = (ROOT / "docs" / "quality.md").read_text(encoding="utf-8")
    assert text.count("<!-- eval:begin -->") == 1 and text.count("<!-- eval:end -->") == 1
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "EVAL_TABLE ?= docs/quality.md" in makefile and "--readme $(EVAL_TABLE)" in makefile
