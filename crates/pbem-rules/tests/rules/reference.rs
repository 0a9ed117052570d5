//! An independent, deliberately simple and slow reference implementation of
//! the turn rules of every variant, used only by tests to cross-check the
//! engine in `pbem_rules`.
//!
//! Nothing here calls the engine. Moves are generated from scratch by walking
//! the board square by square (shakmaty supplies only the board and square
//! types), a move is checked by playing it on a copy of the board and looking
//! for attacks on the own king, and each variant's turn rules are written out
//! as plain code straight from `docs/rules.md`, one function per variant family.
//! Speed is not a goal: clarity is, so that a disagreement with the engine
//! can be settled by reading this file next to the rules.

use shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Role, Square};

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
/// King steps as (file, rank) steps.
const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `delta` (files, ranks) away from `sq`, if it is on the board.
fn step(sq: Square, (df, dr): (i32, i32)) -> Option<Square> {
    let file = sq.file().to_u32() as i32 + df;
    let rank = sq.rank().to_u32() as i32 + dr;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some(Square::from_coords(
            File::new(file as u32),
            Rank::new(rank as u32),
        ))
    } else {
        None
    }
}

/// The direction pawns of `color` advance in, as a rank step.
fn forward(color: Color) -> i32 {
    if color == Color::White { 1 } else { -1 }
}

/// Whether check matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CheckRule {
    /// FIDE: a move may not leave the own king attacked; castling may not
    /// start in, pass through or land on an attacked square.
    Fide,
    /// King capture: check does not exist.
    KingCapture,
}

/// One move of one piece (castling moves the rook too).
#[derive(Clone, Copy, Debug)]
pub struct Mv {
    from: Square,
    to: Square,
    role: Role,
    capture: Option<Role>,
    promotion: Option<Role>,
    en_passant: bool,
    /// For castling: where the rook starts and where it lands.
    castle_rook: Option<(Square, Square)>,
}

impl Mv {
    /// The move in UCI (`e2e4`, `e7e8q`, castling as the king's move `e1g1`).
    pub fn uci(&self) -> String {
        let promotion = self
            .promotion
            .map_or(String::new(), |r| r.char().to_string());
        format!("{}{}{promotion}", self.from, self.to)
    }

    fn is_double_step(&self) -> bool {
        self.role == Role::Pawn && self.from.rank().to_u32().abs_diff(self.to.rank().to_u32()) == 2
    }

    /// The square a double-stepping pawn passed over.
    fn passed_square(&self) -> Square {
        Square::from_coords(
            self.to.file(),
            Rank::new((self.from.rank().to_u32() + self.to.rank().to_u32()) / 2),
        )
    }

    /// Where the pieces this move moved stand afterwards.
    fn landing_squares(&self) -> Bitboard {
        let mut squares = Bitboard::from(self.to);
        if let Some((_, rook_to)) = self.castle_rook {
            squares.add(rook_to);
        }
        squares
    }

    /// Whether `next` moves a piece this move moved straight back to the
    /// square it came from.
    fn is_undone_by(&self, next: &Mv) -> bool {
        let king_back = next.from == self.to && next.to == self.from;
        let rook_back = self
            .castle_rook
            .is_some_and(|(rook_from, rook_to)| next.from == rook_to && next.to == rook_from);
        king_back || rook_back
    }
}

/// The pieces and the castling rights.
#[derive(Clone, Debug)]
struct Pos {
    board: Board,
    /// Rook squares (a1, h1, a8, h8) whose rook and king have not moved.
    castling: Bitboard,
}

impl Pos {
    /// Whether any piece of `by` attacks `target`.
    fn attacked(&self, target: Square, by: Color) -> bool {
        let holds = |sq: Option<Square>, roles: &[Role]| {
            sq.and_then(|s| self.board.piece_at(s))
                .is_some_and(|p| p.color == by && roles.contains(&p.role))
        };
        let ray_hits = |dir: (i32, i32), roles: &[Role]| {
            let mut sq = step(target, dir);
            while let Some(s) = sq {
                if self.board.piece_at(s).is_some() {
                    return holds(Some(s), roles);
                }
                sq = step(s, dir);
            }
            false
        };
        // A pawn of `by` attacks from one rank behind the target, seen from `by`.
        [-1, 1]
            .iter()
            .any(|&df| holds(step(target, (df, -forward(by))), &[Role::Pawn]))
            || KNIGHT
                .iter()
                .any(|&d| holds(step(target, d), &[Role::Knight]))
            || KING.iter().any(|&d| holds(step(target, d), &[Role::King]))
            || ORTHOGONAL
                .iter()
                .any(|&d| ray_hits(d, &[Role::Rook, Role::Queen]))
            || DIAGONAL
                .iter()
                .any(|&d| ray_hits(d, &[Role::Bishop, Role::Queen]))
    }

    /// Whether the king of `color` is attacked (false if it was captured).
    fn in_check(&self, color: Color) -> bool {
        self.board
            .king_of(color)
            .is_some_and(|king| self.attacked(king, !color))
    }

    /// The moves of `us`. `ep_targets` are the squares a pawn may capture en
    /// passant onto (each behind an enemy pawn); `double_steps` allows the
    /// two-square pawn advance; under [`CheckRule::Fide`] only moves that do
    /// not leave the own king attacked are returned.
    fn moves(
        &self,
        us: Color,
        ep_targets: Bitboard,
        double_steps: bool,
        rule: CheckRule,
    ) -> Vec<Mv> {
        let mut moves = Vec::new();
        for from in self.board.by_color(us) {
            let role = self.board.role_at(from).expect("occupied");
            match role {
                Role::Pawn => self.pawn_moves(us, from, ep_targets, double_steps, &mut moves),
                Role::Knight => self.step_moves(us, from, role, &KNIGHT, &mut moves),
                Role::King => {
                    self.step_moves(us, from, role, &KING, &mut moves);
                    self.castling_moves(us, from, rule, &mut moves);
                }
                Role::Bishop => self.ray_moves(us, from, role, &DIAGONAL, &mut moves),
                Role::Rook => self.ray_moves(us, from, role, &ORTHOGONAL, &mut moves),
                Role::Queen => {
                    self.ray_moves(us, from, role, &DIAGONAL, &mut moves);
                    self.ray_moves(us, from, role, &ORTHOGONAL, &mut moves);
                }
            }
        }
        if rule == CheckRule::Fide {
            moves.retain(|m| !self.play(m).in_check(us));
        }
        moves
    }

    /// The move of `role` from `from` to `to`, unless an own piece stands
    /// on `to`.
    fn plain(&self, us: Color, from: Square, to: Square, role: Role) -> Option<Mv> {
        let capture = match self.board.piece_at(to) {
            Some(p) if p.color == us => return None,
            Some(p) => Some(p.role),
            None => None,
        };
        Some(Mv {
            from,
            to,
            role,
            capture,
            promotion: None,
            en_passant: false,
            castle_rook: None,
        })
    }

    fn step_moves(
        &self,
        us: Color,
        from: Square,
        role: Role,
        deltas: &[(i32, i32)],
        moves: &mut Vec<Mv>,
    ) {
        for &d in deltas {
            if let Some(m) = step(from, d).and_then(|to| self.plain(us, from, to, role)) {
                moves.push(m);
            }
        }
    }

    fn ray_moves(
        &self,
        us: Color,
        from: Square,
        role: Role,
        dirs: &[(i32, i32)],
        moves: &mut Vec<Mv>,
    ) {
        for &dir in dirs {
            let mut to = step(from, dir);
            while let Some(sq) = to {
                match self.plain(us, from, sq, role) {
                    None => break,
                    Some(m) => {
                        moves.push(m);
                        if m.capture.is_some() {
                            break;
                        }
                    }
                }
                to = step(sq, dir);
            }
        }
    }

    fn pawn_moves(
        &self,
        us: Color,
        from: Square,
        ep_targets: Bitboard,
        double_steps: bool,
        moves: &mut Vec<Mv>,
    ) {
        let dir = forward(us);
        // Pushes a pawn move, as four promotions when it reaches the last rank.
        let mut push = |m: Mv| {
            if m.to.rank() == Rank::Eighth || m.to.rank() == Rank::First {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(Mv {
                        promotion: Some(promotion),
                        ..m
                    });
                }
            } else {
                moves.push(m);
            }
        };
        let pawn_move = |to: Square, capture: Option<Role>, en_passant: bool| Mv {
            from,
            to,
            role: Role::Pawn,
            capture,
            promotion: None,
            en_passant,
            castle_rook: None,
        };
        if let Some(one) = step(from, (0, dir))
            && self.board.piece_at(one).is_none()
        {
            push(pawn_move(one, None, false));
            let start_rank = if us == Color::White {
                Rank::Second
            } else {
                Rank::Seventh
            };
            if double_steps
                && from.rank() == start_rank
                && let Some(two) = step(one, (0, dir))
                && self.board.piece_at(two).is_none()
            {
                push(pawn_move(two, None, false));
            }
        }
        for df in [-1, 1] {
            let Some(to) = step(from, (df, dir)) else {
                continue;
            };
            match self.board.piece_at(to) {
                Some(p) if p.color != us => push(pawn_move(to, Some(p.role), false)),
                Some(_) => {}
                None if ep_targets.contains(to) => push(pawn_move(to, Some(Role::Pawn), true)),
                None => {}
            }
        }
    }

    fn castling_moves(&self, us: Color, king: Square, rule: CheckRule, moves: &mut Vec<Mv>) {
        let back = if us == Color::White {
            Rank::First
        } else {
            Rank::Eighth
        };
        if king != Square::from_coords(File::E, back) {
            return;
        }
        // (rook file, king destination file, rook destination file, files between)
        let sides: [(File, File, File, &[File]); 2] = [
            (File::H, File::G, File::F, &[File::F, File::G]),
            (File::A, File::C, File::D, &[File::B, File::C, File::D]),
        ];
        for (rook_file, king_file, rook_to_file, between) in sides {
            let rook = Square::from_coords(rook_file, back);
            let at = |file: File| Square::from_coords(file, back);
            if !self.castling.contains(rook)
                || self.board.piece_at(rook)
                    != Some(Piece {
                        color: us,
                        role: Role::Rook,
                    })
                || between
                    .iter()
                    .any(|&f| self.board.piece_at(at(f)).is_some())
            {
                continue;
            }
            // The king's path: start, passed square, destination.
            let path = [File::E, rook_to_file, king_file];
            if rule == CheckRule::Fide && path.iter().any(|&f| self.attacked(at(f), !us)) {
                continue;
            }
            moves.push(Mv {
                from: king,
                to: at(king_file),
                role: Role::King,
                capture: None,
                promotion: None,
                en_passant: false,
                castle_rook: Some((rook, at(rook_to_file))),
            });
        }
    }

    /// The position after `m`.
    fn play(&self, m: &Mv) -> Pos {
        let mut board = self.board.clone();
        let piece = board.remove_piece_at(m.from).expect("a piece to move");
        if m.en_passant {
            board.discard_piece_at(Square::from_coords(m.to.file(), m.from.rank()));
        }
        board.set_piece_at(m.to, m.promotion.map_or(piece, |role| role.of(piece.color)));
        if let Some((rook_from, rook_to)) = m.castle_rook {
            let rook = board.remove_piece_at(rook_from).expect("the castling rook");
            board.set_piece_at(rook_to, rook);
        }
        let mut castling = self.castling;
        castling.discard(m.from);
        castling.discard(m.to);
        if m.role == Role::King {
            let back = if piece.color == Color::White {
                Rank::First
            } else {
                Rank::Eighth
            };
            castling.discard(Square::from_coords(File::A, back));
            castling.discard(Square::from_coords(File::H, back));
        }
        Pos { board, castling }
    }

    /// The en passant targets `us` may capture onto, left by the double
    /// steps among `double_steps` (moves of the opponent's pawns): the passed
    /// square must be empty and the pawn still on its landing square.
    fn ep_targets<'a>(
        &self,
        us: Color,
        double_steps: impl IntoIterator<Item = &'a Mv>,
    ) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        for m in double_steps {
            if m.is_double_step()
                && self.board.piece_at(m.passed_square()).is_none()
                && self.board.piece_at(m.to)
                    == Some(Piece {
                        color: !us,
                        role: Role::Pawn,
                    })
            {
                targets.add(m.passed_square());
            }
        }
        targets
    }
}

/// Where a turn stands at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// An ordinary turn.
    Normal,
    /// A turn of exactly one move: White's first turn where the variant
    /// starts with a single move, or a chess2/twomove response.
    Single,
}

/// A game of one variant at the start of a turn.
#[derive(Clone, Debug)]
pub struct Game {
    variant: &'static str,
    pos: Pos,
    turn: Color,
    phase: Phase,
    /// The opponent's last turn (en passant depends on it).
    last_turn: Vec<Mv>,
    /// The game ended (king captured, or a doublemove-classic draw).
    over: bool,
}

/// The variants whose game starts with a single move by White.
const SINGLE_OPENING: [&str; 6] = [
    "chess2",
    "twomove",
    "balanced-marseillais",
    "doublemove",
    "doublemove-classic",
    "extramove",
];

/// A whole turn and the game after it.
pub type TurnAndAfter = (Vec<Mv>, Game);

impl Reference for Game {
    type Move = Mv;
    const MARKS_EN_PASSANT: bool = false;

    /// A game from a FEN. With White to move on move 1 the turn is White's
    /// first, a single move in the variants that start that way. An en
    /// passant square stands for a double step that was the opponent's
    /// whole last turn.
    fn from_fen(variant: &'static str, fen: &str) -> Game {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let [board, side, castling, ep, _halfmoves, fullmoves] = fields[..] else {
            panic!("a FEN needs six fields: {fen}");
        };
        let board: Board = board.parse().expect("a valid board");
        let turn = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => panic!("bad side to move in {fen}"),
        };
        let mut rights = Bitboard::EMPTY;
        for c in castling.chars() {
            match c {
                'K' => rights.add(Square::H1),
                'Q' => rights.add(Square::A1),
                'k' => rights.add(Square::H8),
                'q' => rights.add(Square::A8),
                '-' => {}
                _ => panic!("bad castling rights in {fen}"),
            }
        }
        let last_turn = if ep == "-" {
            Vec::new()
        } else {
            let target: Square = ep.parse().expect("a valid en passant square");
            let dir = forward(!turn);
            vec![Mv {
                from: step(target, (0, -dir)).expect("on the board"),
                to: step(target, (0, dir)).expect("on the board"),
                role: Role::Pawn,
                capture: None,
                promotion: None,
                en_passant: false,
                castle_rook: None,
            }]
        };
        let first_turn = turn == Color::White && fullmoves == "1";
        let phase = if first_turn && SINGLE_OPENING.contains(&variant) {
            Phase::Single
        } else {
            Phase::Normal
        };
        Game {
            variant,
            pos: Pos {
                board,
                castling: rights,
            },
            turn,
            phase,
            last_turn,
            over: false,
        }
    }

    /// Whether the game ended with the turn that led here.
    fn is_over(&self) -> bool {
        self.over
    }

    /// Every legal whole turn and the game after it.
    fn turns(&self) -> Vec<TurnAndAfter> {
        match self.variant {
            "chess" => self.chess_turns(),
            "chess2" => self.chess2_turns(false),
            "twomove" => self.chess2_turns(true),
            "marseillais" | "balanced-marseillais" => self.marseillais_turns(),
            "doublemove" => self.doublemove_turns(false),
            "doublemove-classic" => self.doublemove_turns(true),
            "extramove" => self.extramove_turns(),
            other => panic!("the reference does not know the variant {other}"),
        }
    }

    fn uci(mv: &Mv) -> String {
        mv.uci()
    }
}

impl Game {
    /// The game after `moves`, with the opponent to move in `phase`.
    fn after(&self, pos: Pos, moves: Vec<Mv>, phase: Phase, over: bool) -> TurnAndAfter {
        let game = Game {
            variant: self.variant,
            pos,
            turn: !self.turn,
            phase,
            last_turn: moves.clone(),
            over,
        };
        (moves, game)
    }

    /// The en passant target left by the very last move, if it was a double
    /// step (the rule "only right after the double step").
    fn last_move_ep_target(&self) -> Bitboard {
        self.pos.ep_targets(self.turn, self.last_turn.last())
    }

    /// The opponent's pawns that double-stepped in their last turn and did
    /// not move again in it (their double-step moves).
    fn fresh_double_steps(&self) -> Vec<Mv> {
        let turn = &self.last_turn;
        turn.iter()
            .enumerate()
            .filter(|&(i, m)| {
                m.is_double_step() && !turn[i + 1..].iter().any(|later| later.from == m.to)
            })
            .map(|(_, m)| *m)
            .collect()
    }

    /// chess: one FIDE move per turn.
    fn chess_turns(&self) -> Vec<TurnAndAfter> {
        let us = self.turn;
        self.pos
            .moves(us, self.last_move_ep_target(), true, CheckRule::Fide)
            .into_iter()
            .map(|m| self.after(self.pos.play(&m), vec![m], Phase::Normal, false))
            .collect()
    }

    /// chess2 and (with `compulsory`) twomove.
    fn chess2_turns(&self, compulsory: bool) -> Vec<TurnAndAfter> {
        let us = self.turn;
        let mut turns = Vec::new();
        for m1 in self
            .pos
            .moves(us, self.last_move_ep_target(), true, CheckRule::Fide)
        {
            let p1 = self.pos.play(&m1);
            if self.phase == Phase::Single {
                // White's opening move or a response: never answered by a response.
                turns.push(self.after(p1, vec![m1], Phase::Normal, false));
                continue;
            }
            let checks = p1.in_check(!us);
            let offers_ep = m1.is_double_step() && {
                let target = Bitboard::from(m1.passed_square());
                p1.moves(!us, target, true, CheckRule::Fide)
                    .iter()
                    .any(|m| m.en_passant)
            };
            let may_be_single =
                checks || m1.capture.is_some() || m1.promotion.is_some() || offers_ep;
            if may_be_single {
                turns.push(self.after(p1.clone(), vec![m1], Phase::Single, false));
            }
            if checks || (compulsory && may_be_single) {
                continue;
            }
            // Second move: no en passant (the double step was not the very
            // last move), and not by a piece the first move moved.
            let moved = m1.landing_squares();
            for m2 in p1.moves(us, Bitboard::EMPTY, true, CheckRule::Fide) {
                if !moved.contains(m2.from) {
                    turns.push(self.after(p1.play(&m2), vec![m1, m2], Phase::Normal, false));
                }
            }
        }
        turns
    }

    /// marseillais and balanced-marseillais (whose opening is a single move).
    fn marseillais_turns(&self) -> Vec<TurnAndAfter> {
        let us = self.turn;
        let fresh = self.fresh_double_steps();
        let mut turns = Vec::new();
        for m1 in self
            .pos
            .moves(us, self.pos.ep_targets(us, &fresh), true, CheckRule::Fide)
        {
            let p1 = self.pos.play(&m1);
            if self.phase == Phase::Single || p1.in_check(!us) {
                turns.push(self.after(p1, vec![m1], Phase::Normal, false));
                continue;
            }
            // A second fresh pawn may be taken en passant only if the first
            // move took the other one en passant.
            let ep2 = if m1.en_passant {
                p1.ep_targets(us, &fresh)
            } else {
                Bitboard::EMPTY
            };
            for m2 in p1.moves(us, ep2, true, CheckRule::Fide) {
                turns.push(self.after(p1.play(&m2), vec![m1, m2], Phase::Normal, false));
            }
        }
        turns
    }

    /// doublemove and (with `classic`) doublemove-classic: king capture.
    fn doublemove_turns(&self, classic: bool) -> Vec<TurnAndAfter> {
        let us = self.turn;
        let ep1 = if classic {
            self.pos.ep_targets(us, &self.fresh_double_steps())
        } else {
            Bitboard::EMPTY
        };
        let mut turns = Vec::new();
        for m1 in self.pos.moves(us, ep1, true, CheckRule::KingCapture) {
            let p1 = self.pos.play(&m1);
            let king_taken = m1.capture == Some(Role::King);
            if self.phase == Phase::Single || king_taken {
                turns.push(self.after(p1, vec![m1], Phase::Normal, king_taken));
                continue;
            }
            let seconds = p1.moves(us, Bitboard::EMPTY, true, CheckRule::KingCapture);
            if seconds.is_empty() {
                turns.push(self.after(p1, vec![m1], Phase::Normal, false));
                continue;
            }
            let allowed: Vec<Mv> = seconds
                .into_iter()
                .filter(|m2| !(classic && m1.capture.is_none() && m1.is_undone_by(m2)))
                .collect();
            if allowed.is_empty() {
                // doublemove-classic: only forbidden second moves: a draw.
                turns.push(self.after(p1, vec![m1], Phase::Normal, true));
                continue;
            }
            for m2 in allowed {
                let over = m2.capture == Some(Role::King);
                turns.push(self.after(p1.play(&m2), vec![m1, m2], Phase::Normal, over));
            }
        }
        turns
    }

    /// extramove: a first move, then an optional quiet second move by another
    /// piece; double steps only on a second move or White's very first move.
    fn extramove_turns(&self) -> Vec<TurnAndAfter> {
        let us = self.turn;
        let opening = self.phase == Phase::Single;
        let mut turns = Vec::new();
        for m1 in self
            .pos
            .moves(us, self.last_move_ep_target(), opening, CheckRule::Fide)
        {
            let p1 = self.pos.play(&m1);
            turns.push(self.after(p1.clone(), vec![m1], Phase::Normal, false));
            if opening {
                continue;
            }
            let moved = m1.landing_squares();
            for m2 in p1.moves(us, Bitboard::EMPTY, true, CheckRule::Fide) {
                if !moved.contains(m2.from) && m2.capture.is_none() {
                    turns.push(self.after(p1.play(&m2), vec![m1, m2], Phase::Normal, false));
                }
            }
        }
        turns
    }
}
