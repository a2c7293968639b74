//! The fifty-move rule.

/// The halfmove clock at which the fifty-move rule draws: fifty moves by each side without a capture or a pawn
/// move.
///
/// # Examples
///
/// ```
/// use eldest_repetition::{FIFTY_MOVE_PLIES, fifty_move_draw};
///
/// // Plies, not moves: fifty moves by each side.
/// assert_eq!(FIFTY_MOVE_PLIES, 2 * 50);
/// assert!(!fifty_move_draw(FIFTY_MOVE_PLIES - 1, || false));
/// assert!(fifty_move_draw(FIFTY_MOVE_PLIES, || false));
/// ```
pub const FIFTY_MOVE_PLIES: u16 = 100;

/// Whether the fifty-move rule draws a position with this halfmove clock (rule 5 of the [crate docs](crate)).
///
/// The rule applies from a clock of [`FIFTY_MOVE_PLIES`] on, except when the side to move is checkmated: a mate
/// delivered by the hundredth reversible half-move wins. This crate cannot see mates, so the caller must say
/// how to find one — and must, because the argument is not optional. `is_checkmated` is called only when the
/// clock has reached 100, so an expensive mate test (generating the legal moves) costs nothing in the ordinary
/// node.
///
/// # Examples
///
/// ```
/// use eldest_repetition::fifty_move_draw;
///
/// assert!(!fifty_move_draw(99, || unreachable!("below 100 the mate test is never run")));
/// assert!(fifty_move_draw(100, || false));
/// // Checkmate on the hundredth half-move: a win, not a draw.
/// assert!(!fifty_move_draw(100, || true));
/// ```
#[must_use]
pub fn fifty_move_draw(halfmove_clock: u16, is_checkmated: impl FnOnce() -> bool) -> bool {
    halfmove_clock >= FIFTY_MOVE_PLIES && !is_checkmated()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_one_hundred_is_never_a_draw_and_skips_the_mate_test() {
        for clock in 0..FIFTY_MOVE_PLIES {
            assert!(!fifty_move_draw(clock, || panic!(
                "mate test run at clock {clock}"
            )));
        }
    }

    #[test]
    fn from_one_hundred_on_is_a_draw_unless_mated() {
        for clock in [100, 101, 150, u16::MAX] {
            assert!(fifty_move_draw(clock, || false));
            assert!(!fifty_move_draw(clock, || true));
        }
    }
}
