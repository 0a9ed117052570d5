//! Fixed-width unsigned integers for matching weights.
//!
//! The Dutch engine encodes the criteria of C.04.3 as bit fields of one edge
//! weight, most important first, so a weight needs hundreds of bits for a big
//! event. [`Big`] is `N` little-endian 64-bit limbs with wrapping arithmetic
//! (a "negative" addend added later gives the right sum, as in two's
//! complement). It implements only what the matching and the weight encoding
//! use; the width is chosen per round from the bits the encoding needs.

use std::cmp::Ordering;

/// What the matching needs of a weight.
pub trait Weight: Copy + Ord + Eq + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
    /// A small value.
    fn from_u64(v: u64) -> Self;
    /// Wrapping sum.
    fn add(self, o: Self) -> Self;
    /// Wrapping difference.
    fn sub(self, o: Self) -> Self;
    /// Shift left by `bits` (bits shifted out are lost).
    fn shl(self, bits: u32) -> Self;
    /// Shift right by one bit.
    fn half(self) -> Self;
    /// Adds `v` shifted left by `bit`, in place (wrapping; bits shifted
    /// out are lost).
    fn add_shifted(&mut self, v: u64, bit: u32);
    /// Bitwise or with a small value.
    fn or_u64(self, v: u64) -> Self;
    /// Whether this is zero.
    fn is_zero(&self) -> bool;
    /// Whether the lowest bit is set.
    fn is_odd(&self) -> bool;
    /// The lowest 64 bits.
    fn low(&self) -> u64;
    /// Bits available.
    const BITS: u32;
}

/// `N` 64-bit limbs, least significant first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Big<const N: usize>(pub [u64; N]);

impl<const N: usize> Ord for Big<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Big<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Weight for Big<N> {
    const BITS: u32 = 64 * N as u32;

    fn zero() -> Self {
        Big([0; N])
    }

    fn from_u64(v: u64) -> Self {
        let mut r = [0; N];
        r[0] = v;
        Big(r)
    }

    fn add(self, o: Self) -> Self {
        // carrying_add and borrowing_sub compile to one add-with-carry
        // (subtract-with-borrow) chain; the scan of the matching is made
        // of these sums.
        let mut r = [0; N];
        let mut carry = false;
        for (i, slot) in r.iter_mut().enumerate() {
            (*slot, carry) = self.0[i].carrying_add(o.0[i], carry);
        }
        Big(r)
    }

    fn sub(self, o: Self) -> Self {
        let mut r = [0; N];
        let mut borrow = false;
        for (i, slot) in r.iter_mut().enumerate() {
            (*slot, borrow) = self.0[i].borrowing_sub(o.0[i], borrow);
        }
        Big(r)
    }

    fn shl(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut r = [0; N];
        for i in (limbs..N).rev() {
            let lo = self.0[i - limbs];
            let mut v = lo << rest;
            if rest > 0 && i > limbs {
                v |= self.0[i - limbs - 1] >> (64 - rest);
            }
            r[i] = v;
        }
        Big(r)
    }

    fn add_shifted(&mut self, v: u64, bit: u32) {
        let (limb, rest) = ((bit / 64) as usize, bit % 64);
        let r = &mut self.0;
        if limb >= N {
            return;
        }
        let (sum, carried) = r[limb].overflowing_add(v << rest);
        r[limb] = sum;
        // What is shifted past the limb (below 2^63), plus the carry.
        let mut carry = if rest == 0 { 0 } else { v >> (64 - rest) } + u64::from(carried);
        for slot in r.iter_mut().skip(limb + 1) {
            if carry == 0 {
                break;
            }
            let (sum, carried) = slot.overflowing_add(carry);
            *slot = sum;
            carry = u64::from(carried);
        }
    }

    fn half(self) -> Self {
        let mut r = [0; N];
        for (i, slot) in r.iter_mut().enumerate() {
            let mut v = self.0[i] >> 1;
            if i + 1 < N {
                v |= self.0[i + 1] << 63;
            }
            *slot = v;
        }
        Big(r)
    }

    fn or_u64(self, v: u64) -> Self {
        let mut r = self.0;
        r[0] |= v;
        Big(r)
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn is_odd(&self) -> bool {
        self.0[0] & 1 == 1
    }

    fn low(&self) -> u64 {
        self.0[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_carries_across_limbs() {
        let a = Big::<2>::from_u64(u64::MAX);
        let b = a.add(Big::from_u64(1));
        assert_eq!(b.0, [0, 1]);
        assert_eq!(b.sub(Big::from_u64(1)), a);
        assert_eq!(Big::<2>::from_u64(1).shl(64).0, [0, 1]);
        assert_eq!(Big::<2>::from_u64(3).shl(63).0, [1 << 63, 1]);
        assert_eq!(Big::<2>([0, 1]).half().0, [1 << 63, 0]);
        assert!(Big::<2>([0, 1]) > Big::<2>([u64::MAX, 0]));
        // A negative addend wraps back.
        let neg = Big::<2>::zero().sub(Big::from_u64(5));
        assert_eq!(Big::<2>::from_u64(7).add(neg), Big::from_u64(2));
        // A shifted addend across a limb boundary, and its carry.
        let shifted = |mut x: Big<3>, v: u64, bit: u32| {
            x.add_shifted(v, bit);
            x.0
        };
        assert_eq!(shifted(Big::zero(), 3, 63), [1 << 63, 1, 0]);
        assert_eq!(shifted(Big([u64::MAX, u64::MAX, 0]), 1, 0), [0, 0, 1]);
        assert_eq!(shifted(Big::from_u64(1), 5, 64), [1, 5, 0]);
        assert_eq!(shifted(Big::from_u64(1), 5, 192), [1, 0, 0]);
    }
}
