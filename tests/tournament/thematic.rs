//! A thematic round robin by mail: three players, every game started
//! after the Najdorf, named in the creation notice, the start mails and
//! the board mails; `--opening` on a double-move variant is refused.

use pbem_testkit::{Harness, address, flat, games_in};

const TD: &str = "td@example.org";

#[test]
fn a_thematic_round_robin_starts_every_game_after_the_opening() {
    let mut h = Harness::new();
    h.signup("td", TD);
    let players = ["t1", "t2", "t3"];
    for p in players {
        h.signup(p, &address(p));
    }
    let refused = h.send(
        TD,
        "new",
        "tournament create td td-pw najdorf chess2 --opening=sicilian-najdorf",
    );
    assert!(
        flat(&refused[0].body).contains("chess2 cannot play them"),
        "{}",
        refused[0].body
    );
    let refused = h.send(
        TD,
        "new",
        "tournament create td td-pw najdorf chess --opening=english",
    );
    assert!(
        flat(&refused[0].body).contains("several openings match"),
        "{}",
        refused[0].body
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM tournaments"), 0);
    let created = h.send(
        TD,
        "new",
        "tournament create td td-pw najdorf chess --opening=sicilian-najdorf",
    );
    assert!(
        flat(&created[0].body).contains(
            "Opening: every game starts after B90 Sicilian Defense: Najdorf Variation (1.e4 c5"
        ),
        "{}",
        created[0].body
    );
    for p in players {
        h.send(
            &address(p),
            "e",
            &format!("tournament enter najdorf {p} {p}-pw"),
        );
    }
    let started = h.send(TD, "s", "tournament start najdorf td td-pw");
    for p in players {
        let mail = started
            .iter()
            .find(|m| m.to == address(p) && m.subject.contains("your new board"))
            .unwrap_or_else(|| panic!("{p}'s start mail: {started:#?}"));
        assert!(
            flat(&mail.body).contains(
                "Every game of the event starts after the opening B90 Sicilian Defense: Najdorf Variation"
            ),
            "{}",
            mail.body
        );
    }
    let notice = started
        .iter()
        .find(|m| m.to == TD && !games_in(&m.body).is_empty())
        .unwrap_or_else(|| panic!("the director's start notice: {started:#?}"));
    let games = games_in(&notice.body);
    assert_eq!(games.len(), 3, "{}", notice.body);
    for game in games {
        // White's sixth move is read on the Najdorf, then Black resigns.
        let moved = h.send(
            &address(&game.white),
            "m",
            &format!("move {} {} {}-pw Be3", game.board, game.white, game.white),
        );
        assert!(
            moved.iter().any(|m| m
                .body
                .contains("Opening: B90 Sicilian Defense: Najdorf Variation")
                && m.body.contains("6.Be3")),
            "{moved:#?}"
        );
        h.send(
            &address(&game.black),
            "r",
            &format!("resign {} {} {}-pw", game.board, game.black, game.black),
        );
    }
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE opening LIKE 'B90%' AND result = '1-0'"),
        3
    );
    assert_eq!(
        h.count("SELECT COUNT(*) FROM tournaments WHERE status = 'finished'"),
        1
    );
}
