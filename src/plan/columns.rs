//! Column identities: every column a plan operator produces gets an id; its name, type and
//! origin live in one arena shared by the whole plan.

use super::expr::DataType;

/// The id of a column produced somewhere in a plan (an index into [`Columns`]).
pub type ColumnId = u32;

/// What the plan knows about one column.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnMeta {
    /// The output name (column name, alias, or `EXPR$n`).
    pub name: String,
    pub ty: DataType,
    /// A canonical label: `table.column` for a base column, the defining expression's digest for
    /// a computed one. Equivalent queries give their corresponding columns the same label.
    pub label: String,
    /// True when the column can never be NULL (NOT NULL or primary-key base column, COUNT, ...).
    pub not_null: bool,
    /// The base table and column, for a column read straight from a table.
    pub origin: Option<(String, String)>,
}

impl ColumnMeta {
    /// The canonical label (see [`ColumnMeta::label`]).
    pub fn origin_label(&self) -> &str {
        &self.label
    }
}

/// The arena of column metadata of one plan.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Columns {
    metas: Vec<ColumnMeta>,
}

impl Columns {
    /// Registers a new column and returns its id.
    pub fn add(&mut self, meta: ColumnMeta) -> ColumnId {
        self.metas.push(meta);
        (self.metas.len() - 1) as ColumnId
    }

    /// A new computed column named `name` whose value is described by `label`.
    pub fn derived(&mut self, name: &str, ty: DataType, label: String, not_null: bool) -> ColumnId {
        self.add(ColumnMeta {
            name: name.to_string(),
            ty,
            label,
            not_null,
            origin: None,
        })
    }

    /// The metadata of column `id` (a placeholder for an unknown id, which is a bug).
    pub fn meta(&self, id: ColumnId) -> &ColumnMeta {
        static UNKNOWN: ColumnMeta = ColumnMeta {
            name: String::new(),
            ty: DataType::Any,
            label: String::new(),
            not_null: false,
            origin: None,
        };
        self.metas.get(id as usize).unwrap_or(&UNKNOWN)
    }

    /// The output name of column `id`.
    pub fn name(&self, id: ColumnId) -> &str {
        &self.meta(id).name
    }

    /// Number of columns registered.
    pub fn len(&self) -> usize {
        self.metas.len()
    }

    /// True when no column is registered.
    pub fn is_empty(&self) -> bool {
        self.metas.is_empty()
    }
}
