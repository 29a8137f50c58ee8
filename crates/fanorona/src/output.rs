//! What every command shares about output: the error type and its exit codes, and JSON printing.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// An error that ends a command.
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong (a position, a size, an option): exit code 2, like a usage error.
    Input(String),
    /// The job could not be done or failed a check (a missing or corrupt table, a mismatch):
    /// exit code 1.
    Failure(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failure(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(message) | CliError::Failure(message) => f.write_str(message),
        }
    }
}

impl From<fanorona_engine::NotationError> for CliError {
    fn from(error: fanorona_engine::NotationError) -> Self {
        CliError::Input(error.to_string())
    }
}

impl From<fanorona_solver::TableError> for CliError {
    fn from(error: fanorona_solver::TableError) -> Self {
        CliError::Failure(error.to_string())
    }
}

/// Whether a JSON document has been printed on stdout (see [`print_json_error`]).
static JSON_PRINTED: AtomicBool = AtomicBool::new(false);

/// Print one JSON document on stdout.
pub fn print_json(value: &impl serde::Serialize) {
    println!(
        "{}",
        serde_json::to_string(value).expect("plain data always serialises")
    );
    JSON_PRINTED.store(true, Ordering::Relaxed);
}

/// With `--json`, a command that fails before it has printed its document prints the error as
/// its document, `{"error":MESSAGE,"exit_code":CODE}`, so that a script reading stdout gets
/// JSON either way. One that printed its result and then exits non-zero (an unsettled search,
/// a certificate that does not hold) has its document already.
pub fn print_json_error(error: &CliError) {
    if !JSON_PRINTED.load(Ordering::Relaxed) {
        print_error_document(&error.to_string(), error.exit_code());
    }
}

/// `{"error":MESSAGE,"exit_code":CODE}` on stdout: the document of a command that failed.
pub fn print_error_document(message: &str, exit_code: u8) {
    print_json(&serde_json::json!({"error": message, "exit_code": exit_code}));
}

/// The width of the widest turn notation in a list, so a column of turns lines up.
pub fn notation_width<'a>(notations: impl Iterator<Item = &'a str>) -> usize {
    notations.map(str::len).max().unwrap_or(0)
}
