//! Passwords are argon2id hashes that cost milliseconds to check, by
//! design. A mail server's worth of order mails must not pay that for
//! every mail, so a seat's password, once verified, is remembered in
//! memory as a keyed digest (the key is random per process; the plain
//! password is never kept), and later checks compare digests. A batch of
//! mails may have its sign-ons verified ahead, on every core
//! ([`CredentialCache::unknown`]), before its mails are handled one
//! by one.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};

use argon2::password_hash::rand_core::{OsRng, RngCore};
use blake2::digest::{FixedOutput, KeyInit, Update};
use blake2::Blake2bMac512;

use crate::game::sign_on::PasswordHash;

pub struct CredentialCache {
    key: [u8; 32],
    /// PHC string (unique per seat: its salt is random) to the digest of
    /// the password that verified against it.
    verified: HashMap<String, [u8; 64]>,
}

impl Default for CredentialCache {
    fn default() -> Self {
        Self::new()
    }
}

impl CredentialCache {
    pub fn new() -> CredentialCache {
        let mut key = [0u8; 32];
        OsRng.fill_bytes(&mut key);
        CredentialCache {
            key,
            verified: HashMap::new(),
        }
    }

    fn digest(&self, hash: &PasswordHash, plain: &str) -> [u8; 64] {
        let mut mac = <Blake2bMac512 as KeyInit>::new_from_slice(&self.key).expect("32-byte key");
        mac.update(hash.as_str().as_bytes());
        mac.update(&[0]);
        mac.update(plain.as_bytes());
        mac.finalize_fixed().into()
    }

    /// Whether `plain` is the password of `hash`.
    pub fn check(&mut self, plain: &str, hash: &PasswordHash) -> bool {
        if self.knows(plain, hash) {
            return true;
        }
        if hash.verify(plain) {
            let digest = self.digest(hash, plain);
            self.verified.insert(hash.as_str().to_string(), digest);
            true
        } else {
            false
        }
    }

    /// Whether `plain` is known to be the password of `hash` (no argon2id).
    fn knows(&self, plain: &str, hash: &PasswordHash) -> bool {
        self.verified
            .get(hash.as_str())
            .is_some_and(|known| constant_time_eq(known, &self.digest(hash, plain)))
    }

    /// Those of `sign_ons` (a hash and the password given for it) not
    /// known yet, each once: to be verified away from the cache, as many
    /// at once as there are cores ([`SignOnsToVerify::verify`]), while it
    /// serves the mails before them; then [`Self::remember`] those that
    /// match, so the mails they came in, handled one by one, find them
    /// known. A wrong password is never remembered: its mail checks it
    /// again, in order, where failures are counted and answered.
    pub fn unknown(&self, sign_ons: Vec<(PasswordHash, String)>) -> SignOnsToVerify {
        let mut seen = HashSet::new();
        SignOnsToVerify(
            sign_ons
                .into_iter()
                .filter(|(hash, plain)| !self.knows(plain, hash))
                .filter(|(hash, plain)| seen.insert(self.digest(hash, plain)))
                .collect(),
        )
    }

    /// Remembers the sign-ons verified to match; how many.
    pub fn remember(&mut self, matched: VerifiedSignOns) -> usize {
        for (hash, plain) in &matched.0 {
            let digest = self.digest(hash, plain);
            self.verified.insert(hash.as_str().to_string(), digest);
        }
        matched.0.len()
    }
}

/// Sign-ons to verify: a hash and the password given for it.
#[derive(Default)]
pub struct SignOnsToVerify(Vec<(PasswordHash, String)>);

/// The sign-ons of a [`SignOnsToVerify`] whose password matched.
pub struct VerifiedSignOns(Vec<(PasswordHash, String)>);

impl SignOnsToVerify {
    /// Each verified, as many at once as there are cores; those that match.
    pub fn verify(self) -> VerifiedSignOns {
        let matched = verify_on_every_core(&self.0).into_iter().cloned().collect();
        VerifiedSignOns(matched)
    }
}

/// Those of `sign_ons` whose password matches its hash, checked on every
/// core (each check is milliseconds of one core's work, by design).
fn verify_on_every_core(sign_ons: &[(PasswordHash, String)]) -> Vec<&(PasswordHash, String)> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = cores.min(sign_ons.len());
    if workers <= 1 {
        return sign_ons.iter().filter(|(h, p)| h.verify(p)).collect();
    }
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let worker = || {
            let mut matched = Vec::new();
            while let Some(sign_on) = sign_ons.get(next.fetch_add(1, Ordering::Relaxed)) {
                if sign_on.0.verify(&sign_on.1) {
                    matched.push(sign_on);
                }
            }
            matched
        };
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(worker)).collect();
        // A worker that died leaves its passwords to be checked in order.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

fn constant_time_eq(a: &[u8; 64], b: &[u8; 64]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
