//! The parsers never panic, whatever the text: FEN and EPD over hundreds of thousands of random and mutated
//! strings, UCI and SAN moves over random and mutated move texts. Every string a parser accepts must give a sound
//! position (FEN round trip, key, every legal move playable) or a legal move. A table of hand-written FENs pins
//! the exact [`FenError`] of every rejection rule.

mod support;

use eldest_board::{Color, FenError, Position, Rank, STARTPOS_FEN, Square};
use support::{CPW_FENS, Rng, chess960_start_fen, random_fen, suite_fens};

/// Characters mutations draw from: FEN syntax most of the time, then arbitrary ASCII, then non-ASCII (multi-byte
/// UTF-8, Unicode spaces and digits, a zero-width space, a byte-order mark).
const FEN_CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '2', '3', '4', '5', '6', '7', '8', '/',
    ' ', 'w', 'b', '-', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'C', 'D', 'E', 'F', 'G', 'H', '0', '9', ';',
    '"',
];
const ODD_CHARS: &[char] = &[
    'é', 'ß', '♔', '♟', '\u{0}', '\u{7f}', '\u{a0}', '\u{2003}', '\u{200b}', '\u{feff}', '𝄞', '１', 'Ⅷ', '٣',
    '\t', '\n', '\r',
];
/// Field values that stress the number parsers and the field splitter.
const ODD_FIELDS: &[&str] = &[
    "",
    "-",
    "0",
    "-1",
    "+1",
    "65535",
    "65536",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e3",
    "0x10",
    "NaN",
    "١",
    "KQkqKQkq",
    "HAha",
    "e3",
    "e6",
    "a9",
    "i3",
    "e",
    "w",
    "b",
    "W",
    "8/8/8/8/8/8/8/8",
    "////////",
    "bm e4;",
    "id \"unterminated",
];

fn random_char(rng: &mut Rng) -> char {
    match rng.below(10) {
        0..=6 => FEN_CHARS[rng.below(FEN_CHARS.len())],
        7 | 8 => (rng.below(95) as u8 + b' ') as char,
        _ => ODD_CHARS[rng.below(ODD_CHARS.len())],
    }
}

/// One random edit of `text`: a character replaced, inserted, deleted or swapped, a piece letter changed, a field
/// dropped, duplicated, swapped or replaced, the text cut short, or two texts spliced.
fn mutate(text: &str, seeds: &[String], rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = |rng: &mut Rng, len: usize| rng.below(len + 1);
    match rng.below(15) {
        // Gentle edits, which keep the shape and so often give another valid position: a piece letter for
        // another, or two characters swapped.
        12 | 13 => {
            let pieces: Vec<usize> = (0..chars.len())
                .filter(|&i| "pnbrqPNBRQ".contains(chars[i]))
                .collect();
            if let Some(&i) = pieces.get(rng.below(pieces.len().max(1))) {
                chars[i] = "pnbrqPNBRQ".as_bytes()[rng.below(10)] as char;
            }
        }
        14 if !chars.is_empty() => {
            let (i, j) = (rng.below(chars.len()), rng.below(chars.len()));
            chars.swap(i, j);
        }
        0 | 1 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars[i] = random_char(rng);
        }
        2 | 3 => {
            let i = at(rng, chars.len());
            chars.insert(i, random_char(rng));
        }
        4 | 5 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.remove(i);
        }
        6 => chars.truncate(at(rng, chars.len())),
        7 => {
            let other: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
            let (i, j) = (at(rng, chars.len()), at(rng, other.len()));
            chars.truncate(i);
            chars.extend_from_slice(&other[j..]);
        }
        _ => {
            let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
            let i = rng.below(fields.len());
            match rng.below(5) {
                0 => {
                    fields.remove(i);
                }
                1 => {
                    let field = fields[i].clone();
                    fields.insert(i, field);
                }
                2 => {
                    let j = rng.below(fields.len());
                    fields.swap(i, j);
                }
                3 => fields[i] = ODD_FIELDS[rng.below(ODD_FIELDS.len())].to_string(),
                _ => {
                    let other = &seeds[rng.below(seeds.len())];
                    let theirs: Vec<&str> = other.split(' ').collect();
                    fields[i] = theirs[rng.below(theirs.len())].to_string();
                }
            }
            return fields.join(if rng.chance(1, 20) { "  " } else { " " });
        }
    }
    chars.into_iter().collect()
}

/// A random string: random length, characters from everywhere.
fn random_string(rng: &mut Rng, max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| random_char(rng)).collect()
}

/// What a parsed position must satisfy: it reads back from its own FEN, its key is right, and every legal move
/// (and the moves after it) can be played.
fn check_accepted(text: &str, pos: &Position) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "{text:?}: key differs from compute_key"
    );
    let fen = pos.to_fen();
    let mut back = Position::from_fen(&fen)
        .unwrap_or_else(|e| panic!("{text:?} was accepted, but its FEN {fen:?} is rejected: {e}"));
    back.set_chess960(pos.is_chess960());
    assert_eq!(back, *pos, "{text:?}: FEN {fen:?} reads back differently");
    assert_eq!(back.to_fen(), fen, "{text:?}");
    let ours = pos.king(pos.side_to_move());
    assert_eq!(pos.in_check(), pos.is_attacked(ours, !pos.side_to_move()));
    let theirs = pos.king(!pos.side_to_move());
    assert!(
        !pos.is_attacked(theirs, pos.side_to_move()),
        "{text:?}: the side not to move is in check"
    );
    for &mv in pos.legal_moves().iter() {
        let mut child = *pos;
        child.play_unchecked(mv);
        assert_eq!(child.key(), child.compute_key(), "{text:?} after {mv:?}");
        assert_eq!(child.count_moves(), child.legal_moves().len());
        // SAN and UCI of every move read back.
        assert_eq!(pos.parse_san(&pos.move_to_san(mv)), Ok(mv), "{text:?}");
        assert_eq!(pos.parse_uci_move(&pos.move_to_uci(mv)), Ok(mv), "{text:?}");
    }
}

/// Valid FENs to mutate: the CPW positions, Chess960 starts, the perft suites, and positions of random playouts.
fn seeds() -> Vec<String> {
    let mut seeds: Vec<String> = CPW_FENS.iter().map(|s| s.to_string()).collect();
    seeds.extend((0..960).step_by(37).map(chess960_start_fen));
    seeds.extend(suite_fens("perft.epd"));
    seeds.extend(suite_fens("perft960.epd"));
    seeds.extend(
        support::corpus(0xF0F0_0000_0000_0004, 1)
            .iter()
            .step_by(7)
            .map(|s| s.position.to_fen()),
    );
    seeds
}

/// Feeds `text` to both position parsers; returns whether `from_fen` accepted it.
fn parse_both(text: &str) -> bool {
    let fen = Position::from_fen(text);
    match &fen {
        Ok(pos) => check_accepted(text, pos),
        // Every error displays.
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    match Position::from_epd(text) {
        Ok(epd) => check_accepted(text, &epd.position),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    fen.is_ok()
}

#[test]
fn fen_and_epd_parsers_never_panic_on_mutated_fens() {
    let seeds = seeds();
    let mut rng = Rng::new(0xFE4F_0001);
    let (mut total, mut accepted) = (0, 0);
    for _ in 0..120_000 {
        let seed = &seeds[rng.below(seeds.len())];
        let mut text = mutate(seed, &seeds, &mut rng);
        for _ in 0..rng.below(3) {
            text = mutate(&text, &seeds, &mut rng);
        }
        accepted += usize::from(parse_both(&text));
        total += 1;
    }
    println!("{total} mutated FENs, {accepted} accepted, {} seeds", seeds.len());
    assert!(total >= 100_000);
    // Mutations keep many strings valid, so the accepted path is exercised too.
    assert!(accepted >= 8_000, "only {accepted} accepted");
}

#[test]
fn fen_and_epd_parsers_never_panic_on_random_strings() {
    let mut rng = Rng::new(0xFE4F_0002);
    let mut total = 0;
    for _ in 0..40_000 {
        parse_both(&random_string(&mut rng, 90));
        total += 1;
    }
    // Random fields in FEN shape.
    for _ in 0..20_000 {
        let fields: Vec<String> = (0..rng.below(8))
            .map(|_| {
                if rng.chance(1, 3) {
                    ODD_FIELDS[rng.below(ODD_FIELDS.len())].to_string()
                } else {
                    random_string(&mut rng, 12)
                }
            })
            .collect();
        parse_both(&fields.join(" "));
        total += 1;
    }
    println!("{total} random strings");
    for text in [
        "",
        " ",
        "\n",
        "\u{a0}",
        "/",
        "////////",
        "8/8/8/8/8/8/8/8 w - - 0 1 x",
    ] {
        parse_both(text);
    }
}

#[test]
fn fen_parser_never_panics_on_random_placements_and_accepts_sound_ones() {
    let mut rng = Rng::new(0xFE4F_0003);
    let (mut total, mut accepted) = (0, 0);
    for _ in 0..60_000 {
        accepted += usize::from(parse_both(&random_fen(&mut rng)));
        total += 1;
    }
    println!("{total} random placements, {accepted} accepted");
    assert!(accepted >= 3_000, "only {accepted} accepted");
}

/// Random and mutated move texts: no panic, and whatever parses is a legal move whose notation reads back.
#[test]
fn uci_and_san_parsers_never_panic_and_only_return_legal_moves() {
    const MOVE_CHARS: &[u8] = b"abcdefgh12345678abcdefgh12345678nbrqkNBRQKOo0-x=+#!?:e";
    let mut rng = Rng::new(0xFE4F_0004);
    let positions: Vec<Position> = seeds()
        .iter()
        .step_by(5)
        .map(|fen| Position::from_fen(fen).expect("seeds are valid"))
        .collect();
    let (mut total, mut uci_ok, mut san_ok) = (0, 0, 0);
    for _ in 0..100_000 {
        let pos = &positions[rng.below(positions.len())];
        let legal = pos.legal_moves();
        let text = match rng.below(4) {
            // Pure noise.
            0 => random_string(&mut rng, 8),
            // Move-shaped noise.
            1 => (0..rng.below(8))
                .map(|_| MOVE_CHARS[rng.below(MOVE_CHARS.len())] as char)
                .collect(),
            // A real move's notation, mutated.
            _ if !legal.is_empty() => {
                let mv = legal[rng.below(legal.len())];
                let notation = if rng.chance(1, 2) {
                    pos.move_to_san(mv)
                } else {
                    pos.move_to_uci(mv)
                };
                if rng.chance(1, 4) {
                    notation
                } else {
                    mutate(&notation, std::slice::from_ref(&notation), &mut rng)
                }
            }
            _ => random_string(&mut rng, 6),
        };
        if let Ok(mv) = pos.parse_uci_move(&text) {
            assert!(
                pos.is_legal(mv),
                "{pos}: parse_uci_move({text:?}) = illegal {mv:?}"
            );
            uci_ok += 1;
        }
        match pos.parse_san(&text) {
            Ok(mv) => {
                assert!(pos.is_legal(mv), "{pos}: parse_san({text:?}) = illegal {mv:?}");
                assert_eq!(pos.parse_san(&pos.move_to_san(mv)), Ok(mv));
                san_ok += 1;
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        total += 1;
    }
    println!("{total} move texts: {uci_ok} UCI and {san_ok} SAN accepted");
    assert!(uci_ok >= 5_000 && san_ok >= 5_000);
}

/// One hand-written FEN per rejection rule, with the exact error.
#[test]
fn every_fen_error_variant_is_reported_for_its_rule() {
    use FenError::*;
    let k = "4k3/8/8/8/8/8/8/4K3";
    let cases: Vec<(String, FenError)> = vec![
        // Field counts: 4 to 6.
        (String::new(), FieldCount(0)),
        ("   ".into(), FieldCount(0)),
        (format!("{k} w -"), FieldCount(3)),
        (format!("{k} w - - 0 1 extra"), FieldCount(7)),
        // Ranks: exactly 8, each of exactly 8 squares.
        ("4k3/8/8/8/8/8/4K3 w - - 0 1".into(), RankCount(7)),
        ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1".into(), RankCount(9)),
        ("4k3/8/8/8/8/8/8/4K3/ w - - 0 1".into(), RankCount(9)),
        (
            "4k2/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            RankLength {
                rank: Rank::Eighth,
                squares: 7,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K4 w - - 0 1".into(),
            RankLength {
                rank: Rank::First,
                squares: 9,
            },
        ),
        (
            "4k3/8/8/8/44P/8/8/4K3 w - - 0 1".into(),
            RankLength {
                rank: Rank::Fourth,
                squares: 9,
            },
        ),
        (
            "4k3/8/8//8/8/8/4K3 w - - 0 1".into(),
            RankLength {
                rank: Rank::Fifth,
                squares: 0,
            },
        ),
        // Piece letters and digits 1-8 only.
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1".into(), InvalidPiece('X')),
        ("4k3/8/8/8/8/8/8/4K2x w - - 0 1".into(), InvalidPiece('x')),
        ("4k3/8/8/8/8/8/8/4K30 w - - 0 1".into(), InvalidPiece('0')),
        ("4k3/9/8/8/8/8/8/4K3 w - - 0 1".into(), InvalidPiece('9')),
        ("4k3/8/8/8/8/8/8/4K2♔ w - - 0 1".into(), InvalidPiece('♔')),
        // Exactly one king a side.
        (
            "4k3/8/8/8/8/8/8/8 w - - 0 1".into(),
            KingCount {
                color: Color::White,
                count: 0,
            },
        ),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            KingCount {
                color: Color::Black,
                count: 0,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/K3K3 w - - 0 1".into(),
            KingCount {
                color: Color::White,
                count: 2,
            },
        ),
        (
            "k3k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            KingCount {
                color: Color::Black,
                count: 2,
            },
        ),
        // No pawn on the first or eighth rank.
        (
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1".into(),
            PawnOnBackRank(Square::A1),
        ),
        (
            "4k2p/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            PawnOnBackRank(Square::H8),
        ),
        // Material no game can reach.
        (
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1".into(),
            ImpossibleMaterial(Color::White),
        ),
        (
            "4k3/pppppppp/nnn5/8/8/8/8/4K3 w - - 0 1".into(),
            ImpossibleMaterial(Color::Black),
        ),
        (
            "4k3/8/8/8/8/7Q/PPPPPPPP/3QK3 w - - 0 1".into(),
            ImpossibleMaterial(Color::White),
        ),
        (
            "4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/4K3 w - - 0 1".into(),
            ImpossibleMaterial(Color::White),
        ),
        // Side to move: w or b.
        (format!("{k} x - - 0 1"), InvalidSideToMove("x".into())),
        (format!("{k} W - - 0 1"), InvalidSideToMove("W".into())),
        (format!("{k} white - - 0 1"), InvalidSideToMove("white".into())),
        // Castling: KQkq, A-H, a-h, or -.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1".into(),
            InvalidCastling("KQkqK".into()),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1".into(),
            InvalidCastling("X".into()),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w K1 - 0 1".into(),
            InvalidCastling("K1".into()),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1".into(),
            InvalidCastling("KK".into()),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1".into(),
            InvalidCastling("KH".into()),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w -- - 0 1".into(),
            InvalidCastling("--".into()),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w Kk- - 0 1".into(),
            InvalidCastling("Kk-".into()),
        ),
        // Castling rights need a king on its back rank and a rook on that rank, on that side.
        (format!("{k} w K - 0 1"), ImpossibleCastling('K')),
        (format!("{k} w q - 0 1"), ImpossibleCastling('q')),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w E - 0 1".into(),
            ImpossibleCastling('E'),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w B - 0 1".into(),
            ImpossibleCastling('B'),
        ),
        (
            "r3k2r/8/8/8/8/8/4K3/R6R w K - 0 1".into(),
            ImpossibleCastling('K'),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2r w K - 0 1".into(),
            ImpossibleCastling('K'),
        ),
        // En passant: - or a square…
        (
            "4k3/8/8/8/8/8/8/4K3 b - e9 0 1".into(),
            InvalidEnPassant("e9".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 b - x 0 1".into(),
            InvalidEnPassant("x".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 b - e33 0 1".into(),
            InvalidEnPassant("e33".into()),
        ),
        // …that a pawn of the side that just moved passed over, two empty squares behind it.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1".into(),
            ImpossibleEnPassant(Square::E3),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1".into(),
            ImpossibleEnPassant(Square::E6),
        ),
        (
            "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1".into(),
            ImpossibleEnPassant(Square::E4),
        ),
        (
            "4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1".into(),
            ImpossibleEnPassant(Square::E3),
        ),
        (
            "4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1".into(),
            ImpossibleEnPassant(Square::E3),
        ),
        // Counters: numbers from 0 to 65535.
        (format!("{k} w - - x 1"), InvalidHalfmoveClock("x".into())),
        (format!("{k} w - - -1 1"), InvalidHalfmoveClock("-1".into())),
        (format!("{k} w - - 65536 1"), InvalidHalfmoveClock("65536".into())),
        (format!("{k} w - - 0 x"), InvalidFullmoveNumber("x".into())),
        (
            format!("{k} w - - 0 99999999999999999999"),
            InvalidFullmoveNumber("99999999999999999999".into()),
        ),
        (format!("{k} w - - 0 1.5"), InvalidFullmoveNumber("1.5".into())),
        // The side not to move may not be in check.
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1".into(), OpponentInCheck),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1".into(), OpponentInCheck),
        ("4k3/3P4/8/8/8/8/8/4K3 w - - 0 1".into(), OpponentInCheck),
        ("8/8/8/8/8/8/8/4Kk2 w - - 0 1".into(), OpponentInCheck),
    ];
    let mut failures = Vec::new();
    for (fen, expected) in &cases {
        let got = Position::from_fen(fen);
        if got.as_ref().err() != Some(expected) {
            failures.push(format!("from_fen({fen:?}) = {got:?}, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_epd_error_is_reported_and_operations_are_read() {
    use FenError::*;
    let k = "4k3/8/8/8/8/8/8/4K3";
    let cases: Vec<(String, FenError)> = vec![
        (String::new(), FieldCount(0)),
        (format!("{k} w -"), FieldCount(3)),
        (
            format!("{k} w - - id \"unterminated"),
            InvalidOperation("id \"unterminated".into()),
        ),
        (
            format!("{k} w - - bm e4; id \"x;"),
            InvalidOperation("id \"x;".into()),
        ),
        (format!("{k} w - - hmvc x;"), InvalidHalfmoveClock("x".into())),
        (format!("{k} w - - fmvn -3;"), InvalidFullmoveNumber("-3".into())),
        (format!("{k} x - - bm e4;"), InvalidSideToMove("x".into())),
        (format!("{k} w Z - bm e4;"), InvalidCastling("Z".into())),
    ];
    let mut failures = Vec::new();
    for (epd, expected) in &cases {
        let got = Position::from_epd(epd);
        if got.as_ref().err() != Some(expected) {
            failures.push(format!("from_epd({epd:?}) = {got:?}, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    let epd = Position::from_epd(&format!(
        "{} bm Nf3 e4; id \"opening; 1\"; hmvc 7; fmvn 12; c0 \"a b\";",
        STARTPOS_FEN.split(' ').take(4).collect::<Vec<_>>().join(" ")
    ))
    .expect("valid EPD");
    assert_eq!(epd.operation("bm"), Some("Nf3 e4"));
    assert_eq!(epd.operation("id"), Some("opening; 1"));
    assert_eq!(epd.operation("c0"), Some("a b"));
    assert_eq!(epd.operation("zz"), None);
    assert_eq!(epd.operations.len(), 5);
    assert_eq!(epd.position.halfmove_clock(), 7);
    assert_eq!(epd.position.fullmove_number(), 12);
    assert_eq!(epd.position.key(), Position::startpos().key());
}

/// What the parser accepts at the edges of its rules.
#[test]
fn fen_edge_cases_that_are_accepted() {
    let accepted = [
        // Counters are optional (EPD style), may be 0 or 65535; a fullmove number of 0 reads as 1.
        ("4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 5", "4k3/8/8/8/8/8/8/4K3 w - - 5 1"),
        (
            "4k3/8/8/8/8/8/8/4K3 b - - 65535 0",
            "4k3/8/8/8/8/8/8/4K3 b - - 65535 1",
        ),
        // Extra whitespace between fields.
        (
            "  4k3/8/8/8/8/8/8/4K3   w \t - -  0  1 ",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ),
        // Castling in any order, X-FEN and Shredder-FEN; written back as X-FEN.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ),
        // An inner rook keeps its file letter.
        (
            "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
            "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
        ),
        // An en-passant square no pawn can use is dropped; one a pawn can use is kept.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        (
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        ),
        // …even when the capture would be illegal (pseudo-legal, like shakmaty's `EnPassantMode::PseudoLegal`).
        (
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        ),
    ];
    for (fen, written) in accepted {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen:?}: {e}"));
        assert_eq!(pos.to_fen(), written, "{fen:?}");
        check_accepted(fen, &pos);
    }
    let chess960 = Position::from_fen("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").expect("valid");
    assert!(chess960.is_chess960(), "an inner castling rook is Chess960");
    assert!(!Position::from_fen(STARTPOS_FEN).expect("valid").is_chess960());
}
