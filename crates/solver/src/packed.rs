//! Packed certificates: a certificate's strategies written down as the strategist's choices
//! alone, about one byte per position where it moves.
//!
//! A certificate ([`crate::certificate`]) lists every strategy position with its chosen child:
//! about 26 bytes a position, so the certificate of a hard line takes megabytes, too much to keep
//! in the repository, and the machines that made them have lost them more than once. Yet all of
//! it but the choices follows from the rules: start at the root and walk, in a fixed order, the
//! positions the strategy reaches; where the opponent moves, go on to every child; where the
//! strategist moves, go on to the child it chose; stop at a position seen before and at a leaf
//! (one the rules decide, or one within the certificate's tables). The choices, in the order of
//! that walk, as indexes into each position's distinct children sorted by [`Node`], are the
//! whole packed claim (a position with one distinct child has no choice to write): unpacking
//! walks the same way and reads them back.
//!
//! So a packed certificate holds exactly the positions its strategies reach: positions a
//! certificate lists but never reaches (those of joined strategies that other turns made
//! unnecessary) are dropped. Unpacking checks nothing of the strategy's worth; it gives back a
//! [`Certificate`] for [`crate::check`] to judge, and refuses a stream of choices that does not
//! fit the walk (an index past a position's children, choices missing or left over).
//!
//! The file is bincode (`bincode = 2.0.1`, standard configuration, so an index below 251 takes
//! one byte) of `PackedCertificate`, after the magic `FANOPAK\0`.

use crate::certificate::{Certificate, CertificateError, Claim, Goal, Node, MAGIC, VERSION};
use crate::index::Material;
use bincode::{Decode, Encode};
use fanorona_engine::movegen::children;
use fanorona_engine::{Board, Color, Position, Rules};
use std::collections::{HashMap, HashSet};

/// The first bytes of every packed certificate file.
pub const PACKED_MAGIC: [u8; 8] = *b"FANOPAK\0";
/// The packed format version this code writes and reads.
pub const PACKED_VERSION: u32 = 1;

/// A certificate's header and, per claim, the choices of its strategist.
#[derive(Encode, Decode, Clone, PartialEq, Eq, Debug)]
pub struct PackedCertificate {
    pub magic: [u8; 8],
    pub version: u32,
    pub rows: u8,
    pub columns: u8,
    pub blocked: u8,
    pub table_stones: u8,
    pub table_materials: Vec<(u8, u8)>,
    pub root: Node,
    pub claims: Vec<PackedClaim>,
}

/// One claim: whose, for what, and its strategist's choices.
#[derive(Encode, Decode, Clone, PartialEq, Eq, Debug)]
pub struct PackedClaim {
    pub strategist_is_white: bool,
    pub goal: Goal,
    /// At each position where the strategist moves and has more than one distinct child, in
    /// the order of the walk, the index of its choice among those children sorted by [`Node`].
    pub choices: Vec<u32>,
}

/// Whether `bytes` start like a packed certificate.
pub fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(&PACKED_MAGIC)
}

/// `certificate` packed: its claims as choices along the walk. Refused where a claim's strategy
/// reaches a position that is neither a leaf nor in the strategy (it could not hold).
pub fn pack(certificate: &Certificate) -> Result<Vec<u8>, CertificateError> {
    PackedCertificate::of(certificate)?.to_bytes()
}

/// The certificate that `bytes` (a packed certificate file) stand for, its strategies walked
/// out again from the choices.
pub fn unpack(bytes: &[u8]) -> Result<Certificate, CertificateError> {
    PackedCertificate::from_bytes(bytes)?.unpacked()
}

impl PackedCertificate {
    /// `certificate`'s claims as choices along the walk.
    pub fn of(certificate: &Certificate) -> Result<PackedCertificate, CertificateError> {
        let walker = Walker::of(certificate)?;
        let mut claims = Vec::with_capacity(certificate.claims.len());
        for claim in &certificate.claims {
            let strategy: HashMap<Node, Option<Node>> = claim.strategy.iter().copied().collect();
            let mut choices = Vec::new();
            walker.walk(certificate.root, claim.strategist(), |node, children| {
                let chosen = strategy
                    .get(&node)
                    .copied()
                    .flatten()
                    .ok_or_else(|| walker.unanswered(node))?;
                let index = children
                    .binary_search(&chosen)
                    .map_err(|_| walker.not_a_child(node))?;
                choices.push(index as u32);
                Ok(index)
            })?;
            claims.push(PackedClaim {
                strategist_is_white: claim.strategist_is_white,
                goal: claim.goal,
                choices,
            });
        }
        Ok(PackedCertificate {
            magic: PACKED_MAGIC,
            version: PACKED_VERSION,
            rows: certificate.rows,
            columns: certificate.columns,
            blocked: certificate.blocked,
            table_stones: certificate.table_stones,
            table_materials: certificate.table_materials.clone(),
            root: certificate.root,
            claims,
        })
    }

    /// The file form: bincode, standard configuration.
    pub fn to_bytes(&self) -> Result<Vec<u8>, CertificateError> {
        bincode::encode_to_vec(self, bincode::config::standard())
            .map_err(|e| CertificateError::Format(e.to_string()))
    }

    /// Read from the file form; its magic, version and length are checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<PackedCertificate, CertificateError> {
        let format = CertificateError::Format;
        let (packed, used): (PackedCertificate, usize) =
            bincode::decode_from_slice(bytes, bincode::config::standard())
                .map_err(|e| format(format!("packed certificate cannot be decoded ({e})")))?;
        if packed.magic != PACKED_MAGIC {
            return Err(format("no FANOPAK magic at its start".into()));
        }
        if packed.version != PACKED_VERSION {
            return Err(format(format!(
                "packed format version {} (this program reads {PACKED_VERSION})",
                packed.version
            )));
        }
        if used != bytes.len() {
            return Err(format(format!(
                "{} bytes after the end of the packed certificate",
                bytes.len() - used
            )));
        }
        Ok(packed)
    }

    /// The certificate it stands for: each claim's strategy walked out from its choices.
    /// Refused where the choices do not fit the walk.
    pub fn unpacked(&self) -> Result<Certificate, CertificateError> {
        let format = CertificateError::Format;
        let mut certificate = Certificate {
            magic: MAGIC,
            version: VERSION,
            rows: self.rows,
            columns: self.columns,
            blocked: self.blocked,
            table_stones: self.table_stones,
            table_materials: self.table_materials.clone(),
            root: self.root,
            claims: Vec::new(),
        };
        let walker = Walker::of(&certificate)?;
        for claim in &self.claims {
            let strategist = match claim.strategist_is_white {
                true => Color::White,
                false => Color::Black,
            };
            let mut choices = claim.choices.iter();
            let strategy = walker.walk(certificate.root, strategist, |node, children| {
                let index = *choices
                    .next()
                    .ok_or_else(|| format("its choices end before its strategy does".into()))?
                    as usize;
                if index >= children.len() {
                    return Err(format(format!(
                        "choice {index} at {}, which has {} distinct children",
                        walker.named(node),
                        children.len()
                    )));
                }
                Ok(index)
            })?;
            if choices.len() > 0 {
                return Err(format(format!(
                    "{} choices left over after its strategy ends",
                    choices.len()
                )));
            }
            certificate.claims.push(Claim {
                strategist_is_white: claim.strategist_is_white,
                goal: claim.goal,
                strategy,
            });
        }
        Ok(certificate)
    }
}

/// The walk of the positions a strategy reaches, under a certificate's board, rules and tables.
struct Walker {
    board: Board,
    rules: Rules,
    table_stones: usize,
    table_materials: Vec<Material>,
}

impl Walker {
    fn of(certificate: &Certificate) -> Result<Walker, CertificateError> {
        let board = Board::new(certificate.rows as usize, certificate.columns as usize)
            .map_err(|e| CertificateError::Format(format!("board: {e}")))?;
        Ok(Walker {
            board,
            rules: certificate.rules().map_err(CertificateError::Format)?,
            table_stones: certificate.table_stones as usize,
            table_materials: certificate.partial_layer(),
        })
    }

    /// Whether the walk stops at `position`: the rules decide it or it is within the tables.
    fn is_leaf(&self, position: &Position) -> bool {
        let material = Material::new(
            position.mover.count() as usize,
            position.waiting.count() as usize,
        );
        self.rules.outcome(&self.board, position).is_some()
            || material.stones() <= self.table_stones
            || self.table_materials.contains(&material)
    }

    /// Walks from `root` every position that `strategist`'s strategy reaches and the walk does
    /// not stop at, depth first, children in [`Node`] order; `choose` picks the strategist's
    /// child (an index into the sorted distinct children) where it moves. Returns the strategy
    /// walked, in the order of the walk.
    fn walk(
        &self,
        root: Node,
        strategist: Color,
        mut choose: impl FnMut(Node, &[Node]) -> Result<usize, CertificateError>,
    ) -> Result<Vec<(Node, Option<Node>)>, CertificateError> {
        let mut strategy = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![root];
        let mut positions = Vec::new();
        while let Some(node) = stack.pop() {
            let position = node.position();
            if self.is_leaf(&position) || !seen.insert(node) {
                continue;
            }
            positions.clear();
            children(&self.board, &position, &mut positions);
            let mut nodes: Vec<Node> = positions.iter().map(Node::of).collect();
            nodes.sort_unstable();
            if position.side == strategist {
                // One distinct child leaves nothing to choose, and nothing is written.
                let chosen = match nodes.len() {
                    1 => nodes[0],
                    _ => nodes[choose(node, &nodes)?],
                };
                strategy.push((node, Some(chosen)));
                stack.push(chosen);
            } else {
                strategy.push((node, None));
                stack.extend(nodes.iter().rev());
            }
        }
        Ok(strategy)
    }

    fn named(&self, node: Node) -> String {
        fanorona_engine::notation::format_position(&self.board, &node.position())
    }

    fn unanswered(&self, node: Node) -> CertificateError {
        CertificateError::Format(format!(
            "its strategy reaches {}, which is neither a leaf nor in the strategy",
            self.named(node)
        ))
    }

    fn not_a_child(&self, node: Node) -> CertificateError {
        CertificateError::Format(format!(
            "its choice at {} is not a position after one of its turns",
            self.named(node)
        ))
    }
}
