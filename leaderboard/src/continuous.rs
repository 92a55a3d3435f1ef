//! Continuous ladders, as a server keeps them: one per game, growing. A new
//! bot version first plays a placement series against opponents spread over
//! the whole field; afterwards each new match starts from the bot with the
//! fewest matches scheduled (so no bot starves) and seats it with bots of
//! close rating (so the top bots keep meeting), chosen with a random stream
//! seeded from the ladder's seed and the match's index. A game with fewer
//! bots than seats, a house bot among them, fills its tables with copies of
//! house bots ([`bots_needed`]). Every match is appended to the stored
//! schedule, with its seed, before anyone plays it, and ratings apply in
//! schedule order ([`crate::ratings::apply`]): the ladder re-runs and
//! recomputes from the database alone.
//!
//! How many matches wait follows the workers ([`Demand`]): enough for
//! every live worker thread to find its next match, and for two seconds
//! of play at the pace results arrive, so the server schedules as fast as
//! its workers, in-process or on other machines, play.
//!
//! The ladder is the game's open season ([`crate::season`]): a new season
//! takes the ladder's key, and the top-up after it seats every listed bot
//! there. A paused game schedules nothing.

use crate::error::Error;
use crate::ratings::elo::EloConfig;
use crate::ratings::System;
use crate::retention::KeepReplays;
use crate::schedule::ScheduledMatch;
use crate::store::{BotRecord, ContinuousLadder, Needs, QueueDemand, Store};
use ludus_engine::registry::GameInfo;
use ludus_engine::rng::{derive_seed, stream};
use ludus_host::Limits;
use rand_core::RngCore;
use std::collections::{BTreeMap, BTreeSet};

/// How a continuous ladder is kept going.
#[derive(Debug, Clone)]
pub struct ContinuousConfig {
    /// The first season's seed, from which every match seed and pairing
    /// derives (a later season's derives from its predecessor's).
    pub seed: u64,
    pub limits: Limits,
    /// Opponents (or tables) in a new version's placement series; each is
    /// played in every seat order.
    pub placement: usize,
    /// Scheduled matches not yet played, below which more are scheduled,
    /// at least (more when the workers play faster, see [`Demand`]).
    pub pending: u32,
    /// Bots of closest rating among which opponents are drawn.
    pub neighbours: usize,
    /// The game config of a game's first season (e.g. shorter matches), by
    /// game id; the game's defaults for the others. A season keeps the
    /// config it started with, so its matches stay comparable; the next
    /// season takes its own ([`crate::season::start`]).
    pub game_configs: BTreeMap<String, serde_json::Value>,
    /// Matches scheduled per hour for each game at most (a minute gets a
    /// sixtieth of it); `None`: as many as the workers play. A new
    /// version's placement series is scheduled regardless.
    pub max_per_hour: Option<u32>,
    /// Which replays the game's ladders store: `None` leaves a ladder's
    /// stored policy as it is (a new ladder gets the default).
    pub keep_replays: Option<KeepReplays>,
}

impl ContinuousConfig {
    /// The game config of `game`'s ladder.
    pub fn game_config(&self, game: &str) -> serde_json::Value {
        self.game_configs
            .get(game)
            .cloned()
            .unwrap_or(serde_json::Value::Null)
    }

    /// Checks [`ContinuousConfig::game_configs`] against the games and the
    /// store: each names a game and is a config the game accepts, and an
    /// open season has that config ([`Error::ConfigFixed`] tells the
    /// operator to start a season with it).
    pub fn check_game_configs(&self, store: &Store) -> Result<(), Error> {
        for (game, config) in &self.game_configs {
            let info = ludus_engine::registry::info(game)?;
            ludus_engine::new_game(game, config, 0, info.fewest_seats())?;
            if let Some(ladder) = store.ladders().continuous(game)? {
                let stored = store.ladders().get(ladder)?.config;
                if stored != *config {
                    return Err(Error::ConfigFixed {
                        ladder,
                        game: game.clone(),
                        stored,
                        wanted: config.clone(),
                    });
                }
            }
        }
        Ok(())
    }
}

impl Default for ContinuousConfig {
    fn default() -> Self {
        ContinuousConfig {
            seed: 0x4C55_4455,
            limits: Limits::default(),
            placement: 4,
            pending: 8,
            neighbours: 3,
            game_configs: BTreeMap::new(),
            max_per_hour: None,
            keep_replays: None,
        }
    }
}

/// Matches waiting per live worker thread, at least.
pub const WAITING_PER_THREAD: u32 = 4;

/// The results of this long ago on set the pace ([`Demand`]).
pub const PACE_WINDOW: std::time::Duration = std::time::Duration::from_secs(5);

/// Play waiting at the current pace, at least.
pub const WAITING_SECONDS: f64 = 2.0;

/// Matches waiting in a ladder, at most: bounds a top-up's work.
pub const MOST_WAITING: u32 = 10_000;

/// How many more routine matches a ladder's queue wants, from what the
/// queue says of itself and the operator's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Demand {
    /// Matches that should be waiting: `pending`, or four per live worker
    /// thread, or two seconds of play at the pace of the last five
    /// seconds, whichever is most.
    pub target: u32,
    /// Routine matches to schedule now.
    pub wanted: u32,
}

/// Matches that should wait in a queue found as `queue`: `pending`, or
/// [`WAITING_PER_THREAD`] per live worker thread, or [`WAITING_SECONDS`]
/// of play at the pace of the last [`PACE_WINDOW`], whichever is most
/// (at most [`MOST_WAITING`]).
pub fn waiting_target(queue: &QueueDemand, pending: u32) -> u32 {
    let pace = queue.finished_recently as f64 / PACE_WINDOW.as_secs_f64();
    pending
        .max(queue.live_threads.saturating_mul(WAITING_PER_THREAD))
        .max((pace * WAITING_SECONDS).ceil() as u32)
        .min(MOST_WAITING)
}

/// The demand of a queue found as `queue` under `config`. With a budget of
/// N matches an hour, the matches finished in the last hour and those
/// waiting stay within N, and those of the last minute and those waiting
/// within a sixtieth of N (rounded up), so a budget is spread over the
/// hour instead of spent in its first minutes.
pub fn demand(queue: &QueueDemand, config: &ContinuousConfig) -> Demand {
    let target = waiting_target(queue, config.pending);
    let mut wanted = target.saturating_sub(queue.waiting);
    if let Some(per_hour) = config.max_per_hour {
        let per_minute = per_hour.div_ceil(60);
        let hour_left = per_hour.saturating_sub(queue.finished_last_hour + queue.waiting);
        let minute_left = per_minute.saturating_sub(queue.finished_last_minute + queue.waiting);
        wanted = wanted.min(hour_left).min(minute_left);
    }
    Demand { target, wanted }
}

/// What a top-up looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The game's bots (new versions, retired ones) and its queue: when
    /// bots may have changed, and now and then.
    Bots,
    /// The queue alone: nothing is done unless it wants more matches.
    Queue,
}

/// A bot in the pool the next matches are drawn from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entrant {
    /// Its position in the ladder.
    pub position: usize,
    pub rating: f64,
    /// Matches scheduled for it so far.
    pub scheduled: u32,
    /// A house bot: it may take several seats of a table that too few bots
    /// would leave empty ([`draw`], [`placement`]).
    pub house: bool,
}

/// How many more bots a game of tables of `players` seats needs before its
/// matches start, with `bots` of them, `house` of which are house bots:
/// a table needs `players` different bots, or, with a house bot, two (the
/// house bots' copies fill the other seats).
pub fn bots_needed(players: usize, bots: usize, house: usize) -> usize {
    let least = if house > 0 { players.min(2) } else { players };
    least.saturating_sub(bots)
}

/// The bots a game's ladder draws from: the latest version of every bot of
/// the game not retired, and the names the house owns.
pub struct Field {
    pub latest: Vec<BotRecord>,
    pub house: BTreeSet<String>,
}

impl Field {
    /// How many more bots the game needs before its tables of `players`
    /// can be filled ([`bots_needed`]).
    pub fn needs(&self, players: usize) -> usize {
        bots_needed(
            players,
            self.latest.len(),
            house_count(&self.latest, &self.house),
        )
    }

    /// The matches of a new version's placement series in this field
    /// ([`placement_len`]), at tables of `players` seats, `opponents`
    /// asked.
    pub fn placement_len(&self, players: usize, opponents: usize) -> usize {
        placement_len(
            self.latest.len(),
            house_count(&self.latest, &self.house),
            players,
            opponents,
        )
    }
}

/// The field of `game` now.
pub fn field(store: &Store, game: &str) -> Result<Field, Error> {
    let retired = store.accounts().retired()?;
    let latest = store
        .bots()
        .latest(game)?
        .into_iter()
        .filter(|b| !retired.contains(&b.name))
        .collect();
    Ok(Field {
        latest,
        house: crate::house::bots(store)?,
    })
}

fn house_count(latest: &[BotRecord], house: &BTreeSet<String>) -> usize {
    latest.iter().filter(|b| house.contains(&b.name)).count()
}

/// The house bots of `pool`, in its order: which copies fill a table.
fn house_of(pool: &[Entrant]) -> Vec<usize> {
    pool.iter()
        .filter(|e| e.house)
        .map(|e| e.position)
        .collect()
}

/// Whether too few bots for a table of `players` fill it with copies of
/// house bots: fewer than `players` of them, at least two, one a house bot.
fn filled_with_copies(pool: &[Entrant], players: usize) -> bool {
    pool.len() < players && bots_needed(players, pool.len(), house_of(pool).len()) == 0
}

/// Fisher–Yates over the seats of `table` with `rng`.
fn shuffle(table: &mut [usize], rng: &mut impl RngCore) {
    for i in (1..table.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        table.swap(i, j);
    }
}

/// The placement series of `new`: tables of `players` seats against
/// opponents spread evenly over `field` (sorted by rating, best first),
/// each table in every seat rotation. With fewer bots than seats, at least
/// two and a house bot among them, every bot sits at each table and the
/// house bots' copies fill the other seats, a table for each house bot to
/// start the copies from (`opponents` tables at most).
pub fn placement(
    new: usize,
    field: &[Entrant],
    players: usize,
    opponents: usize,
) -> Vec<Vec<usize>> {
    let others: Vec<usize> = field
        .iter()
        .map(|e| e.position)
        .filter(|&p| p != new)
        .collect();
    let need = players - 1;
    let house = house_of(field);
    if others.len() < need {
        if !field.iter().any(|e| e.position == new) {
            return Vec::new();
        }
        let copies = players - 1 - others.len();
        let mut out = Vec::new();
        for t in 0..placement_tables(field.len(), house.len(), players, opponents) {
            let mut table = vec![new];
            table.extend(&others);
            table.extend((0..copies).map(|k| house[(t + k) % house.len()]));
            for rotation in 0..players {
                let mut seated = table.clone();
                seated.rotate_left(rotation);
                out.push(seated);
            }
        }
        return out;
    }
    let tables = placement_tables(others.len() + 1, house.len(), players, opponents);
    let mut out = Vec::new();
    for t in 0..tables {
        // Evenly spread starting points over the field, each with its next neighbours.
        let start = t * others.len() / tables;
        let mut table = vec![new];
        table.extend((0..need).map(|k| others[(start + k) % others.len()]));
        for rotation in 0..players {
            let mut seated = table.clone();
            seated.rotate_left(rotation);
            out.push(seated);
        }
    }
    out
}

/// The tables of a new version's placement series ([`placement`]) in a
/// field of `bots` bots, itself among them, `house` of them house bots, at
/// tables of `players` seats, `opponents` asked
/// ([`ContinuousConfig::placement`]): one a different opponent's, fewer in
/// a smaller field; with fewer bots than seats, one a house bot to start
/// the copies from, or none when the copies cannot fill a table.
fn placement_tables(bots: usize, house: usize, players: usize, opponents: usize) -> usize {
    if bots >= players {
        opponents.min(bots - 1).max(1)
    } else if bots_needed(players, bots, house) == 0 {
        opponents.min(house).max(1)
    } else {
        0
    }
}

/// The matches of a new version's placement series ([`placement`]): its
/// tables, each in every seat rotation. As long as a version has played
/// fewer rated matches than these, it plays its series.
pub fn placement_len(bots: usize, house: usize, players: usize, opponents: usize) -> usize {
    placement_tables(bots, house, players, opponents) * players
}

/// One table drawn from `pool` with the random stream of `seed`: the bot
/// with the fewest scheduled matches (ties drawn), with `players - 1` of its
/// `neighbours + players - 2` closest in rating, in a drawn seat order.
/// With fewer bots than seats, at least two and a house bot among them,
/// every bot sits and the other seats go to copies of house bots, drawn
/// from the same stream; a bot that is not the house's never takes two
/// seats.
pub fn draw(pool: &[Entrant], players: usize, neighbours: usize, seed: u64) -> Option<Vec<usize>> {
    let mut rng = stream(seed, "continuous pairing");
    if pool.len() < players {
        if !filled_with_copies(pool, players) {
            return None;
        }
        let house = house_of(pool);
        let mut table: Vec<usize> = pool.iter().map(|e| e.position).collect();
        while table.len() < players {
            table.push(house[(rng.next_u64() % house.len() as u64) as usize]);
        }
        shuffle(&mut table, &mut rng);
        return Some(table);
    }
    let fewest = pool.iter().map(|e| e.scheduled).min()?;
    let starving: Vec<&Entrant> = pool.iter().filter(|e| e.scheduled == fewest).collect();
    let first = *starving[(rng.next_u64() % starving.len() as u64) as usize];
    let mut others: Vec<&Entrant> = pool
        .iter()
        .filter(|e| e.position != first.position)
        .collect();
    // Closest rating first; position breaks ties, so the order is total.
    others.sort_by(|a, b| {
        let da = (a.rating - first.rating).abs();
        let db = (b.rating - first.rating).abs();
        da.total_cmp(&db).then(a.position.cmp(&b.position))
    });
    others.truncate((neighbours + players - 2).max(players - 1));
    let mut table = vec![first.position];
    for _ in 1..players {
        let i = (rng.next_u64() % others.len() as u64) as usize;
        table.push(others.remove(i).position);
    }
    shuffle(&mut table, &mut rng);
    Some(table)
}

/// The scheduled match at `index` seating `seats`, its seed derived from the
/// ladder's seed and the index.
pub fn scheduled(
    index: u32,
    seats: Vec<usize>,
    ladder_seed: u64,
    game: &GameInfo,
) -> ScheduledMatch {
    ScheduledMatch {
        index,
        group: index,
        seed: game.game_seed(derive_seed(ladder_seed, &format!("continuous/{index}"))),
        seats,
    }
}

/// What one top-up did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopUp {
    pub ladder: Option<i64>,
    /// Bot versions that joined the ladder (and got a placement series).
    pub joined: Vec<String>,
    /// Matches appended to the schedule.
    pub scheduled: u32,
    /// The game is paused: nothing was looked at or scheduled.
    pub paused: bool,
}

/// Keeps the continuous ladder of `game` going: creates it, adds the latest
/// version of every bot of the game that is not retired, schedules the
/// placement series of those that joined (ahead of any routine match not
/// yet scheduled, and whatever the budget), and draws routine matches as
/// the queue's [`demand`] wants. With [`Look::Queue`], only a queue that
/// wants matches is topped up, from the bots it has. A paused game
/// ([`crate::season::pause`]) is left as it is: its waiting matches are
/// played, and bots join when it resumes.
pub fn top_up(
    store: &Store,
    game: &GameInfo,
    config: &ContinuousConfig,
    look: Look,
) -> Result<TopUp, Error> {
    let budgeted = config.max_per_hour.is_some();
    // The queue as read before any bot joins: joining schedules nothing.
    let mut read = None;
    if look == Look::Queue {
        let Some(ladder) = store.ladders().continuous(game.id)? else {
            return Ok(TopUp::default());
        };
        let queue = store.queue().demand(ladder, PACE_WINDOW, budgeted)?;
        if demand(&queue, config).wanted == 0 {
            return Ok(TopUp {
                ladder: Some(ladder),
                ..TopUp::default()
            });
        }
        read = Some(queue);
    }
    // Asked only when there is something to schedule: most looks at a
    // queue end above, ten a second per game.
    if store.ladders().paused(game.id)?.is_some() {
        return Ok(TopUp {
            paused: true,
            ..TopUp::default()
        });
    }
    let Field { latest, house } = field(store, game.id)?;
    let players = game.fewest_seats();
    let mut done = TopUp::default();
    if bots_needed(players, latest.len(), house_count(&latest, &house)) > 0 {
        return Ok(done);
    }
    let limits = serde_json::to_value(&config.limits).expect("limits serialise");
    let needs = Needs::of_this_build(game.rules_version);
    let ladder = store.ladders().ensure_continuous(&ContinuousLadder {
        game: game.id,
        players: players as u32,
        seed: config.seed,
        config: &config.game_config(game.id),
        limits: &limits,
        needs: &needs,
        keep_replays: config.keep_replays.unwrap_or_default(),
    })?;
    done.ladder = Some(ladder);
    let record = store.ladders().get(ladder)?;
    if let Some(keep) = config.keep_replays.filter(|&k| k != record.keep_replays) {
        store.ladders().set_keep_replays(ladder, keep)?;
    }
    // The season's own seed: a new season's matches are not the last one's.
    let seed = record.seed;
    let before = record.bots.len();
    let mut active = Vec::new();
    for b in &latest {
        let position = store.ladders().add_bot(ladder, b)?;
        if position >= before {
            done.joined.push(format!("{} v{}", b.name, b.version));
        }
        active.push((position, house.contains(&b.name)));
    }
    // Counts kept with the schedule: no read of the whole schedule per top-up.
    let scheduled_counts = store.ladders().scheduled_counts(ladder)?;
    let ratings = store.ratings().get(ladder, System::Elo.key())?;
    let initial = EloConfig::default().initial;
    let mut pool: Vec<Entrant> = active
        .iter()
        .map(|&(position, house)| Entrant {
            position,
            rating: ratings
                .iter()
                .find(|r| r.0 == position)
                .map_or(initial, |r| r.1),
            scheduled: scheduled_counts.get(position).copied().unwrap_or(0),
            house,
        })
        .collect();
    pool.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(a.position.cmp(&b.position))
    });
    let mut next = store.ladders().schedule_len(ladder)?;
    let mut new = Vec::new();
    for &(position, _) in active.iter().filter(|&&(p, _)| p >= before) {
        for seats in placement(position, &pool, players, config.placement) {
            new.push(scheduled(next, seats, seed, game));
            next += 1;
        }
    }
    let mut queue = match read {
        Some(queue) => queue,
        None => store.queue().demand(ladder, PACE_WINDOW, budgeted)?,
    };
    // The placement series just drawn wait too, and count in the budget.
    queue.waiting += new.len() as u32;
    let routine = demand(&queue, config).wanted;
    for _ in 0..routine {
        let pick_seed = derive_seed(seed, &format!("pairing/{next}"));
        let Some(seats) = draw(&pool, players, config.neighbours, pick_seed) else {
            break;
        };
        for e in pool.iter_mut().filter(|e| seats.contains(&e.position)) {
            e.scheduled += 1;
        }
        new.push(scheduled(next, seats, seed, game));
        next += 1;
    }
    // A season closed since it was found takes nothing.
    if store.ladders().append(ladder, &new)? {
        done.scheduled = new.len() as u32;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(ratings: &[f64], scheduled: &[u32]) -> Vec<Entrant> {
        ratings
            .iter()
            .zip(scheduled)
            .enumerate()
            .map(|(position, (&rating, &scheduled))| Entrant {
                position,
                rating,
                scheduled,
                house: false,
            })
            .collect()
    }

    /// `users` bots and then `house` house bots, all at the same rating.
    fn with_house(users: usize, house: usize) -> Vec<Entrant> {
        let mut p = pool(&vec![1500.0; users + house], &vec![0; users + house]);
        for e in &mut p[users..] {
            e.house = true;
        }
        p
    }

    /// How many seats each position takes at `table`.
    fn seats_of(table: &[usize]) -> std::collections::BTreeMap<usize, usize> {
        let mut seats = std::collections::BTreeMap::new();
        for &p in table {
            *seats.entry(p).or_default() += 1;
        }
        seats
    }

    fn queue(waiting: u32, live_threads: u32, recently: u32) -> QueueDemand {
        QueueDemand {
            waiting,
            live_threads,
            finished_recently: recently,
            finished_last_minute: recently,
            finished_last_hour: recently,
        }
    }

    #[test]
    fn waiting_matches_follow_the_live_threads_and_the_pace() {
        let config = ContinuousConfig::default();
        assert_eq!(demand(&queue(0, 0, 0), &config).target, 8, "no worker");
        assert_eq!(demand(&queue(0, 8, 0), &config).target, 32);
        // 500 results in five seconds: two seconds of play is 200.
        let fast = demand(&queue(50, 2, 500), &config);
        assert_eq!((fast.target, fast.wanted), (200, 150));
        assert_eq!(demand(&queue(300, 2, 500), &config).wanted, 0);
        let flood = demand(&queue(0, 1, u32::MAX), &config);
        assert_eq!(flood.target, MOST_WAITING);
    }

    #[test]
    fn a_budget_is_spread_over_the_hour() {
        let config = ContinuousConfig {
            max_per_hour: Some(120),
            ..ContinuousConfig::default()
        };
        // Two a minute: one waiting leaves room for one more.
        assert_eq!(demand(&queue(1, 8, 0), &config).wanted, 1);
        let mut q = queue(0, 8, 0);
        q.finished_last_minute = 2;
        q.finished_last_hour = 2;
        assert_eq!(
            demand(&q, &config).wanted,
            0,
            "this minute's share is spent"
        );
        q.finished_last_minute = 0;
        q.finished_last_hour = 120;
        assert_eq!(demand(&q, &config).wanted, 0, "this hour's budget is spent");
        let unlimited = ContinuousConfig::default();
        assert_eq!(demand(&q, &unlimited).wanted, 32);
    }

    #[test]
    fn the_bot_with_fewest_matches_is_always_seated() {
        let p = pool(&[1600.0, 1500.0, 1400.0, 1300.0], &[9, 9, 2, 9]);
        for seed in 0..50 {
            assert!(draw(&p, 2, 1, seed).unwrap().contains(&2));
        }
    }

    #[test]
    fn opponents_are_the_closest_in_rating_so_the_top_bots_meet() {
        let p = pool(&[2000.0, 1990.0, 1000.0, 900.0], &[0, 5, 5, 5]);
        for seed in 0..50 {
            let mut t = draw(&p, 2, 1, seed).unwrap();
            t.sort();
            assert_eq!(t, vec![0, 1], "seed {seed}");
        }
    }

    #[test]
    fn a_draw_is_a_function_of_its_seed() {
        let p = pool(&[1500.0; 6], &[0; 6]);
        let a: Vec<_> = (0..20).map(|s| draw(&p, 2, 3, s)).collect();
        let b: Vec<_> = (0..20).map(|s| draw(&p, 2, 3, s)).collect();
        assert_eq!(a, b);
        assert!(a.iter().collect::<std::collections::BTreeSet<_>>().len() > 1);
    }

    #[test]
    fn placement_meets_the_field_in_every_seat_order() {
        let p = pool(&[1700.0, 1600.0, 1500.0, 1400.0, 1300.0], &[0; 5]);
        let series = placement(4, &p, 2, 2);
        assert_eq!(series.len(), 4);
        assert!(series.iter().all(|t| t.contains(&4)));
        assert!(series.iter().any(|t| t[0] == 4) && series.iter().any(|t| t[1] == 4));
        let opponents: std::collections::BTreeSet<_> =
            series.iter().flatten().filter(|&&b| b != 4).collect();
        assert_eq!(opponents.len(), 2, "two different opponents: {series:?}");
    }

    #[test]
    fn four_seat_tables_seat_four_different_bots_and_the_starving_one() {
        let p = pool(
            &[1800.0, 1700.0, 1600.0, 1500.0, 1400.0, 1300.0],
            &[4, 4, 4, 1, 4, 4],
        );
        for seed in 0..50 {
            let t = draw(&p, 4, 2, seed).unwrap();
            let distinct: std::collections::BTreeSet<_> = t.iter().collect();
            assert_eq!((t.len(), distinct.len()), (4, 4), "seed {seed}: {t:?}");
            assert!(t.contains(&3), "seed {seed}: {t:?}");
        }
        assert_eq!(
            draw(&p[..3], 4, 2, 0),
            None,
            "three bots cannot fill a table of four"
        );
        let series = placement(5, &p, 4, 2);
        assert_eq!(series.len(), 2 * 4, "two tables in four rotations");
        for t in &series {
            let distinct: std::collections::BTreeSet<_> = t.iter().collect();
            assert_eq!(distinct.len(), 4, "{t:?}");
        }
        for seat in 0..4 {
            assert!(
                series.iter().any(|t| t[seat] == 5),
                "the new bot in seat {seat}"
            );
        }
    }

    #[test]
    fn a_house_bot_fills_the_seats_too_few_bots_leave_empty() {
        // Two user bots and a house bot at tables of four: the house bot twice.
        let p = with_house(2, 1);
        let mut orders = std::collections::BTreeSet::new();
        for seed in 0..50 {
            let t = draw(&p, 4, 3, seed).unwrap();
            assert_eq!(seats_of(&t), [(0, 1), (1, 1), (2, 2)].into(), "seed {seed}");
            orders.insert(t);
        }
        assert!(orders.len() > 1, "the seat order is drawn: {orders:?}");
        // One user bot and a house bot: the house bot in three seats.
        let t = draw(&with_house(1, 1), 4, 3, 7).unwrap();
        assert_eq!(seats_of(&t), [(0, 1), (1, 3)].into());
        // Two house bots and a user bot: the copies are drawn among the
        // house bots; the user bot never takes two seats.
        let p = with_house(1, 2);
        let mut copied = std::collections::BTreeSet::new();
        for seed in 0..50 {
            let t = draw(&p, 4, 3, seed).unwrap();
            let seats = seats_of(&t);
            assert_eq!((t.len(), seats[&0], seats.len()), (4, 1, 3), "{t:?}");
            copied.extend(seats.iter().filter(|s| *s.1 == 2).map(|s| *s.0));
        }
        assert_eq!(copied, [1, 2].into(), "either house bot is copied");
        assert_eq!(
            draw(&p, 4, 3, 5),
            draw(&p, 4, 3, 5),
            "a function of its seed"
        );
    }

    #[test]
    fn without_a_house_bot_or_a_second_bot_no_table_is_filled() {
        assert_eq!(draw(&pool(&[1500.0; 3], &[0; 3]), 4, 3, 0), None);
        assert_eq!(draw(&with_house(0, 1), 4, 3, 0), None, "a bot alone");
        assert_eq!(
            placement(0, &with_house(0, 1), 4, 4),
            Vec::<Vec<usize>>::new()
        );
        assert!(placement(0, &pool(&[1500.0; 3], &[0; 3]), 4, 4).is_empty());
        assert_eq!(bots_needed(4, 1, 0), 3);
        assert_eq!(bots_needed(4, 3, 0), 1);
        assert_eq!(bots_needed(4, 1, 1), 1, "a house bot needs a second bot");
        assert_eq!(bots_needed(4, 2, 1), 0);
        assert_eq!(bots_needed(2, 1, 1), 1);
        assert_eq!(bots_needed(2, 2, 0), 0);
    }

    #[test]
    fn placement_with_copies_seats_every_bot_in_every_seat() {
        // A user bot joins another and a house bot: one table, four rotations.
        let p = with_house(2, 1);
        let series = placement(1, &p, 4, 4);
        assert_eq!(series.len(), 4, "{series:?}");
        for t in &series {
            assert_eq!(seats_of(t), [(0, 1), (1, 1), (2, 2)].into(), "{t:?}");
        }
        for seat in 0..4 {
            assert!(
                series.iter().any(|t| t[seat] == 1),
                "the new bot in seat {seat}"
            );
        }
        // The house bot joins a lone user bot: it takes three seats.
        let series = placement(1, &with_house(1, 1), 4, 4);
        assert_eq!(series.len(), 4);
        assert!(series
            .iter()
            .all(|t| seats_of(t) == [(0, 1), (1, 3)].into()));
        // Two house bots: a table starting the copies from each.
        let series = placement(0, &with_house(1, 2), 4, 4);
        assert_eq!(series.len(), 2 * 4);
        let copied: std::collections::BTreeSet<usize> = series
            .iter()
            .flat_map(|t| seats_of(t).into_iter().filter(|s| s.1 == 2).map(|s| s.0))
            .collect();
        assert_eq!(copied, [1, 2].into());
        assert!(series.iter().all(|t| seats_of(t)[&0] == 1));
    }

    #[test]
    fn placement_len_is_the_length_of_the_series() {
        let fields = [
            (1, 0),
            (2, 0),
            (3, 0),
            (6, 0),
            (1, 1),
            (2, 1),
            (1, 2),
            (3, 2),
        ];
        for (users, house) in fields {
            let p = with_house(users, house);
            for players in 2..=4 {
                for opponents in [1, 2, 4] {
                    let len = placement_len(p.len(), house, players, opponents);
                    for new in &p {
                        let series = placement(new.position, &p, players, opponents);
                        assert_eq!(
                            series.len(),
                            len,
                            "{users} users, {house} house, {players} seats, {opponents} opponents"
                        );
                    }
                }
            }
        }
        // Two users and a house bot at tables of four: one table to start
        // the copies from, in four seat orders.
        assert_eq!(placement_len(3, 1, 4, 4), 4);
    }
}
