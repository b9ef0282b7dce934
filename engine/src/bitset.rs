//! The set operators shared by the two games' bit sets
//! ([`spanish::Bitboard`](crate::spanish::Bitboard) and
//! [`chinese::Mask`](crate::chinese::Mask)), written once.

/// `&`, `|`, `^` (and their assigning forms), `-` (set difference) and `!`
/// (the complement within `$all`, so that no bit off the board is ever set)
/// for a newtype `$set` over an unsigned integer.
macro_rules! set_operators {
    ($set:ident, $all:expr) => {
        $crate::bitset::set_operators!(@binary $set, BitAnd, bitand, BitAndAssign, bitand_assign, &);
        $crate::bitset::set_operators!(@binary $set, BitOr, bitor, BitOrAssign, bitor_assign, |);
        $crate::bitset::set_operators!(@binary $set, BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

        impl ::std::ops::Sub for $set {
            type Output = $set;
            /// Set difference.
            #[inline(always)]
            fn sub(self, rhs: $set) -> $set {
                $set(self.0 & !rhs.0)
            }
        }

        impl ::std::ops::Not for $set {
            type Output = $set;
            /// The complement on the board.
            #[inline(always)]
            fn not(self) -> $set {
                $set(!self.0 & $all.0)
            }
        }
    };
    (@binary $set:ident, $tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl ::std::ops::$tr for $set {
            type Output = $set;
            #[inline(always)]
            fn $f(self, rhs: $set) -> $set {
                $set(self.0 $op rhs.0)
            }
        }
        impl ::std::ops::$atr for $set {
            #[inline(always)]
            fn $af(&mut self, rhs: $set) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

pub(crate) use set_operators;
