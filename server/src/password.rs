//! Passwords: which ones an account may have, and their hashes. A password
//! is hashed with Argon2id at the `argon2` crate's default parameters (the
//! recommended m = 19 456 KiB, t = 2, p = 1) and a random salt, and kept as
//! its PHC string, which names the algorithm and parameters, so hashes made
//! with other parameters later still verify.
//!
//! A password is refused when it is shorter than [`MIN_LENGTH`], is or
//! contains the account's name, uses fewer than [`MIN_DISTINCT`] different
//! characters, or is one of the most common passwords (with digits or
//! symbols added at its end, too).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The fewest characters a password has.
pub const MIN_LENGTH: usize = 10;

/// The most characters a password has (hashing reads every one).
pub const MAX_LENGTH: usize = 256;

/// The fewest different characters a password has.
pub const MIN_DISTINCT: usize = 5;

/// The 10 000 most common passwords, lower case, one a line: the first
/// 10 000 of the `passwords` frequency list of the `zxcvbn` crate (version
/// 3.1.1, MIT licence, Copyright (c) 2016 Joshua Holmer), which takes it from
/// Dropbox's zxcvbn (MIT), itself from Xato's corpus of leaked passwords.
const COMMON: &str = include_str!("common_passwords.txt");

fn common() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| COMMON.lines().filter(|l| !l.is_empty()).collect())
}

/// Why `password` may not be the password of the account `name`, in a
/// sentence; `None` when it may.
pub fn weakness(name: &str, password: &str) -> Option<String> {
    let length = password.chars().count();
    if length < MIN_LENGTH {
        return Some(format!(
            "a password has at least {MIN_LENGTH} characters; a longer one, a few words say, is easier to remember than a short odd one"
        ));
    }
    if length > MAX_LENGTH {
        return Some(format!("a password has at most {MAX_LENGTH} characters"));
    }
    let lower = password.to_lowercase();
    if !name.is_empty() && lower.contains(&name.to_lowercase()) {
        return Some("a password may not contain the account's name".into());
    }
    if password.chars().collect::<HashSet<_>>().len() < MIN_DISTINCT {
        return Some(format!(
            "a password has at least {MIN_DISTINCT} different characters"
        ));
    }
    let stem = lower.trim_end_matches(|c: char| !c.is_alphabetic());
    if common().contains(lower.as_str()) || common().contains(stem) {
        return Some(
            "this password is one of the most common ones, which are tried first; choose another"
                .into(),
        );
    }
    None
}

/// The PHC string of `password`'s Argon2id hash, with a random salt.
pub fn hash(password: &str) -> anyhow::Result<String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| anyhow::anyhow!("no randomness for a salt: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("cannot hash the password: {e}"))?
        .to_string())
}

/// Whether `password` is the one whose hash is `phc`; `false` for a
/// string that is not a PHC string.
pub fn verify(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// Whether `password` is the one whose hash is `phc`; with no hash (an
/// unknown name, an account without a password) `false`, as slowly as a
/// wrong password ([`verify_nothing`]).
pub fn check(password: &str, phc: Option<&str>) -> bool {
    match phc {
        Some(phc) => verify(password, phc),
        None => {
            verify_nothing(password);
            false
        }
    }
}

/// Takes the time of a [`verify`] and answers `false`: for a name that has
/// no account, or an account without a password, so that they answer as
/// slowly as a wrong password does.
pub fn verify_nothing(password: &str) {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let phc =
        DUMMY.get_or_init(|| hash("a password nobody has, for timing only").unwrap_or_default());
    let _ = verify(password, phc);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_common_and_name_passwords_are_refused() {
        assert!(weakness("alice", "short").unwrap().contains("at least 10"));
        assert!(weakness("alice", "my-alice-secret-horse").is_some());
        assert!(weakness("alice", "Manchester").unwrap().contains("common"));
        assert!(weakness("alice", "qwertyuiop").is_some());
        assert!(
            weakness("alice", "dragon123456").is_some(),
            "a common word and digits"
        );
        assert!(weakness("alice", "aaaabbbbaaaa").is_some());
        assert_eq!(weakness("alice", "correct horse battery"), None);
        assert_eq!(COMMON.lines().count(), 10_000);
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let phc = hash("correct horse battery").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify("correct horse battery", &phc));
        assert!(!verify("correct horse battery!", &phc));
        assert!(!verify("correct horse battery", "not a hash"));
        assert_ne!(phc, hash("correct horse battery").unwrap(), "salted");
    }
}
