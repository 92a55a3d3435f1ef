//! The Kaggle games, apart from the build of their agents, so that the
//! import scan can name them without depending on that build.

/// A Kaggle game Ludus runs agents of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KaggleGame {
    Kore,
    Halite,
}

impl KaggleGame {
    pub const ALL: [KaggleGame; 2] = [KaggleGame::Kore, KaggleGame::Halite];

    /// The Ludus game id: `kore`, `halite`.
    pub fn game_id(self) -> &'static str {
        match self {
            KaggleGame::Kore => "kore",
            KaggleGame::Halite => "halite",
        }
    }

    /// kaggle-environments' name: `kore_fleets`, `halite`.
    pub fn env_name(self) -> &'static str {
        match self {
            KaggleGame::Kore => "kore_fleets",
            KaggleGame::Halite => "halite",
        }
    }
}

impl std::fmt::Display for KaggleGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.game_id())
    }
}

impl std::str::FromStr for KaggleGame {
    type Err = String;

    /// `kore` (or `kore_fleets`) and `halite`.
    fn from_str(s: &str) -> Result<Self, String> {
        KaggleGame::ALL
            .into_iter()
            .find(|g| s == g.game_id() || s == g.env_name())
            .ok_or_else(|| format!("`{s}` is not a Kaggle game Ludus runs: kore or halite"))
    }
}
