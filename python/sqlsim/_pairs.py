"""The (gold, pred, schema) of each row of an input file, checked before anything is scored: the
columns exist, gold and pred are text (or NULL), every database the rows name is in the schema file
(or the user chose to infer the missing ones), and the extension reads every schema."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._errors import UsageError
from ._host import Host
from ._inputs import require_columns
from ._schemas import Schemas, schema_text


def _rows_text(rows: list[int]) -> str:
    shown = ", ".join(str(r) for r in rows[:5])
    return shown + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")


@dataclass
class Pairs:
    """gold, pred and schema per input row (input position = `row`)."""

    gold: list
    pred: list
    schema: list
    #: db_ids missing from the schema file whose rows are scored with an inferred schema
    inferred: dict = field(default_factory=dict)

    def row(self, i: int):
        return (i, self.gold[i], self.pred[i], self.schema[i])


def _text_cell(value, path, column, i):
    if value is None or isinstance(value, str):
        return value
    raise UsageError(f"{path}: row {i}, column {column!r}: a {type(value).__name__} ({str(value)[:40]}), "
                     "expected SQL text or null")


def prepare(rows: list[dict], args, host: Host, what: str, numbers: list | None = None) -> Pairs:
    """The pairs of `rows` (from the file `what`), with the schema of --schema / --schema-column;
    raises UsageError naming the file, row and column for every problem. `numbers`: each row's
    position in the file, when `rows` are some of its rows."""
    n = (lambda i: numbers[i]) if numbers is not None else (lambda i: i)
    if args.schema and args.schema_column:
        raise UsageError("--schema and --schema-column: give one")
    schemas = Schemas(args.schema, db_hint="the db_id column, --db-id-column")
    wanted = {args.gold_column: "--gold-column", args.pred_column: "--pred-column"}
    if args.schema_column:
        wanted[args.schema_column] = "--schema-column"
    if schemas.per_db:
        wanted[args.db_id_column] = f"--db-id-column, needed by {args.schema}'s one schema per database"
    require_columns(rows, what, wanted)
    gold = [_text_cell(r.get(args.gold_column), what, args.gold_column, n(i)) for i, r in enumerate(rows)]
    pred = [_text_cell(r.get(args.pred_column), what, args.pred_column, n(i)) for i, r in enumerate(rows)]
    inferred: dict = {}
    if args.schema_column:
        schema = []
        for i, r in enumerate(rows):
            try:
                schema.append(schema_text(r.get(args.schema_column)))
            except UsageError as e:
                raise UsageError(f"{what}: row {n(i)}, column {args.schema_column!r}: {e}") from None
    elif schemas.per_db:
        missing: dict = {}
        schema = []
        for i, r in enumerate(rows):
            db_id = r.get(args.db_id_column)
            if db_id is None:
                raise UsageError(f"{what}: row {n(i)}, column {args.db_id_column!r} is null; {args.schema} needs "
                                 "each row's database")
            if schemas.has(db_id):
                schema.append(schemas.get(db_id))
            else:
                missing.setdefault(db_id, []).append(n(i))
                schema.append(None)
        if missing and getattr(args, "missing_schema", "error") != "infer":
            listed = "; ".join(f"{db!r} (rows {_rows_text(rs)})" for db, rs in list(missing.items())[:5])
            more = f" and {len(missing) - 5} more databases" if len(missing) > 5 else ""
            raise UsageError(f"{args.schema} has no schema for {sum(map(len, missing.values()))} rows of {what}: "
                             f"databases {listed}{more}. Add them to the schema file, or pass --missing-schema "
                             "infer to score those rows with the schema inferred from their queries")
        inferred = missing
    else:
        schema = [schemas.get(None)] * len(rows)
    bad = {}
    for i, s in enumerate(schema):
        if s is not None and s not in bad:
            bad[s] = (i, host.schema_error(s))
    for s, (i, error) in bad.items():
        if error:
            where = (f"row {n(i)}, column {args.schema_column!r}" if args.schema_column else
                     f"database {rows[i].get(args.db_id_column)!r} of {args.schema}" if schemas.per_db else
                     f"--schema {args.schema}")
            raise UsageError(f"{what}: {where}: the schema cannot be read: {error}")
    return Pairs(gold, pred, schema, inferred)


def parse_failures(host: Host, pairs: Pairs) -> tuple[list, list]:
    """(rows whose gold does not parse, with the message; rows whose pred does not parse)."""
    rows = [pairs.row(i) for i in range(len(pairs.gold))]
    gold, pred = [], []
    for start in range(0, len(rows), 4096):
        host.put(rows[start:start + 4096])
        for row, g, p in host.query("SELECT row, sql_parse_error(gold), sql_parse_error(pred) FROM pairs ORDER BY row"):
            if g is not None:
                gold.append((row, g))
            if p is not None:
                pred.append((row, p))
    return gold, pred


def parse_notes(gold_failures, pred_failures, nulls, warn):
    """Warnings on stderr for queries the parser rejects and NULL queries; returns the summary's notes."""
    notes = []
    if gold_failures:
        row, message = gold_failures[0]
        warn(f"warning: the gold query of {_count(gold_failures, 'row')} does not parse (row"
             f"{'s' if len(gold_failures) != 1 else ''} {_rows_text([r for r, _ in gold_failures])}; row {row}: "
             f"{message}); their scores say nothing about the predictions (each metric gives its lowest score; "
             "sql_similarity the undecided band's floor, 0.05)")
        notes.append(f"{_count(gold_failures, 'gold query', 'gold queries')} not parsed")
    if pred_failures:
        notes.append(f"{_count(pred_failures, 'prediction')} not parsed")
    if nulls:
        notes.append(f"{_count(nulls, 'row')} with a NULL gold or pred (NULL scores)")
    return notes


def _count(items, one: str, many: str | None = None) -> str:
    return f"{len(items)} {one if len(items) == 1 else many or one + 's'}"
