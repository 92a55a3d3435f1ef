//! Where `ludus` logs go: stderr, filtered by `LUDUS_LOG` (default `warn`),
//! as text or as one JSON object a line (`--log-format`).

use tracing_subscriber::EnvFilter;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum LogFormat {
    /// Lines for people; coloured only on a terminal.
    Text,
    /// One JSON object a line: `timestamp`, `level`, `target`, the event's
    /// fields (`message` among them) and the `span` it happened in.
    Json,
}

pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_env("LUDUS_LOG").unwrap_or_else(|_| "warn".into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs
            // Colour codes only for a person at a terminal, never in a log file.
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        LogFormat::Json => logs
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
}
