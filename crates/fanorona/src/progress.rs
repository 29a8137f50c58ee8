//! Progress for long jobs: the solver's `Progress` drawn with indicatif on stderr. When stderr
//! is not a terminal (a job under `nohup`, output to a log), a plain line every 30 seconds
//! instead, with the share done, the rate since the previous line and the time left at the
//! phase's rate so far, so that a log shows how far the job got and when it will end.

use fanorona_solver::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Bar {
    bar: ProgressBar,
    /// For plain lines: where the job stood at the last line and at the phase's start.
    plain: Option<Mutex<Plain>>,
}

struct Plain {
    /// At the last line: a line gives the rate since then.
    last: Mark,
    /// Units of the phase an earlier run did: the time left is what remains at this run's
    /// rate over the phase (the bar's elapsed time), steadier than the rate since the last line.
    resumed: u64,
}

impl Plain {
    fn new() -> Plain {
        Plain {
            last: Mark::now(0),
            resumed: 0,
        }
    }
}

/// Where the job stood at a moment: what was done by then.
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
        let plain = (!std::io::stderr().is_terminal()).then(|| Mutex::new(Plain::new()));
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
        let Some(plain) = &self.plain else { return };
        let mut plain = plain.lock().expect("progress lock");
        let since = plain.last.at.elapsed();
        if since < PLAIN_EVERY {
            return;
        }
        let done = self.bar.position();
        let total = self.bar.length().unwrap_or(0);
        let rate = done.saturating_sub(plain.last.done) as f64 / since.as_secs_f64();
        let phase_rate =
            done.saturating_sub(plain.resumed) as f64 / self.bar.elapsed().as_secs_f64();
        plain.last = Mark::now(done);
        let line = PlainLine {
            name: &self.bar.message(),
            done,
            total,
            rate,
            elapsed: self.bar.elapsed(),
            left: time_left(total.saturating_sub(done), phase_rate),
        };
        log_line(format_args!("{line}"));
    }
}

/// One plain progress line: `3v6+6v3: sweep 2: 1200 of 4800 (25.0%, 9000/s, 120 s, about
/// 6 min 40 s left)`.
struct PlainLine<'a> {
    name: &'a str,
    done: u64,
    total: u64,
    /// Units a second since the previous line.
    rate: f64,
    elapsed: Duration,
    /// At the phase's rate so far; `None` while nothing of the phase is done yet.
    left: Option<Duration>,
}

impl std::fmt::Display for PlainLine<'_> {
    fn fmt(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        // A phase's total can be what was waiting at its start, and work found during the
        // phase can be done in it too (a values-only sweep passes on positions decided ahead
        // of it): past the total, no share and no time left, which would only mislead.
        let past_total = self.total > 0 && self.done > self.total;
        if past_total {
            write!(
                out,
                "{}: {}, past the {} waiting at its start (",
                self.name, self.done, self.total
            )?;
        } else {
            write!(out, "{}: {} of {} (", self.name, self.done, self.total)?;
        }
        if self.total > 0 && !past_total {
            let percent = 100.0 * self.done as f64 / self.total as f64;
            write!(out, "{percent:.1}%, ")?;
        }
        write!(
            out,
            "{:.0}/s, {:.0} s",
            self.rate,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(left) = self.left.filter(|_| !past_total) {
            write!(out, ", about {} left", Span(left))?;
        }
        write!(out, ")")
    }
}

/// The time that `remaining` units take at `rate` units a second; `None` at no rate.
fn time_left(remaining: u64, rate: f64) -> Option<Duration> {
    (rate > 0.0 && rate.is_finite()).then(|| Duration::from_secs_f64(remaining as f64 / rate))
}

/// A span of time for a person: `45 s`, `6 min 40 s`, `2 h 5 min`, `3 d 4 h`.
struct Span(Duration);

impl std::fmt::Display for Span {
    fn fmt(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        let seconds = self.0.as_secs();
        let (days, hours, minutes) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60);
        match seconds {
            0..60 => write!(out, "{seconds} s"),
            60..3_600 => write!(out, "{minutes} min {} s", seconds % 60),
            3_600..86_400 => write!(out, "{hours} h {minutes} min"),
            _ => write!(out, "{days} d {hours} h"),
        }
    }
}

impl Progress for Bar {
    fn phase(&self, name: &str, total: u64) {
        self.bar.set_message(name.to_string());
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.reset_eta();
        self.bar.reset_elapsed();
        if let Some(plain) = &self.plain {
            *plain.lock().expect("progress lock") = Plain::new();
        }
    }

    fn advance(&self, units: u64) {
        self.bar.inc(units);
        // The bar, unlike the plain line, has nowhere to say it went past its total: it grows
        // the total instead, and stays at 100% rather than going past it.
        if self.plain.is_none() && self.bar.length().is_some_and(|l| self.bar.position() > l) {
            self.bar.set_length(self.bar.position());
        }
        self.plain_line();
    }

    fn resumed(&self, units: u64) {
        self.bar.inc_length(units);
        self.bar.inc(units);
        if let Some(plain) = &self.plain {
            let mut plain = plain.lock().expect("progress lock");
            plain.last.done += units;
            plain.resumed += units;
        }
    }

    fn note(&self, message: &str) {
        self.bar.println(message);
        if self.plain.is_some() {
            log_line(format_args!("{message}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_reads_in_the_two_largest_units() {
        let span = |seconds| Span(Duration::from_secs(seconds)).to_string();
        assert_eq!(span(0), "0 s");
        assert_eq!(span(59), "59 s");
        assert_eq!(span(60), "1 min 0 s");
        assert_eq!(span(400), "6 min 40 s");
        assert_eq!(span(7_500), "2 h 5 min");
        assert_eq!(span(86_399), "23 h 59 min");
        assert_eq!(span(273_600), "3 d 4 h");
    }

    #[test]
    fn the_time_left_is_the_rest_at_the_rate_and_none_without_a_rate() {
        assert_eq!(time_left(3_600, 2.0), Some(Duration::from_secs(1_800)));
        assert_eq!(time_left(0, 2.0), Some(Duration::ZERO));
        assert_eq!(time_left(100, 0.0), None);
    }

    #[test]
    fn a_plain_line_says_the_share_done_and_the_time_left() {
        let line = PlainLine {
            name: "3v6+6v3: sweep 2",
            done: 1_200,
            total: 4_800,
            rate: 9_000.4,
            elapsed: Duration::from_secs(120),
            left: time_left(3_600, 9.0),
        };
        assert_eq!(
            line.to_string(),
            "3v6+6v3: sweep 2: 1200 of 4800 (25.0%, 9000/s, 120 s, about 6 min 40 s left)"
        );
        let unknown = PlainLine {
            total: 0,
            left: None,
            ..line
        };
        assert_eq!(
            unknown.to_string(),
            "3v6+6v3: sweep 2: 1200 of 0 (9000/s, 120 s)"
        );
    }

    #[test]
    fn a_plain_line_past_its_total_says_so_without_a_share_or_a_time_left() {
        let line = PlainLine {
            name: "3v6+6v3: paika, sweep 1",
            done: 2_894_331_200,
            total: 2_845_210_848,
            rate: 9_534_200.0,
            elapsed: Duration::from_secs(360),
            left: time_left(0, 9.0),
        };
        assert_eq!(
            line.to_string(),
            "3v6+6v3: paika, sweep 1: 2894331200, past the 2845210848 waiting at its start \
             (9534200/s, 360 s)"
        );
        let at_total = PlainLine {
            done: 2_845_210_848,
            ..line
        };
        assert_eq!(
            at_total.to_string(),
            "3v6+6v3: paika, sweep 1: 2845210848 of 2845210848 (100.0%, 9534200/s, 360 s, \
             about 0 s left)"
        );
    }
}
