//! What players read about ratings: the change a game made, and the
//! standings and a player's ratings as plain-text tables that line up in a
//! fixed-width font.

/// `alice 1712 -> 1726 (+14)`: the change in shown (rounded) figures.
pub fn change_line(userid: &str, before: f64, after: f64) -> String {
    let (before, after) = (shown(before), shown(after));
    let diff = i64::from(after) - i64::from(before);
    format!("{userid} {before} -> {after} ({diff:+})")
}

fn shown(rating: f64) -> i32 {
    crate::ratings::PlayerRating {
        rating,
        ..crate::ratings::START
    }
    .shown()
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
}
