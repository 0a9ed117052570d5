//! A palette of at most 256 colours for the board picture, chosen once per
//! process from every colour its pre-drawn parts (frames, squares, pieces
//! on each kind of square) contain, so that a picture can be put together
//! and stored as one byte per pixel (PNG colour type 3).
//!
//! The colours that tests and readers rely on (square colours, marks, the
//! frame) are kept exactly; the others (the anti-aliased edges of pieces,
//! coordinates and the check ring) share the remaining entries by median
//! cut: the box of colours with the largest squared error is split at its
//! weighted median along its longest side, until the palette is full; each
//! box gives its weighted mean. A few thousand colours are cut once, in
//! well under a millisecond, and no colour ends far from its own.

use std::collections::HashMap;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// Entries a PNG palette of 8-bit indices holds.
const ENTRIES: usize = 256;

/// A palette and the entry each colour it was made from maps to.
pub struct Palette {
    pub colours: Vec<Rgb>,
    index: HashMap<Rgb, u8>,
}

impl Palette {
    /// A palette for the colours of `histogram` (colour -> pixel count),
    /// holding each of `fixed` exactly.
    pub fn new(histogram: &HashMap<Rgb, u64>, fixed: &[Rgb]) -> Palette {
        let mut colours: Vec<Rgb> = fixed.to_vec();
        colours.dedup();
        let mut rest: Vec<(Rgb, u64)> = histogram
            .iter()
            .filter(|(colour, _)| !colours.contains(colour))
            .map(|(&colour, &count)| (colour, count))
            .collect();
        // A stable order, so that the palette is the same in every process.
        rest.sort_unstable();
        let room = ENTRIES.saturating_sub(colours.len());
        if rest.len() <= room {
            colours.extend(rest.iter().map(|(colour, _)| *colour));
        } else {
            colours.extend(median_cut(rest, room));
        }
        let index = histogram
            .keys()
            .map(|&colour| (colour, nearest(&colours, colour)))
            .collect();
        Palette { colours, index }
    }

    /// The entry for `colour` (one the palette was made from, or else the
    /// nearest).
    pub fn index_of(&self, colour: Rgb) -> u8 {
        self.index
            .get(&colour)
            .copied()
            .unwrap_or_else(|| nearest(&self.colours, colour))
    }

    /// The palette as the PNG `PLTE` chunk wants it: R, G, B per entry.
    pub fn bytes(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }
}

fn distance(a: Rgb, b: Rgb) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| u32::from(x.abs_diff(y)).pow(2))
        .sum()
}

/// The index of the entry of `colours` nearest to `colour`.
fn nearest(colours: &[Rgb], colour: Rgb) -> u8 {
    let best = (0..colours.len())
        .min_by_key(|&i| distance(colours[i], colour))
        .unwrap_or(0);
    u8::try_from(best).unwrap_or(u8::MAX)
}

/// A box of colours of the median cut, with its weighted mean and error.
struct ColourBox {
    colours: Vec<(Rgb, u64)>,
    mean: Rgb,
    error: u64,
}

impl ColourBox {
    fn new(colours: Vec<(Rgb, u64)>) -> ColourBox {
        let weight: u64 = colours.iter().map(|(_, n)| n).sum::<u64>().max(1);
        let mut mean = [0u8; 3];
        for (channel, slot) in mean.iter_mut().enumerate() {
            let sum: u64 = colours.iter().map(|(c, n)| u64::from(c[channel]) * n).sum();
            *slot = u8::try_from((sum + weight / 2) / weight).unwrap_or(u8::MAX);
        }
        let error = colours
            .iter()
            .map(|(c, n)| u64::from(distance(*c, mean)) * n)
            .sum();
        ColourBox {
            colours,
            mean,
            error,
        }
    }

    /// The two halves of the box, cut at the weighted median of its
    /// longest side.
    fn split(mut self) -> (ColourBox, ColourBox) {
        let range = |channel: usize| {
            let values = self.colours.iter().map(|(c, _)| c[channel]);
            values.clone().max().unwrap_or(0) - values.min().unwrap_or(0)
        };
        let channel = (0..3).max_by_key(|&c| range(c)).unwrap_or(0);
        self.colours.sort_unstable_by_key(|(c, _)| (c[channel], *c));
        let half = self.colours.iter().map(|(_, n)| n).sum::<u64>() / 2;
        let mut seen = 0;
        let mut cut = self.colours.len() / 2;
        for (i, (_, n)) in self.colours.iter().enumerate() {
            seen += n;
            if seen >= half {
                cut = i + 1;
                break;
            }
        }
        let cut = cut.clamp(1, self.colours.len() - 1);
        let upper = self.colours.split_off(cut);
        (ColourBox::new(self.colours), ColourBox::new(upper))
    }
}

/// `count` colours standing for `colours` (more of them than `count`).
fn median_cut(colours: Vec<(Rgb, u64)>, count: usize) -> Vec<Rgb> {
    let mut boxes = vec![ColourBox::new(colours)];
    while boxes.len() < count {
        let Some(worst) = (0..boxes.len())
            .filter(|&i| boxes[i].colours.len() > 1)
            .max_by_key(|&i| boxes[i].error)
        else {
            break;
        };
        let (low, high) = boxes.swap_remove(worst).split();
        boxes.push(low);
        boxes.push(high);
    }
    boxes.iter().map(|b| b.mean).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_colours_stay_exact_and_the_others_come_near() {
        let mut histogram = HashMap::new();
        for r in 0..=255u8 {
            for g in (0..=255u8).step_by(15) {
                histogram.insert([r, g, 128], 1 + u64::from(r % 7));
            }
        }
        let fixed = [[0xf0, 0xd9, 0xb5], [0xb5, 0x88, 0x63]];
        histogram.insert(fixed[0], 5000);
        let palette = Palette::new(&histogram, &fixed);
        assert_eq!(palette.colours.len(), ENTRIES);
        for colour in fixed {
            assert_eq!(
                palette.colours[usize::from(palette.index_of(colour))],
                colour
            );
        }
        for &colour in histogram.keys() {
            let shown = palette.colours[usize::from(palette.index_of(colour))];
            assert!(
                distance(colour, shown) <= 3 * 24 * 24,
                "{colour:?} -> {shown:?}"
            );
        }
    }

    #[test]
    fn few_colours_are_kept_as_they_are() {
        let histogram: HashMap<Rgb, u64> = [([1, 2, 3], 4), ([9, 9, 9], 1)].into_iter().collect();
        let palette = Palette::new(&histogram, &[[9, 9, 9]]);
        assert_eq!(palette.colours, vec![[9, 9, 9], [1, 2, 3]]);
        assert_eq!(palette.index_of([1, 2, 3]), 1);
    }
}
