//! The site in headless Chromium at a phone's width (390 px, as a mobile
//! browser lays it out) and a desktop's (1280 px), driven over the
//! DevTools protocol by tests/web/cdp.py: no page is wider than the
//! window (a wide table scrolls in its own box), and the board page shows
//! its marks; a cup's bracket, a ladder and a player's ratings are
//! tables. Screenshots of each page kind at both widths are kept for
//! review under target/test-output/web/.
//!
//! Without /usr/bin/chromium or python3 the test fails and says why (it
//! never skips).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::site::{get, played, start_in_process};

const WIDTHS: [u32; 2] = [390, 1280];

#[test]
fn no_page_is_wider_than_a_phone_and_the_board_shows_its_marks() {
    let (mut h, _) = played();
    super::events::cup_and_ladder(&mut h);
    let site = start_in_process(&h);
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-output/web");
    std::fs::create_dir_all(&out).expect("output dir");
    let pages = [
        ("front", "/"),
        ("board", "/boards/101"),
        ("board-turn-3", "/boards/101?turn=3&side=black"),
        ("events", "/events"),
        ("event", "/events/spring"),
        ("cup", "/events/cup"),
        ("ladder", "/ladders/top"),
        ("ratings", "/ratings"),
        ("ratings-chess", "/ratings/chess"),
        ("player", "/players/alice"),
        ("players", "/players"),
        ("ladders", "/ladders"),
        ("variants", "/variants"),
        ("variant", "/variants/chess2"),
    ];
    for (_, path) in pages {
        assert_eq!(get(site, path).status, 200, "{path}");
    }
    let job = json!({
        "chromium": "/usr/bin/chromium",
        "out": out,
        "widths": WIDTHS,
        "pages": pages
            .iter()
            .map(|(name, path)| json!({"name": name, "url": format!("http://{site}{path}")}))
            .collect::<Vec<_>>(),
        "expressions": {
            "scroll": "document.documentElement.scrollWidth",
            "last": "document.querySelectorAll('svg rect.last').length",
            "pieces": "(document.querySelector('.pieces') || {}).textContent || ''",
            "steps": "Array.from(document.querySelectorAll('.steps a')).map(a => a.textContent).join(',')",
            "where": "(document.querySelector('.steps') || {}).textContent || ''",
            "turn_links": "document.querySelectorAll('a[href*=\"?turn=\"]').length",
            "tables": "document.querySelectorAll('table').length",
            "pres": "document.querySelectorAll('pre').length",
        },
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/cdp.py");
    let mut child = Command::new("/usr/bin/python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("/usr/bin/python3 runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(job.to_string().as_bytes())
        .expect("the job written");
    let output = child.wait_with_output().expect("python3 ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the browser run failed (needs /usr/bin/chromium): {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(seen.len(), pages.len() * WIDTHS.len(), "{stdout}");
    for line in &seen {
        let width = line["width"].as_u64().expect("width");
        let scroll = line["scroll"].as_u64().expect("scroll");
        assert!(
            scroll <= width,
            "{} is {scroll} px wide at {width} px; see {}",
            line["page"],
            out.display()
        );
    }
    let board = |name: &str, width: u32| {
        seen.iter()
            .find(|l| l["page"] == name && l["width"] == width)
            .expect("seen")
    };
    for width in WIDTHS {
        // 4.Qxf7#: the queen's from and to squares.
        let now = board("board", width);
        assert_eq!(now["last"], 2, "{now}");
        assert!(
            now["pieces"]
                .as_str()
                .is_some_and(|p| p.starts_with("White: king e1; queen f7;")),
            "{now}"
        );
        assert_eq!(now["steps"], "First,Previous", "{now}");
        // One link per turn played, to the position after it.
        assert_eq!(now["turn_links"], 9, "{now}");
        let earlier = board("board-turn-3", width);
        assert_eq!(earlier["last"], 2, "{earlier}");
        assert_eq!(earlier["steps"], "First,Previous,Next,Last", "{earlier}");
        assert!(
            earlier["where"]
                .as_str()
                .is_some_and(|w| w.starts_with("After turn 3 (2.Qh5) of 7")),
            "{earlier}"
        );
        // After 1.e4 e5 2.Qh5: the queen is on h5.
        assert!(
            earlier["pieces"]
                .as_str()
                .is_some_and(|p| p.starts_with("White: king e1; queen h5;")),
            "{earlier}"
        );
        // Standings and crosstable are tables, not text.
        let event = board("event", width);
        assert!(event["tables"].as_u64() >= Some(5), "{event}");
        assert_eq!(event["pres"], 0, "{event}");
        assert_eq!(board("players", width)["tables"], 1);
        // The cup's bracket and the ladder's order and results as tables;
        // the player's ratings and rated games too.
        assert!(board("cup", width)["tables"].as_u64() >= Some(4));
        assert_eq!(board("cup", width)["pres"], 0);
        assert!(board("ladder", width)["tables"].as_u64() >= Some(3));
        assert_eq!(board("player", width)["pres"], 0);
        assert!(board("player", width)["tables"].as_u64() >= Some(3));
        assert_eq!(board("ratings-chess", width)["pres"], 0);
        assert!(board("ratings-chess", width)["tables"].as_u64() >= Some(1));
        // Lists say whose move it is (the Swiss game still running).
        assert_eq!(board("front", width)["last"], 0);
    }
    let front = get(site, "/").body;
    assert!(front.contains(" to move</td>"), "{front}");
    assert_eq!(get(site, "/boards/101?turn=8").status, 404);
    // Player names link to their pages: the director and the pairings.
    let event = get(site, "/events/spring").body;
    for name in ["td", "ann", "cal"] {
        assert!(
            event.contains(&format!(r#"<a href="/players/{name}">{name}</a>"#)),
            "{name}: {event}"
        );
    }
    let pairings = &event[event.find("Pairings").expect("pairings")..];
    assert!(
        pairings.contains(r#"<a href="/players/cal">"#),
        "{pairings}"
    );
    assert_eq!(get(site, "/boards/101?turn=7").status, 200);
}
