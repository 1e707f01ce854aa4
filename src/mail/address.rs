//! A mail address: `local@domain`, validated by lettre, with an optional
//! display name.
//!
//! lettre's [`lettre::Address`] checks the two halves; what is ours is the
//! forms a player writes (`Name <a@b>`, `a@b (Name)`, a trailing dot),
//! the lower-cased domain, and equality ignoring case (see [`Address`]).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// A validated mailbox address (`local@domain`) with an optional display
/// name.
///
/// The domain is stored lower-cased; the local part keeps its case for
/// display, but equality and hashing ignore ASCII case in both halves
/// (every mail system a player uses treats `Bob@x` and `bob@x` alike) and
/// ignore the display name.
#[derive(Clone, Debug)]
pub struct Address {
    name: Option<String>,
    /// `local@domain`, the domain lower-cased.
    spec: lettre::Address,
}

/// Why a string is not a usable address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressError {
    /// Nothing but white space.
    Empty,
    /// No `@`, or nothing on one side of it.
    NotLocalAtDomain,
    /// The local part (before the `@`) has characters a mailbox cannot have.
    BadLocalPart,
    /// The domain is not a host name or an address literal.
    BadDomain,
    /// `<` without a matching `>`, or text after the `>`.
    BadBrackets,
}

impl fmt::Display for AddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AddressError::Empty => "empty address",
            AddressError::NotLocalAtDomain => "not of the form local@domain",
            AddressError::BadLocalPart => "bad characters before the @",
            AddressError::BadDomain => "bad domain after the @",
            AddressError::BadBrackets => "unbalanced <...>",
        })
    }
}

impl std::error::Error for AddressError {}

impl Address {
    /// A bare `local@domain` (surrounding white space and one pair of angle
    /// brackets are tolerated).
    pub fn new(addr_spec: &str) -> Result<Address, AddressError> {
        let mut s = addr_spec.trim();
        if let Some(inner) = s.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
            s = inner.trim();
        }
        if s.is_empty() {
            return Err(AddressError::Empty);
        }
        let at = s.rfind('@').ok_or(AddressError::NotLocalAtDomain)?;
        let (local, domain) = (&s[..at], &s[at + 1..]);
        if local.is_empty() || domain.is_empty() {
            return Err(AddressError::NotLocalAtDomain);
        }
        let domain = domain.strip_suffix('.').unwrap_or(domain).to_lowercase();
        let spec = lettre::Address::new(local, &domain).map_err(|e| match e {
            lettre::address::AddressError::InvalidUser => AddressError::BadLocalPart,
            lettre::address::AddressError::InvalidDomain => AddressError::BadDomain,
            _ => AddressError::NotLocalAtDomain,
        })?;
        Ok(Address { name: None, spec })
    }

    /// Any of the usual forms: `a@b`, `<a@b>`, `Name <a@b>`,
    /// `"Name, Jr." <a@b>`, `a@b (Name)`.
    pub fn parse(s: &str) -> Result<Address, AddressError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(AddressError::Empty);
        }
        if let Some(open) = s.rfind('<') {
            let rest = &s[open + 1..];
            let close = rest.find('>').ok_or(AddressError::BadBrackets)?;
            if !rest[close + 1..].trim().is_empty() {
                return Err(AddressError::BadBrackets);
            }
            let addr = Address::new(&rest[..close])?;
            return Ok(addr.with_name(unquote_name(&s[..open])));
        }
        if s.contains('>') {
            return Err(AddressError::BadBrackets);
        }
        // `a@b (Name)`: the old comment form.
        if let Some(open) = s.find('(') {
            let comment = s[open + 1..].trim_end();
            let comment = comment.strip_suffix(')').unwrap_or(comment);
            let addr = Address::new(&s[..open])?;
            return Ok(addr.with_name(comment));
        }
        Address::new(s)
    }

    /// The same address with a display name (blank names are dropped).
    pub fn with_name(mut self, name: impl AsRef<str>) -> Address {
        let name: String = name
            .as_ref()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        self.name = if name.is_empty() { None } else { Some(name) };
        self
    }

    /// The display name, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The part before the `@`, as written.
    pub fn local(&self) -> &str {
        self.spec.user()
    }

    /// The part after the `@`, lower-cased.
    pub fn domain(&self) -> &str {
        self.spec.domain()
    }

    /// `local@domain`, without the name (the same as `to_string()`).
    pub fn addr_spec(&self) -> String {
        self.spec.to_string()
    }

    /// The address with its name, as lettre writes it in a header.
    pub fn mailbox(&self) -> lettre::message::Mailbox {
        lettre::message::Mailbox::new(self.name.clone(), self.spec.clone())
    }
}

/// `MAILER-DAEMON` or `postmaster`, in any case: the local part of a
/// machine's address, whose mail is never answered.
pub(crate) fn is_daemon_local(local: &str) -> bool {
    local.eq_ignore_ascii_case("mailer-daemon") || local.eq_ignore_ascii_case("postmaster")
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.spec)
    }
}

impl FromStr for Address {
    type Err = AddressError;
    fn from_str(s: &str) -> Result<Address, AddressError> {
        Address::parse(s)
    }
}

impl PartialEq for Address {
    fn eq(&self, other: &Address) -> bool {
        self.local().eq_ignore_ascii_case(other.local()) && self.domain() == other.domain()
    }
}

impl Eq for Address {}

impl Hash for Address {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.local().to_ascii_lowercase().hash(state);
        self.domain().hash(state);
    }
}

fn unquote_name(raw: &str) -> String {
    let raw = raw.trim();
    match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) => {
            let mut out = String::with_capacity(inner.len());
            let mut chars = inner.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                } else {
                    out.push(c);
                }
            }
            out
        }
        None => raw.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let a = Address::parse("\"Doe, John\" <John.Doe@Example.ORG>").unwrap();
        assert_eq!(a.name(), Some("Doe, John"));
        assert_eq!(a.to_string(), "John.Doe@example.org");
        assert_eq!(a, Address::new("john.doe@example.org").unwrap());
        let b = Address::parse("jd@example.org (John Doe)").unwrap();
        assert_eq!(b.name(), Some("John Doe"));
        assert_eq!(Address::parse("<x@y.z>").unwrap().name(), None);
        assert_eq!(Address::parse("x@y.z.").unwrap().domain(), "y.z");
        assert_eq!(
            Address::parse("nobody"),
            Err(AddressError::NotLocalAtDomain)
        );
        assert_eq!(Address::parse("a b@c.d"), Err(AddressError::BadLocalPart));
        assert_eq!(Address::parse("a@c..d"), Err(AddressError::BadDomain));
        assert_eq!(Address::parse("A <a@b.c"), Err(AddressError::BadBrackets));
        assert_eq!(Address::parse("@b.c"), Err(AddressError::NotLocalAtDomain));
        assert!(is_daemon_local(
            Address::parse("MAILER-DAEMON@mx.example.net")
                .unwrap()
                .local()
        ));
        assert!(Address::parse("a@[192.0.2.1]").is_ok());
    }
}
