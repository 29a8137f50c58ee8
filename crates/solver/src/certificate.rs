//! Certificates: a solved value written down as strategies that anyone can check.
//!
//! A certificate holds one or two *claims*. A claim names a side (the strategist) and a goal:
//! - **win**: the strategist can force a win;
//! - **not lose**: the strategist can keep the game from being lost (a draw or better).
//!
//! Its strategy is a set of positions: for each one where the strategist moves, the chosen turn
//! (given by the child position it leads to, since distinct turns with the same result are the
//! same choice); where the opponent moves, nothing, because every turn must be answered. Every
//! position the strategy reaches is either in the set or a *leaf*: a position the rules decide,
//! or one within the endgame tables (up to `table_stones` stones, and of the materials of
//! `table_materials` above that: a partial layer), and each leaf must be good for
//! the strategist. For a win, following the strategy must also never loop; for "not lose", a loop
//! is fine: it is infinite play, a draw (this is the repetition leaf of the proof, recorded as a
//! turn back into the set).
//!
//! Values: a win of the side to move is one win claim for it; a loss is a win claim for the
//! other side; a draw is two "not lose" claims, one per side.
//!
//! The file is bincode (`bincode = 2.0.1`, standard configuration) of [`Certificate`], or
//! the same packed into the strategist's choices alone ([`crate::packed`]), which is read alike.
//! [`crate::check`] verifies one with the rules and the tables alone.

use crate::index::Material;
use bincode::{Decode, Encode};
use fanorona_engine::{Bitboard, Blocked, Board, Color, Position, Rules};
use std::fmt;
use std::path::Path;

/// The first bytes of every certificate file.
pub const MAGIC: [u8; 8] = *b"FANOPRF\0";
/// The format version this code writes and reads. Version 1 (no `table_materials`) is read
/// too.
pub const VERSION: u32 = 2;

/// A position by colour.
#[derive(Encode, Decode, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Node {
    pub white: u64,
    pub black: u64,
    pub white_to_move: bool,
}

impl Node {
    pub fn of(position: &Position) -> Node {
        Node {
            white: position.white().0,
            black: position.black().0,
            white_to_move: position.side == Color::White,
        }
    }

    pub fn position(self) -> Position {
        let side = if self.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        Position::from_colors(Bitboard(self.white), Bitboard(self.black), side)
    }
}

/// What a claim says its strategist can do.
#[derive(Encode, Decode, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    Win,
    NotLose,
}

/// One side's strategy for one goal.
#[derive(Encode, Decode, Clone, PartialEq, Eq, Debug)]
pub struct Claim {
    pub strategist_is_white: bool,
    pub goal: Goal,
    /// Positions of the strategy, each with the strategist's choice where it moves.
    pub strategy: Vec<(Node, Option<Node>)>,
}

impl Claim {
    pub fn strategist(&self) -> Color {
        if self.strategist_is_white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The strategies of `parts` (claims of `strategist` for positions after turns from `at`)
    /// joined into one claim for `goal` that holds `at` too: with `choice` there (the child the
    /// strategist's turn leads to) where it moves, with none where it waits, so that a checker
    /// asks for every turn from `at` to be answered. Where several strategies choose at the same
    /// position, the first part's choice stays. Whether the result holds is the checker's to
    /// say: joining only writes the strategies down together.
    pub fn joined(
        strategist: Color,
        goal: Goal,
        parts: impl IntoIterator<Item = Claim>,
        at: &Position,
        choice: Option<Node>,
    ) -> Claim {
        let mut strategy = vec![(Node::of(at), choice)];
        for part in parts {
            strategy.extend(part.strategy);
        }
        // Stable: of the same position, the entry that came first stays.
        strategy.sort_by_key(|(node, _)| *node);
        strategy.dedup_by_key(|(node, _)| *node);
        Claim {
            strategist_is_white: strategist == Color::White,
            goal,
            strategy,
        }
    }
}

/// A solved position and the claims that prove its value.
#[derive(Encode, Decode, Clone, PartialEq, Eq, Debug)]
pub struct Certificate {
    pub magic: [u8; 8],
    pub version: u32,
    pub rows: u8,
    pub columns: u8,
    /// 0: a blocked side to move loses; 1: it is a draw.
    pub blocked: u8,
    /// Positions with at most this many stones are leaves valued by the endgame tables (0: none).
    pub table_stones: u8,
    /// Materials above `table_stones` whose positions are table leaves too (stones to move,
    /// stones waiting), in order: a partial layer of tables, e.g. `[(4, 4)]`.
    pub table_materials: Vec<(u8, u8)>,
    pub root: Node,
    pub claims: Vec<Claim>,
}

/// Format version 1: no `table_materials`.
#[derive(Decode)]
struct CertificateV1 {
    magic: [u8; 8],
    version: u32,
    rows: u8,
    columns: u8,
    blocked: u8,
    table_stones: u8,
    root: Node,
    claims: Vec<Claim>,
}

impl From<CertificateV1> for Certificate {
    fn from(old: CertificateV1) -> Certificate {
        Certificate {
            magic: old.magic,
            version: old.version,
            rows: old.rows,
            columns: old.columns,
            blocked: old.blocked,
            table_stones: old.table_stones,
            table_materials: Vec::new(),
            root: old.root,
            claims: old.claims,
        }
    }
}

impl Certificate {
    /// The rules it was made under, from its blocked-side rule (0 or 1; any other is named).
    pub fn rules(&self) -> Result<Rules, String> {
        match self.blocked {
            0 => Ok(Rules {
                blocked: Blocked::Loss,
            }),
            1 => Ok(Rules {
                blocked: Blocked::Draw,
            }),
            other => Err(format!("unknown blocked-side rule {other}")),
        }
    }

    /// The materials of the partial layer above `table_stones` whose positions are leaves too.
    pub fn partial_layer(&self) -> Vec<Material> {
        self.table_materials
            .iter()
            .map(|&(mover, waiting)| Material::new(mover as usize, waiting as usize))
            .collect()
    }

    /// An empty certificate of `root`; table leaves are the positions of at most
    /// `table_stones` stones and those of `table_materials` (each (stones to move, waiting)).
    pub fn new(
        board: &Board,
        rules: Rules,
        table_stones: usize,
        table_materials: &[(usize, usize)],
        root: &Position,
    ) -> Certificate {
        Certificate {
            magic: MAGIC,
            version: VERSION,
            rows: board.rows() as u8,
            columns: board.columns() as u8,
            blocked: match rules.blocked {
                Blocked::Loss => 0,
                Blocked::Draw => 1,
            },
            table_stones: table_stones as u8,
            table_materials: table_materials
                .iter()
                .map(|&(mover, waiting)| (mover as u8, waiting as u8))
                .collect(),
            root: Node::of(root),
            claims: Vec::new(),
        }
    }

    /// The claims of several certificates of one position, as one certificate: two bounds
    /// found apart (a hold for each side) make a value together. They must be of the same
    /// board, rules and root; the table leaves go up to the largest `table_stones`, with every
    /// partial-layer material of either above that (a strategy that holds with smaller tables
    /// holds with larger ones: their entries are exact).
    pub fn combine(certificates: Vec<Certificate>) -> Result<Certificate, CertificateError> {
        let mut all = certificates.into_iter();
        let mut combined = all
            .next()
            .ok_or_else(|| CertificateError::Format("no certificate to combine".into()))?;
        for other in all {
            let same = (other.rows, other.columns, other.blocked, other.root)
                == (
                    combined.rows,
                    combined.columns,
                    combined.blocked,
                    combined.root,
                );
            if !same {
                return Err(CertificateError::Format(
                    "certificates of different positions, boards or rules cannot be combined"
                        .into(),
                ));
            }
            combined.table_stones = combined.table_stones.max(other.table_stones);
            combined.table_materials.extend(other.table_materials);
            combined.claims.extend(other.claims);
        }
        let stones = combined.table_stones;
        combined
            .table_materials
            .retain(|&(mover, waiting)| mover + waiting > stones);
        combined.table_materials.sort();
        combined.table_materials.dedup();
        Ok(combined)
    }

    /// How many strategy positions all claims hold.
    pub fn size(&self) -> usize {
        self.claims.iter().map(|c| c.strategy.len()).sum()
    }

    /// Writes it to `path`: packed ([`crate::packed`]) where the file name ends in `.fnpack`,
    /// whole otherwise.
    pub fn write(&self, path: &Path) -> Result<(), CertificateError> {
        if path
            .extension()
            .is_some_and(|extension| extension == "fnpack")
        {
            return self.write_packed(path).map(|_| ());
        }
        let bytes = bincode::encode_to_vec(self, bincode::config::standard())
            .map_err(|e| CertificateError::Format(e.to_string()))?;
        std::fs::write(path, bytes).map_err(|e| CertificateError::Io(path.display().to_string(), e))
    }

    pub fn read(path: &Path) -> Result<Certificate, CertificateError> {
        let bytes =
            std::fs::read(path).map_err(|e| CertificateError::Io(path.display().to_string(), e))?;
        Certificate::from_bytes(&bytes).map_err(|error| match error {
            CertificateError::Format(why) => {
                CertificateError::Format(format!("{}: {why}", path.display()))
            }
            other => other,
        })
    }

    /// Writes it packed ([`crate::packed`]): the strategies' choices alone, positions that
    /// no strategy reaches dropped. Returns the bytes written.
    pub fn write_packed(&self, path: &Path) -> Result<usize, CertificateError> {
        let bytes = crate::packed::pack(self)?;
        std::fs::write(path, &bytes)
            .map_err(|e| CertificateError::Io(path.display().to_string(), e))?;
        Ok(bytes.len())
    }

    /// A certificate from its file's bytes, packed ([`crate::packed`]) or not.
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, CertificateError> {
        if crate::packed::is_packed(bytes) {
            return crate::packed::unpack(bytes);
        }
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(CertificateError::Format(
                "no FANOPRF magic at its start".into(),
            ));
        }
        let version = bytes
            .get(8..)
            .and_then(|rest| {
                bincode::decode_from_slice::<u32, _>(rest, bincode::config::standard()).ok()
            })
            .map(|(version, _)| version);
        let decode_error = |e: bincode::error::DecodeError| {
            CertificateError::Format(format!("cannot be decoded ({e})"))
        };
        let (certificate, used): (Certificate, usize) = match version {
            Some(1) => {
                let (old, used): (CertificateV1, usize) =
                    bincode::decode_from_slice(bytes, bincode::config::standard())
                        .map_err(decode_error)?;
                (old.into(), used)
            }
            Some(VERSION) => bincode::decode_from_slice(bytes, bincode::config::standard())
                .map_err(decode_error)?,
            Some(other) => {
                return Err(CertificateError::Format(format!(
                    "format version {other} (this program reads 1 and {VERSION})"
                )))
            }
            None => return Err(CertificateError::Format("no format version".into())),
        };
        if used != bytes.len() {
            return Err(CertificateError::Format(format!(
                "{} bytes after the end of the certificate",
                bytes.len() - used
            )));
        }
        Ok(certificate)
    }
}

/// A certificate that cannot be read.
#[derive(Debug)]
pub enum CertificateError {
    Io(String, std::io::Error),
    Format(String),
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertificateError::Io(path, error) => write!(f, "{path}: {error}"),
            CertificateError::Format(why) => write!(f, "not a valid certificate: {why}"),
        }
    }
}

impl std::error::Error for CertificateError {}
