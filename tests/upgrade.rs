//! A database made by a released pbem opens with this one: the released
//! migrations keep their places, the new ones are applied after them, and
//! the data stays.

use rusqlite::Connection;

/// The migrations of the release before ratings, in their order then.
const RELEASED: &[&str] = &[
    include_str!("../migrations/0001_initial.sql"),
    include_str!("../migrations/0002_deadlines.sql"),
    include_str!("../migrations/0005_hardening.sql"),
    include_str!("../migrations/0008_dialogue.sql"),
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
    let alice = pbem::store::players::by_userid(store.conn(), "alice")
        .expect("query")
        .expect("alice is still there");
    assert_eq!(alice.userid, "alice");
    let rated: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM rated_games", [], |row| row.get(0))
        .expect("the ratings migration ran");
    assert_eq!(rated, 0);
}
