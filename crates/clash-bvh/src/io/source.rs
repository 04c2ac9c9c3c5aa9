//! Where a payload's bytes come from while it is decoded: a slice in
//! memory, or a file read in chunks into one reused buffer (reading a
//! large file into a fresh buffer costs far more: the kernel maps and
//! zeroes every page). Either way
//! the CRC-32 of every byte taken is kept, so that a corrupt payload is
//! reported as [`LoadError::Checksum`] whatever part of the decoding it
//! upsets first.

use crate::LoadError;
use std::io::Read;

/// Bulk records are taken at most this many bytes at a time.
pub(super) const CHUNK_BYTES: usize = 4 << 20;

/// The bytes of a payload, taken in order.
pub(super) trait Source: Read + Send {
    /// The next `n` bytes; an error when fewer remain.
    fn take_bytes(&mut self, n: usize) -> Result<&[u8], LoadError>;

    /// Payload bytes not taken yet.
    fn remaining(&self) -> u64;

    /// The checksum of the bytes taken so far, and the one the header
    /// gives.
    fn checksums(&self) -> (u32, u32);

    /// The error to report for `error`, met while decoding: the rest of the
    /// payload is taken, and if the checksum then fails, that is the
    /// likelier cause and is reported instead.
    fn fail(&mut self, error: LoadError) -> LoadError {
        while self.remaining() > 0 {
            let n = self.remaining().min(CHUNK_BYTES as u64) as usize;
            if self.take_bytes(n).is_err() {
                return error;
            }
        }
        let (have, want) = self.checksums();
        if have == want {
            error
        } else {
            LoadError::Checksum
        }
    }

    /// At the end of the decoding: no byte may be left, and the checksum
    /// must match.
    fn finish(&mut self) -> Result<(), LoadError> {
        if self.remaining() > 0 {
            let left = self.remaining();
            let error = LoadError::Decode(format!("{left} bytes left after the payload"));
            return Err(self.fail(error));
        }
        let (have, want) = self.checksums();
        if have == want {
            Ok(())
        } else {
            Err(LoadError::Checksum)
        }
    }
}

/// A payload in memory (its length checked against the header): bytes are
/// borrowed, not copied.
pub(super) struct SliceSource<'a> {
    bytes: &'a [u8],
    hasher: crc32fast::Hasher,
    checksum: u32,
}

impl<'a> SliceSource<'a> {
    /// The payload `bytes`, whose checksum should be `checksum`.
    pub(super) fn new(bytes: &'a [u8], checksum: u32) -> Self {
        Self {
            bytes,
            hasher: crc32fast::Hasher::new(),
            checksum,
        }
    }
}

impl Read for SliceSource<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = out.len().min(self.bytes.len());
        let (head, rest) = self.bytes.split_at(n);
        out[..n].copy_from_slice(head);
        self.hasher.update(head);
        self.bytes = rest;
        Ok(n)
    }
}

impl Source for SliceSource<'_> {
    fn take_bytes(&mut self, n: usize) -> Result<&[u8], LoadError> {
        let Some((head, rest)) = self.bytes.split_at_checked(n) else {
            return Err(LoadError::Decode(format!(
                "{n} bytes wanted, {} left in the payload",
                self.bytes.len()
            )));
        };
        self.hasher.update(head);
        self.bytes = rest;
        Ok(head)
    }

    fn remaining(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn checksums(&self) -> (u32, u32) {
        (self.hasher.clone().finalize(), self.checksum)
    }
}

/// A payload read from `reader`, whose length the caller has checked
/// (a file's size against its header), so that no section can claim more
/// memory than the file holds.
pub(super) struct ReaderSource<R> {
    reader: R,
    buf: Vec<u8>,
    remaining: u64,
    len: u64,
    hasher: crc32fast::Hasher,
    checksum: u32,
}

impl<R: Read + Send> ReaderSource<R> {
    /// The payload of `len` bytes that `reader` holds next, whose checksum
    /// should be `checksum`.
    pub(super) fn new(reader: R, len: u64, checksum: u32) -> Self {
        Self {
            reader,
            buf: Vec::new(),
            remaining: len,
            len,
            hasher: crc32fast::Hasher::new(),
            checksum,
        }
    }

    /// A read error as a [`LoadError`]: an early end of the file is a
    /// truncation.
    fn error(&self, e: std::io::Error) -> LoadError {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            LoadError::Truncated {
                expected: self.len,
                found: self.len - self.remaining,
            }
        } else {
            LoadError::Io(e)
        }
    }
}

impl<R: Read + Send> Read for ReaderSource<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = (out.len() as u64).min(self.remaining) as usize;
        let n = self.reader.read(&mut out[..n])?;
        self.hasher.update(&out[..n]);
        self.remaining -= n as u64;
        Ok(n)
    }
}

impl<R: Read + Send> Source for ReaderSource<R> {
    fn take_bytes(&mut self, n: usize) -> Result<&[u8], LoadError> {
        if n as u64 > self.remaining {
            return Err(LoadError::Decode(format!(
                "{n} bytes wanted, {} left in the payload",
                self.remaining
            )));
        }
        if self.buf.len() < n {
            self.buf.resize(n, 0);
        }
        if let Err(e) = self.reader.read_exact(&mut self.buf[..n]) {
            return Err(self.error(e));
        }
        self.hasher.update(&self.buf[..n]);
        self.remaining -= n as u64;
        Ok(&self.buf[..n])
    }

    fn remaining(&self) -> u64 {
        self.remaining
    }

    fn checksums(&self) -> (u32, u32) {
        (self.hasher.clone().finalize(), self.checksum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both sources hand out the same bytes, keep the same checksum, and
    /// refuse to take more than the payload holds.
    #[test]
    fn sources_agree() {
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let crc = crc32fast::hash(&bytes);
        let mut a = SliceSource::new(&bytes, crc);
        let mut b = ReaderSource::new(&bytes[..], bytes.len() as u64, crc);
        for n in [1, 10, 100, 4000, 5000] {
            assert_eq!(a.take_bytes(n).unwrap(), b.take_bytes(n).unwrap());
        }
        let (mut x, mut y) = ([0u8; 3], [0u8; 3]);
        a.read_exact(&mut x).unwrap();
        b.read_exact(&mut y).unwrap();
        assert_eq!(x, y);
        assert!(a.take_bytes(1000).is_err() && b.take_bytes(1000).is_err());
        assert_eq!((a.remaining(), b.remaining()), (886, 886));
        let last: Vec<u8> = bytes[bytes.len() - 886..].to_vec();
        assert_eq!(a.take_bytes(886).unwrap(), &last[..]);
        assert_eq!(b.take_bytes(886).unwrap(), &last[..]);
        assert!(a.finish().is_ok() && b.finish().is_ok());
        // A wrong checksum, or bytes left over, fail at the end.
        let mut c = SliceSource::new(&bytes, crc ^ 1);
        c.take_bytes(bytes.len()).unwrap();
        assert!(matches!(c.finish(), Err(LoadError::Checksum)));
        let mut d = SliceSource::new(&bytes, crc);
        d.take_bytes(10).unwrap();
        assert!(matches!(d.finish(), Err(LoadError::Decode(_))));
        // A reader that ends early is a truncation.
        let mut e = ReaderSource::new(&bytes[..100], 200, crc);
        assert!(matches!(
            e.take_bytes(150),
            Err(LoadError::Truncated {
                expected: 200,
                found: 0
            })
        ));
    }

    /// After a decoding error, a payload whose checksum fails reports the
    /// checksum; one whose checksum holds reports the error.
    #[test]
    fn a_failed_checksum_takes_precedence() {
        let bytes = vec![5u8; 9_000_000];
        let crc = crc32fast::hash(&bytes);
        for (checksum, want_checksum) in [(crc, false), (crc ^ 1, true)] {
            let mut s = ReaderSource::new(&bytes[..], bytes.len() as u64, checksum);
            s.take_bytes(10).unwrap();
            let e = s.fail(LoadError::Decode("bad".into()));
            assert_eq!(matches!(e, LoadError::Checksum), want_checksum);
            assert_eq!(s.remaining(), 0);
        }
    }
}
