//! The HTML part of board mails as a browser shows it: for one variant of
//! each family a new board's mail is opened in headless Chromium (Debian's
//! `chromium`, which scripts/test installs), with the inline picture
//! resolved to a file beside the HTML, and the screenshot is checked for
//! the board (square colours over a board-sized area) and the text (dark
//! pixels outside it). One screenshot per family is kept for review under
//! target/test-output/pictures/.
//!
//! Without /usr/bin/chromium the test fails and says why (it never skips).

use std::path::{Path, PathBuf};

use mail_parser::{MessageParser, MimeHeaders};
use pbem::render::picture::{DARK, LIGHT, SIZE};
use pbem_testkit::{Harness, pixel_box};

/// One variant of each family.
const FAMILIES: &[&str] = &[
    "Chess",
    "Chess2",
    "Marseillais",
    "Doublemove",
    "Extramove",
    "Twinmove",
    "Doublestep",
    "Doubletime",
];

/// The HTML part and its picture of Bob's new-board mail of `variant`.
fn board_mail(variant: &str) -> (String, String, Vec<u8>) {
    let mut h = Harness::new();
    let (_, bob) = h.alice_and_bob_on(variant);
    let raw = std::fs::read(&bob.file).expect("outbox file");
    let message = MessageParser::default().parse(&raw).expect("parses");
    let html = message.body_html(0).expect("an HTML part").to_string();
    let image = message
        .attachments()
        .find(|p| p.content_id().is_some())
        .expect("an inline picture");
    let cid = image.content_id().expect("cid").to_string();
    (html, cid, image.contents().to_vec())
}

fn near(p: &[u8], colour: [u8; 3]) -> bool {
    p.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= 6)
}

/// Screenshot of `html` (with `picture` for `cid:<cid>`) as RGB rows.
fn screenshot(html: &str, cid: &str, picture: &[u8], keep: &Path) -> (u32, u32, Vec<u8>, usize) {
    let work = tempfile::tempdir().expect("temp dir");
    std::fs::write(work.path().join("board.png"), picture).expect("write png");
    let page = html.replace(&format!("cid:{cid}"), "board.png");
    assert_ne!(page, html, "the HTML shows the picture by its Content-ID");
    let page_path = work.path().join("mail.html");
    std::fs::write(&page_path, page).expect("write html");
    pbem_testkit::screenshot(
        &format!("file://{}", page_path.display()),
        "800,1000",
        keep,
        &[],
    )
}

#[test]
fn board_mails_show_their_board_and_text_in_chromium() {
    let out: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-output/pictures");
    std::fs::create_dir_all(&out).expect("output dir");
    for variant in FAMILIES {
        let (html, cid, picture) = board_mail(variant);
        let keep = out.join(format!("{}.png", variant.to_ascii_lowercase()));
        let (width, height, rgb, channels) = screenshot(&html, &cid, &picture, &keep);
        let at = |x: u32, y: u32| {
            let i = ((y * width + x) as usize) * channels;
            &rgb[i..i + 3]
        };
        // The board: square-coloured pixels, spread over a board-sized box.
        let (count, left, right, top, bottom) = pixel_box(width, height, |x, y| {
            let p = at(x, y);
            near(p, LIGHT) || near(p, DARK)
        });
        assert!(
            count > 8 * 8 * 600,
            "{variant}: the board is not shown ({count} board pixels); see {}",
            keep.display()
        );
        let expected = 8 * pbem::render::picture::SQUARE;
        for (what, extent) in [("wide", right - left + 1), ("high", bottom - top + 1)] {
            assert!(
                extent + 4 >= expected && extent <= SIZE,
                "{variant}: the board is {extent} pixels {what}; see {}",
                keep.display()
            );
        }
        // The text: dark pixels above the board (the summary lines) and
        // below it (the move list and the legal-move summary).
        let dark = |from: u32, to: u32| {
            (from..to)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .filter(|&(x, y)| at(x, y).iter().all(|&c| c < 90))
                .count()
        };
        assert!(
            dark(0, top) > 300,
            "{variant}: no text above the board; see {}",
            keep.display()
        );
        assert!(
            dark(bottom + 1, height) > 300,
            "{variant}: no text below the board; see {}",
            keep.display()
        );
    }
}
