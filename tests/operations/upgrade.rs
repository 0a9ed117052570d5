//! A database made by a released pbem opens with this one: the released
//! migrations keep their places, the new ones are applied after them, and
//! the data stays.

use rusqlite::Connection;

/// The migrations of the release before ratings, in their order then.
const RELEASED: &[&str] = &[
    include_str!("../../migrations/0001_initial.sql"),
    include_str!("../../migrations/0002_deadlines.sql"),
    include_str!("../../migrations/0005_hardening.sql"),
    include_str!("../../migrations/0008_dialogue.sql"),
];

#[test]
fn a_database_of_the_previous_release_is_brought_up_to_date_with_its_data() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("pbem.sqlite3");
    {
        let conn = Connection::open(&path).expect("db");
        for sql in RELEASED {
            conn.execute_batch(sql).expect("a released migration");
        }
        conn.pragma_update(None, "user_version", RELEASED.len() as i64)
            .expect("version");
        conn.execute(
            "INSERT INTO players (userid, password_hash, created_at) VALUES ('alice', 'x', '2026-01-01T00:00:00Z')",
            [],
        )
        .expect("a player");
    }
    let store = pbem::store::Store::open(&path).expect("the upgrade");
    // Without a confirmed address alice is only a reservation now, but
    // her row stays.
    let alice = pbem::store::players::by_userid_or_reserved(store.conn(), "alice")
        .expect("query")
        .expect("alice is still there");
    assert_eq!(alice.userid, "alice");
    let rated: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM rated_games", [], |row| row.get(0))
        .expect("the ratings migration ran");
    assert_eq!(rated, 0);
}

/// Every migration up to 0012, in order.
const BEFORE_0013: &[&str] = &[
    include_str!("../../migrations/0001_initial.sql"),
    include_str!("../../migrations/0002_deadlines.sql"),
    include_str!("../../migrations/0005_hardening.sql"),
    include_str!("../../migrations/0008_dialogue.sql"),
    include_str!("../../migrations/0009_ratings.sql"),
    include_str!("../../migrations/0010_preferences.sql"),
    include_str!("../../migrations/0011_tournaments.sql"),
    include_str!("../../migrations/0012_swiss.sql"),
];

/// Migration 0013: a game an event scored as a forfeit without its being
/// played (never rated) is marked unrated, so that a rebuild leaves it
/// out; a game played and rated before it was rescored as a forfeit stays
/// rated; and `rated_games` loses its indexes.
#[test]
fn migration_0013_marks_unplayed_forfeits_unrated() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("pbem.sqlite3");
    {
        let conn = Connection::open(&path).expect("db");
        for sql in BEFORE_0013 {
            conn.execute_batch(sql).expect("a migration");
        }
        conn.pragma_update(None, "user_version", BEFORE_0013.len() as i64)
            .expect("version");
        conn.execute_batch(
            "INSERT INTO players (id, userid, password_hash, created_at)
                 VALUES (1, 'alice', 'x', '2026-01-01T00:00:00Z'),
                        (2, 'bob', 'x', '2026-01-01T00:00:00Z');
             INSERT INTO boards (number, variant, white_id, black_id, rated, nag_days,
                                 forfeit_days, created_at, last_turn_at, result, end_reason,
                                 finished_at)
                 VALUES (101, 'chess', 1, 2, 1, 7, 21, '2026-01-01T00:00:00Z',
                         '2026-01-01T00:00:00Z', '1-0', 'bob resigned', '2026-01-02T00:00:00Z'),
                        (102, 'chess', 2, 1, 1, 7, 21, '2026-01-01T00:00:00Z',
                         '2026-01-01T00:00:00Z', '0-1', 'bob withdrew from the event cup',
                         '2026-01-03T00:00:00Z');
             INSERT INTO tournaments (id, name, variant, director_id, format, nag_days,
                                      forfeit_days, max_entrants, rated, invite_only,
                                      tiebreaks, status, created_at)
                 VALUES (1, 'cup', 'chess', 1, 'rr', 7, 21, 10, 1, 0, 'sb', 'finished',
                         '2026-01-01T00:00:00Z');
             INSERT INTO tournament_games (tournament_id, round, white_id, black_id, board,
                                           result, forfeit)
                 VALUES (1, 1, 1, 2, 101, '1-0', 1), (1, 2, 2, 1, 102, '0-1', 1);
             INSERT INTO rated_games (board, variant, finished, white_id, black_id,
                                      white_before, white_after, black_before, black_after)
                 VALUES (101, 'chess', 1767312000000000000, 1, 2, 1500, 1662, 1500, 1338);",
        )
        .expect("boards");
    }
    // Board 101 was played and rated, then rescored as a forfeit; 102 is
    // the unplayed forfeit.
    {
        let store = pbem::store::Store::open(&path).expect("the upgrade");
        let rated = |board: u32| -> bool {
            store
                .conn()
                .query_row(
                    "SELECT rated FROM boards WHERE number = ?1",
                    [board],
                    |row| row.get(0),
                )
                .expect("board")
        };
        assert!(rated(101));
        assert!(!rated(102), "an unplayed forfeit is not rated");
        let indexes: i64 = store
            .conn()
            .query_row(
                "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'rated_games'",
                [],
                |row| row.get(0),
            )
            .expect("schema");
        assert_eq!(indexes, 0);
    }
}

/// Migration 0015: queued mails keep their messages, now apart from their
/// rows; a sent one loses its message with its row.
#[test]
fn migration_0015_keeps_queued_messages_apart_from_their_rows() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("pbem.sqlite3");
    {
        let conn = Connection::open(&path).expect("db");
        let before_0015 = BEFORE_0013.iter().chain([
            &include_str!("../../migrations/0013_rated_games_unindexed.sql"),
            &include_str!("../../migrations/0014_outbox_pictures.sql"),
        ]);
        let mut applied = 0;
        for sql in before_0015 {
            conn.execute_batch(sql).expect("a migration");
            applied += 1;
        }
        conn.pragma_update(None, "user_version", applied)
            .expect("version");
        conn.execute_batch(
            "INSERT INTO outbox (id, message_id, recipients, message, pictures, created_at, sent_at)
                 VALUES (1, '<sent@x>', 'a@b.c', X'6F6C64', NULL, '2026-01-01T00:00:00Z',
                         '2026-01-01T00:00:01Z'),
                        (2, '<queued@x>', 'a@b.c' || char(10) || 'd@e.f', X'6869', 'board',
                         '2026-01-01T00:00:00Z', NULL);",
        )
        .expect("two outbox rows");
    }
    let store = pbem::store::Store::open(&path).expect("the upgrade");
    let queued = pbem::store::mailbox::unsent(store.conn(), 10).expect("unsent");
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(queued[0].id, 2);
    assert_eq!(queued[0].message_id, "<queued@x>");
    assert_eq!(queued[0].recipients, ["a@b.c", "d@e.f"]);
    assert_eq!(queued[0].message, b"hi");
    assert_eq!(queued[0].pictures.as_deref(), Some("board"));
    let messages = |sql: &str| -> i64 {
        store
            .conn()
            .query_row(sql, [], |row| row.get(0))
            .expect("count")
    };
    assert_eq!(messages("SELECT COUNT(*) FROM outbox_message"), 2);
    store
        .conn()
        .execute("DELETE FROM outbox WHERE id = 1", [])
        .expect("delete the sent row");
    assert_eq!(
        messages("SELECT COUNT(*) FROM outbox_message WHERE id = 1"),
        0,
        "a deleted row's message goes with it"
    );
}
