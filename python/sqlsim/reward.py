"""A reward function for RL training of text-to-SQL models, with the signature of verl's custom reward hook.

    # verl: custom_reward_function.path=<site-packages>/sqlsim/reward.py  custom_reward_function.name=compute_score
    from sqlsim.reward import compute_score
    r = compute_score("spider", model_output, {"sql": gold_sql, "schema": schema_text})

What a call does:

1. **Extract the SQL** from the model's answer (:func:`extract_sql`): the content of the last
   ``<answer>...</answer>`` element when there is one, else the whole text; in it, the last fenced
   code block (```` ```sql ```` first, any ```` ``` ```` fence otherwise) when there is one; in
   that, the last statement that starts with SELECT or WITH (statements split at semicolons
   outside quotes and comments); in prose without such a statement, the query of the last
   sentence that holds one, from its SELECT or WITH ("First I tried SELECT a FROM t. The answer
   is SELECT b FROM t" gives the second). The query ends before a line or sentence of prose
   that follows it without a semicolon (one that starts with three plain words that are not
   SQL, "Explanation:", or Markdown emphasis), and without a sentence's closing period.
   Answers larger than :data:`MAX_ANSWER_CHARS` are cut to their
   last :data:`MAX_ANSWER_CHARS` characters first (the answer is at the end); bytes are decoded
   as UTF-8 with replacement characters. No such statement: no SQL.
2. **Score** the pair with ``sql_similarity_components(gold, pred, schema)`` in DuckDB (the score
   of ``sql_similarity`` and the verdict of ``sql_equivalent`` in one call; one connection per
   process, the extension loaded once; the verdict's gold suite is generated once per gold and
   reused for every rollout of that gold).
3. **Map to a reward** (:func:`reward_from`), by ``mode``:

   =============  ==========================================================================
   mode           reward
   =============  ==========================================================================
   "similarity"   (default) ``sql_similarity``: the verdict and its evidence pick a band
                  (0.5 and above when no generated database tells the queries apart; every
                  band in docs/functions.md#sql_similarity-bands), and the structural
                  similarity (the two GMN scores) places the rollout within it.
   "binary"       1.0 when ``sql_equivalent`` is 1, else 0.0 (undecided counts as 0.0).
   "verdict"      1.0 when equivalent, 0.0 when a counterexample exists, and
                  ``sql_similarity`` when undecided.
   =============  ==========================================================================

   In every mode: no SQL extracted gives :data:`NO_SQL_REWARD` (0.0); a NULL score (the gold
   cannot be scored) or any error gives :data:`ERROR_REWARD` (0.0). The result is always a
   finite float in [0, 1].

The call never raises on bad model output (empty, garbage, huge, not UTF-8, several statements,
no SQL) and is deterministic: the same (gold, answer, schema, mode) always give the same reward,
in any order, batch or process (ParSEval's budget counts solver work, not time).

``ground_truth`` is the gold SQL as a string, or a dict with the gold under ``"sql"`` (or
``"gold"``, ``"query"``, ``"ground_truth"``) and optionally the schema under ``"schema"`` (a
Spider tables.json entry, as JSON text or a dict, or CREATE TABLE text). ``extra_info`` may carry
``"schema"`` too, and ``"reward_mode"``. Without a schema it is inferred from the queries.

``options`` (keyword, verl's ``custom_reward_function.reward_kwargs``) is sql_similarity's options
JSON, as text or a dict: ``options={"databases": "gold"}`` is the scale setting (the verdict on
the gold's cached databases alone, one round: about 4 times the pairs per second, ROC AUC
0.001 to 0.03 lower on the public sets; ``"components"`` drops structural scores for more speed; docs/SCALE.md,
"Choosing a setting"). Options that are not valid JSON or name unknown keys make
every reward :data:`ERROR_REWARD`, so check them once with :func:`check_options`.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading

from . import open_duckdb

__all__ = ["compute_score", "check_options", "extract_sql", "reward_from", "score_batch", "MAX_ANSWER_CHARS", "NO_SQL_REWARD",
           "ERROR_REWARD", "MODES"]

#: Longest answer read, in characters (its end is kept).
MAX_ANSWER_CHARS = 65_536
#: Longest extracted SQL scored; a longer one counts as no SQL.
MAX_SQL_CHARS = 16_384
#: Reward of an answer without SQL.
NO_SQL_REWARD = 0.0
#: Reward when the pair cannot be scored (a NULL score, an error).
ERROR_REWARD = 0.0
MODES = ("similarity", "binary", "verdict")
GOLD_KEYS = ("sql", "gold", "query", "ground_truth")

_ANSWER = re.compile(r"<answer>(.*?)(?:</answer>|\Z)", re.S | re.I)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
# SELECT, or WITH that starts a common table expression (not the English word)
_QUERY_START = r"(?:select\b|with\s+(?:recursive\s+)?[\w\"`\[\]]+\s*(?:\([^()]*\)\s*)?as\s*(?:(?:not\s+)?materialized\s*)?\()"
_START = re.compile(r"(?is)^\s*(?:\(\s*)*" + _QUERY_START)
_INLINE = re.compile(r"(?is)\b" + _QUERY_START)


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", errors="replace")
    if not isinstance(value, str):
        value = str(value)
    # lone surrogates (from a bad decode upstream) cannot be encoded for the host: replace them
    return value.encode("utf-8", errors="replace").decode("utf-8")


def _statements(text: str):
    """`text` split at semicolons outside quotes and comments."""
    out, start, i, n = [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = text.find(c, i + 1)
            while j != -1 and j + 1 < n and text[j + 1] == c:  # doubled quote
                j = text.find(c, j + 2)
            i = n if j == -1 else j + 1
            continue
        if c == "[":
            j = text.find("]", i + 1)
            i = n if j == -1 else j + 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j == -1 else j + 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j == -1 else j + 2
            continue
        if c == ";":
            out.append(text[start:i])
            start = i + 1
        i += 1
    out.append(text[start:])
    return out


def _strip_comments_ahead(statement: str) -> str:
    s = statement.strip()
    while True:
        if s.startswith("--"):
            j = s.find("\n")
            s = "" if j == -1 else s[j + 1:].lstrip()
        elif s.startswith("/*"):
            j = s.find("*/")
            s = "" if j == -1 else s[j + 2:].lstrip()
        else:
            return s


# Words SQL is made of: a line whose first three words are other plain words is prose.
_SQL_WORDS = frozenset("""
    select from where join inner left right full outer cross natural on using group order by having limit
    offset union intersect except all distinct and or not as case when then else end in is null like between
    exists with recursive asc desc values window over partition filter collate cast glob escape true false
    nulls first last rows range preceding following unbounded current row fetch next only ties""".split())
_PUNCT = ",.:;!?"


def _plain_word(token: str) -> bool:
    core = token.rstrip(_PUNCT)
    return core.isalpha() and core.lower() not in _SQL_WORDS


def _is_prose(line: str) -> bool:
    """Whether a line (from its start) is an explanation rather than more SQL: it starts with three
    plain words that are not SQL ("This query returns ...", "Note that the ..."), or it is one
    such word ending in a colon ("Explanation:"), or Markdown emphasis."""
    words = line.split("\n", 1)[0].split()
    if not words:
        return False
    if words[0].startswith("**"):
        return True
    if len(words) == 1:
        return words[0].endswith(":") and _plain_word(words[0])
    return len(words) >= 3 and all(_plain_word(w) for w in words[:3]) and not any(
        w[-1:] in ",;" for w in words[:2])


def _boundaries(text: str):
    """Positions outside quotes and comments where a line or a sentence starts."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = text.find(c, i + 1)
            while j != -1 and j + 1 < n and text[j + 1] == c:
                j = text.find(c, j + 2)
            i = n if j == -1 else j + 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j == -1 else j
            continue
        if c == "\n" or (c in ".!?" and i + 1 < n and text[i + 1] in " \t\n"):
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n:
                yield j
            i = j
            continue
        i += 1


def _cut_prose(query: str) -> str:
    """The query without the explanation that follows it on later lines or sentences, and without
    a sentence's closing period."""
    for at in _boundaries(query):
        if at > 0 and _is_prose(query[at:]):
            query = query[:at]
            break
    query = query.rstrip()
    if query.endswith(".") and not query[-2:-1].isdigit():
        query = query[:-1].rstrip()
    return query


def _last_query(text: str):
    for statement in reversed(_statements(text)):
        s = _strip_comments_ahead(statement)
        if _START.match(s):
            return _cut_prose(s)
    return None


def _inline_query(statement: str):
    """The query in prose: from the first keyword of the last sentence that holds one ("First I
    tried SELECT a. The answer is SELECT b" gives SELECT b)."""
    starts = [0] + [at for at in _boundaries(statement)]
    for begin in reversed(starts):
        m = _INLINE.search(statement, begin)
        if m is not None and not any(begin < at <= m.start() for at in starts):
            return _cut_prose(statement[m.start():].strip())
    return None


def extract_sql(solution_str) -> str | None:
    """The SQL query of a model's answer (see the module text), or None when there is none."""
    try:
        text = _text(solution_str)
        if len(text) > MAX_ANSWER_CHARS:
            text = text[-MAX_ANSWER_CHARS:]
        answers = _ANSWER.findall(text)
        if answers:
            text = answers[-1]
        fences = _FENCE.findall(text)
        if fences:
            sql_blocks = [body for lang, body in fences if lang.lower() in ("sql", "sqlite", "postgresql", "mysql")]
            candidates = (sql_blocks or [body for _, body in fences])[::-1]
        else:
            candidates = [text]
        for block in candidates:
            q = _last_query(block)
            if q:
                # a SELECT after prose on the same block ("so the query is: SELECT ...") starts the query
                return q if len(q) <= MAX_SQL_CHARS else None
        if not fences:
            # prose with an inline query: the last statement holding one, from its first keyword
            for statement in reversed(_statements(text)):
                q = _inline_query(statement)
                if q:
                    return q if len(q) <= MAX_SQL_CHARS else None
        return None
    except Exception:  # noqa: BLE001 - extraction never raises on model output
        return None


def _gold_and_schema(ground_truth, extra_info):
    schema = None
    gold = None
    if isinstance(ground_truth, dict):
        for k in GOLD_KEYS:
            if ground_truth.get(k):
                gold = ground_truth[k]
                break
        schema = ground_truth.get("schema")
    elif isinstance(ground_truth, str) and ground_truth.lstrip().startswith("{"):
        try:
            return _gold_and_schema(json.loads(ground_truth), extra_info)
        except ValueError:
            gold = ground_truth
    else:
        gold = ground_truth
    if schema is None and isinstance(extra_info, dict):
        schema = extra_info.get("schema")
    if isinstance(schema, (dict, list)):
        schema = json.dumps(schema)
    gold = _text(gold).strip() or None
    schema = _text(schema) if schema is not None else None
    return gold, schema


def reward_from(similarity, equivalent, mode: str = "similarity") -> float:
    """The reward of a scored pair: ``similarity`` (sql_similarity, or None) and ``equivalent``
    (sql_equivalent: 1, 0 or None) mapped by ``mode`` (see the module text)."""
    if similarity is None or (isinstance(similarity, float) and not math.isfinite(similarity)):
        return ERROR_REWARD
    s = min(1.0, max(0.0, float(similarity)))
    if mode == "binary":
        return 1.0 if equivalent == 1 else 0.0
    if mode == "verdict":
        return 1.0 if equivalent == 1 else 0.0 if equivalent == 0 else s
    return s


# ---------------------------------------------------------------- the per-process connection

_LOCAL = threading.local()
_QUERY = "SELECT sql_similarity_components($1, $2, $3, $4)"


def _options_text(options):
    """sql_similarity's options argument: None, JSON text, or a dict made JSON."""
    if options is None or isinstance(options, str):
        return options
    return json.dumps(options)


def check_options(options) -> None:
    """Raises ValueError naming the problem when ``options`` are not valid sql_similarity options
    (the reward functions themselves never raise: they return :data:`ERROR_REWARD`)."""
    try:
        _connection().execute(_QUERY, ["SELECT 1", "SELECT 1", None, _options_text(options)]).fetchone()
    except Exception as e:  # noqa: BLE001 - duckdb's error types vary by version
        raise ValueError(str(e)) from None


def _parsed(components):
    """(score, verdict) of sql_similarity_components' JSON (NULL: (None, None))."""
    if components is None:
        return None, None
    c = json.loads(components)
    return c.get("score"), c.get("verdict")


def _connection():
    """One DuckDB connection per thread and process (a forked child opens its own)."""
    con = getattr(_LOCAL, "con", None)
    if con is None or getattr(_LOCAL, "pid", None) != os.getpid():
        con = open_duckdb(threads=1)
        _LOCAL.con, _LOCAL.pid = con, os.getpid()
    return con


def _score(gold: str, pred: str, schema, options=None):
    return _parsed(_connection().execute(_QUERY, [gold, pred, schema, _options_text(options)]).fetchone()[0])


def compute_score(data_source, solution_str, ground_truth, extra_info=None, mode=None, options=None) -> float:
    """verl's custom reward hook: the reward of one rollout in [0, 1] (see the module text).

    ``data_source`` is accepted and ignored (every source is scored alike). Never raises.
    """
    try:
        gold, schema = _gold_and_schema(ground_truth, extra_info)
        if mode is None and isinstance(extra_info, dict):
            mode = extra_info.get("reward_mode")
        mode = mode if mode in MODES else "similarity"
        if gold is None:
            return ERROR_REWARD
        pred = extract_sql(solution_str)
        if pred is None:
            return NO_SQL_REWARD
        try:
            similarity, equivalent = _score(gold, pred, schema, options)
        except Exception:  # noqa: BLE001 - a bad schema argument: score without it
            if schema is None:
                return ERROR_REWARD
            similarity, equivalent = _score(gold, pred, None, options)
        return float(reward_from(similarity, equivalent, mode))
    except Exception:  # noqa: BLE001 - a reward never raises
        return ERROR_REWARD


def score_batch(data_sources, solution_strs, ground_truths, extra_infos=None, mode=None, options=None):
    """Rewards of a batch (verl's batched reward hook shape), one DuckDB query for the whole batch:
    the GMN scores run batched and the rows spread over the connection's threads. Same values as
    :func:`compute_score` row by row."""
    n = len(solution_strs)
    extra_infos = list(extra_infos) if extra_infos is not None else [None] * n
    rows, out = [], [ERROR_REWARD] * n
    modes = []
    for i in range(n):
        try:
            gold, schema = _gold_and_schema(ground_truths[i], extra_infos[i])
            m = mode
            if m is None and isinstance(extra_infos[i], dict):
                m = extra_infos[i].get("reward_mode")
            modes.append(m if m in MODES else "similarity")
            pred = extract_sql(solution_strs[i])
            if gold is None:
                continue
            if pred is None:
                out[i] = NO_SQL_REWARD
                continue
            rows.append((i, gold, pred, schema))
        except Exception:  # noqa: BLE001
            modes.append("similarity")
    if not rows:
        return out
    try:
        import duckdb  # noqa: F401

        con = _connection().cursor()
        con.execute("CREATE TEMP TABLE IF NOT EXISTS sqlsim_reward_batch (i INTEGER, gold VARCHAR, pred VARCHAR, "
                    "schema VARCHAR)").fetchall()
        con.execute("DELETE FROM sqlsim_reward_batch").fetchall()
        con.executemany("INSERT INTO sqlsim_reward_batch VALUES (?, ?, ?, ?)", rows)
        got = con.execute("SELECT i, sql_similarity_components(gold, pred, schema, $1) FROM sqlsim_reward_batch",
                          [_options_text(options)]).fetchall()
        for i, components in got:
            out[i] = float(reward_from(*_parsed(components), modes[i]))
    except Exception:  # noqa: BLE001 - a bad row fails the query: score row by row
        for i, gold, pred, schema in rows:
            out[i] = compute_score(None, pred, {"sql": gold, "schema": schema}, None, modes[i], options)
    return out
