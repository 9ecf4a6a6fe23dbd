-- ParSEval in SQLite: verdicts, reasons, counterexamples and a generated test suite.
-- sqlite3 -cmd ".load ./dist/sqlsim" :memory: < sql/parseval.sql
CREATE TEMP TABLE schema(ddl TEXT);
INSERT INTO schema VALUES ('CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, age INT);
 CREATE TABLE song (song_id INTEGER PRIMARY KEY, title TEXT, singer_id INT REFERENCES singer(singer_id), sales REAL)');

CREATE TEMP TABLE pairs(gold TEXT, pred TEXT);
INSERT INTO pairs VALUES
  ('SELECT name FROM singer WHERE age > 30', 'SELECT name FROM singer WHERE 30 < age'),
  ('SELECT count(*) FROM singer', 'SELECT count(country) FROM singer'),
  ('SELECT name FROM singer ORDER BY age DESC LIMIT 1', 'SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)');

-- one verdict per pair, and why
SELECT sql_equivalent(gold, pred, ddl) AS verdict, sql_equivalent_reason(gold, pred, ddl) AS reason
FROM pairs, schema;

-- the database that disproves the second pair, with both outputs
SELECT c.* FROM pairs, schema, sql_counterexample(pairs.gold, pairs.pred, schema.ddl) AS c
WHERE pairs.rowid = 2;

-- a generated test suite for a whole benchmark: the union over all gold queries of one database
-- (paper §5.5), one statement; each row is one tuple of one generated database
SELECT pairs.rowid AS query, g.instance, g.table_name, g.row_json
FROM pairs, schema, parseval_generate(pairs.gold, schema.ddl) AS g
ORDER BY 1, 2, 3, g.row_number;
