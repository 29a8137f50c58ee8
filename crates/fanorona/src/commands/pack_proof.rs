//! `fanorona pack-proof`: a certificate rewritten as its strategist's choices alone, small
//! enough to keep in a repository (`fanorona_solver::packed`).

use crate::output::{print_json, CliError};
use clap::Args;
use fanorona_solver::Certificate;
use serde::Serialize;
use std::path::PathBuf;

/// Pack a certificate: keep only the strategist's choice at each position its strategy reaches
/// (about one byte each), the rest being what the rules give. `check-proof` reads packed files
/// as it reads the others. Packing judges nothing: check the packed file with `check-proof`.
#[derive(Args)]
pub struct PackProofArgs {
    /// The certificate to pack (as `solve --certificate` or `check-proof --write` wrote it).
    input: PathBuf,
    /// The packed certificate to write.
    output: PathBuf,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PackReport {
    input: String,
    output: String,
    /// Strategy positions in the certificate, and those its strategies reach (all the
    /// packed file keeps).
    positions: usize,
    positions_kept: usize,
    bytes_in: u64,
    bytes_out: usize,
}

impl PackProofArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let failure = |e: fanorona_solver::CertificateError| CliError::Failure(e.to_string());
        let certificate = Certificate::read(&self.input).map_err(failure)?;
        let bytes_out = certificate.write_packed(&self.output).map_err(failure)?;
        // Read back what was written: the strategies walked out of the choices alone.
        let unpacked = Certificate::read(&self.output).map_err(failure)?;
        let report = PackReport {
            input: self.input.display().to_string(),
            output: self.output.display().to_string(),
            positions: certificate.size(),
            positions_kept: unpacked.size(),
            bytes_in: std::fs::metadata(&self.input).map_or(0, |m| m.len()),
            bytes_out,
        };
        if self.json {
            print_json(&report);
        } else {
            println!(
                "{} -> {}: {} of {} strategy positions reached and kept, {} bytes -> {} bytes",
                report.input,
                report.output,
                report.positions_kept,
                report.positions,
                report.bytes_in,
                report.bytes_out
            );
        }
        Ok(())
    }
}
