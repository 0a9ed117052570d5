//! FIDE Tournament Report File (TRF-16) reading and writing, with the TRF(x)
//! extensions the endorsed pairing engines read: `XXR` total rounds, `XXC`
//! (`rank`, `white1`, `black1`), `XXP` forbidden pairs, `XXA` accelerations,
//! the point system `BBW BBD BBL BBZ BBF BBU`, and `092`/`192` tournament type
//! (`FIDE_DUTCH_2025_BAKU` selects Baku acceleration). Lines end in LF, CR or
//! CRLF. Unknown lines are kept as header lines and written back unchanged.
//!
//! Player lines (`001`) are fixed columns: start number 5-8, sex and title
//! 10-13, name 15-47, rating 49-52, federation/id/birth 54-79, points 81-84,
//! rank 86-89, then one 10-column block per round from column 92: opponent
//! (4), colour (`w`/`b`/`-`), result code.

use super::{Acceleration, Colour, Entry, Player, Points, Tournament};

/// Longest line read (a 99-round player line is about 1,080 characters).
pub const MAX_LINE: usize = 4096;
/// Largest file read.
pub const MAX_FILE: usize = 16 * 1024 * 1024;

/// A line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    /// 1-based line number (0 for the whole file).
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl std::fmt::Display for TrfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for TrfError {}

fn col(chars: &[char], from: usize, to: usize) -> String {
    (from..to)
        .map(|i| chars.get(i).copied().unwrap_or(' '))
        .collect()
}

fn number(s: &str, what: &str) -> Result<u32, String> {
    let t = s.trim();
    if t.is_empty() {
        return Ok(0);
    }
    if t.len() > 6 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} {t:?} is not a number"));
    }
    t.parse()
        .map_err(|_| format!("{what} {t:?} is not a number"))
}

/// Points with at most one decimal ("1.5", "2", "0.5") in tenths.
pub fn tenths(s: &str) -> Result<u32, String> {
    let t = s.trim();
    if t.is_empty() {
        return Ok(0);
    }
    let (whole, frac) = match t.split_once('.') {
        Some((w, f)) => (w, f),
        None => (t, ""),
    };
    let ok = whole.len() <= 5
        && frac.len() <= 1
        && whole.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
        && !(whole.is_empty() && frac.is_empty());
    if !ok {
        return Err(format!("points {t:?} are not a number with one decimal"));
    }
    let w: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| "points".to_string())?
    };
    let f: u32 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| "points".to_string())?
    };
    Ok(w * 10 + f)
}

fn show_tenths(t: u32) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// Reads a TRF.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    if text.len() > MAX_FILE {
        return Err(TrfError {
            line: 0,
            message: format!("the file is larger than {MAX_FILE} bytes"),
        });
    }
    let mut t = Tournament::default();
    let mut baku = false;
    let mut manual: Vec<(u32, Vec<u32>)> = Vec::new();
    let mut pab_set = false;
    for (i, raw) in text.split(['\n', '\r']).enumerate() {
        let lineno = i + 1;
        let err = |message: String| TrfError {
            line: lineno,
            message,
        };
        if raw.trim().is_empty() {
            continue;
        }
        if raw.len() > MAX_LINE {
            return Err(err(format!("line longer than {MAX_LINE} characters")));
        }
        let chars: Vec<char> = raw.chars().collect();
        let tag = col(&chars, 0, 3);
        let rest = || col(&chars, 3, chars.len());
        match tag.as_str() {
            "001" => t.players.push(player(&chars).map_err(err)?),
            "XXR" | "142" => {
                let r = number(&rest(), "rounds").map_err(err)?;
                if r == 0 || r as usize > super::MAX_ROUNDS {
                    return Err(err(format!(
                        "total rounds must be 1 to {}",
                        super::MAX_ROUNDS
                    )));
                }
                t.total_rounds = Some(r);
            }
            "XXC" => {
                for tok in rest().split_whitespace() {
                    match tok {
                        "rank" => t.use_rank = true,
                        "white1" => t.initial_colour = Some(Colour::White),
                        "black1" => t.initial_colour = Some(Colour::Black),
                        "baku" => baku = true,
                        _ => {}
                    }
                }
            }
            "XXP" => {
                let mut g = Vec::new();
                for tok in rest().split_whitespace() {
                    let s = number(tok, "start number").map_err(err)?;
                    if s == 0 {
                        return Err(err("start number 0".into()));
                    }
                    g.push(s);
                }
                if g.len() > super::MAX_PLAYERS {
                    return Err(err("too many players in one XXP line".into()));
                }
                t.forbidden.push(g);
            }
            "XXA" => {
                let start = number(&col(&chars, 4, 8), "start number").map_err(err)?;
                let mut acc = Vec::new();
                let mut at = 9;
                while at < chars.len() {
                    acc.push(tenths(&col(&chars, at, at + 4)).map_err(err)?);
                    at += 5;
                }
                if acc.len() > super::MAX_ROUNDS {
                    return Err(err("too many rounds".into()));
                }
                manual.push((start, acc));
            }
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let v = tenths(&col(&chars, 4, 8)).map_err(err)?;
                let p = &mut t.points;
                match tag.as_str() {
                    "BBW" => {
                        p.win = v;
                        if !pab_set {
                            p.pab = v;
                        }
                    }
                    "BBD" => p.draw = v,
                    "BBL" => p.loss = v,
                    "BBZ" => p.zero_bye = v,
                    "BBF" => p.forfeit_loss = v,
                    _ => {
                        p.pab = v;
                        pab_set = true;
                    }
                }
                t.header.push(raw.to_string());
            }
            "092" | "192" => {
                baku = rest().trim().ends_with("_BAKU");
                t.header.push(raw.to_string());
            }
            _ => t.header.push(raw.to_string()),
        }
    }
    if !manual.is_empty() {
        t.acceleration = Acceleration::Manual(manual);
    } else if baku {
        t.acceleration = Acceleration::Baku;
    }
    Ok(t)
}

fn player(chars: &[char]) -> Result<Player, String> {
    let start = number(&col(chars, 4, 8), "start number")?;
    if start == 0 {
        return Err("a player line without a start number".into());
    }
    let rating = number(&col(chars, 48, 52), "rating")?;
    let points_tenths = tenths(&col(chars, 80, 84))?;
    let rank = number(&col(chars, 85, 89), "rank")?;
    let mut rounds = Vec::new();
    let mut at = 91;
    while at < chars.len() {
        let opp = col(chars, at, at + 4);
        let opponent = if opp.trim().is_empty() {
            0
        } else {
            number(&opp, "opponent")?
        };
        let colour = chars.get(at + 5).copied().unwrap_or(' ');
        let result = chars.get(at + 7).copied().unwrap_or(' ');
        if !matches!(colour, 'w' | 'b' | '-' | ' ') {
            return Err(format!(
                "round {}: colour {colour:?} is not w, b or -",
                rounds.len() + 1
            ));
        }
        rounds.push(Entry {
            opponent,
            colour,
            result,
        });
        if rounds.len() > super::MAX_ROUNDS {
            return Err(format!("more than {} rounds", super::MAX_ROUNDS));
        }
        at += 10;
    }
    while rounds.last().is_some_and(Entry::is_blank) {
        rounds.pop();
    }
    Ok(Player {
        start,
        name: col(chars, 14, 47).trim().to_string(),
        rating,
        sex_title: col(chars, 9, 13),
        fed_id_birth: col(chars, 53, 79),
        points_tenths,
        rank,
        rounds,
    })
}

/// Writes a TRF (LF line ends): header lines, `XXR`, `XXC`, `XXP`, `XXA`,
/// then the player lines with points recomputed from the results.
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    for h in &t.header {
        out.push_str(h);
        out.push('\n');
    }
    if let Some(r) = t.total_rounds {
        out.push_str(&format!("XXR {r}\n"));
    }
    let mut xxc = Vec::new();
    if t.use_rank {
        xxc.push("rank");
    }
    match t.initial_colour {
        Some(Colour::White) => xxc.push("white1"),
        Some(Colour::Black) => xxc.push("black1"),
        None => {}
    }
    if t.acceleration == Acceleration::Baku {
        xxc.push("baku");
    }
    if !xxc.is_empty() {
        out.push_str(&format!("XXC {}\n", xxc.join(" ")));
    }
    for g in &t.forbidden {
        let s: Vec<String> = g.iter().map(u32::to_string).collect();
        out.push_str(&format!("XXP {}\n", s.join(" ")));
    }
    if let Acceleration::Manual(list) = &t.acceleration {
        for (start, acc) in list {
            let mut line = format!("XXA {start:>4}");
            for a in acc {
                line.push_str(&format!(" {:>4}", show_tenths(*a)));
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    for p in &t.players {
        out.push_str(&player_line(p, points_of(t, p)));
        out.push('\n');
    }
    out
}

/// A player's points from the results (byes as the point system says).
pub fn points_of(t: &Tournament, p: &Player) -> u32 {
    let pts: &Points = &t.points;
    p.rounds
        .iter()
        .map(|e| match e.result.to_ascii_uppercase() {
            '1' | 'W' | '+' | 'F' => pts.win,
            'U' => pts.pab,
            '=' | 'D' | 'H' => pts.draw,
            '0' | 'L' => pts.loss,
            '-' => pts.forfeit_loss,
            'Z' => pts.zero_bye,
            _ => 0,
        })
        .sum()
}

fn fit(s: &str, width: usize) -> String {
    let mut v: String = s.chars().take(width).collect();
    while v.chars().count() < width {
        v.push(' ');
    }
    v
}

/// One `001` line.
pub fn player_line(p: &Player, points: u32) -> String {
    let mut line = format!(
        "001 {:>4} {} {} {} {} {:>4} {:>4}",
        p.start,
        fit(&p.sex_title, 4),
        fit(&p.name, 33),
        if p.rating == 0 {
            "    ".to_string()
        } else {
            format!("{:>4}", p.rating)
        },
        fit(&p.fed_id_birth, 26),
        show_tenths(points),
        if p.rank == 0 {
            String::new()
        } else {
            p.rank.to_string()
        },
    );
    for e in &p.rounds {
        let opp = if e.opponent == 0 {
            if e.is_blank() {
                "    ".to_string()
            } else {
                "0000".to_string()
            }
        } else {
            format!("{:>4}", e.opponent)
        };
        line.push_str(&format!("  {opp} {} {}", e.colour, e.result));
    }
    line.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "012 Test\r001    1      Test0001 Player0001               2568                             1.5    1     2 w 1  0000 - H\r001    2      Test0002 Player0002               2542                             0.0    2     1 b 0  0000 - Z\rXXR 5\rXXC white1\r";

    #[test]
    fn reads_and_writes_back() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.players.len(), 2);
        assert_eq!(t.players[0].rounds[1], Entry::bye('H'));
        assert_eq!(t.players[0].rating, 2568);
        assert_eq!(t.total_rounds, Some(5));
        assert_eq!(t.initial_colour, Some(Colour::White));
        let again = parse(&write(&t)).unwrap();
        assert_eq!(again.players, t.players);
        assert_eq!(again.total_rounds, t.total_rounds);
        // Columns: the points and the first round block land where TRF says.
        let line = player_line(&t.players[0], 15);
        assert_eq!(&line[80..84], " 1.5");
        assert_eq!(&line[91..99], "   2 w 1");
    }

    #[test]
    fn hostile_lines_are_errors_not_panics() {
        for bad in [
            "001 abcd",
            "001    1 x",
            "XXR 100000000000",
            "XXR -1",
            "001    1                                                                           9999999999",
        ] {
            let _ = parse(bad);
        }
        assert!(parse("XXR 0").is_err());
        assert!(parse("001    1      A                                                                  1.0    1  zzzz w 1").is_err());
    }
}
