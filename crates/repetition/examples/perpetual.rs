//! `cargo run -p eldest-repetition --example perpetual [SAN moves...]`: plays a game from the start position
//! (by default the knights out and back twice), builds its [`GameHistory`], and then asks, for each legal move
//! of the final position, whether a search reaching it would score it as a repetition draw — by Stockfish's
//! rule and by micro-Max's.

use eldest_board::Position;
use eldest_repetition::{GameHistory, RepetitionRule, SearchRepetitions, fifty_move_draw};
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let mut moves: Vec<String> = std::env::args().skip(1).collect();
    if moves.is_empty() {
        moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"]
            .map(String::from)
            .to_vec();
    }
    let mut position = Position::startpos();
    let mut game = GameHistory::new();
    game.push(position.key(), position.halfmove_clock());
    for san in &moves {
        let mv = match position.parse_san(san) {
            Ok(mv) => mv,
            Err(error) => {
                eprintln!("cannot play {san} in {position}: {error}");
                return ExitCode::FAILURE;
            }
        };
        position.play_unchecked(mv);
        game.push(position.key(), position.halfmove_clock());
    }
    println!("after {}: {position}", moves.join(" "));
    println!(
        "this position has occurred {} time(s); threefold in the game: {}",
        game.count(position.key()),
        game.is_threefold()
    );

    let game = Arc::new(game);
    for rule in [RepetitionRule::Stockfish, RepetitionRule::MicroMax] {
        let mut path = SearchRepetitions::new(Arc::clone(&game), rule);
        let drawn: Vec<String> = position
            .legal_moves()
            .iter()
            .filter_map(|&mv| {
                let san = position.move_to_san(mv);
                let mut child = position;
                child.play_unchecked(mv);
                path.push(child.key(), child.halfmove_clock());
                let draw = path.is_repetition_draw()
                    || fifty_move_draw(child.halfmove_clock(), || child.is_checkmate());
                path.pop();
                draw.then_some(san)
            })
            .collect();
        println!(
            "{:9} rule: moves a search scores as drawn: {}",
            rule.name(),
            drawn.join(" ")
        );
    }
    ExitCode::SUCCESS
}
