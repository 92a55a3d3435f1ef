//! Conquest (the rule book's "Rules version 3"): four teams on a 12×12 board with mirrored
//! walls, each with one robot, a capital, soldiers in attack, defense and
//! reserve, and gold. Robots claim neutral land and fight battles for enemy
//! land; teams build mines, barracks and defense posts, fire four weapons,
//! move their capitals, and see only their own land and the cells next to
//! it. The rules are in `docs/games/conquest.md`; a turn is
//!
//! 1. every team answers one action (illegal is `WAIT`; nothing at all
//!    counts toward the 5-turn timeout, which puts a team out);
//! 2. orders that need no move: `ALLOCATE`, `GARRISON`, `WITHDRAW`, then
//!    buildings and relocations are started;
//! 3. weapons fire, all at once;
//! 4. robots move, all at once (two into one cell, swaps and steps onto a
//!    robot are blocked): into own land, claiming neutral land, attacking
//!    enemy land, or laying siege to a capital with its robot on it;
//! 5. defenders send soldiers to new battles, and their reserve to battles
//!    in their second turn;
//! 6. battles in their second turn are decided;
//! 7. robots cut off from their capital are out;
//! 8. claims, buildings and relocations finish;
//! 9. income, then points;
//!
//! and the game ends with the last team alive, after 300 turns, or after 30
//! turns with nothing happening. With `"capitals": "choose"` a setup turn 0
//! comes first, where each team picks its capital.

mod answers;
mod battle;
mod board;
mod fog;
mod legal;
mod observation;
mod rules;
mod unseen;
mod weapons;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::game_info::GameInfo;
use crate::grid::{self, Board, PLAYERS};
use crate::sight::Sight;
use crate::{EngineError, Game, Outcome, Rejection, Seat};

pub use answers::{kind, parse_answer, Order, Target};
pub use board::{quarter_of, CapitalMode, Setup};
pub use fog::Sighting;
pub use legal::Act;
pub use weapons::Strike;

/// The registry entry.
pub const INFO: GameInfo = GameInfo {
    id: "conquest",
    rules_version: 4,
    seats: &[4],
    max_seed: u64::MAX,
    score_unit: "points",
    progress_unit: None,
    unreadable: &[answers::kind::UNPARSEABLE],
    summary: "Four teams fight for a 12x12 board: soldiers, gold, buildings, weapons, capitals, fog of war.",
    new: |config, seed, players| Ok(Box::new(Conquest::from_config(config, seed, players)?)),
    answer_bytes: 64 << 10,
    sight: Sight::Partial(unseen::FOG),
};

/// The board's side.
pub const SIDE: usize = 12;
/// Play turns in a game (the setup turn of the choose mode not counted).
pub const MAX_TURNS: u32 = 300;
/// Turns in a row with nothing happening that end the game.
pub const QUIET_TURNS: u32 = 30;
/// Each team's soldiers and gold at the start.
pub const START_ATTACK: u64 = 500;
pub const START_DEFENSE: u64 = 350;
pub const START_RESERVE: u64 = 150;
pub const START_GOLD: u64 = 100;
/// Percent of its free defense a team sends to the new attacks of a turn.
pub const DEFENSE_SENT_PERCENT: u64 = 65;
/// Turns a battle lasts, the turn of the attack included.
pub const BATTLE_TURNS: u32 = 2;
/// A capital's defense, in percent.
pub const CAPITAL_DEFENSE_PERCENT: u64 = 160;
/// The defense of a cell next to a defense post, in percent.
pub const POST_DEFENSE_PERCENT: u64 = 140;
/// Points for taking a capital.
pub const CAPITAL_POINTS: u64 = 300;
/// Turns in a row without an answer that put a team out.
pub const SILENT_TURNS_OUT: u32 = 5;
/// `RELOCATE`: its gold, the turns the robot is locked, the turns between two.
pub const RELOCATE_COST: u64 = 150;
pub const RELOCATE_TURNS: u32 = 3;
pub const RELOCATE_EVERY: u32 = 60;

/// What a team earns each turn, in hundredths (so +0.4 a cell is 40).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Income {
    pub base: u64,
    pub per_cell: u64,
    /// Per finished building of the kind that pays it (barracks, mines).
    pub per_building: u64,
    pub per_quarter: u64,
}

/// New soldiers (to reserve): +3 +0.4 a cell, +12 a barracks, +4 a whole quarter.
pub const SOLDIER_INCOME: Income = Income {
    base: 300,
    per_cell: 40,
    per_building: 1200,
    per_quarter: 400,
};
/// Gold: +1 +0.12 a cell, +3 a mine, +1 a whole quarter.
pub const GOLD_INCOME: Income = Income {
    base: 100,
    per_cell: 12,
    per_building: 300,
    per_quarter: 100,
};

/// A building.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BuildingKind {
    Mine,
    Barracks,
    Post,
}

impl BuildingKind {
    pub const ALL: [BuildingKind; 3] = [
        BuildingKind::Mine,
        BuildingKind::Barracks,
        BuildingKind::Post,
    ];

    /// Its word in answers (`BUILD MINE`).
    pub fn word(self) -> &'static str {
        match self {
            BuildingKind::Mine => "MINE",
            BuildingKind::Barracks => "BARRACKS",
            BuildingKind::Post => "POST",
        }
    }

    /// Its name in the state (`mine`).
    pub fn name(self) -> &'static str {
        match self {
            BuildingKind::Mine => "mine",
            BuildingKind::Barracks => "barracks",
            BuildingKind::Post => "post",
        }
    }

    /// Gold it costs.
    pub fn cost(self) -> u64 {
        match self {
            BuildingKind::Mine => 60,
            BuildingKind::Barracks => 70,
            BuildingKind::Post => 45,
        }
    }

    /// Turns it takes, the turn of the order included; the robot is locked
    /// for all of them.
    pub fn turns(self) -> u32 {
        match self {
            BuildingKind::Mine => 1,
            BuildingKind::Barracks => 3,
            BuildingKind::Post => 2,
        }
    }
}

/// A building on a cell; it belongs to the cell's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Building {
    pub kind: BuildingKind,
    /// Finished (a building under construction does nothing yet).
    pub ready: bool,
}

/// A weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weapon {
    Bomb,
    Missile,
    Mirv,
    Hbomb,
}

/// A weapon's line of the rule book's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeaponSpec {
    pub cost: u64,
    /// Farthest target, in steps (Manhattan distance) from the robot.
    pub range: u32,
    /// The blast round each target: a square of side `2 × blast + 1`.
    pub blast: u32,
    pub damage: u64,
    /// Turns from one shot to the next.
    pub cooldown: u32,
    /// Most targets of one shot.
    pub targets: usize,
}

impl Weapon {
    pub const ALL: [Weapon; 4] = [Weapon::Bomb, Weapon::Missile, Weapon::Mirv, Weapon::Hbomb];

    /// Its word in answers (`BOMB`).
    pub fn word(self) -> &'static str {
        match self {
            Weapon::Bomb => "BOMB",
            Weapon::Missile => "MISSILE",
            Weapon::Mirv => "MIRV",
            Weapon::Hbomb => "HBOMB",
        }
    }

    /// Its name in the state (`bomb`).
    pub fn name(self) -> &'static str {
        match self {
            Weapon::Bomb => "bomb",
            Weapon::Missile => "missile",
            Weapon::Mirv => "mirv",
            Weapon::Hbomb => "hbomb",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The rule book's table.
    pub fn spec(self) -> WeaponSpec {
        let (cost, range, blast, damage, cooldown, targets) = match self {
            Weapon::Bomb => (35, 3, 1, 100, 5, 1),
            Weapon::Missile => (120, 10, 1, 220, 12, 1),
            Weapon::Mirv => (300, 14, 1, 180, 25, 3),
            Weapon::Hbomb => (500, 12, 2, 250, 30, 1),
        };
        WeaponSpec {
            cost,
            range,
            blast,
            damage,
            cooldown,
            targets,
        }
    }
}

/// What a robot is busy with. A busy robot may only `WAIT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    Idle,
    /// Claiming the neutral cell it stands on; it is the team's at the end
    /// of turn `done_on`. `from` is the cell it stepped from.
    Claiming {
        from: usize,
        done_on: u32,
    },
    /// Attacking the enemy cell it stands on (see the battle there).
    Fighting {
        from: usize,
    },
    /// Laying siege, from where it stands, to the capital `target`.
    Sieging {
        target: usize,
    },
    /// Building on the cell it stands on, finished at the end of turn `done_on`.
    Building {
        kind: BuildingKind,
        done_on: u32,
    },
    /// Moving the capital to the cell it stands on at the end of turn `done_on`.
    Relocating {
        done_on: u32,
    },
}

impl Task {
    /// Its name in the state; `None` when idle.
    pub fn name(&self) -> Option<&'static str> {
        Some(match self {
            Task::Idle => return None,
            Task::Claiming { .. } => "claiming",
            Task::Fighting { .. } => "fighting",
            Task::Sieging { .. } => "sieging",
            Task::Building { .. } => "building",
            Task::Relocating { .. } => "relocating",
        })
    }
}

/// Why a team went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutCause {
    /// Its capital was taken by that team.
    CapitalTaken { by: Seat },
    /// Its robot was cut off from the capital.
    CutOff,
    /// Its robot lost a battle and could not walk back.
    NoRetreat,
    /// It sent nothing 5 turns running.
    Silent,
}

impl OutCause {
    pub fn describe(&self) -> String {
        match self {
            OutCause::CapitalTaken { by } => format!("its capital was taken by team {by}"),
            OutCause::CutOff => "its robot was cut off from the capital".into(),
            OutCause::NoRetreat => "its robot lost a battle and could not walk back".into(),
            OutCause::Silent => format!("it sent nothing {SILENT_TURNS_OUT} turns running"),
        }
    }
}

/// One team: its robot, army, gold and clocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub capital: usize,
    /// Where its robot stands.
    pub position: usize,
    pub task: Task,
    /// Soldiers travelling with the robot.
    pub attack: u64,
    /// Free defense (soldiers sent to battles are in the battles).
    pub defense: u64,
    pub reserve: u64,
    pub gold: u64,
    /// Fractions of a soldier and of a gold piece earned and not yet paid,
    /// in hundredths.
    pub soldier_cents: u64,
    pub gold_cents: u64,
    pub points: u64,
    /// Per weapon ([`Weapon::index`]): turns before it may fire again.
    pub cooldown: [u32; 4],
    /// Turns before it may `RELOCATE` again.
    pub relocate_cooldown: u32,
    /// Turns in a row it answered nothing.
    pub silent: u32,
    /// The turn (counted from 1) it went out, and why.
    pub out: Option<(u32, OutCause)>,
}

impl Team {
    fn new(capital: usize) -> Self {
        Team {
            capital,
            position: capital,
            task: Task::Idle,
            attack: START_ATTACK,
            defense: START_DEFENSE,
            reserve: START_RESERVE,
            gold: START_GOLD,
            soldier_cents: 0,
            gold_cents: 0,
            points: 0,
            cooldown: [0; 4],
            relocate_cooldown: 0,
            silent: 0,
            out: None,
        }
    }

    pub fn alive(&self) -> bool {
        self.out.is_none()
    }

    pub fn busy(&self) -> bool {
        self.task != Task::Idle
    }
}

/// A battle over an enemy cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Battle {
    /// The cell fought over.
    pub cell: usize,
    pub attacker: Seat,
    pub defender: Seat,
    /// Where the attacker stepped from (for a siege: where it stands).
    pub from: usize,
    /// The attacker lays siege from next door instead of walking in.
    pub siege: bool,
    /// The turn it started; it is decided at the end of the next.
    pub started: u32,
    /// Defense soldiers the defender sent.
    pub defense: u64,
    /// Reserve soldiers that joined in its second turn.
    pub reserve: u64,
}

impl Battle {
    /// The turn it is decided.
    pub fn ends_on(&self) -> u32 {
        self.started + BATTLE_TURNS - 1
    }
}

/// A game of conquest.
#[derive(Debug, Clone)]
pub struct Conquest {
    setup: Setup,
    seed: u64,
    board: Board,
    wall: Vec<bool>,
    /// Each cell's quarter (the seat whose quarter it is).
    region: Vec<Seat>,
    turn: u32,
    owner: Vec<Option<Seat>>,
    building: Vec<Option<Building>>,
    /// Soldiers parked on each cell (they belong to its owner).
    garrison: Vec<u64>,
    /// Cells that were a capital once and no longer are.
    former_capital: Vec<bool>,
    teams: [Team; PLAYERS],
    battles: Vec<Battle>,
    /// What each team last saw of each cell.
    memory: [Vec<Option<Sighting>>; PLAYERS],
    /// Turns in a row with nothing happening.
    quiet: u32,
    /// Something happened in the turn being resolved.
    happened: bool,
    /// The weapons fired in the last turn (for spectators).
    strikes: Vec<Strike>,
    /// The state's `rules`, written once.
    rules_text: String,
}

impl Conquest {
    /// Sets up a game from its config (see [`Setup::from_config`]).
    pub fn from_config(config: &Value, seed: u64, players: usize) -> Result<Self, EngineError> {
        crate::game_info::check_players(&INFO, players)?;
        let setup = Setup::from_config(config, seed)?;
        Ok(Self::new(setup, seed))
    }

    /// The starting position of `setup`: each team's capital and robot on
    /// its starting cell, which it owns; every other cell neutral. `seed`
    /// draws which buildings fall to weapons.
    pub fn new(setup: Setup, seed: u64) -> Self {
        let board = setup.board();
        let mut wall = vec![false; board.len()];
        for &w in &setup.walls {
            wall[w] = true;
        }
        let region = (0..board.len()).map(|c| quarter_of(board, c)).collect();
        let mut owner = vec![None; board.len()];
        let teams = std::array::from_fn(|seat| {
            let capital = setup.start_capital(seat);
            owner[capital] = Some(seat);
            Team::new(capital)
        });
        let mut game = Conquest {
            seed,
            board,
            wall,
            region,
            turn: 0,
            owner,
            building: vec![None; board.len()],
            garrison: vec![0; board.len()],
            former_capital: vec![false; board.len()],
            teams,
            battles: Vec::new(),
            memory: std::array::from_fn(|_| vec![None; board.len()]),
            quiet: 0,
            happened: false,
            strikes: Vec::new(),
            rules_text: observation::rules_json(setup.max_turns, setup.quiet_turns),
            setup,
        };
        game.refresh_memory();
        game
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn setup_config(&self) -> &Setup {
        &self.setup
    }

    /// The match seed the game was built with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn is_wall(&self, cell: usize) -> bool {
        self.wall[cell]
    }

    pub fn region(&self, cell: usize) -> Seat {
        self.region[cell]
    }

    pub fn owner(&self) -> &[Option<Seat>] {
        &self.owner
    }

    pub fn owner_at(&self, x: usize, y: usize) -> Option<Seat> {
        self.owner[self.board.index(x, y)]
    }

    pub fn team(&self, seat: Seat) -> &Team {
        &self.teams[seat]
    }

    pub fn building_at(&self, cell: usize) -> Option<Building> {
        self.building[cell]
    }

    pub fn garrison_at(&self, cell: usize) -> u64 {
        self.garrison[cell]
    }

    pub fn is_former_capital(&self, cell: usize) -> bool {
        self.former_capital[cell]
    }

    pub fn battles(&self) -> &[Battle] {
        &self.battles
    }

    /// The weapons fired in the last turn.
    pub fn strikes(&self) -> &[Strike] {
        &self.strikes
    }

    /// Turns in a row with nothing happening so far.
    pub fn quiet_turns(&self) -> u32 {
        self.quiet
    }

    /// Cells `seat` owns.
    pub fn cell_count(&self, seat: Seat) -> usize {
        self.owner.iter().filter(|o| **o == Some(seat)).count()
    }

    /// Turns before play begins: 1 in the choose mode (the setup turn), else 0.
    pub fn setup_turns(&self) -> u32 {
        u32::from(self.setup.capitals == CapitalMode::Choose)
    }

    /// Whether this is the setup turn (the choose mode's turn 0).
    pub fn in_setup(&self) -> bool {
        self.turn < self.setup_turns()
    }

    /// Play turns resolved so far.
    pub fn play_turns(&self) -> u32 {
        self.turn.saturating_sub(self.setup_turns())
    }

    /// Play turns still to come.
    pub fn turns_remaining(&self) -> u32 {
        self.setup.max_turns.saturating_sub(self.play_turns())
    }

    /// Whether `cell` is the capital of a team still in the game.
    pub fn is_capital(&self, cell: usize) -> bool {
        self.capital_of(cell).is_some()
    }

    /// The team whose capital `cell` is, if any.
    pub fn capital_of(&self, cell: usize) -> Option<Seat> {
        (0..PLAYERS).find(|&s| self.teams[s].alive() && self.teams[s].capital == cell)
    }

    /// The team whose robot stands on `cell`, if any.
    pub fn robot_at(&self, cell: usize) -> Option<Seat> {
        (0..PLAYERS).find(|&s| self.teams[s].alive() && self.teams[s].position == cell)
    }

    /// The battle fought over `cell`, if any.
    pub fn battle_at(&self, cell: usize) -> Option<&Battle> {
        self.battles.iter().find(|b| b.cell == cell)
    }

    /// For tests and tools: the owners, to edit directly, bypassing the rules.
    pub fn owner_mut(&mut self) -> &mut [Option<Seat>] {
        &mut self.owner
    }

    /// For tests and tools: a team, to edit directly, bypassing the rules.
    pub fn team_mut(&mut self, seat: Seat) -> &mut Team {
        &mut self.teams[seat]
    }

    /// For tests and tools: the buildings, to edit directly.
    pub fn building_mut(&mut self) -> &mut [Option<Building>] {
        &mut self.building
    }

    /// For tests and tools: the garrisons, to edit directly.
    pub fn garrison_mut(&mut self) -> &mut [u64] {
        &mut self.garrison
    }

    /// For tests and tools: the battles, to edit directly.
    pub fn battles_mut(&mut self) -> &mut Vec<Battle> {
        &mut self.battles
    }

    /// For tests and tools: the former capitals, to edit directly.
    pub fn former_capital_mut(&mut self) -> &mut [bool] {
        &mut self.former_capital
    }

    fn alive_count(&self) -> usize {
        self.teams.iter().filter(|t| t.alive()).count()
    }

    fn is_over(&self) -> bool {
        self.alive_count() <= 1
            || self.play_turns() >= self.setup.max_turns
            || self.quiet >= self.setup.quiet_turns
    }
}

impl Game for Conquest {
    fn id(&self) -> &'static str {
        INFO.id
    }

    fn rules_version(&self) -> u32 {
        INFO.rules_version
    }

    fn players(&self) -> usize {
        PLAYERS
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn setup(&self) -> Value {
        self.setup.to_json()
    }

    fn observation(&self, seat: Seat, out: &mut String) {
        self.write_observation(seat, out);
    }

    fn spectator(&self, out: &mut String) -> bool {
        self.write_spectator(out);
        true
    }

    /// One turn in the rule book's order. Stepping a finished game does nothing.
    fn step(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        if self.is_over() {
            return Vec::new();
        }
        self.happened = false;
        self.strikes.clear();
        let (acts, rejections) = self.read_orders(answers);
        if self.in_setup() {
            self.choose_capitals(&acts);
        } else {
            self.time_out_silent_teams();
            self.allocate_and_garrison(&acts);
            self.start_works(&acts);
            self.fire_weapons(&acts);
            self.move_robots(&acts);
            self.send_defenders();
            self.decide_battles();
            self.cut_off_robots();
            self.finish_works();
            self.collect_income();
            self.score_points();
            self.count_quiet_turn();
        }
        self.end_turn();
        rejections
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(self.final_outcome())
    }

    fn state_hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"ludus/conquest/state/v1\0");
        h.update(self.setup.to_json().to_string().as_bytes());
        h.update(self.seed.to_le_bytes());
        h.update(self.turn.to_le_bytes());
        h.update(self.quiet.to_le_bytes());
        grid::hash_owners(&mut h, &self.owner);
        for c in 0..self.board.len() {
            match self.building[c] {
                None => h.update([0xff]),
                Some(b) => h.update([b.kind as u8, u8::from(b.ready)]),
            }
            h.update(self.garrison[c].to_le_bytes());
            h.update([u8::from(self.former_capital[c])]);
        }
        for t in &self.teams {
            hash_team(&mut h, t);
        }
        h.update((self.battles.len() as u64).to_le_bytes());
        for b in &self.battles {
            for v in [
                b.cell as u64,
                b.attacker as u64,
                b.defender as u64,
                b.from as u64,
            ] {
                h.update(v.to_le_bytes());
            }
            h.update([u8::from(b.siege)]);
            h.update(b.started.to_le_bytes());
            h.update(b.defense.to_le_bytes());
            h.update(b.reserve.to_le_bytes());
        }
        for memory in &self.memory {
            for m in memory {
                fog::hash_sighting(&mut h, m);
            }
        }
        h.update((self.strikes.len() as u64).to_le_bytes());
        for s in &self.strikes {
            weapons::hash_strike(&mut h, s);
        }
        h.finalize().into()
    }

    /// Per seat: points so far.
    fn scores(&self) -> Vec<f64> {
        self.teams.iter().map(|t| t.points as f64).collect()
    }
}

fn hash_team(h: &mut Sha256, t: &Team) {
    for v in [
        t.capital as u64,
        t.position as u64,
        t.attack,
        t.defense,
        t.reserve,
        t.gold,
        t.soldier_cents,
        t.gold_cents,
        t.points,
    ] {
        h.update(v.to_le_bytes());
    }
    let task: [u64; 4] = match t.task {
        Task::Idle => [0, 0, 0, 0],
        Task::Claiming { from, done_on } => [1, from as u64, u64::from(done_on), 0],
        Task::Fighting { from } => [2, from as u64, 0, 0],
        Task::Sieging { target } => [3, target as u64, 0, 0],
        Task::Building { kind, done_on } => [4, kind as u64, u64::from(done_on), 0],
        Task::Relocating { done_on } => [5, u64::from(done_on), 0, 0],
    };
    for v in task {
        h.update(v.to_le_bytes());
    }
    for c in t.cooldown {
        h.update(c.to_le_bytes());
    }
    h.update(t.relocate_cooldown.to_le_bytes());
    h.update(t.silent.to_le_bytes());
    match t.out {
        None => h.update([0xff]),
        Some((turn, cause)) => {
            h.update(turn.to_le_bytes());
            let (k, by) = match cause {
                OutCause::CapitalTaken { by } => (0u8, by as u8),
                OutCause::CutOff => (1, 0),
                OutCause::NoRetreat => (2, 0),
                OutCause::Silent => (3, 0),
            };
            h.update([k, by]);
        }
    }
}
