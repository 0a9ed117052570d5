//! Mail addresses as pbem accepts them. One function, [`normalize`], decides
//! what an address is: it is used when a player registers an address, when
//! the sender of an inbound mail is read, and by the outgoing builder for
//! every recipient, so an address pbem stored is always one it can mail.
//!
//! The rules are deliberately narrower than RFC 5321 allows: a dot-atom
//! local part of printable ASCII (no quoted strings, no source routes), and
//! a domain of ASCII letters, digits and hyphens in dot-separated labels (no
//! address literals like `[1.2.3.4]`, no trailing dot). What passes must
//! also pass lettre's own parser, which the builder and the SMTP envelope
//! use. The domain is lowercased; the local part is kept as written (the
//! store compares addresses case-insensitively).

use lettre::Address;

/// The longest address pbem accepts (RFC 5321's path limit minus `<>`).
pub const MAX_ADDRESS_LEN: usize = 254;
/// The longest local part (RFC 5321 section 4.5.3.1.1).
const MAX_LOCAL_LEN: usize = 64;
/// The longest domain label (RFC 1035).
const MAX_LABEL_LEN: usize = 63;

/// Why a text is not an address pbem accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("\"{0}\" is not a mail address (it needs one @ between a name and a domain)")]
    Shape(String),
    #[error("\"{0}\" is longer than the {MAX_ADDRESS_LEN} characters a mail address may have")]
    TooLong(String),
    #[error(
        "\"{0}\" is not a mail address pbem can write to: use letters, digits and . _ + - before the @"
    )]
    Local(String),
    #[error(
        "\"{0}\" is not a mail address pbem can write to: the domain after the @ must be a host name like example.org"
    )]
    Domain(String),
}

/// The address in `text` (surrounding spaces and one pair of angle
/// brackets allowed), normalized: the domain lowercased.
pub fn normalize(text: &str) -> Result<String, AddressError> {
    let trimmed = text.trim();
    if let Some(known) = ACCEPTED.with_borrow(|accepted| accepted.get(trimmed).cloned()) {
        return Ok(known);
    }
    let normalized = normalize_trimmed(trimmed)?;
    ACCEPTED.with_borrow_mut(|accepted| {
        if accepted.len() >= REMEMBERED_ADDRESSES {
            accepted.clear();
        }
        accepted.insert(trimmed.to_string(), normalized.clone());
    });
    Ok(normalized)
}

/// [`normalize`] of an address seen once (a reply-token address is new in
/// every mail), which remembering would only push the others out for.
pub fn normalize_once(text: &str) -> Result<String, AddressError> {
    normalize_trimmed(text.trim())
}

/// Addresses a thread remembers having accepted (at most about 0.5 MB).
const REMEMBERED_ADDRESSES: usize = 2048;

thread_local! {
    /// Addresses accepted on this thread, with their normal form. The same
    /// addresses come again and again (a mail's sender, its recipients, the
    /// server's own), and lettre's parser, which each must pass, is most
    /// of the cost. Only accepted ones are kept, and the whole is emptied
    /// when full, so a flood of new addresses costs neither memory nor
    /// more time than without it.
    static ACCEPTED: std::cell::RefCell<std::collections::HashMap<String, String>> =
        std::cell::RefCell::default();
}

/// [`normalize`] of a text without surrounding white space.
fn normalize_trimmed(trimmed: &str) -> Result<String, AddressError> {
    let bare = trimmed
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(trimmed);
    let shown = || shorten(bare);
    if bare.len() > MAX_ADDRESS_LEN {
        return Err(AddressError::TooLong(shown()));
    }
    let Some((local, domain)) = bare.split_once('@') else {
        return Err(AddressError::Shape(shown()));
    };
    if local.is_empty() || domain.is_empty() || domain.contains('@') {
        return Err(AddressError::Shape(shown()));
    }
    if !valid_local(local) {
        return Err(AddressError::Local(shown()));
    }
    let domain = domain.to_ascii_lowercase();
    if !valid_domain(&domain) {
        return Err(AddressError::Domain(shown()));
    }
    // The builder and the envelope parse with lettre: it must agree.
    let address = Address::new(local, &domain).map_err(|_| AddressError::Local(shown()))?;
    let normalized = address.to_string();
    if normalized.parse::<lettre::message::Mailbox>().is_err() {
        return Err(AddressError::Local(shown()));
    }
    Ok(normalized)
}

/// A dot-atom of RFC 5322's `atext`.
fn valid_local(local: &str) -> bool {
    local.len() <= MAX_LOCAL_LEN
        && local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~-".contains(&b))
        })
}

/// Host-name labels of letters, digits and inner hyphens.
fn valid_domain(domain: &str) -> bool {
    domain.split('.').all(|label| {
        (1..=MAX_LABEL_LEN).contains(&label.len())
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    })
}

/// An address as shown in an error message: printable, and not too long.
fn shorten(text: &str) -> String {
    let printable: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(80)
        .collect();
    if text.chars().count() > 80 {
        format!("{printable}...")
    } else {
        printable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_address_is_the_one_normalize_would_make() {
        for text in [
            "Bob@Example.ORG",
            " <Bob@Example.ORG> ",
            "a!#$%&*/=?^`{|}~@x.example",
        ] {
            let first = normalize(text).expect("accepted");
            assert_eq!(normalize(text).expect("remembered"), first);
            assert_eq!(normalize_trimmed(text.trim()).expect("again"), first);
        }
        // Refusals are never remembered as accepted.
        for _ in 0..2 {
            assert!(normalize("a@[1.2.3.4]").is_err());
        }
    }

    #[test]
    fn a_flood_of_new_addresses_is_not_all_remembered() {
        for i in 0..3 * REMEMBERED_ADDRESSES {
            normalize(&format!("player{i}@example.org")).expect("accepted");
        }
        assert!(ACCEPTED.with_borrow(|accepted| accepted.len()) <= REMEMBERED_ADDRESSES);
    }

    #[test]
    fn addresses_lettre_cannot_use_are_refused() {
        for bad in [
            "a@",
            "@b",
            "a@x..org",
            "a@x.org.",
            "\"a b\"@x.org",
            "<@relay:bob@x.org>",
            "@relay:bob@x.org",
            "a\0b@x.org",
            "a@x\0.org",
            "a@[1.2.3.4]",
            "a b@x.org",
            "a@b@c.org",
            ".a@x.org",
            "a.@x.org",
            "a..b@x.org",
            "a@-x.org",
            "a@x_y.org",
            "",
            "plain",
            "ä@x.org",
        ] {
            assert!(normalize(bad).is_err(), "{bad:?} is accepted");
        }
        let long = format!("{}@x.org", "a".repeat(MAX_LOCAL_LEN + 1));
        assert!(normalize(&long).is_err());
        let long_domain = format!("a@{}.org", "b".repeat(300));
        assert!(matches!(
            normalize(&long_domain),
            Err(AddressError::TooLong(_))
        ));
    }

    #[test]
    fn addresses_are_normalized_and_every_accepted_one_builds() {
        assert_eq!(normalize(" <Eve@EVIL.org> ").as_deref(), Ok("Eve@evil.org"));
        for good in [
            "alice@example.org",
            "a+b@localhost",
            "o'brien@x-y.example",
            "x@a.b.c.d",
        ] {
            let address = normalize(good).expect(good);
            assert!(address.parse::<lettre::message::Mailbox>().is_ok());
            assert!(address.parse::<Address>().is_ok());
        }
    }
}
