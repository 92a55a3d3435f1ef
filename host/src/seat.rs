//! One seat of a match: a bot instance, called once per turn through ABI v1
//! (a core module) or the `ludus:bot` world (a component), with every fault
//! turned into data.

use crate::component::ComponentState;
use crate::fault::{Fault, FaultKind, FaultNote};
use crate::limits::Limits;
use crate::sandbox::{BotModule, BotPre, Sandbox};
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

/// A live instance, of either kind.
enum Live {
    Core {
        store: Store<BotState>,
        memory: Memory,
        alloc: TypedFunc<i32, i32>,
        act: TypedFunc<(i32, i32), i64>,
    },
    Component {
        store: Store<ComponentState>,
        act: wasmtime::component::Func,
    },
}

/// Runs `$body` with `$store` bound to the live instance's store, whatever its kind.
macro_rules! with_store {
    ($live:expr, $store:ident => $body:expr) => {
        match $live {
            Live::Core { $store, .. } => $body,
            Live::Component { $store, .. } => $body,
        }
    };
}

impl Live {
    /// Starts a call with `budget` fuel and the backstop armed.
    fn begin_call(&mut self, budget: u64, limits: &Limits) {
        with_store!(self, store => {
            store.data_mut().io.begin_call(budget);
            set_fuel(store, budget);
            store.set_epoch_deadline(Sandbox::backstop_ticks(limits));
        })
    }

    fn fuel_left(&self) -> u64 {
        with_store!(self, store => store.get_fuel().unwrap_or(0))
    }

    fn io(&mut self) -> &mut BotIo {
        with_store!(self, store => &mut store.data_mut().io)
    }

    fn hit_memory_cap(&self) -> bool {
        with_store!(self, store => store.data().limiter.hit_memory_cap)
    }

    /// The bot's own explanation of the fault ending this call, if it gave one.
    fn fault_note(&self) -> Option<String> {
        with_store!(self, store => FaultNote::explain(&store.data().io.fault_note))
    }

    fn into_io(self) -> BotIo {
        match self {
            Live::Core { store, .. } => store.into_data().io,
            Live::Component { store, .. } => store.into_data().io,
        }
    }
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
            Some(live) => live.begin_call(budget, &self.limits),
            None => match self.instantiate_fresh(turn, budget)? {
                Ok((live, _)) => self.live = Some(live),
                Err(fault) => return Ok(self.fault_result(fault, budget)),
            },
        }
        let live = self.live.as_mut().expect("instantiated above");
        let outcome = match live {
            Live::Core {
                store,
                memory,
                alloc,
                act,
            } => call_act(store, *memory, alloc, act, observation, &self.limits),
            Live::Component { store, act } => call_component(store, act, observation, &self.limits),
        };
        let fuel = budget.saturating_sub(live.fuel_left());
        match outcome {
            Ok(answer) => {
                let io = live.io();
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
            self.io = Some(live.into_io());
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
    /// (or a component's start-up) with `budget` fuel, which the call that
    /// follows continues to spend.
    fn instantiate_fresh(
        &mut self,
        turn: u32,
        budget: u64,
    ) -> Result<Result<(Live, u64), Fault>, HostError> {
        let mut io = self.io.take().expect("io is home when no instance is live");
        io.begin_call(budget);
        let backstop = Sandbox::backstop_ticks(&self.limits);
        let (result, used, hit_cap) = match &self.bot.pre {
            BotPre::Core {
                pre,
                has_initialize,
            } => {
                let mut store = Store::new(pre.module().engine(), BotState::new(io, &self.limits));
                store.limiter(|s| &mut s.limiter);
                set_fuel(&mut store, budget);
                store.set_epoch_deadline(backstop);
                let result = (|| {
                    let instance = pre.instantiate(&mut store)?;
                    if *has_initialize {
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
                let hit_cap = store.data().limiter.hit_memory_cap;
                match result {
                    Ok((memory, alloc, act)) => (
                        Ok(Live::Core {
                            store,
                            memory,
                            alloc,
                            act,
                        }),
                        used,
                        hit_cap,
                    ),
                    Err(e) => {
                        self.io = Some(store.into_data().io);
                        (Err(e), used, hit_cap)
                    }
                }
            }
            BotPre::Component { pre, act } => {
                let mut store = Store::new(pre.engine(), ComponentState::new(io, &self.limits));
                store.limiter(|s| &mut s.limiter);
                set_fuel(&mut store, budget);
                store.set_epoch_deadline(backstop);
                let result = pre.instantiate(&mut store).and_then(|instance| {
                    instance
                        .get_func(&mut store, *act)
                        .ok_or_else(|| wasmtime::Error::msg("no `act` export"))
                });
                let used = budget.saturating_sub(store.get_fuel().unwrap_or(0));
                let hit_cap = store.data().limiter.hit_memory_cap;
                match result {
                    Ok(act) => (Ok(Live::Component { store, act }), used, hit_cap),
                    Err(e) => {
                        self.io = Some(store.into_data().io);
                        (Err(e), used, hit_cap)
                    }
                }
            }
        };
        match result {
            Ok(live) => Ok(Ok((live, used))),
            Err(e) => {
                if let Some(pool) = e.downcast_ref::<wasmtime::PoolConcurrencyLimitError>() {
                    return Err(HostError::PoolExhausted {
                        bot: self.bot.name.clone(),
                        reason: pool.to_string(),
                    });
                }
                // Anything that is not a trap is the module failing to set up
                // (e.g. an initial memory over the cap).
                let note = self
                    .io
                    .as_ref()
                    .and_then(|io| FaultNote::explain(&io.fault_note));
                let fault = self.classify_with(e, turn, hit_cap, note, FaultKind::Instantiate)?;
                Ok(Err(Fault::new(
                    fault.kind,
                    format!("while starting the instance: {}", fault.message),
                )))
            }
        }
    }

    fn classify(&self, e: wasmtime::Error, turn: u32) -> Result<Fault, HostError> {
        let hit_cap = self.live.as_ref().is_some_and(Live::hit_memory_cap);
        let note = self.live.as_ref().and_then(Live::fault_note);
        self.classify_with(e, turn, hit_cap, note, FaultKind::Trap)
    }

    /// The fault for `e`; `note` is the bot's own explanation, which words a
    /// trap the bot ended its turn with (an uncaught Python exception, a
    /// Rust panic) better than the sandbox can.
    fn classify_with(
        &self,
        e: wasmtime::Error,
        turn: u32,
        hit_memory_cap: bool,
        note: Option<String>,
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
                    "the bot asked for more than its {} MiB of memory and then trapped ({})",
                    self.limits.memory_bytes >> 20,
                    note.unwrap_or_else(|| trap.to_string())
                ),
            ),
            Trap::UnreachableCodeReached => match note {
                Some(note) => Fault::new(FaultKind::Trap, note),
                None => Fault::new(
                    FaultKind::Trap,
                    format!("{trap} (a Rust panic or abort ends this way; see the bot's log)"),
                ),
            },
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

fn set_fuel<T>(store: &mut Store<T>, fuel: u64) {
    store
        .set_fuel(fuel)
        .expect("fuel is enabled in the engine config");
}

/// ABI v1: `ludus_alloc(len)`, write the observation, `act(ptr, len)`, read
/// `(ptr << 32) | len`, check it and copy the UTF-8 answer out.
fn call_act(
    store: &mut Store<BotState>,
    memory: Memory,
    alloc: &TypedFunc<i32, i32>,
    act: &TypedFunc<(i32, i32), i64>,
    observation: &str,
    limits: &Limits,
) -> Result<String, CallError> {
    let len = observation.len();
    let len_i32 = i32::try_from(len).map_err(|_| {
        CallError::Fault(Fault::new(
            FaultKind::BadAllocPointer,
            "observation larger than 2 GiB",
        ))
    })?;
    let ptr = alloc.call(&mut *store, len_i32)?;
    let at = ptr as u32 as usize;
    let size = memory.data_size(&*store);
    if at.checked_add(len).is_none_or(|end| end > size) {
        return Err(CallError::Fault(Fault::new(
            FaultKind::BadAllocPointer,
            format!(
                "ludus_alloc({len}) returned {at:#x}, but the bot's memory is only {size} bytes"
            ),
        )));
    }
    memory.data_mut(&mut *store)[at..at + len].copy_from_slice(observation.as_bytes());

    let packed = act.call(&mut *store, (ptr, len_i32))? as u64;
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
    let data = memory.data(&*store);
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

/// The component form: `act(state: string) -> string`, the string copied
/// in and out by the canonical ABI (which also checks the answer is UTF-8).
fn call_component(
    store: &mut Store<ComponentState>,
    act: &wasmtime::component::Func,
    observation: &str,
    limits: &Limits,
) -> Result<String, CallError> {
    let act = act.typed::<(&str,), (String,)>(&*store)?;
    let (answer,) = act.call(&mut *store, (observation,))?;
    if answer.len() as u64 > limits.answer_bytes {
        return Err(CallError::Fault(Fault::new(
            FaultKind::AnswerTooLarge,
            format!(
                "the answer is {} bytes; the limit is {} bytes",
                answer.len(),
                limits.answer_bytes
            ),
        )));
    }
    Ok(answer)
}
