"""The README's function reference is exactly what scripts/build/function_reference.py generates from the
built extension's sqlsim_functions(), and every registered function has its section in
docs/functions.md. Fails with the diff and "run `make docs`" when they have drifted apart."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "build"))
import function_reference as ref  # noqa: E402

ROWS = ref.registry_rows()


def test_readme_reference_matches_registry():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    _, current, _ = ref.split(readme, "README.md")
    generated = ref.block(ROWS)
    assert current == generated, (
        "README.md's function reference differs from sqlsim_functions(); run `make docs`\n"
        + "\n".join(ref.difflib.unified_diff(current.splitlines(), generated.splitlines(), lineterm="")))


def test_every_function_has_details():
    details = (ROOT / "docs" / "functions.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^### `(\w+)`$", details, re.M))
    names = [r[0] for r in ROWS]
    assert sorted(set(names) - sections) == [], "functions without a section in docs/functions.md"
    assert sorted(sections - set(names)) == [], "sections of docs/functions.md for no registered function"


def test_table_escapes_pipes():
    rows = [("f", "scalar", "f(a TEXT) -> REAL", "1 - d / max(|T1|, |T2|). See docs/functions.md#f.")]
    assert "max(\\|T1\\|, \\|T2\\|). [details](docs/functions.md#f)" in ref.table(rows)


def test_doc_strings_are_short_and_link_their_section():
    """One place per fact: the full description is in docs/functions.md; a doc string is one or two
    sentences (at most 240 characters) and ends with the link to its section."""
    for name, _, _, doc in ROWS:
        text, target = ref.split_doc(name, doc)
        sentences = [s for s in text.replace("e.g.", "eg").split(". ") if s.strip()]
        assert len(sentences) <= 2 and len(text) <= 240, f"{name}'s doc is longer than two sentences: {text!r}"
        assert target == f"docs/functions.md#{name}"
