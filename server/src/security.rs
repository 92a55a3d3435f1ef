//! The headers that tell a browser what a page may do: a content security
//! policy that runs only the pages' own scripts and styles (allowed by
//! their hashes: every one of them is a constant of this server or of the
//! viewer), no framing, no sniffing of content types, no referrer to other
//! sites; and for
//! an answer that depends on who asks, that no cache may keep it.

use axum::http::{header, HeaderName, HeaderValue};
use base64::Engine as _;
use sha2::{Digest, Sha256};
use std::sync::OnceLock;
use tower_http::set_header::SetResponseHeaderLayer;

/// `'sha256-…'` of an inline script's or style's text.
fn hash_source(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The content security policy of every answer.
pub fn content_security_policy() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        let scripts: Vec<String> = ludus_viewer::page::inline_scripts()
            .into_iter()
            .chain([crate::templates::POLL, crate::templates::UPLOAD_SCRIPT])
            .map(hash_source)
            .collect();
        let styles: Vec<String> = [
            ludus_viewer::page::inline_style(),
            crate::templates::STYLE,
            crate::templates::UPLOAD_STYLE,
        ]
        .into_iter()
        .map(hash_source)
        .collect();
        format!(
            "default-src 'none'; script-src {}; style-src {}; img-src 'self' data:; \
             connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            scripts.join(" "),
            styles.join(" ")
        )
    })
}

/// The headers every answer carries, unless its handler set them.
pub fn headers() -> [SetResponseHeaderLayer<HeaderValue>; 4] {
    let set = |name: HeaderName, value: &str| {
        SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_str(value).expect("a valid header value"),
        )
    };
    [
        set(header::CONTENT_SECURITY_POLICY, content_security_policy()),
        set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        set(header::X_FRAME_OPTIONS, "DENY"),
        // Not `no-referrer`: under it a browser sends `Origin: null` with
        // every form, and forms are checked by their origin. `same-origin`
        // still tells no other site where its visitors came from.
        set(header::REFERRER_POLICY, "same-origin"),
    ]
}

/// The headers of an answer that depends on who asks (a bot's logs are its
/// owner's): no cache keeps it, and one that would is told it varies.
pub fn private() -> [SetResponseHeaderLayer<HeaderValue>; 2] {
    let [cache, vary] = private_values();
    [
        SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, cache),
        SetResponseHeaderLayer::overriding(header::VARY, vary),
    ]
}

/// The values of [`private`]'s `Cache-Control` and `Vary`, for a handler
/// whose answer depends on who asks only sometimes.
pub fn private_values() -> [HeaderValue; 2] {
    [
        HeaderValue::from_static("private, no-store"),
        HeaderValue::from_static("Authorization, Cookie"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text inside each `<tag>` element of `page` that the browser
    /// would run or apply (not a data script's).
    fn inline(page: &str, tag: &str) -> Vec<String> {
        let mut out = Vec::new();
        let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
        let mut rest = page;
        while let Some(start) = rest.find(&open) {
            let after = &rest[start..];
            let head_end = after.find('>').unwrap() + 1;
            let head = &after[..head_end];
            let end = after.find(&close).unwrap();
            if !head.contains("type=\"application/") {
                out.push(after[head_end..end].to_string());
            }
            rest = &after[end..];
        }
        out
    }

    #[test]
    fn the_policy_allows_every_script_and_style_of_the_pages_and_no_other() {
        let csp = content_security_policy();
        let viewer = ludus_viewer::empty_page();
        let server = crate::templates::game(
            &crate::templates::Frame::anonymous(),
            &crate::dto::LeaderboardPage {
                board: ludus_leaderboard::report::empty("planet-wars"),
                page: 1,
                per_page: 20,
                total: 0,
                needs: 2,
                season: None,
                open: true,
                paused: false,
                seasons: Vec::new(),
                records: Vec::new(),
            },
        )
        .0;
        let upload = crate::templates::upload(
            &crate::templates::Frame::anonymous(),
            &crate::templates::UploadPage::default(),
        )
        .0;
        let mut seen = 0;
        for page in [&viewer, &server, &upload] {
            for text in inline(page, "script").iter().chain(&inline(page, "style")) {
                assert!(
                    csp.contains(&hash_source(text)),
                    "an inline element's hash is not in the policy: {}",
                    &text[..text.len().min(80)]
                );
                seen += 1;
            }
        }
        assert!(seen > 5, "the pages' inline elements: {seen}");
        assert!(!csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"));
        assert!(!csp.contains(&hash_source("alert(1)")));
    }
}
