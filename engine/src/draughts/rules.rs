//! The rule sets of 8×8 draughts on the dark squares: the [`Variant`], its
//! [`Rules`] and what each rule set decides.
//!
//! The move generator resolves a variant's rules at compile time: each
//! variant is a zero-sized type behind the crate-private [`VariantRules`]
//! trait, chosen once per call as the side to move is, so that the rules a
//! variant does not use cost nothing in its generator.

use std::fmt;
use std::str::FromStr;

/// A rule set of draughts on the 32 dark squares of an 8×8 board.
///
/// Every variant named here is played by the library; the error
/// [`VariantError::NotImplemented`] of [`Rules::new`] is kept for a
/// variant named before its rules are written.
///
/// ```
/// use damas::spanish::Variant;
/// let v: Variant = "spanish".parse().unwrap();
/// assert_eq!(v, Variant::Spanish);
/// assert_eq!(v.to_string(), "spanish");
/// assert!(Variant::Russian.is_implemented());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Spanish draughts (damas españolas): men capture forward only, the
    /// most pieces then the most kings, promotion ends the capture.
    #[default]
    Spanish,
    /// Portuguese draughts: the Spanish moves with shorter draws: 40 plies
    /// without progress, and three kings that have not beaten a lone king
    /// within 24 plies.
    Portuguese,
    /// Brazilian draughts: the international rules on the 8×8 board.
    Brazilian,
    /// Russian draughts (shashki): men capture backward too, free choice
    /// of capture (but a capture goes on while it can), a man crowned
    /// mid-capture goes on as a king.
    Russian,
}

impl Variant {
    /// Every variant, in the order the docs list them.
    pub const ALL: [Variant; 4] = [
        Variant::Spanish,
        Variant::Portuguese,
        Variant::Brazilian,
        Variant::Russian,
    ];

    /// The variants a game can be made with.
    pub const IMPLEMENTED: [Variant; 4] = [
        Variant::Spanish,
        Variant::Portuguese,
        Variant::Brazilian,
        Variant::Russian,
    ];

    /// The lower-case name (`spanish`), as the option table and the
    /// command line write it.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Spanish => "spanish",
            Variant::Portuguese => "portuguese",
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
        }
    }

    /// Whether a game can be made with this variant yet.
    pub fn is_implemented(self) -> bool {
        Variant::IMPLEMENTED.contains(&self)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules of Brazilian draughts: the international rules on 8×8.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BrazilianRules;

impl VariantRules for BrazilianRules {
    const VARIANT: Variant = Variant::Brazilian;
    const MEN_CAPTURE_BACKWARD: bool = true;
    const CAPTURE_CHOICE: CaptureChoice = CaptureChoice::MostPieces;
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::OnlyAtEnd;
    const KING_RANGE: KingRange = KingRange::Flying;
}

/// The rules of Russian draughts (shashki): men capture both ways, any
/// capture may be chosen but none stopped while it can go on, and a man
/// reaching the last row in a capture goes on as a king.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RussianRules;

impl VariantRules for RussianRules {
    const VARIANT: Variant = Variant::Russian;
    const MEN_CAPTURE_BACKWARD: bool = true;
    const CAPTURE_CHOICE: CaptureChoice = CaptureChoice::Free;
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::ContinuesAsKing;
    const KING_RANGE: KingRange = KingRange::Flying;
}

/// Evaluates `$body` with `$r` bound to the rules type of `$variant`.
/// Portuguese draughts moves as Spanish draughts does (its rules differ in
/// the draws, which the game reads from [`Rules`]), so it is the Spanish
/// rules type.
macro_rules! with_rules {
    ($variant:expr, $r:ident => $body:expr) => {{
        match $variant {
            $crate::draughts::rules::Variant::Brazilian => {
                type $r = $crate::draughts::rules::BrazilianRules;
                $body
            }
            $crate::draughts::rules::Variant::Russian => {
                type $r = $crate::draughts::rules::RussianRules;
                $body
            }
            $crate::draughts::rules::Variant::Spanish
            | $crate::draughts::rules::Variant::Portuguese => {
                type $r = $crate::draughts::rules::SpanishRules;
                $body
            }
        }
    }};
}
pub(crate) use with_rules;

/// A name that is no [`Variant`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown draughts variant '{0}' (spanish, portuguese, brazilian or russian)")]
pub struct VariantParseError(pub String);

impl FromStr for Variant {
    type Err = VariantParseError;

    /// The name of [`Variant::name`], in any case.
    fn from_str(s: &str) -> Result<Variant, VariantParseError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| VariantParseError(s.chars().take(40).collect()))
    }
}

/// Why [`Rules::new`] makes no rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum VariantError {
    /// The variant is named but its games cannot be played yet.
    #[error("{0} draughts is not implemented yet (implemented: spanish, portuguese, brazilian, russian)")]
    NotImplemented(Variant),
}

impl VariantError {
    /// The error as a stable machine name: `not_implemented`.
    pub fn code(&self) -> &'static str {
        match self {
            VariantError::NotImplemented(_) => "not_implemented",
        }
    }
}

/// The options of a draughts game: its [`Variant`]. Made only by
/// [`Rules::new`] (or [`Rules::default`], Spanish draughts), so that every
/// `Rules` names a playable variant.
///
/// ```
/// use damas::spanish::{CaptureChoice, Rules, Variant};
/// let rules = Rules::default();
/// assert_eq!(rules.variant(), Variant::Spanish);
/// assert_eq!(rules.capture_choice(), CaptureChoice::MostPiecesThenKings);
/// let russian = Rules::new(Variant::Russian).unwrap();
/// assert_eq!(russian.capture_choice(), CaptureChoice::Free);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    variant: Variant,
}

impl Rules {
    /// The rules of Spanish draughts (the default).
    pub const SPANISH: Rules = Rules {
        variant: Variant::Spanish,
    };

    /// The rules of the rules type `R` (Spanish for Portuguese draughts,
    /// whose moves are the same: enough for the positions perft counts
    /// from).
    pub(crate) const fn of<R: VariantRules>() -> Rules {
        Rules {
            variant: R::VARIANT,
        }
    }

    /// The rules of `variant`, which every variant has (the check of
    /// [`Rules::new`] is for variants named before they are played).
    pub(crate) const fn of_variant(variant: Variant) -> Rules {
        Rules { variant }
    }

    /// The rules of `variant`.
    ///
    /// # Errors
    ///
    /// [`VariantError::NotImplemented`] for a variant no game can be made
    /// with yet ([`Variant::is_implemented`]).
    pub fn new(variant: Variant) -> Result<Rules, VariantError> {
        if variant.is_implemented() {
            Ok(Rules { variant })
        } else {
            Err(VariantError::NotImplemented(variant))
        }
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether men capture backward as well as forward.
    pub fn men_capture_backward(&self) -> bool {
        with_rules!(self.variant, R => R::MEN_CAPTURE_BACKWARD)
    }

    /// Which of the captures on offer may be chosen.
    pub fn capture_choice(&self) -> CaptureChoice {
        with_rules!(self.variant, R => R::CAPTURE_CHOICE)
    }

    /// What a man reaching the last row in the middle of a capture does.
    pub fn capture_promotion(&self) -> CapturePromotion {
        with_rules!(self.variant, R => R::CAPTURE_PROMOTION)
    }

    /// How far a king moves and captures.
    pub fn king_range(&self) -> KingRange {
        with_rules!(self.variant, R => R::KING_RANGE)
    }

    /// Plies without a capture or a man move after which the game is
    /// drawn: 80 (40 moves by each side) in Spanish and Brazilian
    /// draughts, 40 in Portuguese draughts, 30 in Russian draughts (15
    /// moves by each side in which only kings moved and nothing was
    /// taken).
    pub fn no_progress_plies(&self) -> u32 {
        match self.variant {
            Variant::Portuguese => 40,
            Variant::Russian => 30,
            Variant::Spanish | Variant::Brazilian => 80,
        }
    }

    /// Russian draughts: plies after which a position where both sides
    /// have a king, with `pieces` pieces on the board, is drawn if the
    /// balance of the forces has not changed (no capture, no man crowned):
    /// 10 plies (5 moves by each side) with 2 or 3 pieces, 60 with 4 or 5,
    /// 120 with 6 or 7. `None` for other counts and other variants.
    pub fn unchanged_balance_plies(&self, pieces: u32) -> Option<u32> {
        match (self.variant, pieces) {
            (Variant::Russian, 2 | 3) => Some(10),
            (Variant::Russian, 4 | 5) => Some(60),
            (Variant::Russian, 6 | 7) => Some(120),
            _ => None,
        }
    }

    /// Plies within which three kings must beat a lone king (the side
    /// with three kings and nothing else against one king and nothing
    /// else), counted from the first position of that material; at that
    /// many the game is drawn. Portuguese draughts: 24 (12 moves by each
    /// side); `None` where the ending is left to the no-progress rule
    /// (Russian draughts gives three or more kings 15 moves against a lone
    /// king, which its 30-ply no-progress rule already counts: in that
    /// ending every move is a king's).
    pub fn three_kings_plies(&self) -> Option<u32> {
        match self.variant {
            Variant::Portuguese => Some(24),
            Variant::Spanish | Variant::Brazilian | Variant::Russian => None,
        }
    }
}

/// Which captures the side to move may choose among.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureChoice {
    /// One that takes the most pieces and, among those, the most kings.
    MostPiecesThenKings,
    /// One that takes the most pieces.
    MostPieces,
    /// Any capture.
    Free,
}

/// What a man reaching its last row in the middle of a capture does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CapturePromotion {
    /// It is crowned and the move ends there.
    EndsMove,
    /// It is crowned and goes on capturing as a king.
    ContinuesAsKing,
    /// It goes on capturing as a man when it can, and is crowned only if
    /// the capture ends on the last row.
    OnlyAtEnd,
}

/// How far a king moves and captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KingRange {
    /// Any distance along a free diagonal (a flying king).
    Flying,
}

/// A variant's rules as constants, for the move generator to resolve at
/// compile time. Each implementor is a zero-sized type.
pub(crate) trait VariantRules: Copy + 'static {
    /// The variant these rules are.
    const VARIANT: Variant;
    /// Whether men capture backward.
    const MEN_CAPTURE_BACKWARD: bool;
    /// Which captures may be chosen.
    const CAPTURE_CHOICE: CaptureChoice;
    /// A man crowned in the middle of a capture.
    const CAPTURE_PROMOTION: CapturePromotion;
    /// The king's range.
    const KING_RANGE: KingRange;
    /// Whether a move may end with a man crowned on the way off its last
    /// row: a constant, so that the rules without such moves never read
    /// the move's flag.
    const CROWNS_ON_THE_WAY: bool =
        matches!(Self::CAPTURE_PROMOTION, CapturePromotion::ContinuesAsKing);
}

/// The rules of Spanish draughts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpanishRules;

impl VariantRules for SpanishRules {
    const VARIANT: Variant = Variant::Spanish;
    const MEN_CAPTURE_BACKWARD: bool = false;
    const CAPTURE_CHOICE: CaptureChoice = CaptureChoice::MostPiecesThenKings;
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::EndsMove;
    const KING_RANGE: KingRange = KingRange::Flying;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_reads_back_from_its_name() {
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
            assert_eq!(v.name().to_uppercase().parse::<Variant>(), Ok(v));
        }
        assert_eq!(
            "checkers".parse::<Variant>(),
            Err(VariantParseError("checkers".into()))
        );
    }

    #[test]
    fn only_the_implemented_variants_make_rules() {
        for v in Variant::ALL {
            let made = Rules::new(v);
            if v.is_implemented() {
                assert_eq!(made.map(|r| r.variant()), Ok(v));
            } else {
                assert_eq!(made, Err(VariantError::NotImplemented(v)));
                assert_eq!(made.unwrap_err().code(), "not_implemented");
            }
        }
    }

    #[test]
    fn the_spanish_rules() {
        let r = Rules::default();
        assert_eq!(r.variant(), Variant::Spanish);
        assert!(!r.men_capture_backward());
        assert_eq!(r.capture_promotion(), CapturePromotion::EndsMove);
        assert_eq!(r.king_range(), KingRange::Flying);
        assert_eq!(r.no_progress_plies(), 80);
        assert_eq!(r.three_kings_plies(), None);
    }

    #[test]
    fn the_portuguese_rules_are_the_spanish_moves_with_shorter_draws() {
        let r = Rules::new(Variant::Portuguese).expect("implemented");
        let s = Rules::SPANISH;
        assert!(!r.men_capture_backward());
        assert_eq!(r.capture_choice(), s.capture_choice());
        assert_eq!(r.capture_promotion(), s.capture_promotion());
        assert_eq!(r.king_range(), s.king_range());
        assert_eq!(r.no_progress_plies(), 40);
        assert_eq!(r.three_kings_plies(), Some(24));
    }

    #[test]
    fn the_russian_rules() {
        let r = Rules::new(Variant::Russian).expect("implemented");
        assert!(r.men_capture_backward());
        assert_eq!(r.capture_choice(), CaptureChoice::Free);
        assert_eq!(r.capture_promotion(), CapturePromotion::ContinuesAsKing);
        assert_eq!(r.king_range(), KingRange::Flying);
        assert_eq!(r.no_progress_plies(), 30);
        assert_eq!(r.three_kings_plies(), None);
        let balance: Vec<_> = (1..=8).map(|n| r.unchanged_balance_plies(n)).collect();
        let want = [
            None,
            Some(10),
            Some(10),
            Some(60),
            Some(60),
            Some(120),
            Some(120),
            None,
        ];
        assert_eq!(balance, want);
        let spanish = Rules::new(Variant::Spanish).expect("implemented");
        assert_eq!(spanish.unchanged_balance_plies(3), None);
    }
}
