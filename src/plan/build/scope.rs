//! Name resolution: the relations visible to an expression, their columns, and outer scopes.

use crate::plan::columns::ColumnId;

/// A named row source in a FROM clause (a table, a derived table, a CTE reference).
#[derive(Debug, Clone)]
pub struct Relation {
    /// The lower-case name expressions qualify its columns with (alias, or table name).
    pub name: String,
    /// Lower-case column names and their ids, in order.
    pub columns: Vec<(String, ColumnId)>,
    /// Columns merged away by `USING`/`NATURAL` (still addressable when qualified, but not
    /// expanded by `*` and not ambiguous when unqualified).
    pub merged: Vec<ColumnId>,
    /// The base table whose rows are this relation's rows one for one (None for a derived
    /// table or a CTE reference).
    pub table: Option<String>,
    /// An outer join may extend its rows with NULLs (the right side of a LEFT JOIN, ...).
    pub null_extended: bool,
}

impl Relation {
    /// The id of column `name` (lower case), if the relation has it.
    pub fn column(&self, name: &str) -> Option<ColumnId> {
        self.columns
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }
}

/// The relations of one query level, and the enclosing level for correlated references.
#[derive(Debug, Clone, Default)]
pub struct Scope<'s> {
    pub relations: Vec<Relation>,
    pub parent: Option<&'s Scope<'s>>,
}

impl<'s> Scope<'s> {
    /// A scope for a query level nested in `parent`.
    pub fn nested(parent: Option<&'s Scope<'s>>) -> Self {
        Scope {
            relations: Vec::new(),
            parent,
        }
    }

    /// Resolves `column` (lower case), qualified by `qualifier` when given, in this scope and
    /// then in the enclosing ones. An unqualified name matching several relations resolves to
    /// the first (SQLite would reject it as ambiguous; accepting it keeps near-miss predictions
    /// comparable).
    pub fn resolve(&self, qualifier: Option<&str>, column: &str) -> Option<ColumnId> {
        let mut scope = Some(self);
        while let Some(s) = scope {
            if let Some(id) = s.lookup_here(qualifier, column) {
                return Some(id);
            }
            scope = s.parent;
        }
        None
    }

    fn lookup_here(&self, qualifier: Option<&str>, column: &str) -> Option<ColumnId> {
        match qualifier {
            Some(q) => self
                .relations
                .iter()
                .rev()
                .filter(|r| r.name == q)
                .find_map(|r| r.column(column)),
            None => {
                let mut first_merged = None;
                for r in &self.relations {
                    if let Some(id) = r.column(column) {
                        if !r.merged.contains(&id) {
                            return Some(id);
                        }
                        first_merged.get_or_insert(id);
                    }
                }
                first_merged
            }
        }
    }

    /// The columns `*` expands to (every relation, merged columns once).
    pub fn star(&self) -> Vec<(String, ColumnId)> {
        self.relations
            .iter()
            .flat_map(|r| {
                r.columns
                    .iter()
                    .filter(|(_, id)| !r.merged.contains(id))
                    .cloned()
            })
            .collect()
    }

    /// The columns `name.*` expands to.
    pub fn qualified_star(&self, name: &str) -> Option<Vec<(String, ColumnId)>> {
        self.relations
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.columns.clone())
    }
}
