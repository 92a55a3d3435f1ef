//! The wasmtime sandbox: one engine per process, every bot compiled once
//! (and cached on disk), instantiated per match from a pre-linked template.
//! A bot is a core module (bot ABI v1) or a component of the `ludus:bot`
//! world; the header of the bytes says which.

use crate::atomic_write::write_atomically;
use crate::component::{self, ComponentState};
use crate::digest::{is_sha256_hex, sha256_hex, Sha256Hasher};
use crate::file_memo::{FileMemo, Stamp};
use crate::limiter::{COMPONENT_INSTANCES, COMPONENT_MEMORIES, COMPONENT_TABLES};
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
    PoolingAllocationConfig, Precompiled, ValType,
};

/// A bot compiled by this engine, of either kind.
enum Compiled {
    Core(Module),
    Component(wasmtime::component::Component),
}

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
    #[error("there is no file {0}; check the path")]
    Missing(PathBuf),
    #[error("{0} is a directory, not a bot; give the .wasm file inside it")]
    Directory(PathBuf),
    #[error(
        "bot `{bot}` is an empty file; build it again (a bot is a .wasm file of a few kB at least)"
    )]
    Empty { bot: String },
    #[error("bot `{bot}` is not WebAssembly: it starts with {found}, not the wasm header `\\0asm`. Give the .wasm file your build wrote (for Rust: target/wasm32-wasip1/release/NAME.wasm)")]
    NotWasm { bot: String, found: String },
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
    #[error("bot `{bot}` does not export `{name}` ({expected}). See docs/bot-abi.md: a core module exports `memory`, `ludus_alloc(len: i32) -> i32` and `act(ptr: i32, len: i32) -> i64`; a component exports `act: func(state: string) -> string`.")]
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
    #[error("bot `{bot}` is not a valid WebAssembly module for Ludus: {reason}. Build it as a core module for wasm32-wasip1 (no threads, no memory64), or as a component of the world in host/wit/ludus-bot.wit.")]
    Compile { bot: String, reason: String },
    #[error("bot `{bot}` is a component that imports `{name}`, which Ludus does not provide: {reason}. Components may import only WASI preview 2 interfaces (wasi:cli, wasi:clocks, wasi:filesystem, wasi:io, wasi:random, wasi:sockets).")]
    ComponentImport {
        bot: String,
        name: String,
        reason: String,
    },
}

impl LoadError {
    fn compile(bot: &str, reason: impl std::fmt::Display) -> LoadError {
        LoadError::Compile {
            bot: bot.to_string(),
            // One line: wasmparser's messages may hold pretty-printed lists.
            reason: format!("{reason:#}")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// Refuses bytes that cannot be WebAssembly before any parser sees them,
    /// so the message says what the file is rather than how parsing failed.
    fn check_header(bot: &str, wasm: &[u8]) -> Result<(), LoadError> {
        if wasm.is_empty() {
            return Err(LoadError::Empty {
                bot: bot.to_string(),
            });
        }
        if !wasm.starts_with(b"\0asm") {
            let head = &wasm[..wasm.len().min(4)];
            let found = if head.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
                format!("the text `{}`", String::from_utf8_lossy(head))
            } else {
                format!("the bytes {}", hex::encode(head))
            };
            return Err(LoadError::NotWasm {
                bot: bot.to_string(),
                found,
            });
        }
        Ok(())
    }
}

/// What kind of WebAssembly a bot is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotKind {
    /// A core module for `wasm32-wasip1`, bot ABI v1 (`ludus_alloc`, `act`).
    Core,
    /// A component of the `ludus:bot/bot` world (`act: func(string) -> string`), WASI preview 2.
    Component,
}

impl BotKind {
    pub fn describe(self) -> &'static str {
        match self {
            BotKind::Core => "core module, bot ABI v1",
            BotKind::Component => "component, world ludus:bot/bot@1.0.0 (WASI preview 2)",
        }
    }
}

/// A compiled, checked, pre-linked bot.
pub struct BotModule {
    /// The bot's name (by default its file name without `.wasm`).
    pub name: String,
    /// sha256 of the `.wasm` bytes, hex.
    pub sha256: String,
    pub(crate) pre: BotPre,
}

/// The pre-linked template a bot is instantiated from, per kind.
#[derive(Clone)]
pub(crate) enum BotPre {
    Core {
        pre: InstancePre<BotState>,
        has_initialize: bool,
    },
    Component {
        pre: wasmtime::component::InstancePre<ComponentState>,
        act: wasmtime::component::ComponentExportIndex,
    },
}

impl BotModule {
    pub fn kind(&self) -> BotKind {
        match self.pre {
            BotPre::Core { .. } => BotKind::Core,
            BotPre::Component { .. } => BotKind::Component,
        }
    }
}

impl std::fmt::Debug for BotModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotModule")
            .field("name", &self.name)
            .field("sha256", &self.sha256)
            .field("kind", &self.kind())
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

/// `$LUDUS_CACHE_DIR`, else `modules` in [`crate::cache_dir`]
/// (`~/.cache/ludus/modules` on Linux).
pub fn default_cache_dir() -> Option<PathBuf> {
    crate::cache_dir::cache_subdir("LUDUS_CACHE_DIR", "modules")
}

/// One per process: the wasmtime engine, the WASI linker, the compiled bots.
pub struct Sandbox {
    engine: Engine,
    linker: Linker<BotState>,
    component_linker: wasmtime::component::Linker<ComponentState>,
    options: SandboxOptions,
    config_key: String,
    /// The WASI functions the linker provides, by name, for checking imports.
    wasi_functions: HashMap<String, wasmtime::FuncType>,
    /// Checked, compiled and pre-linked modules by sha256: the same bytes
    /// under several names compile once.
    compiled: Mutex<HashMap<String, BotPre>>,
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
    config
        .enable_incremental_compilation(crate::function_cache::FunctionCache::shared())
        .expect("the compiler is enabled");
    if pooling {
        // Room for every bot to be a component (several core instances,
        // memories and tables each); slots cost address space, not memory.
        let n = options.pool_instances;
        let mut pool = PoolingAllocationConfig::new();
        pool.total_component_instances(n)
            .total_core_instances(n * 8)
            .total_memories(n * 2)
            .total_tables(n * 4)
            .max_core_instances_per_component(COMPONENT_INSTANCES as u32)
            .max_memories_per_component(COMPONENT_MEMORIES as u32)
            .max_tables_per_component(COMPONENT_TABLES as u32)
            .max_memories_per_module(1)
            .max_tables_per_module(4)
            .max_memory_size(options.max_memory_bytes as usize)
            // Bots run synchronously: no fiber stacks to reserve (the default
            // maps 1000 of them, one guard page each, at every start-up).
            .total_stacks(0);
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
        let mut component_linker = wasmtime::component::Linker::new(&engine);
        component::add_to_linker(&mut component_linker)
            .map_err(|e| anyhow::anyhow!("cannot link WASI preview 2: {e:#}"))?;

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
            component_linker,
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
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bot".into());
        self.load_file_named(&name, path)
    }

    /// Loads the bot in the `.wasm` file at `path` under `name`. A file
    /// unchanged since an earlier load whose compiled form is cached is
    /// neither read nor hashed again: its sha256 is remembered by its
    /// metadata, as git remembers what its files hold.
    pub fn load_file_named(&self, name: &str, path: &Path) -> Result<Arc<BotModule>, LoadError> {
        let file = BotFile::open(path, self.options.cache_dir.as_deref())?;
        if let Some(sha256) = file.remembered_sha256() {
            if let Some(bot) = self.load_compiled(name, &sha256)? {
                return Ok(bot);
            }
        }
        let bytes = file.read()?;
        let bot = self.load(name, &bytes)?;
        file.remember(&bot.sha256)?;
        Ok(bot)
    }

    /// The sha256 of the file at `path`: remembered by its metadata when it
    /// was hashed before (as [`Sandbox::load_file_named`] does), else read
    /// and hashed, and remembered once the file has settled.
    pub fn file_sha256(&self, path: &Path) -> Result<String, LoadError> {
        let file = BotFile::open(path, self.options.cache_dir.as_deref())?;
        if let Some(sha256) = file.remembered_sha256() {
            return Ok(sha256);
        }
        let sha256 = sha256_hex(&file.read()?);
        file.remember(&sha256)?;
        Ok(sha256)
    }

    /// Checks, compiles (once per process, and cached on disk) and pre-links
    /// a bot: a core module or a component, told apart by the header.
    pub fn load(&self, name: &str, wasm: &[u8]) -> Result<Arc<BotModule>, LoadError> {
        let sha256 = sha256_hex(wasm);
        if let Some(bot) = self.load_compiled(name, &sha256)? {
            return Ok(bot);
        }
        let compiled = self.compile(name, wasm, &sha256)?;
        self.prepare(name, &sha256, compiled)
    }

    /// Loads the bot whose bytes hash to `sha256` if it is compiled already,
    /// in this process or in the disk cache; `None` if it must be compiled
    /// from its bytes. The caller vouches for `sha256` (a store keyed by it,
    /// a file's recorded hash): it becomes the bot's identity in replays.
    pub fn load_compiled(
        &self,
        name: &str,
        sha256: &str,
    ) -> Result<Option<Arc<BotModule>>, LoadError> {
        // It names a file in the cache directory: nothing else may pass.
        if !is_sha256_hex(sha256) {
            return Ok(None);
        }
        if let Some(pre) = self.compiled.lock().expect("not poisoned").get(sha256) {
            return Ok(Some(Arc::new(BotModule {
                name: name.to_string(),
                sha256: sha256.to_string(),
                pre: pre.clone(),
            })));
        }
        match self.cached(sha256) {
            Some(compiled) => self.prepare(name, sha256, compiled).map(Some),
            None => Ok(None),
        }
    }

    /// Checks and pre-links a compiled bot, and keeps it for the process.
    fn prepare(
        &self,
        name: &str,
        sha256: &str,
        compiled: Compiled,
    ) -> Result<Arc<BotModule>, LoadError> {
        let pre = match &compiled {
            Compiled::Core(module) => self.prepare_core(name, module)?,
            Compiled::Component(component) => self.prepare_component(name, component)?,
        };
        self.compiled
            .lock()
            .expect("not poisoned")
            .insert(sha256.to_string(), pre.clone());
        Ok(Arc::new(BotModule {
            name: name.to_string(),
            sha256: sha256.to_string(),
            pre,
        }))
    }

    /// Compiles a bot's bytes, and stores the result in the disk cache.
    fn compile(&self, name: &str, wasm: &[u8], sha256: &str) -> Result<Compiled, LoadError> {
        let compile_err = |e: wasmtime::Error| LoadError::compile(name, e);
        LoadError::check_header(name, wasm)?;
        self.check_memory(name, wasm)?;
        let compiled = if wasmparser::Parser::is_component(wasm) {
            Compiled::Component(
                wasmtime::component::Component::new(&self.engine, wasm).map_err(compile_err)?,
            )
        } else {
            // Validate before compiling, so a broken module gets the
            // validator's message.
            Module::validate(&self.engine, wasm).map_err(compile_err)?;
            Compiled::Core(Module::new(&self.engine, wasm).map_err(compile_err)?)
        };
        if let Some(path) = self.cache_path(sha256) {
            let bytes = match &compiled {
                Compiled::Core(m) => m.serialize(),
                Compiled::Component(c) => c.serialize(),
            };
            if let Err(e) = bytes
                .map_err(|e| anyhow::anyhow!("{e}"))
                .and_then(|bytes| write_atomically(&path, &bytes))
            {
                tracing::debug!("cannot write module cache {}: {e}", path.display());
            }
        }
        Ok(compiled)
    }

    /// Where the compiled form of the bytes hashing to `sha256` is cached:
    /// the name carries this engine configuration's compatibility hash.
    fn cache_path(&self, sha256: &str) -> Option<PathBuf> {
        let dir = self.options.cache_dir.as_ref()?;
        Some(dir.join(format!("{sha256}-{}.cwasm", self.config_key)))
    }

    /// The compiled bot from the disk cache, if there is a usable one.
    fn cached(&self, sha256: &str) -> Option<Compiled> {
        let path = self.cache_path(sha256)?;
        if !path.exists() {
            return None;
        }
        // The file was written by `serialize` of this same engine
        // configuration (the name carries its compatibility hash),
        // atomically via a rename; wasmtime still checks its header and
        // refuses a mismatch, in which case the bot is compiled afresh.
        let compiled = match Engine::detect_precompiled_file(&path) {
            // SAFETY: the cache holds only files written by `serialize`, as above.
            Ok(Some(Precompiled::Module)) => {
                unsafe { Module::deserialize_file(&self.engine, &path) }.map(Compiled::Core)
            }
            Ok(Some(Precompiled::Component)) => {
                unsafe { wasmtime::component::Component::deserialize_file(&self.engine, &path) }
                    .map(Compiled::Component)
            }
            Ok(None) => Err(wasmtime::Error::msg("not a compiled module")),
            Err(e) => Err(e),
        };
        compiled
            .inspect_err(|e| tracing::debug!("module cache miss for {}: {e}", path.display()))
            .ok()
    }

    fn prepare_core(&self, name: &str, module: &Module) -> Result<BotPre, LoadError> {
        let has_initialize = check_exports(name, module)?;
        self.check_imports(name, module)?;
        let pre = self
            .linker
            .instantiate_pre(module)
            .map_err(|e| LoadError::compile(name, e))?;
        Ok(BotPre::Core {
            pre,
            has_initialize,
        })
    }

    fn prepare_component(
        &self,
        name: &str,
        component: &wasmtime::component::Component,
    ) -> Result<BotPre, LoadError> {
        use wasmtime::component::{types::ComponentItem, Type};
        let ty = component.component_type();
        for (import, _) in ty.imports(&self.engine) {
            if !import.starts_with("wasi:") {
                return Err(LoadError::ComponentImport {
                    bot: name.to_string(),
                    name: import.to_string(),
                    reason: "not a WASI interface".into(),
                });
            }
        }
        const EXPECTED: &str = "func(state: string) -> string";
        let found = ty
            .exports(&self.engine)
            .find(|(n, _)| *n == "act")
            .map(|(_, item)| item.ty);
        match found {
            None => {
                return Err(LoadError::MissingExport {
                    bot: name.to_string(),
                    name: "act",
                    expected: EXPECTED,
                })
            }
            Some(ComponentItem::ComponentFunc(f))
                if f.params().len() == 1
                    && f.params().all(|(_, t)| matches!(t, Type::String))
                    && f.results().len() == 1
                    && f.results().all(|t| matches!(t, Type::String)) => {}
            Some(other) => {
                return Err(LoadError::WrongExport {
                    bot: name.to_string(),
                    name: "act",
                    expected: EXPECTED,
                    found: format!("{other:?}"),
                })
            }
        }
        let act = component
            .get_export_index(None, "act")
            .ok_or_else(|| LoadError::compile(name, "no `act` export"))?;
        let pre = self
            .component_linker
            .instantiate_pre(component)
            .map_err(|e| {
                // The message names the import that has no implementation.
                let reason = format!("{e:#}");
                let import = reason
                    .split('`')
                    .nth(1)
                    .unwrap_or("an interface")
                    .to_string();
                LoadError::ComponentImport {
                    bot: name.to_string(),
                    name: import,
                    reason,
                }
            })?;
        Ok(BotPre::Component { pre, act })
    }

    /// Refuses a bot whose initial memory is over the sandbox's cap before
    /// compiling it (the pooling allocator would refuse it anyway, with a
    /// less helpful message).
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
}

/// A bot file being loaded: its metadata before reading, and the file memo
/// that may know its sha256.
struct BotFile<'a> {
    path: &'a Path,
    before: std::fs::Metadata,
    memo: Option<FileMemo>,
}

impl<'a> BotFile<'a> {
    fn open(path: &'a Path, cache_dir: Option<&Path>) -> Result<Self, LoadError> {
        let before = std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => LoadError::Missing(path.to_path_buf()),
            _ => Self::read_error(path, e),
        })?;
        if before.is_dir() {
            return Err(LoadError::Directory(path.to_path_buf()));
        }
        Ok(BotFile {
            path,
            before,
            memo: cache_dir.map(FileMemo::new),
        })
    }

    fn read_error(path: &Path, source: std::io::Error) -> LoadError {
        LoadError::Read {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The sha256 recorded for this very version of the file, if any.
    fn remembered_sha256(&self) -> Option<String> {
        self.memo.as_ref()?.sha256(self.path, &self.before)
    }

    fn read(&self) -> Result<Vec<u8>, LoadError> {
        std::fs::read(self.path).map_err(|e| Self::read_error(self.path, e))
    }

    /// Records `sha256` for the file, only if it did not change while read.
    fn remember(&self, sha256: &str) -> Result<(), LoadError> {
        if let Some(memo) = &self.memo {
            let after = std::fs::metadata(self.path).map_err(|e| Self::read_error(self.path, e))?;
            if Stamp::of(&self.before).is_some_and(|stamp| Some(stamp) == Stamp::of(&after)) {
                memo.record(self.path, &after, sha256);
            }
        }
        Ok(())
    }
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
