//! The `judge` command line.

use std::io::{self, BufReader, BufWriter};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = &cli.config;
    match cli.command {
        Command::Adjudicate => {
            let stdin = BufReader::new(io::stdin().lock());
            let stdout = BufWriter::new(io::stdout().lock());
            match judge::commands::adjudicate::run(stdin, stdout) {
                Ok(0) => ExitCode::SUCCESS,
                Ok(n) => {
                    eprintln!("judge adjudicate: {n} line(s) could not be adjudicated");
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("judge adjudicate: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
