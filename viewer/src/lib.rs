//! The Ludus viewer: one self-contained HTML page per replay, to watch a
//! match in a browser (no network, no build step), and the leaderboard page
//! linking every match's page.
//!
//! The pages' markup is written with maud in `page` and `site`; their
//! styles and scripts are the files of `assets/`, and a game's renderer is
//! `assets/games/<game>.js`. `docs/viewer.md` specifies the embedded
//! document and how to add a renderer.

pub mod document;
pub mod page;
pub mod site;

pub use document::{frames, Document, Frame, RebuildError, VIEWER_FORMAT, VIEWER_FORMAT_VERSION};
pub use page::{empty_page, framed_replay_page, named_replay_page, replay_page, Embed, RENDERERS};
pub use site::{leaderboard_page, write_site, SiteError, SiteSummary};
