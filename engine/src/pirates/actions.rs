//! Answers: the action words, reading a raw answer into an [`Action`], and
//! the kinds of refusal.
//!
//! Reading is total: any text gives an action or a reason it is not one.

use super::hex::Dir;
use crate::grid::{answer_word, not_a};

/// What a ship may buy at the shop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    Potion,
    Hull,
    Cannons,
}

impl Item {
    pub const ALL: [Item; 3] = [Item::Potion, Item::Hull, Item::Cannons];
}

/// One move's action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// One field towards the direction.
    Sail(Dir),
    /// `buy-POTION`, `buy-HULL`, `buy-CANNONS`.
    Buy(Item),
    /// `up`: drink a potion.
    Drink,
    /// `atk-X`: fire at ship `X` (players 1 to 4, NPCs 5 and 6). The number
    /// is kept as read, so an answer naming a ship that does not exist is
    /// refused for that reason rather than as unreadable.
    Attack(u64),
}

impl Action {
    /// The word bots send and `legalActions` lists.
    pub fn name(self) -> String {
        match self {
            Action::Sail(d) => d.name().to_string(),
            Action::Buy(Item::Potion) => "buy-POTION".into(),
            Action::Buy(Item::Hull) => "buy-HULL".into(),
            Action::Buy(Item::Cannons) => "buy-CANNONS".into(),
            Action::Drink => "up".into(),
            Action::Attack(x) => format!("atk-{x}"),
        }
    }
}

/// The kinds of refusal. Every refused answer of the ship to move is
/// counted as one of its illegal moves.
pub mod kind {
    /// The answer is not an action word at all.
    pub const UNPARSEABLE: &str = "unparseable";
    /// A step off the sea.
    pub const OFF_THE_SEA: &str = "off_the_sea";
    /// A step onto an island.
    pub const ISLAND: &str = "island";
    /// A step onto a field with a ship (a player's or an NPC's) on it.
    pub const OCCUPIED: &str = "occupied";
    /// A step while a vortex holds the ship.
    pub const PARALYZED: &str = "paralyzed";
    /// A purchase away from the shop.
    pub const NOT_AT_SHOP: &str = "not_at_shop";
    /// A purchase the ship's gold does not cover.
    pub const NOT_ENOUGH_GOLD: &str = "not_enough_gold";
    /// A fourth potion, or a third upgrade of the hull or the cannons.
    pub const LIMIT_REACHED: &str = "limit_reached";
    /// `up` without a potion.
    pub const NO_POTION: &str = "no_potion";
    /// An attack on a ship that is not there: an unknown number, the ship
    /// itself, or one eliminated.
    pub const NO_SUCH_TARGET: &str = "no_such_target";
    /// An attack on a ship more than 2 fields away.
    pub const OUT_OF_RANGE: &str = "out_of_range";
}

/// The longest run of digits read as a ship number in `atk-X`.
const MAX_DIGITS: usize = 20;

/// What an answer must be, as its refusals say.
const EXPECTED: &str = "answer one of nw, ne, e, se, sw, w, buy-POTION, buy-HULL, buy-CANNONS, \
                        up, atk-X (X: the number of the ship to fire at), bare or as a JSON string";

/// Reads one raw answer: an action word, bare or as a JSON string (`"nw"`,
/// as the SDK sends it), surrounding whitespace ignored, letters in any
/// case.
pub fn parse_action(raw: &str) -> Result<Action, String> {
    let word = answer_word(raw).map_err(|e| format!("{e}; {EXPECTED}"))?;
    let lower = word.to_ascii_lowercase();
    let action = match lower.as_str() {
        "nw" => Some(Action::Sail(Dir::Nw)),
        "ne" => Some(Action::Sail(Dir::Ne)),
        "e" => Some(Action::Sail(Dir::E)),
        "se" => Some(Action::Sail(Dir::Se)),
        "sw" => Some(Action::Sail(Dir::Sw)),
        "w" => Some(Action::Sail(Dir::W)),
        "buy-potion" => Some(Action::Buy(Item::Potion)),
        "buy-hull" => Some(Action::Buy(Item::Hull)),
        "buy-cannons" => Some(Action::Buy(Item::Cannons)),
        "up" => Some(Action::Drink),
        other => other
            .strip_prefix("atk-")
            .filter(|x| !x.is_empty() && x.len() <= MAX_DIGITS)
            .filter(|x| x.bytes().all(|b| b.is_ascii_digit()))
            .map(|x| Action::Attack(x.parse::<u64>().unwrap_or(u64::MAX))),
    };
    action.ok_or_else(|| format!("{}; {EXPECTED}", not_a(raw, &word, "an action")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_words_read_bare_quoted_and_in_any_case() {
        assert_eq!(parse_action("nw"), Ok(Action::Sail(Dir::Nw)));
        assert_eq!(parse_action(" \"SE\"\n"), Ok(Action::Sail(Dir::Se)));
        assert_eq!(parse_action("buy-POTION"), Ok(Action::Buy(Item::Potion)));
        assert_eq!(parse_action("Buy-Hull"), Ok(Action::Buy(Item::Hull)));
        assert_eq!(parse_action("up"), Ok(Action::Drink));
        assert_eq!(parse_action("atk-3"), Ok(Action::Attack(3)));
        assert_eq!(parse_action("atk-007"), Ok(Action::Attack(7)));
        assert_eq!(
            parse_action("atk-99999999999999999999"),
            Ok(Action::Attack(u64::MAX))
        );
        for a in [
            Action::Sail(Dir::W),
            Action::Buy(Item::Cannons),
            Action::Drink,
            Action::Attack(6),
        ] {
            assert_eq!(parse_action(&a.name()), Ok(a));
        }
    }

    #[test]
    fn anything_else_is_refused_with_a_short_reason() {
        let long = "x".repeat(100_000);
        let nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        for bad in [
            "",
            "n",
            "stay",
            "atk-",
            "atk--1",
            "atk-1.5",
            "atk-123456789012345678901",
            "atk-+2",
            "\"nw",
            "{\"action\":\"nw\"}",
            "nw nw",
            "\u{0}",
            "buy-SWORD",
            long.as_str(),
            nested.as_str(),
        ] {
            let e = parse_action(bad).unwrap_err();
            assert!(e.len() < 300, "{e}");
        }
    }
}
