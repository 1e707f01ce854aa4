//! Passwords are argon2id hashes that cost milliseconds to check, by
//! design. A mail server's worth of order mails must not pay that for
//! every mail, so a seat's password, once verified, is remembered in
//! memory as a keyed digest (the key is random per process; the plain
//! password is never kept), and later checks compare digests.

use std::collections::HashMap;

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
        let digest = self.digest(hash, plain);
        if let Some(known) = self.verified.get(hash.as_str()) {
            if constant_time_eq(known, &digest) {
                return true;
            }
        }
        if hash.verify(plain) {
            self.verified.insert(hash.as_str().to_string(), digest);
            true
        } else {
            false
        }
    }
}

fn constant_time_eq(a: &[u8; 64], b: &[u8; 64]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
