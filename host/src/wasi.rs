//! Deterministic WASI preview 1 for bots.
//!
//! `wasmtime-wasi` provides the plumbing of every preview 1 function, with an
//! empty context: no files, no preopened directories, no environment, no
//! arguments, no sockets, stdin at end of file. On top of it we replace every
//! function through which the outside world could reach a bot or a bot could
//! cost the host unmetered work:
//!
//! - `clock_time_get` / `clock_res_get`: virtual clocks. Time is derived from
//!   fuel: each call into the bot starts where the previous call's full budget
//!   ended, and advances by the fuel burnt at [`FUEL_PER_SECOND`]. A bot that
//!   watches the clock to stop thinking sees its budget run out as it would in
//!   real time, and the reading is the same on every machine.
//! - `poll_oneoff` (sleeping) and `sched_yield` never block a host thread: a
//!   sleep returns at once and is paid for in fuel, so it advances the virtual
//!   clock by exactly the time slept, or runs the bot out of fuel.
//! - `random_get`: a ChaCha stream seeded from (match seed, seat), capped per call.
//! - `fd_write` to stdout/stderr: the bot's log, capped; the excess is dropped
//!   and counted, and the write still reports success so the bot never fails
//!   (or panics) for logging too much. A write that starts with
//!   [`FAULT_NOTE_PREFIX`] is not logged: it is kept aside as the bot's own
//!   explanation of the fault that is about to end its turn.
//!
//! Host calls consume no fuel by themselves, so each replaced function charges
//! fuel in proportion to the work it does.

use crate::limits::FUEL_PER_SECOND;
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use wasmtime::{Caller, Extern, Linker, Memory};
use wasmtime_wasi::p1::WasiP1Ctx;

const MODULE: &str = "wasi_snapshot_preview1";

const ERRNO_SUCCESS: i32 = 0;
const ERRNO_BADF: i32 = 8;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;

/// Fuel charged for any replaced host call, on top of its per-byte cost.
pub(crate) const HOST_CALL_FUEL: u64 = 100;
/// Fuel charged per byte a host call copies.
pub(crate) const FUEL_PER_BYTE: u64 = 1;
/// Most iovecs one `fd_write` may pass, and most subscriptions one `poll_oneoff` may pass.
const MAX_IOVECS: usize = 1024;
const MAX_SUBSCRIPTIONS: usize = 256;

/// Wall-clock time of the start of every match: 2020-01-01T00:00:00Z.
pub const VIRTUAL_EPOCH_NS: u64 = 1_577_836_800 * 1_000_000_000;

/// What starts a write that explains the fault about to end the turn: the
/// Python wrappers write it for an uncaught exception, the SDK's panic hook
/// for a panic, followed by a JSON object (see [`crate::fault`]).
pub const FAULT_NOTE_PREFIX: &[u8] = b"ludus-fault: ";

/// Most bytes of a fault note kept; a longer note is cut (and then does not
/// parse, so the fault keeps the sandbox's own words).
const FAULT_NOTE_BYTES: usize = 4096;

/// The per-seat state behind the deterministic WASI functions. It outlives any
/// one instance: after a fault the fresh instance continues the same log,
/// random stream and clock.
pub struct BotIo {
    pub(crate) rng: ChaCha8Rng,
    pub(crate) random_cap: u64,
    log_cap: u64,
    log_kept: u64,
    /// What the bot wrote during the current call (cleared by the caller).
    pub log: Vec<u8>,
    /// Bytes dropped during the current call because the cap was reached.
    pub log_dropped: u64,
    /// The last fault note of the current call (without its prefix), outside
    /// the log and its cap, so that a bot that has logged its fill can
    /// still explain its fault.
    pub(crate) fault_note: Vec<u8>,
    /// Virtual nanoseconds since the match started, at the start of the current call.
    call_start_ns: u64,
    /// Fuel the current call started with.
    call_budget: u64,
}

impl BotIo {
    pub fn new(rng: ChaCha8Rng, random_cap: u64, log_cap: u64) -> Self {
        BotIo {
            rng,
            random_cap,
            log_cap,
            log_kept: 0,
            log: Vec::new(),
            log_dropped: 0,
            fault_note: Vec::new(),
            call_start_ns: 0,
            call_budget: 0,
        }
    }

    /// Starts a call with `budget` fuel: the clock continues from where the
    /// previous call's whole budget ended.
    pub fn begin_call(&mut self, budget: u64) {
        self.call_start_ns = self
            .call_start_ns
            .saturating_add(fuel_to_ns(self.call_budget));
        self.call_budget = budget;
        self.fault_note.clear();
    }

    pub(crate) fn write_log(&mut self, bytes: &[u8]) {
        if let Some(note) = bytes.strip_prefix(FAULT_NOTE_PREFIX) {
            self.fault_note.clear();
            self.fault_note
                .extend_from_slice(&note[..note.len().min(FAULT_NOTE_BYTES)]);
            return;
        }
        let room = self.log_cap.saturating_sub(self.log_kept) as usize;
        let keep = bytes.len().min(room);
        self.log.extend_from_slice(&bytes[..keep]);
        self.log_kept += keep as u64;
        self.log_dropped += (bytes.len() - keep) as u64;
    }

    /// Like [`Self::write_log`] for `len` zero bytes, without materialising them.
    pub(crate) fn write_log_zeroes(&mut self, len: u64) {
        let keep = len.min(self.log_cap.saturating_sub(self.log_kept));
        self.log.resize(self.log.len() + keep as usize, 0);
        self.log_kept += keep;
        self.log_dropped += len - keep;
    }

    pub(crate) fn now_ns(&self, fuel_left: u64) -> u64 {
        let used = self.call_budget.saturating_sub(fuel_left);
        self.call_start_ns.saturating_add(fuel_to_ns(used))
    }
}

pub(crate) fn fuel_to_ns(fuel: u64) -> u64 {
    (fuel as u128 * 1_000_000_000 / FUEL_PER_SECOND as u128).min(u64::MAX as u128) as u64
}

pub(crate) fn ns_to_fuel(ns: u64) -> u64 {
    (ns as u128 * FUEL_PER_SECOND as u128 / 1_000_000_000).min(u64::MAX as u128) as u64
}

/// Store data of a bot instance.
pub struct BotState {
    pub wasi: WasiP1Ctx,
    pub io: BotIo,
    pub limiter: crate::limiter::Limiter,
}

/// Adds WASI preview 1 to `linker`, with the deterministic replacements.
pub fn add_to_linker(linker: &mut Linker<BotState>) -> wasmtime::Result<()> {
    wasmtime_wasi::p1::add_to_linker_sync(linker, |s: &mut BotState| &mut s.wasi)?;
    linker.allow_shadowing(true);
    linker.func_wrap(MODULE, "fd_write", fd_write)?;
    linker.func_wrap(MODULE, "random_get", random_get)?;
    linker.func_wrap(MODULE, "clock_time_get", clock_time_get)?;
    linker.func_wrap(MODULE, "clock_res_get", clock_res_get)?;
    linker.func_wrap(MODULE, "poll_oneoff", poll_oneoff)?;
    linker.func_wrap(MODULE, "sched_yield", sched_yield)?;
    linker.allow_shadowing(false);
    Ok(())
}

fn memory(caller: &mut Caller<'_, BotState>) -> Option<Memory> {
    match caller.get_export("memory") {
        Some(Extern::Memory(m)) => Some(m),
        _ => None,
    }
}

/// Takes `fuel` from the running call. When it is more than is left, the bot
/// is left with none and traps at its next fuel check.
fn charge(caller: &mut Caller<'_, BotState>, fuel: u64) -> wasmtime::Result<()> {
    let left = caller.get_fuel()?;
    caller.set_fuel(left.saturating_sub(fuel))
}

fn range(ptr: i32, len: usize) -> Option<std::ops::Range<usize>> {
    let start = ptr as u32 as usize;
    Some(start..start.checked_add(len)?)
}

fn read_u32(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        data.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn read_u64(data: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        data.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

fn write_bytes(data: &mut [u8], ptr: i32, bytes: &[u8]) -> bool {
    match range(ptr, bytes.len()).and_then(|r| data.get_mut(r)) {
        Some(dst) => {
            dst.copy_from_slice(bytes);
            true
        }
        None => false,
    }
}

fn fd_write(
    mut caller: Caller<'_, BotState>,
    fd: i32,
    iovs: i32,
    iovs_len: i32,
    nwritten: i32,
) -> wasmtime::Result<i32> {
    if fd != 1 && fd != 2 {
        charge(&mut caller, HOST_CALL_FUEL)?;
        return Ok(ERRNO_BADF);
    }
    let Some(mem) = memory(&mut caller) else {
        return Ok(ERRNO_FAULT);
    };
    let count = iovs_len as u32 as usize;
    if count > MAX_IOVECS {
        charge(&mut caller, HOST_CALL_FUEL)?;
        return Ok(ERRNO_INVAL);
    }
    let (data, state) = mem.data_and_store_mut(&mut caller);
    let mut total: u64 = 0;
    for i in 0..count {
        let at = iovs as u32 as usize + i * 8;
        let (Some(ptr), Some(len)) = (read_u32(data, at), read_u32(data, at + 4)) else {
            return Ok(ERRNO_FAULT);
        };
        let Some(buf) = range(ptr as i32, len as usize).and_then(|r| data.get(r)) else {
            return Ok(ERRNO_FAULT);
        };
        state.io.write_log(buf);
        total += len as u64;
    }
    let Ok(written) = u32::try_from(total) else {
        return Ok(ERRNO_INVAL);
    };
    if !write_bytes(data, nwritten, &written.to_le_bytes()) {
        return Ok(ERRNO_FAULT);
    }
    charge(&mut caller, HOST_CALL_FUEL + total * FUEL_PER_BYTE)?;
    Ok(ERRNO_SUCCESS)
}

fn random_get(mut caller: Caller<'_, BotState>, buf: i32, len: i32) -> wasmtime::Result<i32> {
    let len = len as u32 as u64;
    charge(&mut caller, HOST_CALL_FUEL)?;
    if len > caller.data().io.random_cap {
        return Ok(ERRNO_INVAL);
    }
    let Some(mem) = memory(&mut caller) else {
        return Ok(ERRNO_FAULT);
    };
    let (data, state) = mem.data_and_store_mut(&mut caller);
    let Some(dst) = range(buf, len as usize).and_then(|r| data.get_mut(r)) else {
        return Ok(ERRNO_FAULT);
    };
    state.io.rng.fill_bytes(dst);
    charge(&mut caller, len * FUEL_PER_BYTE)?;
    Ok(ERRNO_SUCCESS)
}

/// Clock ids of preview 1: realtime, monotonic, process and thread CPU time.
fn clock_reading(io: &BotIo, id: i32, fuel_left: u64) -> Option<u64> {
    let now = io.now_ns(fuel_left);
    match id {
        0 => Some(VIRTUAL_EPOCH_NS.saturating_add(now)),
        1..=3 => Some(now),
        _ => None,
    }
}

fn clock_time_get(
    mut caller: Caller<'_, BotState>,
    id: i32,
    _precision: i64,
    out: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, HOST_CALL_FUEL)?;
    let fuel_left = caller.get_fuel()?;
    let Some(now) = clock_reading(&caller.data().io, id, fuel_left) else {
        return Ok(ERRNO_INVAL);
    };
    let Some(mem) = memory(&mut caller) else {
        return Ok(ERRNO_FAULT);
    };
    if !write_bytes(mem.data_mut(&mut caller), out, &now.to_le_bytes()) {
        return Ok(ERRNO_FAULT);
    }
    Ok(ERRNO_SUCCESS)
}

fn clock_res_get(mut caller: Caller<'_, BotState>, id: i32, out: i32) -> wasmtime::Result<i32> {
    charge(&mut caller, HOST_CALL_FUEL)?;
    if !(0..=3).contains(&id) {
        return Ok(ERRNO_INVAL);
    }
    let Some(mem) = memory(&mut caller) else {
        return Ok(ERRNO_FAULT);
    };
    if !write_bytes(mem.data_mut(&mut caller), out, &1u64.to_le_bytes()) {
        return Ok(ERRNO_FAULT);
    }
    Ok(ERRNO_SUCCESS)
}

fn sched_yield(mut caller: Caller<'_, BotState>) -> wasmtime::Result<i32> {
    charge(&mut caller, HOST_CALL_FUEL)?;
    Ok(ERRNO_SUCCESS)
}

// Layouts of preview 1's `subscription` (48 bytes) and `event` (32 bytes).
const SUBSCRIPTION_SIZE: usize = 48;
const EVENT_SIZE: usize = 32;
const EVENTTYPE_CLOCK: u8 = 0;
const SUBCLOCKFLAGS_ABSTIME: u16 = 1;

/// `poll_oneoff`: file descriptor subscriptions are answered at once (stdin
/// is closed, stdout and stderr are always writable); otherwise the earliest
/// clock subscription fires after a virtual sleep that is paid for in fuel.
fn poll_oneoff(
    mut caller: Caller<'_, BotState>,
    subs: i32,
    events: i32,
    nsubs: i32,
    nevents: i32,
) -> wasmtime::Result<i32> {
    charge(&mut caller, HOST_CALL_FUEL)?;
    let count = nsubs as u32 as usize;
    if count == 0 || count > MAX_SUBSCRIPTIONS {
        return Ok(ERRNO_INVAL);
    }
    let fuel_left = caller.get_fuel()?;
    let Some(mem) = memory(&mut caller) else {
        return Ok(ERRNO_FAULT);
    };
    let (data, state) = mem.data_and_store_mut(&mut caller);
    let now = state.io.now_ns(fuel_left);

    // (userdata, tag, fd or relative timeout)
    let mut parsed = Vec::with_capacity(count);
    for i in 0..count {
        let at = subs as u32 as usize + i * SUBSCRIPTION_SIZE;
        let Some(sub) = data.get(at..at + SUBSCRIPTION_SIZE) else {
            return Ok(ERRNO_FAULT);
        };
        let userdata = read_u64(sub, 0).unwrap_or(0);
        let tag = sub[8];
        let value = if tag == EVENTTYPE_CLOCK {
            let timeout = read_u64(sub, 24).unwrap_or(0);
            let flags = u16::from_le_bytes([sub[40], sub[41]]);
            if flags & SUBCLOCKFLAGS_ABSTIME != 0 {
                timeout.saturating_sub(now)
            } else {
                timeout
            }
        } else {
            read_u32(sub, 16).unwrap_or(u32::MAX) as u64
        };
        parsed.push((userdata, tag, value));
    }

    let fd_ready = parsed.iter().any(|&(_, tag, _)| tag != EVENTTYPE_CLOCK);
    let sleep = if fd_ready {
        0
    } else {
        parsed.iter().map(|&(_, _, t)| t).min().unwrap_or(0)
    };
    let mut written = 0u32;
    for &(userdata, tag, value) in &parsed {
        let fires = if tag == EVENTTYPE_CLOCK {
            !fd_ready && value <= sleep
        } else {
            true
        };
        if !fires {
            continue;
        }
        let mut event = [0u8; EVENT_SIZE];
        event[0..8].copy_from_slice(&userdata.to_le_bytes());
        let error: u16 = match (tag, value) {
            (EVENTTYPE_CLOCK, _) | (_, 1) | (_, 2) => 0,
            _ => ERRNO_BADF as u16,
        };
        event[8..10].copy_from_slice(&error.to_le_bytes());
        event[10] = tag;
        let at = (events as u32 as usize) + written as usize * EVENT_SIZE;
        if !write_bytes(data, at as i32, &event) {
            return Ok(ERRNO_FAULT);
        }
        written += 1;
    }
    if !write_bytes(data, nevents, &written.to_le_bytes()) {
        return Ok(ERRNO_FAULT);
    }
    // Sleeping is paid in fuel, which advances the virtual clock by the same amount.
    charge(
        &mut caller,
        ns_to_fuel(sleep) + count as u64 * FUEL_PER_BYTE * 48,
    )?;
    Ok(ERRNO_SUCCESS)
}

impl BotState {
    /// Store data for one instance: an empty WASI context (no files, no
    /// environment, no arguments, stdin closed) behind the replacements above.
    pub fn new(io: BotIo, limits: &crate::limits::Limits) -> Self {
        BotState {
            wasi: wasmtime_wasi::WasiCtxBuilder::new().build_p1(),
            io,
            limiter: crate::limiter::Limiter::new(limits),
        }
    }

    pub(crate) fn placeholder() -> Self {
        use rand_core::SeedableRng;
        Self::new(
            BotIo::new(ChaCha8Rng::from_seed([0; 32]), 0, 0),
            &crate::limits::Limits::default(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn log_keeps_up_to_the_cap_and_counts_the_rest() {
        let mut io = BotIo::new(ChaCha8Rng::seed_from_u64(0), 16, 10);
        io.write_log(b"hello ");
        io.write_log(b"world!");
        assert_eq!(io.log, b"hello worl");
        assert_eq!(io.log_dropped, 2);
    }

    #[test]
    fn a_fault_note_is_kept_aside_even_past_the_log_cap() {
        let mut io = BotIo::new(ChaCha8Rng::seed_from_u64(0), 16, 4);
        io.begin_call(10);
        io.write_log(b"full log");
        io.write_log(b"ludus-fault: {\"type\":\"panic\"}\n");
        assert_eq!(io.log, b"full");
        assert_eq!(io.log_dropped, 4);
        assert_eq!(io.fault_note, b"{\"type\":\"panic\"}\n");
        io.begin_call(10);
        assert!(io.fault_note.is_empty(), "a note explains one call only");
    }

    #[test]
    fn clock_continues_from_the_end_of_the_previous_budget() {
        let mut io = BotIo::new(ChaCha8Rng::seed_from_u64(0), 16, 10);
        io.begin_call(FUEL_PER_SECOND);
        assert_eq!(io.now_ns(FUEL_PER_SECOND), 0);
        assert_eq!(io.now_ns(FUEL_PER_SECOND / 2), 500_000_000);
        io.begin_call(10);
        assert_eq!(io.now_ns(10), 1_000_000_000);
    }
}
