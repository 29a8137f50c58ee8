//! Progress bars for long jobs: the solver's `Progress` drawn with indicatif on stderr (hidden
//! when stderr is not a terminal).

use fanorona_solver::Progress;
use indicatif::{ProgressBar, ProgressStyle};

pub struct Bar(ProgressBar);

impl Bar {
    pub fn new() -> Bar {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:40} {bar:30} {percent:>3}% {per_sec:>14} {elapsed_precise} ETA {eta}",
            )
            .expect("the template is valid"),
        );
        Bar(bar)
    }

    /// Start a phase (for callers that drive the bar themselves).
    pub fn phase_of(&self, name: &str, total: u64) {
        self.phase(name, total);
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn phase(&self, name: &str, total: u64) {
        self.0.set_message(name.to_string());
        self.0.set_length(total);
        self.0.set_position(0);
        self.0.reset_eta();
    }

    fn advance(&self, units: u64) {
        self.0.inc(units);
    }

    fn note(&self, message: &str) {
        self.0.println(message);
    }
}
