//! Who may see what: the one reader policy (issue 35), for the mail
//! commands and the web site alike. Below the service and above the
//! store: it reads the store (its query half is [`crate::store::web`]),
//! never writes it, and never uses the service, mail or the web.
//!
//! For a board and a reader it answers how many turns the reader sees,
//! whether chat and comments, whose conditional lines and notes; whether
//! the board exists for them at all; and the lists (a player's boards as
//! a reader may list them, an event's games, rated games, standings,
//! counts).
//!
//! - A `--private` game and a challenge nobody accepted are their
//!   players' only: to anyone else they are no board, and out of every
//!   list.
//! - Moves: all of them, but while an event's game with a
//!   `--public-delay` runs, everyone but its players and a director who
//!   does not play in the event sees it that many turns behind.
//! - Chat and comments: the players and the board's subscribers; never
//!   the web, never another reader's one-off `show`, `history` or `pgn`.
//! - Conditional lines: their owner. Notes: their writer.
//!
//! A stranger by mail sees no more than the web shows.

use rusqlite::Connection;
use time::OffsetDateTime;

use crate::domain::{BoardNumber, PlayerId};
use crate::ratings::Section;
use crate::render::ratings::{PastRow, Row, standings_sections};
use crate::rules::Variant;
use crate::store::{StoreError, ratings, tournaments, web};

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who<'a> {
    /// The spectators' web site: anyone at all.
    Web,
    /// A mail from `address`, the player whose address it is if any. The
    /// answer goes back to `address`, so a forged From only sends its
    /// owner what the owner may read.
    Mail {
        address: &'a str,
        player: Option<PlayerId>,
    },
}

impl Who<'_> {
    /// The player who asks, if any: whose own boards they may list.
    pub fn player(&self) -> Option<PlayerId> {
        match self {
            Who::Web => None,
            Who::Mail { player, .. } => *player,
        }
    }
}

/// What a reader is to one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One of its two players.
    Player,
    /// The director of its event, not entered in it.
    Director,
    /// An address that follows the board (`subscribe`).
    Subscriber,
    /// A player of pbem with no part in the board.
    OtherPlayer,
    /// A mail from an address pbem knows nothing of.
    Stranger,
    /// The web site.
    Web,
}

/// What one reader sees of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    pub kind: Kind,
    /// The latest turns held back (an event's `--public-delay` while the
    /// game runs); 0 for none.
    pub hidden_turns: u32,
}

impl Sight {
    /// The full view: a player's.
    pub const PLAYER: Sight = Sight {
        kind: Kind::Player,
        hidden_turns: 0,
    };

    /// Whether the reader reads the board's chat and comments.
    pub fn chat(&self) -> bool {
        matches!(self.kind, Kind::Player | Kind::Subscriber)
    }

    /// How many of `played` turns the reader sees.
    pub fn turns_shown(&self, played: usize) -> usize {
        played.saturating_sub(usize::try_from(self.hidden_turns).unwrap_or(usize::MAX))
    }

    /// Whether the reader sees the board behind the game (its clocks and
    /// deadlines, standing offers and news would tell of the turns held
    /// back).
    pub fn delayed(&self) -> bool {
        self.hidden_turns > 0
    }
}

/// What `who` sees of board `number`; `None` when, for them, there is no
/// such board (it does not exist, or it is private or an unaccepted
/// challenge and they are not one of its players).
pub fn board(
    conn: &Connection,
    number: BoardNumber,
    who: Who<'_>,
) -> Result<Option<Sight>, StoreError> {
    let Some(facts) = web::board_facts(conn, number.0)? else {
        return Ok(None);
    };
    let kind = match who {
        Who::Web => Kind::Web,
        Who::Mail { address, player } => {
            if player.is_some_and(|p| p == facts.white || p == facts.black) {
                Kind::Player
            } else if player.is_some() && player == facts.outside_director {
                Kind::Director
            } else if web::follows(conn, number.0, address)? {
                Kind::Subscriber
            } else if player.is_some() {
                Kind::OtherPlayer
            } else {
                Kind::Stranger
            }
        }
    };
    Ok(sight(kind, &facts))
}

/// What the addresses that follow board `number` see of it (`None` if it
/// is gone).
pub fn subscribers(conn: &Connection, number: BoardNumber) -> Result<Option<Sight>, StoreError> {
    Ok(web::board_facts(conn, number.0)?.and_then(|facts| sight(Kind::Subscriber, &facts)))
}

/// The policy proper: what a reader of `kind` sees of a board with
/// `facts`.
fn sight(kind: Kind, facts: &web::BoardFacts) -> Option<Sight> {
    if kind != Kind::Player && !facts.public {
        return None;
    }
    let hidden_turns = match kind {
        Kind::Player | Kind::Director => 0,
        Kind::Subscriber | Kind::OtherPlayer | Kind::Stranger | Kind::Web => facts.delay,
    };
    Some(Sight { kind, hidden_turns })
}

/// Whether `reader` may read the conditional lines `owner` keeps on a
/// board: only their owner.
pub fn may_read_conditional(reader: Option<PlayerId>, owner: PlayerId) -> bool {
    reader == Some(owner)
}

/// Whether `reader` may read a private note `writer` keeps on a board:
/// only its writer (for `note`, which keeps them).
pub fn may_read_notes(reader: Option<PlayerId>, writer: PlayerId) -> bool {
    reader == Some(writer)
}

/// The boards of `player` that `who` may list, the newest first: the
/// public ones, and those `who` plays on.
pub fn boards_of(
    conn: &Connection,
    player: PlayerId,
    who: Who<'_>,
) -> Result<Vec<BoardNumber>, StoreError> {
    web::listed_boards_of(conn, player, who.player())
}

/// The games of event `event` that `who` may list, by round and board:
/// each one a board for them (`board`). An event's games are public, so
/// today every reader lists them all; a game that is no board for the
/// reader would be left out, as from every other list.
pub fn event_games(
    conn: &Connection,
    event: i64,
    who: Who<'_>,
) -> Result<Vec<tournaments::Game>, StoreError> {
    let mut listed = Vec::new();
    for game in tournaments::games(conn, event)? {
        if board(conn, game.board, who)?.is_some() {
            listed.push(game);
        }
    }
    Ok(listed)
}

/// The last `limit` rated games of `player` that `who` may list.
pub fn rated_games_of(
    conn: &Connection,
    player: PlayerId,
    who: Who<'_>,
    limit: u32,
) -> Result<Vec<ratings::PastGame>, StoreError> {
    ratings::recent_games(conn, player, who.player(), limit)
}

/// Rated games as the ratings tables show them (the `rating` mail and the
/// web's player page alike).
pub fn past_rows(games: &[ratings::PastGame]) -> Vec<PastRow<'_>> {
    games
        .iter()
        .map(|g| PastRow {
            date: OffsetDateTime::from_unix_timestamp_nanos(i128::from(g.finished))
                .map(|t| t.date().to_string())
                .unwrap_or_default(),
            board: g.board.0,
            variant: g.variant,
            outcome: g.outcome,
            opponent: &g.opponent,
            opponent_rating: g.opponent_before,
            before: g.before,
            after: g.after,
        })
        .collect()
}

/// A variant's standings at `now` as their sections (title, table of at
/// most `limit` rows), the same for every reader: the Active column
/// counts public games only. What the `ratings` mail, `pbem ratings` and
/// the web show.
pub fn variant_sections(
    conn: &Connection,
    variant: Variant,
    now: OffsetDateTime,
    limit: usize,
) -> Result<Vec<(String, String)>, StoreError> {
    let now = ratings::nanos(now);
    let entries = ratings::of_variant(conn, variant)?;
    let rows: Vec<Row<'_>> = entries
        .iter()
        .map(|e| Row {
            userid: &e.userid,
            rating: &e.standing.rating,
            active: e.active,
            section: e.standing.section(now),
        })
        .collect();
    Ok(standings_sections(&rows, limit))
}

/// A variant's standings at `now`, ranked, highest first, each with the
/// section it is listed in: the values the web's tables show (the Active
/// count of public games only, as [`variant_sections`]).
pub fn variant_standings(
    conn: &Connection,
    variant: Variant,
    now: OffsetDateTime,
) -> Result<Vec<(Section, ratings::Entry)>, StoreError> {
    let now = ratings::nanos(now);
    Ok(ratings::of_variant(conn, variant)?
        .into_iter()
        .map(|e| (e.standing.section(now), e))
        .collect())
}

/// The web's lists and counts: public games only.
pub use web::{
    BoardLine, Counts, boards_of as public_boards_of, counts, finished_boards, running_boards,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(public: bool, delay: u32) -> web::BoardFacts {
        web::BoardFacts {
            white: PlayerId(1),
            black: PlayerId(2),
            public,
            delay,
            outside_director: Some(PlayerId(3)),
        }
    }

    #[test]
    fn a_private_board_is_its_players_alone() {
        let private = facts(false, 0);
        assert_eq!(sight(Kind::Player, &private), Some(Sight::PLAYER));
        for kind in [
            Kind::Director,
            Kind::Subscriber,
            Kind::OtherPlayer,
            Kind::Stranger,
            Kind::Web,
        ] {
            assert_eq!(sight(kind, &private), None, "{kind:?}");
        }
    }

    #[test]
    fn the_delay_holds_for_all_but_players_and_the_director() {
        let delayed = facts(true, 2);
        let hidden = |kind| sight(kind, &delayed).map(|s| s.hidden_turns);
        assert_eq!(hidden(Kind::Player), Some(0));
        assert_eq!(hidden(Kind::Director), Some(0));
        for kind in [
            Kind::Subscriber,
            Kind::OtherPlayer,
            Kind::Stranger,
            Kind::Web,
        ] {
            assert_eq!(hidden(kind), Some(2), "{kind:?}");
        }
        let seen = sight(Kind::Web, &delayed).expect("public");
        assert_eq!(seen.turns_shown(5), 3);
        assert_eq!(seen.turns_shown(1), 0);
    }

    #[test]
    fn chat_conditional_lines_and_notes_have_their_own_readers() {
        let public = facts(true, 0);
        let chat = |kind| sight(kind, &public).expect("public").chat();
        assert!(chat(Kind::Player) && chat(Kind::Subscriber));
        for kind in [Kind::Director, Kind::OtherPlayer, Kind::Stranger, Kind::Web] {
            assert!(!chat(kind), "{kind:?}");
        }
        assert!(may_read_conditional(Some(PlayerId(1)), PlayerId(1)));
        assert!(!may_read_conditional(Some(PlayerId(2)), PlayerId(1)));
        assert!(!may_read_conditional(None, PlayerId(1)));
        assert!(may_read_notes(Some(PlayerId(2)), PlayerId(2)));
        assert!(!may_read_notes(Some(PlayerId(1)), PlayerId(2)));
        assert!(!may_read_notes(None, PlayerId(2)));
    }
}
