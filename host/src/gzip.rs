//! Gzip as Ludus writes it: no modification time in the header, so the same
//! bytes always give the same gzip (a replay file, a stored replay, a page).

use std::io::Write;

/// `bytes` in gzip at the default level, modification time 0: replay files
/// and stored replays.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    gzip_at(bytes, flate2::Compression::default())
}

/// `bytes` in gzip at the best level, modification time 0: for what is
/// written once and carried often, such as a replay embedded in a page.
pub fn gzip_best(bytes: &[u8]) -> Vec<u8> {
    gzip_at(bytes, flate2::Compression::best())
}

fn gzip_at(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut enc = flate2::GzBuilder::new().mtime(0).write(Vec::new(), level);
    enc.write_all(bytes).expect("writing to a Vec");
    enc.finish().expect("writing to a Vec")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn gunzip(gz: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(gz)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn no_timestamp_and_the_same_bytes_back() {
        let text = "a turn, another turn, ".repeat(200).into_bytes();
        // The header: magic, deflate, no flags, mtime 0, the level's hint
        // (2: best; 0: default), "unknown" system.
        for (gz, hint) in [(gzip(&text), 0), (gzip_best(&text), 2)] {
            assert_eq!(gz[..10], [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, hint, 255]);
            assert_eq!(gunzip(&gz), text);
            assert!(gz.len() < text.len() / 10);
        }
        assert_eq!(gzip(&text), gzip(&text));
        assert_eq!(gunzip(&gzip(b"")), b"");
    }
}
