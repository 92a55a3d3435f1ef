//! Deterministic WASI preview 2 for bots that are WebAssembly components.
//!
//! The same guarantees as preview 1 (see [`crate::wasi`]), on top of
//! `wasmtime-wasi`'s preview 2 implementation with an empty context: no
//! files or preopened directories, no environment or arguments, no network
//! (socket creation is refused before any host socket exists), stdin at end
//! of file. We shadow every function through which time, randomness or
//! output could reach or escape a bot, or make the host wait:
//!
//! - `wasi:clocks/monotonic-clock` and `wasi:clocks/wall-clock`: virtual
//!   clocks derived from fuel, the same readings as preview 1's.
//! - `subscribe-instant` / `subscribe-duration` make *virtual* deadlines, and
//!   `wasi:io/poll` (`poll`, `pollable.ready`, `pollable.block`) never waits:
//!   when nothing is ready it pays the sleep to the earliest deadline in fuel
//!   (which advances the virtual clock by exactly that much) and returns it.
//! - `wasi:random/*`: the seat's seeded stream, capped per call.
//! - `output-stream` writes: the only output streams a bot can hold are
//!   stdout and stderr, and every write goes to the bot's capped log.
//!
//! Host calls consume no fuel by themselves, so each shadowed function
//! charges fuel for the work it does, as in preview 1.

use crate::limiter::Limiter;
use crate::limits::Limits;
use crate::wasi::{ns_to_fuel, BotIo, FUEL_PER_BYTE, HOST_CALL_FUEL, VIRTUAL_EPOCH_NS};
use rand_core::RngCore;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use wasmtime::component::{Linker, Resource, ResourceTable};
use wasmtime::{StoreContextMut, Trap};
use wasmtime_wasi::p2::{DynOutputStream, DynPollable};
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};
use wasmtime_wasi_io::bindings::wasi::io::poll::{Host as _, HostPollable as _};
use wasmtime_wasi_io::bindings::wasi::io::streams::StreamError;

/// The WASI preview 2 version `wasmtime-wasi` implements; components that
/// import any 0.2.x version link to it.
const WASI_P2_VERSION: &str = "0.2.12";

/// Most pollables one `poll` may wait on.
const MAX_POLLABLES: usize = 256;

/// Store data of a component bot instance.
pub struct ComponentState {
    ctx: WasiCtx,
    table: ResourceTable,
    pub io: BotIo,
    pub limiter: Limiter,
    clock: Arc<VirtualClock>,
}

impl WasiView for ComponentState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

impl ComponentState {
    /// Store data for one instance: an empty WASI context behind the
    /// replacements above.
    pub fn new(io: BotIo, limits: &Limits) -> Self {
        let ctx = WasiCtxBuilder::new()
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            // Never read (the clock functions are shadowed), but if some
            // path still reached them they would not leak the real time.
            .wall_clock(FrozenClock)
            .monotonic_clock(FrozenClock)
            .build();
        ComponentState {
            ctx,
            table: ResourceTable::new(),
            io,
            limiter: Limiter::for_component(limits),
            clock: Arc::new(VirtualClock::default()),
        }
    }
}

struct FrozenClock;

impl wasmtime_wasi::HostWallClock for FrozenClock {
    fn resolution(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(1)
    }
    fn now(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(VIRTUAL_EPOCH_NS)
    }
}

impl wasmtime_wasi::HostMonotonicClock for FrozenClock {
    fn resolution(&self) -> u64 {
        1
    }
    fn now(&self) -> u64 {
        0
    }
}

/// The virtual time the pollables of one instance are judged against, set
/// by `poll` before it looks at them.
struct VirtualClock {
    now_ns: AtomicU64,
    /// The earliest deadline found not yet reached by the last look.
    earliest_pending_ns: AtomicU64,
}

impl Default for VirtualClock {
    fn default() -> Self {
        VirtualClock {
            now_ns: AtomicU64::new(0),
            earliest_pending_ns: AtomicU64::new(u64::MAX),
        }
    }
}

/// A monotonic-clock subscription: ready once virtual time reaches `at_ns`.
struct Deadline {
    at_ns: u64,
    clock: Arc<VirtualClock>,
}

#[wasmtime_wasi::async_trait]
impl wasmtime_wasi::p2::Pollable for Deadline {
    async fn ready(&mut self) {
        std::future::poll_fn(|_| {
            if self.clock.now_ns.load(Ordering::Relaxed) >= self.at_ns {
                Poll::Ready(())
            } else {
                self.clock
                    .earliest_pending_ns
                    .fetch_min(self.at_ns, Ordering::Relaxed);
                Poll::Pending
            }
        })
        .await
    }
}

/// Polls `fut` once: every future here is ready or pending at once, none
/// waits on anything outside the store.
fn poll_once<F: std::future::Future>(fut: F) -> Option<F::Output> {
    let mut fut = std::pin::pin!(fut);
    match fut
        .as_mut()
        .poll(&mut Context::from_waker(std::task::Waker::noop()))
    {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

type Store<'a> = StoreContextMut<'a, ComponentState>;

/// Takes `fuel` from the running call; when it is more than is left the bot
/// is out of fuel at once.
fn charge(store: &mut Store<'_>, fuel: u64) -> wasmtime::Result<()> {
    let left = store.get_fuel()?;
    if fuel > left {
        store.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    store.set_fuel(left - fuel)
}

fn now_ns(store: &Store<'_>) -> wasmtime::Result<u64> {
    Ok(store.data().io.now_ns(store.get_fuel()?))
}

/// Adds WASI preview 2 to `linker`, with the deterministic replacements.
pub fn add_to_linker(linker: &mut Linker<ComponentState>) -> wasmtime::Result<()> {
    wasmtime_wasi::p2::add_to_linker_sync(linker)?;
    linker.allow_shadowing(true);
    let v = WASI_P2_VERSION;

    let mut clock = linker.instance(&format!("wasi:clocks/monotonic-clock@{v}"))?;
    clock.func_wrap("now", |mut s: Store<'_>, (): ()| {
        charge(&mut s, HOST_CALL_FUEL)?;
        Ok((now_ns(&s)?,))
    })?;
    clock.func_wrap("resolution", |mut s: Store<'_>, (): ()| {
        charge(&mut s, HOST_CALL_FUEL)?;
        Ok((1u64,))
    })?;
    clock.func_wrap("subscribe-instant", |mut s: Store<'_>, (at,): (u64,)| {
        charge(&mut s, HOST_CALL_FUEL)?;
        Ok((deadline(&mut s, at)?,))
    })?;
    clock.func_wrap("subscribe-duration", |mut s: Store<'_>, (d,): (u64,)| {
        charge(&mut s, HOST_CALL_FUEL)?;
        let at = now_ns(&s)?.saturating_add(d);
        Ok((deadline(&mut s, at)?,))
    })?;

    let mut wall = linker.instance(&format!("wasi:clocks/wall-clock@{v}"))?;
    wall.func_wrap("now", |mut s: Store<'_>, (): ()| {
        charge(&mut s, HOST_CALL_FUEL)?;
        let ns = VIRTUAL_EPOCH_NS.saturating_add(now_ns(&s)?);
        Ok((Datetime {
            seconds: ns / 1_000_000_000,
            nanoseconds: (ns % 1_000_000_000) as u32,
        },))
    })?;
    wall.func_wrap("resolution", |mut s: Store<'_>, (): ()| {
        charge(&mut s, HOST_CALL_FUEL)?;
        Ok((Datetime {
            seconds: 0,
            nanoseconds: 1,
        },))
    })?;

    let mut poll = linker.instance(&format!("wasi:io/poll@{v}"))?;
    poll.func_wrap(
        "poll",
        |mut s: Store<'_>, (list,): (Vec<Resource<DynPollable>>,)| {
            let reps: Vec<u32> = list.iter().map(|r| r.rep()).collect();
            Ok((poll_virtual(&mut s, &reps)?,))
        },
    )?;
    poll.func_wrap(
        "[method]pollable.block",
        |mut s: Store<'_>, (p,): (Resource<DynPollable>,)| {
            poll_virtual(&mut s, &[p.rep()])?;
            Ok(())
        },
    )?;
    poll.func_wrap(
        "[method]pollable.ready",
        |mut s: Store<'_>, (p,): (Resource<DynPollable>,)| {
            charge(&mut s, HOST_CALL_FUEL)?;
            let now = now_ns(&s)?;
            let state = s.data_mut();
            state.clock.now_ns.store(now, Ordering::Relaxed);
            let ready = poll_once(state.table.ready(p))
                .transpose()?
                .unwrap_or(false);
            Ok((ready,))
        },
    )?;

    let random = |name: &str, linker: &mut Linker<ComponentState>| -> wasmtime::Result<()> {
        let mut i = linker.instance(&format!("wasi:random/{name}@{v}"))?;
        let (bytes, u64_) = match name {
            "random" => ("get-random-bytes", "get-random-u64"),
            _ => ("get-insecure-random-bytes", "get-insecure-random-u64"),
        };
        i.func_wrap(bytes, |mut s: Store<'_>, (len,): (u64,)| {
            charge(&mut s, HOST_CALL_FUEL)?;
            let cap = s.data().io.random_cap;
            if len > cap {
                wasmtime::bail!(
                    "the bot asked for {len} random bytes in one call; the limit is {cap}"
                );
            }
            charge(&mut s, len * FUEL_PER_BYTE)?;
            let mut out = vec![0u8; len as usize];
            s.data_mut().io.rng.fill_bytes(&mut out);
            Ok((out,))
        })?;
        i.func_wrap(u64_, |mut s: Store<'_>, (): ()| {
            charge(&mut s, HOST_CALL_FUEL)?;
            Ok((s.data_mut().io.rng.next_u64(),))
        })?;
        Ok(())
    };
    random("random", linker)?;
    random("insecure", linker)?;
    linker
        .instance(&format!("wasi:random/insecure-seed@{v}"))?
        .func_wrap("insecure-seed", |mut s: Store<'_>, (): ()| {
            charge(&mut s, HOST_CALL_FUEL)?;
            let rng = &mut s.data_mut().io.rng;
            Ok(((rng.next_u64(), rng.next_u64()),))
        })?;

    // Output: stdout and stderr are the only output streams a bot can hold
    // (no files, no sockets), and both are the bot's log.
    let mut streams = linker.instance(&format!("wasi:io/streams@{v}"))?;
    for name in ["write", "blocking-write-and-flush"] {
        streams.func_wrap(
            &format!("[method]output-stream.{name}"),
            |mut s: Store<'_>, (_stream, bytes): (Resource<DynOutputStream>, Vec<u8>)| {
                charge(&mut s, HOST_CALL_FUEL + bytes.len() as u64 * FUEL_PER_BYTE)?;
                s.data_mut().io.write_log(&bytes);
                Ok((Ok::<(), StreamError>(()),))
            },
        )?;
    }
    for name in ["write-zeroes", "blocking-write-zeroes-and-flush"] {
        streams.func_wrap(
            &format!("[method]output-stream.{name}"),
            |mut s: Store<'_>, (_stream, len): (Resource<DynOutputStream>, u64)| {
                charge(
                    &mut s,
                    HOST_CALL_FUEL.saturating_add(len.saturating_mul(FUEL_PER_BYTE)),
                )?;
                s.data_mut().io.write_log_zeroes(len);
                Ok((Ok::<(), StreamError>(()),))
            },
        )?;
    }
    linker.allow_shadowing(false);
    Ok(())
}

#[derive(
    wasmtime::component::ComponentType, wasmtime::component::Lift, wasmtime::component::Lower,
)]
#[component(record)]
struct Datetime {
    seconds: u64,
    nanoseconds: u32,
}

fn deadline(s: &mut Store<'_>, at_ns: u64) -> wasmtime::Result<Resource<DynPollable>> {
    let state = s.data_mut();
    let clock = state.clock.clone();
    let d = state.table.push(Deadline { at_ns, clock })?;
    wasmtime_wasi::p2::subscribe(&mut state.table, d)
}

/// `poll`: returns the indices of the ready pollables. When none is ready,
/// sleeps in virtual time to the earliest clock deadline among them, paying
/// the sleep in fuel, so it never blocks the host.
fn poll_virtual(s: &mut Store<'_>, reps: &[u32]) -> wasmtime::Result<Vec<u32>> {
    charge(s, HOST_CALL_FUEL + reps.len() as u64 * 8 * FUEL_PER_BYTE)?;
    if reps.is_empty() {
        wasmtime::bail!("poll of an empty list");
    }
    if reps.len() > MAX_POLLABLES {
        wasmtime::bail!(
            "poll of {} pollables; the limit is {MAX_POLLABLES}",
            reps.len()
        );
    }
    let mut now = now_ns(s)?;
    for _ in 0..2 {
        let state = s.data_mut();
        state.clock.now_ns.store(now, Ordering::Relaxed);
        state
            .clock
            .earliest_pending_ns
            .store(u64::MAX, Ordering::Relaxed);
        let list = reps.iter().map(|&r| Resource::new_borrow(r)).collect();
        if let Some(ready) = poll_once(state.table.poll(list)) {
            return ready;
        }
        let earliest = state.clock.earliest_pending_ns.load(Ordering::Relaxed);
        if earliest == u64::MAX {
            break;
        }
        // Sleeping is paid in fuel, which moves the virtual clock to the deadline.
        charge(s, ns_to_fuel(earliest.saturating_sub(now)))?;
        now = now_ns(s)?.max(earliest);
    }
    wasmtime::bail!("poll would wait forever: nothing it waits on can become ready in the sandbox")
}
