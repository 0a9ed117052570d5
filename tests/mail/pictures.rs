//! Board pictures and mail preferences by mail: the MIME structure of a
//! board mail (parsed back with mail-parser), the PNG it carries (decoded,
//! its pixels checked for the pieces on their squares from both sides and
//! the last turn marked), the PGN attached to a finished game, the lines
//! saying what happened and what is due, and `set`/`settings` (by password
//! and by reply), digest mode included; and the outbox, which keeps each
//! picture described, not drawn: the sent mail carries the very PNG the
//! description draws, a row queued in full (before migration 0014) is sent
//! as it is, and a picture that cannot be drawn leaves only itself out.

use mail_parser::{MessageParser, MimeHeaders};
use pbem::mail::pictures;
use pbem::render::picture::{self, DARK_MARKED, LIGHT_MARKED, MARGIN, SIZE, SQUARE};
use pbem::store::mailbox;
use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

/// What a board mail is made of.
struct Parts {
    content_type: String,
    text: String,
    html: Option<String>,
    /// (Content-ID, bytes) of each inline picture.
    images: Vec<(String, Vec<u8>)>,
    /// (file name, text) of each attachment.
    attachments: Vec<(String, String)>,
}

fn parts_of(mail: &Sent) -> Parts {
    let raw = std::fs::read(&mail.file).expect("outbox file");
    let message = MessageParser::default().parse(&raw).expect("parses");
    let content_type = message
        .content_type()
        .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
        .unwrap_or_default();
    let mut images = Vec::new();
    let mut attachments = Vec::new();
    for part in message.attachments() {
        let ctype = part
            .content_type()
            .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
            .unwrap_or_default();
        if ctype == "image/png" {
            let cid = part.content_id().expect("a Content-ID").to_string();
            images.push((cid, part.contents().to_vec()));
        } else {
            let name = part.attachment_name().expect("a file name").to_string();
            attachments.push((name, String::from_utf8_lossy(part.contents()).to_string()));
        }
    }
    Parts {
        content_type,
        text: message
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default(),
        html: message.body_html(0).map(|h| h.to_string()),
        images,
        attachments,
    }
}

/// Decodes a PNG: (width, height, RGB pixels).
fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    // A palette PNG, read as the RGB a mail client shows.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buffer).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buffer.truncate(info.buffer_size());
    (info.width, info.height, buffer)
}

/// What stands on the square at column `col`, row `row` (from the top
/// left of the picture): 'W' a white piece, 'B' a black piece, '.' none.
fn occupant(rgb: &[u8], col: u32, row: u32) -> char {
    let (mut white, mut black) = (0, 0);
    for y in 4..SQUARE - 4 {
        for x in 4..SQUARE - 4 {
            let px = MARGIN + col * SQUARE + x;
            let py = MARGIN + row * SQUARE + y;
            let i = ((py * SIZE + px) * 3) as usize;
            let p = &rgb[i..i + 3];
            if p.iter().all(|&c| c > 235) {
                white += 1;
            }
            if p.iter().all(|&c| c < 40) {
                black += 1;
            }
        }
    }
    if std::env::var("PBEM_PIXEL_COUNTS").is_ok() {
        eprintln!("{col},{row}: white {white} black {black}");
    }
    if white + black < 60 {
        '.'
    } else if white >= 80 {
        // A white piece's inside is white; a black piece shows a few white
        // lines at most (under 40 pixels), the rest black.
        'W'
    } else {
        'B'
    }
}

fn pixel(rgb: &[u8], col: u32, row: u32, dx: u32, dy: u32) -> [u8; 3] {
    let px = MARGIN + col * SQUARE + dx;
    let py = MARGIN + row * SQUARE + dy;
    let i = ((py * SIZE + px) * 3) as usize;
    [rgb[i], rgb[i + 1], rgb[i + 2]]
}

/// The picture's occupants, top row first, as 8 strings.
fn rows(rgb: &[u8]) -> Vec<String> {
    (0..8)
        .map(|row| (0..8).map(|col| occupant(rgb, col, row)).collect())
        .collect()
}

#[test]
fn a_board_mail_is_text_and_html_with_an_inline_picture_from_the_readers_side() {
    let mut h = Harness::new();
    let (alice, bob) = h.alice_and_bob_on("Chess");
    for (mail, black_view) in [(&alice, false), (&bob, true)] {
        let parts = parts_of(mail);
        assert_eq!(parts.content_type, "multipart/alternative");
        assert!(
            parts.text.starts_with("Summary of Chess Board 101"),
            "{}",
            parts.text
        );
        let html = parts.html.expect("an HTML part");
        assert!(!html.contains("<script"), "{html}");
        assert_eq!(parts.images.len(), 1);
        let (cid, bytes) = &parts.images[0];
        assert!(html.contains(&format!("src=\"cid:{cid}\"")), "{html}");
        assert!(bytes.len() < 30 * 1024, "{} bytes", bytes.len());
        let (width, height, rgb) = decode(bytes);
        assert_eq!((width, height), (picture::SIZE, picture::SIZE));
        let seen = rows(&rgb);
        let (top, bottom) = if black_view { ('W', 'B') } else { ('B', 'W') };
        for row in [0, 1] {
            assert!(seen[row].chars().all(|c| c == top), "{seen:#?}");
            assert!(seen[7 - row].chars().all(|c| c == bottom), "{seen:#?}");
        }
        for row in 2..6 {
            assert_eq!(seen[row], "........", "{seen:#?}");
        }
    }
}

#[test]
fn the_picture_marks_the_last_turn_and_the_text_says_what_happened_and_what_is_due() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    // The clock runs once Bob has accepted the challenge.
    let accepted = h.send(BOB, "ok", "accept 101 bob bob-pw");
    assert_eq!(accepted.len(), 2, "{accepted:#?}");
    let mails = h.send(ALICE, "move", "move 101 alice alice-pw e4");
    let bob = to(&mails, BOB);
    let parts = parts_of(bob);
    assert!(
        parts.text.contains("Last turn: alice played e4."),
        "{}",
        parts.text
    );
    assert!(
        parts.text.contains("bob must move by 2026-03-08 ")
            && parts
                .text
                .contains(" UTC to avoid a reminder,\nand by 2026-03-22 ")
            && parts.text.contains(" UTC not to lose on time."),
        "{}",
        parts.text
    );
    let html = parts.html.expect("html");
    assert!(html.contains("Last turn: alice played e4."), "{html}");
    let (_, _, rgb) = decode(&parts.images[0].1);
    // Bob sees the board from Black's side (rank 1 on top, file h on the
    // left): e2 is column 3, row 1; e4 column 3, row 3; both light.
    assert_eq!(pixel(&rgb, 3, 1, 2, 2), LIGHT_MARKED);
    assert_eq!(pixel(&rgb, 3, 3, 2, 2), LIGHT_MARKED);
    assert_eq!(occupant(&rgb, 3, 3), 'W');
    assert_eq!(occupant(&rgb, 3, 1), '.');
    // A square not played on is not marked.
    assert_ne!(pixel(&rgb, 4, 4, 2, 2), DARK_MARKED);
    assert_ne!(pixel(&rgb, 4, 4, 2, 2), LIGHT_MARKED);

    // A two-move turn marks both moves (Marseillais).
    let mut h = Harness::new();
    h.alice_and_bob_on("Marseillais");
    h.send(ALICE, "move", "move 101 alice alice-pw e4,d4");
    let mails = h.send(BOB, "move", "move 101 bob bob-pw e5,d5");
    let alice = to(&mails, ALICE);
    let parts = parts_of(alice);
    assert!(
        parts.text.contains("Last turn: bob played e5,d5."),
        "{}",
        parts.text
    );
    let (_, _, rgb) = decode(&parts.images[0].1);
    // From White's side: d7 column 3 row 1 (light), d5 column 3 row 3
    // (light), e7 column 4 row 1 (dark), e5 column 4 row 3 (dark).
    assert_eq!(pixel(&rgb, 3, 1, 2, 2), LIGHT_MARKED);
    assert_eq!(pixel(&rgb, 3, 3, 2, 2), LIGHT_MARKED);
    assert_eq!(pixel(&rgb, 4, 1, 2, 2), DARK_MARKED);
    assert_eq!(pixel(&rgb, 4, 3, 2, 2), DARK_MARKED);
}

#[test]
fn a_board_mail_says_who_is_on_vacation_until_when() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    h.send(BOB, "away", "vacation bob bob-pw 10");
    let mails = h.send(ALICE, "move", "move 101 alice alice-pw e4");
    for address in [ALICE, BOB] {
        let parts = parts_of(to(&mails, address));
        assert!(
            parts.text.contains("bob is on vacation until 2026-03-11 "),
            "{}",
            parts.text
        );
        let html = parts.html.expect("html");
        assert!(
            html.contains("bob is on vacation until 2026-03-11 "),
            "{html}"
        );
    }
}

#[test]
fn a_finished_game_carries_its_pgn() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    h.send(ALICE, "move", "move 101 alice alice-pw e4");
    let mails = h.send(BOB, "resign", "resign 101 bob bob-pw");
    for address in [ALICE, BOB] {
        let parts = parts_of(to(&mails, address));
        assert_eq!(parts.content_type, "multipart/mixed");
        assert_eq!(parts.attachments.len(), 1, "to {address}");
        let (name, text) = &parts.attachments[0];
        assert_eq!(name, "board-101.pgn");
        assert!(text.contains("[Variant \"Chess\"]"), "{text}");
        assert!(text.contains("[Result \"1-0\"]"), "{text}");
        assert!(text.contains("1.e4 1-0"), "{text}");
        // An abort is never rated: no Elo tags (tests/web/pgn.rs shows
        // them on a rated game).
        assert!(text.contains("[Termination \"normal\"]"), "{text}");
        assert!(text.contains("[TimeControl \"1/"), "{text}");
        assert!(!text.contains("Elo"), "{text}");
        assert!(parts.html.is_some(), "the picture stays");
    }
}

#[test]
fn preferences_are_set_by_password_and_by_reply_and_shown() {
    let mut h = Harness::new();
    let (_, bob_new) = h.alice_and_bob_on("Chess");
    let mails = h.send(BOB, "prefs", "settings bob bob-pw");
    let shown = &to(&mails, BOB).body;
    assert!(shown.contains("board html"), "{shown}");
    assert!(shown.contains("mail  every"), "{shown}");
    assert!(!shown.contains("bob-pw"), "{shown}");

    // By reply to a board mail, without a password.
    let mails = h.reply(&bob_new, BOB, "set board compact");
    let answer = &to(&mails, BOB).body;
    assert!(answer.contains("board compact"), "{answer}");
    let mails = h.send(ALICE, "move", "move 101 alice alice-pw e4");
    let bob = parts_of(to(&mails, BOB));
    assert_eq!(bob.content_type, "text/plain", "compact: text only");
    assert!(bob.text.contains("8 rnbkqbnr\n  hgfedcba"), "{}", bob.text);
    let alice = parts_of(to(&mails, ALICE));
    assert_eq!(alice.content_type, "multipart/alternative");

    let mails = h.send(
        BOB,
        "prefs",
        "set bob bob-pw board ascii\nset bob bob-pw pgn off",
    );
    let answer = &to(&mails, BOB).body;
    assert!(answer.contains("pgn   off"), "{answer}");
    let mails = h.send(BOB, "move", "move 101 bob bob-pw e5");
    let bob = parts_of(to(&mails, BOB));
    assert_eq!(bob.content_type, "text/plain");
    assert!(
        bob.text.contains("      h   g   f   e   d   c   b   a"),
        "{}",
        bob.text
    );

    // Refused: a wrong password, a bad value; nothing changes.
    let before = h.game_state();
    let mails = h.send(BOB, "prefs", "set bob nope board html");
    assert!(
        to(&mails, BOB).body.contains("wrong userid or password"),
        "{mails:#?}"
    );
    let mails = h.send(BOB, "prefs", "set bob bob-pw board pretty");
    assert!(
        to(&mails, BOB).body.contains("is not a value of board"),
        "{mails:#?}"
    );
    let mails = h.send(BOB, "prefs", "settings bob bob-pw");
    assert!(to(&mails, BOB).body.contains("board ascii"));
    assert_eq!(before, h.game_state());
}

#[test]
fn digest_players_get_no_mail_per_turn_but_their_answers_reminders_and_results() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    h.send(BOB, "prefs", "set bob bob-pw mail digest");
    let mails = h.send(ALICE, "move", "move 101 alice alice-pw e4");
    assert!(mails.iter().all(|m| m.to != BOB), "{mails:#?}");
    assert_eq!(mails.len(), 1, "alice's own answer: {mails:#?}");
    // Bob's own move is answered.
    let mails = h.send(BOB, "move", "move 101 bob bob-pw e5");
    assert!(mails.iter().any(|m| m.to == BOB), "{mails:#?}");
    // The digest tells Bob where it is his turn.
    h.send(ALICE, "move", "move 101 alice alice-pw Nf3");
    let digest = h.digest(time::macros::datetime!(2026-03-02 06:00 UTC));
    let bob = to(&digest, BOB).clone();
    assert!(bob.body.contains("Board 101"), "{}", bob.body);
    // It says what a board mail says of the board: the last turn and the
    // dates due, and, for one board, takes a reply with just the turn.
    assert!(
        bob.body.contains("Last turn: alice played Nf3."),
        "{}",
        bob.body
    );
    assert!(
        bob.body.contains(" UTC to avoid a reminder, and by ")
            && bob.body.contains(" UTC not to lose on time."),
        "{}",
        bob.body
    );
    let token = bob
        .reply_to
        .clone()
        .expect("the digest of one board has its token");
    assert!(bob.body.contains(&token), "{}", bob.body);
    let mails = h.reply(&bob, BOB, "Nc6");
    assert!(
        to(&mails, ALICE).body.contains("1.e4 e5 2.Nf3 Nc6"),
        "{mails:#?}"
    );
    // The result still comes.
    let mails = h.send(ALICE, "resign", "resign 101 alice alice-pw");
    assert!(mails.iter().any(|m| m.to == BOB), "{mails:#?}");
}

#[test]
fn an_answer_folding_several_commands_keeps_the_picture() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    let mails = h.send(
        ALICE,
        "two",
        "move 101 alice alice-pw e4\nsettings alice alice-pw",
    );
    let alice = parts_of(to(&mails, ALICE));
    assert!(
        alice.text.contains("pbem read 2 commands"),
        "{}",
        alice.text
    );
    assert_eq!(alice.images.len(), 1, "the board picture stays");
    assert!(alice.html.expect("html").contains("pbem read 2 commands"));
}

#[test]
fn show_sends_the_picture_unless_compact_is_asked_for() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    let mails = h.send(BOB, "show", "show 101");
    let bob = parts_of(to(&mails, BOB));
    assert_eq!(bob.content_type, "multipart/alternative");
    let (_, _, rgb) = decode(&bob.images[0].1);
    assert_eq!(rows(&rgb)[0], "WWWWWWWW", "from Black's side");
    let mails = h.send(BOB, "show", "show 101 compact");
    assert_eq!(parts_of(to(&mails, BOB)).content_type, "text/plain");
}

/// The outbox row of a sent mail (its `.eml` is named by the row's id):
/// the message as queued and the description of its pictures.
fn row_of(h: &Harness, mail: &Sent) -> (Vec<u8>, Option<String>) {
    let id: i64 = mail
        .file
        .file_stem()
        .and_then(|stem| stem.to_str())
        .and_then(|stem| stem.parse().ok())
        .expect("an outbox file named by its row");
    h.server
        .service()
        .store()
        .conn()
        .query_row(
            "SELECT message, pictures FROM outbox JOIN outbox_message USING (id) WHERE id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("the row")
}

/// Queues `message` as a new outbox mail to Bob with `description`.
fn queue(h: &Harness, message_id: &str, message: &[u8], description: Option<&str>) {
    mailbox::enqueue(
        h.server.service().store().conn(),
        message_id,
        &[BOB.to_string()],
        message,
        description,
        h.now,
    )
    .expect("queued");
}

/// The start of any PNG file (its signature) in base64.
const PNG_IN_BASE64: &str = "iVBORw0KGgo";

#[test]
fn the_outbox_keeps_the_picture_described_and_the_sent_mail_carries_it_drawn() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    let mails = h.send(ALICE, "move", "move 101 alice alice-pw e4");
    let bob = to(&mails, BOB);
    let (queued, description) = row_of(&h, bob);
    let sent = std::fs::read(&bob.file).expect("the sent mail");
    assert!(
        !String::from_utf8_lossy(&queued).contains(PNG_IN_BASE64),
        "no PNG in the outbox row"
    );
    assert!(
        queued.len() < 8 * 1024 && sent.len() > queued.len() + 10 * 1024,
        "queued {} bytes, sent {} bytes",
        queued.len(),
        sent.len()
    );
    let description = description.expect("the picture is described");
    let lines: Vec<&str> = description.lines().collect();
    assert_eq!(lines.len(), 1, "{description}");
    let placed = pictures::parse_line(lines[0]).expect("a drawable description");
    assert_eq!(placed.scene.viewer, shakmaty::Color::Black);

    let parts = parts_of(bob);
    assert_eq!(parts.images.len(), 1);
    let (cid, png_bytes) = &parts.images[0];
    assert_eq!(*cid, placed.content_id);
    assert_eq!(
        *png_bytes,
        picture::png(&placed.scene),
        "the picture drawn from the description"
    );
    let (width, height, _) = decode(png_bytes);
    assert_eq!((width, height), (SIZE, SIZE));
    // Base64 in lines of 76 characters, as lettre writes a body.
    let text = String::from_utf8_lossy(&sent);
    let first = text
        .lines()
        .find(|line| line.starts_with(PNG_IN_BASE64))
        .expect("the PNG in base64");
    assert_eq!(first.trim_end().len(), 76, "{first}");
}

#[test]
fn a_mail_queued_in_full_is_sent_byte_for_byte() {
    let mut h = Harness::new();
    let (_, bob) = h.alice_and_bob_on("Chess");
    // A board mail with its picture inside, as the outbox held them
    // before migration 0014 (no description).
    let full = std::fs::read(&bob.file).expect("a sent board mail");
    queue(&h, "<queued-in-full@localhost>", &full, None);
    h.pass();
    let mails = h.new_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(std::fs::read(&mails[0].file).expect("sent"), full);
}

#[test]
fn a_picture_that_cannot_be_drawn_leaves_only_itself_out_of_its_mail() {
    let mut h = Harness::new();
    let (_, bob) = h.alice_and_bob_on("Chess");
    let (queued, description) = row_of(&h, &bob);
    let description = description.expect("described");
    let fields: Vec<&str> = description.trim_end().split(' ').collect();
    let mut corrupt = fields.clone();
    corrupt[2] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN";
    queue(&h, "<corrupt@localhost>", &queued, Some(&corrupt.join(" ")));
    queue(&h, "<garbage@localhost>", &queued, Some("\u{0} ☃\n\n"));
    queue(&h, "<fine@localhost>", &queued, Some(&description));
    let pass = h.pass();
    assert_eq!(pass.sent, 3, "{pass:?}");
    let mails = h.new_mails();
    assert_eq!(mails.len(), 3, "{mails:#?}");
    let unsent: i64 = h
        .server
        .service()
        .store()
        .conn()
        .query_row(
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL",
            [],
            |row| row.get(0),
        )
        .expect("count");
    assert_eq!(unsent, 0);
    // The corrupt description: the mail goes with its text and HTML, its
    // placeholder part taken out.
    let without = parts_of(&mails[0]);
    assert_eq!(without.content_type, "multipart/alternative");
    assert!(without.text.starts_with("Summary of Chess Board 101"));
    assert!(without.html.is_some());
    assert!(without.images.is_empty());
    let sent = std::fs::read(&mails[0].file).expect("sent");
    assert!(sent.len() < queued.len(), "the placeholder part is gone");
    // A description that names no placeholder changes nothing.
    assert_eq!(std::fs::read(&mails[1].file).expect("sent"), queued);
    // The others are drawn as ever.
    assert_eq!(parts_of(&mails[2]).images.len(), 1);
    assert_eq!(
        std::fs::read(&mails[2].file).expect("sent"),
        std::fs::read(&bob.file).expect("sent")
    );
}
