//! A zlib stream (RFC 1950, 1951) put together from pieces coded ahead:
//! how a board picture's image data is made from its tiles.
//!
//! A board picture is the frame with a few tiles laid on; so its rows are
//! pieces of rows seen before (a tile's row, a stretch of the frame). Each
//! piece is coded once per process ([`Coded::new`]): its bytes in
//! deflate's fixed Huffman codes (a palette index in 8 or 9 bits), as
//! copies of the bytes above it (one row back) where they equal them and
//! of the byte before where it repeats, else as literals. A picture is
//! then its pieces' codes laid end to end ([`Stream`]), a piece equal to
//! what is above it joined with its neighbours into long copies, and the
//! Adler-32 of its bytes, made of the pieces' shares of it (so that the
//! picture's pixels are never drawn). Against the png crate's fastest
//! setting (fdeflate on rows filtered by the row above, which codes most
//! palette indices in 12 bits and copies only runs of zeros), a
//! middlegame picture is about a seventh smaller (17.8 KB against 20.9 KB)
//! and made in less than half the time (`cargo bench --bench pictures`).
//! Any zlib decoder reads it.

/// The longest copy deflate can say.
const MAX_COPY: usize = 258;
/// The shortest copy deflate can say.
const MIN_COPY: usize = 3;
/// The farthest back deflate can copy from.
pub const WINDOW: usize = 32 * 1024;

/// Bits as deflate packs them, least significant first, in 32-bit words.
#[derive(Clone, Debug, Default)]
struct Bits {
    words: Vec<u32>,
    buffer: u64,
    count: u32,
}

impl Bits {
    /// Appends the low `count` bits of `bits` (at most 32).
    #[inline]
    fn push(&mut self, bits: u32, count: u32) {
        self.buffer |= u64::from(bits) << self.count;
        self.count += count;
        if self.count >= 32 {
            self.words.push(self.buffer as u32);
            self.buffer >>= 32;
            self.count -= 32;
        }
    }

    /// Appends what `other` holds.
    fn append(&mut self, other: &Bits) {
        // Each whole word shifted past the bits held (fewer than 32).
        self.words.reserve(other.words.len() + 1);
        for &word in &other.words {
            let joined = self.buffer | u64::from(word) << self.count;
            self.words.push(joined as u32);
            self.buffer = joined >> 32;
        }
        if other.count > 0 {
            self.push(other.buffer as u32, other.count);
        }
    }

    fn bits(&self) -> usize {
        self.words.len() * 32 + self.count as usize
    }
}

/// A piece of a picture's bytes, coded: see the module's comment.
#[derive(Clone, Debug)]
pub struct Coded {
    bits: Bits,
    /// How many bytes the piece has.
    length: usize,
    /// Whether the piece equals the bytes above it: such pieces are not
    /// written apart but joined into copies.
    above_alike: bool,
    /// The piece's share of the stream's Adler-32: the sum of its bytes,
    /// and of each byte times its distance from the piece's end, counting
    /// the last as 1 (both modulo [`ADLER`]).
    sum: u64,
    weighted: u64,
}

/// Adler-32's modulus.
const ADLER: u64 = 65521;

impl Coded {
    /// Codes `bytes`, preceded one row (`stride` bytes) before by `above`
    /// when that is known alike in every picture (`None`: no copy from
    /// above).
    ///
    /// # Panics
    /// If `above` is not as long as `bytes`, `bytes` are a megabyte or
    /// more, or `stride` is farther back than deflate copies from.
    pub fn new(bytes: &[u8], above: Option<&[u8]>, stride: usize) -> Coded {
        if let Some(above) = above {
            assert_eq!(above.len(), bytes.len(), "the bytes above are a row");
        }
        assert!(bytes.len() < 1 << 20, "a piece of {} bytes", bytes.len());
        let above_code = distance_code(stride);
        let mut bits = Bits::default();
        let mut at = 0;
        while at < bytes.len() {
            let longest = MAX_COPY.min(bytes.len() - at);
            let from_above = above.map_or(0, |above| {
                alike(&bytes[at..at + longest], &above[at..at + longest])
            });
            let from_left = if at >= 1 {
                alike(&bytes[at..at + longest], &bytes[at - 1..at - 1 + longest])
            } else {
                0
            };
            if from_above.max(from_left) >= MIN_COPY {
                let (length, distance) = if from_above >= from_left {
                    (from_above, above_code)
                } else {
                    (from_left, distance_code(1))
                };
                let (code, count) = LENGTHS[length];
                bits.push(code, count);
                bits.push(distance.0, distance.1);
                at += length;
            } else {
                let (code, count) = fixed_code(u32::from(bytes[at]));
                bits.push(code, count);
                at += 1;
            }
        }
        let (mut sum, mut weighted) = (0, 0);
        for (index, &byte) in bytes.iter().enumerate() {
            sum = (sum + u64::from(byte)) % ADLER;
            weighted = (weighted + (bytes.len() - index) as u64 * u64::from(byte)) % ADLER;
        }
        Coded {
            bits,
            length: bytes.len(),
            sum,
            weighted,
            // A piece shorter than a copy is never left over to copy alone.
            above_alike: bytes.len() >= MIN_COPY && above == Some(bytes),
        }
    }
}

/// How many bytes `a` and `b` have alike from their start.
fn alike(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// A zlib stream being put together from coded pieces, each piece
/// `stride` bytes after the one above it.
pub struct Stream {
    bits: Bits,
    /// Bytes alike to those above, not yet written as copies.
    pending: usize,
    above_code: (u32, u32),
    /// The Adler-32 of the bytes so far, its two halves.
    adler: (u64, u64),
}

impl Stream {
    /// # Panics
    /// If `stride` is farther back than deflate copies from.
    pub fn new(stride: usize) -> Stream {
        let mut bits = Bits {
            // A board picture's data: 8 KB for a bare board, about 18 KB
            // in a middlegame.
            words: Vec::with_capacity(24 * 1024 / 4),
            ..Bits::default()
        };
        // The final block, fixed Huffman codes.
        bits.push(0b011, 3);
        Stream {
            bits,
            pending: 0,
            above_code: distance_code(stride),
            adler: (1, 0),
        }
    }

    /// Appends a coded piece.
    pub fn push(&mut self, coded: &Coded) {
        // Each byte adds itself to the sum, and the sum to the second half;
        // both are reduced only once large (a division less per piece: a
        // piece is shorter than 2^20 bytes, so nothing overflows).
        let (sum, second) = self.adler;
        self.adler = (
            sum + coded.sum,
            second + coded.length as u64 * sum + coded.weighted,
        );
        if self.adler.0 >= 1 << 40 || self.adler.1 >= 1 << 60 {
            self.adler = (self.adler.0 % ADLER, self.adler.1 % ADLER);
        }
        if coded.above_alike {
            self.pending += coded.length;
        } else {
            self.copy_pending();
            self.bits.append(&coded.bits);
        }
    }

    /// Writes the pending bytes alike to those above as copies (none
    /// shorter than deflate's shortest).
    fn copy_pending(&mut self) {
        while self.pending > 0 {
            let mut length = self.pending.min(MAX_COPY);
            let rest = self.pending - length;
            if rest > 0 && rest < MIN_COPY {
                length -= MIN_COPY - rest;
            }
            let (code, count) = LENGTHS[length];
            self.bits.push(code, count);
            self.bits.push(self.above_code.0, self.above_code.1);
            self.pending -= length;
        }
    }

    /// The zlib stream.
    pub fn finish(mut self) -> Vec<u8> {
        self.copy_pending();
        let (code, count) = fixed_code(256);
        self.bits.push(code, count);
        let mut out = Vec::with_capacity(self.bits.bits() / 8 + 10);
        // zlib header: deflate, 32 KB window, no dictionary, fastest
        // level; its 16 bits a multiple of 31.
        out.extend_from_slice(&[0x78, 0x01]);
        for word in &self.bits.words {
            out.extend_from_slice(&word.to_le_bytes());
        }
        let last = self.bits.count.div_ceil(8) as usize;
        out.extend_from_slice(&self.bits.buffer.to_le_bytes()[..last]);
        let (sum, second) = (self.adler.0 % ADLER, self.adler.1 % ADLER);
        out.extend_from_slice(&((second << 16 | sum) as u32).to_be_bytes());
        out
    }
}

/// A Huffman code as deflate writes it: its bits reversed (a code is sent
/// from its most significant bit).
const fn reversed(code: u32, length: u32) -> u32 {
    code.reverse_bits() >> (32 - length)
}

/// Literal or length symbol `symbol` (0 to 285) in the fixed codes: the
/// code as written, and its length.
const fn fixed_code(symbol: u32) -> (u32, u32) {
    let (code, length) = match symbol {
        0..=143 => (0x30 + symbol, 8),
        144..=255 => (0x190 + (symbol - 144), 9),
        256..=279 => (symbol - 256, 7),
        _ => (0xc0 + (symbol - 280), 8),
    };
    (reversed(code, length), length)
}

/// The shortest length of each length symbol (257 on) and its extra bits.
const LENGTH_BASES: [(u32, u32); 29] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (9, 0),
    (10, 0),
    (11, 1),
    (13, 1),
    (15, 1),
    (17, 1),
    (19, 2),
    (23, 2),
    (27, 2),
    (31, 2),
    (35, 3),
    (43, 3),
    (51, 3),
    (59, 3),
    (67, 4),
    (83, 4),
    (99, 4),
    (115, 4),
    (131, 5),
    (163, 5),
    (195, 5),
    (227, 5),
    (258, 0),
];

/// Each copy length's symbol with its extra bits, as written, and how many
/// bits that is (worked out at compile time; lengths under 3 unused).
const LENGTHS: [(u32, u32); MAX_COPY + 1] = {
    let mut table = [(0, 0); MAX_COPY + 1];
    let mut symbol = 0;
    while symbol < LENGTH_BASES.len() {
        let (base, extra) = LENGTH_BASES[symbol];
        let (code, length) = fixed_code(257 + symbol as u32);
        let mut value = 0;
        while value < (1 << extra) && base + value <= MAX_COPY as u32 {
            table[(base + value) as usize] = (code | value << length, length + extra);
            value += 1;
        }
        symbol += 1;
    }
    table
};

/// The shortest distance of each distance symbol and its extra bits.
const DISTANCE_BASES: [(u32, u32); 30] = [
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (5, 1),
    (7, 1),
    (9, 2),
    (13, 2),
    (17, 3),
    (25, 3),
    (33, 4),
    (49, 4),
    (65, 5),
    (97, 5),
    (129, 6),
    (193, 6),
    (257, 7),
    (385, 7),
    (513, 8),
    (769, 8),
    (1025, 9),
    (1537, 9),
    (2049, 10),
    (3073, 10),
    (4097, 11),
    (6145, 11),
    (8193, 12),
    (12289, 12),
    (16385, 13),
    (24577, 13),
];

/// Distance `distance` (1 to [`WINDOW`]) as written: its 5-bit fixed code
/// and extra bits, and how many bits that is.
fn distance_code(distance: usize) -> (u32, u32) {
    assert!(
        (1..=WINDOW).contains(&distance),
        "deflate copies from 1 to {WINDOW} bytes back, not {distance}"
    );
    let distance = distance as u32;
    let symbol = DISTANCE_BASES.partition_point(|&(base, _)| base <= distance) - 1;
    let (base, extra) = DISTANCE_BASES[symbol];
    (
        reversed(symbol as u32, 5) | (distance - base) << 5,
        5 + extra,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn inflate(stream: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(stream)
            .read_to_end(&mut out)
            .expect("a valid zlib stream with a right checksum");
        out
    }

    /// Rows of `stride` bytes, each cut into pieces of `piece` bytes, the
    /// first row coded without copies from above.
    fn round_trip(rows: &[Vec<u8>], piece: usize) -> Vec<u8> {
        let stride = rows[0].len();
        let mut stream = Stream::new(stride);
        for (index, row) in rows.iter().enumerate() {
            for (at, bytes) in row.chunks(piece).enumerate() {
                let above = index
                    .checked_sub(1)
                    .map(|above| &rows[above][at * piece..at * piece + bytes.len()]);
                stream.push(&Coded::new(bytes, above, stride));
            }
        }
        inflate(&stream.finish())
    }

    #[test]
    fn what_goes_in_comes_out() {
        let stride = 353;
        let mut noise = 12345u32;
        let rows: Vec<Vec<u8>> = (0..120)
            .map(|row| {
                (0..stride)
                    .map(|column| match row % 6 {
                        // Rows alike (long copies from above), runs, noise.
                        0..=3 => (column / 40) as u8,
                        4 => {
                            noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12345);
                            (noise >> 16) as u8
                        }
                        _ => (column % 7) as u8,
                    })
                    .collect()
            })
            .collect();
        for piece in [1, 2, 3, 17, 40, stride] {
            assert_eq!(round_trip(&rows, piece), rows.concat(), "pieces of {piece}");
        }
    }

    #[test]
    fn pieces_alike_to_those_above_join_into_copies_of_every_length() {
        for rows in [2, 3, 4, 5, 60] {
            let same = vec![vec![9u8; 100]; rows];
            for piece in [3, 40, 100] {
                assert_eq!(round_trip(&same, piece), same.concat(), "{rows} rows");
            }
        }
    }
}
