//! The reference's `configuration`: its fields, their defaults, which of
//! them a Ludus config may change, and how it is written for agents.

use serde_json::Value;

use super::INFO;
use crate::kaggle::{ConfigReader, Num};
use crate::EngineError;

/// Upstream's configuration (`kore_fleets.json`), with `randomSeed` from the
/// match seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub episode_steps: u32,
    pub act_timeout: Num,
    pub run_timeout: Num,
    pub starting_kore: i64,
    pub size: usize,
    pub spawn_cost: Num,
    pub convert_cost: i64,
    pub regen_rate: Num,
    pub max_regen_cell_kore: i64,
    pub random_seed: u32,
    pub agent_timeout: Num,
}

impl Config {
    /// Upstream's defaults.
    pub fn defaults(random_seed: u32) -> Self {
        Config {
            episode_steps: 400,
            act_timeout: Num::Int(3),
            run_timeout: Num::Int(9600),
            starting_kore: 2750,
            size: 21,
            spawn_cost: Num::Float(10.0),
            convert_cost: 50,
            regen_rate: Num::Float(0.02),
            max_regen_cell_kore: 500,
            random_seed,
            agent_timeout: Num::Int(60),
        }
    }

    /// Writes the configuration as upstream's `env.configuration` reads when
    /// made with `{"randomSeed": seed}`: the seed first, then the fields in
    /// the specification's order.
    pub fn write_json(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(
            out,
            "{{\"randomSeed\":{},\"episodeSteps\":{},\"actTimeout\":",
            self.random_seed, self.episode_steps
        );
        self.act_timeout.write_json(out);
        out.push_str(",\"runTimeout\":");
        self.run_timeout.write_json(out);
        let _ = write!(
            out,
            ",\"startingKore\":{},\"size\":{},\"spawnCost\":",
            self.starting_kore, self.size
        );
        self.spawn_cost.write_json(out);
        let _ = write!(out, ",\"convertCost\":{},\"regenRate\":", self.convert_cost);
        self.regen_rate.write_json(out);
        let _ = write!(
            out,
            ",\"maxRegenCellKore\":{},\"agentTimeout\":",
            self.max_regen_cell_kore
        );
        self.agent_timeout.write_json(out);
        out.push('}');
    }
}

const READ: ConfigReader = ConfigReader { game: INFO.id };

/// What a Ludus config gives: the configuration, and optionally the board's
/// starting kore (as `setup` records it).
pub struct Parsed {
    pub config: Config,
    pub kore: Option<Vec<i64>>,
}

const FIELDS: &str = "episodeSteps, actTimeout, runTimeout, startingKore, size, spawnCost, \
                      convertCost, regenRate, maxRegenCellKore, agentTimeout, kore";

/// Reads a Ludus config: `null` or an object overriding upstream's
/// configuration fields (camelCase, as upstream names them), plus `kore`, a
/// starting board (size² whole numbers ≥ 0) that replaces the generated one.
/// `randomSeed` is the match seed and cannot be set here.
pub fn parse(config: &Value, seed: u64) -> Result<Parsed, EngineError> {
    let random_seed = u32::try_from(seed).map_err(|_| {
        READ.error(format!(
            "seed {seed} is too large: upstream's randomSeed is from 0 to 4294967295"
        ))
    })?;
    let mut c = Config::defaults(random_seed);
    let mut kore = None;
    match config {
        Value::Null => {}
        Value::Object(fields) => {
            for (key, v) in fields {
                match key.as_str() {
                    "episodeSteps" => c.episode_steps = READ.int(key, v, 1, 100_000)? as u32,
                    "actTimeout" => c.act_timeout = READ.num(key, v, 1e9)?,
                    "runTimeout" => c.run_timeout = READ.num(key, v, 1e9)?,
                    "agentTimeout" => c.agent_timeout = READ.num(key, v, 1e9)?,
                    "startingKore" => c.starting_kore = READ.int(key, v, 0, 1_000_000_000)?,
                    "size" => c.size = READ.int(key, v, 5, 100)? as usize,
                    "spawnCost" => c.spawn_cost = READ.num(key, v, 1e9)?,
                    "convertCost" => c.convert_cost = READ.int(key, v, 0, 1_000_000_000)?,
                    "regenRate" => c.regen_rate = READ.num(key, v, 1e3)?,
                    "maxRegenCellKore" => {
                        c.max_regen_cell_kore = READ.int(key, v, 0, 1_000_000_000)?
                    }
                    "kore" => {
                        let cells = v.as_array().ok_or_else(|| {
                            READ.error("`kore` must be an array of whole numbers ≥ 0")
                        })?;
                        let mut k = Vec::with_capacity(cells.len());
                        for cell in cells {
                            k.push(READ.int("kore[]", cell, 0, 1_000_000_000)?);
                        }
                        kore = Some(k);
                    }
                    "randomSeed" => {
                        return Err(
                            READ.error("`randomSeed` is the match seed; set the seed instead")
                        )
                    }
                    other => {
                        return Err(READ.error(format!(
                            "unknown field `{other}`; the config takes {FIELDS}"
                        )))
                    }
                }
            }
        }
        _ => {
            return Err(READ.error(format!(
                "the config must be null or an object with some of {FIELDS}"
            )))
        }
    }
    if let Some(k) = &kore {
        if k.len() != c.size * c.size {
            return Err(READ.error(format!(
                "`kore` has {} cells; a board of size {} has {}",
                k.len(),
                c.size,
                c.size * c.size
            )));
        }
    }
    Ok(Parsed { config: c, kore })
}
