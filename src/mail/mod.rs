//! Mail in and mail out, as values: no IO, no clock.
//!
//! - [`read_mail`] turns the raw bytes of one inbound mail into an
//!   [`Incoming`]: its addresses and ids, the command text as clean lines
//!   (quotes, attributions, signatures and everything after `SIGNOFF` cut
//!   away), and whether it was written by a machine ([`AutoReason`]) and so
//!   must never be answered.
//! - [`render`] turns a [`Letter`] into a complete RFC 5322 message
//!   (CRLF line endings; dot-stuffing is the SMTP layer's job), built with
//!   lettre's message builder.
//! - [`Address`] is a validated `local@domain` with an optional display name.
//!
//! MIME decoding (multipart, quoted-printable, base64, charsets) is done by
//! the `mail-parser` crate, MIME encoding by `lettre`; the rest is ours.

mod address;
mod body;
mod html;
pub mod limit;
mod pictures;
mod read;
mod render;

pub use address::{Address, AddressError};
pub use body::command_lines;
pub use html::html_to_text;
pub use pictures::{
    fill_pictures, fill_pictures_instead, has_pictures, picture_body, picture_references,
    PicturePart, NOT_DRAWN,
};
pub use read::{read_mail, AutoReason, Incoming, MailError};
pub use render::{new_message_id, render, Letter, Renderer};
