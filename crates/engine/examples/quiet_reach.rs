//! How many positions of the same material play can reach from a position by quiet turns alone
//! (paikas, no capture), ply by ply, up to a bound on the positions kept.
//!
//! A draw proved by search rests on a held set: positions from which the defender keeps the
//! attacker from winning, closed under every turn of the attacker and holding one turn of the
//! defender at each of the defender's positions. Where neither side captures, a search that does
//! not yet know the defender's right turns meets the whole quiet graph this counts: the scale of
//! what it has to pick a held set out of (the set itself can be much smaller).
//!
//! ```text
//! cargo run --release -p fanorona-engine --example quiet_reach -- FEN [TURNS] [MAX_POSITIONS]
//! ```
//! e.g. `… -- "2B2B1BB/W5BBB/8B/3W5/WW2W2W1 b" "f5-e5 d2-d3" 10000000`.
use fanorona_engine::movegen::{has_capture, paika_children};
use fanorona_engine::{parse_position, parse_turn, Board, Position};
use std::collections::HashSet;
use std::process::ExitCode;

/// Positions kept when no bound is given (about 100 bytes each at the peak).
const DEFAULT_MAX_POSITIONS: usize = 20_000_000;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            eprintln!("usage: quiet_reach FEN [TURNS] [MAX_POSITIONS]");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let fen = args.first().ok_or("no position given")?;
    let (board, mut position) = parse_position(fen).map_err(|e| format!("{fen}: {e}"))?;
    for text in args.get(1).map_or("", String::as_str).split_whitespace() {
        position = parse_turn(&board, &position, text)
            .map_err(|e| format!("turn {text}: {e}"))?
            .result;
    }
    let max_positions = match args.get(2) {
        Some(text) => text
            .parse()
            .map_err(|_| format!("'{text}' is not a number of positions"))?,
        None => DEFAULT_MAX_POSITIONS,
    };
    count_quiet_reach(&board, position, max_positions);
    Ok(())
}

/// Breadth first from `start`, printing after each ply how many positions are new and how many
/// in all, until no new one comes or `max_positions` are kept (then within the ply).
fn count_quiet_reach(board: &Board, start: Position, max_positions: usize) {
    let mut seen = HashSet::from([start]);
    let mut frontier = vec![start];
    let mut buffer = Vec::new();
    let mut ply = 0;
    while !frontier.is_empty() && seen.len() < max_positions {
        let mut next = Vec::new();
        'ply: for position in &frontier {
            // A capture is compulsory: a side that has one has no quiet turn.
            if has_capture(board, position.mover, position.waiting) {
                continue;
            }
            buffer.clear();
            paika_children(board, position, &mut buffer);
            for child in &buffer {
                if seen.insert(*child) {
                    next.push(*child);
                    if seen.len() >= max_positions {
                        break 'ply;
                    }
                }
            }
        }
        ply += 1;
        println!("ply {ply}: {} new, {} in all", next.len(), seen.len());
        frontier = next;
    }
    if frontier.is_empty() {
        println!("closed: every position reachable by quiet turns is counted");
    } else {
        println!("stopped at the bound: at least {} positions", seen.len());
    }
}
