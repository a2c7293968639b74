//! One thread's accumulators, a pair per ply (copy-make, like the positions): a move records which pieces it
//! moved, and the accumulators are brought up to date only when a node evaluates — from the nearest ply above
//! that is up to date, or from the pieces when there is none.

use super::{Network, feature_index};
use crate::worker::MAX_PLY;
use eldest_board::{Color, Move, MoveKind, PieceKind, Position, Square};

/// A piece that appeared on or left a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PieceOn {
    color: Color,
    kind: PieceKind,
    square: Square,
}

const NO_PIECE: PieceOn = PieceOn {
    color: Color::White,
    kind: PieceKind::Pawn,
    square: Square::A1,
};

/// What one move changed: at most two pieces appear (castling's king and rook) and two leave (castling, a
/// capture with promotion, en passant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Changes {
    added: [PieceOn; 2],
    added_count: u8,
    removed: [PieceOn; 2],
    removed_count: u8,
}

impl Changes {
    const NONE: Changes = Changes {
        added: [NO_PIECE; 2],
        added_count: 0,
        removed: [NO_PIECE; 2],
        removed_count: 0,
    };

    /// What `mv` changes in `parent`: read off the move, except castling (whose king and rook may swap squares
    /// in Chess960), which is read off the boards.
    #[inline]
    fn of_move(parent: &Position, mv: Move, child: &Position) -> Option<Changes> {
        if mv.is_castle() {
            return Changes::between(parent, child);
        }
        let us = parent.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let moving = parent.kind_on(from)?;
        let mut changes = Changes::NONE;
        changes.removed[0] = PieceOn {
            color: us,
            kind: moving,
            square: from,
        };
        changes.added[0] = PieceOn {
            color: us,
            kind: mv.promotion().unwrap_or(moving),
            square: to,
        };
        changes.added_count = 1;
        changes.removed_count = 1;
        let captured = if mv.kind() == MoveKind::EnPassant {
            Some((PieceKind::Pawn, Square::new(to.file(), from.rank())))
        } else if mv.is_capture() {
            Some((parent.kind_on(to)?, to))
        } else {
            None
        };
        if let Some((kind, square)) = captured {
            changes.removed[1] = PieceOn {
                color: !us,
                kind,
                square,
            };
            changes.removed_count = 2;
        }
        Some(changes)
    }

    /// The difference between a position and the one a move made of it; `None` when more changed than a move
    /// can change (then the accumulators are computed from the pieces).
    fn between(parent: &Position, child: &Position) -> Option<Changes> {
        let mut changes = Changes::NONE;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let before = parent.pieces_of(color, kind);
                let after = child.pieces_of(color, kind);
                if before == after {
                    continue;
                }
                for square in after & !before {
                    let slot = changes.added.get_mut(usize::from(changes.added_count))?;
                    *slot = PieceOn { color, kind, square };
                    changes.added_count += 1;
                }
                for square in before & !after {
                    let slot = changes.removed.get_mut(usize::from(changes.removed_count))?;
                    *slot = PieceOn { color, kind, square };
                    changes.removed_count += 1;
                }
            }
        }
        Some(changes)
    }
}

/// Where a ply's accumulators stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing known: the search has not reached this ply yet, or starts here.
    Unknown,
    /// Up to date for the node at this ply.
    Computed,
    /// The ply above's accumulators with these changes.
    Pending(Changes),
}

/// A thread's accumulators for every ply of a search.
#[derive(Clone)]
pub(crate) struct AccumulatorStack {
    hidden: usize,
    /// Ply-major, then White's perspective and Black's, `hidden` values each.
    values: Vec<i16>,
    states: Box<[State]>,
    /// Accumulators computed from the pieces since the stack was made (what the anchors save; read by tests).
    refreshes: u64,
}

impl Default for AccumulatorStack {
    fn default() -> AccumulatorStack {
        AccumulatorStack::new()
    }
}

impl AccumulatorStack {
    /// An empty stack: it takes its size from the first network that evaluates with it.
    pub(crate) fn new() -> AccumulatorStack {
        AccumulatorStack {
            hidden: 0,
            values: Vec::new(),
            states: vec![State::Unknown; MAX_PLY + 2].into_boxed_slice(),
            refreshes: 0,
        }
    }

    /// Makes `position`, the node at `ply` where a search starts (its root, a YBWC task's split node), the base
    /// every ply below updates from: computed from the pieces unless it is up to date already.
    ///
    /// Without it a node whose ancestors all took their static evaluations from the table finds no ply to
    /// update from and computes its own from the pieces — and so does each of its brothers, since its
    /// ancestors stay pending. With a carried table (a game's next move, another thread's entries) that was a
    /// tenth of the search's time.
    pub(crate) fn anchor(&mut self, network: &Network, position: &Position, ply: usize) {
        self.fit(network.hidden());
        if self
            .states
            .get(ply)
            .is_some_and(|state| *state != State::Computed)
        {
            self.refresh(network, position, ply);
        }
    }

    /// Computes the accumulators of `position`, the node at `ply`, from its pieces.
    fn refresh(&mut self, network: &Network, position: &Position, ply: usize) {
        for perspective in Color::ALL {
            let slot = self.slot(ply, perspective);
            network.refresh(position, perspective, &mut self.values[slot]);
        }
        self.states[ply] = State::Computed;
        self.refreshes += 1;
    }

    /// The search starts (or a YBWC task joins) at `ply`: what the stack holds there belongs to another node.
    pub(crate) fn start_at(&mut self, ply: usize) {
        if let Some(state) = self.states.get_mut(ply) {
            *state = State::Unknown;
        }
    }

    /// A YBWC task searches below `master`'s node at `ply`: it takes that node's accumulators when they are up
    /// to date (one copy instead of a computation from the pieces).
    pub(crate) fn copy_ply(&mut self, master: &AccumulatorStack, ply: usize) {
        self.start_at(ply);
        if master.states.get(ply) == Some(&State::Computed) {
            self.fit(master.hidden);
            let range = self.slot(ply, Color::White).start..self.slot(ply, Color::Black).end;
            self.values[range.clone()].copy_from_slice(&master.values[range]);
            self.states[ply] = State::Computed;
        }
    }

    /// `child`, at `ply`, was made from the node at `ply - 1` by `mv`.
    #[inline]
    pub(crate) fn push_move(&mut self, ply: usize, parent: &Position, mv: Move, child: &Position) {
        if let Some(state) = self.states.get_mut(ply) {
            *state = Changes::of_move(parent, mv, child).map_or(State::Unknown, State::Pending);
        }
    }

    /// The node at `ply` is the one above with the move passed: the same pieces.
    #[inline]
    pub(crate) fn push_null(&mut self, ply: usize) {
        if let Some(state) = self.states.get_mut(ply) {
            *state = State::Pending(Changes::NONE);
        }
    }

    /// Sizes the stack for a hidden layer of `hidden` neurons; a new size forgets every ply.
    fn fit(&mut self, hidden: usize) {
        if self.hidden != hidden {
            self.hidden = hidden;
            self.values = vec![0; self.states.len() * 2 * hidden];
            self.states.fill(State::Unknown);
        }
    }

    fn slot(&self, ply: usize, perspective: Color) -> std::ops::Range<usize> {
        let start = (2 * ply + perspective as usize) * self.hidden;
        start..start + self.hidden
    }

    /// The evaluation of `position`, the node at `ply`, in centipawns from the side to move.
    pub(crate) fn evaluate(&mut self, network: &Network, position: &Position, ply: usize) -> i32 {
        self.fit(network.hidden());
        let ply = ply.min(self.states.len() - 1);
        // The nearest ply at or above this one whose accumulators are up to date.
        let mut base = ply;
        loop {
            match self.states[base] {
                State::Computed => break,
                State::Pending(_) if base > 0 => base -= 1,
                State::Pending(_) | State::Unknown => {
                    self.refresh(network, position, ply);
                    base = ply;
                    break;
                }
            }
        }
        for current in base + 1..=ply {
            let State::Pending(changes) = self.states[current] else {
                unreachable!("the plies below the base are pending");
            };
            self.apply(network, current, &changes);
            self.states[current] = State::Computed;
        }
        let us = position.side_to_move();
        let ours = &self.values[self.slot(ply, us)];
        let theirs = &self.values[self.slot(ply, !us)];
        let score = network.output(ours, theirs, position.occupied().popcount());
        // In this crate's tests every search checks every update against the pieces.
        #[cfg(test)]
        assert_eq!(
            score,
            network.evaluate(position),
            "accumulators out of step at ply {ply}: {position}"
        );
        score
    }

    /// Brings `ply` up to date from the ply above.
    fn apply(&mut self, network: &Network, ply: usize, changes: &Changes) {
        let (above, rest) = self.values.split_at_mut(2 * ply * self.hidden);
        let above = &above[2 * (ply - 1) * self.hidden..];
        for perspective in Color::ALL {
            let offset = perspective as usize * self.hidden;
            let rows = |pieces: &[PieceOn]| -> [&[i16]; 2] {
                let mut rows: [&[i16]; 2] = [&[], &[]];
                for (row, piece) in rows.iter_mut().zip(pieces) {
                    *row = network.row(feature_index(perspective, piece.color, piece.kind, piece.square));
                }
                rows
            };
            let added = rows(&changes.added[..usize::from(changes.added_count)]);
            let removed = rows(&changes.removed[..usize::from(changes.removed_count)]);
            network.kernels().update(
                &mut rest[offset..offset + self.hidden],
                &above[offset..offset + self.hidden],
                &added[..usize::from(changes.added_count)],
                &removed[..usize::from(changes.removed_count)],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eldest_hashing::SplitMix64;

    /// Random games (null moves among them) from positions with castling, en passant and promotions: at every
    /// ply the updated accumulators give what the pieces give.
    #[test]
    fn incremental_evaluation_equals_evaluation_from_scratch() {
        let network = Network::embedded();
        let starts = [
            "r3k2r/pppq1ppp/2npbn2/4p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "8/2P3k1/8/3pP3/8/8/5p2/R3K3 w Q d6 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ];
        let mut stream = SplitMix64::new(11);
        let mut stack = AccumulatorStack::new();
        let mut checked = 0;
        for fen in starts {
            let start = Position::from_fen(fen).unwrap();
            for _game in 0..20 {
                let mut line = vec![start];
                stack.start_at(0);
                assert_eq!(stack.evaluate(&network, &start, 0), network.evaluate(&start));
                for ply in 1..60 {
                    let parent = line[ply - 1];
                    let mut child = parent;
                    let moves = parent.legal_moves();
                    if stream.next_u64().is_multiple_of(10) && child.play_null() {
                        stack.push_null(ply);
                    } else if moves.is_empty() {
                        break;
                    } else {
                        let mv = moves[(stream.next_u64() % moves.len() as u64) as usize];
                        child.play_unchecked(mv);
                        stack.push_move(ply, &parent, mv, &child);
                    }
                    line.push(child);
                    // Evaluate some plies only, so that updates span several moves.
                    if stream.next_u64().is_multiple_of(3) {
                        assert_eq!(
                            stack.evaluate(&network, &child, ply),
                            network.evaluate(&child),
                            "{child} after {ply} plies from {fen}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} positions checked");
    }

    #[test]
    fn a_ply_where_a_search_starts_is_computed_from_the_pieces() {
        let network = Network::embedded();
        let mut stack = AccumulatorStack::new();
        let a = Position::startpos();
        let b = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(stack.evaluate(&network, &a, 3), network.evaluate(&a));
        stack.start_at(3);
        assert_eq!(stack.evaluate(&network, &b, 3), network.evaluate(&b));
    }

    /// Two brothers at ply 3 below nodes that never evaluated (their evaluations came from the table): without an
    /// anchored root each is computed from the pieces; with one, the first brings the plies above up to date and
    /// the second updates from its parent.
    #[test]
    fn an_anchored_root_spares_brothers_below_unevaluated_nodes_a_refresh() {
        let network = Network::embedded();
        let root = Position::startpos();
        let line = ["e2e4", "e7e5"];
        let mut parent = root;
        let mut path = vec![];
        for uci in line {
            let mv = parent.parse_uci_move(uci).unwrap();
            let mut child = parent;
            child.play_unchecked(mv);
            path.push((parent, mv, child));
            parent = child;
        }
        let brothers: Vec<_> = ["g1f3", "b1c3"]
            .iter()
            .map(|uci| {
                let mv = parent.parse_uci_move(uci).unwrap();
                let mut child = parent;
                child.play_unchecked(mv);
                (mv, child)
            })
            .collect();
        for anchored in [false, true] {
            let mut stack = AccumulatorStack::new();
            stack.start_at(0);
            if anchored {
                stack.anchor(&network, &root, 0);
            }
            let before = stack.refreshes;
            for (ply, (from, mv, to)) in path.iter().enumerate() {
                stack.push_move(ply + 1, from, *mv, to);
            }
            for (mv, child) in &brothers {
                stack.push_move(3, &parent, *mv, child);
                assert_eq!(stack.evaluate(&network, child, 3), network.evaluate(child));
            }
            let expected = if anchored { 0 } else { 2 };
            assert_eq!(stack.refreshes - before, expected, "anchored: {anchored}");
        }
        // An anchor on a ply already up to date computes nothing.
        let mut stack = AccumulatorStack::new();
        stack.anchor(&network, &root, 0);
        stack.anchor(&network, &root, 0);
        assert_eq!(stack.refreshes, 1);
    }

    #[test]
    fn a_move_changes_at_most_two_pieces_each_way_and_the_move_says_which() {
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let mut child = castle;
        child.play_unchecked(castle.parse_uci_move("e1g1").unwrap());
        let changes = Changes::between(&castle, &child).unwrap();
        assert_eq!((changes.added_count, changes.removed_count), (2, 2));
        assert_eq!(Changes::between(&castle, &castle), Some(Changes::NONE));
        // Read off the move, the same changes as read off the boards.
        for fen in [
            "r3k2r/pppq1ppp/2npbn2/4p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "1n2k3/2P5/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            let parent = Position::from_fen(fen).unwrap();
            for &mv in parent.legal_moves().iter() {
                let mut child = parent;
                child.play_unchecked(mv);
                let by_move = Changes::of_move(&parent, mv, &child).unwrap();
                let by_board = Changes::between(&parent, &child).unwrap();
                let sorted = |changes: Changes| {
                    let mut added = changes.added[..usize::from(changes.added_count)].to_vec();
                    let mut removed = changes.removed[..usize::from(changes.removed_count)].to_vec();
                    added.sort_by_key(|p| p.square.index());
                    removed.sort_by_key(|p| p.square.index());
                    (added, removed)
                };
                assert_eq!(sorted(by_move), sorted(by_board), "{mv:?} in {fen}");
            }
        }
    }
}
