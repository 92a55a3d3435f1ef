//! Text fitted to a table's columns.

/// `s`, or its first `n - 1` characters and `…` when it is longer than `n`.
pub(crate) fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}
