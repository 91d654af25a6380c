//! Sharing state without a server: the URL fragment codec, the text form documentation authors write, the
//! embed snippet, and reading files the user opens.
//!
//! No browser types: the UI reads and writes `location.hash`, the clipboard and files, and calls these.

pub mod cycle_text;
pub mod embed;
pub mod fragment;
pub mod import;
pub mod text;
