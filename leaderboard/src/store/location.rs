//! Where a Ludus database is: a SQLite file's path, or a PostgreSQL URL
//! (shown with its password hidden).

use std::path::PathBuf;

/// Where a Ludus database is: a SQLite file, or a PostgreSQL database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    /// A `postgres://` or `postgresql://` URL.
    Postgres(String),
}

impl Location {
    /// `postgres://…` and `postgresql://…` name a PostgreSQL database;
    /// anything else is a SQLite file's path.
    pub fn parse(arg: &str) -> Location {
        if arg.starts_with("postgres://") || arg.starts_with("postgresql://") {
            Location::Postgres(arg.to_string())
        } else {
            Location::File(PathBuf::from(arg))
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Location::Postgres(_))
    }
}

impl std::str::FromStr for Location {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Location, Self::Err> {
        Ok(Location::parse(s))
    }
}

impl std::fmt::Display for Location {
    /// The path, or the URL with its password hidden.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::File(p) => write!(f, "{}", p.display()),
            Location::Postgres(url) => f.write_str(&hide_password(url)),
        }
    }
}

/// `postgres://user:secret@host/db` as `postgres://user:***@host/db`.
fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_shown_without_its_password() {
        let l = Location::parse("postgres://ludus:s3cret@db.example:5432/ludus?sslmode=disable");
        assert!(l.is_postgres());
        assert_eq!(
            l.to_string(),
            "postgres://ludus:***@db.example:5432/ludus?sslmode=disable"
        );
        assert_eq!(
            Location::parse("postgresql://ludus@h/db").to_string(),
            "postgresql://ludus@h/db"
        );
        assert_eq!(
            Location::parse("ludus.db"),
            Location::File(PathBuf::from("ludus.db"))
        );
    }
}
