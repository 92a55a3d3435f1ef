//! One seat of a match: a bot instance, called once per turn through ABI v1,
//! with every fault turned into data.

use crate::fault::{Fault, FaultKind};
use crate::limits::Limits;
use crate::sandbox::{BotModule, Sandbox};
use crate::wasi::{BotIo, BotState};
use std::sync::Arc;
use wasmtime::{Memory, Store, Trap, TypedFunc};

/// Something went wrong on the host's side, not the bot's: the match cannot
/// be scored.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("the wall-clock backstop ({ms} ms) stopped bot `{bot}` on turn {turn}; the match is aborted and not scored")]
    Backstop { bot: String, turn: u32, ms: u64 },
    #[error("the sandbox has no free instance slot for bot `{bot}` ({reason}); run fewer matches in parallel")]
    PoolExhausted { bot: String, reason: String },
}

/// What one call of `act` gave.
pub struct ActResult {
    /// The answer, or the fault that replaced it.
    pub answer: Result<String, Fault>,
    /// Fuel burnt by the call (including instantiation when it happened).
    pub fuel: u64,
    /// What the bot wrote to stdout/stderr during the call, within the cap.
    pub log: Vec<u8>,
    /// Log bytes dropped during the call because the cap was reached.
    pub log_dropped: u64,
}

struct Live {
    store: Store<BotState>,
    memory: Memory,
    alloc: TypedFunc<i32, i32>,
    act: TypedFunc<(i32, i32), i64>,
}

/// A bot in a seat. One instance per bot per match: its memory persists from
/// turn to turn, until a fault discards it and a fresh one is made.
pub struct SeatRunner {
    bot: Arc<BotModule>,
    limits: Limits,
    live: Option<Live>,
    /// Kept between instances: the log cap, the random stream and the clock
    /// go on across a fault.
    io: Option<BotIo>,
    /// Calls made so far (the first gets the larger budget).
    calls: u32,
}

impl SeatRunner {
    pub fn new(bot: Arc<BotModule>, limits: &Limits, io: BotIo) -> Self {
        SeatRunner {
            bot,
            limits: limits.clone(),
            live: None,
            io: Some(io),
            calls: 0,
        }
    }

    pub fn bot(&self) -> &BotModule {
        &self.bot
    }

    /// Creates the instance ahead of the first turn, under the first turn's
    /// budget (used to measure instantiation; a match instantiates lazily).
    /// Returns the fault if it could not start.
    pub fn instantiate(&mut self) -> Result<Option<Fault>, HostError> {
        if self.live.is_some() {
            return Ok(None);
        }
        match self.instantiate_fresh(0, self.limits.first_turn_fuel)? {
            Ok((live, _)) => {
                self.live = Some(live);
                Ok(None)
            }
            Err(fault) => Ok(Some(fault)),
        }
    }

    /// Calls the bot with `observation`; `turn` is only used in messages.
    /// A fresh instance (first turn, or after a fault) is made within the
    /// turn's budget: starting up counts as thinking time, so a bot that
    /// loops in its start function costs no more than one that loops in `act`.
    pub fn act(&mut self, observation: &str, turn: u32) -> Result<ActResult, HostError> {
        let budget = self.limits.turn_budget(self.calls);
        self.calls += 1;
        match self.live.as_mut() {
            Some(live) => {
                live.store.data_mut().io.begin_call(budget);
                set_fuel(&mut live.store, budget);
                live.store
                    .set_epoch_deadline(Sandbox::backstop_ticks(&self.limits));
            }
            None => match self.instantiate_fresh(turn, budget)? {
                Ok((live, _)) => self.live = Some(live),
                Err(fault) => return Ok(self.fault_result(fault, budget)),
            },
        }
        let live = self.live.as_mut().expect("instantiated above");
        let outcome = call_act(live, observation, &self.limits);
        let left = live.store.get_fuel().unwrap_or(0);
        let fuel = budget.saturating_sub(left);
        match outcome {
            Ok(answer) => {
                let io = &mut live.store.data_mut().io;
                Ok(ActResult {
                    answer: Ok(answer),
                    fuel,
                    log: std::mem::take(&mut io.log),
                    log_dropped: std::mem::take(&mut io.log_dropped),
                })
            }
            Err(CallError::Wasm(e)) => {
                let fault = self.classify(e, turn)?;
                Ok(self.fault_result(fault, fuel))
            }
            Err(CallError::Fault(fault)) => Ok(self.fault_result(fault, fuel)),
        }
    }

    /// Discards the instance (a fresh one is made next turn) and reports the fault.
    fn fault_result(&mut self, fault: Fault, fuel: u64) -> ActResult {
        if let Some(live) = self.live.take() {
            self.io = Some(live.store.into_data().io);
        }
        let io = self
            .io
            .as_mut()
            .expect("io is home when no instance is live");
        ActResult {
            answer: Err(fault),
            fuel,
            log: std::mem::take(&mut io.log),
            log_dropped: std::mem::take(&mut io.log_dropped),
        }
    }

    /// Makes a fresh instance: runs the start function and `_initialize`
    /// with `budget` fuel, which the call that follows continues to spend.
    fn instantiate_fresh(
        &mut self,
        turn: u32,
        budget: u64,
    ) -> Result<Result<(Live, u64), Fault>, HostError> {
        let mut io = self.io.take().expect("io is home when no instance is live");
        io.begin_call(budget);
        let mut store = Store::new(
            self.bot.pre.module().engine(),
            BotState::new(io, &self.limits),
        );
        store.limiter(|s| &mut s.limiter);
        set_fuel(&mut store, budget);
        store.set_epoch_deadline(Sandbox::backstop_ticks(&self.limits));

        let result = (|| {
            let instance = self.bot.pre.instantiate(&mut store)?;
            if self.bot.has_initialize {
                instance
                    .get_typed_func::<(), ()>(&mut store, "_initialize")?
                    .call(&mut store, ())?;
            }
            let memory = instance
                .get_memory(&mut store, "memory")
                .ok_or_else(|| wasmtime::Error::msg("no memory export"))?;
            let alloc = instance.get_typed_func::<i32, i32>(&mut store, "ludus_alloc")?;
            let act = instance.get_typed_func::<(i32, i32), i64>(&mut store, "act")?;
            Ok::<_, wasmtime::Error>((memory, alloc, act))
        })();
        let used = budget.saturating_sub(store.get_fuel().unwrap_or(0));
        match result {
            Ok((memory, alloc, act)) => Ok(Ok((
                Live {
                    store,
                    memory,
                    alloc,
                    act,
                },
                used,
            ))),
            Err(e) => {
                if let Some(pool) = e.downcast_ref::<wasmtime::PoolConcurrencyLimitError>() {
                    return Err(HostError::PoolExhausted {
                        bot: self.bot.name.clone(),
                        reason: pool.to_string(),
                    });
                }
                let hit_cap = store.data().limiter.hit_memory_cap;
                self.io = Some(store.into_data().io);
                // Anything that is not a trap is the module failing to set up
                // (e.g. an initial memory over the cap).
                let fault = self.classify_with(e, turn, hit_cap, FaultKind::Instantiate)?;
                Ok(Err(Fault::new(
                    fault.kind,
                    format!("while starting the instance: {}", fault.message),
                )))
            }
        }
    }

    fn classify(&self, e: wasmtime::Error, turn: u32) -> Result<Fault, HostError> {
        let hit_cap = self
            .live
            .as_ref()
            .is_some_and(|l| l.store.data().limiter.hit_memory_cap);
        self.classify_with(e, turn, hit_cap, FaultKind::Trap)
    }

    fn classify_with(
        &self,
        e: wasmtime::Error,
        turn: u32,
        hit_memory_cap: bool,
        not_a_trap: FaultKind,
    ) -> Result<Fault, HostError> {
        if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
            return Ok(Fault::new(
                FaultKind::Exit,
                format!("the bot called proc_exit({})", exit.0),
            ));
        }
        let Some(trap) = e.downcast_ref::<Trap>() else {
            let kind = if hit_memory_cap {
                FaultKind::MemoryCap
            } else {
                not_a_trap
            };
            return Ok(Fault::new(kind, format!("{e:#}")));
        };
        let fault = match trap {
            Trap::OutOfFuel => Fault::new(
                FaultKind::OutOfFuel,
                "out of fuel: the bot did not answer within its budget (an endless loop, or too much work this turn)",
            ),
            Trap::StackOverflow => Fault::new(
                FaultKind::StackOverflow,
                format!(
                    "wasm stack exhausted ({} KiB): unbounded or too deep recursion",
                    self.limits.wasm_stack_bytes / 1024
                ),
            ),
            Trap::Interrupt => {
                return Err(HostError::Backstop {
                    bot: self.bot.name.clone(),
                    turn,
                    ms: self.limits.backstop_ms,
                })
            }
            _ if hit_memory_cap => Fault::new(
                FaultKind::MemoryCap,
                format!(
                    "the bot asked for more than its {} MiB of memory and then trapped ({trap})",
                    self.limits.memory_bytes >> 20
                ),
            ),
            Trap::UnreachableCodeReached => Fault::new(
                FaultKind::Trap,
                format!("{trap} (a Rust panic or abort ends this way; see the bot's log)"),
            ),
            _ => Fault::new(FaultKind::Trap, trap.to_string()),
        };
        Ok(fault)
    }
}

enum CallError {
    Wasm(wasmtime::Error),
    Fault(Fault),
}

impl From<wasmtime::Error> for CallError {
    fn from(e: wasmtime::Error) -> Self {
        CallError::Wasm(e)
    }
}

fn set_fuel(store: &mut Store<BotState>, fuel: u64) {
    store
        .set_fuel(fuel)
        .expect("fuel is enabled in the engine config");
}

/// ABI v1: `ludus_alloc(len)`, write the observation, `act(ptr, len)`, read
/// `(ptr << 32) | len`, check it and copy the UTF-8 answer out.
fn call_act(live: &mut Live, observation: &str, limits: &Limits) -> Result<String, CallError> {
    let len = observation.len();
    let len_i32 = i32::try_from(len).map_err(|_| {
        CallError::Fault(Fault::new(
            FaultKind::BadAllocPointer,
            "observation larger than 2 GiB",
        ))
    })?;
    let ptr = live.alloc.call(&mut live.store, len_i32)?;
    let at = ptr as u32 as usize;
    let size = live.memory.data_size(&live.store);
    if at.checked_add(len).is_none_or(|end| end > size) {
        return Err(CallError::Fault(Fault::new(
            FaultKind::BadAllocPointer,
            format!(
                "ludus_alloc({len}) returned {at:#x}, but the bot's memory is only {size} bytes"
            ),
        )));
    }
    live.memory.data_mut(&mut live.store)[at..at + len].copy_from_slice(observation.as_bytes());

    let packed = live.act.call(&mut live.store, (ptr, len_i32))? as u64;
    let (aptr, alen) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
    if alen as u64 > limits.answer_bytes {
        return Err(CallError::Fault(Fault::new(
            FaultKind::AnswerTooLarge,
            format!(
                "the answer is {alen} bytes; the limit is {} bytes",
                limits.answer_bytes
            ),
        )));
    }
    let data = live.memory.data(&live.store);
    let Some(bytes) = aptr.checked_add(alen).and_then(|end| data.get(aptr..end)) else {
        return Err(CallError::Fault(Fault::new(
            FaultKind::BadAnswerPointer,
            format!(
                "act returned ptr {aptr:#x}, len {alen}, outside the bot's {} bytes of memory",
                data.len()
            ),
        )));
    };
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => Err(CallError::Fault(Fault::new(
            FaultKind::BadUtf8,
            format!("the answer is not UTF-8: {e}"),
        ))),
    }
}
