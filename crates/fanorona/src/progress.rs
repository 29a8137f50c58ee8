//! Progress for long jobs: the solver's `Progress` drawn with indicatif on stderr. When stderr
//! is not a terminal (a job under `nohup`, output to a log), a plain line every 30 seconds
//! instead, with the rate since the previous line, so that a log shows how far the job got.

use fanorona_solver::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Bar {
    bar: ProgressBar,
    /// For plain lines: when the last was written, and how much was done then.
    plain: Option<Mutex<Mark>>,
}

/// Where the job stood at the last plain line; a line gives the rate since then.
struct Mark {
    at: Instant,
    done: u64,
}

impl Mark {
    fn now(done: u64) -> Mark {
        Mark {
            at: Instant::now(),
            done,
        }
    }
}

const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// Write one line to stderr, and go on if it cannot be written: `eprintln!` panics then, and a
/// full disk under a log (a 5x9 search's saves filled one) killed a search that had handled
/// its own failed save, losing the 20 minutes since the last one.
fn log_line(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

impl Bar {
    pub fn new() -> Bar {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:40} {bar:30} {percent:>3}% {per_sec:>14} {elapsed_precise} ETA {eta}",
            )
            .expect("the template is valid"),
        );
        let plain = (!std::io::stderr().is_terminal()).then(|| Mutex::new(Mark::now(0)));
        Bar { bar, plain }
    }

    /// Start a phase (for callers that drive the bar themselves).
    pub fn phase_of(&self, name: &str, total: u64) {
        self.phase(name, total);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn plain_line(&self) {
        let Some(mark) = &self.plain else { return };
        let mut mark = mark.lock().expect("progress lock");
        let since = mark.at.elapsed();
        if since < PLAIN_EVERY {
            return;
        }
        let done = self.bar.position();
        let rate = done.saturating_sub(mark.done) as f64 / since.as_secs_f64();
        *mark = Mark::now(done);
        log_line(format_args!(
            "{}: {} of {} ({:.0}/s, {:.0} s)",
            self.bar.message(),
            done,
            self.bar.length().unwrap_or(0),
            rate,
            self.bar.elapsed().as_secs_f64()
        ));
    }
}

impl Progress for Bar {
    fn phase(&self, name: &str, total: u64) {
        self.bar.set_message(name.to_string());
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.reset_eta();
        self.bar.reset_elapsed();
        if let Some(mark) = &self.plain {
            *mark.lock().expect("progress lock") = Mark::now(0);
        }
    }

    fn advance(&self, units: u64) {
        self.bar.inc(units);
        self.plain_line();
    }

    fn resumed(&self, units: u64) {
        self.bar.inc_length(units);
        self.bar.inc(units);
        if let Some(mark) = &self.plain {
            mark.lock().expect("progress lock").done += units;
        }
    }

    fn note(&self, message: &str) {
        self.bar.println(message);
        if self.plain.is_some() {
            log_line(format_args!("{message}"));
        }
    }
}
