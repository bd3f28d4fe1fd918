//! The world's checksum stream: `seahash` fed in blocks.

use core::hash::Hasher;

use seahash::SeaHasher;

/// A `seahash` stream that gathers the values written to it into blocks
/// before hashing them.
///
/// `seahash`'s stream hash depends only on the bytes written, not on how
/// they are split between writes, so this hashes exactly as writing each
/// value straight to a [`SeaHasher`] would, without the hasher's per-write
/// bookkeeping (which made up most of a checksum's cost). Every integer
/// is written little-endian, on every target: there is no `Hasher` impl
/// whose default methods would write native-endian bytes.
pub(super) struct Digest {
    hasher: SeaHasher,
    block: [u8; 256],
    len: usize,
}

impl Digest {
    pub(super) fn new() -> Self {
        Self { hasher: SeaHasher::new(), block: [0; 256], len: 0 }
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.block.len() - self.len < bytes.len() {
            self.hasher.write(&self.block[..self.len]);
            self.len = 0;
        }
        match self.block.get_mut(self.len..self.len + bytes.len()) {
            Some(room) => {
                room.copy_from_slice(bytes);
                self.len += bytes.len();
            }
            None => self.hasher.write(bytes),
        }
    }

    pub(super) fn write_u8(&mut self, n: u8) {
        self.write(&[n]);
    }

    pub(super) fn write_u32(&mut self, n: u32) {
        self.write(&n.to_le_bytes());
    }

    pub(super) fn write_u64(&mut self, n: u64) {
        self.write(&n.to_le_bytes());
    }

    pub(super) fn finish(&self) -> u64 {
        let mut hasher = self.hasher;
        hasher.write(&self.block[..self.len]);
        hasher.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks change nothing: the digest of any sequence of writes, some
    /// longer than a block, is the hash of the same values written one by
    /// one to a plain `SeaHasher`.
    #[test]
    fn a_digest_hashes_as_writing_each_value_to_seahash_does() {
        let mut digest = Digest::new();
        let mut plain = SeaHasher::new();
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for i in 0..2000_u32 {
            x = x.rotate_left(13) ^ u64::from(i).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            match x % 3 {
                0 => {
                    digest.write_u8(x as u8);
                    plain.write_u8(x as u8);
                }
                1 => {
                    digest.write_u32(x as u32);
                    plain.write(&(x as u32).to_le_bytes());
                }
                _ => {
                    digest.write_u64(x);
                    plain.write(&x.to_le_bytes());
                }
            }
            if i % 500 == 0 {
                let long = [x as u8; 300];
                digest.write(&long);
                plain.write(&long);
            }
            assert_eq!(digest.finish(), plain.finish(), "after write {i}");
        }
    }
}
