//! Room on the disk for a build, checked before it starts. A build saves its state (for
//! 4v5 + 5v4 for values alone, values and frontier, 14.9 GB; for a full build, a byte per
//! position) to a temporary file beside the last one and then renames it, and at the end
//! writes its table files (14.1 GB of value files for 4v5 + 5v4; entries and values for a
//! full build) while the state is still there: at its peak it holds its state twice, or its
//! state and its files. A save that finds the disk full stops the build (the last state is
//! kept), hours in; measured before the start, the same shortfall is said at once.

use std::path::Path;

/// What a build needs on the disk beyond what it holds there already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    /// Bytes of the saved states of the systems it solves (side by side, for a full build
    /// of small systems).
    pub states: u64,
    /// The most bytes it writes beside them at once: a second state while one is saved, or
    /// one system's table files at the end.
    pub beside: u64,
    /// Bytes of the saved states already there (a build going on), 0 for none.
    pub saved: u64,
}

/// One system of a build: its saved state, the table files it writes, and the bytes of its
/// state already saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemFiles {
    pub state: u64,
    pub written: u64,
    pub saved: u64,
}

impl Room {
    /// The room of a build that solves `systems` at once: all their states, and beside them
    /// the largest of a second state or one system's files (the systems save and write one
    /// at a time).
    pub fn of_systems(systems: impl IntoIterator<Item = SystemFiles>) -> Room {
        let mut room = Room {
            states: 0,
            beside: 0,
            saved: 0,
        };
        for system in systems {
            room.states += system.state;
            room.beside = room.beside.max(system.state).max(system.written);
            room.saved += system.saved;
        }
        room
    }

    /// The bytes free that the build needs at its peak, less the states already there.
    pub fn needed(&self) -> u64 {
        (self.states + self.beside).saturating_sub(self.saved)
    }

    /// None if `free` bytes are enough (or unknown), else why not.
    pub fn shortfall(&self, free: Option<u64>) -> Option<String> {
        let free = free?;
        let needed = self.needed();
        (free < needed).then(|| {
            format!(
                "{} free, and the build needs {} more at its peak ({} of saved state, and \
                 {} beside it at once: a state being saved or the table files written; {} \
                 already there): free some room, or build in another directory",
                gigabytes(free),
                gigabytes(needed),
                gigabytes(self.states),
                gigabytes(self.beside),
                gigabytes(self.saved),
            )
        })
    }
}

fn gigabytes(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / 1e9)
}

/// The bytes free to this user on the file system of `directory` (None where unknown).
#[cfg(target_os = "linux")]
pub fn free_bytes(directory: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(directory.as_os_str().as_bytes()).ok()?;
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a valid C string, and statvfs writes only into `stats`.
    let result = unsafe { libc::statvfs(path.as_ptr(), stats.as_mut_ptr()) };
    if result != 0 {
        return None;
    }
    // SAFETY: statvfs returned 0, so it filled `stats`.
    let stats = unsafe { stats.assume_init() };
    // The two fields are of other widths on other platforms.
    #[allow(clippy::unnecessary_cast)]
    Some(stats.f_bavail as u64 * stats.f_frsize as u64)
}

/// Elsewhere the room is not checked.
#[cfg(not(target_os = "linux"))]
pub fn free_bytes(_directory: &Path) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4v5 + 5v4 with frontier blocks of 16: the figures of the fifty-fifth session.
    const FOUR_FIVE: SystemFiles = SystemFiles {
        state: 14_933_355_711,
        written: 14_054_922_934,
        saved: 0,
    };

    #[test]
    fn a_build_needs_twice_its_state_less_the_state_already_saved() {
        assert_eq!(Room::of_systems([FOUR_FIVE]).needed(), 2 * 14_933_355_711);
        let going_on = SystemFiles {
            saved: FOUR_FIVE.state,
            ..FOUR_FIVE
        };
        assert_eq!(Room::of_systems([going_on]).needed(), 14_933_355_711);
        // Table files larger than the state (a full build's entries and values) set the peak.
        let small_state = SystemFiles {
            state: 10,
            written: 30,
            saved: 0,
        };
        assert_eq!(Room::of_systems([small_state]).needed(), 40);
    }

    #[test]
    fn systems_side_by_side_need_all_their_states_and_the_largest_thing_written_beside() {
        let system = |state, written| SystemFiles {
            state,
            written,
            saved: 0,
        };
        let room = Room::of_systems([system(10, 30), system(50, 20), system(5, 5)]);
        assert_eq!(room.needed(), 65 + 50);
        let going_on = SystemFiles {
            saved: 10,
            ..system(10, 30)
        };
        assert_eq!(
            Room::of_systems([going_on, system(50, 20)]).needed(),
            60 + 50 - 10
        );
    }

    #[test]
    fn too_little_room_is_said_with_the_figures_and_enough_or_unknown_is_not() {
        let going_on = Room::of_systems([SystemFiles {
            saved: FOUR_FIVE.state,
            ..FOUR_FIVE
        }]);
        // The disk of the fifty-fifth session, where a save of this state failed.
        let said = going_on.shortfall(Some(14_000_000_000)).unwrap();
        assert!(
            said.starts_with("14.0 GB free, and the build needs 14.9 GB more"),
            "{said}"
        );
        assert_eq!(going_on.shortfall(Some(15_000_000_000)), None);
        assert_eq!(going_on.shortfall(None), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_directory_has_some_room_and_one_that_is_not_there_none_known() {
        let directory = tempfile::tempdir().unwrap();
        assert!(free_bytes(directory.path()).is_some_and(|free| free > 0));
        assert_eq!(
            free_bytes(Path::new("/nonexistent-fanorona-directory")),
            None
        );
    }
}
