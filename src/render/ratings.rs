//! What players read about ratings: the change a game made, and the
//! standings and a player's ratings as plain-text tables that line up in a
//! fixed-width font (userids are at most 24 ASCII characters).

use crate::ratings::{Outcome, PlayerRating, START, Section};
use crate::rules::Variant;

/// `alice 1712 -> 1726 (+14)`: the change in shown (rounded) figures.
pub fn change_line(userid: &str, before: f64, after: f64) -> String {
    let (before, after) = (shown(before), shown(after));
    let diff = i64::from(after) - i64::from(before);
    format!("{userid} {before} -> {after} ({diff:+})")
}

pub(crate) fn shown(rating: f64) -> i32 {
    PlayerRating { rating, ..START }.shown()
}

/// One line of the standings.
pub struct Row<'a> {
    pub userid: &'a str,
    pub rating: &'a PlayerRating,
    /// Games of the variant in progress.
    pub active: u32,
    /// Where the rating is listed.
    pub section: Section,
}

/// A variant's standings as their three sections, Established,
/// Provisional and Inactive, in that order: each its title and its table
/// of at most `limit` rows (`rows` ranked, highest first). The mail and
/// the command line show the same sections.
pub fn standings_sections(rows: &[Row<'_>], limit: usize) -> Vec<(String, String)> {
    [
        Section::Established,
        Section::Provisional,
        Section::Inactive,
    ]
    .into_iter()
    .map(|section| {
        let rows: Vec<&Row<'_>> = rows.iter().filter(|r| r.section == section).collect();
        (section_title(section), standings_table(&rows, limit))
    })
    .collect()
}

/// The heading of a section of the standings.
pub fn section_title(section: Section) -> String {
    match section {
        Section::Established => "Established".to_string(),
        Section::Provisional => format!(
            "Provisional (deviation over {}, or fewer than {})",
            crate::ratings::PROVISIONAL_DEVIATION,
            crate::render::count(crate::ratings::PROVISIONAL_GAMES, "rated game")
        ),
        Section::Inactive => format!(
            "Inactive (no rated game for {})",
            crate::render::count(crate::ratings::INACTIVE_DAYS, "day")
        ),
    }
}

/// A section of the standings as a table: rank, player, rating, deviation,
/// won, lost, drawn, active games; at most `limit` rows, then how many
/// more there are.
fn standings_table(rows: &[&Row<'_>], limit: usize) -> String {
    if rows.is_empty() {
        return "  (nobody)\n".to_string();
    }
    let mut out = format!(
        "{:>5}  {:<24} {:>6} {:>4} {:>5} {:>5} {:>5} {:>6}\n",
        "#", "Player", "Rating", "Dev", "Won", "Lost", "Drawn", "Active"
    );
    for (rank, row) in rows.iter().take(limit).enumerate() {
        let r = row.rating;
        out.push_str(&format!(
            "{:>5}  {:<24} {:>6} {:>4} {:>5} {:>5} {:>5} {:>6}\n",
            rank + 1,
            row.userid,
            r.shown(),
            r.shown_deviation(),
            r.wins,
            r.losses,
            r.draws,
            row.active
        ));
    }
    if rows.len() > limit {
        out.push_str(&format!("  ... and {} more\n", rows.len() - limit));
    }
    out
}

/// A player's rating in each variant.
pub fn player_table(ratings: &[(Variant, PlayerRating, Section)]) -> String {
    let mut out = format!(
        "{:<20} {:>6} {:>4} {:>5} {:>5} {:>5} {:>5}  {}\n",
        "Variant", "Rating", "Dev", "Games", "Won", "Lost", "Drawn", "Status"
    );
    for (variant, r, section) in ratings {
        let status = match section {
            Section::Established => "established",
            Section::Provisional => "provisional",
            Section::Inactive => "inactive",
        };
        out.push_str(&format!(
            "{:<20} {:>6} {:>4} {:>5} {:>5} {:>5} {:>5}  {status}\n",
            variant.display_name(),
            r.shown(),
            r.shown_deviation(),
            r.games,
            r.wins,
            r.losses,
            r.draws
        ));
    }
    out
}

/// One past rated game, from the player's side.
pub struct PastRow<'a> {
    pub date: String,
    pub board: u32,
    pub variant: Variant,
    pub outcome: Outcome,
    pub opponent: &'a str,
    pub opponent_rating: f64,
    pub before: f64,
    pub after: f64,
}

/// The last rated games as a table. The variant and opponent columns
/// are as wide as their longest entry, so that a row of common names
/// stays within the 76 characters a mail line keeps unencoded.
pub fn past_table(rows: &[PastRow<'_>]) -> String {
    if rows.is_empty() {
        return "  (none)\n".to_string();
    }
    let variant_width = rows
        .iter()
        .map(|r| r.variant.display_name().len())
        .chain(["Variant".len()])
        .max()
        .unwrap_or(0);
    let opponent_width = rows
        .iter()
        .map(|r| r.opponent.len())
        .chain(["Opponent".len()])
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "{:<10} {:>5}  {:<variant_width$}  {:<5} {:<opponent_width$} {:>5}  {}\n",
        "Date", "Board", "Variant", "Score", "Opponent", "Rated", "Rating"
    );
    for row in rows {
        let score = match row.outcome {
            Outcome::Win => "won",
            Outcome::Loss => "lost",
            Outcome::Draw => "drew",
        };
        let (before, after) = (shown(row.before), shown(row.after));
        out.push_str(&format!(
            "{:<10} {:>5}  {:<variant_width$}  {:<5} {:<opponent_width$} {:>5}  {before} -> {after} ({:+})\n",
            row.date,
            row.board,
            row.variant.display_name(),
            score,
            row.opponent,
            shown(row.opponent_rating),
            i64::from(after) - i64::from(before)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_lines() {
        assert_eq!(
            change_line("alice", 1711.6, 1725.9),
            "alice 1712 -> 1726 (+14)"
        );
        assert_eq!(
            change_line("bob", 1500.0, 1337.7),
            "bob 1500 -> 1338 (-162)"
        );
        assert_eq!(
            change_line("carol", 1500.2, 1499.9),
            "carol 1500 -> 1500 (+0)"
        );
    }

    #[test]
    fn tables_line_up() {
        let a = PlayerRating {
            rating: 1725.6,
            deviation: 61.8,
            games: 19,
            wins: 14,
            losses: 3,
            draws: 2,
            ..START
        };
        let b = PlayerRating {
            rating: 987.0,
            ..START
        };
        let rows = [
            Row {
                userid: "alice",
                rating: &a,
                active: 1,
                section: Section::Established,
            },
            Row {
                userid: "a-very-long-userid-24chr",
                rating: &b,
                active: 12,
                section: Section::Established,
            },
            Row {
                userid: "carol",
                rating: &b,
                active: 0,
                section: Section::Established,
            },
        ];
        let sections = standings_sections(&rows, 2);
        assert_eq!(sections.len(), 3);
        assert_eq!(sections[0].0, "Established");
        assert_eq!(sections[1].1, "  (nobody)\n");
        let table = &sections[0].1;
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert_eq!(lines[0].len(), lines[1].len(), "{table}");
        assert_eq!(lines[1].len(), lines[2].len(), "{table}");
        assert!(
            lines[1].contains("alice") && lines[1].contains(" 1726 "),
            "{table}"
        );
        assert_eq!(lines[3], "  ... and 1 more");
        // Each figure sits under the end of its heading.
        let end = |line: &str, word: &str| line.find(word).map(|i| i + word.len());
        assert_eq!(end(lines[0], "Rating"), end(lines[1], "1726"));
        assert_eq!(end(lines[0], "Rating"), end(lines[2], " 987"));
        assert_eq!(end(lines[0], "Active"), Some(lines[2].len()));
    }
}
