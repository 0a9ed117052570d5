//! One board position and its move generator.
//!
//! [`Pos`] is the board a variant plays on: pieces, side to move, castling
//! rights, and the en passant targets open to the side to move. Unlike
//! shakmaty's `Chess` it accepts every state the variants reach (the side not to
//! move in check, a missing king after a king capture, several en passant
//! targets at once), and its generator is told which rules apply:
//!
//! * [`CheckRule::Fide`]: a move may not leave the mover's own king attacked,
//!   and castling may not start in, pass through or land in check;
//! * [`CheckRule::KingCapture`]: check does not exist; kings may be captured;
//! * [`CheckRule::Doubletime`]: as FIDE, but a king is also in check when an
//!   enemy doublestep could capture it and the defender could not undo that
//!   capture by en passant (see [`doubletime_check`]).
//!
//! In the doublestep variants a piece that doublestepped may be taken en
//! passant by any piece: [`Doublestep`] records such a doublestep, and the
//! generator then offers the ordinary moves onto the square it passed as
//! captures of it ([`Pos::set_doublestep`]).
//!
//! It implements shakmaty's [`Position`] trait, so shakmaty's SAN, UCI, FEN and
//! perft work on it unchanged. The generator follows the classic design shared
//! with shakmaty (checkers, pinned blockers, evasions), which keeps standard
//! chess close to shakmaty's own speed.

use std::num::NonZeroU32;

use shakmaty::{
    Bitboard, Board, ByColor, ByRole, Castles, CastlingMode, CastlingSide, Color, File, Move,
    MoveList, Outcome, Piece, Position, Rank, RemainingChecks, Role, Setup, Square, attacks,
};

/// Whether moves must respect the mover's own king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckRule {
    /// International chess: the own king may never be left attacked.
    Fide,
    /// Check is ignored; the game is won by capturing the enemy king.
    KingCapture,
    /// Doubletime chess: a king is in check when an enemy move could capture
    /// it, a doublestep capture included, unless the defender could take
    /// that doublestep en passant with a piece other than the king. The own
    /// king may never be left in check.
    Doubletime,
}

/// A doublestep that the opponent may take en passant on the very next
/// move, by an ordinary move of any piece onto the square it passed: two
/// steps of one piece, or a pawn's two-square advance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Doublestep {
    /// Where the first step landed (the square a pawn's advance passed).
    pub passed: Square,
    /// Where the doublestepper stands now.
    pub landed: Square,
    /// The doublestepper's kind now (after a promotion on its last step).
    pub role: Role,
    /// The piece its last step captured (doubletime): taking the
    /// doublestepper en passant puts it back on `landed`.
    pub held: Option<Role>,
    /// Castling rights (by rook square) that the capture of `held` took
    /// from its side; they return with it.
    pub held_castling: Bitboard,
}

impl Doublestep {
    /// Whether `m` takes this doublestepper en passant: a capture onto the
    /// passed square, which stays empty while en passant is open.
    pub fn is_taken_by(&self, m: Move) -> bool {
        matches!(m, Move::Normal { capture: Some(_), to, .. } if to == self.passed)
    }
}

/// Why a FEN or setup cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// A position and the rules its move generator applies.
#[derive(Clone, Debug)]
pub struct Pos {
    board: Board,
    turn: Color,
    castles: Castles,
    /// En passant target squares the side to move may capture onto now; the
    /// captured pawn stands one rank behind each target, from the mover's view.
    ep_targets: Bitboard,
    check_rule: CheckRule,
    /// Whether unmoved pawns may advance two squares on this move.
    double_steps: bool,
    /// The opponent's doublestep that any piece may take en passant now.
    doublestep: Option<Doublestep>,
    /// On the second step of a doublestep: the square of the only piece
    /// that may move.
    stepper: Option<Square>,
    halfmoves: u32,
    fullmoves: NonZeroU32,
}

impl Pos {
    /// The international starting position.
    pub fn new(check_rule: CheckRule) -> Pos {
        Pos::from_setup(&Setup::initial(), check_rule).expect("the start position is valid")
    }

    /// A position from a shakmaty setup (for example a parsed FEN). Each side
    /// needs exactly one king; castling rights must match the rooks and kings.
    pub fn from_setup(setup: &Setup, check_rule: CheckRule) -> Result<Pos, SetupError> {
        Pos::from_setup_in(setup, check_rule, CastlingMode::Standard)
    }

    /// The Chess960 starting position numbered `number` (0 to 959, 518 being
    /// the usual array), or `None` past 959.
    pub fn chess960(number: u32, check_rule: CheckRule) -> Option<Pos> {
        if number >= 960 {
            return None;
        }
        let mut setup = Setup::initial();
        setup.board = Board::chess960(number);
        setup.castling_rights = setup.board.rooks();
        Pos::from_setup_in(&setup, check_rule, CastlingMode::Chess960).ok()
    }

    /// As [`Pos::from_setup`], with castling read and played in `mode`:
    /// in Chess960 any rook on the back rank may hold a castling right.
    pub fn from_setup_in(
        setup: &Setup,
        check_rule: CheckRule,
        mode: CastlingMode,
    ) -> Result<Pos, SetupError> {
        for color in Color::ALL {
            let kings = (setup.board.kings() & setup.board.by_color(color)).count();
            if kings != 1 {
                return Err(SetupError(format!(
                    "{color} must have exactly one king, the position has {kings}"
                )));
            }
        }
        if (setup.board.pawns() & Bitboard::BACKRANKS).any() {
            return Err(SetupError(
                "pawns may not stand on the first or eighth rank".into(),
            ));
        }
        let castles = Castles::from_setup(setup, mode).map_err(|_| {
            SetupError("the castling rights do not match the kings and rooks on the board".into())
        })?;
        let mut ep_targets = Bitboard::EMPTY;
        if let Some(target) = setup.ep_square {
            let pawn_rank = setup.turn.fold_wb(Rank::Fifth, Rank::Fourth);
            let pawn = Square::from_coords(target.file(), pawn_rank);
            if target.rank() != setup.turn.fold_wb(Rank::Sixth, Rank::Third)
                || setup.board.piece_at(pawn) != Some((!setup.turn).pawn())
                || setup.board.occupied().contains(target)
            {
                return Err(SetupError(format!(
                    "the en passant square {target} does not follow a pawn's double step"
                )));
            }
            ep_targets.add(target);
        }
        let pos = Pos {
            board: setup.board.clone(),
            turn: setup.turn,
            castles,
            ep_targets,
            check_rule,
            double_steps: true,
            doublestep: None,
            stepper: None,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        };
        if check_rule == CheckRule::Fide && pos.is_king_attacked(!setup.turn) {
            return Err(SetupError(format!(
                "{} is in check with {} to move: no legal game reaches this position",
                !setup.turn, setup.turn
            )));
        }
        Ok(pos)
    }

    pub fn check_rule(&self) -> CheckRule {
        self.check_rule
    }

    /// The en passant targets open to the side to move.
    pub fn ep_targets(&self) -> Bitboard {
        self.ep_targets
    }

    /// Sets which en passant targets the side to move may use on its next
    /// move. Targets that do not stand behind an enemy pawn are dropped.
    pub fn set_ep_targets(&mut self, targets: Bitboard) {
        self.ep_targets = Bitboard::EMPTY;
        if targets.is_empty() {
            return;
        }
        let behind = self.turn.fold_wb(-8, 8);
        let enemy_pawns = self.board.pawns() & self.board.by_color(!self.turn);
        for target in targets & !self.board.occupied() {
            if target
                .offset(behind)
                .is_some_and(|pawn| enemy_pawns.contains(pawn))
            {
                self.ep_targets.add(target);
            }
        }
    }

    /// Allows or forbids the two-square pawn advance on the next move.
    pub fn set_double_steps(&mut self, allowed: bool) {
        self.double_steps = allowed;
    }

    /// The opponent's doublestep that any piece may take en passant now.
    pub fn doublestep(&self) -> Option<Doublestep> {
        self.doublestep
    }

    /// Opens (or closes) en passant by any piece against a doublestep of
    /// the opponent, for the next move only.
    pub fn set_doublestep(&mut self, doublestep: Option<Doublestep>) {
        self.doublestep = doublestep;
    }

    /// Restricts the next move to the piece on `square` (`None`: any piece
    /// may move), as on the second step of a doublestep.
    pub fn set_stepper(&mut self, square: Option<Square>) {
        self.stepper = square;
    }

    /// Whether `m` is an en passant capture: FIDE's, or of a doublestepper.
    pub fn is_en_passant_capture(&self, m: Move) -> bool {
        m.is_en_passant() || self.doublestep.is_some_and(|d| d.is_taken_by(m))
    }

    /// Hands the move to the other side without moving (used between the
    /// moves of one player's turn, where the same side moves again).
    pub fn set_turn(&mut self, color: Color) {
        self.turn = color;
    }

    /// Sets the FEN counters: whole turns since a capture or pawn move, and
    /// the turn pair number.
    pub fn set_counters(&mut self, halfmoves: u32, fullmoves: NonZeroU32) {
        self.halfmoves = halfmoves;
        self.fullmoves = fullmoves;
    }

    /// Appends the legal moves under this position's check rule to `moves`
    /// (the hot-path form of [`Position::legal_moves`], which avoids
    /// copying a whole move list on return).
    pub fn fill_legal_moves(&self, moves: &mut MoveList) {
        match self.check_rule {
            CheckRule::Fide => self.gen_fide(moves),
            CheckRule::KingCapture => self.gen_king_capture(moves),
            CheckRule::Doubletime => return self.gen_doubletime(moves, None),
        }
        if self.doublestep.is_some() || self.stepper.is_some() {
            self.apply_doublestep_rules(moves);
        }
    }

    /// The legal moves as [`Pos::fill_legal_moves`] gives them, and in
    /// `exposing` the first steps of a doublestep that only its second
    /// step can make legal: moves that could begin a doublestep
    /// ([`Pos::may_begin_doublestep`]), by pieces other than the king, that
    /// leave the own king in check where they stand. A doublestep is one
    /// move, judged by the position it leaves; a king never passes through
    /// check, so its first steps are always legal moves themselves.
    pub fn fill_legal_and_exposing(&self, moves: &mut MoveList, exposing: &mut MoveList) {
        match self.check_rule {
            CheckRule::Doubletime => self.gen_doubletime(moves, Some(exposing)),
            CheckRule::Fide => {
                self.fill_legal_moves(moves);
                self.gen_fide_exposing(exposing);
            }
            CheckRule::KingCapture => self.fill_legal_moves(moves),
        }
    }

    /// Whether `m` may be the first step of a doublestep: a quiet move that
    /// is neither castling, a promotion, nor a pawn's two-square advance
    /// (each of those already is a doublestep, or ends the move).
    pub fn may_begin_doublestep(m: Move) -> bool {
        matches!(
            m,
            Move::Normal {
                capture: None,
                promotion: None,
                ..
            }
        ) && !Pos::is_double_step(m)
    }

    /// FIDE's check rule: the exposing first steps of
    /// [`Pos::fill_legal_and_exposing`]. Only a move out of a pin or a move
    /// in check can expose the king, so most positions have none.
    fn gen_fide_exposing(&self, exposing: &mut MoveList) {
        let Some(king) = self.king(self.turn) else {
            return;
        };
        let in_check = self
            .board
            .attacks_to(king, !self.turn, self.board.occupied())
            .any();
        if !in_check && self.slider_blockers(king).is_empty() {
            return;
        }
        let mut quiet = MoveList::new();
        self.gen_pieces(!self.board.occupied(), &mut quiet);
        exposing.extend(quiet.into_iter().filter(|&m| {
            Pos::may_begin_doublestep(m)
                && self.stepper.is_none_or(|square| m.from() == Some(square))
                && !self.is_legal_by_board(m)
        }));
    }

    /// Adds the legal en passant captures of a doublestepper and keeps only
    /// the stepper's moves on a second step (the doublestep variants under
    /// FIDE or king-capture rules; kept out of line of the hot path).
    #[inline(never)]
    fn apply_doublestep_rules(&self, moves: &mut MoveList) {
        if let Some(doublestep) = self.doublestep {
            let mut captures = MoveList::new();
            self.gen_doublestep_captures(doublestep, &mut captures);
            moves.extend(captures.into_iter().filter(|&m| self.is_legal_by_board(m)));
        }
        if let Some(stepper) = self.stepper {
            moves.retain(|m| m.from() == Some(stepper));
        }
    }

    /// The king of `color`, if it is still on the board.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.board.king_of(color)
    }

    /// Whether the king of `color` is in check under this position's check
    /// rule (never under king capture, nor when the king is off the board).
    pub fn is_checked(&self, color: Color) -> bool {
        match self.check_rule {
            CheckRule::Fide => self.is_king_attacked(color),
            CheckRule::KingCapture => false,
            CheckRule::Doubletime => doubletime_check(&self.board, color),
        }
    }

    /// Whether a pawn of the side to move can move at all by the way pawns
    /// move (one step forward, or a capture, en passant included); check is
    /// not considered.
    pub fn has_pawn_move(&self) -> bool {
        let pawns = self.our(Role::Pawn);
        let forward = self.turn.fold_wb(8, -8);
        if (pawns.shift(forward) & !self.board.occupied()).any() {
            return true;
        }
        let targets = self.them() | self.ep_targets;
        pawns
            .into_iter()
            .any(|pawn| (attacks::pawn_attacks(self.turn, pawn) & targets).any())
    }

    /// The enemy pieces that attack the king of `color` by ordinary moves.
    pub fn checkers_of(&self, color: Color) -> Bitboard {
        self.king(color).map_or(Bitboard::EMPTY, |king| {
            self.board.attacks_to(king, !color, self.board.occupied())
        })
    }

    /// Whether the king of `color` is attacked by the other side.
    pub fn is_king_attacked(&self, color: Color) -> bool {
        self.king(color).is_some_and(|king| {
            self.board
                .attacks_to(king, !color, self.board.occupied())
                .any()
        })
    }

    /// Every move of the side to move that a piece could make by its way of
    /// moving, ignoring check and every variant restriction (castling needs
    /// only the rights and an empty path; en passant needs an open target).
    /// Used to explain why a written move is not allowed.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.gen_en_passant(&mut moves);
        if let Some(doublestep) = self.doublestep {
            self.gen_doublestep_captures(doublestep, &mut moves);
        }
        let target = !self.us();
        self.gen_pieces(target, &mut moves);
        if let Some(king) = self.king(self.turn) {
            for to in attacks::king_attacks(king) & target {
                moves.push(normal(Role::King, king, self.board.role_at(to), to));
            }
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                self.gen_castling(king, side, false, &mut moves);
            }
        }
        moves
    }

    /// Whether `m` is a pawn's two-square advance.
    pub fn is_double_step(m: Move) -> bool {
        matches!(m, Move::Normal { role: Role::Pawn, from, to, .. }
            if from.rank().distance(to.rank()) == 2)
    }

    /// The square a double-stepping pawn passed over.
    pub fn passed_square(m: Move) -> Option<Square> {
        match m {
            Move::Normal { from, to, .. } if Pos::is_double_step(m) => Some(Square::from_coords(
                from.file(),
                Rank::new((u32::from(from.rank()) + u32::from(to.rank())) / 2),
            )),
            _ => None,
        }
    }

    /// Squares that hold, after `m`, the pieces that `m` moved (both king and
    /// rook for castling).
    pub fn landing_squares(&self, m: Move) -> Bitboard {
        match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                Bitboard::from(side.king_to(self.turn)) | Bitboard::from(side.rook_to(self.turn))
            }
            _ => Bitboard::from(m.to()),
        }
    }

    /// Squares that hold, before `m`, the pieces that `m` moves.
    pub fn origin_squares(m: Move) -> Bitboard {
        match m {
            Move::Castle { king, rook } => Bitboard::from(king) | Bitboard::from(rook),
            _ => m.from().map_or(Bitboard::EMPTY, Bitboard::from),
        }
    }

    fn gen_en_passant(&self, moves: &mut MoveList) -> bool {
        let mut found = false;
        let our_pawns = self.our(Role::Pawn);
        for to in self.ep_targets {
            for from in our_pawns & attacks::pawn_attacks(!self.turn, to) {
                moves.push(Move::EnPassant { from, to });
                found = true;
            }
        }
        found
    }

    /// Pawn, knight, bishop, rook and queen moves onto `target`.
    fn gen_pieces(&self, target: Bitboard, moves: &mut MoveList) {
        self.gen_pawns(target, moves);
        let occupied = self.board.occupied();
        for from in self.our(Role::Knight) {
            self.push_all(
                Role::Knight,
                from,
                attacks::knight_attacks(from) & target,
                moves,
            );
        }
        for from in self.our(Role::Bishop) {
            self.push_all(
                Role::Bishop,
                from,
                attacks::bishop_attacks(from, occupied) & target,
                moves,
            );
        }
        for from in self.our(Role::Rook) {
            self.push_all(
                Role::Rook,
                from,
                attacks::rook_attacks(from, occupied) & target,
                moves,
            );
        }
        for from in self.our(Role::Queen) {
            self.push_all(
                Role::Queen,
                from,
                attacks::queen_attacks(from, occupied) & target,
                moves,
            );
        }
    }

    #[inline]
    fn push_all(&self, role: Role, from: Square, to: Bitboard, moves: &mut MoveList) {
        for to in to {
            moves.push(normal(role, from, self.board.role_at(to), to));
        }
    }

    fn gen_pawns(&self, target: Bitboard, moves: &mut MoveList) {
        let pawns = self.our(Role::Pawn);
        if pawns.is_empty() {
            return;
        }
        let them = self.them();
        let forward = self.turn.fold_wb(8, -8);
        // Captures towards the a-file and towards the h-file, whole board at once.
        let towards_a = (pawns & !Bitboard::from_file(File::A), forward - 1);
        let towards_h = (pawns & !Bitboard::from_file(File::H), forward + 1);
        for (capturers, delta) in [towards_a, towards_h] {
            for to in capturers.shift(delta) & them & target {
                let from = to.offset(-delta).expect("pawn came from the board");
                self.push_pawn(from, to, self.board.role_at(to), moves);
            }
        }
        let occupied = self.board.occupied();
        let single = pawns.shift(forward) & !occupied;
        for to in single & target {
            let from = to.offset(-forward).expect("pawn came from the board");
            self.push_pawn(from, to, None, moves);
        }
        if self.double_steps {
            let start_rank = self.turn.fold_wb(
                Bitboard::from_rank(Rank::Third),
                Bitboard::from_rank(Rank::Sixth),
            );
            let double = (single & start_rank).shift(forward) & !occupied;
            for to in double & target {
                let from = to.offset(-2 * forward).expect("pawn came from the board");
                moves.push(normal(Role::Pawn, from, None, to));
            }
        }
    }

    // Always inlined: it is the inner loop of pawn move generation.
    #[inline(always)]
    fn push_pawn(&self, from: Square, to: Square, capture: Option<Role>, moves: &mut MoveList) {
        if Bitboard::BACKRANKS.contains(to) {
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(promotion),
                });
            }
        } else {
            moves.push(normal(Role::Pawn, from, capture, to));
        }
    }

    fn gen_castling(
        &self,
        king: Square,
        side: CastlingSide,
        respect_check: bool,
        moves: &mut MoveList,
    ) {
        let Some(rook) = self.castles.rook(self.turn, side) else {
            return;
        };
        if (self.castles.path(self.turn, side) & self.board.occupied()).any() {
            return;
        }
        if respect_check {
            let them = !self.turn;
            let king_to = side.king_to(self.turn);
            let after = self.board.occupied() ^ king ^ rook ^ side.rook_to(self.turn);
            if self.board.attacks_to(king_to, them, after).any() {
                return;
            }
            let occupied = self.board.occupied() ^ king;
            for sq in attacks::between(king, king_to).with(king) {
                if self.board.attacks_to(sq, them, occupied).any() {
                    return;
                }
            }
        }
        moves.push(Move::Castle { king, rook });
    }

    fn gen_fide(&self, moves: &mut MoveList) {
        let Some(king) = self.king(self.turn) else {
            // Without a king nothing can be left in check.
            return self.gen_king_capture(moves);
        };
        let has_ep = self.gen_en_passant(moves);
        let checkers = self
            .board
            .attacks_to(king, !self.turn, self.board.occupied());
        if checkers.is_empty() {
            let target = !self.us();
            self.gen_pieces(target, moves);
            self.gen_safe_king(king, target, moves);
            self.gen_castling(king, CastlingSide::KingSide, true, moves);
            self.gen_castling(king, CastlingSide::QueenSide, true, moves);
        } else {
            let mut attacked = Bitboard::EMPTY;
            for checker in checkers & self.board.sliders() {
                attacked |= attacks::ray(checker, king) ^ checker;
            }
            self.gen_safe_king(king, !self.us() & !attacked, moves);
            if let Some(checker) = checkers.single_square() {
                self.gen_pieces(attacks::between(king, checker).with(checker), moves);
            }
        }
        let blockers = self.slider_blockers(king);
        if blockers.any() || has_ep {
            moves.retain(|m| self.is_safe(king, *m, blockers));
        }
    }

    fn gen_safe_king(&self, king: Square, target: Bitboard, moves: &mut MoveList) {
        let occupied = self.board.occupied();
        for to in attacks::king_attacks(king) & target {
            if self.board.attacks_to(to, !self.turn, occupied).is_empty() {
                moves.push(normal(Role::King, king, self.board.role_at(to), to));
            }
        }
    }

    fn gen_king_capture(&self, moves: &mut MoveList) {
        self.gen_en_passant(moves);
        let target = !self.us();
        self.gen_pieces(target, moves);
        if let Some(king) = self.king(self.turn) {
            for to in attacks::king_attacks(king) & target {
                moves.push(normal(Role::King, king, self.board.role_at(to), to));
            }
            self.gen_castling(king, CastlingSide::KingSide, false, moves);
            self.gen_castling(king, CastlingSide::QueenSide, false, moves);
        }
    }

    /// The captures of a doublestepper en passant: every ordinary move of
    /// the side to move onto the square it passed (legality not checked).
    /// The paths are those of the board "as though the second step had not
    /// been taken": the doublestepper's square is empty again, or holds the
    /// piece it took (doubletime), which is back on its square then.
    fn gen_doublestep_captures(&self, doublestep: Doublestep, moves: &mut MoveList) {
        let passed = doublestep.passed;
        let occupied = self.board.occupied();
        if occupied.contains(passed) {
            return;
        }
        let before_second_step = if doublestep.held.is_some() {
            occupied
        } else {
            occupied.without(doublestep.landed)
        };
        let capture = Some(doublestep.role);
        for from in self.board.attacks_to(passed, self.turn, before_second_step) {
            let Some(role) = self.board.role_at(from) else {
                continue;
            };
            if role == Role::Pawn && Bitboard::BACKRANKS.contains(passed) {
                self.push_pawn(from, passed, capture, moves);
            } else {
                moves.push(normal(role, from, capture, passed));
            }
        }
    }

    /// Doubletime: every move that leaves the own king out of check, by
    /// making it on a copy of the board. A side whose king is held hostage
    /// (taken by a doublestep) may only free it by en passant. With
    /// `exposing`, the moves left out that could begin a doublestep and are
    /// not the king's go there (see [`Pos::fill_legal_and_exposing`]).
    fn gen_doubletime(&self, moves: &mut MoveList, mut exposing: Option<&mut MoveList>) {
        let mut candidates = MoveList::new();
        if let Some(doublestep) = self.doublestep {
            self.gen_doublestep_captures(doublestep, &mut candidates);
        }
        if let Some(king) = self.king(self.turn) {
            let target = !self.us();
            self.gen_pieces(target, &mut candidates);
            for to in attacks::king_attacks(king) & target {
                candidates.push(normal(Role::King, king, self.board.role_at(to), to));
            }
            self.gen_castling(king, CastlingSide::KingSide, false, &mut candidates);
            self.gen_castling(king, CastlingSide::QueenSide, false, &mut candidates);
        }
        let stepper = self.stepper;
        for m in candidates {
            if stepper.is_some_and(|square| m.from() != Some(square)) {
                continue;
            }
            if self.is_legal_by_board(m) {
                moves.push(m);
            } else if let Some(exposing) = exposing.as_deref_mut()
                && m.role() != Role::King
                && Pos::may_begin_doublestep(m)
            {
                exposing.push(m);
            }
        }
    }

    /// Whether `m` (a move the pieces can make) leaves the mover's king out
    /// of check under the check rule, tested on a copy of the board. Castling
    /// also may not start in check nor pass through check.
    fn is_legal_by_board(&self, m: Move) -> bool {
        let us = self.turn;
        let in_check = |board: &Board| match self.check_rule {
            CheckRule::KingCapture => false,
            CheckRule::Fide => board
                .king_of(us)
                .is_some_and(|king| board.attacks_to(king, !us, board.occupied()).any()),
            CheckRule::Doubletime => doubletime_check(board, us),
        };
        if let Move::Castle { king, rook } = m {
            let side = CastlingSide::from_queen_side(rook < king);
            let mut passing = self.board.clone();
            passing.discard_piece_at(king);
            for square in attacks::between(king, side.king_to(us)) {
                passing.set_piece_at(square, us.king());
                if in_check(&passing) {
                    return false;
                }
                passing.discard_piece_at(square);
            }
            if in_check(&self.board) {
                return false;
            }
        }
        let mut after = self.board.clone();
        if let Some(taken) = self.doublestep.filter(|d| d.is_taken_by(m)) {
            take_doublestepper(&mut after, taken, us);
        }
        move_pieces(&mut after, us, m);
        !in_check(&after)
    }

    /// Own pieces that alone stand between the king and an enemy slider.
    fn slider_blockers(&self, king: Square) -> Bitboard {
        let board = &self.board;
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers & self.them() {
            let between = attacks::between(king, sniper) & board.occupied();
            if !between.more_than_one() {
                blockers.add(between);
            }
        }
        blockers
    }

    fn is_safe(&self, king: Square, m: Move, blockers: Bitboard) -> bool {
        match m {
            Move::Normal { from, to, .. } => {
                !blockers.contains(from) || attacks::aligned(from, to, king)
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                let occupied = self
                    .board
                    .occupied()
                    .toggled(from)
                    .toggled(captured)
                    .with(to);
                self.board
                    .attacks_to(king, !self.turn, occupied)
                    .without(captured)
                    .is_empty()
            }
            _ => true,
        }
    }
}

#[inline]
fn normal(role: Role, from: Square, capture: Option<Role>, to: Square) -> Move {
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    }
}

impl Position for Pos {
    fn board(&self) -> &Board {
        &self.board
    }

    fn promoted(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    fn pockets(&self) -> Option<&ByColor<ByRole<u8>>> {
        None
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn castles(&self) -> &Castles {
        &self.castles
    }

    fn maybe_ep_square(&self) -> Option<Square> {
        self.ep_targets.first()
    }

    fn remaining_checks(&self) -> Option<&ByColor<RemainingChecks>> {
        None
    }

    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    fn fullmoves(&self) -> NonZeroU32 {
        self.fullmoves
    }

    fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.fill_legal_moves(&mut moves);
        moves
    }

    fn is_variant_end(&self) -> bool {
        false
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        match self.check_rule {
            // Any piece can be captured by a king walking into it, so even a
            // bare king keeps a (help-)win possible.
            CheckRule::KingCapture => false,
            CheckRule::Fide => fide_insufficient_material(&self.board, color),
            // A lone king can never give check: the enemy king threatens it
            // back through the same passed square.
            CheckRule::Doubletime => (self.board.by_color(color) & !self.board.kings()).is_empty(),
        }
    }

    fn variant_outcome(&self) -> Outcome {
        Outcome::Unknown
    }

    /// Plays a move. After a double step the passed square becomes the
    /// opponent's en passant target, as in international chess; variants
    /// with other en passant rules reset it with [`Pos::set_ep_targets`].
    /// An open [`Doublestep`] closes, and a capture onto its passed square
    /// takes the doublestepper and frees the piece it held.
    fn play_unchecked(&mut self, m: Move) {
        let color = self.turn;
        // First the doublestepper taken en passant, so that the capturing
        // move's own loss of castling rights comes after the freed piece's
        // rights are given back.
        if let Some(taken) = self.doublestep.take().filter(|d| d.is_taken_by(m)) {
            self.take_doublestepper(taken, color);
        }
        self.ep_targets = Bitboard::EMPTY;
        self.halfmoves = if m.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                ..
            } => {
                if let Some(passed) = Pos::passed_square(m) {
                    self.ep_targets.add(passed);
                }
                if role == Role::King {
                    self.castles.discard_color(color);
                } else if role == Role::Rook {
                    self.castles.discard_rook(from);
                }
                if capture == Some(Role::Rook) {
                    self.castles.discard_rook(to);
                }
                if capture == Some(Role::King) {
                    self.castles.discard_color(!color);
                }
            }
            Move::Castle { .. } => self.castles.discard_color(color),
            Move::EnPassant { .. } | Move::Put { .. } => {}
        }
        move_pieces(&mut self.board, color, m);
        if color.is_black() {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !color;
    }
}

impl Pos {
    /// The en passant capture of a doublestepper by `color`, apart from the
    /// capturing piece's own move: the doublestepper leaves the board, the
    /// piece it held returns with the castling rights its capture took.
    #[inline(never)]
    fn take_doublestepper(&mut self, taken: Doublestep, color: Color) {
        take_doublestepper(&mut self.board, taken, color);
        if taken.held_castling.any() {
            let mut setup = Setup::empty();
            setup.board = self.board.clone();
            setup.castling_rights = self.castles.castling_rights() | taken.held_castling;
            self.castles =
                Castles::from_setup(&setup, self.castles.mode()).unwrap_or_else(|partial| partial);
        }
    }
}

/// Removes a doublestepper taken en passant by `color` from where it stands
/// and puts back the piece of `color` it held.
fn take_doublestepper(board: &mut Board, taken: Doublestep, color: Color) {
    board.discard_piece_at(taken.landed);
    if let Some(held) = taken.held {
        board.set_piece_at(taken.landed, held.of(color));
    }
}

/// Moves the pieces of `color` on `board` as `m` says.
// Always inlined: `play_unchecked` is on the hot path of every perft.
#[inline(always)]
fn move_pieces(board: &mut Board, color: Color, m: Move) {
    match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            board.discard_piece_at(from);
            board.set_piece_at(to, promotion.unwrap_or(role).of(color));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            board.discard_piece_at(king);
            board.discard_piece_at(rook);
            board.set_piece_at(side.rook_to(color), color.rook());
            board.set_piece_at(side.king_to(color), color.king());
        }
        Move::EnPassant { from, to } => {
            board.discard_piece_at(Square::from_coords(to.file(), from.rank()));
            board.discard_piece_at(from);
            board.set_piece_at(to, color.pawn());
        }
        Move::Put { role, to } => board.set_piece_at(to, Piece { color, role }),
    }
}

/// Doubletime's check: whether an enemy move could capture the king of
/// `color`, either an ordinary capture or the last step of a doublestep
/// (first step quiet, pinned pieces and kings included), except a
/// doublestep whose passed square a piece of `color` other than its king
/// attacks once the doublestep is made: that capture can be undone by en
/// passant. False when the king is off the board.
pub fn doubletime_check(board: &Board, color: Color) -> bool {
    let Some(king) = board.king_of(color) else {
        return false;
    };
    let occupied = board.occupied();
    let enemy = !color;
    if board.attacks_to(king, enemy, occupied).any() {
        return true;
    }
    let empty = !occupied;
    let defenders = board.by_color(color) & !board.kings();
    // After the doublestep from `from` via `passed`, can a defender take on `passed`?
    let unanswered = |from: Square, passed: Square| {
        (board.attacks_to(passed, color, occupied ^ from) & defenders).is_empty()
    };
    let theirs = board.by_color(enemy);
    for from in theirs {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let vacated = occupied ^ from;
        let passed = match role {
            Role::Pawn => {
                let push = from.offset(enemy.fold_wb(8, -8));
                match push {
                    Some(push)
                        if empty.contains(push)
                            && !Bitboard::BACKRANKS.contains(push)
                            && attacks::pawn_attacks(color, king).contains(push) =>
                    {
                        Bitboard::from(push)
                    }
                    _ => Bitboard::EMPTY,
                }
            }
            Role::Knight => attacks::knight_attacks(from) & attacks::knight_attacks(king),
            Role::Bishop => {
                attacks::bishop_attacks(from, occupied) & attacks::bishop_attacks(king, vacated)
            }
            Role::Rook => {
                attacks::rook_attacks(from, occupied) & attacks::rook_attacks(king, vacated)
            }
            Role::Queen => {
                attacks::queen_attacks(from, occupied) & attacks::queen_attacks(king, vacated)
            }
            Role::King => attacks::king_attacks(from) & attacks::king_attacks(king),
        };
        if (passed & empty).into_iter().any(|p| unanswered(from, p)) {
            return true;
        }
    }
    false
}

/// International chess: `color` cannot mate by any series of legal moves.
fn fide_insufficient_material(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    if (ours & (board.pawns() | board.rooks_and_queens())).any() {
        return false;
    }
    let theirs = board.by_color(!color);
    if (ours & board.knights()).any() {
        // A lone knight mates only with help from enemy pieces that can block.
        return ours.count() <= 2 && (theirs & !board.kings() & !board.queens()).is_empty();
    }
    if (ours & board.bishops()).any() {
        // Bishops on one square colour mate only if the enemy has a blocker
        // that is not a bishop on that same colour.
        let same_colour = !(board.bishops() & Bitboard::DARK_SQUARES).any()
            || !(board.bishops() & Bitboard::LIGHT_SQUARES).any();
        return same_colour && board.pawns().is_empty() && board.knights().is_empty();
    }
    true
}

impl Pos {
    /// Counts leaves of the move tree (plies), for checking the generator.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut child = self.clone();
                child.play_unchecked(*m);
                child.perft(depth - 1)
            })
            .sum()
    }
}
