//! Submitting a bot: it is loaded (imports, exports, compilation), plays its
//! validation match for the game it is entered for ([`admit`]), and only
//! then is stored under its name ([`Admitted::store_for`]). The compiled module
//! stays in the sandbox's disk cache, by sha256, so the ladder that plays
//! the bot next does not compile it again.
//!
//! Every upload is stored by [`store_for`], whoever sends it (the API, the
//! upload page, the house, `ludus submit --db`): an account claims the
//! name as it stores the version, and a name that is not its to take is
//! refused ([`NameRefused`]) with nothing stored.

use crate::store::{Claim, Store, StoreError, Submitted};
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

/// Why a bot name is not an account's to take: the one wording of it, for
/// the server's answers and the house's log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameRefused {
    #[error("the bot `{name}` belongs to {owner}")]
    Owned { name: String, owner: String },
    #[error("the bot `{name}` was stored by the server's operator and belongs to no account")]
    Unowned { name: String },
    #[error("`{name}` is the name of the bot `{other}` (names are one name whatever their case)")]
    LooksLike { name: String, other: String },
}

/// The store's answer to a claim on `name`, as a refusal unless it is the
/// claimant's.
fn claimed(name: &str, claim: Claim) -> Result<(), NameRefused> {
    let name = name.to_string();
    match claim {
        Claim::Taken => Ok(()),
        Claim::Owned(owner) => Err(NameRefused::Owned { name, owner }),
        Claim::Unowned => Err(NameRefused::Unowned { name }),
        Claim::LooksLike(other) => Err(NameRefused::LooksLike { name, other }),
    }
}

/// Whether `account` may store a version under `name` ([`store_for`]
/// claims it): asked before an upload's bytes are read and its bot
/// validated, so that a refused name costs neither.
pub fn may_claim(
    store: &Store,
    account: i64,
    name: &str,
) -> Result<Result<(), NameRefused>, StoreError> {
    Ok(claimed(
        name,
        store.accounts().check_bot_name(name, account)?,
    ))
}

/// A bot version to store: its name, its game, its bytes and their sha256.
#[derive(Debug, Clone, Copy)]
pub struct NewVersion<'a> {
    pub name: &'a str,
    pub game: &'a str,
    pub wasm: &'a [u8],
    pub sha256: &'a str,
}

/// Stores `version` for `owner` as the next version of its name
/// (identical bytes again are a no-op), as a `candidate` or not: a
/// candidate is not entered in its game's ladder until its owner promotes
/// it ([`crate::candidates::promote`]). An account claims the name first,
/// under the names' lock: a new name becomes its own, its own retired name
/// comes back; a name that is another's, the operator's or a look-alike is
/// refused, and nothing is stored. The operator (`None`: `ludus submit
/// --db`) claims nothing. `now` is the submission time as the store
/// records it.
pub fn store_for(
    store: &Store,
    owner: Option<i64>,
    version: &NewVersion,
    now: &str,
    candidate: bool,
) -> Result<Result<Submitted, NameRefused>, StoreError> {
    if let Some(account) = owner {
        let claim = store.accounts().take_bot_name(version.name, account)?;
        if let Err(refused) = claimed(version.name, claim) {
            return Ok(Err(refused));
        }
    }
    let NewVersion {
        name,
        game,
        wasm,
        sha256,
    } = *version;
    Ok(Ok(store
        .bots()
        .submit_as(name, game, wasm, sha256, now, candidate)?))
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
    /// The name is not the account's to take.
    #[error(transparent)]
    Name(#[from] NameRefused),
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
    /// Stores the bot for `owner` through [`store_for`], which claims its
    /// name for an account (the operator, `None`, claims nothing).
    pub fn store_for(
        self,
        store: &Store,
        owner: Option<i64>,
        now: &str,
        candidate: bool,
    ) -> Result<Accepted, SubmitError> {
        let version = NewVersion {
            name: &self.name,
            game: &self.game,
            wasm: self.wasm,
            sha256: &self.report.sha256,
        };
        let stored = store_for(store, owner, &version, now, candidate)??;
        Ok(Accepted {
            stored,
            report: self.report,
        })
    }
}
