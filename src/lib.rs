//! Reshard Lens: see which piece of which source shard every destination device needs, what it costs on
//! each link, and check that the result is right.
//!
//! [`core`] is the planning core (no browser types); `ui` is the Leptos app built for the web.

pub mod chart;
pub mod core;
pub mod explain;
pub mod share;
#[cfg(feature = "web")]
pub mod ui;
