//! The [`Roller`] trait, the one door of chance, and the generators behind it: every `rand_core`
//! generator through an unbiased Lemire method, and [`Pooled`], two dice from each 64-bit draw.

use rand_xoshiro::rand_core::Rng;

use super::Dice;

/// Anything that can roll one fair die. Every random draw of the simulator goes through this trait,
/// so a test can script the faces and an enumerator (later) can walk every face with its probability.
pub trait Roller {
    /// A uniformly distributed face in 1..=sides. `sides` is at least 1 (callers guarantee it).
    fn die(&mut self, sides: u32) -> u32;

    /// Asked by a loop that rolls again on a tie (the grab contest) before it does. A generator always
    /// answers yes; the [`Enumerator`] answers no, to stop walking an endless branch whose probability it
    /// accounts for exactly instead (a geometric series).
    ///
    /// [`Enumerator`]: super::Enumerator
    #[inline]
    fn repeat_tie(&mut self) -> bool {
        true
    }

    /// A die of `sides` whose face is read only through `class`: faces of one class lead to the same
    /// outcome (a d20 whose every face under the roll needed misses alike). Every roller but the
    /// [`Enumerator`] rolls it as [`Roller::die`], so the stream of dice is the same; the enumerator walks one
    /// face of each class, weighed by the faces in it.
    ///
    /// [`Enumerator`]: super::Enumerator
    #[inline(always)]
    fn die_grouped(&mut self, sides: u32, class: &dyn Fn(u32) -> u32) -> u32 {
        let _ = class;
        self.die(sides)
    }

    /// Two dice, the first first, read only through `class` of both faces (two initiatives, of which only
    /// the order counts): rolled as two [`Roller::die`]s, and walked by the enumerator one pair per class.
    #[inline(always)]
    fn pair_grouped(&mut self, sides: [u32; 2], class: &dyn Fn(u32, u32) -> u32) -> [u32; 2] {
        let _ = class;
        let first = self.die(sides[0]);
        [first, self.die(sides[1])]
    }

    /// Told as a contest that rolls again on a tie begins, with the count of its tied pairs of d20s out of
    /// 400 (asked only of a roller that wants it). Nothing for a generator; the exact answer of a fight
    /// (`rules::fight::chain`) weighs each path that passed a contest by 400/(400 − ties), the geometric
    /// series of the ties it cuts.
    #[inline(always)]
    fn contest(&mut self, ties: &dyn Fn() -> u32) {
        let _ = ties;
    }

    /// Rolls `dice` and says where the result falls among `cuts` (ascending): how many of them it
    /// exceeds, so 0 when it is at most `cuts[0]`. A rule that only compares a roll (a knockout d100
    /// against its chance, hit points against a blow's damage) asks this instead of the value.
    ///
    /// Every roller but the [`Enumerator`] rolls the dice exactly as [`Dice::roll`] does, one `die` call
    /// each, so the stream of dice is the same as if the value had been asked for. The enumerator walks the
    /// regions themselves, each weighed by the ways the dice fall in it: hit points of 9d10 are then three
    /// branches rather than 10^9.
    ///
    /// [`Enumerator`]: super::Enumerator
    #[inline]
    fn region(&mut self, dice: &Dice, cuts: &[i32]) -> usize {
        let value = dice.roll(self);
        cuts.iter().filter(|&&cut| value > cut).count()
    }

    /// A 32-bit word drawn to seed other streams (each member's dice in a fight of several), not a die of
    /// the game: the same draw as `die(u32::MAX)`, which a narration leaves out of the story.
    #[inline]
    fn seed_word(&mut self) -> u32 {
        self.die(u32::MAX)
    }

    /// The story this roller writes its dice into, when it narrates a trial (`subdual explain`); `None` for
    /// every roller that rolls for numbers, which the compiler folds away, so the rules' words cost a run
    /// nothing (see [`Recording`](super::Recording)).
    #[inline(always)]
    fn narrator(&self) -> Option<&super::Narrator> {
        None
    }
}

/// Every rand_core generator is a Roller: unbiased Lemire multiply-shift on `next_u32` with rejection
/// (the rejection threshold `(2^32 - sides) % sides` computed only when the low word is below `sides`).
///
/// Why this method: it needs one 32-bit word and one multiplication per die almost always, and the
/// costly modulo is only reached in the rare case where a rejection is possible, so the hot path of
/// the simulator stays a handful of instructions while every face keeps exactly equal probability.
impl<R: Rng + ?Sized> Roller for R {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        lemire(sides, || self.next_u32())
    }
}

/// Lemire's multiply-shift: one 32-bit word and one multiplication per die almost always; the modulo is
/// reached only when a rejection is possible, and rejected words are drawn again, so every face keeps
/// exactly equal probability.
#[inline]
fn lemire(sides: u32, mut word: impl FnMut() -> u32) -> u32 {
    debug_assert!(sides >= 1, "a die must have at least one side");
    let mut product = u64::from(word()) * u64::from(sides);
    let mut low = product as u32;
    if low < sides {
        // `sides.wrapping_neg()` is 2^32 - sides; the words whose low half falls below this
        // threshold are the surplus that would make some faces likelier than others.
        let threshold = sides.wrapping_neg() % sides;
        while low < threshold {
            product = u64::from(word()) * u64::from(sides);
            low = product as u32;
        }
    }
    (product >> 32) as u32 + 1
}

/// A generator whose every 64-bit draw serves two dice: the low and then the high 32-bit half, each through
/// the same unbiased Lemire method. The simulation's dice are small, so 32 bits per die lose nothing, and
/// the generator is called half as often. The engine rolls every trial through one of these.
#[derive(Debug, Clone)]
pub struct Pooled<R> {
    rng: R,
    /// The unused high half of the last draw with bit 32 set, or 0 when there is none: one register
    /// tested against 0, where an `Option<u32>` costs a tag to read and to write back.
    spare: u64,
}

/// Marks [`Pooled::spare`] as holding a half.
const SPARE: u64 = 1 << 32;

impl<R: Rng> Pooled<R> {
    /// Wraps a generator.
    pub fn new(rng: R) -> Pooled<R> {
        Pooled { rng, spare: 0 }
    }

    #[inline]
    fn word(&mut self) -> u32 {
        if self.spare != 0 {
            let high = self.spare as u32;
            self.spare = 0;
            high
        } else {
            let both = self.rng.next_u64();
            self.spare = (both >> 32) | SPARE;
            both as u32
        }
    }
}

impl<R: Rng> Roller for Pooled<R> {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        lemire(sides, || self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::dice::tests::dice;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Infallible, SeedableRng, TryRng};

    // ---- rolling --------------------------------------------------------------------------------

    #[test]
    fn roll_stays_within_min_and_max_for_many_seeds() {
        let all = [
            "1d1",
            "1d8",
            "2d4+2",
            "1d6-1",
            "3d6",
            "1d20",
            "1d4-5",
            "100d1000+10000",
        ];
        for seed in 0..200 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for text in all {
                let d = dice(text);
                for _ in 0..20 {
                    let value = d.roll(&mut rng);
                    assert!((d.min()..=d.max()).contains(&value), "{text}: {value}");
                }
            }
        }
    }

    #[test]
    fn roll_asks_for_one_die_per_count_in_order() {
        let mut script = Scripted::new([1, 2, 6, 4]);
        assert_eq!(dice("3d6+1").roll(&mut script), 1 + 2 + 6 + 1);
        assert_eq!(script.requests(), &[6, 6, 6]);
        assert_eq!(script.remaining(), 1);
        assert_eq!(dice("1d4-5").roll(&mut script), -1);
        assert_eq!(script.requests(), &[6, 6, 6, 4]);
        assert_eq!(script.remaining(), 0);
    }

    #[test]
    fn roll_accepts_a_trait_object_and_a_borrowed_generator() {
        let mut script = Scripted::new([3]);
        let roller: &mut dyn Roller = &mut script;
        assert_eq!(dice("1d4").roll(roller), 3);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut borrowed = &mut rng;
        let value = dice("1d6").roll(&mut borrowed);
        assert!((1..=6).contains(&value));
    }

    /// Rolls `d` a million times and checks the frequencies against `distribution()`.
    fn assert_chi_square_below(text: &str, seed: u64, quantile_999: f64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        assert_chi_square_with(text, &mut rng, quantile_999);
    }

    /// The same through any roller (the engine's pooled one included).
    fn assert_chi_square_with<R: Roller>(text: &str, rng: &mut R, quantile_999: f64) {
        const ROLLS: u32 = 1_000_000;
        let d = dice(text);
        let distribution = d.distribution();
        let mut observed = vec![0u32; distribution.len()];
        for _ in 0..ROLLS {
            observed[(d.roll(rng) - d.min()) as usize] += 1;
        }
        let statistic: f64 = observed
            .iter()
            .zip(&distribution)
            .map(|(&seen, &(_, p))| {
                let expected = f64::from(ROLLS) * p;
                (f64::from(seen) - expected).powi(2) / expected
            })
            .sum();
        assert!(
            statistic < quantile_999,
            "{text}: chi-square {statistic} with {} degrees of freedom is not below {quantile_999}",
            distribution.len() - 1
        );
    }

    #[test]
    fn one_d_twenty_passes_chi_square() {
        assert_chi_square_below("1d20", 20, 43.82);
    }

    #[test]
    fn two_d_four_plus_two_passes_chi_square() {
        assert_chi_square_below("2d4+2", 42, 22.46);
    }

    #[test]
    fn three_d_six_passes_chi_square() {
        assert_chi_square_below("3d6", 36, 37.70);
    }

    #[test]
    fn one_d_hundred_passes_chi_square() {
        assert_chi_square_below("1d100", 100, 148.23);
    }

    #[test]
    fn pooled_dice_pass_chi_square_on_both_halves() {
        let mut rng = Pooled::new(Xoshiro256PlusPlus::seed_from_u64(77));
        assert_chi_square_with("1d20", &mut rng, 43.82);
        assert_chi_square_with("3d6", &mut rng, 37.70);
        assert_chi_square_with("1d100", &mut rng, 148.23);
        // 2d4+2 rolls two dice per roll: one from each half of a draw, every time.
        assert_chi_square_with("2d4+2", &mut rng, 22.46);
    }

    #[test]
    fn pooled_dice_use_the_low_half_then_the_high_half() {
        /// A generator whose draws are chosen: the halves map to known faces.
        struct Fixed(u64);
        impl rand_xoshiro::rand_core::TryRng for Fixed {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok(self.0 as u32)
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                Ok(self.0)
            }
            fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
                Ok(())
            }
        }
        // Low half 0x8000_0001 → the middle face; high half 0xFFFF_FFFF → the top face.
        let mut pooled = Pooled::new(Fixed(0xFFFF_FFFF_8000_0001));
        assert_eq!(pooled.die(20), 11);
        assert_eq!(pooled.die(20), 20);
        assert_eq!(pooled.die(20), 11);
    }

    #[test]
    fn generator_roller_returns_only_faces_on_the_die() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
        for sides in [1, 2, 3, 7, 20, 100, 1000, u32::MAX] {
            let mut seen = vec![false; sides.min(1000) as usize];
            for _ in 0..20_000 {
                let face = rng.die(sides);
                assert!((1..=sides).contains(&face), "d{sides} gave {face}");
                if let Some(slot) = seen.get_mut(face as usize - 1) {
                    *slot = true;
                }
            }
            if sides <= 100 {
                assert!(seen.iter().all(|s| *s), "d{sides} never showed some face");
            }
        }
    }

    /// A generator that returns chosen 32-bit words, to drive the rejection branch exactly.
    struct Words(Vec<u32>, usize);

    impl TryRng for Words {
        type Error = Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            self.1 += 1;
            Ok(self.0[self.1 - 1])
        }

        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            let low = self.try_next_u32()?;
            let high = self.try_next_u32()?;
            Ok(u64::from(high) << 32 | u64::from(low))
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            for byte in dst {
                *byte = self.try_next_u32()? as u8;
            }
            Ok(())
        }
    }

    #[test]
    fn generator_roller_maps_words_by_multiply_shift() {
        // The face is the high half of word * sides, plus one.
        let mut words = Words(vec![0x8000_0000, u32::MAX, 0x4000_0000, 1], 0);
        assert_eq!(words.die(2), 2);
        assert_eq!(words.die(20), 20);
        assert_eq!(words.die(4), 2);
        // Word 1 on a d2: low half 2 is not below the threshold 0, so it is kept: face 1.
        assert_eq!(words.die(2), 1);
        assert_eq!(words.1, 4);
    }

    #[test]
    fn generator_roller_rejects_the_biased_words() {
        // For a d3 the threshold is (2^32 - 3) % 3 = 1: word 0 (low half 0) is rejected.
        let mut words = Words(vec![0, 0, u32::MAX], 0);
        assert_eq!(words.die(3), 3);
        assert_eq!(words.1, 3);
        // For a d1000 the threshold is (2^32 - 1000) % 1000 = 296; word 0 gives low half 0 and
        // is rejected, word 1 gives low half 1000, which is accepted as face 1.
        let mut words = Words(vec![0, 1], 0);
        assert_eq!(words.die(1000), 1);
        assert_eq!(words.1, 2);
    }

    #[test]
    fn golden_faces_for_seed_7376() {
        // Pinned output of the dice stream. If this changes, the dice stream changed: every seeded
        // simulation result in the project changes with it, so only change it on purpose.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7376);
        let faces: Vec<u32> = (0..12).map(|_| rng.die(20)).collect();
        assert_eq!(faces, [20, 20, 3, 7, 14, 11, 15, 12, 8, 20, 17, 17]);
    }
}
