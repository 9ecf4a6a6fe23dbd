//! Opening a database file that may be hostile: read-only, defensive, no ATTACH, no extension loading,
//! no untrusted schema functions; and listing the databases of a test-suite folder.
//!
//! Whatever the file holds (views or triggers that try to write, schema objects calling functions,
//! a query that ATTACHes another file), a connection from [`open_database`] cannot change a file,
//! reach another one or load code; [`super::run_with`] bounds its time with a progress handler.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

use rusqlite::config::DbConfig;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::{Connection, OpenFlags};

use super::functions;

/// Why a database could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenError {
    /// The path names neither a file nor a folder.
    Missing(String),
    /// A folder without any `*.sqlite` file.
    EmptySuite(String),
    /// SQLite refused the file, or a setting could not be applied.
    Sqlite(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Missing(p) => write!(f, "'{p}' is neither a file nor a folder"),
            OpenError::EmptySuite(p) => write!(f, "folder '{p}' holds no *.sqlite file"),
            OpenError::Sqlite(m) => write!(f, "cannot be opened: {m}"),
        }
    }
}

/// The databases `db_path` names: the file itself, or every `*.sqlite` file of a folder, sorted by
/// name (test-suite-sql-eval's `db_dir/db_id/*.sqlite` layout).
pub fn databases(db_path: &str) -> Result<Vec<PathBuf>, OpenError> {
    let path = Path::new(db_path);
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    if !path.is_dir() {
        return Err(OpenError::Missing(db_path.into()));
    }
    let entries = std::fs::read_dir(path).map_err(|e| OpenError::Sqlite(e.to_string()))?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "sqlite"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(OpenError::EmptySuite(db_path.into()));
    }
    Ok(files)
}

/// Connections kept open per thread: opening a file and registering the added functions costs more
/// than most evaluation queries on it.
const CACHED_CONNECTIONS: usize = 8;

/// What identifies a file's content for reuse: device, inode, size and modification time.
type FileStamp = (u64, u64, u64, Option<SystemTime>);

fn stamp(path: &Path) -> Option<FileStamp> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino(), m.size(), m.modified().ok()))
}

thread_local! {
    static OPEN: RefCell<Vec<(PathBuf, FileStamp, Rc<Connection>)>> = const { RefCell::new(Vec::new()) };
}

/// [`open_database`], reusing this thread's connection to the same unchanged file (same inode, size
/// and modification time; a replaced or rewritten file is opened afresh).
pub fn cached_database(path: &Path) -> Result<Rc<Connection>, OpenError> {
    let Some(st) = stamp(path) else {
        return Err(OpenError::Missing(path.display().to_string()));
    };
    let hit = OPEN.with(|open| {
        let mut open = open.borrow_mut();
        let i = open.iter().position(|(p, s, _)| p == path && *s == st)?;
        let entry = open.remove(i);
        let conn = entry.2.clone();
        open.push(entry);
        Some(conn)
    });
    if let Some(conn) = hit {
        return Ok(conn);
    }
    let conn = Rc::new(open_database(path)?);
    OPEN.with(|open| {
        let mut open = open.borrow_mut();
        open.retain(|(p, _, _)| p != path);
        if open.len() >= CACHED_CONNECTIONS {
            open.remove(0);
        }
        open.push((path.to_path_buf(), st, conn.clone()));
    });
    Ok(conn)
}

/// Opens `path` read-only with SQLite's defensive settings and sqlsim's added functions.
pub fn open_database(path: &Path) -> Result<Connection, OpenError> {
    let sqlite = |e: rusqlite::Error| OpenError::Sqlite(e.to_string());
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sqlite)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
        .map_err(sqlite)?;
    conn.execute_batch("PRAGMA trusted_schema = OFF")
        .map_err(sqlite)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)
        .map_err(sqlite)?;
    functions::register(&conn).map_err(sqlite)?;
    conn.authorizer(Some(authorize));
    Ok(conn)
}

/// Reads and functions only: no ATTACH/DETACH, no writes or schema changes, no PRAGMA, no
/// `load_extension()`, whether the statement or a view of the file asks for it.
fn authorize(ctx: AuthContext<'_>) -> Authorization {
    match ctx.action {
        AuthAction::Select | AuthAction::Read { .. } | AuthAction::Recursive => {
            Authorization::Allow
        }
        AuthAction::Function { function_name } => {
            if function_name.eq_ignore_ascii_case("load_extension") {
                Authorization::Deny
            } else {
                Authorization::Allow
            }
        }
        _ => Authorization::Deny,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_file_cannot_write_attach_or_load() {
        let dir = std::env::temp_dir().join(format!("sqlsim-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("h.sqlite");
        let _ = std::fs::remove_file(&path);
        {
            let c = Connection::open(&path).unwrap();
            c.execute_batch(
                "CREATE TABLE t(a); INSERT INTO t VALUES (1);
                 CREATE TABLE log(x);
                 CREATE VIEW v AS SELECT a FROM t;
                 CREATE TRIGGER tr INSTEAD OF INSERT ON v BEGIN INSERT INTO log VALUES (1); END;",
            )
            .unwrap();
        }
        let conn = open_database(&path).unwrap();
        let fails = |sql: &str| conn.execute_batch(sql).is_err();
        assert!(fails("INSERT INTO v VALUES (2)"));
        assert!(fails("DELETE FROM t"));
        assert!(fails("ATTACH DATABASE ':memory:' AS x"));
        assert!(fails("SELECT load_extension('/nonexistent/x')"));
        assert!(fails("PRAGMA writable_schema = ON"));
        assert!(fails("CREATE TEMP TABLE z(a)"));
        let n: i64 = conn
            .query_row("SELECT count(*) FROM v", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 1);
        assert_eq!(
            databases(dir.to_str().unwrap()).unwrap(),
            vec![path.clone()]
        );
        assert!(databases("/nonexistent/x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
