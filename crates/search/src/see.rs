//! Static exchange evaluation: whether a capture sequence on one square wins at least a threshold, assuming
//! both sides recapture with their least valuable attacker and may stop when recapturing would lose.

use eldest_board::{Bitboard, Move, PieceKind, Position, bishop_attacks, rook_attacks};

/// Piece values for exchanges (pawn, knight, bishop, rook, queen, king).
///
/// # Examples
///
/// ```
/// use eldest_board::{PieceKind, Position};
/// use eldest_search::{SEE_VALUE, see_ge};
///
/// assert_eq!(SEE_VALUE[PieceKind::Queen as usize], 900);
/// // Bishop and knight are worth the same: Bxd5 cxd5 is an even trade, neither a gain nor a loss.
/// let position = Position::from_fen("4k3/8/2p5/3n4/8/5B2/8/4K3 w - - 0 1").unwrap();
/// let bxd5 = position.parse_uci_move("f3d5").unwrap();
/// assert!(see_ge(&position, bxd5, 0) && !see_ge(&position, bxd5, 1));
/// ```
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// Whether `mv` wins at least `threshold` centipawns of material by static exchange.
///
/// The swap runs on the occupancy, adding x-ray attackers as pieces leave the square's lines. Pins are
/// ignored, as usual for SEE: it is a move-ordering and pruning heuristic, not a proof.
///
/// # Examples
///
/// ```
/// use eldest_board::Position;
/// use eldest_search::see_ge;
///
/// // exd5 wins a knight for a pawn: up 200 after cxd5.
/// let knight = Position::from_fen("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1").unwrap();
/// let exd5 = knight.parse_uci_move("e4d5").unwrap();
/// assert!(see_ge(&knight, exd5, 200) && !see_ge(&knight, exd5, 201));
/// // Qxd5 takes a pawn and loses the queen to cxd5.
/// let pawn = Position::from_fen("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1").unwrap();
/// assert!(!see_ge(&pawn, pawn.parse_uci_move("d1d5").unwrap(), 0));
/// ```
pub fn see_ge(position: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() {
        return threshold <= 0;
    }
    let from = mv.from();
    let to = mv.to();
    let captured = if mv.is_en_passant() {
        SEE_VALUE[PieceKind::Pawn as usize]
    } else {
        position.kind_on(to).map_or(0, |kind| SEE_VALUE[kind as usize])
    };
    let promotion_gain = mv
        .promotion()
        .map_or(0, |kind| SEE_VALUE[kind as usize] - SEE_VALUE[0]);
    let mut swap = captured + promotion_gain - threshold;
    if swap < 0 {
        return false;
    }
    let moving = mv
        .promotion()
        .or_else(|| position.kind_on(from))
        .unwrap_or(PieceKind::Pawn);
    swap = SEE_VALUE[moving as usize] - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = position.occupied().without(from).with(to);
    if mv.is_en_passant() {
        occupied = occupied.without(eldest_board::Square::new(to.file(), from.rank()));
    }
    let queens = position.pieces(PieceKind::Queen);
    let diagonal = position.pieces(PieceKind::Bishop) | queens;
    let orthogonal = position.pieces(PieceKind::Rook) | queens;
    let mut attackers = position.attackers_to(to, occupied);
    let mut side = position.side_to_move();
    let mut result = true;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & position.colored(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((kind, square)) = least_valuable(position, ours) else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only recapture if the square is no longer defended.
            return if (attackers & !position.colored(side)).is_nonempty() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUE[kind as usize] - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied = occupied.without(square);
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occupied) & orthogonal;
        }
    }
    result
}

fn least_valuable(position: &Position, attackers: Bitboard) -> Option<(PieceKind, eldest_board::Square)> {
    PieceKind::ALL.into_iter().find_map(|kind| {
        (position.pieces(kind) & attackers)
            .first()
            .map(|square| (kind, square))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let position = Position::from_fen(fen).unwrap();
        let mv = position.parse_uci_move(uci).unwrap();
        see_ge(&position, mv, threshold)
    }

    #[test]
    fn undefended_piece_wins_its_value() {
        let fen = "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 500));
        assert!(!see(fen, "d1d5", 501));
    }

    #[test]
    fn defended_pawn_taken_by_queen_loses() {
        let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d5", 0));
        assert!(see(fen, "d1d5", -800));
    }

    #[test]
    fn x_ray_recapture_counts() {
        // Rook takes a rook defended by a rook, with our queen behind: R x R, r x R, Q x r wins a rook.
        let fen = "3rk3/3r4/8/8/8/8/3R4/3QK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        assert!(!see(fen, "d2d7", 1));
    }

    #[test]
    fn quiet_move_to_a_pawn_attacked_square_loses_the_piece() {
        // The black pawn on d4 attacks c3: Nb1-c3 loses the knight, Nb1-d2 is safe.
        let fen = "4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1";
        assert!(!see(fen, "b1c3", 0));
        assert!(see(fen, "b1c3", -300));
        assert!(!see(fen, "b1c3", -299));
        assert!(see(fen, "b1d2", 0));
    }
}
