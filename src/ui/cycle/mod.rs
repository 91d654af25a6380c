//! The cycle calculator (being built): what a faster refit does to the whole RL cycle.

use leptos::prelude::*;

use crate::core::cycle::{CycleSpec, parse_cycle};

/// The cycle being explained; shared by the cycle view's components.
#[derive(Clone, Copy)]
pub struct CycleState {
    pub spec: RwSignal<CycleSpec>,
}

impl CycleState {
    /// Opens a cycle preset (`cycle-120`, `cycle-160`, `cycle-queue`, `cycle-overlap`).
    pub fn from_preset(name: &str) -> CycleState {
        let text = match name {
            "cycle-160" => include_str!("../../../examples/cycle-160.json"),
            "cycle-queue" => include_str!("../../../examples/cycle-queue.json"),
            "cycle-overlap" => include_str!("../../../examples/cycle-overlap.json"),
            _ => include_str!("../../../examples/cycle-120.json"),
        };
        let spec = parse_cycle(text).unwrap_or_else(|_| CycleSpec { stages: Vec::new(), refit: None, speedup: 1.0 });
        CycleState { spec: RwSignal::new(spec) }
    }
}

#[component]
pub fn CycleView() -> impl IntoView {
    view! { <main class="main cycle-view" data-testid="cycle-view"></main> }
}
