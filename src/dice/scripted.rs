//! [`Scripted`], the roller of unit tests: it returns chosen faces, so each branch of a resolver can be
//! driven exactly and the dice it asked for checked.

use super::Roller;

/// A test generator that returns chosen faces in order, so each resolver branch can be driven exactly.
/// It panics (with a clear message) if a scripted face is outside 1..=sides of the die asked for, or if the script runs out:
/// both are mistakes in the test, never reachable from user input.
///
/// It deliberately does not implement `rand_core`'s `Rng`: it is a [`Roller`] in its own right, and
/// the blanket implementation for generators relies on that for coherence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scripted {
    faces: Vec<u32>,
    next: usize,
    requests: Vec<u32>,
}

impl Scripted {
    /// A roller that will return `faces` one per die, in the order given.
    pub fn new(faces: impl IntoIterator<Item = u32>) -> Self {
        Scripted {
            faces: faces.into_iter().collect(),
            next: 0,
            requests: Vec::new(),
        }
    }

    /// The sides of every die asked for so far, in order (lets a test check which dice were rolled).
    pub fn requests(&self) -> &[u32] {
        &self.requests
    }

    /// Faces not yet used (lets a test check that the code under test rolled exactly what it should).
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }
}

/// Hands out the scripted faces in order, checking each against the die asked for so that a wrong
/// script fails loudly at the die that went wrong instead of producing a subtly wrong result.
impl Roller for Scripted {
    fn die(&mut self, sides: u32) -> u32 {
        self.requests.push(sides);
        let number = self.requests.len();
        let Some(&face) = self.faces.get(self.next) else {
            panic!(
                "Scripted ran out of faces: die #{number} (a d{sides}) was asked for, \
                 but only {} faces were scripted",
                self.faces.len()
            );
        };
        assert!(
            (1..=sides).contains(&face),
            "Scripted face {face} is not on a d{sides} (faces 1..={sides}) at die #{number}",
        );
        self.next += 1;
        face
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // ---- scripted rolls -------------------------------------------------------------------------

    #[test]
    fn scripted_returns_faces_in_order_and_records_requests() {
        let mut script = Scripted::new(vec![20, 1, 4, 6]);
        assert_eq!(script.remaining(), 4);
        assert!(script.requests().is_empty());
        assert_eq!(script.die(20), 20);
        assert_eq!(script.die(6), 1);
        assert_eq!(script.die(4), 4);
        assert_eq!(script.remaining(), 1);
        assert_eq!(script.die(8), 6);
        assert_eq!(script.requests(), &[20, 6, 4, 8]);
        assert_eq!(script.remaining(), 0);
    }

    #[test]
    #[should_panic(expected = "Scripted face 7 is not on a d6 (faces 1..=6) at die #2")]
    fn scripted_panics_on_a_face_larger_than_the_die() {
        let mut script = Scripted::new([6, 7]);
        script.die(6);
        script.die(6);
    }

    #[test]
    #[should_panic(expected = "Scripted face 0 is not on a d20")]
    fn scripted_panics_on_face_zero() {
        Scripted::new([0]).die(20);
    }

    #[test]
    #[should_panic(expected = "Scripted ran out of faces: die #3 (a d8) was asked for")]
    fn scripted_panics_when_exhausted() {
        let mut script = Scripted::new([1, 2]);
        script.die(8);
        script.die(8);
        script.die(8);
    }
}
