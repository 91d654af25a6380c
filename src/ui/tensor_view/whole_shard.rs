//! The whole-shard transfer of one receiver: the outline of every whole source shard it receives and,
//! hatched, the part it discards. One receiver at a time (the focused one, else the first): drawn for all
//! at once, every discarded part would be some other receiver's kept part and the picture would say nothing.

use leptos::prelude::*;

use super::SceneMemo;
use crate::chart::boxes::{PixelRect, corner_tag, subtract};
use crate::chart::gantt::text_em;
use crate::chart::{aggregate::whole_shard_sources, tensor::Cells};
use crate::core::geometry::Region;
use crate::ui::{AppState, Focus, Side, format_count};

/// Draws the whole-shard transfer in the tensor view. One flag in `state.view` behind two boxes (the tensor
/// view's header and Compare strategies), so ticking either ticks both. With the whole-shard plan shown, the
/// transfer is drawn anyway: the box stays ticked and locked, and says why.
#[component]
pub fn WholeShardToggle(
    /// On the input, for tests.
    testid: &'static str,
    label: &'static str,
    /// A second, quieter line under the label.
    #[prop(optional)]
    note: Option<&'static str>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <label class="toggle">
            <input
                type="checkbox"
                data-testid=testid
                prop:checked=move || state.whole_shard_drawn()
                prop:disabled=move || state.whole_shard_plan_shown()
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    state.view.update(|v| v.show_whole_shard = on);
                }
            />
            <span>
                {label}
                {move || state.whole_shard_plan_shown().then_some(view! {
                    <span class="toggle-aside">" (the plan shown)"</span>
                })}
                {note.map(|note| view! { <span class="toggle-note">{note}</span> })}
            </span>
        </label>
    }
}

/// Beyond this many shards in view, their outlines are merged into one.
const MAX_OUTLINES: usize = 64;

/// What one receiver gets under the whole-shard strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct WholeShardTransfer {
    pub receiver: u32,
    pub receiver_cells: Option<Cells>,
    /// Each received shard in view (merged into one box when there are many).
    pub shards: Vec<Cells>,
    pub shard_count: usize,
    pub received_entries: u64,
    pub kept_entries: u64,
    /// Whether another destination receives something: the note then says how to see its transfer.
    pub other_receivers: bool,
}

impl WholeShardTransfer {
    /// The note under the picture; with other receivers (whose pieces lie under the hatching, unlabelled),
    /// it says how to see their transfers.
    pub fn sentence(&self) -> String {
        let discarded = match self.received_entries.saturating_sub(self.kept_entries) {
            0 => "keeps all of them".to_string(),
            discarded => format!("discards {} of them (hatched)", format_count(discarded)),
        };
        format!(
            "Whole shard: d{} receives {} whole source shard{} ({} entries) and {discarded}.{}",
            self.receiver,
            self.shard_count,
            if self.shard_count == 1 { "" } else { "s" },
            format_count(self.received_entries),
            if self.other_receivers { " Hover or focus another destination device to see its transfer." } else { "" },
        )
    }
}

/// The receiver shown: the focused destination, the receiver of the focused piece, else the first
/// destination with a non-empty region.
pub fn transfer(state: AppState, scene: SceneMemo) -> Option<WholeShardTransfer> {
    if !state.whole_shard_drawn() {
        return None;
    }
    let focused = match state.focus.get() {
        Focus::Device { side: Side::Destination, device } => Some(device),
        Focus::Piece(i) => state.with_drawn_pieces(|pieces| pieces?.get(i).map(|p| p.dst)),
        _ => None,
    };
    let node_of = state.reshard.with(|r| r.topology);
    state.regions.with(|regions| {
        let receiver = focused
            .and_then(|d| regions.destination.iter().find(|r| r.device == d))
            .or_else(|| regions.destination.iter().find(|r| !r.region.is_empty()))?;
        let sources = whole_shard_sources(&receiver.region, receiver.device, &regions.source, |d| node_of.node_of(d));
        let kept = |shard: &Region| shard.intersect(&receiver.region).map_or(0, |c| c.entries());
        scene.with(|s| {
            let mut shards: Vec<Cells> = sources.iter().filter_map(|d| s.slice.project(&d.region)).collect();
            if shards.len() > MAX_OUTLINES {
                let merged = shards.iter().fold(shards[0], |a, c| Cells {
                    row0: a.row0.min(c.row0),
                    row1: a.row1.max(c.row1),
                    col0: a.col0.min(c.col0),
                    col1: a.col1.max(c.col1),
                });
                shards = vec![merged];
            }
            Some(WholeShardTransfer {
                receiver: receiver.device,
                receiver_cells: s.slice.project(&receiver.region),
                shards,
                shard_count: sources.len(),
                received_entries: sources.iter().map(|d| d.region.entries()).sum(),
                kept_entries: sources.iter().map(|d| kept(&d.region)).sum(),
                other_receivers: regions
                    .destination
                    .iter()
                    .any(|other| other.device != receiver.device && !other.region.is_empty()),
            })
        })
    })
}

/// The size of the tags that say whose transfer is drawn (`.tv-tag text`, views.css).
const TAG_FONT: f64 = 11.0;

/// The hatched overlay, and tags naming what the receiver discards and keeps.
#[component]
pub fn WholeShard(
    /// The scene being drawn.
    scene: SceneMemo,
    /// The transfer shown (None when the toggle is off).
    transfer: Memo<Option<WholeShardTransfer>>,
) -> impl IntoView {
    move || {
        let t = transfer.get()?;
        Some(scene.with(|s| {
            let discarded: Vec<PixelRect> = t
                .shards
                .iter()
                .flat_map(|&shard| match t.receiver_cells {
                    Some(keep) => subtract(shard, keep),
                    None => vec![shard],
                })
                .map(|cells| s.rect(cells))
                .collect();
            // Veiled, then hatched: the labels under them are other receivers' pieces ("d0 → d4" over what
            // d3 throws away), read at full strength as if they were the transfer shown.
            let hatches = discarded
                .iter()
                .map(|r| {
                    view! {
                        <rect class="tv-discard-veil" x=r.x y=r.y width=r.width height=r.height/>
                        <rect class="tv-discard" x=r.x y=r.y width=r.width height=r.height/>
                    }
                })
                .collect::<Vec<_>>();
            // Whose transfer the picture shows, said on it and not only in the note under it.
            let largest = discarded.iter().copied().max_by(|a, b| (a.width * a.height).total_cmp(&(b.width * b.height)));
            let tags = [
                (largest, format!("d{} discards", t.receiver), "tv-tag tv-tag-discard"),
                (t.receiver_cells.map(|cells| s.rect(cells)), format!("d{} keeps", t.receiver), "tv-tag tv-tag-keep"),
            ]
            .into_iter()
            .filter_map(|(rect, text, class)| {
                let tag = corner_tag(rect?, text_em(&text) * TAG_FONT + 14.0, TAG_FONT + 6.0)?;
                Some(view! {
                    <g class=class data-testid="whole-shard-tag">
                        <rect x=tag.x y=tag.y width=tag.width height=tag.height rx="3"/>
                        <text x=tag.x + 7.0 y=tag.y + tag.height / 2.0 + TAG_FONT * 0.35>{text}</text>
                    </g>
                })
            })
            .collect::<Vec<_>>();
            let outlines = t
                .shards
                .iter()
                .map(|&cells| {
                    let r = s.rect(cells);
                    view! { <rect class="tv-shard-outline" x=r.x y=r.y width=r.width height=r.height/> }
                })
                .collect::<Vec<_>>();
            let receiver = t.receiver_cells.map(|cells| {
                let r = s.rect(cells);
                view! { <rect class="tv-receiver-outline" x=r.x y=r.y width=r.width height=r.height/> }
            });
            view! { <g class="tv-whole-shard" data-testid="whole-shard" aria-hidden="true">{hatches}{outlines}{receiver}{tags}</g> }
        }))
    }
}
