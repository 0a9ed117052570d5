//! A Chess960 Swiss by mail: four players, two rounds, every game from
//! the one array drawn when the event starts, named in the creation
//! notice and the start mails; a position past 959 is refused.

use pbem_testkit::{Harness, address, flat, games_in};

const TD: &str = "td@example.org";

#[test]
fn a_chess960_swiss_plays_every_game_from_one_drawn_array() {
    let mut h = Harness::new();
    h.signup("td", TD);
    let players = ["s1", "s2", "s3", "s4"];
    for p in players {
        h.signup(p, &address(p));
    }
    let refused = h.send(
        TD,
        "new",
        "tournament create td td-pw fr960 chess960 --swiss=2 --position=1000",
    );
    assert!(
        flat(&refused[0].body)
            .contains("--position=1000: give the number of a Chess960 starting array"),
        "{}",
        refused[0].body
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM tournaments"), 0);
    let created = h.send(
        TD,
        "new",
        "tournament create td td-pw fr960 chess960 --swiss=2",
    );
    assert!(
        created[0]
            .body
            .contains("Start: every game from one Chess960 position, drawn when the event starts"),
        "{}",
        created[0].body
    );
    for p in players {
        h.send(
            &address(p),
            "e",
            &format!("tournament enter fr960 {p} {p}-pw"),
        );
    }
    let started = h.send(TD, "s", "tournament start fr960 td td-pw");
    let drawn: u32 = h
        .database()
        .query_row("SELECT start_position FROM tournaments", [], |r| r.get(0))
        .expect("drawn at the start");
    let line = format!("Every game of the event starts from Chess960 position {drawn} (");
    for p in players {
        let mail = started
            .iter()
            .find(|m| m.to == address(p) && m.subject.contains("your new board"))
            .unwrap_or_else(|| panic!("{p}'s start mail: {started:#?}"));
        assert!(mail.body.contains(&line), "{}", mail.body);
    }
    for round in 1..=2 {
        let notice = h
            .all_mails()
            .into_iter()
            .rev()
            .find(|m| {
                m.to == TD
                    && m.body
                        .contains(&format!("Round {round} of 2 of \"fr960\" is paired"))
            })
            .unwrap_or_else(|| panic!("round {round} paired"));
        let games: Vec<_> = games_in(&notice.body)
            .into_iter()
            .filter(|g| g.round == round)
            .collect();
        assert_eq!(games.len(), 2, "{}", notice.body);
        for game in games {
            // Each game is really played from the array: White's first
            // move is read on it, then Black resigns.
            let moved = h.send(
                &address(&game.white),
                "m",
                &format!("move {} {} {}-pw a3", game.board, game.white, game.white),
            );
            assert!(
                moved.iter().any(|m| m
                    .body
                    .contains(&format!("Start: Chess960 position {drawn} ("))),
                "{moved:#?}"
            );
            h.send(
                &address(&game.black),
                "r",
                &format!("resign {} {} {}-pw", game.board, game.black, game.black),
            );
        }
    }
    assert_eq!(
        h.count(&format!(
            "SELECT COUNT(*) FROM boards WHERE variant = 'chess960' AND start_position = {drawn} AND result = '1-0'"
        )),
        4
    );
    assert_eq!(
        h.count("SELECT COUNT(*) FROM tournaments WHERE status = 'finished'"),
        1
    );
}
