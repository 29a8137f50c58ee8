//! One table entry: a position's value for the side to move and its distance to the end.

use fanorona_engine::Value;
use std::fmt;

/// Value and distance in 16 bits: 0 is a draw (and, while building, "not yet known"); otherwise
/// `(distance + 1) << 1 | won`. The distance is in plies to the end of the game under best play:
/// the winner hurries, the loser delays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Entry(pub u16);

impl Entry {
    pub const DRAW: Entry = Entry(0);

    /// The largest distance an entry holds.
    pub const MAX_DISTANCE: u16 = (u16::MAX >> 1) - 1;

    pub fn win(distance: u16) -> Entry {
        assert!(
            distance <= Self::MAX_DISTANCE,
            "distance {distance} does not fit an entry"
        );
        Entry((distance + 1) << 1 | 1)
    }

    pub fn loss(distance: u16) -> Entry {
        assert!(
            distance <= Self::MAX_DISTANCE,
            "distance {distance} does not fit an entry"
        );
        Entry((distance + 1) << 1)
    }

    pub fn value(self) -> Value {
        match self.0 {
            0 => Value::Draw,
            v if v & 1 == 1 => Value::Win,
            _ => Value::Loss,
        }
    }

    /// Plies to the end under best play; `None` for a draw.
    pub fn distance(self) -> Option<u16> {
        (self.0 != 0).then(|| (self.0 >> 1) - 1)
    }

    /// The entry of a position one ply before this one (the other side to move).
    pub fn one_ply_earlier(self) -> Entry {
        match (self.value(), self.distance()) {
            (Value::Loss, Some(d)) => Entry::win(d + 1),
            (Value::Win, Some(d)) => Entry::loss(d + 1),
            _ => Entry::DRAW,
        }
    }

    /// The entry of a position whose turns lead to positions with `children` entries (for the
    /// side to move there): win by the quickest loss of the opponent, else lose as slowly as
    /// possible if every turn loses, else draw.
    pub fn from_children(children: impl IntoIterator<Item = Entry>) -> Entry {
        let mut fastest_win: Option<u16> = None;
        let mut slowest_loss: Option<u16> = Some(0);
        for child in children {
            match (child.value(), child.distance()) {
                (Value::Loss, Some(d)) => {
                    fastest_win = Some(fastest_win.map_or(d + 1, |w| w.min(d + 1)))
                }
                (Value::Win, Some(d)) => slowest_loss = slowest_loss.map(|l| l.max(d + 1)),
                _ => slowest_loss = None,
            }
        }
        match (fastest_win, slowest_loss) {
            (Some(d), _) => Entry::win(d),
            (None, Some(d)) if d > 0 => Entry::loss(d),
            _ => Entry::DRAW,
        }
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.distance() {
            Some(d) => write!(f, "{}({d})", self.value().name()),
            None => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for d in [0, 1, 2, 77, Entry::MAX_DISTANCE] {
            assert_eq!(
                (Entry::win(d).value(), Entry::win(d).distance()),
                (Value::Win, Some(d))
            );
            assert_eq!(
                (Entry::loss(d).value(), Entry::loss(d).distance()),
                (Value::Loss, Some(d))
            );
        }
        assert_eq!(Entry::DRAW.distance(), None);
    }

    #[test]
    fn children_combine_by_best_play() {
        use Entry as E;
        assert_eq!(
            E::from_children([E::win(3), E::loss(4), E::loss(2), E::DRAW]),
            E::win(3)
        );
        assert_eq!(
            E::from_children([E::win(3), E::win(7), E::win(1)]),
            E::loss(8)
        );
        assert_eq!(E::from_children([E::win(3), E::DRAW]), E::DRAW);
    }
}
