//! The wasmtime sandbox: one engine per process, every bot compiled once
//! (and cached on disk), instantiated per match from a pre-linked template.

use crate::limits::Limits;
use crate::wasi::{self, BotState};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wasmtime::{
    Config, Engine, ExternType, InstanceAllocationStrategy, InstancePre, Linker, Module, OptLevel,
    PoolingAllocationConfig, ResourceLimiter, ValType,
};

/// The exact wasmtime version every replay records: fuel accounting, and so
/// every limit, may change between versions.
pub const WASMTIME_VERSION: &str = "48.0.8";

/// Epoch ticks per second of the wall-clock backstop.
const EPOCH_TICKS_PER_SECOND: u64 = 100;

/// Why a bot module was refused. Each message names what to fix.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read bot file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("bot `{bot}` imports `{module}::{name}`; bots may import only `wasi_snapshot_preview1` functions. Remove the import (build for wasm32-wasip1 without other host bindings).")]
    ForbiddenImport {
        bot: String,
        module: String,
        name: String,
    },
    #[error("bot `{bot}` imports `wasi_snapshot_preview1::{name}`, which is not a WASI preview 1 function Ludus provides (or has the wrong type): {reason}")]
    UnknownWasiImport {
        bot: String,
        name: String,
        reason: String,
    },
    #[error("bot `{bot}` does not export `{name}` ({expected}). See docs/bot-abi.md: a bot exports `memory`, `ludus_alloc(len: i32) -> i32` and `act(ptr: i32, len: i32) -> i64`.")]
    MissingExport {
        bot: String,
        name: &'static str,
        expected: &'static str,
    },
    #[error("bot `{bot}` exports `{name}` with the wrong type: expected {expected}, found {found}. See docs/bot-abi.md.")]
    WrongExport {
        bot: String,
        name: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("bot `{bot}` declares {initial_mib} MiB of initial memory; bots may have at most {cap_mib} MiB")]
    MemoryTooLarge {
        bot: String,
        initial_mib: u64,
        cap_mib: u64,
    },
    #[error("bot `{bot}` is not a valid WebAssembly module for Ludus: {reason}. Build it as a core module for wasm32-wasip1 (no threads, no memory64).")]
    Compile { bot: String, reason: String },
}

/// Caps a bot's memory and tables, and remembers whether it hit a cap, so a
/// trap that follows (a Rust allocation failure aborts) is reported as such.
pub struct Limiter {
    memory_bytes: usize,
    table_elements: usize,
    pub(crate) hit_memory_cap: bool,
}

impl Limiter {
    pub fn new(limits: &Limits) -> Self {
        Limiter {
            memory_bytes: limits.memory_bytes as usize,
            table_elements: limits.table_elements as usize,
            hit_memory_cap: false,
        }
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = desired <= self.memory_bytes;
        self.hit_memory_cap |= !ok;
        Ok(ok)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = desired <= self.table_elements;
        self.hit_memory_cap |= !ok;
        Ok(ok)
    }

    fn instances(&self) -> usize {
        1
    }
    fn tables(&self) -> usize {
        4
    }
    fn memories(&self) -> usize {
        1
    }
}

/// A compiled, checked, pre-linked bot.
pub struct BotModule {
    /// The bot's name (by default its file name without `.wasm`).
    pub name: String,
    /// sha256 of the `.wasm` bytes, hex.
    pub sha256: String,
    pub(crate) pre: InstancePre<BotState>,
    pub(crate) has_initialize: bool,
}

impl std::fmt::Debug for BotModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotModule")
            .field("name", &self.name)
            .field("sha256", &self.sha256)
            .finish()
    }
}

/// Options for a [`Sandbox`].
#[derive(Debug, Clone)]
pub struct SandboxOptions {
    /// Largest memory any bot may have (the per-match [`Limits`] may be lower).
    pub max_memory_bytes: u64,
    /// Largest wasm stack.
    pub wasm_stack_bytes: u64,
    /// Instances that may be alive at once (seats × parallel matches).
    pub pool_instances: u32,
    /// Where compiled modules are cached; `None` disables the disk cache.
    pub cache_dir: Option<PathBuf>,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        let limits = Limits::default();
        SandboxOptions {
            max_memory_bytes: limits.memory_bytes,
            wasm_stack_bytes: limits.wasm_stack_bytes,
            pool_instances: 128,
            cache_dir: default_cache_dir(),
        }
    }
}

/// `$LUDUS_CACHE_DIR`, else `$XDG_CACHE_HOME/ludus/modules`, else `~/.cache/ludus/modules`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("LUDUS_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("ludus").join("modules"))
}

/// One per process: the wasmtime engine, the WASI linker, the compiled bots.
pub struct Sandbox {
    engine: Engine,
    linker: Linker<BotState>,
    options: SandboxOptions,
    config_key: String,
    /// The WASI functions the linker provides, by name, for checking imports.
    wasi_functions: HashMap<String, wasmtime::FuncType>,
    /// Checked, compiled and pre-linked modules by sha256: the same bytes
    /// under several names compile once.
    compiled: Mutex<HashMap<String, (InstancePre<BotState>, bool)>>,
    stop_ticker: Arc<AtomicBool>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.stop_ticker.store(true, Ordering::Relaxed);
    }
}

fn engine_config(options: &SandboxOptions, pooling: bool) -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .max_wasm_stack(options.wasm_stack_bytes as usize)
        .cranelift_opt_level(OptLevel::Speed)
        // Determinism: the same bits on every machine.
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        // (wasm threads are not even compiled in: shared memories are refused)
        .parallel_compilation(true);
    if pooling {
        let mut pool = PoolingAllocationConfig::new();
        pool.total_core_instances(options.pool_instances)
            .total_memories(options.pool_instances)
            .total_tables(options.pool_instances)
            .max_memories_per_module(1)
            .max_tables_per_module(4)
            .max_memory_size(options.max_memory_bytes as usize);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    config
}

impl Sandbox {
    /// A sandbox with the default options.
    pub fn new() -> anyhow::Result<Self> {
        Self::with_options(SandboxOptions::default())
    }

    pub fn with_options(options: SandboxOptions) -> anyhow::Result<Self> {
        // The pooling allocator makes instantiation cheap but reserves address
        // space up front; where that is refused, fall back to on-demand.
        let engine = match Engine::new(&engine_config(&options, true)) {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!("pooling allocator unavailable ({e}); instantiating on demand");
                Engine::new(&engine_config(&options, false))
                    .map_err(|e| anyhow::anyhow!("cannot create the wasm engine: {e}"))?
            }
        };
        let mut linker = Linker::new(&engine);
        wasi::add_to_linker(&mut linker).map_err(|e| anyhow::anyhow!("cannot link WASI: {e}"))?;

        let wasi_functions = {
            let mut store = wasmtime::Store::new(&engine, BotState::placeholder());
            let defs: Vec<(String, wasmtime::Extern)> = linker
                .iter(&mut store)
                .map(|(_, name, ext)| (name.to_string(), ext))
                .collect();
            defs.into_iter()
                .filter_map(|(name, ext)| ext.ty(&store).func().cloned().map(|f| (name, f)))
                .collect::<HashMap<_, _>>()
        };
        let config_key = {
            let mut hasher = Sha256Hasher(Sha256::new());
            std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut hasher);
            hasher.0.update(WASMTIME_VERSION.as_bytes());
            hex::encode(&hasher.0.finalize()[..8])
        };

        let stop_ticker = Arc::new(AtomicBool::new(false));
        {
            let engine = engine.clone();
            let stop = stop_ticker.clone();
            std::thread::Builder::new()
                .name("ludus-epoch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1000 / EPOCH_TICKS_PER_SECOND));
                        engine.increment_epoch();
                    }
                })?;
        }
        Ok(Sandbox {
            engine,
            linker,
            options,
            config_key,
            wasi_functions,
            compiled: Mutex::new(HashMap::new()),
            stop_ticker,
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn options(&self) -> &SandboxOptions {
        &self.options
    }

    pub(crate) fn backstop_ticks(limits: &Limits) -> u64 {
        (limits.backstop_ms * EPOCH_TICKS_PER_SECOND / 1000).max(1)
    }

    /// Loads a bot from a `.wasm` file; its name is the file name without `.wasm`.
    pub fn load_file(&self, path: &Path) -> Result<Arc<BotModule>, LoadError> {
        let bytes = std::fs::read(path).map_err(|source| LoadError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bot".into());
        self.load(&name, &bytes)
    }

    /// Checks, compiles (once per process, and cached on disk) and pre-links a bot.
    pub fn load(&self, name: &str, wasm: &[u8]) -> Result<Arc<BotModule>, LoadError> {
        let sha256 = sha256_hex(wasm);
        let bot = |(pre, has_initialize)| {
            Arc::new(BotModule {
                name: name.to_string(),
                sha256: sha256.clone(),
                pre,
                has_initialize,
            })
        };
        if let Some(hit) = self.compiled.lock().expect("not poisoned").get(&sha256) {
            return Ok(bot(hit.clone()));
        }
        let compile_err = |reason: String| LoadError::Compile {
            bot: name.to_string(),
            reason,
        };
        // Validate before compiling, so a broken module gets the validator's
        // message rather than a cache miss.
        Module::validate(&self.engine, wasm).map_err(|e| compile_err(format!("{e:#}")))?;
        self.check_memory(name, wasm)?;
        let module = self.compile_cached(wasm, &sha256).map_err(compile_err)?;
        let has_initialize = check_exports(name, &module)?;
        self.check_imports(name, &module)?;
        let pre = self
            .linker
            .instantiate_pre(&module)
            .map_err(|e| LoadError::Compile {
                bot: name.to_string(),
                reason: format!("{e:#}"),
            })?;
        self.compiled
            .lock()
            .expect("not poisoned")
            .insert(sha256.clone(), (pre.clone(), has_initialize));
        Ok(bot((pre, has_initialize)))
    }

    /// Refuses a module whose initial memory is over the sandbox's cap
    /// before compiling it (the pooling allocator would refuse it anyway,
    /// with a less helpful message).
    fn check_memory(&self, bot: &str, wasm: &[u8]) -> Result<(), LoadError> {
        for payload in wasmparser::Parser::new(0).parse_all(wasm) {
            let Ok(wasmparser::Payload::MemorySection(memories)) = payload else {
                continue;
            };
            for memory in memories.into_iter().flatten() {
                let initial = memory.initial.saturating_mul(1 << 16);
                if initial > self.options.max_memory_bytes {
                    return Err(LoadError::MemoryTooLarge {
                        bot: bot.to_string(),
                        initial_mib: initial >> 20,
                        cap_mib: self.options.max_memory_bytes >> 20,
                    });
                }
            }
        }
        Ok(())
    }

    fn check_imports(&self, bot: &str, module: &Module) -> Result<(), LoadError> {
        for import in module.imports() {
            if import.module() != "wasi_snapshot_preview1" {
                return Err(LoadError::ForbiddenImport {
                    bot: bot.to_string(),
                    module: import.module().to_string(),
                    name: import.name().to_string(),
                });
            }
            let ExternType::Func(wanted) = import.ty() else {
                return Err(LoadError::UnknownWasiImport {
                    bot: bot.to_string(),
                    name: import.name().to_string(),
                    reason: "only functions may be imported".into(),
                });
            };
            match self.wasi_functions.get(import.name()) {
                None => {
                    return Err(LoadError::UnknownWasiImport {
                        bot: bot.to_string(),
                        name: import.name().to_string(),
                        reason: "no such function".into(),
                    })
                }
                Some(have) if !wasmtime::FuncType::eq(have, &wanted) => {
                    return Err(LoadError::UnknownWasiImport {
                        bot: bot.to_string(),
                        name: import.name().to_string(),
                        reason: format!("expected type {have}, found {wanted}"),
                    })
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn compile_cached(&self, wasm: &[u8], sha256: &str) -> Result<Module, String> {
        let path = self
            .options
            .cache_dir
            .as_ref()
            .map(|d| d.join(format!("{sha256}-{}.cwasm", self.config_key)));
        if let Some(path) = &path {
            if path.exists() {
                // SAFETY: the file was written by `Module::serialize` of this
                // same engine configuration (the name carries its
                // compatibility hash), atomically via a rename; wasmtime
                // still checks its header and refuses a mismatch, in which
                // case we compile afresh below.
                match unsafe { Module::deserialize_file(&self.engine, path) } {
                    Ok(m) => return Ok(m),
                    Err(e) => tracing::debug!("module cache miss for {}: {e}", path.display()),
                }
            }
        }
        let module = Module::new(&self.engine, wasm).map_err(|e| format!("{e:#}"))?;
        if let Some(path) = &path {
            if let Err(e) = write_cache(path, &module) {
                tracing::debug!("cannot write module cache {}: {e}", path.display());
            }
        }
        Ok(module)
    }
}

fn write_cache(path: &Path, module: &Module) -> anyhow::Result<()> {
    let dir = path.parent().expect("cache file has a directory");
    std::fs::create_dir_all(dir)?;
    let bytes = module.serialize().map_err(|e| anyhow::anyhow!("{e}"))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// Checks the ABI v1 exports; returns whether `_initialize` is exported.
fn check_exports(bot: &str, module: &Module) -> Result<bool, LoadError> {
    let func = |name: &'static str,
                expected: &'static str,
                params: &[ValType],
                results: &[ValType]|
     -> Result<(), LoadError> {
        match module.get_export(name) {
            None => Err(LoadError::MissingExport {
                bot: bot.to_string(),
                name,
                expected,
            }),
            Some(ExternType::Func(f)) => {
                let same = f.params().len() == params.len()
                    && f.results().len() == results.len()
                    && f.params().zip(params).all(|(a, b)| ValType::eq(&a, b))
                    && f.results().zip(results).all(|(a, b)| ValType::eq(&a, b));
                if same {
                    Ok(())
                } else {
                    Err(LoadError::WrongExport {
                        bot: bot.to_string(),
                        name,
                        expected,
                        found: f.to_string(),
                    })
                }
            }
            Some(other) => Err(LoadError::WrongExport {
                bot: bot.to_string(),
                name,
                expected,
                found: format!("{other:?}"),
            }),
        }
    };
    match module.get_export("memory") {
        Some(ExternType::Memory(m)) if !m.is_64() && !m.is_shared() => {}
        Some(other) => {
            return Err(LoadError::WrongExport {
                bot: bot.to_string(),
                name: "memory",
                expected: "a 32-bit, unshared memory",
                found: format!("{other:?}"),
            })
        }
        None => {
            return Err(LoadError::MissingExport {
                bot: bot.to_string(),
                name: "memory",
                expected: "its linear memory",
            })
        }
    }
    func(
        "ludus_alloc",
        "func (param i32) (result i32)",
        &[ValType::I32],
        &[ValType::I32],
    )?;
    func(
        "act",
        "func (param i32 i32) (result i64)",
        &[ValType::I32, ValType::I32],
        &[ValType::I64],
    )?;
    let has_initialize = module.get_export("_initialize").is_some();
    if has_initialize {
        func("_initialize", "func", &[], &[])?;
    }
    Ok(has_initialize)
}

/// sha256 of `bytes`, hex: how bots are identified everywhere.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Feeds `Hash` into sha256, so the cache key is stable across processes
/// (std's `DefaultHasher` makes no such promise).
struct Sha256Hasher(Sha256);

impl std::hash::Hasher for Sha256Hasher {
    fn finish(&self) -> u64 {
        0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}
