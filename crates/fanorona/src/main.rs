//! The `fanorona` command: one subcommand per user job (SPEC.md §5).

mod commands;
mod output;
mod progress;
mod setup;
mod stop_signal;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fanorona",
    version,
    about = "Fanorona engine and solver: perft, legal turns, boards, endgame tables, proofs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Perft(commands::perft::PerftArgs),
    Moves(commands::moves::MovesArgs),
    Show(commands::show::ShowArgs),
    Tables(commands::tables::TablesArgs),
    Query(commands::query::QueryArgs),
    Solve(Box<commands::solve::SolveArgs>),
    CheckProof(commands::check_proof::CheckProofArgs),
    PackProof(commands::pack_proof::PackProofArgs),
}

fn main() -> ExitCode {
    quiet_broken_pipes();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(error),
    };
    let result = match cli.command {
        Command::Perft(args) => args.run(),
        Command::Moves(args) => args.run(),
        Command::Show(args) => args.run(),
        Command::Tables(args) => args.run(),
        Command::Query(args) => args.run(),
        Command::Solve(args) => args.run(),
        Command::CheckProof(args) => args.run(),
        Command::PackProof(args) => args.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            if json_asked() {
                output::print_json_error(&error);
            }
            ExitCode::from(error.exit_code())
        }
    }
}

/// A command line clap cannot read (or `--help`, `--version`): clap's own output and exit code,
/// and with `--json` the first line of its message as the JSON document too.
fn usage_error(error: clap::Error) -> ExitCode {
    let code = u8::try_from(error.exit_code()).unwrap_or(2);
    let _ = error.print();
    if code != 0 && json_asked() {
        let rendered = error.render().to_string();
        let message = rendered.lines().next().unwrap_or_default();
        output::print_error_document(message.strip_prefix("error: ").unwrap_or(message), code);
    }
    ExitCode::from(code)
}

/// Whether the command line has `--json` (every subcommand that prints results takes it).
fn json_asked() -> bool {
    std::env::args_os().skip(1).any(|arg| arg == "--json")
}

/// End quietly when the reader of the output goes away (`fanorona perft 7 | head -1`), as
/// command-line tools do, instead of panicking on the failed write: Rust ignores SIGPIPE, so
/// restore its default.
#[cfg(unix)]
fn quiet_broken_pipes() {
    // SAFETY: setting a signal's disposition to the default, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_broken_pipes() {}
