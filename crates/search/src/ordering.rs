//! Move ordering: the transposition-table move first, then winning captures and promotions (most valuable
//! victim, least valuable attacker), the two killer moves of the ply, quiet moves by history, and losing
//! captures last. Moves are scored once and picked best-first by selection, so a cutoff after the first few
//! moves never pays for sorting the rest.

use crate::learnt::{LearntTable, RelaxedCell};
use crate::see::{SEE_VALUE, see_ge};
use eldest_board::{Color, MAX_MOVES, Move, MoveList, PieceKind, Position, Stage};
use std::sync::atomic::AtomicI32;

const TT_MOVE: i32 = 2_000_000_000;
const GOOD_NOISY: i32 = 1_000_000;
const FIRST_KILLER: i32 = 900_000;
const SECOND_KILLER: i32 = 800_000;
const BAD_NOISY: i32 = -1_000_000;
/// History scores stay within ±`HISTORY_MAX`, well inside the killer and capture bands.
///
/// # Examples
///
/// ```
/// use eldest_board::{Color, Position};
/// use eldest_search::{HISTORY_MAX, History};
///
/// let e4 = Position::startpos().parse_uci_move("e2e4").unwrap();
/// let mut history = History::default();
/// for _ in 0..100 {
///     history.update(Color::White, e4, 2 * HISTORY_MAX);
/// }
/// // However often a move cuts, it never climbs into the killers' band.
/// assert!(history.score(Color::White, e4) <= HISTORY_MAX);
/// ```
pub const HISTORY_MAX: i32 = 16_384;

/// Butterfly history: how often a quiet move (by side, from, to) caused a beta cutoff, with gravity so that
/// old successes fade.
///
/// A table is private to its owner (a clone is a private copy), except that YBWC's threads (`HelperHistory`)
/// and the ABDADAs' (`AbdadaHistory`, `SimplifiedAbdadaHistory`) may all read and update one, as Crafty's and
/// Stockfish 6's threads share one history. The entries are relaxed atomics, so a concurrent update may be lost
/// (a move's score is a heuristic, and losing a step of it now and then costs nothing) but is never undefined;
/// on x86 and ARM a relaxed load or store is a plain one.
///
/// # Examples
///
/// ```
/// use eldest_board::{Color, Position};
/// use eldest_search::{History, MovePicker, PickerKind};
///
/// let start = Position::startpos();
/// let h3 = start.parse_uci_move("h2h3").unwrap();
/// let mut history = History::default();
/// history.update(Color::White, h3, 500);
/// // Among quiet moves, the one that caused cutoffs is tried first.
/// let mut picker = MovePicker::new(&start, PickerKind::All, None, [None; 2], &history);
/// assert_eq!(picker.next_best(), Some((h3, 500)));
/// ```
#[derive(Clone)]
pub struct History {
    /// Indexed by `side × 4096 + from × 64 + to`.
    pub(crate) table: LearntTable<AtomicI32>,
}

const HISTORY_ENTRIES: usize = 2 * 64 * 64;

impl History {
    /// Makes this table's contents a copy of `other`'s in place (no allocation; nothing if both are one table).
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    /// use eldest_search::History;
    /// let e4 = Position::startpos().parse_uci_move("e2e4").unwrap();
    /// let (mut source, mut copy) = (History::default(), History::default());
    /// source.update(Color::White, e4, 300);
    /// copy.copy_from(&source);
    /// assert_eq!(copy.score(Color::White, e4), 300);
    /// ```
    pub fn copy_from(&mut self, other: &History) {
        self.table.copy_from(&other.table);
    }

    #[inline]
    fn entry(&self, color: Color, mv: Move) -> &AtomicI32 {
        self.table
            .cell((color as usize) << 12 | (mv.from() as usize) << 6 | mv.to() as usize)
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("History { .. }")
    }
}

impl Default for History {
    fn default() -> History {
        History {
            table: LearntTable::new(HISTORY_ENTRIES),
        }
    }
}

impl History {
    /// The history score of `mv` for `color`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    /// use eldest_search::History;
    ///
    /// let e4 = Position::startpos().parse_uci_move("e2e4").unwrap();
    /// let mut history = History::default();
    /// assert_eq!(history.score(Color::White, e4), 0);
    /// history.update(Color::White, e4, 300);
    /// assert_eq!(history.score(Color::White, e4), 300);
    /// // Each side has its own table.
    /// assert_eq!(history.score(Color::Black, e4), 0);
    /// ```
    #[inline]
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.entry(color, mv).get()
    }

    /// Adds `bonus` (negative for a malus) with gravity: the closer to the bound, the smaller the step.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    /// use eldest_search::{HISTORY_MAX, History};
    ///
    /// let e4 = Position::startpos().parse_uci_move("e2e4").unwrap();
    /// let mut history = History::default();
    /// history.update(Color::White, e4, 1000);
    /// history.update(Color::White, e4, 1000);
    /// // The second step is shorter by 1000 × 1000 / HISTORY_MAX: old successes weigh less and less.
    /// assert_eq!(history.score(Color::White, e4), 2000 - 1000 * 1000 / HISTORY_MAX);
    /// history.update(Color::White, e4, -5000);
    /// assert!(history.score(Color::White, e4) < 0);
    /// ```
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = self.entry(color, mv);
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        // A load and a store, not a read-modify-write: another thread's step in between is lost, which a
        // heuristic score can afford, and the entry stays within the bound either way.
        let old = entry.get();
        entry.set(old + bonus - old * bonus.abs() / HISTORY_MAX);
    }

    /// Forgets everything (a new game).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::{Color, Position};
    /// use eldest_search::History;
    ///
    /// let e4 = Position::startpos().parse_uci_move("e2e4").unwrap();
    /// let mut history = History::default();
    /// history.update(Color::White, e4, 800);
    /// history.clear();
    /// assert_eq!(history.score(Color::White, e4), 0);
    /// ```
    pub fn clear(&mut self) {
        self.table.clear();
    }
}

/// Which moves a picker yields.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{History, MovePicker, PickerKind};
///
/// // White can take on d5 or play any of the quiet moves.
/// let position = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
/// let history = History::default();
/// let all = MovePicker::new(&position, PickerKind::All, None, [None; 2], &history);
/// let mut noisy = MovePicker::new(&position, PickerKind::Noisy, None, [None; 2], &history);
/// assert_eq!(all.len(), position.legal_moves().len());
/// assert_eq!((noisy.len(), position.move_to_uci(noisy.next_best().unwrap().0)), (1, "e4d5".to_string()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerKind {
    /// Every legal move (the main search, and evasions in quiescence).
    All,
    /// Captures and promotions only (quiescence out of check).
    Noisy,
}

/// Yields the legal moves of a position best-first.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::{History, MovePicker, PickerKind};
///
/// let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
/// let position = Position::from_fen(fen).unwrap();
/// let [tt_move, capture] = ["g8f6", "e5d4"].map(|m| position.parse_uci_move(m).unwrap());
/// let history = History::default();
/// let mut picker = MovePicker::new(&position, PickerKind::All, Some(tt_move), [None; 2], &history);
/// // The table's move first, then a capture that wins material.
/// assert_eq!(picker.next_best().map(|(mv, _)| mv), Some(tt_move));
/// assert_eq!(picker.next_best().map(|(mv, _)| mv), Some(capture));
/// ```
#[derive(Debug, Clone)]
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl MovePicker {
    /// Scores the moves of `position`.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{History, MovePicker, PickerKind};
    ///
    /// let start = Position::startpos();
    /// let [first, second] = ["b1c3", "a2a3"].map(|m| start.parse_uci_move(m).ok());
    /// let mut picker = MovePicker::new(&start, PickerKind::All, None, [first, second], &History::default());
    /// // Killers of this ply come before the other quiet moves, in their order.
    /// assert_eq!(picker.next_best().map(|(mv, _)| mv), first);
    /// assert_eq!(picker.next_best().map(|(mv, _)| mv), second);
    /// ```
    pub fn new(
        position: &Position,
        kind: PickerKind,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &History,
    ) -> MovePicker {
        let mut picker = MovePicker::empty();
        picker.refill(position, kind, tt_move, killers, history);
        picker
    }

    /// A picker with no moves, to be [`refill`](MovePicker::refill)ed: the search keeps one per ply and fills it
    /// in place, so a node neither copies nor clears its 1.5 KB of moves and scores.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_search::MovePicker;
    ///
    /// let mut picker = MovePicker::empty();
    /// assert!(picker.is_empty());
    /// assert_eq!(picker.next_best(), None);
    /// ```
    pub fn empty() -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }

    /// Generates and scores the moves of `position` in place of the ones held, exactly as
    /// [`new`](MovePicker::new) would.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{History, MovePicker, PickerKind};
    ///
    /// let (start, history) = (Position::startpos(), History::default());
    /// let mut picker = MovePicker::empty();
    /// picker.refill(&start, PickerKind::All, None, [None; 2], &history);
    /// assert_eq!(picker.len(), 20);
    /// picker.next_best();
    /// // Refilling starts over: every move is there to pick again.
    /// picker.refill(&start, PickerKind::Noisy, None, [None; 2], &history);
    /// assert!(picker.is_empty());
    /// ```
    pub fn refill(
        &mut self,
        position: &Position,
        kind: PickerKind,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &History,
    ) {
        let stage = match kind {
            PickerKind::All => Stage::All,
            PickerKind::Noisy => Stage::Noisy,
        };
        self.moves.clear();
        self.next = 0;
        position.moves_into(stage, &mut self.moves);
        let us = position.side_to_move();
        for (score, &mv) in self.scores.iter_mut().zip(self.moves.iter()) {
            *score = if Some(mv) == tt_move {
                TT_MOVE
            } else if mv.is_noisy() {
                let victim = if mv.is_en_passant() {
                    PieceKind::Pawn
                } else {
                    position.kind_on(mv.to()).unwrap_or(PieceKind::Pawn)
                };
                let attacker = position.kind_on(mv.from()).unwrap_or(PieceKind::Pawn);
                let victim_value = if mv.is_capture() {
                    SEE_VALUE[victim as usize]
                } else {
                    0
                };
                let promotion = mv.promotion().map_or(0, |kind| SEE_VALUE[kind as usize]);
                let mvv_lva = 8 * (victim_value + promotion) / 100 - attacker as i32;
                let under_promotion = matches!(mv.promotion(), Some(kind) if kind != PieceKind::Queen);
                if !under_promotion && see_ge(position, mv, 0) {
                    GOOD_NOISY + mvv_lva
                } else {
                    BAD_NOISY + mvv_lva
                }
            } else if Some(mv) == killers[0] {
                FIRST_KILLER
            } else if Some(mv) == killers[1] {
                SECOND_KILLER
            } else {
                history.score(us, mv)
            };
        }
    }

    /// The number of legal moves (of the picker's kind).
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{History, MovePicker, PickerKind};
    ///
    /// let (start, history) = (Position::startpos(), History::default());
    /// let mut picker = MovePicker::new(&start, PickerKind::All, None, [None; 2], &history);
    /// assert_eq!(picker.len(), 20);
    /// // Picking does not shrink it: it counts the moves, not the ones left.
    /// picker.next_best();
    /// assert_eq!(picker.len(), 20);
    /// ```
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{History, MovePicker, PickerKind};
    ///
    /// // Nothing can be captured in the opening position: quiescence has nothing to search.
    /// let (start, history) = (Position::startpos(), History::default());
    /// let noisy = MovePicker::new(&start, PickerKind::Noisy, None, [None; 2], &history);
    /// assert!(noisy.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move and its ordering score.
    ///
    /// The first few picks select the best remaining move (a cutoff usually comes early, and then the rest is
    /// never ordered); a node that gets further is probably an all-node, so the remainder is sorted once.
    ///
    /// # Examples
    ///
    /// ```
    /// use eldest_board::Position;
    /// use eldest_search::{History, MovePicker, PickerKind};
    ///
    /// let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3";
    /// let (position, history) = (Position::from_fen(fen).unwrap(), History::default());
    /// let mut picker = MovePicker::new(&position, PickerKind::All, None, [None; 2], &history);
    /// let picked: Vec<(_, i32)> = std::iter::from_fn(|| picker.next_best()).collect();
    /// // Every move once, best first.
    /// assert_eq!(picked.len(), position.legal_moves().len());
    /// assert!(picked.windows(2).all(|pair| pair[0].1 >= pair[1].1));
    /// ```
    pub fn next_best(&mut self) -> Option<(Move, i32)> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        let start = self.next;
        if start < SELECTION_PICKS {
            let mut best = start;
            for i in start + 1..len {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            self.moves.swap(start, best);
            self.scores.swap(start, best);
        } else if start == SELECTION_PICKS {
            // Insertion sort, in place and stable (equal scores keep generation order, so the search stays
            // deterministic); the remainder is a few dozen moves at most.
            let moves = &mut self.moves[..];
            for i in start + 1..len {
                let (score, mv) = (self.scores[i], moves[i]);
                let mut j = i;
                while j > start && self.scores[j - 1] < score {
                    self.scores[j] = self.scores[j - 1];
                    moves[j] = moves[j - 1];
                    j -= 1;
                }
                self.scores[j] = score;
                moves[j] = mv;
            }
        }
        self.next += 1;
        Some((self.moves[start], self.scores[start]))
    }
}

/// How many moves are picked by selection before the rest is sorted.
const SELECTION_PICKS: usize = 4;

/// Whether an ordering score marks a capture or promotion that loses material by static exchange.
pub fn is_losing_noisy(score: i32) -> bool {
    score < BAD_NOISY / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_move_then_winning_capture_then_killer_then_history() {
        let position =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3").unwrap();
        let tt_move = position.parse_uci_move("g8f6").unwrap();
        let capture = position.parse_uci_move("e5d4").unwrap();
        let killer = position.parse_uci_move("d7d6").unwrap();
        let mut history = History::default();
        let liked = position.parse_uci_move("a7a6").unwrap();
        history.update(Color::Black, liked, 2000);
        let mut picker = MovePicker::new(
            &position,
            PickerKind::All,
            Some(tt_move),
            [Some(killer), None],
            &history,
        );
        assert_eq!(picker.len(), position.legal_moves().len());
        let order: Vec<Move> = std::iter::from_fn(|| picker.next_best().map(|(m, _)| m)).collect();
        assert_eq!(order[0], tt_move);
        assert_eq!(order[1], capture);
        let killer_at = order.iter().position(|&m| m == killer).unwrap();
        let liked_at = order.iter().position(|&m| m == liked).unwrap();
        assert!(killer_at < liked_at);
        assert_eq!(order.len(), position.legal_moves().len());
    }

    #[test]
    fn a_refilled_picker_picks_as_a_fresh_one() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2r w - - 0 1",
        ];
        let mut history = History::default();
        let mut reused = MovePicker::empty();
        for (i, fen) in fens.iter().enumerate() {
            let position = Position::from_fen(fen).unwrap();
            // Uneven histories with ties, so that the order of equal scores matters too.
            for (j, &mv) in position.legal_moves().iter().enumerate() {
                if !mv.is_noisy() {
                    history.update(position.side_to_move(), mv, 100 * ((i + j) % 3) as i32);
                }
            }
            let killers = [position.quiet_moves().get(2).copied(), None];
            for kind in [PickerKind::All, PickerKind::Noisy] {
                let mut fresh = MovePicker::new(&position, kind, None, killers, &history);
                let expected: Vec<(Move, i32)> = std::iter::from_fn(|| fresh.next_best()).collect();
                // Left half-used by the previous position, then refilled.
                reused.refill(&position, kind, None, killers, &history);
                let picked: Vec<(Move, i32)> = std::iter::from_fn(|| reused.next_best()).collect();
                assert_eq!(picked, expected, "{fen} {kind:?}");
                reused.refill(&position, kind, None, killers, &history);
                reused.next_best();
            }
        }
    }

    #[test]
    fn the_remainder_is_sorted_stably_by_score() {
        let position = Position::startpos();
        let history = History::default();
        let mut picker = MovePicker::new(&position, PickerKind::All, None, [None; 2], &history);
        let picked: Vec<Move> = std::iter::from_fn(|| picker.next_best().map(|(mv, _)| mv)).collect();
        // All twenty scores tie at zero: selection takes the first of the remaining moves each time, so the
        // first picks come in generation order, and the sorted remainder keeps it.
        assert_eq!(picked.as_slice(), &position.legal_moves()[..]);
    }

    #[test]
    fn history_saturates_within_bounds() {
        let position = Position::startpos();
        let mv = position.parse_uci_move("e2e4").unwrap();
        let mut history = History::default();
        for _ in 0..1000 {
            history.update(Color::White, mv, 5000);
        }
        assert!(history.score(Color::White, mv) <= HISTORY_MAX);
        for _ in 0..1000 {
            history.update(Color::White, mv, -5000);
        }
        assert!(history.score(Color::White, mv) >= -HISTORY_MAX);
    }
}
