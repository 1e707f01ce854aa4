//! The `judge` command line.

use std::io::{self, BufReader, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use judge::config::Config;

#[derive(Parser)]
#[command(name = "judge", version, about = "A play-by-email Diplomacy judge")]
struct Cli {
    /// The configuration file; paths in it are relative to it.
    #[arg(long, global = true, default_value = "judge.toml")]
    config: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Adjudicate phases: JSON Lines on stdin, one JSON line per input on stdout.
    Adjudicate,
    /// Handle one mail from stdin (for .forward or procmail) and queue the replies.
    Handle {
        /// The time to act at (RFC 3339), instead of the clock's.
        #[arg(long)]
        now: Option<String>,
    },
    /// Print a game as JSON: every phase, its position, orders and results.
    Export { game: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("judge: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Adjudicate => {
            let stdin = BufReader::new(io::stdin().lock());
            let stdout = BufWriter::new(io::stdout().lock());
            match judge::commands::adjudicate::run(stdin, stdout) {
                Ok(0) => Ok(ExitCode::SUCCESS),
                Ok(n) => Err(format!("adjudicate: {n} line(s) could not be adjudicated")),
                Err(e) => Err(format!("adjudicate: {e}")),
            }
        }
        Command::Handle { now } => {
            let config = Config::load(&cli.config)?;
            let now = parse_now(now.as_deref())?;
            let handled = judge::commands::handle::run(config, now)?;
            eprintln!("judge handle: {handled:?}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Export { game } => {
            let config = Config::load(&cli.config)?;
            let value = judge::commands::export::run(&config, &game)?;
            println!("{}", serde_json::to_string_pretty(&value).expect("JSON"));
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `--now` as unix seconds; the clock when absent.
fn parse_now(now: Option<&str>) -> Result<i64, String> {
    match now {
        None => Ok(chrono::Utc::now().timestamp()),
        Some(t) => chrono::DateTime::parse_from_rfc3339(t)
            .map(|d| d.timestamp())
            .map_err(|e| format!("--now {t:?} is not an RFC 3339 time: {e}")),
    }
}
