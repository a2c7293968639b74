//! Mate scores are stored relative to the node, and read back relative to the root.
//!
//! The search scores a mate as `MATE - n`, where `n` is the number of plies from the **root** to the mate. A
//! table entry, however, is shared by every path that reaches its position, at any ply: what is invariant is
//! the distance from the **node** to the mate. [`score_to_tt`] converts a root-relative search score into that
//! node-relative form before storing, and [`score_from_tt`] converts back at the probing node's ply. Ordinary
//! (non-mate) scores pass through unchanged.

/// The score of delivering mate at the root itself; `MATE - n` is a mate `n` plies from the root.
///
/// # Examples
///
/// ```
/// use eldest_tt::{is_mate_score, score_to_tt, MATE};
/// // Mated at a node 4 plies from the root: stored as mated at that node itself.
/// assert_eq!(score_to_tt(-(MATE - 4), 4), -MATE);
/// assert!(is_mate_score(MATE - 3) && is_mate_score(-(MATE - 3)));
/// // Entries keep scores in 16 bits, MATE included.
/// assert!(MATE <= i32::from(i16::MAX));
/// ```
pub const MATE: i32 = 32_000;

/// The longest distance, in plies, that a mate score may encode. The search must never go deeper than this.
///
/// # Examples
///
/// ```
/// use eldest_tt::{is_mate_score, score_to_tt, MATE, MAX_PLY};
/// assert!(is_mate_score(MATE - MAX_PLY as i32));
/// // Plies beyond MAX_PLY shift a mate no further, so a stored score cannot overflow.
/// assert_eq!(score_to_tt(MATE - 10, MAX_PLY + 40), score_to_tt(MATE - 10, MAX_PLY));
/// ```
pub const MAX_PLY: usize = 256;

/// Scores at or beyond `±MATE_IN_MAX_PLY` are mate scores; everything strictly inside is a heuristic score.
///
/// The search must keep its evaluation strictly inside this range, or an ordinary score would be mistaken for
/// a mate and be shifted by the ply on its way through the table.
///
/// # Examples
///
/// ```
/// use eldest_tt::{is_mate_score, score_to_tt, MATE_IN_MAX_PLY};
/// assert!(is_mate_score(MATE_IN_MAX_PLY));
/// assert!(!is_mate_score(MATE_IN_MAX_PLY - 1));
/// // A heuristic score just inside the range passes through the table unshifted.
/// assert_eq!(score_to_tt(MATE_IN_MAX_PLY - 1, 20), MATE_IN_MAX_PLY - 1);
/// ```
// MAX_PLY is 256: the cast is lossless.
pub const MATE_IN_MAX_PLY: i32 = MATE - MAX_PLY as i32;

/// Whether `score` announces a forced mate (for either side).
///
/// ```
/// use eldest_tt::{is_mate_score, MATE};
/// assert!(is_mate_score(MATE - 3));
/// assert!(is_mate_score(-(MATE - 10)));
/// assert!(!is_mate_score(250));
/// ```
#[must_use]
pub const fn is_mate_score(score: i32) -> bool {
    score >= MATE_IN_MAX_PLY || score <= -MATE_IN_MAX_PLY
}

/// `ply` as an `i32`, bounded by [`MAX_PLY`] so that the shift can never overflow.
const fn ply_distance(ply: usize) -> i32 {
    let bounded = if ply < MAX_PLY { ply } else { MAX_PLY };
    // bounded <= 256: the cast is lossless.
    bounded as i32
}

/// Converts a root-relative search score found at `ply` into the node-relative score to store.
///
/// A mate `n` plies from the root, found at a node `ply` plies from the root, is `n - ply` plies from the node:
/// winning scores grow by `ply`, losing scores shrink by `ply`. Plies beyond [`MAX_PLY`] count as `MAX_PLY`.
///
/// ```
/// use eldest_tt::{score_from_tt, score_to_tt, MATE};
/// // Found at ply 5: mate in 7 plies from the root is mate in 2 from this node.
/// assert_eq!(score_to_tt(MATE - 7, 5), MATE - 2);
/// // Reached again at ply 9 by another path, the same node reports mate in 11 from the root.
/// assert_eq!(score_from_tt(MATE - 2, 9), MATE - 11);
/// assert_eq!(score_to_tt(-35, 12), -35);
/// ```
#[must_use]
pub const fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_IN_MAX_PLY {
        score + ply_distance(ply)
    } else if score <= -MATE_IN_MAX_PLY {
        score - ply_distance(ply)
    } else {
        score
    }
}

/// Converts a stored node-relative score back into a root-relative score for a node at `ply`.
///
/// The inverse of [`score_to_tt`] for the same ply.
///
/// ```
/// use eldest_tt::{score_from_tt, score_to_tt, MATE};
/// for score in [MATE - 40, -(MATE - 1), 0, 512] {
///     assert_eq!(score_from_tt(score_to_tt(score, 17), 17), score);
/// }
/// ```
#[must_use]
pub const fn score_from_tt(stored: i32, ply: usize) -> i32 {
    if stored >= MATE_IN_MAX_PLY {
        stored - ply_distance(ply)
    } else if stored <= -MATE_IN_MAX_PLY {
        stored + ply_distance(ply)
    } else {
        stored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_at_every_ply() {
        // Plain arithmetic: Miri checks a sample of the plies (every ply would take it a quarter of a minute).
        let stride = if cfg!(miri) { 17 } else { 1 };
        for ply in (0..MAX_PLY).step_by(stride) {
            for distance in ply..MAX_PLY {
                let win = MATE - i32::try_from(distance).unwrap();
                assert_eq!(score_from_tt(score_to_tt(win, ply), ply), win);
                assert_eq!(score_from_tt(score_to_tt(-win, ply), ply), -win);
            }
        }
    }

    #[test]
    fn stored_mate_is_distance_from_the_node() {
        // Mated at the node itself (ply 12 from the root): stored as mated in 0 from the node.
        assert_eq!(score_to_tt(-(MATE - 12), 12), -MATE);
        assert_eq!(score_to_tt(MATE - 13, 12), MATE - 1);
    }

    #[test]
    fn heuristic_scores_are_not_shifted() {
        for score in [-MATE_IN_MAX_PLY + 1, -1, 0, 1, MATE_IN_MAX_PLY - 1] {
            assert_eq!(score_to_tt(score, 40), score);
            assert_eq!(score_from_tt(score, 40), score);
        }
    }

    #[test]
    fn huge_ply_is_bounded() {
        assert_eq!(score_to_tt(MATE - 100, usize::MAX), MATE - 100 + 256);
    }
}
