//! Board mails without pictures (issue 29): the HTML part shows the text
//! board beside the picture, so a client that shows no pictures or blocks
//! them (Alpine, w3m) still shows the position, and the picture's alt text
//! says the position in words for screen readers; `set board list` lists
//! each side's pieces instead of drawing a board, in board mails, `show`
//! and error mails. Headless Chromium, with images off, finds the position
//! in a board mail's HTML part as the reader sees it; its screenshots with
//! images on and off are kept for review under target/test-output/pictures/.
//!
//! Without /usr/bin/chromium the Chromium test fails and says why (it
//! never skips).

use std::path::{Path, PathBuf};

use mail_parser::{MessageParser, MimeHeaders};
use pbem::render::picture::{DARK, LIGHT};
use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

/// Bob's side of the board after 1.e4 (he plays Black: rank 1 on top).
const BOB_SEES_RANK_ONE: &str = "  1 | R |:N:| B |:K:| Q |:B:| N |:R:|  1";
const BOB_SEES_E4: &str = "  4 |:::|   |:::| P |:::|   |:::|   |  4";

/// The position after 1.e4 in words, as the alt text speaks it.
const SPOKEN_AFTER_E4: &str = "White: king e1; queen d1; rooks a1, h1; bishops c1, f1; \
    knights b1, g1; pawns a2, b2, c2, d2, e4, f2, g2, h2. \
    Black: king e8; queen d8; rooks a8, h8; bishops c8, f8; knights b8, g8; \
    pawns a7, b7, c7, d7, e7, f7, g7, h7.";

/// The position after 1.e4 as `set board list` writes it, a line a side
/// (broken after a comma at 72 columns, the rest two spaces in).
const LISTED_AFTER_E4: &str = "\n\
    White: Ke1, Qd1, Ra1, Rh1, Bc1, Bf1, Nb1, Ng1, Pa2, Pb2, Pc2, Pd2, Pe4, Pf2, Pg2, Ph2\n\
    Black: Ke8, Qd8, Ra8, Rh8, Bc8, Bf8, Nb8, Ng8, Pa7, Pb7, Pc7, Pd7, Pe7, Pf7, Pg7, Ph7\n\
    K king, Q queen, R rook, B bishop, N knight, P pawn\n";

/// A mail's content type, HTML part, and inline pictures (Content-ID,
/// bytes).
struct Parts {
    content_type: String,
    html: Option<String>,
    pictures: Vec<(String, Vec<u8>)>,
}

fn parts_of(mail: &Sent) -> Parts {
    let raw = std::fs::read(&mail.file).expect("outbox file");
    let message = MessageParser::default().parse(&raw).expect("parses");
    let content_type = message
        .content_type()
        .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
        .unwrap_or_default();
    let pictures = message
        .attachments()
        .filter_map(|part| {
            let cid = part.content_id()?.to_string();
            Some((cid, part.contents().to_vec()))
        })
        .collect();
    Parts {
        content_type,
        html: message.body_html(0).map(|h| h.to_string()),
        pictures,
    }
}

/// The alt texts of the pictures in `html`, unescaped.
fn alt_texts(html: &str) -> Vec<String> {
    html.split("<img ")
        .skip(1)
        .map(|tag| {
            let (_, after) = tag.split_once("alt=\"").expect("an alt text");
            let (alt, _) = after.split_once('"').expect("a closing quote");
            unescape(alt)
        })
        .collect()
}

fn unescape(text: &str) -> String {
    text.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The text of `html`'s `<pre>` blocks, unescaped.
fn preformatted(html: &str) -> String {
    html.split("<pre")
        .skip(1)
        .filter_map(|block| {
            let (_, inside) = block.split_once('>')?;
            let (text, _) = inside.split_once("</pre>")?;
            Some(unescape(text))
        })
        .collect::<Vec<String>>()
        .join("\n")
}

/// Alice and Bob on board 101 (Chess, Alice White) after 1.e4: the mails
/// of that turn.
fn after_e4(h: &mut Harness) -> Vec<Sent> {
    h.alice_and_bob_on("Chess");
    h.send(ALICE, "move", "move 101 alice alice-pw e4")
}

#[test]
fn a_board_mails_html_part_shows_the_text_board_and_names_the_position_in_its_alt_text() {
    let mut h = Harness::new();
    let mails = after_e4(&mut h);
    let bob = parts_of(to(&mails, BOB));
    assert_eq!(bob.content_type, "multipart/alternative");
    let html = bob.html.expect("an HTML part");
    // The text board from Bob's side, with its legend, as text.
    let text = preformatted(&html);
    for line in [
        BOB_SEES_RANK_ONE,
        BOB_SEES_E4,
        "*R* Black, R White, :R: White on a dark square, ::: an empty dark square",
    ] {
        assert!(text.contains(line), "{line:?} not in {text}");
    }
    assert_eq!(
        alt_texts(&html),
        [format!("Chess Board 101. {SPOKEN_AFTER_E4}")]
    );
    // Alice's own answer, from her side.
    let alice = to(&mails, ALICE);
    let alice_html = parts_of(alice).html.expect("an HTML part");
    assert!(
        preformatted(&alice_html).contains("  8 |*R*|*N*|*B*|*Q*|*K*|*B*|*N*|*R*|  8"),
        "{alice_html}"
    );
    assert_eq!(
        alt_texts(&alice_html),
        [format!("Chess Board 101. {SPOKEN_AFTER_E4}")]
    );
}

/// A mail of several commands is answered with one mail, whose HTML part
/// holds the folded board mail's picture: its alt text says the position.
#[test]
fn a_folded_answers_picture_names_the_position_too() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    let mails = h.send(
        ALICE,
        "two things",
        "move 101 alice alice-pw e4\nsettings alice alice-pw",
    );
    let answer = parts_of(to(&mails, ALICE));
    let html = answer.html.expect("an HTML part");
    assert_eq!(answer.pictures.len(), 1, "{html}");
    assert_eq!(alt_texts(&html), [format!("The board. {SPOKEN_AFTER_E4}")]);
    assert!(preformatted(&html).contains("  4 |   |:::|   |:::| P |:::|   |:::|  4"));
}

#[test]
fn set_board_list_lists_the_pieces_in_board_mails_show_and_error_mails() {
    let mut h = Harness::new();
    let (_, bob_new) = h.alice_and_bob_on("Chess");
    let mails = h.reply(&bob_new, BOB, "set board list");
    let answer = &to(&mails, BOB).body;
    assert!(
        answer.contains("board list (the pieces listed by side"),
        "{answer}"
    );
    let mails = h.send(BOB, "prefs", "settings bob bob-pw");
    assert!(to(&mails, BOB).body.contains("board list"), "{mails:#?}");

    let listed = |body: &str| {
        assert!(
            body.replace(",\n  ", ", ").contains(LISTED_AFTER_E4),
            "{LISTED_AFTER_E4} not in {body}"
        );
        assert!(body.contains("Pe4,\n  Pf2, Pg2, Ph2\n"), "{body}");
        assert!(!body.contains("+---+"), "no drawn board: {body}");
        assert!(!body.contains(":::"), "no drawn board: {body}");
    };

    // The next board mail: the list alone, text only.
    let mails = h.send(ALICE, "move", "move 101 alice alice-pw e4");
    let bob = to(&mails, BOB);
    assert_eq!(parts_of(bob).content_type, "text/plain");
    listed(&bob.body);
    // Alice kept the picture and the drawn board.
    assert!(to(&mails, ALICE).body.contains("+---+"));

    // `show`.
    let mails = h.send(BOB, "show", "show 101");
    listed(&to(&mails, BOB).body);
    // An error mail showing the board.
    let before = h.game_state();
    let mails = h.send(BOB, "move", "move 101 bob bob-pw Ke7");
    let error = &to(&mails, BOB).body;
    assert!(error.contains("Ke7"), "{error}");
    listed(error);
    assert_eq!(before, h.game_state(), "the refused move changed nothing");

    // Back to the picture: the drawn board again.
    h.send(BOB, "prefs", "set bob bob-pw board html");
    let mails = h.send(BOB, "show", "show 101");
    assert!(to(&mails, BOB).body.contains(BOB_SEES_E4));
}

#[test]
fn set_board_with_a_value_it_does_not_know_names_list_among_the_values() {
    let mut h = Harness::new();
    h.alice_and_bob_on("Chess");
    let mails = h.send(BOB, "prefs", "set bob bob-pw board braille");
    let error = to(&mails, BOB).body.replace('\n', " ");
    assert!(error.contains("ascii, compact, html or list"), "{error}");
    let mails = h.send(BOB, "help", "help");
    let help = &to(&mails, BOB).body;
    assert!(help.contains("board ascii|compact|html|list"), "{help}");
}

/// Runs headless Chromium on `page` with `arguments`.
fn chromium(page: &Path, arguments: &[String]) -> std::process::Output {
    let mut all = vec!["--window-size=800,1000".to_string()];
    all.extend_from_slice(arguments);
    pbem_testkit::chromium(&format!("file://{}", page.display()), &all)
}

const IMAGES_OFF: &str = "--blink-settings=imagesEnabled=false";

/// `html` written into `dir` as a page, the picture of `cid` beside it
/// (so that only Chromium's setting keeps it away), with `script` run
/// once the page is laid out.
fn page_in(dir: &Path, html: &str, cid: &str, picture: &[u8], script: &str) -> PathBuf {
    std::fs::write(dir.join("board.png"), picture).expect("write png");
    let page = html.replace(&format!("cid:{cid}"), "board.png");
    assert_ne!(page, html, "the HTML shows the picture by its Content-ID");
    let page = page.replace("</body>", &format!("{script}</body>"));
    let path = dir.join(format!("mail-{}.html", script.len()));
    std::fs::write(&path, page).expect("write html");
    path
}

/// What headless Chromium shows of `html` with images off, as the text a
/// reader sees (the page's `innerText`, which leaves out what is not
/// rendered).
fn shown_without_images(html: &str, cid: &str, picture: &[u8]) -> String {
    let work = tempfile::tempdir().expect("temp dir");
    // The rendered text replaces the page, so that the dumped DOM holds it
    // alone.
    let script = "<script>const shown = document.body.innerText; \
        const out = document.createElement('pre'); out.id = 'shown'; out.textContent = shown; \
        document.body.replaceChildren(out);</script>";
    let page = page_in(work.path(), html, cid, picture, script);
    let output = chromium(&page, &[IMAGES_OFF.to_string(), "--dump-dom".to_string()]);
    let dom = String::from_utf8_lossy(&output.stdout);
    let (_, shown) = dom.split_once("<pre id=\"shown\">").unwrap_or_else(|| {
        panic!(
            "chromium dumped no rendered text: {dom}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let (shown, _) = shown.split_once("</pre>").expect("the end of the text");
    unescape(shown)
}

/// How many pixels of a screenshot of `html` (kept as `keep`) have a
/// board square's colour, with images on or off.
fn board_pixels(html: &str, cid: &str, picture: &[u8], images: bool, keep: &Path) -> usize {
    let work = tempfile::tempdir().expect("temp dir");
    let page = page_in(work.path(), html, cid, picture, "");
    let _ = std::fs::remove_file(keep);
    let mut arguments = vec![format!("--screenshot={}", keep.display())];
    if !images {
        arguments.push(IMAGES_OFF.to_string());
    }
    let output = chromium(&page, &arguments);
    assert!(
        keep.is_file(),
        "chromium made no screenshot: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = std::fs::read(keep).expect("screenshot");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG screenshot");
    let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buffer).expect("a frame");
    buffer.truncate(info.buffer_size());
    let near = |p: &[u8], colour: [u8; 3]| p.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= 6);
    buffer
        .chunks_exact(info.color_type.samples())
        .filter(|p| near(p, LIGHT) || near(p, DARK))
        .count()
}

#[test]
fn chromium_with_images_off_shows_the_position_of_a_board_mail() {
    let mut h = Harness::new();
    let mails = after_e4(&mut h);
    let bob = parts_of(to(&mails, BOB));
    let html = bob.html.expect("an HTML part");
    let (cid, picture) = bob.pictures.first().expect("a picture");

    // Images are really off: the picture shown with them on is not shown.
    // The screenshots are kept for review.
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-output/pictures");
    std::fs::create_dir_all(&out).expect("output dir");
    let on = board_pixels(&html, cid, picture, true, &out.join("images-on.png"));
    let off = board_pixels(&html, cid, picture, false, &out.join("images-off.png"));
    assert!(on > 8 * 8 * 600, "the picture with images on: {on} pixels");
    assert!(off < 100, "no picture with images off: {off} pixels");

    let shown = shown_without_images(&html, cid, picture);
    for line in [BOB_SEES_RANK_ONE, BOB_SEES_E4] {
        assert!(shown.contains(line), "{line:?} not shown:\n{shown}");
    }
    // The rest of the mail is there too, as a check that the text is the
    // page's.
    assert!(shown.contains("Chess Board 101"), "{shown}");
    assert!(shown.contains("1.e4"), "{shown}");
}
