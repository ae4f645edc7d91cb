//! The messages between processes: what each MPI tag means, and the byte layout of each
//! (little-endian, no dependency). A message's length is the message's own, found with a
//! matched probe (`MPI_Improbe` + `MPI_Mrecv`), so no layout carries its total length.

use crate::output::sort::Keys;

/// What a message is, as its MPI tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// "Give me directories": empty.
    Steal = 1,
    /// Directories for the process that asked: [`encode_jobs`]. The only *basic message* of
    /// the termination detection (`net.rs`).
    Work = 2,
    /// "I have none to give": empty.
    NoWork = 3,
    /// The termination token: [`Token`].
    Token = 4,
    /// A batch of results, or of error lines, for process 0: [`encode_batch`].
    Output = 5,
    /// Process 0 gives output credits back: `u32` count.
    Credit = 6,
    /// Process 0 says: stop early (the last result is written, or output cannot be): empty.
    Stop = 7,
    /// Process 0 says: the walk is over everywhere: empty.
    Terminate = 8,
    /// A process tells process 0 it has sent all its output: `u64` number of `Output`
    /// messages.
    Done = 9,
}

impl Tag {
    /// The tag of an MPI message's tag number.
    pub fn from_i32(t: i32) -> Option<Tag> {
        Some(match t {
            1 => Tag::Steal,
            2 => Tag::Work,
            3 => Tag::NoWork,
            4 => Tag::Token,
            5 => Tag::Output,
            6 => Tag::Credit,
            7 => Tag::Stop,
            8 => Tag::Terminate,
            9 => Tag::Done,
            _ => return None,
        })
    }
}

/// Safra's token: the sum of the message counters of the processes it visited this round,
/// and whether any of them was black. `[i64 count][u8 black]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Work messages sent less those received, summed.
    pub count: i64,
    /// Some process received work since it last passed the token on.
    pub black: bool,
}

impl Token {
    /// The token's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = self.count.to_le_bytes().to_vec();
        v.push(u8::from(self.black));
        v
    }

    /// The token in `b`.
    pub fn decode(b: &[u8]) -> Option<Token> {
        Some(Token {
            count: i64::from_le_bytes(b.get(..8)?.try_into().ok()?),
            black: *b.get(8)? != 0,
        })
    }
}

/// A directory handed to another process: what it needs to open it the same way and to
/// rebuild, from its path, the state its entries are judged against (`rebuild.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handed {
    /// The search path it is below, by its place in `Config::roots`.
    pub root: u32,
    /// Its depth (a search path is 0).
    pub depth: u32,
    /// Where its own name starts in `path`.
    pub name_start: u32,
    /// Reached through a symbolic link (`-L`).
    pub via_link: bool,
    /// For each directory above it, from the search path down: reached through a link.
    pub links: Vec<bool>,
    /// Its display path.
    pub path: Vec<u8>,
}

impl Handed {
    /// `[u32 root][u32 depth][u32 name_start][u8 via_link][depth × u8 link][path]`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        for n in [self.root, self.depth, self.name_start] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.push(u8::from(self.via_link));
        out.extend(self.links.iter().map(|&l| u8::from(l)));
        out.extend_from_slice(&self.path);
    }

    /// The directory [`Handed::encode`] wrote, if well formed.
    pub fn decode(b: &[u8]) -> Option<Handed> {
        let depth = u32_at(b, 4)?;
        let links = b.get(13..13 + depth as usize)?;
        let path = b[13 + links.len()..].to_vec();
        let name_start = u32_at(b, 8)?;
        (name_start as usize <= path.len()).then(|| Handed {
            root: u32_at(b, 0).unwrap_or_default(),
            depth,
            name_start,
            via_link: b[12] != 0,
            links: links.iter().map(|&l| l != 0).collect(),
            path,
        })
    }
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// `n` as a message's bytes.
pub fn encode_u64(n: u64) -> Vec<u8> {
    n.to_le_bytes().to_vec()
}

/// The `u64` of a message.
pub fn decode_u64(b: &[u8]) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(..8)?.try_into().ok()?))
}

/// `n` as a message's bytes.
pub fn encode_u32(n: u32) -> Vec<u8> {
    n.to_le_bytes().to_vec()
}

/// The `u32` of a message.
pub fn decode_u32(b: &[u8]) -> Option<u32> {
    u32_at(b, 0)
}

/// Directories for a `Work` message: `[u32 n]([u32 len][len bytes])*n`, each one's bytes
/// [`Handed::encode`]'s.
pub fn encode_jobs(jobs: &[Handed]) -> Vec<u8> {
    let mut v = Vec::with_capacity(4 + jobs.iter().map(|j| 17 + j.path.len()).sum::<usize>());
    v.extend_from_slice(&(jobs.len() as u32).to_le_bytes());
    let mut one = Vec::new();
    for j in jobs {
        one.clear();
        j.encode(&mut one);
        v.extend_from_slice(&(one.len() as u32).to_le_bytes());
        v.extend_from_slice(&one);
    }
    v
}

/// The directories of a `Work` message, if well formed.
pub fn decode_jobs(b: &[u8]) -> Option<Vec<Handed>> {
    let n = u32_at(b, 0)? as usize;
    let mut at = 4;
    let mut out = Vec::with_capacity(n.min(b.len() / 17));
    for _ in 0..n {
        let len = u32_at(b, at)? as usize;
        out.push(Handed::decode(b.get(at + 4..at + 4 + len)?)?);
        at += 4 + len;
    }
    (at == b.len()).then_some(out)
}

/// What a batch of output holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Records for stdout.
    Results = 0,
    /// Lines for stderr.
    Errors = 1,
}

/// A batch of output on its way to process 0's printer (results) or stderr (error lines).
#[derive(Debug)]
pub struct Item {
    /// The process that produced it: its credit goes back there once it is written.
    pub from: i32,
    /// Results or errors.
    pub stream: Stream,
    /// Whole records (or lines), formatted where they were found.
    pub bytes: Vec<u8>,
    /// Where the records end and their sort keys, when process 0 applies a limit or sorts
    /// (else empty).
    pub keys: Keys,
}

/// An `Output` message: `[u8 stream]`, the keys ([`Keys::encode`]), then the bytes. The keys
/// travel because a record's end cannot be found from its bytes (a name may hold a newline,
/// a `--format` anything), and `--sort` orders by path, not by the formatted record.
pub fn encode_batch(item: &Item) -> Vec<u8> {
    let mut v = Vec::with_capacity(1 + 8 + item.bytes.len() + 21 * item.keys.len());
    v.push(item.stream as u8);
    item.keys.encode(&mut v);
    v.extend_from_slice(&item.bytes);
    v
}

/// The batch of an `Output` message from process `from`, if well formed.
pub fn decode_batch(from: i32, b: &[u8]) -> Option<Item> {
    let stream = match *b.first()? {
        0 => Stream::Results,
        1 => Stream::Errors,
        _ => return None,
    };
    let (keys, bytes) = Keys::decode(&b[1..])?;
    Some(Item {
        from,
        stream,
        bytes: bytes.to_vec(),
        keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_round_trip_and_malformed_lists_are_refused() {
        let jobs = vec![
            Handed {
                root: 1,
                depth: 2,
                name_start: 4,
                via_link: true,
                links: vec![true, false],
                path: b"r/a/new\nline".to_vec(),
            },
            Handed {
                root: 0,
                depth: 0,
                name_start: 0,
                via_link: true,
                links: vec![],
                path: Vec::new(),
            },
        ];
        let enc = encode_jobs(&jobs);
        assert_eq!(decode_jobs(&enc), Some(jobs));
        assert_eq!(decode_jobs(&encode_jobs(&[])), Some(vec![]));
        assert_eq!(decode_jobs(&enc[..enc.len() - 1]), None);
        let mut long = enc.clone();
        long.push(0);
        assert_eq!(decode_jobs(&long), None);
    }

    #[test]
    fn batches_and_tokens_round_trip() {
        let mut keys = Keys::default();
        keys.note(b"a", b"a\n", 0);
        let item = Item {
            from: 3,
            stream: Stream::Results,
            bytes: b"a\n".to_vec(),
            keys,
        };
        let back = decode_batch(3, &encode_batch(&item)).unwrap();
        assert_eq!(
            (back.stream, &back.bytes[..], back.keys.len()),
            (Stream::Results, &b"a\n"[..], 1)
        );
        assert!(decode_batch(3, &[7]).is_none());
        let t = Token {
            count: -3,
            black: true,
        };
        assert_eq!(Token::decode(&t.encode()), Some(t));
    }
}
