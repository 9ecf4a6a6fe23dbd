//! SQLite adapter (sqlite-loadable): converts values, NULLs and errors, and registers the registry.
//!
//! Every callback runs the registry's `invoke`, which catches panics; nothing here can panic on
//! user input, because sqlite-loadable does not catch panics itself.

use crate::registry::{self, Host, Output, ScalarFunction, TableFunction, Value};
use sqlite_loadable::prelude::*;
use sqlite_loadable::table::{
    BestIndexError, ConstraintOperator, IndexInfo, VTab, VTabArguments, VTabCursor,
};
use sqlite_loadable::{
    api, define_scalar_function_with_aux, define_table_function, Error, FunctionFlags, Result,
};
use std::os::raw::c_int;

/// Entry point SQLite looks up for `dist/sqlsim.so` (`.load ./dist/sqlsim`).
#[sqlite_entrypoint]
pub fn sqlite3_sqlsim_init(db: *mut sqlite3) -> Result<()> {
    super::location::publish();
    for f in registry::SCALAR_FUNCTIONS {
        let mut flags = FunctionFlags::UTF8;
        if f.deterministic {
            flags |= FunctionFlags::DETERMINISTIC;
        }
        // nArg = -1: one registration per function; the registry checks arity with a clear message.
        define_scalar_function_with_aux(db, f.name, -1, call_scalar, flags, f)?;
    }
    for f in registry::TABLE_FUNCTIONS {
        define_table_function::<RegistryTable>(db, f.name, Some(f))?;
    }
    Ok(())
}

/// Borrows a SQLite value as a host-neutral `Value` (text that is not UTF-8 arrives as a blob).
fn to_value<'a>(v: &'a *mut sqlite3_value) -> Value<'a> {
    match api::value_type(v) {
        api::ValueType::Null => Value::Null,
        api::ValueType::Integer => Value::Integer(api::value_int64(v)),
        api::ValueType::Float => Value::Real(api::value_double(v)),
        api::ValueType::Text => match api::value_text(v) {
            Ok(s) => Value::Text(s),
            Err(_) => Value::Blob(api::value_blob(v)),
        },
        api::ValueType::Blob => Value::Blob(api::value_blob(v)),
    }
}

/// Hands one result to SQLite.
fn set_result(context: *mut sqlite3_context, out: &Output) -> Result<()> {
    match out {
        Output::Null => api::result_null(context),
        Output::Integer(i) => api::result_int64(context, *i),
        Output::Real(x) => api::result_double(context, *x),
        Output::Text(s) => api::result_text(context, s)?,
    }
    Ok(())
}

fn call_scalar(
    context: *mut sqlite3_context,
    values: &[*mut sqlite3_value],
    f: &&'static ScalarFunction,
) -> Result<()> {
    let args: Vec<Value<'_>> = values.iter().map(to_value).collect();
    match f.invoke(&args, Host::Sqlite) {
        Ok(out) => set_result(context, &out),
        Err(e) => Err(Error::new_message(e.to_string())),
    }
}

/// A table function from the registry, as an eponymous virtual table whose parameters are
/// HIDDEN columns after the output columns.
#[repr(C)]
pub struct RegistryTable {
    /// Must be first: SQLite's base struct.
    base: sqlite3_vtab,
    function: &'static TableFunction,
}

impl<'vtab> VTab<'vtab> for RegistryTable {
    type Aux = &'static TableFunction;
    type Cursor = RegistryCursor;

    fn connect(
        _db: *mut sqlite3,
        aux: Option<&Self::Aux>,
        _args: VTabArguments,
    ) -> Result<(String, Self)> {
        let function =
            *aux.ok_or_else(|| Error::new_message("sqlsim: table function without declaration"))?;
        let mut columns: Vec<String> = function
            .columns
            .iter()
            .map(|c| format!("\"{}\"", c.name))
            .collect();
        columns.extend(
            function
                .params
                .iter()
                .map(|p| format!("\"{}\" HIDDEN", p.name)),
        );
        let schema = format!("CREATE TABLE x({})", columns.join(", "));
        // SAFETY: sqlite3_vtab is a plain C struct that SQLite fills in; all-zero is its initial state.
        let base: sqlite3_vtab = unsafe { std::mem::zeroed() };
        Ok((schema, RegistryTable { base, function }))
    }

    fn best_index(&self, mut info: IndexInfo) -> std::result::Result<(), BestIndexError> {
        let first_param = self.function.columns.len() as c_int;
        let params = self.function.params.len();
        // Which parameter each usable equality constraint binds; SQLite hands them to xFilter in argv order.
        let mut bound: Vec<Option<usize>> = vec![None; params];
        let mut unusable_required = false;
        for (i, constraint) in info.constraints().iter().enumerate() {
            let column = constraint.column_idx() - first_param;
            if column < 0 || column as usize >= params {
                continue;
            }
            let p = column as usize;
            if constraint.usable() && constraint.op() == Some(ConstraintOperator::EQ) {
                bound[p] = Some(i);
            } else if !self.function.params[p].optional
                || constraint.op() == Some(ConstraintOperator::EQ)
            {
                // An optional argument the query does pass (`f(t.a, s.b)` with `s` joined
                // later) must not be read as absent: that plan would call f without it and
                // then filter every row out.
                unusable_required = true;
            }
        }
        let required_missing = self
            .function
            .params
            .iter()
            .zip(&bound)
            .any(|(p, b)| !p.optional && b.is_none())
            || info.constraints().iter().any(|c| {
                let column = c.column_idx() - first_param;
                column >= 0
                    && (column as usize) < params
                    && c.op() == Some(ConstraintOperator::EQ)
                    && bound[column as usize].is_none()
            });
        if unusable_required && required_missing {
            // Another join order can supply the argument: tell the planner this plan is impossible.
            return Err(BestIndexError::Constraint);
        }
        let mut constraints = info.constraints();
        let mut mask = 0;
        let mut argv = 1;
        for (p, b) in bound.iter().enumerate() {
            if let Some(i) = b {
                constraints[*i].set_argv_index(argv);
                constraints[*i].set_omit(true);
                argv += 1;
                mask |= 1 << p;
            }
        }
        info.set_idxnum(mask);
        info.set_estimated_cost(1000.0);
        info.set_estimated_rows(100);
        Ok(())
    }

    fn open(&mut self) -> Result<RegistryCursor> {
        Ok(RegistryCursor {
            // SAFETY: plain C struct, zero is its initial state.
            base: unsafe { std::mem::zeroed() },
            function: self.function,
            rows: Vec::new(),
            position: 0,
        })
    }
}

/// Iterates the rows a table function computed in `filter`.
#[repr(C)]
pub struct RegistryCursor {
    /// Must be first: SQLite's base struct.
    base: sqlite3_vtab_cursor,
    function: &'static TableFunction,
    rows: Vec<Vec<Output>>,
    position: usize,
}

impl VTabCursor for RegistryCursor {
    fn filter(
        &mut self,
        idx_num: c_int,
        _idx_str: Option<&str>,
        values: &[*mut sqlite3_value],
    ) -> Result<()> {
        let f = self.function;
        let mut supplied = values.iter();
        let mut args = Vec::with_capacity(f.params.len());
        for (p, param) in f.params.iter().enumerate() {
            if idx_num & (1 << p) != 0 {
                args.push(supplied.next().map_or(Value::Null, to_value));
            } else if param.optional {
                args.push(Value::Null);
            } else {
                return Err(Error::new_message(format!(
                    "{}(): missing required argument '{}'; call it as {}",
                    f.name,
                    param.name,
                    f.signature()
                )));
            }
        }
        self.rows = f
            .invoke(&args, Host::Sqlite)
            .map_err(|e| Error::new_message(e.to_string()))?;
        self.position = 0;
        Ok(())
    }

    fn next(&mut self) -> Result<()> {
        self.position += 1;
        Ok(())
    }

    fn eof(&self) -> bool {
        self.position >= self.rows.len()
    }

    fn column(&self, context: *mut sqlite3_context, i: c_int) -> Result<()> {
        let value = usize::try_from(i)
            .ok()
            .and_then(|i| self.rows.get(self.position)?.get(i));
        set_result(context, value.unwrap_or(&Output::Null))
    }

    fn rowid(&self) -> Result<i64> {
        Ok(self.position as i64)
    }
}
