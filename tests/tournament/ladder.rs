//! Ladders played by mail, through the real Maildir and outbox (issue
//! 28): a ladder of five with challenges up and out of reach, a
//! challenger's win that moves the order and a draw that does not, every
//! refusal changing nothing, leaving with a game open, and strangers and
//! unconfirmed accounts refused.

use pbem_testkit::{Harness, Sent, address, flat, to};

const FIVE: [&str; 5] = ["anna", "boris", "carla", "dmitri", "eva"];

/// What the ladders hold, and the boards, to compare before and after a
/// refused command.
fn ladder_state(h: &Harness) -> String {
    h.rows(&["ladders", "ladder_rungs", "ladder_games", "boards"])
}

/// The owner `own` makes the ladder `top` with `options`; anna, boris,
/// carla, dmitri and eva join it in that order.
fn ladder_of_five(h: &mut Harness, options: &str) {
    h.signup("own", &address("own"));
    for player in FIVE {
        h.signup(player, &address(player));
    }
    let created = h.send(
        &address("own"),
        "ladder",
        &format!("ladder create own own-pw top chess {options}"),
    );
    assert_eq!(created.len(), 1, "{created:#?}");
    assert_eq!(created[0].subject, "pbem ladder top: created");
    for (index, player) in FIVE.iter().enumerate() {
        let joined = h.send(
            &address(player),
            "join",
            &format!("ladder join top {player} {player}-pw"),
        );
        assert_eq!(joined.len(), 1, "{joined:#?}");
        assert!(
            flat(&joined[0].body)
                .contains(&format!("joined the ladder \"top\" in place {}", index + 1)),
            "{}",
            joined[0].body
        );
    }
}

/// `challenger` challenges `defender` on `top`; the two new-board mails'
/// board number.
fn challenge(h: &mut Harness, challenger: &str, defender: &str) -> u32 {
    let mails = h.send(
        &address(challenger),
        "challenge",
        &format!("ladder challenge top {challenger} {challenger}-pw {defender}"),
    );
    assert_eq!(mails.len(), 2, "a board mail to each player: {mails:#?}");
    let mine = to(&mails, &address(challenger));
    let theirs = to(&mails, &address(defender));
    assert!(
        mine.body.contains("A game of the ladder \"top\""),
        "{}",
        mine.body
    );
    board_of(theirs)
}

/// The board number in a board mail's Subject (`... Board 103 ...`).
fn board_of(mail: &Sent) -> u32 {
    let after = mail
        .subject
        .split("Board ")
        .nth(1)
        .unwrap_or_else(|| panic!("a board mail: {}", mail.subject));
    after
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a board number: {}", mail.subject))
}

/// `ladder show top`, as anna asks it: the order's lines.
fn order(h: &mut Harness) -> String {
    let shown = h.send(&address("anna"), "show", "ladder show top");
    assert_eq!(shown.len(), 1, "{shown:#?}");
    shown[0].body.clone()
}

/// The single answer to `from`'s `line`, which must refuse it (saying
/// `why`) and change nothing.
fn refused(h: &mut Harness, from: &str, line: &str, why: &str) {
    let before = ladder_state(h);
    let mails = h.send(&address(from), "ladder", line);
    assert_eq!(mails.len(), 1, "{line}: {mails:#?}");
    assert!(
        flat(&mails[0].body).contains(why),
        "{line}: {}",
        mails[0].body
    );
    assert_eq!(ladder_state(h), before, "{line} changed something");
}

#[test]
fn a_ladder_of_five_challenges_up_and_out_of_reach_and_only_a_win_moves_it() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "");
    // Eva, 5th, reaches 3 places up: boris (2nd), not anna (1st).
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw anna",
        "more than 3 places above you (place 5)",
    );
    let eva_boris = challenge(&mut h, "eva", "boris");
    let dmitri_carla = challenge(&mut h, "dmitri", "carla");
    let shown = order(&mut h);
    assert!(
        shown.contains(
            "1  anna\n2  boris  < eva\n3  carla  < dmitri\n4  dmitri  > carla\n5  eva  > boris\n"
        ),
        "{shown}"
    );
    assert!(
        shown.contains(&format!(
            "board {eva_boris}  eva (place 5) challenged boris (place 2)"
        )),
        "{shown}"
    );
    // A draw changes nothing.
    h.send(
        &address("dmitri"),
        "draw",
        &format!("draw {dmitri_carla} dmitri dmitri-pw"),
    );
    let drawn = h.send(
        &address("carla"),
        "draw",
        &format!("draw {dmitri_carla} carla carla-pw"),
    );
    let end = to(&drawn, &address("carla"));
    assert!(end.subject.contains("1/2-1/2"), "{}", end.subject);
    assert!(
        flat(&end.body).contains("Ladder \"top\": the order is unchanged."),
        "{}",
        end.body
    );
    let shown = order(&mut h);
    assert!(
        shown.contains("1  anna\n2  boris  < eva\n3  carla\n4  dmitri\n5  eva  > boris\n"),
        "{shown}"
    );
    // The challenger's win: eva takes boris's place, boris, carla and
    // dmitri move down one.
    let resigned = h.send(
        &address("boris"),
        "resign",
        &format!("resign {eva_boris} boris boris-pw"),
    );
    let end = to(&resigned, &address("eva"));
    assert!(
        flat(&end.body)
            .contains("eva takes place 2 from boris; boris moves down to place 3, carla moves down to place 4, dmitri moves down to place 5."),
        "{}",
        end.body
    );
    let shown = order(&mut h);
    assert!(
        shown.contains("1  anna\n2  eva\n3  boris\n4  carla\n5  dmitri\n"),
        "{shown}"
    );
    assert!(!shown.contains("challenged"), "no game is open: {shown}");
    // From place 5 dmitri now reaches eva (2nd), not anna.
    refused(
        &mut h,
        "dmitri",
        "ladder challenge top dmitri dmitri-pw anna",
        "more than 3 places above you",
    );
    let dmitri_eva = challenge(&mut h, "dmitri", "eva");
    let listed = h.send(&address("carla"), "ladders", "ladders");
    assert!(
        listed[0].body.contains("top") && listed[0].body.contains("5 players, 1 open game"),
        "{}",
        listed[0].body
    );
    // `tournaments` lists every kind, ladders included, a line each.
    let every = h.send(&address("carla"), "tournaments", "tournaments");
    let line = every[0]
        .body
        .lines()
        .find(|line| line.trim_start().starts_with("top "))
        .unwrap_or_else(|| panic!("the ladder in: {}", every[0].body));
    assert!(
        line.contains("ladder") && line.contains("5 players"),
        "{line}"
    );
    // The web site lists the ladder and shows its order and open games,
    // userids only.
    let site = pbem::web::Site::new(&h.config, pbem::server::TimeSource::Fixed(h.now));
    let conn = h.database();
    let events = pbem::web::pages::events(&site, &conn, 1)
        .expect("/events")
        .body;
    assert!(
        events.contains("<a href=\"/ladders/top\">top</a>"),
        "{events}"
    );
    let page = pbem::web::pages::ladder(&site, &conn, "top")
        .expect("/ladders/top")
        .body;
    assert!(page.contains("Order (5 players)"), "{page}");
    assert!(
        page.contains(r#"<tr><td>4</td><th scope="row"><a href="/players/carla">carla</a></th>"#),
        "{page}"
    );
    assert!(
        page.contains(&format!("/boards/{dmitri_eva}"))
            && page.contains(r#"<a href="/players/dmitri">dmitri</a> (place 5)"#),
        "{page}"
    );
    assert!(
        !page.replace("@media", "").contains('@'),
        "no address: {page}"
    );
    assert!(pbem::web::pages::ladder(&site, &conn, "nothing").is_err());
    // A defender's win changes nothing either.
    let resigned = h.send(
        &address("dmitri"),
        "resign",
        &format!("resign {dmitri_eva} dmitri dmitri-pw"),
    );
    let end = to(&resigned, &address("eva"));
    assert!(
        flat(&end.body).contains("Ladder \"top\": the order is unchanged."),
        "{}",
        end.body
    );
    let shown = order(&mut h);
    assert!(
        shown.contains("1  anna\n2  eva\n3  boris\n4  carla\n5  dmitri\n"),
        "{shown}"
    );
}

#[test]
fn refused_challenges_and_joins_change_nothing() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "--open=1");
    h.signup("zoe", &address("zoe"));
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw eva",
        "you cannot challenge yourself",
    );
    refused(
        &mut h,
        "zoe",
        "ladder challenge top zoe zoe-pw eva",
        "zoe is not on the ladder; join it first",
    );
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw zoe",
        "zoe is not on the ladder",
    );
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw nobody",
        "nobody is not on the ladder",
    );
    refused(
        &mut h,
        "boris",
        "ladder challenge top boris boris-pw eva",
        "not above you",
    );
    refused(
        &mut h,
        "eva",
        "ladder join top eva eva-pw",
        "eva is already on the ladder, in place 5",
    );
    refused(
        &mut h,
        "eva",
        "ladder challenge nowhere eva eva-pw carla",
        "there is no ladder \"nowhere\"",
    );
    let board = challenge(&mut h, "eva", "carla");
    // Twice against the same player at once, and past the open games.
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw carla",
        "you already have a ladder game with carla",
    );
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw dmitri",
        "you already have 1 ladder game open",
    );
    refused(
        &mut h,
        "dmitri",
        "ladder challenge top dmitri dmitri-pw carla",
        "carla already has 1 ladder game open",
    );
    // Joining was consent: the game cannot be declined.
    refused(
        &mut h,
        "carla",
        &format!("decline {board} carla carla-pw"),
        "cannot be declined",
    );
    refused(
        &mut h,
        "own",
        "ladder create own own-pw top chess",
        "there is already a ladder \"top\"",
    );
    refused(
        &mut h,
        "own",
        "ladder create own own-pw other nochess",
        "is not a variant",
    );
}

#[test]
fn strangers_and_unconfirmed_accounts_are_refused() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "");
    // An address of no player.
    refused(
        &mut h,
        "stranger",
        "ladder join top stranger stranger-pw",
        "wrong userid or password",
    );
    refused(
        &mut h,
        "stranger",
        "ladder create stranger stranger-pw mine chess",
        "wrong userid or password",
    );
    // A password not the player's.
    refused(
        &mut h,
        "stranger",
        "ladder challenge top eva wrong-pw boris",
        "wrong userid or password",
    );
    // A signup whose address never confirmed.
    let confirmation = h.send(&address("zed"), "hello", "signup zed zed-pw");
    assert_eq!(confirmation.len(), 1, "{confirmation:#?}");
    refused(
        &mut h,
        "zed",
        "ladder join top zed zed-pw",
        "\"zed\" is not confirmed yet",
    );
}

#[test]
fn a_player_who_leaves_is_taken_out_and_their_games_play_on() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "--reach=2 --time=10/50");
    let shown = order(&mut h);
    assert!(
        flat(&shown).contains("--time=10/50 (10 turns in 50 days"),
        "{shown}"
    );
    assert!(shown.contains("challenge up to 2 places above"), "{shown}");
    let board = challenge(&mut h, "dmitri", "boris");
    // The ladder's control is the game's clock.
    let shown_board = h.send(&address("dmitri"), "show", &format!("show {board}"));
    assert!(
        shown_board[0].body.contains("Time control: 10/50"),
        "{}",
        shown_board[0].body
    );
    let left = h.send(
        &address("boris"),
        "leave",
        "ladder leave top boris boris-pw",
    );
    assert!(
        flat(&left[0].body).contains(
            "Your ladder game still open plays on as an ordinary game: its result no longer changes the ladder, but until it ends it counts against the ladder's limits"
        ),
        "{}",
        left[0].body
    );
    let shown = order(&mut h);
    assert!(
        shown.contains("1  anna\n2  carla\n3  dmitri\n4  eva\n"),
        "{shown}"
    );
    // Dmitri wins the game, which no longer moves anyone.
    h.send(
        &address("boris"),
        "resign",
        &format!("resign {board} boris boris-pw"),
    );
    let shown = order(&mut h);
    assert!(
        shown.contains("1  anna\n2  carla\n3  dmitri\n4  eva\n"),
        "{shown}"
    );
    refused(
        &mut h,
        "boris",
        "ladder leave top boris boris-pw",
        "boris is not on the ladder",
    );
    // Back at the bottom.
    let joined = h.send(&address("boris"), "join", "ladder join top boris boris-pw");
    assert!(joined[0].body.contains("in place 5"), "{}", joined[0].body);
}

#[test]
fn everyone_a_win_pushes_down_is_named_and_told_by_mail_and_nobody_else() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "");
    // Eva (5th) beats boris (2nd): boris, carla and dmitri move down one.
    let board = challenge(&mut h, "eva", "boris");
    let mails = h.send(
        &address("boris"),
        "resign",
        &format!("resign {board} boris boris-pw"),
    );
    let news = "Ladder \"top\": eva takes place 2 from boris; boris moves down to place 3, carla moves down to place 4, dmitri moves down to place 5.";
    // The two players read it in the board's mail of the end.
    for player in ["eva", "boris"] {
        let end = to(&mails, &address(player));
        assert!(flat(&end.body).contains(news), "{player}: {}", end.body);
    }
    // Those between get a mail of their own, naming their new place.
    for (player, from, place) in [("carla", 3, 4), ("dmitri", 4, 5)] {
        let notice = to(&mails, &address(player));
        assert_eq!(
            notice.subject,
            format!("pbem ladder top: you are now in place {place}")
        );
        let words = flat(&notice.body);
        assert!(words.contains(news), "{}", notice.body);
        assert!(
            words.contains(&format!(
                "{player}, you move down one, from place {from} to place {place}: eva beat boris on board {board} and took place 2."
            )),
            "{}",
            notice.body
        );
        assert!(notice.reply_to.is_some(), "a reply speaks for {player}");
    }
    // Anna, above, moved nowhere and hears nothing.
    assert!(mails.iter().all(|m| m.to != address("anna")), "{mails:#?}");
    // A player who leaves moves those below up, who are not mailed.
    let left = h.send(&address("anna"), "leave", "ladder leave top anna anna-pw");
    assert_eq!(left.len(), 1, "only anna's answer: {left:#?}");
}

#[test]
fn the_join_answer_states_the_ladders_rules() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "--reach=2 --open=3 --time=10/50");
    h.signup("fritz", &address("fritz"));
    let joined = h.send(&address("fritz"), "join", "ladder join top fritz fritz-pw");
    let words = flat(&joined[0].body);
    for rule in [
        "joined the ladder \"top\" in place 6",
        "Reach: challenge up to 2 places above",
        "Open games: at most 3 per player",
        "Time: --time=10/50 (10 turns in 50 days",
    ] {
        assert!(words.contains(rule), "{rule} in {}", joined[0].body);
    }
}

#[test]
fn leaving_and_joining_again_cannot_start_a_second_game_against_the_same_player() {
    let mut h = Harness::new();
    ladder_of_five(&mut h, "--open=3");
    let first = challenge(&mut h, "eva", "dmitri");
    let before = h.count("SELECT COUNT(*) FROM boards");
    // Five rounds of challenge / leave / join in one mail: the first
    // challenge is refused, and so is every later one.
    let mut lines = String::new();
    for _ in 0..5 {
        lines.push_str("ladder challenge top eva eva-pw dmitri\n");
        lines.push_str("ladder leave top eva eva-pw\n");
        lines.push_str("ladder join top eva eva-pw\n");
    }
    let mails = h.send(&address("eva"), "again", &lines);
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), before, "{mails:#?}");
    let answer = to(&mails, &address("eva"));
    assert!(
        flat(&answer.body).contains("you already have a ladder game with dmitri"),
        "{}",
        answer.body
    );
    // The first game is still on, and still the only one of the pair.
    let shown = h.send(&address("eva"), "show", &format!("show {first}"));
    assert!(!shown[0].subject.contains("Error"), "{}", shown[0].body);
    // Its end frees the pair: a new challenge starts.
    h.send(
        &address("dmitri"),
        "resign",
        &format!("resign {first} dmitri dmitri-pw"),
    );
    // Eva is at the bottom again (place 5), dmitri in reach.
    challenge(&mut h, "eva", "dmitri");
}

#[test]
fn open_games_count_those_of_players_who_left() {
    let mut h = Harness::new();
    // One open game a player.
    ladder_of_five(&mut h, "--open=1");
    challenge(&mut h, "eva", "dmitri");
    // Dmitri leaves and joins again: his game with eva is still on.
    h.send(
        &address("dmitri"),
        "leave",
        "ladder leave top dmitri dmitri-pw",
    );
    h.send(
        &address("dmitri"),
        "join",
        "ladder join top dmitri dmitri-pw",
    );
    // Eva (now 4th) may not start a second game, nor may carla challenge
    // dmitri, who still plays his.
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw carla",
        "you already have 1 ladder game open, the most this ladder allows",
    );
    refused(
        &mut h,
        "dmitri",
        "ladder challenge top dmitri dmitri-pw carla",
        "you already have 1 ladder game open",
    );
    // The entitled twin: boris, with no game, challenges anna.
    challenge(&mut h, "boris", "anna");
    // And eva, who left too, still counts her game.
    h.send(&address("eva"), "leave", "ladder leave top eva eva-pw");
    h.send(&address("eva"), "join", "ladder join top eva eva-pw");
    refused(
        &mut h,
        "eva",
        "ladder challenge top eva eva-pw carla",
        "you already have 1 ladder game open",
    );
}
