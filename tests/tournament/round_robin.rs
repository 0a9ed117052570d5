//! Round-robin events played whole by mail, through the real Maildir and
//! outbox: a 4-player and a 5-player (odd: a player sits out each round)
//! single round robin and a 3-player double round robin, with wins,
//! draws, a loss on time (the deadline sweep), a withdrawal and a
//! director's adjudication. Every crosstable cell, score and tiebreak is
//! checked against values worked out by hand below; the draw of lots
//! decides colours and board numbers, so the tests find each pairing's
//! board in the director's start notice and never rely on them.

use std::collections::HashMap;

use pbem_testkit::{Game, Harness, Sent, address, games_in, to};
use time::Duration;

const TD: &str = "td@example.org";

struct Event {
    name: String,
    director: String,
    games: Vec<Game>,
}

impl Event {
    /// The games between `a` and `b`, in round order.
    fn between(&self, a: &str, b: &str) -> Vec<Game> {
        let mut games: Vec<Game> = self
            .games
            .iter()
            .filter(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
            .cloned()
            .collect();
        games.sort_by_key(|g| g.round);
        games
    }

    fn first(&self, a: &str, b: &str) -> Game {
        self.between(a, b)[0].clone()
    }
}

/// Signs up the director and the players, creates the event with
/// `options`, enters every player and starts it; returns the pairings read
/// from the director's start notice.
fn start_event(
    h: &mut Harness,
    director: &str,
    players: &[&str],
    name: &str,
    options: &str,
) -> Event {
    if !players.contains(&director) {
        h.signup(director, &address(director));
    }
    for player in players {
        h.signup(player, &address(player));
    }
    let created = h.send(
        &address(director),
        "new event",
        &format!("tournament create {director} {director}-pw {name} chess {options}"),
    );
    assert_eq!(created.len(), 1, "{created:#?}");
    assert_eq!(
        created[0].subject,
        format!("pbem tournament {name}: created"),
        "{}",
        created[0].body
    );
    for player in players {
        let entered = h.send(
            &address(player),
            "enter",
            &format!("tournament enter {name} {player} {player}-pw"),
        );
        assert_eq!(entered.len(), 1, "{entered:#?}");
        assert!(
            entered[0]
                .body
                .contains(&format!("{player} entered \"{name}\"")),
            "{}",
            entered[0].body
        );
    }
    let started = h.send(
        &address(director),
        "start",
        &format!("tournament start {name} {director} {director}-pw"),
    );
    let notice = to(&started, &address(director));
    assert!(
        notice.body.contains(&format!("\"{name}\" has started")),
        "{}",
        notice.body
    );
    let games = games_in(&notice.body);
    let n = players.len();
    // Each player's list of new boards names every game of theirs; White,
    // who moves first, has the board mail too, Black none yet (a director
    // who plays finds all of it in the one answer).
    for game in &games {
        for player in [&game.white, &game.black] {
            let mails: Vec<&Sent> = started.iter().filter(|m| m.to == address(player)).collect();
            assert!(
                mails
                    .iter()
                    .any(|m| m.body.contains(&format!("  Board {}, round", game.board))),
                "board {} in {player}'s list",
                game.board
            );
            let board_mail = mails.iter().any(|m| {
                m.subject
                    .starts_with(&format!("New Chess Board {} ", game.board))
            });
            if player != director {
                assert_eq!(
                    board_mail,
                    player == &game.white,
                    "board mail of {} to {player}",
                    game.board
                );
            }
        }
    }
    Event {
        name: name.to_string(),
        director: director.to_string(),
        games,
    }
    .check_count(n)
}

impl Event {
    fn check_count(self, players: usize) -> Event {
        let single = players * (players - 1) / 2;
        assert!(
            self.games.len() == single || self.games.len() == 2 * single,
            "{} games for {players} players",
            self.games.len()
        );
        self
    }
}

fn resign(h: &mut Harness, board: u32, loser: &str) -> Vec<Sent> {
    let mails = h.send(
        &address(loser),
        "resign",
        &format!("resign {board} {loser} {loser}-pw"),
    );
    assert!(!mails.is_empty());
    assert!(
        !mails.iter().any(|m| m.subject.ends_with("Error")),
        "{mails:#?}"
    );
    mails
}

/// Two turns each on `game`: a game ended before each side made two
/// turns is an abort and not rated (issue 24); the event still scores it.
fn opening(h: &mut Harness, game: &Game) {
    for (who, turn) in [
        (&game.white, "e4"),
        (&game.black, "e5"),
        (&game.white, "Nf3"),
        (&game.black, "Nc6"),
    ] {
        let mails = h.send(
            &address(who),
            "move",
            &format!("move {} {who} {who}-pw {turn}", game.board),
        );
        assert!(
            !mails.iter().any(|m| m.subject.ends_with("Error")),
            "{mails:#?}"
        );
    }
}

/// `winner` beats `loser` on `game` (the loser resigns after two turns
/// each).
fn win(h: &mut Harness, game: &Game, winner: &str) -> Vec<Sent> {
    let loser = if game.white == winner {
        &game.black
    } else {
        &game.white
    };
    opening(h, game);
    resign(h, game.board, loser)
}

fn draw(h: &mut Harness, game: &Game) -> Vec<Sent> {
    opening(h, game);
    let offer = h.send(
        &address(&game.white),
        "draw",
        &format!("draw {} {} {}-pw", game.board, game.white, game.white),
    );
    assert!(
        !offer.iter().any(|m| m.subject.ends_with("Error")),
        "{offer:#?}"
    );
    h.send(
        &address(&game.black),
        "accept",
        &format!("accept {} {} {}-pw", game.board, game.black, game.black),
    )
}

/// The director rules that `winner` won `game` (after two turns each).
fn adjudicate(h: &mut Harness, event: &Event, game: &Game, winner: &str) -> Vec<Sent> {
    opening(h, game);
    let score = if game.white == winner { "1-0" } else { "0-1" };
    let td = &event.director;
    let mails = h.send(
        &address(td),
        "ruling",
        &format!(
            "tournament adjudicate {} {td} {td}-pw {} {score} the loser stopped answering the director",
            event.name, game.board
        ),
    );
    let answer = to(&mails, &address(td));
    assert!(
        answer.body.contains(&format!("Board {} of", game.board)),
        "{}",
        answer.body
    );
    mails
}

/// `loser` loses `game` on time after two turns each: if they are Black,
/// White moves once more so that they are to move; then the sweep runs 8
/// days on (the event's boards lose on time after 7 days without a move).
fn lose_on_time(h: &mut Harness, game: &Game, loser: &str) -> Vec<Sent> {
    opening(h, game);
    if game.black == loser {
        let moved = h.send(
            &address(&game.white),
            "move",
            &format!("move {} {} {}-pw Bb5", game.board, game.white, game.white),
        );
        assert!(
            !moved.iter().any(|m| m.subject.ends_with("Error")),
            "{moved:#?}"
        );
    }
    let at = h.now + Duration::days(8);
    h.sweep(at)
}

/// The boards the ratings hold a rated game of, and what
/// `pbem ratings --rebuild` says (a rebuild agrees with the ratings made
/// as the games ended: `unchanged`).
fn rated_boards_and_rebuild(h: &Harness) -> (Vec<u32>, String) {
    let conn = h.database();
    let mut statement = conn
        .prepare("SELECT board FROM rated_games ORDER BY board")
        .expect("query");
    let boards = statement
        .query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<Vec<u32>, _>>()
        .expect("boards");
    (boards, h.rebuild_ratings())
}

/// The rows of the crosstable in a mail body: each row split into words.
/// Checks that every row has the header's width (the table lines up).
fn crosstable_rows(body: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = body.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.trim_start().starts_with("#  Player"))
        .unwrap_or_else(|| panic!("a crosstable in:\n{body}"));
    let width = lines[header].chars().count();
    let mut rows = Vec::new();
    for line in &lines[header + 1..] {
        if line.trim().is_empty() {
            break;
        }
        assert_eq!(
            line.chars().count(),
            width,
            "every row as wide as the header:\n{body}"
        );
        rows.push(line.split_whitespace().map(str::to_string).collect());
    }
    rows
}

fn row(words: &str) -> Vec<String> {
    words.split_whitespace().map(str::to_string).collect()
}

/// The final crosstable mail each of `readers` got among `mails`.
fn final_tables<'a>(mails: &'a [Sent], event: &str, readers: &[&str]) -> HashMap<String, &'a Sent> {
    let mut tables = HashMap::new();
    for reader in readers {
        let mail = mails
            .iter()
            .find(|m| {
                m.to == address(reader) && m.body.contains(&format!("Final crosstable: {event}"))
            })
            .unwrap_or_else(|| panic!("no final crosstable to {reader} among {mails:#?}"));
        tables.insert(reader.to_string(), mail);
    }
    tables
}

#[test]
fn a_four_player_round_robin_with_a_draw_an_adjudication_and_a_loss_on_time() {
    let mut h = Harness::new();
    let players = ["ann", "bob", "cat", "dan"];
    let event = start_event(&mut h, "td", &players, "spring", "");
    assert_eq!(event.games.len(), 6);
    let rounds: Vec<u32> = event.games.iter().map(|g| g.round).collect();
    assert_eq!(rounds, [1, 1, 2, 2, 3, 3], "Berger: 3 rounds of 2 games");

    let mails = win(&mut h, &event.first("ann", "bob"), "ann");
    // The director hears of every finished game.
    let notice = to(&mails, TD);
    assert!(
        notice.subject.starts_with("pbem tournament spring: board"),
        "{}",
        notice.subject
    );
    assert!(notice.body.contains("5 games of the"), "{}", notice.body);
    draw(&mut h, &event.first("ann", "cat"));
    // A rated event: the director's ruling is rated like a played game,
    // and its mail to the players says so.
    let ruled = adjudicate(&mut h, &event, &event.first("ann", "dan"), "ann");
    let to_dan = to(&ruled, &address("dan"));
    assert!(
        to_dan.body.contains("Chess rating: dan ") && to_dan.body.contains("Chess rating: ann "),
        "{}",
        to_dan.body
    );
    win(&mut h, &event.first("bob", "cat"), "bob");
    draw(&mut h, &event.first("bob", "dan"));

    // Mid-event: the standings for anybody.
    let standings = h.send("guest@example.net", "s", "tournament standings spring");
    assert_eq!(standings.len(), 1);
    assert!(
        standings[0].body.contains("5 of 6 games finished"),
        "{}",
        standings[0].body
    );
    let crosstable = h.send("guest@example.net", "s", "tournament crosstable spring");
    let rows = crosstable_rows(&crosstable[0].body);
    assert!(
        rows.iter().any(|r| r.contains(&"*".to_string())),
        "a game in progress shows *: {rows:?}"
    );

    // The last game: dan loses on time to cat, in the sweep.
    let last = lose_on_time(&mut h, &event.first("cat", "dan"), "dan");
    let tables = final_tables(&last, "spring", &["ann", "bob", "cat", "dan", "td"]);
    // By hand: ann 1 + ½ + 1 = 2½; bob 0 + 1 + ½ = 1½; cat ½ + 0 + 1 =
    // 1½; dan 0 + ½ + 0 = ½.
    // SB: ann 1·1½ + ½·1½ + 1·½ = 2.75; bob 1·1½ (cat) + ½·½ (dan) =
    // 1.75; cat ½·2½ + 1·½ = 1.75; dan ½·1½ = 0.75.
    // Wins: ann 2, bob 1, cat 1, dan 0. bob and cat tie on score, SB and
    // wins: direct encounter (bob beat cat) puts bob ahead, DE 1 to 0.
    let expected = vec![
        row("1 ann XX 1 ½ 1 2½ 3 2.75 2 0"),
        row("2 bob 0 XX 1 ½ 1½ 3 1.75 1 1"),
        row("3 cat ½ 0 XX 1 1½ 3 1.75 1 0"),
        row("4 dan 0 ½ 0 XX ½ 3 0.75 0 0"),
    ];
    for (reader, mail) in &tables {
        assert_eq!(
            mail.subject, "pbem tournament spring: final crosstable",
            "{reader}"
        );
        assert_eq!(
            crosstable_rows(&mail.body),
            expected,
            "{reader}:\n{}",
            mail.body
        );
        assert!(mail.body.contains("6 of 6 games finished"), "{}", mail.body);
    }
    let header = tables["td"]
        .body
        .lines()
        .find(|l| l.contains("Player"))
        .expect("header")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(header, "# Player 1 2 3 4 Score G SB Wins DE");

    let listed = h.send("guest@example.net", "l", "tournaments finished");
    assert!(listed[0].body.contains("spring"), "{}", listed[0].body);
    let open = h.send("guest@example.net", "l", "tournaments open");
    assert!(!open[0].body.contains("spring"), "{}", open[0].body);

    // Every game of the rated event was rated: resignations, draws, the
    // ruling and the loss on time.
    let (rated, rebuilt) = rated_boards_and_rebuild(&h);
    let mut boards: Vec<u32> = event.games.iter().map(|g| g.board).collect();
    boards.sort_unstable();
    assert_eq!(rated, boards);
    assert!(rebuilt.contains("unchanged"), "{rebuilt}");

    // The event's games as one PGN.
    let pgn = h.send("guest@example.net", "p", "tournament pgn spring");
    assert_eq!(pgn[0].body.matches("[Event \"spring\"]").count(), 6);
    assert!(pgn[0].body.contains("[Round \"3\"]"), "{}", pgn[0].body);
    assert!(pgn[0].body.contains("[Board \"101\"]"), "{}", pgn[0].body);
}

#[test]
fn a_five_player_round_robin_with_byes_and_a_withdrawal() {
    let mut h = Harness::new();
    let players = ["amy", "ben", "cal", "deb", "eve"];
    let event = start_event(&mut h, "td", &players, "odd", "");
    assert_eq!(event.games.len(), 10);
    // Five rounds of two games: each player sits out one round.
    for round in 1..=5 {
        let playing: Vec<&String> = event
            .games
            .iter()
            .filter(|g| g.round == round)
            .flat_map(|g| [&g.white, &g.black])
            .collect();
        assert_eq!(playing.len(), 4, "round {round}");
    }
    win(&mut h, &event.first("amy", "ben"), "amy");
    win(&mut h, &event.first("amy", "cal"), "amy");
    draw(&mut h, &event.first("amy", "deb"));
    win(&mut h, &event.first("ben", "cal"), "ben");
    draw(&mut h, &event.first("ben", "deb"));
    win(&mut h, &event.first("ben", "eve"), "eve");
    win(&mut h, &event.first("cal", "deb"), "cal");

    // The director withdraws eve: her three unfinished games are lost by
    // forfeit, which ends the event. The director's answer is one mail
    // with the final crosstable in it.
    let mails = h.send(
        TD,
        "withdraw",
        "tournament withdraw odd td td-pw eve --keep-played",
    );
    let answers: Vec<&Sent> = mails.iter().filter(|m| m.to == TD).collect();
    assert_eq!(answers.len(), 1, "one answer to the director: {mails:#?}");
    let answer = answers[0];
    assert!(
        answer
            .body
            .contains("eve is withdrawn from \"odd\": 3 unfinished games"),
        "{}",
        answer.body
    );
    assert!(
        answer.body.contains("Final crosstable: odd"),
        "{}",
        answer.body
    );
    let tables = final_tables(&mails, "odd", &["amy", "ben", "cal", "deb", "eve"]);
    // By hand: amy 1 + 1 + ½ + 1(+) = 3½; ben 0 + 1 + ½ + 0 = 1½; cal 0 +
    // 0 + 1 + 1(+) = 2; deb ½ + ½ + 0 + 1(+) = 2; eve 1 (ben) = 1.
    // SB, a forfeit counting as a game against an opponent with the
    // player's own score: amy 1·1½ + 1·2 + ½·2 + 1·3½ = 8; deb ½·3½ +
    // ½·1½ + 1·2 = 4.5; cal 1·2 (deb) + 1·2 = 4; ben 1·2 + ½·2 = 3; eve
    // 1·1½ = 1.5. deb is ahead of cal on SB.
    // Wins (forfeits included): amy 3, deb 1, cal 2, ben 1, eve 1.
    // Games played: amy 3, deb 3, cal 3, ben 4, eve 1.
    let expected = vec![
        row("1 amy XX ½ 1 1 + 3½ 3 8 3 0"),
        row("2 deb ½ XX 0 ½ + 2 3 4.5 1 0"),
        row("3 cal 0 1 XX 0 + 2 3 4 2 0"),
        row("4 ben 0 ½ 1 XX 0 1½ 4 3 1 0"),
        row("5 eve w - - - 1 XX 1 1 1.5 1 0"),
    ];
    for (reader, mail) in &tables {
        assert_eq!(
            crosstable_rows(&mail.body),
            expected,
            "{reader}:\n{}",
            mail.body
        );
    }
    assert_eq!(
        crosstable_rows(&answer.body),
        expected,
        "the director's copy:\n{}",
        answer.body
    );
    // The seven games played are rated; eve's three forfeits are not, and
    // a rebuild agrees.
    let (rated, rebuilt) = rated_boards_and_rebuild(&h);
    assert_eq!(rated.len(), 7, "{rated:?}");
    for game in event
        .games
        .iter()
        .filter(|g| g.white == "eve" || g.black == "eve")
    {
        let played = game.white == "ben" || game.black == "ben";
        assert_eq!(rated.contains(&game.board), played, "{game:?}");
    }
    assert!(rebuilt.contains("unchanged"), "{rebuilt}");
}

#[test]
fn a_three_player_double_round_robin_directed_by_a_player() {
    let mut h = Harness::new();
    let players = ["ann", "bob", "cat"];
    let event = start_event(&mut h, "ann", &players, "twice", "--double");
    assert_eq!(event.games.len(), 6);
    for (a, b) in [("ann", "bob"), ("ann", "cat"), ("bob", "cat")] {
        let games = event.between(a, b);
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].white, games[1].black,
            "each pairing with both colours"
        );
    }
    let ab = event.between("ann", "bob");
    let ac = event.between("ann", "cat");
    let bc = event.between("bob", "cat");
    // A director who plays may not rule on her own game: refused, and the
    // board goes on (ann then wins it over the board).
    let own = h.send(
        &address("ann"),
        "ruling",
        &format!(
            "tournament adjudicate twice ann ann-pw {} {} bob stopped answering",
            ab[0].board,
            if ab[0].white == "ann" { "1-0" } else { "0-1" }
        ),
    );
    let refusal = to(&own, &address("ann"));
    assert!(refusal.body.contains("your own game"), "{}", refusal.body);
    assert_eq!(own.len(), 1, "nobody else hears of it: {own:#?}");
    win(&mut h, &ab[0], "ann");
    draw(&mut h, &ab[1]);
    draw(&mut h, &ac[0]);
    win(&mut h, &ac[1], "cat");
    adjudicate(&mut h, &event, &bc[0], "bob");
    // The last game: bob resigns to cat. bob's one answer holds his board
    // mail and the final crosstable.
    let mails = win(&mut h, &bc[1], "cat");
    let bobs: Vec<&Sent> = mails.iter().filter(|m| m.to == address("bob")).collect();
    assert_eq!(bobs.len(), 1, "one answer to bob: {mails:#?}");
    assert!(
        bobs[0].body.contains("Final crosstable: twice"),
        "{}",
        bobs[0].body
    );
    assert!(bobs[0].body.contains("bob resigned"), "{}", bobs[0].body);
    let tables = final_tables(&mails, "twice", &["ann", "cat"]);
    // By hand, games in round order: ann-bob 1 ½, ann-cat ½ 0, bob-cat 1 0.
    // ann 2, bob 1½, cat 2½. SB: cat (½+1)·2 + 1·1½ = 4.5; ann 1½·1½ +
    // ½·2½ = 3.5; bob ½·2 + 1·2½ = 3.5. Wins: cat 2, ann 1, bob 1.
    let expected = vec![
        row("1 cat XX ½1 01 2½ 4 4.5 2 0"),
        row("2 ann ½0 XX 1½ 2 4 3.5 1 0"),
        row("3 bob 10 0½ XX 1½ 4 3.5 1 0"),
    ];
    for reader in ["ann", "cat"] {
        assert_eq!(crosstable_rows(&tables[reader].body), expected, "{reader}");
    }
    assert_eq!(crosstable_rows(&bobs[0].body), expected);
    // ann directs and plays: a notice of the last game and her crosstable.
    assert!(
        mails.iter().any(|m| m.to == address("ann")
            && m.subject
                .contains(&format!("board {} finished", bc[1].board))),
        "{mails:#?}"
    );
}

#[test]
fn nobody_acts_for_the_director_or_another_player_and_refusals_change_nothing() {
    let mut h = Harness::new();
    for p in ["td", "ann", "bob", "mal"] {
        h.signup(p, &address(p));
    }
    let refused = |h: &mut Harness, from: &str, line: &str, says: &str| {
        let before = h.game_state() + &tournament_rows(h);
        let mails = h.send(&address(from), "x", line);
        assert_eq!(mails.len(), 1, "{mails:#?}");
        assert!(
            mails[0].subject.contains("Error"),
            "{line}: {}",
            mails[0].subject
        );
        assert!(
            mails[0].body.contains(says),
            "{line}: wanted {says:?} in\n{}",
            mails[0].body
        );
        assert_eq!(
            before,
            h.game_state() + &tournament_rows(h),
            "{line} changed something"
        );
    };
    h.send(
        TD,
        "c",
        "tournament create td td-pw cup chess --invite-only",
    );
    refused(
        &mut h,
        "ann",
        "tournament create td wrong cup2 chess",
        // A known userid is never a password: the answer names it.
        "wrong userid or password for \"td\"",
    );
    refused(
        &mut h,
        "ann",
        "tournament create ann ann-pw cup chess",
        "there is already an event \"cup\"",
    );
    refused(
        &mut h,
        "ann",
        "tournament create ann ann-pw cup3 dragonchess",
        "\"dragonchess\" is not a variant",
    );
    refused(
        &mut h,
        "ann",
        "tournament enter cup ann ann-pw",
        "by invitation only",
    );
    refused(
        &mut h,
        "mal",
        "tournament invite cup mal mal-pw mal",
        "mal is not the director of the event \"cup\"",
    );
    refused(
        &mut h,
        "mal",
        "tournament invite cup td mal-pw mal",
        "wrong userid or password for \"td\"",
    );
    refused(
        &mut h,
        "ann",
        "tournament enter nocup ann ann-pw",
        "there is no event \"nocup\"",
    );
    let invited = h.send(TD, "i", "tournament invite cup td td-pw ann bob");
    assert!(
        to(&invited, &address("ann"))
            .body
            .contains("You are invited")
    );
    h.send(&address("ann"), "e", "tournament enter cup ann ann-pw");
    refused(
        &mut h,
        "mal",
        "tournament enter cup bob ann-pw",
        "wrong userid or password for \"bob\"",
    );
    refused(
        &mut h,
        "ann",
        "tournament enter cup ann ann-pw",
        "ann has already entered \"cup\"",
    );
    h.send(&address("bob"), "e", "tournament enter cup bob bob-pw");
    refused(
        &mut h,
        "td",
        "tournament start cup td td-pw",
        "\"cup\" needs at least 3 players to start; it has 2",
    );
    refused(
        &mut h,
        "ann",
        "tournament start cup ann ann-pw",
        "ann is not the director",
    );
    refused(
        &mut h,
        "td",
        "tournament withdraw cup td td-pw ann",
        "\"cup\" is open",
    );
    refused(
        &mut h,
        "td",
        "tournament adjudicate cup td td-pw 101 1-0 no",
        "board 101 is not a game of \"cup\"",
    );
    refused(
        &mut h,
        "ann",
        "tournament enter cup ann",
        "the password is missing",
    );
    h.send(TD, "i", "tournament invite cup td td-pw mal");
    h.send(&address("mal"), "e", "tournament enter cup mal mal-pw");
    let started = h.send(TD, "s", "tournament start cup td td-pw");
    let first = games_in(&to(&started, TD).body)
        .into_iter()
        .find(|game| game.round == 1)
        .map(|game| (game.board.to_string(), game.white, game.black))
        .expect("a game in round 1");
    refused(
        &mut h,
        "bob",
        "tournament leave cup bob bob-pw",
        "\"cup\" has started",
    );
    refused(
        &mut h,
        "td",
        "tournament start cup td td-pw",
        "\"cup\" is running already",
    );
    refused(
        &mut h,
        "td",
        "tournament withdraw cup td td-pw nobody",
        "\"nobody\" is not an entrant of \"cup\"",
    );
    let (board, white, black) = first;
    for player in [white, black] {
        refused(
            &mut h,
            &player,
            &format!("decline {board} {player} {player}-pw"),
            "cannot be declined",
        );
    }
}

fn tournament_rows(h: &Harness) -> String {
    h.rows(&[
        "tournaments",
        "tournament_entries",
        "tournament_invites",
        "tournament_games",
    ])
}

#[test]
fn the_vacation_allowance_of_an_event_limits_how_long_a_vacation_stops_its_clocks() {
    let mut h = Harness::new();
    let event = start_event(
        &mut h,
        "td",
        &["ann", "bob", "cat"],
        "short",
        "--vacation=2",
    );
    let start = h.now;
    // Everybody goes on vacation for 10 days at once.
    let mut away_from = HashMap::new();
    for p in ["ann", "bob", "cat"] {
        let mails = h.send(&address(p), "v", &format!("vacation {p} {p}-pw 10"));
        assert!(!mails[0].subject.contains("Error"), "{}", mails[0].body);
        away_from.insert(p.to_string(), h.now);
    }
    // A move in the first game: the board mail to Black, who is away for
    // 10 days, names the loss on time 7 days after the move plus what is
    // left of the 2 days' allowance (2 days from the start of Black's
    // vacation, a few minutes before the move), not 7 + 10.
    let game = event.games.iter().find(|g| g.round == 1).expect("a game");
    let moved = h.send(
        &address(&game.white),
        "move",
        &format!("move {} {} {}-pw e4", game.board, game.white, game.white),
    );
    let to_black = to(&moved, &address(&game.black));
    let due = (away_from[&game.black] + Duration::days(9)).format(
        &time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC"),
    );
    assert!(
        to_black.body.contains(&format!(
            "and by {} not to lose on time",
            due.expect("a date")
        )),
        "{}",
        to_black.body
    );
    // 7 days to move plus 2 of vacation: nothing is lost after 8.5 days,
    // every game is lost on time after 9.5 (a vacation without the
    // allowance would have held the clocks until day 17).
    let early = h.sweep(start + Duration::hours(8 * 24 + 12));
    assert!(
        !early.iter().any(|m| m.body.contains("lost on time")),
        "{early:#?}"
    );
    let late = h.sweep(start + Duration::hours(9 * 24 + 12));
    let finished = tournament_rows(&h)
        .lines()
        .filter(|l| l.starts_with("tournament_games:") && !l.contains("| Null |"))
        .count();
    assert_eq!(finished, 3, "{late:#?}\n{}", tournament_rows(&h));
    assert!(
        late.iter()
            .any(|m| m.body.contains("Final crosstable: short"))
    );
}

#[test]
fn the_sweep_counts_vacations_against_the_allowance_from_the_start_of_the_event() {
    // Bug: the sweep read vacations only from its oldest running clock, a
    // board mail from the event's start, so a vacation taken early in the
    // event used up the allowance in the board mail but not in the sweep,
    // and the game was not lost on the date the board mail named.
    let mut h = Harness::new();
    let event = start_event(&mut h, "td", &["ann", "bob", "cat"], "trio", "--vacation=4");
    let game = event.games.first().expect("a game").clone();
    let start = h.now;
    // Black spends 2 of the 4 days at once.
    let first = h.send(
        &address(&game.black),
        "v",
        &format!("vacation {} {}-pw 2", game.black, game.black),
    );
    assert!(!first[0].subject.contains("Error"), "{}", first[0].body);
    // After it, Black goes away again for 10 days, and then White moves in
    // every game: every running clock starts after the first vacation.
    h.now = start + Duration::hours(3 * 24);
    let second = h.send(
        &address(&game.black),
        "v",
        &format!("vacation {} {}-pw 10", game.black, game.black),
    );
    assert!(!second[0].subject.contains("Error"), "{}", second[0].body);
    let moved = h.send(
        &address(&game.white),
        "move",
        &format!("move {} {} {}-pw e4", game.board, game.white, game.white),
    );
    for other in event.games.iter().filter(|g| g.board != game.board) {
        let mails = h.send(
            &address(&other.white),
            "move",
            &format!("move {} {} {}-pw e4", other.board, other.white, other.white),
        );
        assert!(!mails[0].subject.contains("Error"), "{}", mails[0].body);
    }
    let body = &to(&moved, &address(&game.black)).body;
    let due_text = body
        .split("and by ")
        .nth(1)
        .and_then(|rest| rest.split(" not to lose on time").next())
        .unwrap_or_else(|| panic!("no loss-on-time date in {body}"));
    let due = time::PrimitiveDateTime::parse(
        due_text.trim_end_matches(" UTC"),
        &time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]"),
    )
    .expect("a date")
    .assume_utc();
    // 7 days to move and the 2 days of allowance left: not 7 + 4.
    let moved_at = h.now;
    assert!(
        due < moved_at + Duration::days(10) && due >= moved_at + Duration::days(8),
        "due {due}, moved {moved_at}"
    );
    let lost = |mails: &[Sent]| {
        mails.iter().any(|m| {
            m.subject.contains(&format!("Board {} ", game.board)) && m.body.contains("lost on time")
        })
    };
    let before = h.sweep(due - Duration::hours(1));
    assert!(!lost(&before), "{before:#?}");
    let after = h.sweep(due + Duration::hours(1));
    assert!(
        lost(&after),
        "the board mail named {due_text}; the sweep after it: {after:#?}"
    );
}

/// Issue 36: in an event created with `--vacation=0`, a bounce of a
/// player's board mail stops no clock: the game is lost on the date the
/// board mail named.
#[test]
fn a_bounce_stops_no_clock_in_an_event_without_vacation() {
    let mut h = Harness::new();
    let event = start_event(&mut h, "td", &["ann", "bob", "cat"], "trio", "--vacation=0");
    let game = event.games.first().expect("a game").clone();
    let moved = h.send(
        &address(&game.white),
        "move",
        &format!("move {} {} {}-pw e4", game.board, game.white, game.white),
    );
    let mail = to(&moved, &address(&game.black)).clone();
    let due_text = mail
        .body
        .split("and by ")
        .nth(1)
        .and_then(|rest| rest.split(" not to lose on time").next())
        .unwrap_or_else(|| panic!("no loss-on-time date in {}", mail.body));
    let due = time::PrimitiveDateTime::parse(
        due_text.trim_end_matches(" UTC"),
        &time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]"),
    )
    .expect("a date")
    .assume_utc();
    let recipient = address(&game.black);
    let message_id = mail.message_id.trim_matches(['<', '>']);
    let bounce = format!(
        "Return-Path: <>\r\nFrom: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\n\
Subject: Undelivered Mail Returned to Sender\r\nTo: pbem@localhost\r\nMIME-Version: 1.0\r\n\
Message-Id: <bounce-1@mx.example.org>\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n\
--B\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n\r\n\
--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n\
Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 re-confirm at http://evil.example/login\r\n\r\n\
--B\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: pbem@localhost\r\nTo: {recipient}\r\nMessage-ID: <{message_id}>\r\nSubject: pbem\r\n\r\n\
--B--\r\n"
    );
    let told = h.deliver_raw(bounce.as_bytes());
    // The opponent and the director are told, in plain words only.
    assert!(!told.is_empty(), "{told:#?}");
    for notice in &told {
        assert!(
            notice.body.contains("cannot be delivered"),
            "{}",
            notice.body
        );
        assert!(!notice.body.contains("evil.example"), "{}", notice.body);
        assert!(!notice.body.contains(&recipient), "{}", notice.body);
    }
    assert!(told.iter().any(|m| m.to == address("td")), "{told:#?}");
    let lost = |mails: &[Sent]| {
        mails.iter().any(|m| {
            m.subject.contains(&format!("Board {} ", game.board)) && m.body.contains("lost on time")
        })
    };
    assert!(!lost(&h.sweep(due - Duration::hours(1))));
    let after = h.sweep(due + Duration::hours(1));
    assert!(lost(&after), "{after:#?}");
}
