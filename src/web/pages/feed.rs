//! `/feed.atom`: the site's news in one Atom feed: games begun, games
//! ended and events started and finished, the newest first. Only what the
//! pages show: no private game or unaccepted challenge (the reader
//! policy's lists), and a game of a delayed event only by its players and
//! its result, never its moves.

use rusqlite::Connection;

use super::{FeedEntry, Page, Site, WebError, atom_feed};
use crate::reader;
use crate::store::tournaments::{self as events, Status};
use crate::store::{self, web};

/// Entries of each kind read; the feed keeps the newest [`ENTRIES`].
const EACH: u32 = 30;
/// Entries the feed holds.
const ENTRIES: usize = 50;

pub fn site_feed(site: &Site, conn: &Connection) -> Result<Page, WebError> {
    let mut entries: Vec<FeedEntry> = Vec::new();
    for (number, variant, white, black, begun) in web::new_games(conn, EACH)? {
        entries.push(FeedEntry {
            id: format!("urn:pbem:board:{number}:begun"),
            title: format!("Board {number} begun: {white} - {black}"),
            updated: store::time_text(begun),
            summary: format!(
                "{} board {number}: {white} has White, {black} Black.",
                variant.spaced_name()
            ),
            link: format!("/boards/{number}"),
        });
    }
    for line in reader::finished_boards(conn, EACH, 0)? {
        let (Some(result), Some(ended)) = (&line.result, line.finished_at) else {
            continue;
        };
        entries.push(FeedEntry {
            id: format!("urn:pbem:board:{}:result", line.number),
            title: format!(
                "Board {}: {} - {} {result}",
                line.number, line.white, line.black
            ),
            updated: store::time_text(ended),
            summary: format!(
                "{} board {} ended {result}.",
                line.variant.spaced_name(),
                line.number
            ),
            link: format!("/boards/{}", line.number),
        });
    }
    let mut listed = events::list(conn, Status::Running, EACH)?;
    listed.extend(events::list(conn, Status::Finished, EACH)?);
    for event in listed {
        let name = &event.settings.name;
        if let Some(started) = event.started_at {
            entries.push(FeedEntry {
                id: format!("urn:pbem:event:{}:start", event.id),
                title: format!("{name} started"),
                updated: store::time_text(started),
                summary: format!("The event {name} started."),
                link: format!("/events/{name}"),
            });
        }
        if let Some(ended) = web::event_finished_at(conn, event.id)? {
            entries.push(FeedEntry {
                id: format!("urn:pbem:event:{}:end", event.id),
                title: format!("{name} finished"),
                updated: store::time_text(ended),
                summary: format!("The event {name} is over."),
                link: format!("/events/{name}"),
            });
        }
    }
    // Oldest first, as atom_feed takes them; the newest ENTRIES kept.
    entries.sort_by(|a, b| a.updated.cmp(&b.updated).then(a.id.cmp(&b.id)));
    let keep = entries.len().saturating_sub(ENTRIES);
    entries.drain(..keep);
    atom_feed(
        site,
        "event.atom.xml",
        (
            "urn:pbem:site".to_string(),
            "pbem: games and events".to_string(),
            "/".to_string(),
        ),
        entries,
        time::OffsetDateTime::UNIX_EPOCH,
    )
}
