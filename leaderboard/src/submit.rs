//! Submitting a bot: it is loaded (imports, exports, compilation), plays its
//! validation match for the game it is entered for ([`admit`]), and only
//! then is stored under its name ([`Admitted::store`]). The compiled module
//! stays in the sandbox's disk cache, by sha256, so the ladder that plays
//! the bot next does not compile it again.

use crate::store::{Store, StoreError, Submitted};
use ludus_host::check::{self, CheckError, CheckReport};
use ludus_host::{Limits, LoadError, Sandbox};

/// The most a bot or account name may have, in characters.
pub const NAME_LIMIT: usize = 64;

/// The name policy of a server's bots and accounts, in one line, as
/// refusals say it.
pub const NAME_RULE: &str =
    "a name is 1 to 64 characters: letters a-z and A-Z, digits, `-`, `_` and \
     `.`, beginning with a letter or a digit; names that differ only in case are the same name";

/// Whether `name` follows [`NAME_RULE`]: plain ASCII, so that two names
/// cannot look alike in another script.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.len() <= NAME_LIMIT
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A bot that passed its validation for a game, ready to be stored: the
/// only way to put a bot in the store through this module.
#[derive(Debug, Clone)]
pub struct Admitted<'a> {
    name: String,
    game: String,
    wasm: &'a [u8],
    /// The validation for the game (warnings included).
    pub report: CheckReport,
}

/// What a submission stored, and the validation that let it in.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub stored: Submitted,
    /// The validation for the game (warnings included).
    pub report: CheckReport,
}

/// Why a bot was not stored.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("`{name}` is refused: it is not a bot Ludus can run: {error}")]
    Load { name: String, error: LoadError },
    /// The bot failed its validation for the game; the report has the
    /// validation of every game, so it names those the bot does play, or
    /// only that of the game when the bot exhausted a budget there.
    #[error("`{}` is refused: {}", report.bot, refusal(report, game))]
    Refused {
        game: String,
        report: Box<CheckReport>,
    },
    #[error(transparent)]
    Check(#[from] CheckError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why the bot was refused for `game`, and which games it plays.
fn refusal(report: &CheckReport, game: &str) -> String {
    let validation = report.game(game);
    let why = validation.and_then(|v| v.why_failed());
    let plays = match (
        validation.and_then(|v| v.budget_spent()),
        &report.plays()[..],
    ) {
        (Some(budget), _) => format!(
            "it was not tried on the other games: it exhausted its {budget} budget, \
             and would spend it again on each"
        ),
        (None, []) => "it plays none of the games".into(),
        (None, [one]) => format!("it plays {one}"),
        (None, [init @ .., last]) => format!("it plays {} and {last}", init.join(", ")),
    };
    format!(
        "it does not play {game} ({}); {plays}",
        why.unwrap_or_default()
    )
}

/// Loads the bot `wasm` and plays its validation match for `game` under
/// `limits`. Refused, it is validated for every other game too, so that the
/// error names the games it does play; unless it exhausted a budget (fuel,
/// memory, stack, time), which it would spend again for each game.
pub fn admit<'a>(
    sandbox: &Sandbox,
    name: &str,
    game: &str,
    wasm: &'a [u8],
    limits: &Limits,
) -> Result<Admitted<'a>, SubmitError> {
    let info = ludus_engine::registry::info(game).map_err(CheckError::from)?;
    let bot = sandbox
        .load(name, wasm)
        .map_err(|error| SubmitError::Load {
            name: name.into(),
            error,
        })?;
    let validation = check::validate(&bot, info, limits)?;
    let passed = validation.passed();
    let mut report = CheckReport {
        bot: bot.name.clone(),
        sha256: bot.sha256.clone(),
        kind: bot.kind(),
        games: vec![validation],
    };
    if !passed {
        let others = if report.games[0].budget_spent().is_some() {
            &[][..]
        } else {
            ludus_engine::games()
        };
        for other in others.iter().filter(|g| g.id != info.id) {
            report.games.push(check::validate(&bot, other, limits)?);
        }
        return Err(SubmitError::Refused {
            game: game.into(),
            report: Box::new(report),
        });
    }
    Ok(Admitted {
        name: name.into(),
        game: game.into(),
        wasm,
        report,
    })
}

impl Admitted<'_> {
    /// Stores the bot as the next version of its name (identical bytes
    /// again are a no-op), as a `candidate` or not: a candidate is not
    /// entered in its game's ladder until its owner promotes it
    /// ([`crate::challenge::promote`]). `now` is the submission time as the
    /// store records it.
    pub fn store(self, store: &Store, now: &str, candidate: bool) -> Result<Accepted, StoreError> {
        let stored = store.bots().submit_as(
            &self.name,
            &self.game,
            self.wasm,
            &self.report.sha256,
            now,
            candidate,
        )?;
        Ok(Accepted {
            stored,
            report: self.report,
        })
    }
}
