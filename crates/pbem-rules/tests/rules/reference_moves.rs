//! An independent, deliberately simple and slow reference implementation of
//! the four variants that change what a move is: twinmove, twinmove-free,
//! doublestep and doubletime. Tests use it to cross-check the engine.
//!
//! Nothing here calls the engine, nor shares its design: the board is a
//! plain array of 64 squares, pieces move by walking square by square,
//! every rule is written out from `docs/rules.md` as plain code, and legality is
//! tested by playing a move on a copy of the board and then asking whether
//! the own king is in check, with check spelled out literally (in
//! doubletime: by trying every enemy doublestep that could end on the king).
//! shakmaty supplies only the `Color`, `Role` and `Square` types.

use shakmaty::{Color, File, Rank, Role, Square};

use crate::perft_compare::Reference;

/// Rook-like directions as (file, rank) steps.
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop-like directions as (file, rank) steps.
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file, rank) steps.
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// Queen and king directions.
const ALL_DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A piece: its side and kind.
type Piece = (Color, Role);

/// The board: what stands on each square, a1 = 0 ... h8 = 63.
type Board = [Option<Piece>; 64];

fn at(board: &Board, sq: Square) -> Option<Piece> {
    board[sq as usize]
}

fn put(board: &mut Board, sq: Square, piece: Option<Piece>) {
    board[sq as usize] = piece;
}

/// The square `(df, dr)` away from `sq`, if it is on the board.
fn offset(sq: Square, (df, dr): (i32, i32)) -> Option<Square> {
    let file = sq.file().to_u32() as i32 + df;
    let rank = sq.rank().to_u32() as i32 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::from_coords(File::new(file as u32), Rank::new(rank as u32)))
}

/// +1 for White's pawns (up the board), -1 for Black's.
fn ahead(color: Color) -> i32 {
    if color == Color::White { 1 } else { -1 }
}

fn home_rank(color: Color) -> Rank {
    if color == Color::White {
        Rank::First
    } else {
        Rank::Eighth
    }
}

fn pawn_rank(color: Color) -> Rank {
    if color == Color::White {
        Rank::Second
    } else {
        Rank::Seventh
    }
}

fn is_last_rank(sq: Square) -> bool {
    sq.rank() == Rank::First || sq.rank() == Rank::Eighth
}

/// Castling rights, one bit each: White h1, White a1, Black h8, Black a8.
const RIGHT_SQUARES: [Square; 4] = [Square::H1, Square::A1, Square::H8, Square::A8];

fn rights_of(color: Color) -> u8 {
    if color == Color::White {
        0b0011
    } else {
        0b1100
    }
}

/// One move of one piece (castling: the king's move, the rook follows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    from: Square,
    to: Square,
    promotion: Option<Role>,
    castle: bool,
    /// A capture of the opponent's doublestepper onto the square it passed.
    en_passant: bool,
}

impl Step {
    fn new(from: Square, to: Square) -> Step {
        Step {
            from,
            to,
            promotion: None,
            castle: false,
            en_passant: false,
        }
    }

    /// In UCI (`e2e4`, `e7e8q`; castling as the king's move `e1g1`), with
    /// `ep` after an en passant capture, which UCI cannot tell from a quiet
    /// move onto the same square.
    pub fn uci(&self) -> String {
        let promotion = self
            .promotion
            .map_or(String::new(), |role| role.char().to_string());
        let en_passant = if self.en_passant { "ep" } else { "" };
        format!("{}{}{promotion}{en_passant}", self.from, self.to)
    }
}

/// The squares `piece` on `from` moves to on `board` by its way of moving
/// (castling and en passant aside), each with whether it captures there.
/// Pawns: one step ahead onto an empty square, two from their starting rank
/// over empty squares, one diagonally ahead onto an enemy piece.
fn piece_moves(board: &Board, from: Square) -> Vec<(Square, bool)> {
    let Some((color, role)) = at(board, from) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut try_square = |sq: Square| -> bool {
        match at(board, sq) {
            None => {
                out.push((sq, false));
                true
            }
            Some((c, _)) if c != color => {
                out.push((sq, true));
                false
            }
            Some(_) => false,
        }
    };
    let slide = |dirs: &[(i32, i32)], try_square: &mut dyn FnMut(Square) -> bool| {
        for &dir in dirs {
            let mut sq = offset(from, dir);
            while let Some(s) = sq {
                if !try_square(s) {
                    break;
                }
                sq = offset(s, dir);
            }
        }
    };
    match role {
        Role::Knight => {
            for d in KNIGHT {
                if let Some(sq) = offset(from, d) {
                    try_square(sq);
                }
            }
        }
        Role::King => {
            for d in ALL_DIRECTIONS {
                if let Some(sq) = offset(from, d) {
                    try_square(sq);
                }
            }
        }
        Role::Bishop => slide(&DIAGONAL, &mut try_square),
        Role::Rook => slide(&ORTHOGONAL, &mut try_square),
        Role::Queen => slide(&ALL_DIRECTIONS, &mut try_square),
        Role::Pawn => {
            let dir = ahead(color);
            if let Some(one) = offset(from, (0, dir))
                && at(board, one).is_none()
            {
                out.push((one, false));
                if from.rank() == pawn_rank(color)
                    && let Some(two) = offset(one, (0, dir))
                    && at(board, two).is_none()
                {
                    out.push((two, false));
                }
            }
            for df in [-1, 1] {
                if let Some(sq) = offset(from, (df, dir))
                    && matches!(at(board, sq), Some((c, _)) if c != color)
                {
                    out.push((sq, true));
                }
            }
        }
    }
    out
}

/// Whether the piece on `from` could capture on `target` with one move (as
/// if an enemy piece stood there).
fn attacks(board: &Board, from: Square, target: Square) -> bool {
    let Some((color, role)) = at(board, from) else {
        return false;
    };
    let df = target.file().to_u32() as i32 - from.file().to_u32() as i32;
    let dr = target.rank().to_u32() as i32 - from.rank().to_u32() as i32;
    let clear_line = |dirs: &[(i32, i32)]| {
        dirs.iter().any(|&dir| {
            let mut sq = offset(from, dir);
            while let Some(s) = sq {
                if s == target {
                    return true;
                }
                if at(board, s).is_some() {
                    return false;
                }
                sq = offset(s, dir);
            }
            false
        })
    };
    match role {
        Role::Pawn => dr == ahead(color) && df.abs() == 1,
        Role::Knight => KNIGHT.contains(&(df, dr)),
        Role::King => (df, dr) != (0, 0) && df.abs() <= 1 && dr.abs() <= 1,
        Role::Bishop => clear_line(&DIAGONAL),
        Role::Rook => clear_line(&ORTHOGONAL),
        Role::Queen => clear_line(&ALL_DIRECTIONS),
    }
}

fn squares() -> impl Iterator<Item = Square> {
    (0..64u32).map(Square::new)
}

fn pieces_of(board: &Board, color: Color) -> Vec<Square> {
    squares()
        .filter(|&sq| matches!(at(board, sq), Some((c, _)) if c == color))
        .collect()
}

fn king_of(board: &Board, color: Color) -> Option<Square> {
    squares().find(|&sq| at(board, sq) == Some((color, Role::King)))
}

/// Whether some piece of `by` attacks `target`; `only` filters the pieces.
fn attacked_by(board: &Board, target: Square, by: Color, only: impl Fn(Role) -> bool) -> bool {
    pieces_of(board, by).into_iter().any(|from| {
        at(board, from).is_some_and(|(_, role)| only(role)) && attacks(board, from, target)
    })
}

/// The board after a piece moves from `from` to `to` (capturing whatever
/// stands there), promoting if asked.
fn moved(board: &Board, from: Square, to: Square, promotion: Option<Role>) -> Board {
    let mut next = *board;
    let piece = at(board, from).map(|(color, role)| (color, promotion.unwrap_or(role)));
    put(&mut next, from, None);
    put(&mut next, to, piece);
    next
}

/// The variants this reference knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// twinmove (`compulsory`) and twinmove-free.
    Twinmove { compulsory: bool },
    /// doublestep and (`capture`) doubletime.
    Doublestep { capture: bool },
}

/// A doublestep the side to move may take en passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Passage {
    passed: Square,
    landed: Square,
    /// The piece the doublestep captured (of the side to move).
    held: Option<Role>,
    /// Castling rights that capture took.
    held_rights: u8,
}

/// A game of one of the four variants at the start of a turn.
#[derive(Clone, Debug)]
pub struct Game {
    kind: Kind,
    board: Board,
    rights: u8,
    turn: Color,
    passage: Option<Passage>,
    over: bool,
    /// White's first turn of the game (move 1, White to play).
    first_turn: bool,
}

/// A whole turn and the game after it.
pub type TurnAndAfter = (Vec<Step>, Game);

impl Reference for Game {
    type Move = Step;
    const MARKS_EN_PASSANT: bool = true;

    /// A game from a FEN; an en passant square stands for a pawn's
    /// two-square advance that was the opponent's last move.
    fn from_fen(variant: &'static str, fen: &str) -> Game {
        let kind = match variant {
            "twinmove" => Kind::Twinmove { compulsory: true },
            "twinmove-free" => Kind::Twinmove { compulsory: false },
            "doublestep" => Kind::Doublestep { capture: false },
            "doubletime" => Kind::Doublestep { capture: true },
            other => panic!("the reference does not know the variant {other}"),
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert!(fields.len() >= 4, "a FEN needs at least four fields: {fen}");
        let mut board: Board = [None; 64];
        for (row, text) in fields[0].split('/').enumerate() {
            let rank = 7 - row as u32;
            let mut file = 0;
            for c in text.chars() {
                if let Some(empty) = c.to_digit(10) {
                    file += empty;
                    continue;
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let role = Role::from_char(c.to_ascii_lowercase()).expect("a piece letter");
                put(
                    &mut board,
                    Square::from_coords(File::new(file), Rank::new(rank)),
                    Some((color, role)),
                );
                file += 1;
            }
        }
        let turn = if fields[1] == "w" {
            Color::White
        } else {
            Color::Black
        };
        let mut rights = 0;
        for (bit, letter) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if fields[2].contains(letter) {
                rights |= 1 << bit;
            }
        }
        let passage = (fields[3] != "-" && matches!(kind, Kind::Doublestep { .. })).then(|| {
            let passed: Square = fields[3].parse().expect("an en passant square");
            Passage {
                passed,
                landed: offset(passed, (0, -ahead(turn))).expect("on the board"),
                held: None,
                held_rights: 0,
            }
        });
        let first_turn = turn == Color::White && fields.get(5).is_some_and(|&number| number == "1");
        Game {
            kind,
            board,
            rights,
            turn,
            passage,
            over: false,
            first_turn,
        }
    }

    fn is_over(&self) -> bool {
        self.over
    }

    /// Every legal whole turn and the game after it.
    fn turns(&self) -> Vec<TurnAndAfter> {
        match self.kind {
            Kind::Twinmove { compulsory } => self.twinmove_turns(compulsory),
            Kind::Doublestep { capture } => self.doublestep_turns(capture),
        }
    }

    fn uci(mv: &Step) -> String {
        mv.uci()
    }
}

impl Game {
    // -----------------------------------------------------------------
    // Shared: moves, castling, playing a move

    /// Every move of `us` by the way pieces move, with castling that needs
    /// only the right, king and rook at home and an empty path.
    fn plain_moves(&self, board: &Board, rights: u8, us: Color) -> Vec<Step> {
        let mut steps = Vec::new();
        for from in pieces_of(board, us) {
            for (to, _) in piece_moves(board, from) {
                if at(board, from).is_some_and(|(_, r)| r == Role::Pawn) && is_last_rank(to) {
                    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        steps.push(Step {
                            promotion: Some(promotion),
                            ..Step::new(from, to)
                        });
                    }
                } else {
                    steps.push(Step::new(from, to));
                }
            }
        }
        let back = home_rank(us);
        let king = Square::from_coords(File::E, back);
        if at(board, king) == Some((us, Role::King)) {
            // (rook file, king goes to, squares that must be empty)
            for (rook_file, king_file, path) in [
                (File::H, File::G, &[File::F, File::G][..]),
                (File::A, File::C, &[File::B, File::C, File::D][..]),
            ] {
                let rook = Square::from_coords(rook_file, back);
                let bit = RIGHT_SQUARES
                    .iter()
                    .position(|&s| s == rook)
                    .expect("a corner");
                if rights & (1 << bit) != 0
                    && at(board, rook) == Some((us, Role::Rook))
                    && path
                        .iter()
                        .all(|&f| at(board, Square::from_coords(f, back)).is_none())
                {
                    steps.push(Step {
                        castle: true,
                        ..Step::new(king, Square::from_coords(king_file, back))
                    });
                }
            }
        }
        steps
    }

    /// The board and castling rights after `step` by `us`.
    fn play(&self, board: &Board, rights: u8, us: Color, step: &Step) -> (Board, u8) {
        let mut next = moved(board, step.from, step.to, step.promotion);
        let mut rights = rights;
        if step.castle {
            let back = home_rank(us);
            let (rook_from, rook_to) = if step.to.file() == File::G {
                (File::H, File::F)
            } else {
                (File::A, File::D)
            };
            next = moved(
                &next,
                Square::from_coords(rook_from, back),
                Square::from_coords(rook_to, back),
                None,
            );
        }
        if step.en_passant
            && let Some(passage) = self.passage
        {
            put(
                &mut next,
                passage.landed,
                passage.held.map(|role| (us, role)),
            );
            rights |= passage.held_rights;
        }
        if at(board, step.from).is_some_and(|(_, r)| r == Role::King) {
            rights &= !rights_of(us);
        }
        if at(board, step.to).is_some_and(|(_, r)| r == Role::King) {
            rights &= !rights_of(!us);
        }
        for (bit, &sq) in RIGHT_SQUARES.iter().enumerate() {
            if sq == step.from || sq == step.to {
                rights &= !(1 << bit);
            }
        }
        (next, rights)
    }

    fn is_pawn(board: &Board, sq: Square) -> bool {
        at(board, sq).is_some_and(|(_, role)| role == Role::Pawn)
    }

    fn takes_king(board: &Board, step: &Step) -> bool {
        at(board, step.to).is_some_and(|(_, role)| role == Role::King)
    }

    fn next_game(&self, board: Board, rights: u8, passage: Option<Passage>, over: bool) -> Game {
        Game {
            kind: self.kind,
            board,
            rights,
            turn: !self.turn,
            passage,
            over,
            first_turn: false,
        }
    }

    // -----------------------------------------------------------------
    // twinmove: a pawn move and a piece move, king capture

    /// twinmove-free differs only on White's first turn: "games always
    /// begin with a pawn move", as in the compulsory form.
    fn twinmove_turns(&self, compulsory: bool) -> Vec<TurnAndAfter> {
        let compulsory = compulsory || self.first_turn;
        let us = self.turn;
        let all = self.plain_moves(&self.board, self.rights, us);
        let pawn_moves: Vec<Step> = all
            .iter()
            .copied()
            .filter(|s| Game::is_pawn(&self.board, s.from))
            .collect();
        let firsts = if compulsory && !pawn_moves.is_empty() {
            pawn_moves
        } else {
            all
        };
        let mut turns = Vec::new();
        for m1 in firsts {
            let (b1, r1) = self.play(&self.board, self.rights, us, &m1);
            if Game::takes_king(&self.board, &m1) {
                turns.push((vec![m1], self.next_game(b1, r1, None, true)));
                continue;
            }
            if !Game::is_pawn(&self.board, m1.from) {
                turns.push((vec![m1], self.next_game(b1, r1, None, false)));
                continue;
            }
            // The piece move: any move of a non-pawn, the promoted pawn included.
            let seconds: Vec<Step> = self
                .plain_moves(&b1, r1, us)
                .into_iter()
                .filter(|s| !Game::is_pawn(&b1, s.from))
                .collect();
            if seconds.is_empty() {
                turns.push((vec![m1], self.next_game(b1, r1, None, false)));
            }
            for m2 in seconds {
                let (b2, r2) = self.play(&b1, r1, us, &m2);
                let over = Game::takes_king(&b1, &m2);
                turns.push((vec![m1, m2], self.next_game(b2, r2, None, over)));
            }
        }
        turns
    }

    // -----------------------------------------------------------------
    // doublestep and doubletime

    /// Whether `color` is in check on `board`. Doublestep: its king is
    /// attacked. Doubletime: also when an enemy piece could step quietly to
    /// a square P and from there capture the king, unless after that
    /// doublestep a piece of `color` other than the king attacks P.
    fn in_check(&self, board: &Board, color: Color, capture: bool) -> bool {
        let Some(king) = king_of(board, color) else {
            return false;
        };
        if attacked_by(board, king, !color, |_| true) {
            return true;
        }
        if !capture {
            return false;
        }
        for from in pieces_of(board, !color) {
            for (passed, captures) in piece_moves(board, from) {
                let two_squares = passed.rank().to_u32().abs_diff(from.rank().to_u32()) == 2
                    && Game::is_pawn(board, from);
                if captures || two_squares || (Game::is_pawn(board, from) && is_last_rank(passed)) {
                    continue;
                }
                let halfway = moved(board, from, passed, None);
                if !attacks(&halfway, passed, king) {
                    continue;
                }
                let taken = moved(&halfway, passed, king, None);
                if !attacked_by(&taken, passed, color, |role| role != Role::King) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `step` by the side to move is legal on `board`: the own king
    /// is not in check afterwards; castling also not out of or through check.
    fn legal(&self, board: &Board, rights: u8, step: &Step, capture: bool) -> bool {
        let us = self.turn;
        if step.castle {
            if self.in_check(board, us, capture) {
                return false;
            }
            let passing_file = if step.to.file() == File::G {
                File::F
            } else {
                File::D
            };
            let passing = moved(
                board,
                step.from,
                Square::from_coords(passing_file, step.from.rank()),
                None,
            );
            if self.in_check(&passing, us, capture) {
                return false;
            }
        }
        let (after, _) = self.play(board, rights, us, step);
        !self.in_check(&after, us, capture)
    }

    /// En passant captures of the opponent's doublestepper: every move of
    /// a piece of ours that attacks the square it passed onto that square,
    /// on the board as it was before the second step: the doublestepper on
    /// the passed square, and on its final square whatever it took there.
    fn en_passant_steps(&self) -> Vec<Step> {
        let Some(passage) = self.passage else {
            return Vec::new();
        };
        if at(&self.board, passage.passed).is_some() {
            return Vec::new();
        }
        let mut before_second_step = moved(&self.board, passage.landed, passage.passed, None);
        put(
            &mut before_second_step,
            passage.landed,
            passage.held.map(|role| (self.turn, role)),
        );
        let mut steps = Vec::new();
        for from in pieces_of(&self.board, self.turn) {
            if !attacks(&before_second_step, from, passage.passed) {
                continue;
            }
            let step = Step {
                en_passant: true,
                ..Step::new(from, passage.passed)
            };
            if Game::is_pawn(&self.board, from) && is_last_rank(passage.passed) {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    steps.push(Step {
                        promotion: Some(promotion),
                        ..step
                    });
                }
            } else {
                steps.push(step);
            }
        }
        steps
    }

    fn doublestep_turns(&self, capture: bool) -> Vec<TurnAndAfter> {
        let us = self.turn;
        let board = &self.board;
        let ep = self.en_passant_steps();
        let firsts: Vec<Step> = if king_of(board, us).is_none() {
            // The king is held by a doublestep: only freeing it is allowed.
            ep
        } else {
            // A quiet move onto the passed square stays possible beside the
            // en passant capture there.
            let mut all = self.plain_moves(board, self.rights, us);
            all.extend(ep);
            all
        };
        let mut turns = Vec::new();
        for m1 in firsts {
            // A doublestep is one move, judged by the board it leaves: its
            // first step alone may leave the king in check, unless the king
            // itself steps (it may not pass through check).
            let legal_alone = self.legal(board, self.rights, &m1, capture);
            let king = at(board, m1.from).is_some_and(|(_, role)| role == Role::King);
            if !legal_alone && king {
                continue;
            }
            let (b1, r1) = self.play(board, self.rights, us, &m1);
            let two_squares = Game::is_pawn(board, m1.from)
                && m1.from.rank().to_u32().abs_diff(m1.to.rank().to_u32()) == 2;
            if legal_alone {
                let passage = two_squares.then(|| Passage {
                    passed: offset(m1.from, (0, ahead(us))).expect("on the board"),
                    landed: m1.to,
                    held: None,
                    held_rights: 0,
                });
                let over = Game::takes_king(board, &m1);
                turns.push((vec![m1], self.next_game(b1, r1, passage, over)));
            }
            let quiet = at(board, m1.to).is_none() && !m1.en_passant;
            if !quiet || m1.castle || m1.promotion.is_some() || two_squares {
                continue;
            }
            // The second step: the same piece again, from where it stands.
            let stepper = Game {
                passage: None,
                ..self.clone()
            };
            for (to, captures) in piece_moves(&b1, m1.to) {
                if to == m1.from || (captures && !capture) {
                    continue;
                }
                let pawn = Game::is_pawn(&b1, m1.to);
                if pawn && !captures && m1.from.rank() == pawn_rank(us) {
                    continue; // e2-e3-e4 is the two-square advance e2-e4
                }
                let promotions: Vec<Option<Role>> = if pawn && is_last_rank(to) {
                    [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                        .into_iter()
                        .map(Some)
                        .collect()
                } else {
                    vec![None]
                };
                for promotion in promotions {
                    let m2 = Step {
                        promotion,
                        ..Step::new(m1.to, to)
                    };
                    if !stepper.legal(&b1, r1, &m2, capture) {
                        continue;
                    }
                    let (b2, r2) = stepper.play(&b1, r1, us, &m2);
                    let held = at(&b1, to).map(|(_, role)| role);
                    let passage = Passage {
                        passed: m1.to,
                        landed: to,
                        held,
                        held_rights: r1 & !r2 & rights_of(!us),
                    };
                    let mut after = self.next_game(b2, r2, Some(passage), false);
                    if held == Some(Role::King) {
                        after.over = after.turns().is_empty();
                    }
                    turns.push((vec![m1, m2], after));
                }
            }
        }
        turns
    }
}
