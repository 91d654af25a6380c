//! The app's one state struct: the spec as the user edits it, and everything the core derives from it.

use std::sync::Arc;

use leptos::prelude::*;

use super::after_paint::after_paint;
use crate::core::model::Reshard;
use crate::core::plan::{Piece, Strategy};
use crate::core::presets;
use crate::core::region::{DeviceRegion, device_regions};
use crate::core::spec::{SpecError, SpecInput, parse_input, validate};
use crate::core::traffic::{Estimate, PlanSummary, Totals, analyse, summarise};
use crate::core::verify::{Fault, Verification};

/// Plans with more pieces than this are drawn as aggregates; their pieces are not kept in memory.
pub const PIECE_LIMIT: usize = 20_000;
/// The source × destination heatmap has at most this many rows and columns.
pub const HEATMAP_SIDE: usize = 48;
/// The piece table lists at most this many rows (the pictures show the rest).
pub const TABLE_LIMIT: usize = 500;

/// Which mesh a device is shown in (a colocated device appears in both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Source,
    Destination,
}

/// What the pointer or keyboard focus is on; every view highlights what relates to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Focus {
    #[default]
    Nothing,
    Device {
        side: Side,
        device: u32,
    },
    /// A piece, by index in the current summary's pieces.
    Piece(usize),
}

/// How the tensor view shows the tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewChoice {
    /// Which tensor of an inventory is drawn.
    pub tensor: usize,
    /// The tensor dims drawn as rows and columns (equal for rank 1).
    pub row_dim: usize,
    pub col_dim: usize,
    /// For every other dim, the index shown (the slice); entries for the drawn dims are ignored.
    pub slice: Vec<u64>,
    /// Draw the whole-shard transfer: what each receiver discards, hatched.
    pub show_whole_shard: bool,
}

impl ViewChoice {
    /// The natural view of a tensor of `rank`: dims 0 × 1 (or 0 alone), slice at index 0.
    pub fn for_rank(tensor: usize, rank: usize) -> ViewChoice {
        ViewChoice {
            tensor,
            row_dim: 0,
            col_dim: if rank > 1 { 1 } else { 0 },
            slice: vec![0; rank],
            show_whole_shard: false,
        }
    }

    /// This view made possible for tensor `index` of `shape`: the natural view when its dims do not fit (a
    /// dim the tensor no longer has, rows and columns on the same dim, another tensor), else the same view
    /// with each slice index within its dim. A link or an undo step can bring any view beside any tensor.
    pub fn fitted(&self, index: usize, shape: &[u64]) -> ViewChoice {
        let rank = shape.len();
        let dims_fit =
            self.row_dim < rank.max(1) && self.col_dim < rank.max(1) && (rank <= 1 || self.row_dim != self.col_dim);
        if self.tensor != index || self.slice.len() != rank || !dims_fit {
            return ViewChoice { show_whole_shard: self.show_whole_shard, ..ViewChoice::for_rank(index, rank) };
        }
        let slice = self.slice.iter().zip(shape).map(|(&at, &extent)| at.min(extent.saturating_sub(1))).collect();
        ViewChoice { slice, ..self.clone() }
    }
}

/// A memo payload compared by identity: a recomputation always notifies, and it only happens when an input
/// changed. Avoids deep comparisons of large plans.
#[derive(Debug)]
pub struct Fresh<T>(pub Arc<T>);

impl<T> Clone for Fresh<T> {
    fn clone(&self) -> Self {
        Fresh(Arc::clone(&self.0))
    }
}
impl<T> PartialEq for Fresh<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl<T> std::ops::Deref for Fresh<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What the constraint check found ([`crate::core::lint::lint`]), compared by identity.
pub type LintFindings = Fresh<Result<Vec<crate::core::lint::Finding>, String>>;

/// One row of the strategy comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyRow {
    pub strategy: Strategy,
    pub totals: Totals,
    pub estimate: Estimate,
}

/// Where each device of both meshes sits, for the tensor being viewed.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Regions {
    pub source: Vec<DeviceRegion>,
    pub destination: Vec<DeviceRegion>,
}

/// The whole app's state. `Copy` (all fields are arena handles), provided once by the app and read with
/// `expect_context::<AppState>()`.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The spec as typed: the source of truth, kept even while invalid so nothing typed is lost. Edits
    /// update it; a whole new spec (a preset, a link, undo, a file) goes through [`AppState::replace_input`].
    pub input: RwSignal<SpecInput>,
    /// The draft generation in effect ([`crate::ui::editor::field::FieldDrafts`]): a new one for each whole
    /// new spec, whose fields then drop text that did not parse, even where the new spec's value equals the
    /// old (which alone would not tell them anything happened), or show the drafts undo carried into it.
    pub replaced: RwSignal<u64>,
    /// The layout editors' unread texts, by generation (provided to the fields as a context too).
    pub drafts: super::editor::FieldDrafts,
    /// Bumped by each history step restored (Back, Forward, undo): the fields are drawn anew with the
    /// drafts of the step, and only they. (Redrawing the whole view for it made undo cost 2.5 times an edit
    /// on the `large` preset: every picture and table was built again from nothing.)
    pub restored: RwSignal<u64>,
    /// The core's verdict on `input`.
    pub checked: Memo<Result<Reshard, SpecError>>,
    /// The last valid change: what every picture shows (it stays while the input is invalid).
    pub reshard: Memo<Reshard>,
    /// The spec `reshard` was made from: a link made while the input is invalid carries it, to open on the
    /// same picture ([`crate::share::fragment::SharedState::shown`]).
    pub valid_input: StoredValue<SpecInput>,
    pub strategy: RwSignal<Strategy>,
    /// The current strategy's plan: traffic, pair matrix, and pieces when few enough.
    pub summary: Memo<Fresh<Result<PlanSummary, String>>>,
    /// `summary` one paint after an edit: what the panels below the pictures read (see `after_paint.rs`).
    pub settled: ReadSignal<Fresh<Result<PlanSummary, String>>>,
    /// The first [`TABLE_LIMIT`] pieces of the settled plan (empty when the plan is drawn as aggregates).
    pub pieces: Memo<Result<Vec<Piece>, String>>,
    /// The current plan's headline numbers.
    pub totals: Memo<Result<Totals, String>>,
    /// Every strategy's headline numbers, for the comparison. They depend on the change only: a strategy
    /// switch keeps them.
    pub comparison: Memo<Fresh<Vec<StrategyRow>>>,
    /// Counts the changes of `reshard`, one paint after each. The panels that follow the change but not the
    /// strategy shown (the comparison, the constraint check, the relay note, the partial sums) track this,
    /// not `settled`: tracking `settled`, a strategy switch planned the change four more times for nothing.
    pub settled_change: ReadSignal<u64>,
    /// What the plans read of the change ([`Reshard::plan_key`]: not its tensors' names, nor the cost
    /// model's prices).
    pub plan_key: Memo<Reshard>,
    /// What the constraint check reads ([`Reshard::check_key`]: the plan key with the cost model).
    pub check_key: Memo<Reshard>,
    /// Counts the changes of `check_key`, one paint after each: what a panel whose counts do not depend on
    /// names tracks (a renamed 65,536-device change was checked again for every key typed).
    pub settled_check: ReadSignal<u64>,
    /// The constraint check of the change counted by `settled_check`, kept here: Back and undo draw the
    /// view anew, and its panel checked the change again (81,000 tensors: 3.5 s, review 43).
    pub lint_kept: StoredValue<Option<(u64, LintFindings)>>,
    pub regions: Memo<Fresh<Regions>>,
    pub focus: RwSignal<Focus>,
    pub view: RwSignal<ViewChoice>,
    pub fault: RwSignal<Option<Fault>>,
    /// The last correctness check, cleared whenever the change is edited.
    pub verification: RwSignal<Option<Result<Verification, String>>>,
    /// The pieces of the tensor in view, planned alone, when the plan has more pieces than it keeps (read
    /// through [`AppState::with_drawn_pieces`]).
    tensor_pieces: Memo<Fresh<Option<Vec<Piece>>>>,
}

impl AppState {
    /// State opened on `input` (a preset's or a user's spec).
    pub fn new(input: SpecInput) -> AppState {
        let input = RwSignal::new(input);
        let checked = Memo::new(move |_| input.with(validate));
        let valid_input = StoredValue::new(parse_input(presets::PRESETS[0].spec).unwrap_or_default());
        let reshard = Memo::new(move |previous: Option<&Reshard>| match checked.get() {
            Ok(reshard) => {
                valid_input.set_value(input.get_untracked());
                reshard
            }
            Err(_) => previous.cloned().unwrap_or_else(presets::toy),
        });
        let strategy = RwSignal::new(Strategy::Intersection);
        // What the plans read of the change (not its tensors' names): typing a name no longer re-plans.
        // The plans are made from the change itself, read untracked, so their names are current when made;
        // the views take names from `reshard`.
        // Read with `with`, not `track`: a memo only tracked is never computed, never follows `reshard`, and
        // nothing that tracked it re-ran (the browser tests caught it; the app's constraint check read it).
        // Nor its prices: a new bandwidth or latency re-prices the plans made (`Traffic::reprice`), where each
        // key typed planned a 4,096-device crossing three times again (~1 s a strategy).
        let check_key = Memo::new(move |_| reshard.with(Reshard::check_key));
        let plan_key = Memo::new(move |_| check_key.with(Reshard::plan_key));
        let cost_model = Memo::new(move |_| reshard.with(|r| r.topology));
        // Each strategy's plan of this change is kept until the change is another: a strategy picked again
        // (from the comparison, or by Back) is not planned again (81,000 tensors took 6 s to plan back,
        // review 43).
        let plan_generation = Memo::new(move |previous: Option<&u64>| {
            plan_key.with(|_| ());
            previous.map_or(0, |g| g + 1)
        });
        let made = StoredValue::new(Vec::<(u64, Strategy, Fresh<Result<PlanSummary, String>>)>::new());
        let planned = Memo::new(move |_| {
            let strategy = strategy.get();
            let generation = plan_generation.get();
            let kept = made.with_value(|made| {
                made.iter().find(|(g, s, _)| *g == generation && *s == strategy).map(|(_, _, plan)| plan.clone())
            });
            kept.unwrap_or_else(|| {
                let plan = Fresh(Arc::new(super::timing::measured("plan", || {
                    reshard.with_untracked(|r| summarise(r, strategy, PIECE_LIMIT, HEATMAP_SIDE))
                })));
                made.update_value(|made| {
                    made.retain(|(g, _, _)| *g == generation);
                    made.push((generation, strategy, plan.clone()));
                });
                plan
            })
        });
        // The plan priced with the change's cost model: the plan itself when it was made with it.
        let summary = Memo::new(move |_| {
            let topology = cost_model.get();
            let planned = planned.get();
            match &*planned {
                Ok(plan) if plan.traffic.topology() != topology => {
                    let mut priced = plan.clone();
                    priced.traffic.reprice(topology).map_or(planned.clone(), |()| Fresh(Arc::new(Ok(priced))))
                }
                _ => planned.clone(),
            }
        });
        let settled = after_paint(move || summary.track(), move || summary.get_untracked());
        let pieces = Memo::new(move |_| {
            settled.with(|s| match &**s {
                Ok(summary) => {
                    Ok(summary.pieces.as_deref().map_or_else(Vec::new, |p| p[..p.len().min(TABLE_LIMIT)].to_vec()))
                }
                Err(e) => Err(e.clone()),
            })
        });
        let totals = Memo::new(move |_| {
            summary.with(|s| match &**s {
                Ok(summary) => Ok(summary.traffic.totals()),
                Err(e) => Err(e.clone()),
            })
        });
        // The current strategy's traffic comes from `planned` (already planned for this change: an untracked
        // read brings it up to date); only the other two are planned here, and all three priced below.
        let compared = Memo::new(move |_| {
            plan_key.with(|_| ());
            let current = planned.with_untracked(|s| s.as_ref().ok().map(|s| s.traffic.clone()));
            Fresh(Arc::new(super::timing::measured("compare strategies", || {
                reshard.with_untracked(|r| {
                    Strategy::ALL
                        .into_iter()
                        .filter_map(|s| match &current {
                            Some(traffic) if traffic.strategy == s => Some(traffic.clone()),
                            _ => analyse(r, s).ok(),
                        })
                        .collect::<Vec<_>>()
                })
            })))
        });
        let comparison = Memo::new(move |_| {
            let topology = cost_model.get();
            Fresh(Arc::new(compared.with(|traffics| {
                traffics
                    .iter()
                    .map(|traffic| {
                        let traffic = traffic.priced(topology);
                        StrategyRow {
                            strategy: traffic.strategy,
                            totals: traffic.totals(),
                            estimate: traffic.estimate(),
                        }
                    })
                    .collect()
            })))
        });
        let view = RwSignal::new(ViewChoice::for_rank(0, 2));
        // A model's plan keeps no pieces past PIECE_LIMIT, and each of its tensors was drawn as an aggregate,
        // even one of 256 pieces (Qwen3's inventory): the tensor in view is then planned alone, as the whole
        // plan plans it (a unit test holds the two alike). Not gather's: its tensors share the root's and the
        // ring's messages, and one planned alone is not as the whole plan sends it.
        // Only a tensor whose own pieces are few enough to keep: else (the large preset's one tensor) each
        // edit would plan it twice.
        let tensor_pieces = Memo::new(move |_| {
            let index = view.with(|v| v.tensor);
            let unkept = summary.with(|s| {
                s.as_ref()
                    .ok()
                    .filter(|s| s.pieces.is_none() && s.strategy != Strategy::Gather)
                    .filter(|s| s.traffic.per_tensor.get(index).is_some_and(|t| t.pieces <= PIECE_LIMIT as u64))
                    .map(|s| s.strategy)
            });
            let Some(strategy) = unkept else { return Fresh(Arc::new(None)) };
            Fresh(Arc::new(super::timing::measured("plan, tensor in view", || {
                reshard.with_untracked(|r| {
                    let alone = r.tensor_alone(index)?;
                    let mut pieces = summarise(&alone, strategy, PIECE_LIMIT, 1).ok()?.pieces?;
                    pieces.iter_mut().for_each(|p| p.tensor = index);
                    Some(pieces)
                })
            })))
        });
        let regions = Memo::new(move |_| {
            let tensor_index = view.with(|v| v.tensor);
            Fresh(Arc::new(reshard.with(|r| {
                let Some(t) = r.tensors.get(tensor_index).or(r.tensors.first()) else { return Regions::default() };
                Regions {
                    source: device_regions(&t.source, &r.source_mesh, &t.shape, r.split).unwrap_or_default(),
                    destination: device_regions(&t.destination, &r.destination_mesh, &t.shape, r.split)
                        .unwrap_or_default(),
                }
            })))
        });
        let verification = RwSignal::new(None);
        let focus = RwSignal::new(Focus::Nothing);
        let changes = RwSignal::new(0u64);
        let settled_change = after_paint(move || changes.track(), move || changes.get_untracked());
        let check_changes = RwSignal::new(0u64);
        Effect::new(move |_| {
            check_key.with(|_| ());
            check_changes.update(|n| *n += 1);
        });
        let settled_check = after_paint(move || check_changes.track(), move || check_changes.get_untracked());
        // A new change invalidates the last check and the focus, and is counted.
        Effect::new(move |_| {
            // Each signal is written only when its value changes: a write notifies every view that reads it,
            // and a needless one redraws them all a second time.
            reshard.track();
            changes.update(|n| *n += 1);
            if verification.with_untracked(Option::is_some) {
                verification.set(None);
            }
            if focus.get_untracked() != Focus::Nothing {
                focus.set(Focus::Nothing);
            }
        });
        // The view follows the tensor: after an edit, and after anything that sets the view itself.
        Effect::new(move |_| {
            view.track();
            reshard.with(|r| {
                view.maybe_update(|v| {
                    let index = if v.tensor < r.tensors.len() { v.tensor } else { 0 };
                    let shape = r.tensors.get(index).map_or(&[][..], |t| &t.shape[..]);
                    let fitted = v.fitted(index, shape);
                    let stale = fitted != *v;
                    if stale {
                        *v = fitted;
                    }
                    stale
                });
            });
        });
        AppState {
            input,
            replaced: RwSignal::new(0),
            restored: RwSignal::new(0),
            drafts: super::editor::FieldDrafts::new(),
            checked,
            reshard,
            valid_input,
            strategy,
            summary,
            settled,
            pieces,
            totals,
            comparison,
            settled_change,
            plan_key,
            check_key,
            settled_check,
            lint_kept: StoredValue::new(None),
            regions,
            focus,
            view,
            fault: RwSignal::new(None),
            verification,
            tensor_pieces,
        }
    }

    /// Whether a field of the layout's editors holds text that does not parse, in the state on screen (the
    /// views that read the change say they read its last valid values, and links and exports leave the
    /// text out). Tracks the state's replacement, not each key typed: the drafts are no signal.
    pub fn holds_unread_text(&self) -> bool {
        self.drafts.holds_any(self.replaced.get())
    }

    /// `read` of the pieces the pictures draw and point at (`Focus::Piece` indexes them): the plan's, when it
    /// keeps them all; else the tensor in view's, planned alone; `None` when neither is kept.
    pub fn with_drawn_pieces<R>(&self, read: impl FnOnce(Option<&[Piece]>) -> R) -> R {
        let tensor_pieces = self.tensor_pieces;
        self.summary.with(|s| match s.as_ref().ok().and_then(|s| s.pieces.as_deref()) {
            Some(pieces) => read(Some(pieces)),
            None => tensor_pieces.with(|t| read(t.as_deref())),
        })
    }

    /// Opens a whole new spec (a preset, a link, an undo step, a file): unlike an edit, it also replaces what
    /// the fields hold that did not parse.
    pub fn replace_input(&self, input: SpecInput) {
        self.restore_input(input, None);
    }

    /// Opens a history step's spec in a new draft generation, with the drafts of the one the step was shown
    /// in when known: its fields show the text typed there that did not parse.
    pub fn restore_input(&self, input: SpecInput, shown_in: Option<u64>) {
        self.input.set(input);
        let generation = super::editor::field::fresh_generation();
        if let Some(shown_in) = shown_in {
            self.drafts.carry(shown_in, generation);
        }
        self.replaced.set(generation);
    }

    /// State opened on a named preset (the toy when the name is unknown).
    pub fn from_preset(name: &str) -> AppState {
        let preset = presets::find(name).unwrap_or(&presets::PRESETS[0]);
        AppState::new(parse_input(preset.spec).unwrap_or_default())
    }

    /// Whether the plan the views show is the whole-shard one: then its transfer is drawn whatever the
    /// toggles say, and the toggles are locked.
    pub fn whole_shard_plan_shown(&self) -> bool {
        self.strategy.get() == Strategy::WholeShard
    }

    /// Whether the tensor view draws the whole-shard transfer: asked for by its toggle, or the plan shown
    /// is the whole-shard one (its pieces are whole shards; drawn as intersections alone, they hid it).
    pub fn whole_shard_drawn(&self) -> bool {
        self.view.with(|v| v.show_whole_shard) || self.whole_shard_plan_shown()
    }
}
