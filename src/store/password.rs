//! Passwords: only ever stored as argon2id hashes in the PHC string form
//! (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`), with a fresh random
//! salt each time and the OWASP parameters (19 MiB of memory, 2 passes, one
//! lane).
//!
//! Hashing and checking cost milliseconds (tens of them, more in an
//! unoptimised build) and 19 MiB of memory **by design**: that is what makes
//! a stolen database expensive to attack. Check a password once per mail,
//! not in a loop.

use std::fmt;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use super::{Result, StoreError};

/// Memory cost in KiB (OWASP: at least 19456).
pub const ARGON2_M_KIB: u32 = 19_456;
/// Passes over the memory (OWASP: at least 2 with 19 MiB).
pub const ARGON2_T: u32 = 2;
/// Lanes.
pub const ARGON2_P: u32 = 1;

fn hasher() -> Result<Argon2<'static>> {
    let params = Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None)
        .map_err(|e| StoreError::Password(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// An argon2id PHC string. It can only be made by hashing
/// ([`hash_password`]) or by [`PasswordHash::parse`] of a well-formed
/// argon2id string, so a plain password cannot be passed where a hash goes.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

impl PasswordHash {
    /// Accepts `phc` if it is a well-formed argon2id PHC string.
    pub fn parse(phc: &str) -> Result<PasswordHash> {
        let parsed = argon2::password_hash::PasswordHash::new(phc)
            .map_err(|e| StoreError::Password(format!("not a PHC string: {e}")))?;
        if parsed.algorithm != Algorithm::Argon2id.ident() {
            return Err(StoreError::Password(format!(
                "{} is not argon2id",
                parsed.algorithm
            )));
        }
        if parsed.hash.is_none() || parsed.salt.is_none() {
            return Err(StoreError::Password(
                "PHC string without salt or hash".into(),
            ));
        }
        Ok(PasswordHash(phc.to_string()))
    }

    /// The PHC string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `plain` is the password (constant-time comparison of the
    /// hashes, by the argon2 crate). Costs milliseconds by design.
    pub fn verify(&self, plain: &str) -> bool {
        verify_password(plain, &self.0)
    }
}

impl fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The parameters are no secret; the salt and hash need not be printed.
        let params = self.0.split('$').take(4).collect::<Vec<_>>().join("$");
        write!(f, "PasswordHash({params}$…)")
    }
}

impl ToSql for PasswordHash {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(self.0.as_str().into())
    }
}

impl FromSql for PasswordHash {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        // The column's CHECK already insists on argon2id; keep it cheap.
        Ok(PasswordHash(value.as_str()?.to_string()))
    }
}

/// Hashes `plain` with argon2id (m = 19456 KiB, t = 2, p = 1) and a fresh
/// random 16-byte salt. Costs milliseconds by design.
pub fn hash_password(plain: &str) -> Result<PasswordHash> {
    let salt = SaltString::generate(&mut OsRng);
    let hash = hasher()?
        .hash_password(plain.as_bytes(), &salt)
        .map_err(|e| StoreError::Password(e.to_string()))?;
    Ok(PasswordHash(hash.to_string()))
}

/// Whether `plain` matches the argon2id PHC string `phc`, using the
/// parameters written in it. False for a malformed or non-argon2id string.
/// The comparison is constant-time (the argon2 crate); the check costs
/// milliseconds by design.
pub fn verify_password(plain: &str, phc: &str) -> bool {
    let Ok(parsed) = argon2::password_hash::PasswordHash::new(phc) else {
        return false;
    };
    if parsed.algorithm != Algorithm::Argon2id.ident() {
        return false;
    }
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    // The parameters written in the hash (the output length included).
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    let Ok(version) = parsed.version.map_or(Ok(Version::V0x13), Version::try_from) else {
        return false;
    };
    let mut salt_buf = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let mut out = [0u8; argon2::password_hash::Output::MAX_LENGTH];
    let out = &mut out[..expected.len()];
    let argon = Argon2::new(Algorithm::Argon2id, version, params);
    let hashed = with_blocks(argon.params().block_count(), |blocks| {
        argon.hash_password_into_with_memory(plain.as_bytes(), salt, out, blocks)
    });
    // `Output`'s equality is constant-time.
    hashed.is_ok() && argon2::password_hash::Output::new(out).is_ok_and(|o| o == expected)
}

/// The largest argon2 memory kept between checks (in 1 KiB blocks): 64 MiB.
const KEPT_BLOCKS: usize = 64 * 1024;

thread_local! {
    /// argon2's working memory, kept from one check to the next: allocating
    /// 19 MiB afresh costs the kernel a zeroed page per 4 KiB touched, then
    /// a pass to zero it again, a third of a check's time. It holds only
    /// what is derived from the last password checked, no more sensitive
    /// than the plain passwords the process reads in every mail.
    static BLOCKS: std::cell::RefCell<Vec<argon2::Block>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` on `count` blocks of argon2 memory, reused between calls on
/// this thread (a first pass overwrites every block: no need to clear).
fn with_blocks<R>(count: usize, f: impl FnOnce(&mut [argon2::Block]) -> R) -> R {
    if count > KEPT_BLOCKS {
        return f(&mut vec![argon2::Block::default(); count]);
    }
    BLOCKS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut blocks) => {
            if blocks.len() < count {
                blocks.resize(count, argon2::Block::default());
            }
            f(&mut blocks[..count])
        }
        // Not reentrant; a nested call gets its own memory.
        Err(_) => f(&mut vec![argon2::Block::default(); count]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reused working memory gives the crate's own answers whatever
    /// the parameters, in any order (larger, smaller, other lanes and
    /// output lengths).
    #[test]
    fn reused_memory_verifies_like_the_crate() {
        use argon2::password_hash::PasswordVerifier;
        let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
        let mut hashes = Vec::new();
        for (m, t, p, len) in [
            (64, 2, 2, 32),
            (8, 1, 1, 16),
            (256, 3, 1, 64),
            (32, 1, 4, 32),
        ] {
            let params = Params::new(m, t, p, Some(len)).unwrap();
            let phc = Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
                .hash_password(b"hunter2", &salt)
                .unwrap()
                .to_string();
            hashes.push(phc);
        }
        for phc in hashes.iter().chain(hashes.iter().rev()) {
            let parsed = argon2::password_hash::PasswordHash::new(phc).unwrap();
            for plain in ["hunter2", "hunter3", ""] {
                let theirs = Argon2::default()
                    .verify_password(plain.as_bytes(), &parsed)
                    .is_ok();
                assert_eq!(verify_password(plain, phc), theirs, "{phc} {plain:?}");
                assert_eq!(theirs, plain == "hunter2");
            }
        }
    }
}
