//! Every member's own dice (docs/scenarios.md "Randomness"): a stream fixed by the seed, the trial, the
//! member's side and his index on it. Why: adding a fourth thug then leaves the first three's dice as they
//! were, so gang sizes are compared on common dice as variants are, and a study of one to six thugs reads
//! the effect of the extra thug, not of new dice.
//!
//! The trial's own stream gives two 32-bit words, the trial's key; each member's stream is a SplitMix64
//! generator seeded by the key scattered with his side and index. Whatever a member rolls (his hit points,
//! his side's initiative if he is its first, his attacks, his contests, his damage, his choice of a foe at
//! random, the length of a knockout he deals) comes from his stream, in the order he rolls it.

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::SeedableRng;

use crate::dice::{Narrator, Pooled, Recording, Roller};

/// Where the dice of each member come from: his own stream in a run, scripted faces in a test.
pub trait MemberDice {
    /// The dice of one member.
    type Roller: Roller;
    /// Member `index` of side `side` (0 the attackers, 1 the victims).
    fn member(&mut self, side: usize, index: usize) -> &mut Self::Roller;

    /// Where a narrated fight tells its story: `None` (a constant the compiler folds away) for every dice
    /// but [`RecordedStreams`], so a round's words cost nothing in a run.
    #[inline(always)]
    fn narrator(&self) -> Option<&Narrator> {
        None
    }
}

/// The members' streams of one trial.
#[derive(Debug, Clone, Default)]
pub struct MemberStreams {
    streams: [Vec<Pooled<SplitMix64>>; 2],
}

/// SplitMix64's output function: scatters nearby inputs.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl MemberStreams {
    /// The streams of `members[0]` attackers and `members[1]` victims, keyed by two words of the trial's
    /// stream `trial`.
    pub fn new<R: Roller + ?Sized>(trial: &mut R, members: [usize; 2]) -> MemberStreams {
        let mut streams = MemberStreams {
            streams: Default::default(),
        };
        streams.reseed(trial, members);
        streams
    }

    /// The streams of another trial in the lists of this one: the same streams as [`MemberStreams::new`],
    /// without allocating once the lists are long enough (a run reuses one per thread).
    pub fn reseed<R: Roller + ?Sized>(&mut self, trial: &mut R, members: [usize; 2]) {
        let key = (u64::from(trial.seed_word()) << 32) ^ u64::from(trial.seed_word());
        for (side, streams) in self.streams.iter_mut().enumerate() {
            streams.clear();
            streams.extend((0..members[side]).map(|index| {
                let tag = ((side as u64) << 32) | index as u64;
                let seed = mix(key ^ mix(tag.wrapping_add(0x9e37_79b9_7f4a_7c15)));
                Pooled::new(SplitMix64::seed_from_u64(seed))
            }));
        }
    }
}

impl MemberStreams {
    /// These streams, every die they roll written into `narrator` with the member who rolled it: the
    /// same faces in the same order (`subdual explain`).
    pub fn recording(self, narrator: &Narrator) -> RecordedStreams<Pooled<SplitMix64>> {
        RecordedStreams::new(self.streams, narrator)
    }
}

/// The members' dice of one narrated trial: each member's dice recorded with his side and index.
#[derive(Debug, Clone)]
pub struct RecordedStreams<R> {
    streams: [Vec<Recording<R>>; 2],
    narrator: Narrator,
}

impl<R: Roller> RecordedStreams<R> {
    /// Records the dice of `rollers` (attackers', victims', member by member) into `narrator`.
    pub fn new(rollers: [Vec<R>; 2], narrator: &Narrator) -> RecordedStreams<R> {
        let mut side = 0;
        let streams = rollers.map(|rollers| {
            let recorded = rollers
                .into_iter()
                .enumerate()
                .map(|(index, r)| Recording::member(r, narrator.clone(), (side, index)))
                .collect();
            side += 1;
            recorded
        });
        RecordedStreams {
            streams,
            narrator: narrator.clone(),
        }
    }
}

impl<R: Roller> MemberDice for RecordedStreams<R> {
    type Roller = Recording<R>;
    fn member(&mut self, side: usize, index: usize) -> &mut Recording<R> {
        &mut self.streams[side][index]
    }

    fn narrator(&self) -> Option<&Narrator> {
        Some(&self.narrator)
    }
}

impl MemberDice for MemberStreams {
    type Roller = Pooled<SplitMix64>;
    #[inline]
    fn member(&mut self, side: usize, index: usize) -> &mut Pooled<SplitMix64> {
        &mut self.streams[side][index]
    }
}

/// Scripted dice per member, for the tests of the round.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct ScriptedMembers {
    pub rollers: [Vec<crate::dice::Scripted>; 2],
    /// Who was asked for dice, in order (one entry per roll site: an attack, an initiative, a contest).
    pub calls: Vec<(usize, usize)>,
}

#[cfg(test)]
impl MemberDice for ScriptedMembers {
    type Roller = crate::dice::Scripted;
    fn member(&mut self, side: usize, index: usize) -> &mut crate::dice::Scripted {
        self.calls.push((side, index));
        &mut self.rollers[side][index]
    }
}
