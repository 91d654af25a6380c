//! The planning core: exact resharding plans, traffic, strategies, verification and cycle maths.
//!
//! ## Architecture
//! - [`spec`] reads a user's JSON (one tensor or an inventory) and validates it into a [`model::Reshard`],
//!   reporting every problem with the path of its field.
//! - [`region`] says which box each device holds (DTensor's split rules, nested and strided shards), as
//!   small per-tensor-dim interval tables instead of one box per device.
//! - [`plan`] merges the source and destination tables per tensor dim into pieces, streaming them to a
//!   visitor so that an inventory of millions of pieces needs no memory per piece.
//! - [`traffic`] accumulates the three quantities that must never be confused: unique logical entries,
//!   bytes received by devices, bytes crossing each link; plus the modelled transfer time.
//! - [`verify`] executes a plan on in-memory buffers and compares every destination entry.
//! - [`cycle`] is the whole-cycle arithmetic of an RL loop.
//!
//! No browser types live here: the web UI and the CLI only call this module.

pub mod cycle;
pub mod export;
pub mod geometry;
pub mod lint;
pub mod model;
pub mod models;
pub mod notation;
pub mod partial;
pub mod placement;
pub mod plan;
pub mod presets;
pub mod region;
pub mod spec;
pub mod spec_edit;
pub mod traffic;
pub mod typed;
pub mod verify;
