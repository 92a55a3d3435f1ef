//! The run's database, as the `ludus` commands name it (`--db`) and as the
//! harness reads it: SQL through `psql`, or through the `sqlite3` command
//! line once no process writes the file (while the server writes, the
//! harness opens it only as the `sqlite3` reader fault does).

use crate::faults::procs::run_command;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The separator of the fields of a row in the command lines' output.
const SEP: &str = "\u{1f}";

#[derive(Debug, Clone)]
pub enum Db {
    Postgres { url: String, psql: PathBuf },
    Sqlite { file: PathBuf },
}

impl Db {
    /// What `--db` takes.
    pub fn arg(&self) -> String {
        match self {
            Db::Postgres { url, .. } => url.clone(),
            Db::Sqlite { file } => file.display().to_string(),
        }
    }

    /// The rows of `sql`, each a list of its fields as text (NULL as an
    /// empty field). Errors carry the client's message.
    pub fn query(&self, sql: &str, timeout: Duration) -> Result<Vec<Vec<String>>, String> {
        let mut cmd = match self {
            Db::Postgres { url, psql } => {
                let mut c = Command::new(psql);
                c.args(["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-F", SEP])
                    .args(["-c", sql, url])
                    .env("PGCONNECT_TIMEOUT", "3");
                c
            }
            Db::Sqlite { file } => {
                let mut c = Command::new("sqlite3");
                c.args(["-batch", "-bail", "-noheader", "-separator", SEP])
                    .arg(file)
                    .arg(sql);
                c
            }
        };
        let out = run_command(&mut cmd, timeout)?;
        if !out.success() {
            return Err(format!(
                "{} failed on `{}`: {}",
                match self {
                    Db::Postgres { .. } => "psql",
                    Db::Sqlite { .. } => "sqlite3",
                },
                sql.split_whitespace().collect::<Vec<_>>().join(" "),
                out.describe()
            ));
        }
        Ok(out
            .stdout
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| l.split(SEP).map(str::to_string).collect())
            .collect())
    }

    /// The single integer `sql` selects.
    pub fn count(&self, sql: &str, timeout: Duration) -> Result<i64, String> {
        let rows = self.query(sql, timeout)?;
        rows.first()
            .and_then(|r| r.first())
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("`{sql}` gave no number: {rows:?}"))
    }

    /// The expression giving a blob's bytes as hex in this database.
    pub fn hex(&self, column: &str) -> String {
        match self {
            Db::Postgres { .. } => format!("encode({column}, 'hex')"),
            Db::Sqlite { .. } => format!("hex({column})"),
        }
    }
}
