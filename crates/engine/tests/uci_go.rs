//! Every `go` mode through the real binary: depth, nodes, movetime, clocks, infinite, ponder, mate,
//! searchmoves, perft; and how fast `stop` brings `bestmove`.

mod common;

use common::{Engine, assert_legal_bestmove, field, info_strings};
use eldest_board::Position;
use std::time::{Duration, Instant};

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

fn italian(engine: &mut Engine) -> Position {
    engine.send(&format!("position fen {ITALIAN}"));
    Position::from_fen(ITALIAN).unwrap()
}

#[test]
fn go_depth_reports_every_iteration_then_a_legal_move() {
    let mut engine = Engine::start();
    let position = italian(&mut engine);
    engine.send("go depth 6");
    let lines = engine.until_bestmove();
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && !l.contains("bound"))
        .map(|l| field(l, "depth").unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6], "{lines:?}");
    let last_info = &lines[lines.len() - 2];
    for key in [
        "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ] {
        assert!(field(last_info, key).is_some(), "{key} missing in {last_info}");
    }
    // The pv is a legal line and the best move is its first move.
    let pv = &last_info[last_info.find(" pv ").unwrap() + 4..];
    let mut walk = position;
    for text in pv.split(' ') {
        let mv = walk
            .parse_uci_move(text)
            .unwrap_or_else(|e| panic!("pv {pv}: {e}"));
        walk.play_unchecked(mv);
    }
    let best = assert_legal_bestmove(&position, lines.last().unwrap());
    assert_eq!(position.move_to_uci(best), pv.split(' ').next().unwrap());
    engine.quit();
}

#[test]
fn go_nodes_stops_near_the_node_budget() {
    let mut engine = Engine::start();
    let position = italian(&mut engine);
    engine.send("go nodes 5000");
    let lines = engine.until_bestmove();
    assert_legal_bestmove(&position, lines.last().unwrap());
    let reported: u64 = lines
        .iter()
        .filter_map(|l| field(l, "nodes"))
        .map(|n| n.parse().unwrap())
        .max()
        .expect("at least one info line");
    assert!(
        reported <= 5000 + 5000,
        "reported {reported} nodes for a 5000-node budget"
    );
    engine.quit();
}

#[test]
fn go_movetime_answers_and_stays_near_the_time() {
    let mut engine = Engine::start();
    let position = italian(&mut engine);
    let start = Instant::now();
    engine.send("go movetime 300");
    let lines = engine.until_bestmove();
    let took = start.elapsed();
    println!("go movetime 300 answered after {took:?}");
    assert_legal_bestmove(&position, lines.last().unwrap());
    engine.quit();
}

#[test]
fn go_with_clocks_for_either_side_to_move() {
    let mut engine = Engine::start();
    for (setup, fen) in [
        ("position startpos", eldest_board::STARTPOS_FEN),
        (
            "position startpos moves d2d4",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        ),
    ] {
        let position = Position::from_fen(fen).unwrap();
        for go in [
            "go wtime 1000 btime 1000",
            "go wtime 2000 btime 2000 winc 100 binc 100",
            "go wtime 500 btime 500 movestogo 1",
            "go wtime 10000 btime 10000 winc 0 binc 0 movestogo 40",
            "go btime 50 wtime 50",
            "go wtime 0 btime 0",
        ] {
            engine.send(setup);
            engine.send(go);
            let lines = engine.until_bestmove();
            assert_legal_bestmove(&position, lines.last().unwrap());
        }
    }
    engine.quit();
}

#[test]
fn negative_clocks_are_clamped_and_still_answered() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go wtime -200 btime -100 winc -5 binc 10");
    let lines = engine.until_bestmove();
    let notes = info_strings(&lines);
    assert!(
        notes.contains(&"go wtime: negative value '-200' read as 0"),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"go btime: negative value '-100' read as 0"),
        "{notes:?}"
    );
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap());
    engine.quit();
}

#[test]
fn infinite_waits_for_stop_and_stop_answers_promptly() {
    let mut engine = Engine::start();
    let position = italian(&mut engine);
    engine.send("go infinite");
    // The loop stays responsive during the search.
    let before_ready = engine.sync();
    assert!(
        !before_ready.iter().any(|l| l.starts_with("bestmove")),
        "{before_ready:?}"
    );
    // No bestmove of its own accord, even when the search could end.
    let meanwhile = engine.drain_for(Duration::from_millis(300));
    assert!(meanwhile.iter().all(|l| l.starts_with("info")), "{meanwhile:?}");
    let asked = Instant::now();
    engine.send("stop");
    let lines = engine.until_bestmove();
    let latency = asked.elapsed();
    println!("stop -> bestmove after go infinite: {latency:?}");
    assert_legal_bestmove(&position, lines.last().unwrap());
    engine.quit();
}

#[test]
fn d_and_eval_answer_during_an_infinite_search_and_stop_still_works() {
    for evaluation in ["nnue", "pesto"] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name Evaluation value {evaluation}"));
        let position = italian(&mut engine);
        engine.send("go infinite");
        engine.sync();
        // The search holds the engine until it ends: neither command may wait for it, or the stop behind them
        // would never be read.
        engine.send("d");
        let board = engine.until(|l| l.starts_with("Checkers:"));
        assert!(
            board.iter().any(|l| l.starts_with("Fen: ")),
            "{evaluation}: {board:?}"
        );
        engine.send("eval");
        let eval = engine.until(|l| l.starts_with("Final evaluation"));
        assert_eq!(
            eval.iter().any(|l| l.starts_with("Network evaluation")),
            evaluation == "nnue",
            "{evaluation}: {eval:?}"
        );
        assert!(
            !eval.iter().chain(&board).any(|l| l.starts_with("bestmove")),
            "{evaluation}: the search goes on"
        );
        engine.send("stop");
        let lines = engine.until_bestmove();
        assert_legal_bestmove(&position, lines.last().unwrap());
        assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
        engine.quit();
    }
}

#[test]
fn stop_latency_over_repeated_searches() {
    let mut engine = Engine::start();
    engine.handshake();
    let waits = (0..10).map(|round| Duration::from_millis(50 + 20 * round));
    engine.stop_latencies(italian, waits, "one process, pipes included");
    engine.quit();
}

#[test]
fn ponder_then_ponderhit_plays_on_the_clock() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 1000 btime 1000");
    // Pondering ignores the clock: no bestmove however long it takes.
    let meanwhile = engine.drain_for(Duration::from_millis(300));
    assert!(meanwhile.iter().all(|l| l.starts_with("info")), "{meanwhile:?}");
    engine.sync();
    engine.send("ponderhit");
    let lines = engine.until_bestmove();
    let position =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap();
    assert_legal_bestmove(&position, lines.last().unwrap());
    engine.quit();
}

#[test]
fn ponder_then_stop_answers_at_once() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    engine.send("stop");
    let lines = engine.until_bestmove();
    println!("stop -> bestmove while pondering: {:?}", asked.elapsed());
    let position = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_legal_bestmove(&position, lines.last().unwrap());
    // The next search starts normally.
    engine.send("go depth 2");
    let lines = engine.until_bestmove();
    assert_legal_bestmove(&position, lines.last().unwrap());
    engine.quit();
}

/// Whether the side to move forces mate within `moves` moves, by brute force over legal moves.
fn forces_mate(position: &Position, moves: u32) -> bool {
    position.legal_moves().iter().any(|mv| {
        let mut after = *position;
        after.play_unchecked(*mv);
        let replies = after.legal_moves();
        if replies.is_empty() {
            return after.in_check();
        }
        moves > 1
            && replies.iter().all(|reply| {
                let mut next = after;
                next.play_unchecked(*reply);
                forces_mate(&next, moves - 1)
            })
    })
}

#[test]
fn go_mate_finds_mates_in_one_to_four() {
    let mut engine = Engine::start();
    for (fen, n) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
        ("8/8/8/R7/3K4/8/8/3k4 w - - 0 1", 3),
        ("8/2Q5/8/8/8/8/3K4/5k2 w - - 0 1", 4),
    ] {
        let position = Position::from_fen(fen).unwrap();
        // The test's own claim, checked: mate in n and not sooner.
        assert!(forces_mate(&position, n), "{fen} is not mate in {n}");
        assert!(
            n == 1 || !forces_mate(&position, n - 1),
            "{fen} is mate in fewer than {n}"
        );
        engine.send(&format!("position fen {fen}"));
        engine.send(&format!("go mate {n}"));
        let lines = engine.until_bestmove();
        let score = lines
            .iter()
            .rev()
            .find_map(|l| field(l, "score"))
            .expect("a score");
        assert_eq!(score, format!("mate {n}"), "{fen}: {lines:?}");
        let best = assert_legal_bestmove(&position, lines.last().unwrap());
        // The move played keeps the mate in n: every reply still loses within n - 1 moves.
        let mut after = position;
        after.play_unchecked(best);
        let replies = after.legal_moves();
        if replies.is_empty() {
            assert!(
                n == 1 && after.is_checkmate(),
                "{fen}: {} does not mate",
                position.move_to_uci(best)
            );
        } else {
            assert!(
                n > 1,
                "{fen}: {} does not mate at once",
                position.move_to_uci(best)
            );
            for &reply in replies.iter() {
                let mut next = after;
                next.play_unchecked(reply);
                assert!(
                    forces_mate(&next, n - 1),
                    "{fen}: {} lets the mate slip",
                    position.move_to_uci(best)
                );
            }
        }
    }
    engine.quit();
}

#[test]
fn searchmoves_restricts_the_best_move() {
    let mut engine = Engine::start();
    // Ra8 mates, but only the king may move.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go depth 5 searchmoves g1f1 g1g2");
    let lines = engine.until_bestmove();
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove g1f1") || best.starts_with("bestmove g1g2"),
        "{lines:?}"
    );
    for info in lines.iter().filter(|l| l.contains(" pv ")) {
        let first = field(info, "pv").unwrap();
        assert!(first == "g1f1" || first == "g1g2", "{info}");
    }
    // A searchmoves move that is not legal is dropped with a note; the legal ones are searched.
    engine.send("go depth 3 searchmoves a1a8 e2e4");
    let answer = engine.until_bestmove();
    let notes = info_strings(&answer);
    assert_eq!(notes.len(), 1, "{answer:?}");
    assert!(
        notes[0].contains("move 2 'e2e4'") && notes[0].contains("ignored"),
        "{notes:?}"
    );
    assert!(answer.last().unwrap().starts_with("bestmove a1a8"), "{answer:?}");
    // None legal: every move is searched, and the go is still answered.
    engine.send("go depth 2 searchmoves e2e4 h7h8");
    let answer = engine.until_bestmove();
    assert!(
        info_strings(&answer).contains(&"go searchmoves: no legal move left; searching every move"),
        "{answer:?}"
    );
    engine.quit();
}

#[test]
fn go_perft_prints_stockfish_divide() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    engine.send("go perft 3");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 22, "{lines:?}");
    assert_eq!(lines[20], "");
    let sum: u64 = lines[..20]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines[21], format!("Nodes searched: {sum}"));
    assert_eq!(sum, 13_160);
    engine.send("go perft 0");
    assert_eq!(
        engine.until(|l| l.starts_with("Nodes searched")),
        ["", "Nodes searched: 1"]
    );
    engine.quit();
}

#[test]
fn a_second_go_during_a_search_ends_the_first_and_each_gets_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.send("go depth 2");
    // The infinite search is stopped and answered, then the depth-2 search runs to its end and answers.
    let first = engine.until_bestmove();
    assert!(
        info_strings(&first).contains(&"go: a search was running; it is stopped and answered first"),
        "{first:?}"
    );
    assert_legal_bestmove(&Position::startpos(), first.last().unwrap());
    let second = engine.until_bestmove();
    assert!(
        second.iter().any(|l| l.starts_with("info depth 2 ")),
        "the second go searched to its own depth: {second:?}"
    );
    assert_legal_bestmove(&Position::startpos(), second.last().unwrap());
    // Exactly two bestmoves: nothing more comes.
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.quit();
}

#[test]
fn many_gos_in_a_row_each_get_exactly_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4");
    for go in [
        "go infinite",
        "go depth 30",
        "go movetime 100000",
        "go nodes 5000",
        "go depth 1",
    ] {
        engine.send(go);
    }
    let mut bestmoves = 0;
    while bestmoves < 5 {
        let lines = engine.until_bestmove();
        let mut after_e4 = Position::startpos();
        after_e4.play_unchecked(after_e4.parse_uci_move("e2e4").unwrap());
        assert_legal_bestmove(&after_e4, lines.last().unwrap());
        bestmoves += 1;
    }
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    engine.quit();
}

#[test]
fn state_changes_during_a_search_stop_it_first() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    engine.send("position startpos moves e2e4");
    // The search is stopped and answers before the position changes.
    let lines = engine.until_bestmove();
    assert_legal_bestmove(&Position::startpos(), lines.last().unwrap());
    engine.send("go infinite");
    engine.send("setoption name Hash value 8");
    engine.until_bestmove();
    engine.send("go infinite");
    engine.send("ucinewgame");
    engine.until_bestmove();
    assert!(engine.sync().is_empty());
    engine.quit();
}

#[test]
fn quit_and_end_of_input_during_a_search_answer_and_exit() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.sync();
    let rest = engine.close();
    assert!(rest.last().is_some_and(|l| l.starts_with("bestmove")), "{rest:?}");
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.sync();
    engine.quit();
}

#[test]
fn several_threads_answer_legal_moves_and_stop_promptly() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 4");
    engine.send("setoption name Hash value 32");
    let position = italian(&mut engine);
    for go in [
        "go depth 6",
        "go nodes 20000",
        "go movetime 150",
        "go wtime 1000 btime 1000",
    ] {
        engine.send(go);
        let lines = engine.until_bestmove();
        assert_legal_bestmove(&position, lines.last().unwrap());
    }
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(150));
    let asked = Instant::now();
    engine.send("stop");
    let lines = engine.until_bestmove();
    println!("stop -> bestmove with 4 threads: {:?}", asked.elapsed());
    assert_legal_bestmove(&position, lines.last().unwrap());
    engine.quit();
}
