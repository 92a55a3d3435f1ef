//! The wall clock, where Ludus records when something happened (a bot
//! submitted, an account made, an upload counted). It never reaches a
//! match: matches run on virtual time (see the host's WASI).

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Now, to the second, as RFC 3339 in UTC (`2026-01-01T00:00:00Z`): how
/// the store records submission and account times.
pub fn now_rfc3339() -> String {
    let now = OffsetDateTime::now_utc();
    now.replace_nanosecond(0)
        .unwrap_or(now)
        .format(&Rfc3339)
        .expect("a UTC time formats as RFC 3339")
}

/// Now, in whole seconds since the Unix epoch.
pub fn now_unix() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

/// A time in seconds since the Unix epoch (as the store records removals
/// and pauses), as RFC 3339 in UTC; the number itself if it is out of
/// range.
pub fn unix_rfc3339(seconds: i64) -> String {
    OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| seconds.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_time_is_rfc_3339_to_the_second_in_utc() {
        let t = super::now_rfc3339();
        assert_eq!(t.len(), "2026-01-01T00:00:00Z".len(), "{t}");
        assert!(t.ends_with('Z') && t.as_bytes()[10] == b'T', "{t}");
        let parsed =
            time::OffsetDateTime::parse(&t, &time::format_description::well_known::Rfc3339)
                .unwrap();
        assert!((parsed.unix_timestamp() - super::now_unix()).abs() <= 2);
    }

    #[test]
    fn a_unix_time_reads_as_rfc_3339() {
        assert_eq!(super::unix_rfc3339(1_767_225_600), "2026-01-01T00:00:00Z");
    }
}
