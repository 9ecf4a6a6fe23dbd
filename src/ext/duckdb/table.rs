//! DuckDB table functions: the rows are computed at bind time (so errors surface as bind errors
//! and the cardinality is exact) and emitted a vector at a time by the scan. The `// SAFETY:`
//! comments rest on the C API facts listed in the parent module.

use super::{c_string, guarded, with_logical_type, write_value};
use crate::registry::{Host, Output, Param, SqlType, TableFunction, Value};
use duckdb::ffi::*;
use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The rows a table function computed at bind time, and its declaration.
struct BoundTable {
    function: &'static TableFunction,
    rows: Vec<Vec<Output>>,
}

/// Destroy callback for state handed to DuckDB as a `Box<T>`.
///
/// # Safety
/// `data` is null or a pointer from `Box::<T>::into_raw` that nothing uses afterwards.
unsafe extern "C" fn drop_box<T>(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: DuckDB calls a destroy callback once, with the pointer registered with it,
        // which came from `Box::<T>::into_raw` (`bind_table`, `table_init`) and which DuckDB no
        // longer uses.
        drop(unsafe { Box::from_raw(data as *mut T) });
    }
}

/// Registers a table function: required parameters positional, optional ones named
/// (`schema := ...`), because DuckDB's C API cannot overload table functions by arity.
///
/// # Safety
/// `connection` is an open connection (and so the API is loaded).
pub(super) unsafe fn register_table(
    connection: duckdb_connection,
    f: &'static TableFunction,
) -> Result<(), String> {
    let name = c_string(f.name);
    // SAFETY: API loaded (the caller's contract); returns a new handle.
    let mut function = unsafe { duckdb_create_table_function() };
    for p in f.params {
        let param_name = c_string(p.name);
        // SAFETY: API loaded; `function` is the live handle created above; names are
        // NUL-terminated and, like the parameter types, copied by DuckDB.
        unsafe {
            with_logical_type(p.ty, |t| {
                if p.optional {
                    duckdb_table_function_add_named_parameter(function, param_name.as_ptr(), t);
                } else {
                    duckdb_table_function_add_parameter(function, t);
                }
            })
        };
    }
    // SAFETY: `function` is live; `name` is NUL-terminated and copied; the callbacks have the
    // signatures DuckDB calls (checked by the compiler against its callback types); the extra
    // info is a `&'static TableFunction`, never freed or written. `connection` is open (the
    // caller's contract); DuckDB copies the function, whose handle is then destroyed exactly once.
    let state = unsafe {
        duckdb_table_function_set_name(function, name.as_ptr());
        duckdb_table_function_set_extra_info(
            function,
            f as *const TableFunction as *mut c_void,
            None,
        );
        duckdb_table_function_set_bind(function, Some(table_bind));
        duckdb_table_function_set_init(function, Some(table_init));
        duckdb_table_function_set_function(function, Some(table_scan));
        let state = duckdb_register_table_function(connection, function);
        duckdb_destroy_table_function(&mut function);
        state
    };
    if state != duckdb_state_DuckDBSuccess {
        return Err(format!(
            "sqlsim: could not register table function {}",
            f.name
        ));
    }
    Ok(())
}

/// An owned copy of a bind-time parameter (bind values are DuckDB-owned and freed after reading).
enum OwnedValue {
    Null,
    Text(String),
    Integer(i64),
    Real(f64),
}

/// Copies a bind parameter out of DuckDB (positional for required parameters, named for optional
/// ones; an absent named parameter reads as NULL). NULL is checked before any typed read.
///
/// # Safety
/// `info` is the live bind info of a call of a function registered by [`register_table`], and
/// `param` is its parameter number `index`.
unsafe fn read_parameter(info: duckdb_bind_info, index: usize, param: &Param) -> OwnedValue {
    let mut value = if param.optional {
        let name = c_string(param.name);
        // SAFETY: `info` is live; `name` is NUL-terminated and only read during the call; the
        // result is null or a new value handle we own.
        unsafe { duckdb_bind_get_named_parameter(info, name.as_ptr()) }
    } else {
        // SAFETY: `info` is live; required parameters come first, so `index` is this one's
        // position (DuckDB returns null when it is out of range); the result is null or a new
        // value handle we own.
        unsafe { duckdb_bind_get_parameter(info, index as idx_t) }
    };
    // SAFETY: `value` is a live, non-null value handle (checked first).
    let owned = if value.is_null() || unsafe { duckdb_is_null_value(value) } {
        OwnedValue::Null
    } else {
        match param.ty {
            // SAFETY: `value` is a live, non-NULL value (DuckDB converts or returns a default).
            SqlType::Integer => OwnedValue::Integer(unsafe { duckdb_get_int64(value) }),
            // SAFETY: as above.
            SqlType::Real => OwnedValue::Real(unsafe { duckdb_get_double(value) }),
            // SAFETY: `value` is live and non-NULL; `duckdb_get_varchar` returns null or a new
            // NUL-terminated string allocated by DuckDB, which is copied out and then freed once
            // with `duckdb_free`.
            SqlType::Text => OwnedValue::Text(unsafe {
                let raw = duckdb_get_varchar(value);
                if raw.is_null() {
                    String::new()
                } else {
                    let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
                    duckdb_free(raw as *mut c_void);
                    text
                }
            }),
        }
    };
    if !value.is_null() {
        // SAFETY: `value` is the handle DuckDB gave us above, destroyed exactly once.
        unsafe { duckdb_destroy_value(&mut value) };
    }
    owned
}

/// The bind callback of every table function: runs it, reporting errors and panics to DuckDB.
///
/// # Safety
/// Called by DuckDB with the bind info of a call of a function registered by [`register_table`].
unsafe extern "C" fn table_bind(info: duckdb_bind_info) {
    if let Err(text) = guarded("sqlsim: a table function panicked", || {
        // SAFETY: `info` is this call's bind info (the caller's contract).
        unsafe { bind_table(info) }
    }) {
        // SAFETY: `info` is this call's; DuckDB copies the NUL-terminated message.
        unsafe { duckdb_bind_set_error(info, text.as_ptr()) };
    }
}

/// Computes a table function's rows at bind time, declares its columns and keeps the rows as the
/// bind data.
///
/// # Safety
/// `info` is the live bind info of a call of a function registered by [`register_table`].
unsafe fn bind_table(info: duckdb_bind_info) -> Result<(), String> {
    // SAFETY: `info` is live; the extra info of every table function registered here is a
    // `&'static TableFunction` (`register_table`), never freed or written.
    let f = unsafe { &*(duckdb_bind_get_extra_info(info) as *const TableFunction) };
    let owned: Vec<OwnedValue> = f
        .params
        .iter()
        .enumerate()
        // SAFETY: `info` is live and `p` is parameter number `i` of the function it binds.
        .map(|(i, p)| unsafe { read_parameter(info, i, p) })
        .collect();
    let values: Vec<Value<'_>> = owned
        .iter()
        .map(|v| match v {
            OwnedValue::Null => Value::Null,
            OwnedValue::Text(s) => Value::Text(s),
            OwnedValue::Integer(i) => Value::Integer(*i),
            OwnedValue::Real(x) => Value::Real(*x),
        })
        .collect();
    let rows = f.invoke(&values, Host::DuckDb).map_err(|e| e.to_string())?;
    for column in f.columns {
        let name = c_string(column.name);
        // SAFETY: API loaded (we are in a callback); `info` is live; the name and type are copied.
        unsafe {
            with_logical_type(column.ty, |t| {
                duckdb_bind_add_result_column(info, name.as_ptr(), t);
            })
        };
    }
    let row_count = rows.len() as idx_t;
    let bound = Box::into_raw(Box::new(BoundTable { function: f, rows }));
    // SAFETY: `info` is live. DuckDB owns `bound` from here: `table_scan` reads it while it is
    // bound, and DuckDB frees it once through `drop_box::<BoundTable>`, matching the
    // `Box<BoundTable>` it came from.
    unsafe {
        duckdb_bind_set_cardinality(info, row_count, true);
        duckdb_bind_set_bind_data(info, bound as *mut c_void, Some(drop_box::<BoundTable>));
    }
    Ok(())
}

/// Per-scan state: the next row to emit (a re-executed prepared statement scans again from 0).
///
/// # Safety
/// Called by DuckDB with the init info of a scan of a function registered by [`register_table`].
unsafe extern "C" fn table_init(info: duckdb_init_info) {
    let position = Box::into_raw(Box::new(AtomicUsize::new(0)));
    // SAFETY: `info` is this call's. DuckDB owns `position` from here and frees it once through
    // `drop_box::<AtomicUsize>`, matching the `Box<AtomicUsize>` it came from.
    unsafe {
        duckdb_init_set_init_data(info, position as *mut c_void, Some(drop_box::<AtomicUsize>));
        duckdb_init_set_max_threads(info, 1);
    }
}

/// The scan callback: emits the next chunk of the rows computed at bind time.
///
/// # Safety
/// Called by DuckDB with a scan's function info and a live output chunk whose columns are the
/// function's declared columns.
unsafe extern "C" fn table_scan(info: duckdb_function_info, output: duckdb_data_chunk) {
    let outcome = guarded(
        "sqlsim: a table function panicked while producing rows",
        || {
            // SAFETY: `info` is this scan's; its bind data is the `BoundTable` and its init data
            // the `AtomicUsize` set by `bind_table` and `table_init`, which DuckDB frees only
            // after the scan. They are only read here (the position through an atomic).
            let (bound, position) = unsafe {
                (
                    &*(duckdb_function_get_bind_data(info) as *const BoundTable),
                    &*(duckdb_function_get_init_data(info) as *const AtomicUsize),
                )
            };
            // SAFETY: API loaded (we are in a callback).
            let capacity = unsafe { duckdb_vector_size() } as usize;
            let start = position.load(Ordering::Relaxed).min(bound.rows.len());
            let end = (start + capacity).min(bound.rows.len());
            for (c, column) in bound.function.columns.iter().enumerate() {
                // SAFETY: `output` is live and has one column per declared column.
                let vector = unsafe { duckdb_data_chunk_get_vector(output, c as idx_t) };
                for (r, row) in bound.rows[start..end].iter().enumerate() {
                    // SAFETY: `vector` is a live flat output vector of `column.ty` with room for
                    // `capacity` rows, and `r` < `end - start` <= `capacity`.
                    unsafe {
                        write_value(vector, column.ty, r, row.get(c).unwrap_or(&Output::Null))
                    };
                }
            }
            // SAFETY: `output` is live; `end - start` rows were written, at most its capacity.
            unsafe { duckdb_data_chunk_set_size(output, (end - start) as idx_t) };
            position.store(end, Ordering::Relaxed);
            Ok(())
        },
    );
    if let Err(text) = outcome {
        // SAFETY: `info` is this call's; DuckDB copies the NUL-terminated message.
        unsafe { duckdb_function_set_error(info, text.as_ptr()) };
    }
}
