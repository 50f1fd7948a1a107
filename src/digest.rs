//! SHA-256 in lowercase hex: how the manifest names the scenario it ran and every file it wrote, so a
//! result can be checked against its inputs (docs/scenarios.md "Outputs").

use std::io::{self, Write};

use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(Sha256::digest(bytes).as_slice())
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A writer that passes its bytes on and counts and digests them as they go: a file is listed in the
/// manifest as it is written, without being held whole in memory.
pub struct Digesting<W> {
    inner: W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> Digesting<W> {
    /// A writer into `inner`.
    pub fn new(inner: W) -> Self {
        Digesting {
            inner,
            hasher: Sha256::new(),
            bytes: 0,
        }
    }

    /// How many bytes were written, and their SHA-256 as [`sha256_hex`] gives it.
    pub fn finish(self) -> (u64, String) {
        (self.bytes, hex(self.hasher.finalize().as_slice()))
    }
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_the_published_test_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_digesting_writer_counts_and_digests_what_passed_in_pieces() {
        let text = b"variant,metric\nbase,ko\n".repeat(1000);
        let mut out = Vec::new();
        let mut w = Digesting::new(&mut out);
        for piece in text.chunks(7) {
            w.write_all(piece).unwrap();
        }
        assert_eq!(w.finish(), (text.len() as u64, sha256_hex(&text)));
        assert_eq!(out, text);
    }
}
