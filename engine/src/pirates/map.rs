//! The map: islands (some holding a shop or a flag), vortices, the NPCs'
//! ring; its JSON form (the setup a replay stores), its validation, and the
//! generator that makes a fair map from the match seed.
//!
//! A generated map is unchanged by the three symmetries that map the four
//! starting fields onto each other (the mirrors across the vertical and the
//! horizontal line through the centre, and half a turn), so every seat has
//! the same sea round it. The generator works on whole orbits of those
//! symmetries, so it cannot break that.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use super::hex::{self, Hex, FIELDS};

/// Where each seat's ship starts: the rule book's (-7, -7, 14), (14, -7, -7),
/// (7, 7, -14) and (-14, 7, 7).
pub const STARTS: [Hex; 4] = [
    Hex::new(-7, -7),
    Hex::new(14, -7),
    Hex::new(7, 7),
    Hex::new(-14, 7),
];

/// The NPCs' ring radius on generated maps.
pub const NPC_RING: u32 = 6;

/// How hard a generated map is, as the rule book's competition rounds were:
/// more islands to sail round and more vortices to be caught in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Difficulty {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
        }
    }

    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Fields the generator makes islands (besides shops and flag islands),
    /// and vortices, in thousandths of the sea.
    fn densities(self) -> (usize, usize) {
        match self {
            Difficulty::Easy => (50, 20),
            Difficulty::Normal => (100, 45),
            Difficulty::Hard => (160, 80),
        }
    }

    /// Orbits of flag islands besides the centre.
    fn flag_orbits(self) -> usize {
        match self {
            Difficulty::Easy => 2,
            Difficulty::Normal | Difficulty::Hard => 3,
        }
    }
}

/// What is on a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terrain {
    Water,
    Vortex,
    Island,
    /// An island with the shop: ships next to it buy.
    Shop,
    /// An island the flag may stand on.
    FlagIsland,
}

impl Terrain {
    /// Whether a ship may sail onto it.
    pub fn passable(self) -> bool {
        matches!(self, Terrain::Water | Terrain::Vortex)
    }
}

/// A map. Every island is in `islands`; `shops` and `flag_islands` say
/// which of them hold a shop or may hold the flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    pub islands: Vec<Hex>,
    pub shops: Vec<Hex>,
    pub flag_islands: Vec<Hex>,
    pub vortices: Vec<Hex>,
    /// The island the flag stands on at the start.
    pub flag: Hex,
    /// The NPCs circle this many fields from the centre (even: they start
    /// on the vertical line through the centre).
    pub npc_ring: u32,
}

/// The map as JSON: every field as `[q, r, s]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapJson {
    islands: Vec<[i64; 3]>,
    shops: Vec<[i64; 3]>,
    flag_islands: Vec<[i64; 3]>,
    vortices: Vec<[i64; 3]>,
    flag: [i64; 3],
    npc_ring: u64,
}

impl Map {
    /// The terrain of every field, by field number.
    pub fn terrain(&self) -> Vec<Terrain> {
        let mut t = vec![Terrain::Water; FIELDS];
        for h in &self.vortices {
            t[h.index()] = Terrain::Vortex;
        }
        for h in &self.islands {
            t[h.index()] = Terrain::Island;
        }
        for h in &self.shops {
            t[h.index()] = Terrain::Shop;
        }
        for h in &self.flag_islands {
            t[h.index()] = Terrain::FlagIsland;
        }
        t
    }

    /// Where the NPCs start: the top and the bottom of their ring, on the
    /// vertical line through the centre (half a turn apart).
    pub fn npc_starts(&self) -> [Hex; 2] {
        let k = self.npc_ring as i32;
        let top = Hex::new(k / 2, -k);
        [top, top.half_turn()]
    }

    /// The map as the JSON a config's `map` takes.
    pub fn to_json(&self) -> serde_json::Value {
        let list = |v: &[Hex]| v.iter().map(|h| h.cube().map(i64::from)).collect();
        serde_json::to_value(MapJson {
            islands: list(&self.islands),
            shops: list(&self.shops),
            flag_islands: list(&self.flag_islands),
            vortices: list(&self.vortices),
            flag: self.flag.cube().map(i64::from),
            npc_ring: u64::from(self.npc_ring),
        })
        .expect("a map serialises")
    }

    /// Reads and validates a map from its JSON.
    pub fn from_json(v: &serde_json::Value) -> Result<Map, String> {
        let raw = MapJson::deserialize(v).map_err(|e| {
            format!(
                "{e}; a map is {{\"islands\", \"shops\", \"flag_islands\", \"vortices\": \
                 [[q, r, s], ...], \"flag\": [q, r, s], \"npc_ring\": <even number>}}"
            )
        })?;
        let field = |what: &str, c: [i64; 3]| -> Result<Hex, String> {
            Hex::from_cube(c[0], c[1], c[2])
                .filter(|h| h.on_sea())
                .ok_or_else(|| {
                    format!(
                        "{what} [{}, {}, {}] is not a field of the sea (q + r + s must be 0, \
                         each within -14 to 14)",
                        c[0], c[1], c[2]
                    )
                })
        };
        let list = |what: &str, v: &[[i64; 3]]| -> Result<Vec<Hex>, String> {
            let mut out = v
                .iter()
                .map(|&c| field(what, c))
                .collect::<Result<Vec<_>, _>>()?;
            out.sort_by_key(|h| h.index());
            if let Some(w) = out.windows(2).find(|w| w[0] == w[1]) {
                return Err(format!("{what} {} is listed twice", w[0]));
            }
            Ok(out)
        };
        let map = Map {
            islands: list("island", &raw.islands)?,
            shops: list("shop", &raw.shops)?,
            flag_islands: list("flag island", &raw.flag_islands)?,
            vortices: list("vortex", &raw.vortices)?,
            flag: field("the flag", raw.flag)?,
            npc_ring: u32::try_from(raw.npc_ring).unwrap_or(u32::MAX),
        };
        map.validate()?;
        Ok(map)
    }

    /// Checks that the game can be played on the map: shops and flag islands
    /// are islands, vortices are not, the flag stands on a flag island (of
    /// which there are two or more, so it can move on), the starts and the
    /// NPCs' ring are open water.
    pub fn validate(&self) -> Result<(), String> {
        let island = |h: &Hex| {
            self.islands
                .binary_search_by_key(&h.index(), |i| i.index())
                .is_ok()
        };
        if let Some(s) = self.shops.iter().find(|h| !island(h)) {
            return Err(format!("the shop {s} is not in `islands`"));
        }
        if let Some(f) = self.flag_islands.iter().find(|h| !island(h)) {
            return Err(format!("the flag island {f} is not in `islands`"));
        }
        if let Some(s) = self.shops.iter().find(|h| self.flag_islands.contains(h)) {
            return Err(format!("{s} is both a shop and a flag island"));
        }
        if let Some(v) = self.vortices.iter().find(|h| island(h)) {
            return Err(format!("the vortex {v} is on an island"));
        }
        if self.flag_islands.len() < 2 {
            return Err(
                "there must be at least two flag islands, so that a taken flag \
                        can appear somewhere else"
                    .into(),
            );
        }
        if !self.flag_islands.contains(&self.flag) {
            return Err(format!("the flag {} is not on a flag island", self.flag));
        }
        if !self.npc_ring.is_multiple_of(2) || !(2..=12).contains(&self.npc_ring) {
            return Err(format!(
                "`npc_ring` is {}; it must be an even number from 2 to 12",
                self.npc_ring
            ));
        }
        let terrain = self.terrain();
        for (seat, s) in STARTS.iter().enumerate() {
            if terrain[s.index()] != Terrain::Water {
                return Err(format!(
                    "player {}'s start {s} must be open water, without a vortex",
                    seat + 1
                ));
            }
        }
        let reach = STARTS.iter().fold(vec![false; FIELDS], |mut acc, &s| {
            let from = flood(s, |h| terrain[h.index()].passable());
            acc.iter_mut().zip(from).for_each(|(a, f)| *a |= f);
            acc
        });
        if let Some(f) = self
            .flag_islands
            .iter()
            .find(|f| !f.neighbours().any(|n| reach[n.index()]))
        {
            return Err(format!(
                "no ship can reach the flag island {f}: it needs water next to it that a start \
                 is joined to"
            ));
        }
        for h in hex::ring(self.npc_ring as i32) {
            if terrain[h.index()] != Terrain::Water || STARTS.contains(&h) {
                return Err(format!(
                    "the NPCs' ring (radius {}) must be open water without a vortex or a \
                     start; {h} is not",
                    self.npc_ring
                ));
            }
        }
        Ok(())
    }

    /// A fair map for `seed` (see the module doc).
    pub fn generate(seed: u64, difficulty: Difficulty) -> Map {
        let mut rng = crate::rng::stream(seed, "pirates/map");
        // A few tries at random islands that leave the sea in one piece;
        // should all fail, a map without them always is.
        for _ in 0..20 {
            if let Some(map) = Generator::new(&mut rng, difficulty).run(true) {
                return map;
            }
        }
        Generator::new(&mut rng, difficulty)
            .run(false)
            .expect("a map without random islands is connected")
    }
}

/// One attempt at a generated map.
struct Generator<'a> {
    rng: &'a mut ChaCha8Rng,
    difficulty: Difficulty,
    terrain: Vec<Terrain>,
    /// Fields that must stay open water: starts and their neighbours, the
    /// NPCs' ring, the fields round the shops and the centre.
    keep_open: Vec<bool>,
}

impl<'a> Generator<'a> {
    fn new(rng: &'a mut ChaCha8Rng, difficulty: Difficulty) -> Self {
        Generator {
            rng,
            difficulty,
            terrain: vec![Terrain::Water; FIELDS],
            keep_open: vec![false; FIELDS],
        }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }

    /// Sets the whole orbit of `h` to `t`.
    fn set_orbit(&mut self, h: Hex, t: Terrain) {
        for g in h.images() {
            self.terrain[g.index()] = t;
        }
    }

    fn keep_open_round(&mut self, h: Hex, radius: u32) {
        for g in hex::all().iter().filter(|g| g.distance(h) <= radius) {
            self.keep_open[g.index()] = true;
        }
    }

    fn run(mut self, random_islands: bool) -> Option<Map> {
        // The shops: two islands on the horizontal line through the centre,
        // each shared by the two seats on its side.
        let shop = Hex::new(-(9 + self.below(3) as i32), 0);
        self.set_orbit(Hex::CENTRE, Terrain::FlagIsland);
        self.set_orbit(shop, Terrain::Shop);
        for s in STARTS {
            self.keep_open_round(s, 1);
        }
        self.keep_open_round(Hex::CENTRE, 1);
        self.keep_open_round(shop, 1);
        self.keep_open_round(shop.half_turn(), 1);
        for h in hex::ring(NPC_RING as i32) {
            self.keep_open[h.index()] = true;
        }
        let (island_density, vortex_density) = self.difficulty.densities();
        if random_islands {
            self.scatter_islands(FIELDS * island_density / 1000);
        }
        let reach = self.reachable();
        if !self.connected(&reach) {
            return None;
        }
        // Water nobody can reach is land.
        for (i, t) in self.terrain.iter_mut().enumerate() {
            if t.passable() && !reach[i] {
                *t = Terrain::Island;
            }
        }
        self.place_flag_islands(self.difficulty.flag_orbits());
        self.scatter_vortices(FIELDS * vortex_density / 1000);
        Some(self.into_map())
    }

    /// Islands in clusters: a new one is next to an island already placed
    /// more often than not.
    fn scatter_islands(&mut self, target: usize) {
        let mut placed: Vec<Hex> = Vec::new();
        let mut tries = 0;
        while placed.len() < target && tries < 20 * target {
            tries += 1;
            let h = if !placed.is_empty() && self.below(10) < 6 {
                let from = placed[self.below(placed.len())];
                from.step(hex::Dir::ALL[self.below(6)])
            } else {
                hex::all()[self.below(FIELDS)]
            };
            if !h.on_sea() || !self.free(h) {
                continue;
            }
            self.set_orbit(h, Terrain::Island);
            placed.extend(orbit(h));
        }
    }

    /// Whether the orbit of `h` is open water that may change.
    fn free(&self, h: Hex) -> bool {
        h.images()
            .iter()
            .all(|g| self.terrain[g.index()] == Terrain::Water && !self.keep_open[g.index()])
    }

    /// Water (and vortices) joined to player 1's start.
    fn reachable(&self) -> Vec<bool> {
        flood(STARTS[0], |h| self.terrain[h.index()].passable())
    }

    /// Whether every start, the whole ring, and a field next to the centre
    /// and to each shop can be reached.
    fn connected(&self, reach: &[bool]) -> bool {
        let near = |h: Hex| h.neighbours().any(|n| reach[n.index()]);
        STARTS.iter().all(|s| reach[s.index()])
            && hex::ring(NPC_RING as i32).iter().all(|h| reach[h.index()])
            && near(Hex::CENTRE)
            && hex::all()
                .iter()
                .filter(|h| self.terrain[h.index()] == Terrain::Shop)
                .all(|&s| near(s))
    }

    /// `orbits` orbits of flag islands, on the open sea (five or more fields
    /// from the centre, two or more from the rim, not next to a start),
    /// each one a field of water that becomes an island: it must leave the
    /// sea in one piece and have water next to it.
    fn place_flag_islands(&mut self, orbits: usize) {
        let mut placed = 0;
        let mut tries = 0;
        while placed < orbits && tries < 2000 {
            tries += 1;
            let h = hex::all()[self.below(FIELDS)];
            let open_sea = h.length() >= 5 && h.length() <= 12;
            if !open_sea || !self.free(h) || STARTS.iter().any(|s| s.distance(h) <= 3) {
                continue;
            }
            let before = self.terrain.clone();
            self.set_orbit(h, Terrain::FlagIsland);
            let reach = self.reachable();
            let reached = h
                .images()
                .iter()
                .all(|g| g.neighbours().any(|n| reach[n.index()]));
            let lost = (0..FIELDS).any(|i| self.terrain[i].passable() && !reach[i]);
            if reached && !lost && self.connected(&reach) {
                placed += 1;
            } else {
                self.terrain = before;
            }
        }
    }

    fn scatter_vortices(&mut self, target: usize) {
        let mut placed = 0;
        let mut tries = 0;
        while placed < target && tries < 20 * target {
            tries += 1;
            let h = hex::all()[self.below(FIELDS)];
            if self.free(h) {
                self.set_orbit(h, Terrain::Vortex);
                placed += orbit(h).len();
            }
        }
    }

    fn into_map(self) -> Map {
        let of = |t: Terrain| -> Vec<Hex> {
            hex::all()
                .iter()
                .copied()
                .filter(|h| self.terrain[h.index()] == t)
                .collect()
        };
        let islands = hex::all()
            .iter()
            .copied()
            .filter(|h| !self.terrain[h.index()].passable())
            .collect();
        Map {
            islands,
            shops: of(Terrain::Shop),
            flag_islands: of(Terrain::FlagIsland),
            vortices: of(Terrain::Vortex),
            flag: Hex::CENTRE,
            npc_ring: NPC_RING,
        }
    }
}

/// The distinct images of `h` (four, two on a mirror line, one for the centre).
fn orbit(h: Hex) -> Vec<Hex> {
    let mut out: Vec<Hex> = Vec::with_capacity(4);
    for g in h.images() {
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// Fields joined to `start` through fields where `open` holds.
pub(crate) fn flood(start: Hex, open: impl Fn(Hex) -> bool) -> Vec<bool> {
    let mut seen = vec![false; FIELDS];
    if !open(start) {
        return seen;
    }
    seen[start.index()] = true;
    let mut stack = vec![start];
    while let Some(h) = stack.pop() {
        for n in h.neighbours() {
            if !seen[n.index()] && open(n) {
                seen[n.index()] = true;
                stack.push(n);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_maps_are_valid_and_read_back_from_their_json() {
        for d in Difficulty::ALL {
            for seed in 0..20 {
                let map = Map::generate(seed, d);
                map.validate()
                    .unwrap_or_else(|e| panic!("{d:?} seed {seed}: {e}"));
                assert_eq!(Map::from_json(&map.to_json()), Ok(map.clone()));
            }
        }
    }
}
