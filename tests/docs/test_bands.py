"""docs/functions.md's table of `sql_similarity`'s bands (anchor `sql_similarity-bands`, the one
page that gives their limits; the others link to it) holds exactly the bands `src/combined.rs`
defines."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ANCHOR = '<a id="sql_similarity-bands"></a>'
CONST = re.compile(r"pub const (\w+): Band = Band \{\s*low: ([\d.]+),\s*high: ([\d.]+),\s*\};")
INTERVAL = re.compile(r"\[(\d+(?:\.\d+)?), (\d+(?:\.\d+)?)\]")


def code_bands():
    text = (ROOT / "src" / "combined.rs").read_text(encoding="utf-8")
    return {(float(lo), float(hi)) for _, lo, hi in CONST.findall(text)}


def table_bands():
    text = (ROOT / "docs" / "functions.md").read_text(encoding="utf-8")
    assert ANCHOR in text, f"docs/functions.md lacks {ANCHOR} before sql_similarity's bands"
    rows = []
    for line in text[text.index(ANCHOR):].splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append(line)
    return [tuple(float(x) for x in m) for row in rows[1:] for m in INTERVAL.findall(row.split("|")[-2])]


def test_functions_md_lists_every_band_of_the_code():
    code, table = code_bands(), table_bands()
    assert len(code) == 5, f"src/combined.rs: expected the five Band constants, read {sorted(code)}"
    assert sorted(set(table)) == sorted(code) and len(table) == len(code), (
        f"docs/functions.md's band table {table} differs from src/combined.rs's bands {sorted(code)}")
