//! Kerrigan's move hash must spread the moves of real positions evenly over a 32768-row `currently_searching`
//! table (seed 000, note 4), or simplified ABDADA would see false "busy" moves.

use eldest_board::Position;
use eldest_hashing::move_hash;

const ROWS: usize = 32_768;

/// Distinct positions from seeded random playouts, with every legal move of each. Playouts all start from the
/// start position, so repeated positions are dropped: the same key and move always hash to the same row.
fn sample_moves() -> Vec<(u64, Vec<u16>)> {
    let mut seen = std::collections::HashSet::new();
    let mut state = 0x5eed_0fab_ada0_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut samples = Vec::new();
    for _ in 0..400 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if seen.insert(pos.key()) {
                samples.push((pos.key(), moves.iter().map(|m| m.to_bits()).collect()));
            }
            pos.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
        }
    }
    samples
}

#[test]
fn legal_moves_spread_evenly_over_32768_rows() {
    let samples = sample_moves();
    let mut rows = vec![0u32; ROWS];
    let mut total = 0usize;
    for (key, moves) in &samples {
        for &mv in moves {
            rows[(move_hash(*key, mv) as usize) & (ROWS - 1)] += 1;
            total += 1;
        }
    }
    assert!(total > 500_000, "sample too small: {total}");
    // Pearson's chi-square against the uniform distribution: with 32767 degrees of freedom its mean is 32767 and
    // its standard deviation sqrt(2 * 32767) ≈ 256. Allow six standard deviations.
    let expected = total as f64 / ROWS as f64;
    let chi_square: f64 = rows
        .iter()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    let dof = (ROWS - 1) as f64;
    assert!(
        (chi_square - dof).abs() < 6.0 * (2.0 * dof).sqrt(),
        "chi-square {chi_square:.0} for {dof} dof"
    );
    assert!(rows.iter().all(|&n| n > 0), "a row received no move");
}

#[test]
fn moves_of_one_position_rarely_share_a_row() {
    // Within one position the moves must behave like random rows: the number of colliding pairs should match
    // the birthday expectation n(n-1)/2 / ROWS, summed over positions.
    let samples = sample_moves();
    let (mut collisions, mut expected) = (0usize, 0f64);
    for (key, moves) in &samples {
        let mut seen: Vec<usize> = moves
            .iter()
            .map(|&mv| (move_hash(*key, mv) as usize) & (ROWS - 1))
            .collect();
        seen.sort_unstable();
        collisions += seen.windows(2).filter(|w| w[0] == w[1]).count();
        let n = moves.len() as f64;
        expected += n * (n - 1.0) / 2.0 / ROWS as f64;
    }
    assert!(expected > 100.0, "sample too small for the comparison");
    assert!(
        (collisions as f64) < 1.5 * expected + 10.0,
        "{collisions} collisions, {expected:.0} expected"
    );
}
