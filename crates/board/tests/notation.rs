//! Hand-written notation cases: the exact UCI and SAN text of the moves that need care (disambiguation,
//! promotion, en passant, check and mate marks, standard and Chess960 castling), and the exact error of each kind
//! of bad input. The differential tests compare the same notation with shakmaty over thousands of positions; these
//! pin the rules where a reader can see them.

use eldest_board::{IllegalMoveError, Move, MoveKind, Position, SanError, Square, UciMoveError};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The SAN of the move written `uci` in `fen`, checked to read back.
fn san_of(fen: &str, uci: &str) -> String {
    let p = pos(fen);
    let mv = p
        .parse_uci_move(uci)
        .unwrap_or_else(|e| panic!("{fen}: {uci}: {e}"));
    let san = p.move_to_san(mv);
    assert_eq!(p.parse_san(&san), Ok(mv), "{fen}: {san}");
    san
}

#[test]
fn san_disambiguates_by_file_then_rank_then_both() {
    // Knights b1 and f1 both reach d2: the file tells them apart.
    let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    assert_eq!(san_of(knights, "b1d2"), "Nbd2");
    assert_eq!(san_of(knights, "f1d2"), "Nfd2");
    assert_eq!(san_of(knights, "b1c3"), "Nc3");
    // Knights b1 and b3 both reach d2: same file, so the rank.
    let same_file = "4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1";
    assert_eq!(san_of(same_file, "b1d2"), "N1d2");
    assert_eq!(san_of(same_file, "b3d2"), "N3d2");
    // Queens a1, a3 and c3 all reach b2: a3 shares its file with a1 and its rank with c3, so it needs both.
    let queens = "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1";
    assert_eq!(san_of(queens, "a3b2"), "Qa3b2");
    assert_eq!(san_of(queens, "a1b2"), "Q1b2");
    assert_eq!(san_of(queens, "c3b2"), "Qcb2");
    // A pinned rival does not count: the e-file knight is pinned, so Nc3 needs no file.
    let pinned = "4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1";
    assert_eq!(san_of(pinned, "b1c3"), "Nc3");
}

#[test]
fn san_of_pawn_moves_promotions_and_en_passant() {
    assert_eq!(san_of(eldest_board::STARTPOS_FEN, "e2e4"), "e4");
    assert_eq!(san_of(eldest_board::STARTPOS_FEN, "g1f3"), "Nf3");
    let promotion = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(promotion, "e7e8q"), "e8=Q+");
    assert_eq!(san_of(promotion, "e7e8n"), "e8=N");
    assert_eq!(san_of(promotion, "e7d8r"), "exd8=R+");
    assert_eq!(san_of(promotion, "e7d8b"), "exd8=B");
    let en_passant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert_eq!(san_of(en_passant, "e5d6"), "exd6");
    assert_eq!(
        pos(en_passant).parse_san("exd6").map(Move::kind),
        Ok(MoveKind::EnPassant)
    );
}

#[test]
fn san_marks_check_with_plus_and_mate_with_hash() {
    // Fool's mate.
    let fools = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    assert_eq!(san_of(fools, "d8h4"), "Qh4#");
    assert!(pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").is_checkmate());
    assert_eq!(san_of(eldest_board::STARTPOS_FEN, "e2e4"), "e4");
    // Castling that gives check.
    assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(san_of("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
}

#[test]
fn san_parser_reads_common_variants() {
    let start = Position::startpos();
    let e4 = start.parse_uci_move("e2e4").expect("legal");
    for text in ["e4", "e4!", "e4?!", "e4+", "e2e4", "e2-e4", " e4 "] {
        // "e2-e4" is long algebraic with a dash, which is not SAN: it must be refused, not misread.
        let parsed = start.parse_san(text);
        if text == "e2-e4" {
            assert!(parsed.is_err(), "{text:?}: {parsed:?}");
        } else {
            assert_eq!(parsed, Ok(e4), "{text:?}");
        }
    }
    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (text, rook) in [
        ("O-O", Square::H1),
        ("0-0", Square::H1),
        ("O-O-O", Square::A1),
        ("0-0-0+", Square::A1),
    ] {
        let mv = castle.parse_san(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(mv.is_castle() && mv.to() == rook, "{text}: {mv:?}");
    }
    let promotion = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        promotion.parse_san("a8Q").map(|m| m.promotion()),
        Ok(Some(eldest_board::PieceKind::Queen))
    );
    assert_eq!(
        promotion.parse_san("a8=N").map(|m| m.promotion()),
        Ok(Some(eldest_board::PieceKind::Knight))
    );
}

#[test]
fn san_errors_say_syntax_illegal_or_ambiguous() {
    let start = Position::startpos();
    for text in [
        "", "   ", "+", "Zf3", "N", "e9", "i4", "Nf3f3x", "é4", "O-O-O-O", "e8=q",
    ] {
        assert_eq!(
            start.parse_san(text),
            Err(SanError::Syntax(text.to_string())),
            "{text:?}"
        );
    }
    for text in ["e5", "Nf4", "O-O", "O-O-O", "Ke2", "exd3", "e8=Q", "Bb5"] {
        assert_eq!(
            start.parse_san(text),
            Err(SanError::Illegal(text.to_string())),
            "{text:?}"
        );
    }
    // A promotion must name its piece.
    let promotion = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promotion.parse_san("a8"), Err(SanError::Illegal("a8".into())));
    let knights = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert_eq!(knights.parse_san("Nd2"), Err(SanError::Ambiguous("Nd2".into())));
    let queens = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
    assert_eq!(queens.parse_san("Qab2"), Err(SanError::Ambiguous("Qab2".into())));
    for error in [
        SanError::Syntax("x".into()),
        SanError::Illegal("x".into()),
        SanError::Ambiguous("x".into()),
    ] {
        assert!(error.to_string().contains("\"x\""), "{error}");
    }
}

#[test]
fn uci_errors_say_syntax_or_illegal() {
    let start = Position::startpos();
    for text in [
        "", "e2", "e2e", "e2e4qq", "e2e4 ", "E2E4", "i2i4", "e0e4", "e2e9", "é2e4", "e7e8k", "e7e8p", "0000",
    ] {
        assert_eq!(
            start.parse_uci_move(text),
            Err(UciMoveError::Syntax(text.to_string())),
            "{text:?}"
        );
    }
    for text in ["e2e5", "e7e5", "e2e4q", "e1g1", "e1h1", "a1a1", "g1g3"] {
        assert_eq!(
            start.parse_uci_move(text),
            Err(UciMoveError::Illegal(text.to_string())),
            "{text:?}"
        );
    }
    let promotion = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        promotion.parse_uci_move("a7a8"),
        Err(UciMoveError::Illegal("a7a8".into()))
    );
    assert_eq!(
        promotion.parse_uci_move("a7a8n").map(|m| m.promotion()),
        Ok(Some(eldest_board::PieceKind::Knight))
    );
    let mv = start.parse_uci_move("e2e4").expect("legal");
    let mut after = start;
    after.play_unchecked(mv);
    let mut copy = after;
    assert_eq!(copy.try_play(mv), Err(IllegalMoveError(mv)));
    assert_eq!(copy, after);
    assert!(IllegalMoveError(mv).to_string().contains("e2e4"));
}

#[test]
fn standard_castling_is_written_king_to_destination_and_read_both_ways() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(!p.is_chess960());
    let short = p.parse_uci_move("e1g1").expect("castling");
    assert!(short.is_castle() && short.to() == Square::H1);
    assert_eq!(p.move_to_uci(short), "e1g1");
    assert_eq!(short.to_uci(true).to_string(), "e1h1");
    // King takes own rook is read in standard chess too.
    assert_eq!(p.parse_uci_move("e1h1"), Ok(short));
    assert_eq!(p.parse_uci_move("e1a1").map(|m| m.to()), Ok(Square::A1));
    let mut after = p;
    after.play_unchecked(short);
    assert_eq!(after.to_fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
}

#[test]
fn chess960_castling_is_written_and_read_king_takes_rook_only() {
    // Standard chess in Shredder-FEN is marked Chess960: castling is then king takes rook, and the standard form
    // `e1g1` is no move at all.
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert!(p.is_chess960());
    let short = p.parse_uci_move("e1h1").expect("castling");
    assert_eq!(p.move_to_uci(short), "e1h1");
    assert_eq!(
        p.parse_uci_move("e1g1"),
        Err(UciMoveError::Illegal("e1g1".into()))
    );
    assert_eq!(
        p.parse_uci_move("e1c1"),
        Err(UciMoveError::Illegal("e1c1".into()))
    );
    // Switching the notation: standard is allowed here (king on e, rooks on a and h).
    let mut standard = p;
    assert!(standard.set_chess960(false));
    assert_eq!(standard.move_to_uci(short), "e1g1");
    assert_eq!(standard.parse_uci_move("e1g1"), Ok(short));
}

#[test]
fn chess960_castling_where_king_step_and_castling_share_squares() {
    // King f1, rook h1: f1g1 is the king's step, f1h1 castling (king to g1, rook to f1).
    let p = pos("5k2/8/8/8/8/8/8/5K1R w H - 0 1");
    assert!(p.is_chess960());
    let step = p.parse_uci_move("f1g1").expect("king step");
    assert_eq!(step.kind(), MoveKind::Quiet);
    let castle = p.parse_uci_move("f1h1").expect("castling");
    assert!(castle.is_castle());
    // The rook lands on f1, facing the black king on f8.
    assert_eq!(p.move_to_san(castle), "O-O+");
    assert_eq!(p.move_to_san(step), "Kg1");
    let mut after = p;
    after.play_unchecked(castle);
    assert_eq!(after.to_fen(), "5k2/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The standard form is refused: a position with its king off the e-file cannot be written in standard
    // notation at all.
    let mut standard = p;
    assert!(!standard.set_chess960(false));

    // King g1 already on its castled square, rook h1: castling only moves the rook.
    let p = pos("6k1/8/8/8/8/8/8/6KR w H - 0 1");
    let castle = p.parse_uci_move("g1h1").expect("castling");
    let mut after = p;
    after.play_unchecked(castle);
    assert_eq!(after.to_fen(), "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");

    // King b1, rook a1, queen-side: king to c1, rook to d1.
    let p = pos("1k6/8/8/8/8/8/8/RK6 w A - 0 1");
    let castle = p.parse_san("O-O-O").expect("castling");
    assert_eq!(p.move_to_uci(castle), "b1a1");
    let mut after = p;
    after.play_unchecked(castle);
    assert_eq!(after.to_fen(), "1k6/8/8/8/8/8/8/2KR4 b - - 1 1");

    // King d1, rook e1 on the king side: the king lands on the g-file, passing the rook's square.
    let p = pos("3k4/8/8/8/8/8/8/3KR3 w E - 0 1");
    let castle = p.parse_uci_move("d1e1").expect("castling");
    let mut after = p;
    after.play_unchecked(castle);
    assert_eq!(after.to_fen(), "3k4/8/8/8/8/8/8/5RK1 b - - 1 1");
    // An enemy rook on the f-file attacks a square the king crosses: no castling.
    let p = pos("3k1r2/8/8/8/8/8/8/3KR3 w E - 0 1");
    assert_eq!(
        p.parse_uci_move("d1e1"),
        Err(UciMoveError::Illegal("d1e1".into()))
    );
    // The castling rook may stand between an enemy rook and a square the king crosses (rook b1, king e1,
    // queen-side, enemy rook a1): lifted, it no longer shields c1 and d1, which are attacked, so no castling —
    // while the king itself is not in check.
    let p = pos("4k3/8/8/8/8/8/8/rR2K3 w B - 0 1");
    assert!(!p.in_check());
    assert!(
        p.legal_moves().iter().all(|m| !m.is_castle()),
        "{:?}",
        p.legal_moves()
    );
    // Without the enemy rook, the same castling is legal: king to c1, rook to d1.
    let p = pos("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1");
    let castle = p.parse_uci_move("e1b1").expect("castling");
    let mut after = p;
    after.play_unchecked(castle);
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}
