//! Challenges: "is this version better?" answered by the server's workers.
//! The owner of a bot asks for unrated matches of one of its versions (a
//! candidate, typically) against chosen opponents: a fixed number of games,
//! or game pairs until a pentanomial SPRT decides ([`crate::sprt`], as
//! `ludus match-up` plays it). A challenge is a ladder of kind `challenge`
//! ([`crate::store::CHALLENGE_KIND`]): its bots are the tested version
//! (position 0) and the opponents, its seed the challenge's; it is never
//! rated and never on a leaderboard.
//!
//! Pair `k` is two games on the seed
//! [`matchup::pair_seed`](crate::matchup::pair_seed)`(game, seed, k)` with
//! the tested bot A and the opponent B = opponent `k mod n` in swapped
//! seats ([`pair_tables`]). The scheduler appends pairs a few at a time
//! ([`top_up()`]) and reads the results in schedule order: the verdict
//! is the SPRT's at the first complete pair, in pair order, where it
//! decides, so neither the workers' number nor their timing changes it,
//! and a challenge re-run from its seed plays the same games to the same
//! verdict. Pairs scheduled past that point are not counted; those nobody
//! is playing yet are recorded as not played.
//!
//! Quotas ([`ChallengeLimits`]): challenges at once and games a day per
//! account, games per challenge. A candidate version is stored but not
//! entered in its game's ladder until its owner promotes it
//! ([`crate::candidates::promote`]).
//!
//! A file a question, each using only those before it: `pairs` (which
//! games pair `k` plays, on what seed), `tally` (what the finished games
//! say: outcomes, pentanomial counts, the verdict), `request` (what an
//! owner may ask, its quotas and refusals: creating and stopping a
//! challenge), `top_up` (keeping the running challenges going), `status`
//! (where a challenge stands; an account's challenges). Other crates see
//! one module: everything public is re-exported here.

mod pairs;
mod request;
mod status;
mod tally;
mod top_up;

/// Promotion is the candidates' (`crate::candidates`); re-exported so that
/// `challenge::promote`, the path callers and tests knew, keeps working.
pub use crate::candidates::promote;
pub use pairs::{fresh_seed, pair_tables, scheduled, Table};
pub use request::{
    create, stop, BotRef, ChallengeError, ChallengeId, ChallengeLimits, ChallengeRequest,
    Opponents, Test, STOPPED,
};
pub use status::{
    list, status, ChallengeBot, ChallengeMatch, ChallengeState, ChallengeStatus, ChallengeSummary,
    Estimate, SeatBot, SprtStatus,
};
pub use tally::{GameOutcome, Verdict};
pub use top_up::{top_up, TopUp, FEWEST_PENDING_PAIRS, MOST_PENDING_PAIRS};

/// For [`crate::candidates`], whose refusals are a challenge's.
pub(crate) use request::unknown;
