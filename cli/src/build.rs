//! `ludus build-bot`: a bot from its source, with the long steps of a build
//! (installing the tools the first time, componentize-py) shown on stderr
//! as they start: a spinner on a terminal, a line each otherwise.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use ludus_host::build::kaggle::KaggleGame;
use ludus_host::build::{BuildOptions, Built, OnStep, Step};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(clap::Args)]
pub struct BuildBotArgs {
    /// The bot's source: bot.py, bot.c, or a Kaggle submission (main.py,
    /// its folder, or a .tar.gz with main.py at its root).
    source: PathBuf,
    /// Where to write the .wasm (default: the source's name with .wasm,
    /// in the current folder: bot.py gives bot.wasm).
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Build a Kaggle agent (its last function, called as
    /// `agent(obs, config)`) for this game. Without it, a .py file that
    /// defines `agent` and no `act` is a Kaggle agent, and so is a folder
    /// or .tar.gz; the game is the one whose helpers it imports.
    #[arg(long, value_name = "kore|halite")]
    kaggle: Option<KaggleGame>,
}

impl BuildBotArgs {
    pub fn run(self) -> Result<()> {
        build_bot(&self.source, self.out, self.kaggle)
    }
}

fn build_bot(source: &Path, out: Option<PathBuf>, kaggle: Option<KaggleGame>) -> Result<()> {
    let out = out.unwrap_or_else(|| ludus_host::build::wasm_name(source));
    let tools = ludus_host::build::default_tools_dir();
    let steps = Steps::new();
    let options = BuildOptions {
        kaggle,
        on_step: steps.on_step(),
    };
    let built = ludus_host::build::build_bot(source, &out, &tools, &options);
    steps.finish(built.is_ok());
    let built = built.with_context(|| format!("cannot build {}", source.display()))?;
    let bytes = std::fs::read(&out)?;
    println!(
        "built    {} ({} bytes, sha256 {})",
        out.display(),
        bytes.len(),
        ludus_host::sha256_hex(&bytes)
    );
    match built {
        Built::Kaggle(game) => {
            println!("kind     Kaggle agent for {game} (its last callable, called as on Kaggle)");
            println!("next     ludus check --game {game} {}", out.display());
        }
        Built::Python | Built::C => println!("next     ludus check {}", out.display()),
    }
    Ok(())
}

/// The build's steps on stderr: on a terminal a spinner per step, each
/// left ticked with its time when the next starts; otherwise a line per step.
struct Steps {
    /// The spinner of the step under way (terminal only).
    spinner: Option<Arc<Mutex<Option<ProgressBar>>>>,
}

impl Steps {
    fn new() -> Steps {
        Steps {
            spinner: std::io::stderr()
                .is_terminal()
                .then(|| Arc::new(Mutex::new(None))),
        }
    }

    fn on_step(&self) -> OnStep {
        let Some(current) = self.spinner.clone() else {
            return OnStep::new(|step: &Step| eprintln!("{step}"));
        };
        OnStep::new(move |step: &Step| {
            let mut current = current.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(done) = current.take() {
                done.finish();
            }
            let spinner = ProgressBar::new_spinner();
            spinner.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .expect("a valid template")
                    .tick_strings(&["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏", "✓"]),
            );
            spinner.set_message(step.to_string());
            spinner.enable_steady_tick(Duration::from_millis(100));
            *current = Some(spinner);
        })
    }

    /// Ends the spinner of the last step: ticked when the build went well,
    /// cleared when it failed (the error that follows says how).
    fn finish(self, ok: bool) {
        let Some(current) = self.spinner else { return };
        let last = current.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(last) = last {
            if ok {
                last.finish();
            } else {
                last.finish_and_clear();
            }
        }
    }
}
