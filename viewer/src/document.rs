//! The viewer document: a replay, plus what the replay does not store and a
//! viewer needs to draw, the state of every turn. A replay records answers,
//! not states, so the match is re-played through the engine with the recorded
//! answers (exactly as `ludus replay verify` does, without the bots) and the
//! observation each seat saw is kept, turn by turn. The format is specified
//! in `docs/viewer.md`.

use ludus_host::Replay;
use serde::Serialize;

pub const VIEWER_FORMAT: &str = "ludus-viewer";
pub const VIEWER_FORMAT_VERSION: u32 = 1;

/// The state after `turn` turns (0: before the first), as each seat sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    pub turn: u32,
    /// The game's running scores (`Game::scores`).
    pub scores: Vec<f64>,
    /// Per seat, the observation text the engine gives that seat in this
    /// state: what its bot received to answer turn `turn + 1`.
    pub observations: Vec<String>,
    /// The whole state, for games whose observations hide part of it (fog
    /// of war; see `Game::spectator`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spectator: Option<String>,
}

/// What a viewer page embeds.
#[derive(Debug, Clone, Serialize)]
pub struct Document<'a> {
    pub format: &'static str,
    pub format_version: u32,
    pub replay: &'a Replay,
    /// `turns + 1` frames, or none when the match could not be re-played
    /// (then `notes` says why, and a viewer shows what the replay holds).
    pub frames: Vec<Frame>,
    /// Anything a watcher should know about this document.
    pub notes: Vec<String>,
    /// How the page names each seat, where something knows better than the
    /// replay: the bot's name and version as its ladder's schedule seated
    /// it (`carol v2`), whatever bytes it shares with another bot. Empty:
    /// the replay's own names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seat_names: Vec<String>,
}

/// Why a replay's states could not be rebuilt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RebuildError {
    #[error("this Ludus cannot set up the game: {0}")]
    Setup(String),
    #[error(
        "the replay is of {game} rules version {recorded}, this Ludus implements version {current}"
    )]
    RulesVersion {
        game: String,
        recorded: u32,
        current: u32,
    },
    #[error("turn {turn}: the engine's state differs from the recorded one ({what})")]
    Diverged { turn: u32, what: String },
}

impl<'a> Document<'a> {
    /// The document of `replay`. When the states cannot be rebuilt (a game
    /// or rules version this Ludus lacks, a replay that does not reproduce),
    /// the document has no frames and a note saying why.
    pub fn new(replay: &'a Replay) -> Self {
        let (frames, notes) = match frames(replay) {
            Ok(f) => (f, Vec::new()),
            Err(e) => (
                Vec::new(),
                vec![format!(
                    "The board cannot be drawn: {e}. Scores, logs and answers come from the replay."
                )],
            ),
        };
        Document {
            format: VIEWER_FORMAT,
            format_version: VIEWER_FORMAT_VERSION,
            replay,
            frames,
            notes,
            seat_names: Vec::new(),
        }
    }

    /// The document with each seat named `names[seat]` on the page; names
    /// that are not one per seat are left out.
    pub fn with_seat_names(mut self, names: &[String]) -> Self {
        if names.len() == self.replay.seats.len() {
            self.seat_names = names.to_vec();
        }
        self
    }

    /// What the page calls each seat: [`Document::seat_names`], or the
    /// replay's names.
    pub fn seat_name(&self, seat: usize) -> &str {
        self.seat_names
            .get(seat)
            .map_or_else(|| self.replay.seats[seat].name.as_str(), |n| n.as_str())
    }

    /// Compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("the document serialises")
    }
}

/// Re-plays `replay` through the engine with its recorded answers and
/// returns one frame per state, checking every state hash on the way.
pub fn frames(replay: &Replay) -> Result<Vec<Frame>, RebuildError> {
    let players = replay.seats.len();
    // The setup rebuilds the very same game even if a generator changed.
    let mut game = ludus_engine::new_game(&replay.game, &replay.setup, replay.seed, players)
        .map_err(|e| RebuildError::Setup(e.to_string()))?;
    if game.rules_version() != replay.rules_version {
        return Err(RebuildError::RulesVersion {
            game: replay.game.clone(),
            recorded: replay.rules_version,
            current: game.rules_version(),
        });
    }
    if hex::encode(game.state_hash()) != replay.initial_state_hash {
        return Err(RebuildError::Diverged {
            turn: 0,
            what: "initial state".into(),
        });
    }
    let snapshot = |game: &dyn ludus_engine::Game| Frame {
        turn: game.turn(),
        scores: game.scores(),
        observations: (0..players)
            .map(|seat| {
                let mut text = String::new();
                game.observation(seat, &mut text);
                text
            })
            .collect(),
        spectator: {
            let mut text = String::new();
            game.spectator(&mut text).then_some(text)
        },
    };
    let mut frames = Vec::with_capacity(replay.turns.len() + 1);
    frames.push(snapshot(game.as_ref()));
    for record in &replay.turns {
        let answers: Vec<Option<&str>> = record.seats.iter().map(|s| s.answer.as_deref()).collect();
        let refused = game.step(&answers);
        let turn = record.turn;
        if hex::encode(game.state_hash()) != record.state_hash {
            return Err(RebuildError::Diverged {
                turn,
                what: "state hash".into(),
            });
        }
        let recorded: Vec<(&str, &str)> = record
            .seats
            .iter()
            .flat_map(|s| {
                s.refused
                    .iter()
                    .map(|r| (r.kind.as_str(), r.reason.as_str()))
            })
            .collect();
        let rerun: Vec<(&str, &str)> = refused
            .iter()
            .map(|r| (r.kind.as_str(), r.reason.as_str()))
            .collect();
        if recorded != rerun {
            return Err(RebuildError::Diverged {
                turn,
                what: "refusals".into(),
            });
        }
        let frame = snapshot(game.as_ref());
        if frame.scores != record.scores {
            return Err(RebuildError::Diverged {
                turn,
                what: "scores".into(),
            });
        }
        frames.push(frame);
    }
    Ok(frames)
}
