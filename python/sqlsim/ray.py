"""Scoring a Ray Dataset with any sqlsim SQL expression, DuckDB and the extension loaded once per worker.

    import ray, sqlsim.ray
    ds = ray.data.read_parquet("s3://bucket/pairs/")                 # columns gold, pred, schema, ...
    scored = sqlsim.ray.score(ds, "sql_similarity(gold, pred, schema)")
    scored.write_parquet("s3://bucket/scored/")                      # streams: nothing held whole

:func:`score` maps the dataset's batches through a pool of actors (``map_batches`` with a class):
each actor opens one in-memory DuckDB connection with the extension loaded when it starts, keeps
it for every batch it scores, and with it sqlsim's process-wide caches (parsed queries, plans,
GMN graphs, ParSEval's gold suites and verdicts). A batch is registered as a DuckDB view of its
Arrow table (no copy), ``SELECT <expr>`` runs over it, and the result is appended as the column
``score`` (or ``column``); rows keep their order and their other columns. ``expr`` is any SQL
expression over the dataset's columns, e.g. ``sql_equivalent(gold, pred, schema)``,
``astpm(gold, pred, 0.3, 0.5)`` or ``sql_similarity(gold, pred, schema, '{"work": 2000000}')``.

Ray Data executes lazily and streams: reading (``read_parquet``, ``read_json(..., lines=True)``),
scoring and writing run block by block with bounded memory, so inputs of any size work; see
:func:`score_files`. Scores are the same as DuckDB's on the same rows in one process: every sqlsim
function is deterministic whatever the batch, order or worker (the GMN scores are float32
inference batched per DuckDB chunk and may differ from a single-row call in the last bits, below
1e-5).

Rows of the same gold query are scored fastest on the same worker (the gold's test databases are
generated once per worker): ``colocate="gold"`` hash-partitions the dataset by that column first
(a shuffle), which pays off when each gold has many predictions (RL rollout groups).
"""

from __future__ import annotations

import os

from . import duckdb_extension, open_duckdb

__all__ = ["score", "score_files", "Scorer"]

_INDEX = "__sqlsim_row"


class Scorer:
    """The actor of :func:`score`: one DuckDB connection with sqlsim loaded, reused for every batch."""

    def __init__(self, expr, column="score", extension=None, threads=1):
        self.expr = expr
        self.column = column
        self.con = open_duckdb(extension, threads)

    def __call__(self, batch):
        import pyarrow as pa

        if not isinstance(batch, pa.Table):
            batch = pa.Table.from_pydict(batch) if isinstance(batch, dict) else pa.Table.from_pandas(batch)
        indexed = batch.append_column(_INDEX, pa.array(range(batch.num_rows), pa.int64()))
        self.con.register("sqlsim_batch", indexed)
        try:
            result = self.con.execute(f"SELECT ({self.expr}) AS s FROM sqlsim_batch ORDER BY {_INDEX}")
            # DuckDB >= 2: to_arrow_table; before: fetch_arrow_table
            fetch = getattr(result, "to_arrow_table", None) or result.fetch_arrow_table
            scores = fetch()
        finally:
            self.con.unregister("sqlsim_batch")
        column = scores.column(0) if isinstance(scores, pa.Table) else pa.table(scores).column(0)
        if self.column in batch.column_names:
            batch = batch.drop_columns([self.column])
        return batch.append_column(self.column, column)


def score(ds, expr, *, column="score", extension=None, concurrency=None, batch_size=256, threads=1,
          num_cpus=1, colocate=None):
    """``ds`` with a column ``column`` (default "score") holding ``expr`` evaluated on each row.

    ``concurrency``: the number of scoring actors (default: Ray Data's choice, up to the CPUs);
    ``threads`` DuckDB threads and ``num_cpus`` CPUs reserved per actor; ``batch_size`` rows per
    DuckDB query (the GMN scores run batched within it); ``extension``: the DuckDB extension file
    (default $SQLSIM_DUCKDB_EXTENSION, else the installed package's); ``colocate``: a column whose
    equal values should be scored by the same actor (e.g. "gold"), by hash-partitioning first.
    Lazy, like every Ray Data transformation.
    """
    kwargs = {}
    if concurrency is not None:
        kwargs["concurrency"] = concurrency
    if colocate:
        ds = ds.repartition(max(1, int(concurrency or 1)) * 4, keys=[colocate])
    return ds.map_batches(
        Scorer,
        fn_constructor_kwargs={"expr": expr, "column": column, "extension": duckdb_extension(extension),
                               "threads": threads},
        batch_size=batch_size,
        batch_format="pyarrow",
        num_cpus=num_cpus,
        **kwargs,
    )


def score_files(inputs, output, expr, **options):
    """Reads Parquet (``*.parquet``) or JSON lines (anything else) from ``inputs`` (a path, a
    folder or a list), scores every row with :func:`score` and writes Parquet files to the folder
    ``output``, streaming block by block. Returns the number of rows written."""
    import ray.data

    paths = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    paths = [str(p) for p in paths]
    if all(p.endswith(".parquet") for p in paths):
        ds = ray.data.read_parquet(paths)
    else:
        ds = ray.data.read_json(paths, lines=True)
    scored = score(ds, expr, **options)
    scored.write_parquet(str(output))
    return ray.data.read_parquet(str(output)).count()
