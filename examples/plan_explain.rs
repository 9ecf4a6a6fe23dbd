//! Prints the plan of a query: `cargo run --example plan_explain -- TABLES_JSON DB_ID "SQL"`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: plan_explain TABLES_JSON DB_ID SQL");
        std::process::exit(2);
    }
    let rows = sqlsim::schema::load_tables_file(&args[1]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let Some((_, entry)) = rows.iter().find(|(db, _)| *db == args[2]) else {
        eprintln!("no db_id {}", args[2]);
        std::process::exit(1)
    };
    let schema = sqlsim::schema::Schema::from_argument(entry).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    match sqlsim::plan::plan_sql(&args[3], &schema) {
        Ok(p) => print!("{}", p.explain()),
        Err(e) => {
            eprintln!("cannot plan: {e}");
            std::process::exit(1)
        }
    }
}
