//! Sharing state without a server: the URL fragment codec and the text form documentation authors write.
//!
//! No browser types: the UI reads and writes `location.hash` and calls these.

pub mod fragment;
pub mod text;
