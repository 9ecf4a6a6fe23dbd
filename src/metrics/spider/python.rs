//! Python's `float()` and `int()` on one token, as process_sql.py applies them to values and
//! LIMIT counts (underscores between digits allowed, as in Python 3.6+).

/// Python `float(text)` for the token shapes that matter.
pub fn py_float(t: &str) -> Option<f64> {
    if t.contains('_') {
        let b: Vec<char> = t.chars().collect();
        for (i, &c) in b.iter().enumerate() {
            if c == '_' {
                let ok = i > 0
                    && i + 1 < b.len()
                    && b[i - 1].is_ascii_digit()
                    && b[i + 1].is_ascii_digit();
                if !ok {
                    return None;
                }
            }
        }
        return t.replace('_', "").parse().ok();
    }
    t.parse().ok()
}

pub fn py_int(t: &str) -> Option<i64> {
    let s = if t.contains('_') {
        py_float(t)?;
        t.replace('_', "")
    } else {
        t.to_string()
    };
    s.parse().ok()
}
