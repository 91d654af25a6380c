//! The app's one state struct and the core results derived from it.

use leptos::prelude::*;

use crate::core::{
    model::Reshard,
    plan::{self, Piece, Strategy},
    traffic::{self, Totals},
};

/// What the user is looking at, plus the core's answers for it.
///
/// Provided once by [`super::App`]; components read it with `expect_context::<AppState>()`. The derived
/// fields are memos: the core runs once per change of `reshard` or `strategy`, never while rendering.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The layout change being explained.
    pub reshard: RwSignal<Reshard>,
    /// How destinations get their data.
    pub strategy: RwSignal<Strategy>,
    /// Every piece of the plan in planning order, or the core's message when the change cannot be planned.
    pub pieces: Memo<Result<Vec<Piece>, String>>,
    /// The headline traffic numbers, or the core's message.
    pub totals: Memo<Result<Totals, String>>,
}

impl AppState {
    pub fn new(reshard: Reshard, strategy: Strategy) -> AppState {
        let reshard = RwSignal::new(reshard);
        let strategy = RwSignal::new(strategy);
        let pieces = Memo::new(move |_| reshard.with(|r| plan::plan(r, strategy.get()).map(|p| p.pieces)));
        let totals = Memo::new(move |_| reshard.with(|r| traffic::analyse(r, strategy.get()).map(|t| t.totals())));
        AppState { reshard, strategy, pieces, totals }
    }
}
