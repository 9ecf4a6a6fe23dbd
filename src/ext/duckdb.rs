//! DuckDB adapter (C API v1.2.0 through the duckdb crate's loadable-extension bindings): converts
//! vectors, NULLs and errors, and registers the registry.
//!
//! Scalar functions receive whole chunks and spread the rows over cores with rayon. Every callback
//! catches panics and reports them through DuckDB's error channel; NULL values are checked before
//! any C API call that would throw on them.

use crate::registry::{self, Host, Output, Param, ScalarFunction, SqlType, TableFunction, Value};
use duckdb::ffi::*;
use rayon::prelude::*;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The minimum C API version requested: DuckDB 1.2.0 and every later release provide it.
const MIN_API_VERSION: &str = "v1.2.0";

/// Entry point DuckDB looks up for `sqlsim.duckdb_extension` (`LOAD 'dist/sqlsim.duckdb_extension'`).
///
/// # Safety
/// Called by DuckDB with valid `info` and `access` pointers.
#[no_mangle]
pub unsafe extern "C" fn sqlsim_init_c_api(
    info: duckdb_extension_info,
    access: *const duckdb_extension_access,
) -> bool {
    super::location::publish();
    let text = match guarded("sqlsim: initialization panicked", || unsafe {
        initialize(info, access)
    }) {
        Ok(loaded) => return loaded,
        Err(text) => text,
    };
    if let Some(set_error) = unsafe { access.as_ref() }.and_then(|a| a.set_error) {
        unsafe { set_error(info, text.as_ptr()) };
    }
    false
}

unsafe fn initialize(
    info: duckdb_extension_info,
    access: *const duckdb_extension_access,
) -> Result<bool, String> {
    let have_api = unsafe { duckdb_rs_extension_api_init(info, access, MIN_API_VERSION) }
        .map_err(|e| format!("sqlsim: {e}"))?;
    if !have_api {
        return Ok(false);
    }
    let get_database = unsafe { access.as_ref() }
        .and_then(|a| a.get_database)
        .ok_or("sqlsim: DuckDB gave no get_database function")?;
    let database = unsafe { get_database(info) };
    if database.is_null() {
        return Ok(false);
    }
    let mut connection: duckdb_connection = ptr::null_mut();
    if unsafe { duckdb_connect(*database, &mut connection) } != duckdb_state_DuckDBSuccess {
        return Err("sqlsim: could not open a connection to register functions".into());
    }
    let registered = register_all(connection);
    unsafe { duckdb_disconnect(&mut connection) };
    registered.map(|()| true)
}

fn register_all(connection: duckdb_connection) -> Result<(), String> {
    for f in registry::SCALAR_FUNCTIONS {
        register_scalar(connection, f)?;
    }
    for f in registry::TABLE_FUNCTIONS {
        register_table(connection, f)?;
    }
    Ok(())
}

/// Runs a callback body with panics caught: its value, or the message to hand DuckDB
/// (the body's own error, or `panicked` when it panicked).
fn guarded<T>(panicked: &str, body: impl FnOnce() -> Result<T, String>) -> Result<T, CString> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(c_string(&message)),
        Err(_) => Err(c_string(panicked)),
    }
}

/// A C string for DuckDB; interior NUL bytes (never in our names, possible in messages) become spaces.
fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

fn duckdb_type(ty: SqlType) -> DUCKDB_TYPE {
    match ty {
        SqlType::Text => DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR,
        SqlType::Real => DUCKDB_TYPE_DUCKDB_TYPE_DOUBLE,
        SqlType::Integer => DUCKDB_TYPE_DUCKDB_TYPE_BIGINT,
    }
}

/// Runs `use_type` with a freshly created logical type, destroying it afterwards.
fn with_logical_type(ty: SqlType, use_type: impl FnOnce(duckdb_logical_type)) {
    let mut logical = unsafe { duckdb_create_logical_type(duckdb_type(ty)) };
    use_type(logical);
    unsafe { duckdb_destroy_logical_type(&mut logical) };
}

/// Registers one scalar function as a set with one overload per accepted argument count.
fn register_scalar(
    connection: duckdb_connection,
    f: &'static ScalarFunction,
) -> Result<(), String> {
    let name = c_string(f.name);
    unsafe {
        let mut set = duckdb_create_scalar_function_set(name.as_ptr());
        for arity in f.min_args()..=f.params.len() {
            let mut function = duckdb_create_scalar_function();
            duckdb_scalar_function_set_name(function, name.as_ptr());
            for p in &f.params[..arity] {
                with_logical_type(p.ty, |t| duckdb_scalar_function_add_parameter(function, t));
            }
            with_logical_type(f.returns, |t| {
                duckdb_scalar_function_set_return_type(function, t)
            });
            duckdb_scalar_function_set_function(function, Some(scalar_callback));
            duckdb_scalar_function_set_extra_info(
                function,
                f as *const ScalarFunction as *mut c_void,
                None,
            );
            // The registry applies the NULL rule itself (optional arguments may be NULL).
            duckdb_scalar_function_set_special_handling(function);
            if !f.deterministic {
                duckdb_scalar_function_set_volatile(function);
            }
            duckdb_add_scalar_function_to_set(set, function);
            duckdb_destroy_scalar_function(&mut function);
        }
        let state = duckdb_register_scalar_function_set(connection, set);
        duckdb_destroy_scalar_function_set(&mut set);
        if state != duckdb_state_DuckDBSuccess {
            return Err(format!("sqlsim: could not register {}", f.name));
        }
    }
    Ok(())
}

/// Reads row `row` of a flat input vector of type `ty`, checking validity first.
///
/// # Safety
/// `data` and `validity` come from the same live vector with at least `row + 1` rows.
unsafe fn read_value<'a>(
    ty: SqlType,
    data: *const c_void,
    validity: *const u64,
    row: usize,
) -> Value<'a> {
    if !validity.is_null()
        && !unsafe { duckdb_validity_row_is_valid(validity as *mut u64, row as idx_t) }
    {
        return Value::Null;
    }
    match ty {
        SqlType::Real => Value::Real(unsafe { *(data as *const f64).add(row) }),
        SqlType::Integer => Value::Integer(unsafe { *(data as *const i64).add(row) }),
        SqlType::Text => {
            let s = unsafe { &*(data as *const duckdb_string_t).add(row) };
            let len = unsafe { s.value.inlined.length } as usize;
            let bytes: &[u8] = if len <= 12 {
                unsafe {
                    std::slice::from_raw_parts(s.value.inlined.inlined.as_ptr() as *const u8, len)
                }
            } else {
                unsafe { std::slice::from_raw_parts(s.value.pointer.ptr as *const u8, len) }
            };
            std::str::from_utf8(bytes).map_or(Value::Blob(bytes), Value::Text)
        }
    }
}

/// Writes `out` into row `row` of a flat output vector of type `ty`.
///
/// # Safety
/// `vector` is a live, writable flat vector of type `ty` with at least `row + 1` rows.
unsafe fn write_value(vector: duckdb_vector, ty: SqlType, row: usize, out: &Output) {
    let data = unsafe { duckdb_vector_get_data(vector) };
    match (out, ty) {
        (Output::Real(x), SqlType::Real) => unsafe { *(data as *mut f64).add(row) = *x },
        (Output::Integer(i), SqlType::Integer) => unsafe { *(data as *mut i64).add(row) = *i },
        (Output::Integer(i), SqlType::Real) => unsafe { *(data as *mut f64).add(row) = *i as f64 },
        (Output::Text(s), SqlType::Text) => unsafe {
            duckdb_vector_assign_string_element_len(
                vector,
                row as idx_t,
                s.as_ptr() as *const c_char,
                s.len() as idx_t,
            )
        },
        _ => unsafe {
            // NULL, or a value whose type does not match the declared column: NULL.
            duckdb_vector_ensure_validity_writable(vector);
            duckdb_validity_set_row_invalid(duckdb_vector_get_validity(vector), row as idx_t);
        },
    }
}

unsafe extern "C" fn scalar_callback(
    info: duckdb_function_info,
    input: duckdb_data_chunk,
    output: duckdb_vector,
) {
    let outcome = guarded("sqlsim: a scalar function panicked", || unsafe {
        let f = &*(duckdb_scalar_function_get_extra_info(info) as *const ScalarFunction);
        run_scalar(f, input, output)
    });
    if let Err(text) = outcome {
        unsafe { duckdb_scalar_function_set_error(info, text.as_ptr()) };
    }
}

/// Evaluates one chunk: decode every row (cheap borrows), compute rows in parallel, write back.
unsafe fn run_scalar(
    f: &'static ScalarFunction,
    input: duckdb_data_chunk,
    output: duckdb_vector,
) -> Result<(), String> {
    let rows = unsafe { duckdb_data_chunk_get_size(input) } as usize;
    let columns =
        (unsafe { duckdb_data_chunk_get_column_count(input) } as usize).min(f.params.len());
    let mut table: Vec<Vec<Value<'_>>> = vec![Vec::with_capacity(columns); rows];
    for (c, param) in f.params.iter().enumerate().take(columns) {
        let vector = unsafe { duckdb_data_chunk_get_vector(input, c as idx_t) };
        let data = unsafe { duckdb_vector_get_data(vector) } as *const c_void;
        let validity = unsafe { duckdb_vector_get_validity(vector) } as *const u64;
        for (r, row) in table.iter_mut().enumerate() {
            row.push(unsafe { read_value(param.ty, data, validity, r) });
        }
    }
    let results: Vec<crate::Result<Output>> = match f.batch {
        Some(batch) => batch(f, &table, Host::DuckDb),
        None if rows > 1 => table
            .par_iter()
            .map(|args| f.invoke(args, Host::DuckDb))
            .collect(),
        None => table
            .iter()
            .map(|args| f.invoke(args, Host::DuckDb))
            .collect(),
    };
    for (r, result) in results.iter().enumerate() {
        match result {
            Ok(out) => unsafe { write_value(output, f.returns, r, out) },
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// The rows a table function computed at bind time, and its declaration.
struct BoundTable {
    function: &'static TableFunction,
    rows: Vec<Vec<Output>>,
}

unsafe extern "C" fn drop_box<T>(data: *mut c_void) {
    if !data.is_null() {
        drop(unsafe { Box::from_raw(data as *mut T) });
    }
}

/// Registers a table function: required parameters positional, optional ones named
/// (`schema := ...`), because DuckDB's C API cannot overload table functions by arity.
fn register_table(connection: duckdb_connection, f: &'static TableFunction) -> Result<(), String> {
    let name = c_string(f.name);
    unsafe {
        let mut function = duckdb_create_table_function();
        duckdb_table_function_set_name(function, name.as_ptr());
        for p in f.params {
            if p.optional {
                let param_name = c_string(p.name);
                with_logical_type(p.ty, |t| {
                    duckdb_table_function_add_named_parameter(function, param_name.as_ptr(), t)
                });
            } else {
                with_logical_type(p.ty, |t| duckdb_table_function_add_parameter(function, t));
            }
        }
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
        if state != duckdb_state_DuckDBSuccess {
            return Err(format!(
                "sqlsim: could not register table function {}",
                f.name
            ));
        }
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
unsafe fn read_parameter(info: duckdb_bind_info, index: usize, param: &Param) -> OwnedValue {
    let mut value = if param.optional {
        let name = c_string(param.name);
        unsafe { duckdb_bind_get_named_parameter(info, name.as_ptr()) }
    } else {
        unsafe { duckdb_bind_get_parameter(info, index as idx_t) }
    };
    let ty = param.ty;
    let owned = if value.is_null() || unsafe { duckdb_is_null_value(value) } {
        OwnedValue::Null
    } else {
        match ty {
            SqlType::Integer => OwnedValue::Integer(unsafe { duckdb_get_int64(value) }),
            SqlType::Real => OwnedValue::Real(unsafe { duckdb_get_double(value) }),
            SqlType::Text => {
                let raw = unsafe { duckdb_get_varchar(value) };
                let text = if raw.is_null() {
                    String::new()
                } else {
                    let s = unsafe { CStr::from_ptr(raw) }
                        .to_string_lossy()
                        .into_owned();
                    unsafe { duckdb_free(raw as *mut c_void) };
                    s
                };
                OwnedValue::Text(text)
            }
        }
    };
    if !value.is_null() {
        unsafe { duckdb_destroy_value(&mut value) };
    }
    owned
}

unsafe extern "C" fn table_bind(info: duckdb_bind_info) {
    if let Err(text) = guarded("sqlsim: a table function panicked", || unsafe {
        bind_table(info)
    }) {
        unsafe { duckdb_bind_set_error(info, text.as_ptr()) };
    }
}

unsafe fn bind_table(info: duckdb_bind_info) -> Result<(), String> {
    let f = unsafe { &*(duckdb_bind_get_extra_info(info) as *const TableFunction) };
    let owned: Vec<OwnedValue> = f
        .params
        .iter()
        .enumerate()
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
        with_logical_type(column.ty, |t| unsafe {
            duckdb_bind_add_result_column(info, name.as_ptr(), t)
        });
    }
    unsafe { duckdb_bind_set_cardinality(info, rows.len() as idx_t, true) };
    let bound = Box::new(BoundTable { function: f, rows });
    unsafe {
        duckdb_bind_set_bind_data(
            info,
            Box::into_raw(bound) as *mut c_void,
            Some(drop_box::<BoundTable>),
        )
    };
    Ok(())
}

/// Per-scan state: the next row to emit (a re-executed prepared statement scans again from 0).
unsafe extern "C" fn table_init(info: duckdb_init_info) {
    let position = Box::new(AtomicUsize::new(0));
    unsafe {
        duckdb_init_set_init_data(
            info,
            Box::into_raw(position) as *mut c_void,
            Some(drop_box::<AtomicUsize>),
        );
        duckdb_init_set_max_threads(info, 1);
    }
}

unsafe extern "C" fn table_scan(info: duckdb_function_info, output: duckdb_data_chunk) {
    let outcome = guarded(
        "sqlsim: a table function panicked while producing rows",
        || unsafe {
            let bound = &*(duckdb_function_get_bind_data(info) as *const BoundTable);
            let position = &*(duckdb_function_get_init_data(info) as *const AtomicUsize);
            let start = position.load(Ordering::Relaxed).min(bound.rows.len());
            let end = (start + duckdb_vector_size() as usize).min(bound.rows.len());
            for (c, column) in bound.function.columns.iter().enumerate() {
                let vector = duckdb_data_chunk_get_vector(output, c as idx_t);
                for (r, row) in bound.rows[start..end].iter().enumerate() {
                    write_value(vector, column.ty, r, row.get(c).unwrap_or(&Output::Null));
                }
            }
            duckdb_data_chunk_set_size(output, (end - start) as idx_t);
            position.store(end, Ordering::Relaxed);
            Ok(())
        },
    );
    if let Err(text) = outcome {
        unsafe { duckdb_function_set_error(info, text.as_ptr()) };
    }
}
