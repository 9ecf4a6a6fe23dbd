"""The Makefile's targets, `make help` and docs/development.md agree: `.PHONY` is declared once and
names every target, every target has a `## ` description (what `make help` prints), and the targets
table of docs/development.md lists the same targets with the same descriptions, in the same order."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
BEGIN, END = "<!-- targets:begin -->", "<!-- targets:end -->"
# a rule whose name is a plain word (file targets have a slash, a dot or a variable in theirs)
RULE = re.compile(r"^([a-z][a-z0-9-]*):(?!=)", re.M)


def make_help():
    """[(target, description)] as `make help` prints them."""
    out = subprocess.run(["make", "-s", "--no-print-directory", "help"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    return [tuple(line.split(None, 1)) for line in out.splitlines() if line.strip()]


def phony():
    declared = re.findall(r"^\.PHONY:((?:.*\\\n)*.*)$", MAKEFILE, re.M)
    assert len(declared) == 1, f".PHONY is declared {len(declared)} times; declare every target once, at the top"
    return declared[0].replace("\\\n", " ").split()


def test_every_target_is_phony_and_described():
    rules = RULE.findall(MAKEFILE)
    names = [name for name, _ in make_help()]
    assert len(set(rules)) == len(rules), f"targets defined twice: {sorted({r for r in rules if rules.count(r) > 1})}"
    assert sorted(phony()) == sorted(rules), (
        f"not in .PHONY: {sorted(set(rules) - set(phony()))}; in .PHONY without a rule: {sorted(set(phony()) - set(rules))}")
    assert names == rules, f"targets without a `## ` line right above their rule: {sorted(set(rules) - set(names))}"


def development_table():
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text, f"docs/development.md lacks the {BEGIN} ... {END} table"
    rows = []
    for line in text[text.index(BEGIN) + len(BEGIN):text.index(END)].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`make ([a-z0-9-]+)`", cells[0]) if len(cells) == 2 else None
        if match:
            rows.append((match.group(1), cells[1]))
    return rows


def test_development_md_lists_what_make_help_prints():
    table, help_rows = development_table(), make_help()
    expected = "\n".join(f"| `make {t}` | {d} |" for t, d in help_rows)
    assert table == help_rows, ("docs/development.md's targets table differs from `make help`; "
                                f"the rows it should hold:\n{expected}")
