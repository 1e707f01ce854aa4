//! The `judge` command line.

use std::io::{self, BufReader, BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
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
    Adjudicate {
        /// Worker threads (default: one per core); 1 answers each line in turn.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Handle one mail from stdin (for .forward or procmail) and queue the replies.
    Handle {
        /// The time to act at (RFC 3339), instead of the clock's.
        #[arg(long)]
        now: Option<String>,
    },
    /// Print a game as JSON: every phase, its position, orders and results.
    Export { game: String },
    /// Write the web archive (`[web] path`) from the database: what it
    /// lacks, or with --rebuild every page.
    Archive {
        /// Write every page again (a thread per core).
        #[arg(long)]
        rebuild: bool,
        /// Threads for --rebuild (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// One game only (and the index of all games).
        game: Option<String>,
    },
    /// Draw the map of a phase (with its orders and results), or of the
    /// current position: PNG, or SVG.
    Map {
        game: String,
        /// The phase (S1901M, F1901R, W1901A, ...); absent: the current position.
        phase: Option<String>,
        /// SVG (the default with an output file named *.svg).
        #[arg(long, conflicts_with = "png")]
        svg: bool,
        /// PNG (the default), `[maps] width` pixels wide.
        #[arg(long)]
        png: bool,
        /// Where to write it (default: standard output).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Run the judge: watch the inbox, keep the deadlines, send the mail.
    Run {
        /// One pass (all waiting mail, everything due, the queue), then exit.
        #[arg(long)]
        once: bool,
        /// The time to act at (RFC 3339), instead of the clock's.
        #[arg(long)]
        now: Option<String>,
    },
    /// Write a working judge.toml, the Maildir folders and an empty database.
    Init {
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Check a configuration and say exactly what is wrong.
    Check,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
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
        Command::Adjudicate { threads } => adjudicate(threads),
        Command::Handle { now } => Ok(handle(&cli.config, now.as_deref())),
        Command::Run { once, now } => {
            let config = Config::load(&cli.config)?;
            judge::commands::run::run(config, once, now.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Init { dir } => {
            for line in judge::commands::init::run(&dir)? {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check => Ok(check(&cli.config)),
        Command::Map {
            game,
            phase,
            svg,
            png,
            output,
        } => map(&cli.config, &game, phase.as_deref(), (svg, png), output),
        Command::Archive {
            rebuild,
            threads,
            game,
        } => {
            use judge::commands::archive;
            let config = Config::load(&cli.config)?;
            let options = archive::Options {
                rebuild,
                game,
                threads,
                now: judge::commands::parse_now(None)?,
            };
            let written = archive::run(&config, &options)?;
            for line in &written.lines {
                println!("{line}");
            }
            for failure in &written.failures {
                eprintln!("judge archive: not written: {failure}");
            }
            Ok(if written.failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Export { game } => {
            let config = Config::load(&cli.config)?;
            let value = judge::commands::export::run(&config, &game)?;
            println!("{}", serde_json::to_string_pretty(&value).expect("JSON"));
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn adjudicate(threads: Option<usize>) -> Result<ExitCode, String> {
    use judge::commands::adjudicate;
    // A large buffer: whole batches of lines at hand per read.
    let mut stdin = BufReader::with_capacity(1 << 20, io::stdin().lock());
    // Not locked: the writer thread owns it.
    let mut stdout = BufWriter::with_capacity(1 << 16, io::stdout());
    let threads = threads.unwrap_or_else(adjudicate::default_threads);
    match adjudicate::run(&mut stdin, &mut stdout, threads) {
        Ok(0) => Ok(ExitCode::SUCCESS),
        Ok(n) => Err(format!("adjudicate: {n} line(s) could not be adjudicated")),
        Err(e) => Err(format!("adjudicate: {e}")),
    }
}

fn handle(config: &Path, now: Option<&str>) -> ExitCode {
    use judge::commands::handle;
    // Only 0 and 75 may leave here: any other status makes a mail
    // system bounce the mail to its sender.
    match handle::run(config, now) {
        Ok(handled) => {
            eprintln!("judge handle: {handled}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("judge handle: not stored, to be offered again: {e}");
            ExitCode::from(handle::EX_TEMPFAIL)
        }
    }
}

fn check(config: &Path) -> ExitCode {
    let (lines, ok) = judge::commands::check::run(config);
    for line in lines {
        println!("{line}");
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `judge map`; `(svg, png)`: the format flags given.
fn map(
    config: &Path,
    game: &str,
    phase: Option<&str>,
    (svg, png): (bool, bool),
    output: Option<PathBuf>,
) -> Result<ExitCode, String> {
    use judge::commands::map::{self, Format};
    let format = Format::choose(svg, png, output.as_deref());
    // A PNG's bytes on a terminal are noise, and can upset it.
    if output.is_none() && format == Format::Png && io::stdout().is_terminal() {
        return Err(format!(
            "map: a PNG is not written to a terminal: redirect it \
             (judge map {game} > {game}.png), name a file (-o {game}.png), or ask for --svg"
        ));
    }
    let config = Config::load(config)?;
    let bytes = map::run(&config, game, phase, format)?;
    match output {
        Some(path) => std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => {
            use std::io::Write;
            io::stdout()
                .write_all(&bytes)
                .map_err(|e| format!("writing the picture: {e}"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
