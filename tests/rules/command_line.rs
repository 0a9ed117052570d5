//! The rules through the `pbem` command line (the real binary): the
//! doublestep variants listed, a seed line replayed to mate, doublesteps
//! printed whole by `perft` and `legal`, and `pbem perft` printing the
//! counts the rules crate's tests check against its independent reference
//! (crates/pbem-rules/tests/rules/perft_reference_moves.rs).

use std::io::Write;
use std::process::{Command, Stdio};

use pbem_testkit::run_pbem;

/// The seed's doubletime endgame: White Ke1, Pe2 against Black Ke8.
const KP_ENDGAME: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// The seed's line in that endgame up to 3.Kd3-c4+.
const KP_LINE: &str = "1.Ke1-d2-d3 Ke8-d7-d6 2.e2-e3-e4+ Kd6-e6 3.Kd3-c4+";
/// Ne4-f6xe8 (doubletime) takes the king, and the only piece attacking f6,
/// the knight on g8, may not free it: the rook on h8 would then attack it.
/// After Ne4-d6xe8, c7xd6 frees it.
const PINNED_RESCUER: &str = "4k1nR/2p5/8/8/4N3/8/8/4K3 w - - 0 10";

/// `pbem variants` lists doublestep and doubletime, one line each.
#[test]
fn the_doublestep_variants_are_listed() {
    for id in ["doublestep", "doubletime"] {
        let listed = run_pbem(&["variants"]);
        assert!(
            listed
                .lines()
                .any(|line| line.starts_with(&format!("{id}  ")))
        );
    }
}

/// The seed's K+P endgame replayed to its mate `6.Kd4-d5-c6`, as a player
/// would replay it.
#[test]
fn the_seed_endgame_line_replays_through_the_command_line() {
    let record = format!("{KP_LINE} Ke6-d7 4.e4-e5-e6+ Kd7-e7 5.Kc4-d4 Ke7-e8");
    let output = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args([
            "replay",
            "--variant",
            "doubletime",
            "--fen",
            KP_ENDGAME,
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("piped stdin")
                .write_all(format!("{record} 6.Kd4-d5-c6+").as_bytes())?;
            child.wait_with_output()
        })
        .expect("pbem runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("6.Kd4-d5-c6#"), "{text}");
    assert!(text.contains("result: 1-0 checkmate"), "{text}");
}

/// perft divide and the legal-move summary print doublesteps whole
/// (`Nb1-c3-e4`).
#[test]
fn perft_and_legal_print_doublesteps_whole() {
    for variant in ["doublestep", "doubletime"] {
        let divide = run_pbem(&["perft", "--variant", variant, "1"]);
        assert!(divide.lines().any(|line| line == "Nb1-c3-e4 1"), "{divide}");
        assert!(divide.ends_with("turns(1) = 32\n"), "{divide}");
        let summary = run_pbem(&["legal", "--variant", variant]);
        assert!(summary.contains("Legal turns: 32"), "{summary}");
        assert!(
            summary.contains("Knight: Na3 Nb1-a3-c4 Nb1-a3-b5 Nc3"),
            "{summary}"
        );
    }
}

/// `pbem perft --variant <v> <depth>` prints the counts the rules crate's
/// reference agrees with (a doublestep is one turn).
#[test]
fn the_command_line_perft_agrees() {
    for (variant, counts) in [
        ("doublestep", [32, 1_008, 50_629]),
        ("doubletime", [32, 1_018, 53_895]),
        ("twinmove", [121, 14_549, 2_949_594]),
        ("twinmove-free", [121, 15_033, 3_234_215]),
    ] {
        for (depth, count) in (1..).zip(counts) {
            let output = Command::new(env!("CARGO_BIN_EXE_pbem"))
                .args(["perft", "--variant", variant, &depth.to_string()])
                .output()
                .expect("pbem runs");
            let text = String::from_utf8_lossy(&output.stdout);
            assert!(
                text.ends_with(&format!("turns({depth}) = {count}\n")),
                "{variant} {depth}: {}",
                text.lines().last().unwrap_or("")
            );
        }
    }
    // A turn that ends the game counts at its own depth only.
    let output = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args([
            "perft",
            "--variant",
            "doubletime",
            "--fen",
            PINNED_RESCUER,
            "3",
        ])
        .output()
        .expect("pbem runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Ne4-f6xe8 0\n"), "{text}");
    assert!(text.ends_with("turns(3) = 91521\n"), "{text}");
}
