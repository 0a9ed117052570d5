//! The command-line contract other tools rely on: `pbem variants`,
//! `pbem replay` (output lines, exit codes 0/1/2), `pbem perft` (last line)
//! and `pbem legal`, run as a real process.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn pbem(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbem runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin accepts the record");
    child.wait_with_output().expect("pbem finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn variants_lists_one_line_per_variant() {
    let output = pbem(&["variants"], "");
    assert!(output.status.success());
    let text = stdout(&output);
    let ids: Vec<&str> = text
        .lines()
        .map(|line| line.split("  ").next().unwrap_or(""))
        .collect();
    for id in [
        "chess",
        "chess2",
        "twomove",
        "marseillais",
        "balanced-marseillais",
        "doublemove",
        "doublemove-classic",
        "extramove",
    ] {
        assert!(ids.contains(&id), "{id} missing from:\n{text}");
    }
    assert!(text.lines().all(|line| {
        line.split_once("  ")
            .is_some_and(|(_, d)| !d.trim().is_empty())
    }));
}

#[test]
fn replay_prints_turns_fen_and_result() {
    let output = pbem(
        &["replay", "--variant", "chess2", "-"],
        "1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6\n",
    );
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..4],
        ["1.e4", "1...c5,d6", "2.Nf3,Bb5+", "2...Nd7,Nf6"]
    );
    // The FEN's halfmove clock counts whole turns without capture or pawn move.
    assert_eq!(
        lines[4],
        "fen: r1bqkb1r/pp1npppp/3p1n2/1Bp5/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 3"
    );
    assert_eq!(lines[5], "result: *");
}

#[test]
fn replay_reports_checkmate() {
    let output = pbem(&["replay", "--variant", "chess"], "1.f3 e5 2.g4 Qh4#");
    assert!(output.status.success());
    assert!(
        stdout(&output).ends_with("result: 0-1 checkmate\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn replay_rejects_the_first_illegal_turn_with_exit_1() {
    let output = pbem(
        &["replay", "--variant", "chess2"],
        "1.e4 c5,d6\n2.Bb4+ Nd7\n",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error: turn 2 White \"Bb4+\": no bishop can reach b4\n"
    );
    assert_eq!(
        stdout(&output),
        "1.e4\n1...c5,d6\n",
        "turns before the error are printed"
    );
}

#[test]
fn replay_names_the_move_of_a_two_move_turn() {
    let output = pbem(&["replay", "--variant", "chess2"], "1.e4 Nf6,Ng4");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error: turn 1 Black \"Nf6,Ng4\": 2nd move Ng4: the knight on f6 already moved this turn\n"
    );
}

#[test]
fn unreadable_input_exits_2() {
    let garbage = pbem(&["replay", "--variant", "chess"], "1.e4 {unclosed");
    assert_eq!(garbage.status.code(), Some(2));
    assert!(
        stderr(&garbage).starts_with("error: "),
        "{}",
        stderr(&garbage)
    );

    let missing = pbem(
        &["replay", "--variant", "chess", "/nonexistent/game.pgn"],
        "",
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/nonexistent/game.pgn"));

    let bad_fen = pbem(&["replay", "--variant", "chess", "--fen", "not a fen"], "");
    assert_eq!(bad_fen.status.code(), Some(2));

    let binary = pbem(&["replay", "--variant", "chess"], "\u{0}\u{1}\u{2}\u{ff}");
    assert_eq!(binary.status.code(), Some(2));
}

#[test]
fn unknown_variant_is_a_usage_error() {
    let output = pbem(&["perft", "--variant", "fairy", "1"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown variant \"fairy\""),
        "{}",
        stderr(&output)
    );
}

#[test]
fn perft_last_line_counts_turns() {
    let output = pbem(&["perft", "--variant", "chess", "3"], "");
    assert!(output.status.success());
    assert_eq!(stdout(&output).lines().last(), Some("turns(3) = 8902"));

    let after = pbem(
        &["perft", "--variant", "chess", "--moves", "1.e4 e5", "2"],
        "",
    );
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let reference: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("valid FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal position");
    let expected = format!("turns(2) = {}", shakmaty::perft(&reference, 2));
    assert_eq!(stdout(&after).lines().last(), Some(expected.as_str()));
}

#[test]
fn legal_shows_board_and_summary() {
    let output = pbem(
        &["legal", "--variant", "chess2", "--moves", "1.e4 c5,d6"],
        "",
    );
    assert!(output.status.success(), "stderr: {}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("  8 |*R*|*N*|*B*|*Q*|*K*|*B*|*N*|*R*|  8"),
        "{text}"
    );
    assert!(text.contains("Legal turns: "), "{text}");
    assert!(
        text.contains("These end the turn by themselves: Bb5+"),
        "{text}"
    );
    assert!(text.contains("Example turn: "), "{text}");
}
