//! The fuzz targets' bodies (`fuzz/src/lib.rs`) over their seed corpus (`fuzz/corpus/TARGET/`)
//! and a fixed number of inputs mutated from it with a fixed seed: every target builds and runs
//! with the suite, and what a coverage-guided run once found stays fixed. The coverage-guided
//! runs themselves need cargo-fuzz's instrumented build of the whole crate graph; they are
//! `cargo bench --bench fuzz`.

use std::path::Path;

#[path = "../fuzz/src/lib.rs"]
mod targets;

/// Inputs each target runs beyond its corpus. An HTTP response is a loopback round trip that may
/// wait for the job's read timeout (200 ms), so that target gets fewer.
fn executions(target: &str) -> u32 {
    if target == "http_response" { 100 } else { 20_000 }
}

/// Pieces of syntax the parsers care about, inserted by the mutator: YAML flow and anchors, cron
/// specials, item-parameter and assignment separators, numbers at the edges of their types.
const TOKENS: &[&[u8]] = &[
    b"[",
    b"]",
    b"{",
    b"}",
    b"&a ",
    b"*a",
    b"!!str ",
    b": ",
    b"- ",
    b"\n",
    b"'",
    b"\"",
    b"#",
    b"?",
    b"*",
    b"/",
    b"L",
    b"W",
    b"LW",
    b"-",
    b",",
    b"=",
    b"0",
    b"-1",
    b"2147483648",
    b"99999999999999999999",
    b"GMT+",
    b"\0",
    b"\xff",
    b"HTTP/1.1 200 OK\r\n",
    b"\r\n\r\n",
    b"Transfer-Encoding: chunked\r\n",
    b"Content-Length: 5\r\n",
];

/// A xorshift generator: the same inputs on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `input` with one to four random edits: a flipped bit, a replaced byte, a token inserted, a
/// range deleted or repeated, or a piece of another corpus entry spliced in.
fn mutate(rng: &mut Rng, input: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] ^= 1 << rng.below(8);
            }
            1 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] = rng.next() as u8;
            }
            2 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            3 if at < out.len() => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            4 if at < out.len() => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                let piece = out[at..end].repeat(1 + rng.below(8));
                out.splice(at..at, piece);
            }
            _ => {
                let other = &corpus[rng.below(corpus.len())];
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let end = (from + 1 + rng.below(64)).min(other.len());
                    out.splice(at..at, other[from..end].iter().copied());
                }
            }
        }
    }
    out
}

#[test]
fn every_fuzz_target_survives_its_corpus_and_mutations_of_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let on_disk: Vec<String> = std::fs::read_dir(root.join("fuzz_targets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    for name in &on_disk {
        assert!(targets::TARGETS.iter().any(|(t, _)| t == name), "fuzz target {name} has no body in TARGETS");
    }
    for (seed, (name, body)) in targets::TARGETS.iter().enumerate() {
        let dir = root.join("corpus").join(name);
        let mut corpus: Vec<Vec<u8>> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| std::fs::read(e.unwrap().path()).unwrap())
            .collect();
        corpus.sort();
        corpus.push(Vec::new());
        for input in &corpus {
            body(input);
        }
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (seed as u64 + 1));
        for n in 0..executions(name) {
            let base = corpus[rng.below(corpus.len())].clone();
            let input = mutate(&mut rng, &base, &corpus);
            let caught = std::panic::catch_unwind(|| body(&input));
            assert!(
                caught.is_ok(),
                "fuzz target {name} panicked on mutated input {n} ({} bytes): {:?}\nreproduce: cd fuzz && cargo fuzz run -s none {name} FILE (with those bytes)",
                input.len(),
                String::from_utf8_lossy(&input)
            );
        }
        println!("   {name}: {} corpus inputs, {} mutated", corpus.len(), executions(name));
    }
}
