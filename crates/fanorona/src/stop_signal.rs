//! The signals that stop a long job (a table build or verification, a search) cleanly, so that
//! it saves its state before it exits: Ctrl-C (SIGINT), SIGTERM (`kill`, a shutdown) and SIGHUP
//! (a closed terminal). A process started with SIGHUP ignored (`nohup`) keeps ignoring it, as
//! its user asked: a job left running under `nohup` goes on when its terminal closes.

/// Call `handler` on each stop signal (on a thread of its own, not in the signal's context).
pub fn on_stop_signal(handler: impl FnMut() + Send + 'static) {
    let hangups_ignored = hangups_ignored();
    // An error here is a second handler in one process: the first one stays.
    let _ = ctrlc::set_handler(handler);
    if hangups_ignored {
        ignore_hangups();
    }
}

/// Whether SIGHUP is ignored now (as `nohup` leaves it for the program it starts).
#[cfg(unix)]
fn hangups_ignored() -> bool {
    // SAFETY: reads SIGHUP's disposition into a zeroed `sigaction`, changing nothing.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGHUP, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// Ignore SIGHUP again, over the handler `ctrlc` set for it.
#[cfg(unix)]
fn ignore_hangups() {
    // SAFETY: sets SIGHUP's disposition back to "ignored", as it was when the process started.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn hangups_ignored() -> bool {
    false
}

#[cfg(not(unix))]
fn ignore_hangups() {}
