//! The sentences under the picture: what is aggregated or thinned, empty shards, the whole-shard transfer,
//! mismatches outside the slice, and what the focus is on (read out to screen readers).

use leptos::prelude::*;

use super::{SceneMemo, tooltip::piece_lines, whole_shard::WholeShardTransfer};
use crate::chart::boxes::PixelRect;
use crate::core::traffic::format_bytes;
use crate::ui::{AppState, Focus, Side, format_count, format_offset, format_shape};

/// Notes on what the picture shows and leaves out.
#[component]
pub fn Notes(
    /// The scene being drawn.
    scene: SceneMemo,
    /// The whole-shard transfer shown, if the toggle is on.
    transfer: Memo<Option<WholeShardTransfer>>,
    /// Mismatches in view, and the count outside the slice.
    mismatches: Memo<(Vec<PixelRect>, usize)>,
) -> impl IntoView {
    let notes = move || {
        scene.with(|s| {
            let mut notes: Vec<String> = Vec::new();
            if let Some(count) = s.aggregated {
                notes.push(format!("{} pieces, too many to draw each: showing region boundaries.", format_count(count)));
            }
            let every = s.source_lines.every.max(s.destination_lines.every);
            if every > 1 {
                notes.push(format!("Boundaries are thinned: about one in {every} is drawn."));
            }
            if s.frame.distorted {
                notes.push("Rows and columns are drawn at different scales (the tensor is very long).".into());
            }
            if s.ring_hops > 0 {
                notes.push(format!(
                    "Gather then broadcast: the source shards go to the root (drawn); then {} ring hop{} each carry the whole tensor (not drawn).",
                    s.ring_hops,
                    if s.ring_hops == 1 { "" } else { "s" }
                ));
            }
            notes
        })
    };
    let state = expect_context::<AppState>();
    // One tensor of an inventory: the cards over the picture count the whole model, and 52.4 GiB beside one
    // MLP weight's picture read as its traffic (review 51). Its own bytes, and their share of the cards'.
    let share = move || {
        let count = state.reshard.with(|r| r.tensors.len());
        if count < 2 {
            return None;
        }
        let index = state.view.with(|v| v.tensor);
        let total = state.totals.with(|t| t.as_ref().ok().map(|t| t.bytes_received))?;
        state.summary.with(|s| {
            let mine = (**s).as_ref().ok()?.traffic.per_tensor.get(index)?;
            let part = match mine.bytes_received as f64 / total as f64 * 100.0 {
                p if !p.is_finite() => String::new(),
                p if p > 0.0 && p < 0.01 => " (under 0.01 %)".to_string(),
                p => format!(" ({p:.2} %)"),
            };
            Some(format!(
                "{} alone: {} received by devices{part}. The totals above count all {} tensors: {}.",
                mine.name,
                format_bytes(mine.bytes_received),
                format_count(count as u64),
                format_bytes(total),
            ))
        })
    };
    view! {
        <div class="tv-notes">
            {move || share().map(|text| view! { <p class="tv-note" data-testid="tensor-share">{text}</p> })}
            {move || notes().into_iter().map(|n| view! { <p class="tv-note">{n}</p> }).collect::<Vec<_>>()}
            {move || transfer.get().map(|t| view! { <p class="tv-note" data-testid="whole-shard-note">{t.sentence()}</p> })}
            {move || {
                let outside = mismatches.with(|m| m.1);
                (outside > 0).then(|| view! {
                    <p class="tv-note">{format!("{} mismatching entries lie outside this slice.", format_count(outside as u64))}</p>
                })
            }}
            {move || {
                let empty = scene.with(|s| s.empty.clone());
                (!empty.is_empty()).then(|| view! {
                    <ul class="tv-empty" data-testid="empty-shards" aria-label="Empty shards">
                        {empty.into_iter().map(|e| view! { <li data-testid="empty-shard">{e}</li> }).collect::<Vec<_>>()}
                    </ul>
                })
            }}
            <FocusLine scene/>
        </div>
    }
}

/// What the focus is on, in one line; announced politely to screen readers. With nothing focused, how to
/// focus something (on an aggregated picture only devices can be).
#[component]
fn FocusLine(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let devices_shown = use_context::<super::WithoutDevices>().is_none();
    let text = move || match state.focus.get() {
        Focus::Nothing => scene.with(|s| match (s.aggregated, s.pieces_kept, devices_shown) {
            (None, _, true) => "Hover or focus a piece or a device for details.".to_string(),
            (None, _, false) => "Hover or focus a piece for details.".to_string(),
            (Some(_), true, true) => "Hover or focus a device to see its region and its pieces.".to_string(),
            (Some(_), false, true) => "Hover or focus a device to see its region.".to_string(),
            (Some(_), _, false) => {
                "Too many pieces to draw one by one; open in Reshard Lens to focus a device.".to_string()
            }
        }),
        Focus::Piece(index) => state
            .with_drawn_pieces(|pieces| pieces?.get(index).map(piece_lines))
            .map_or_else(String::new, |lines| lines.join(" · ")),
        Focus::Device { side, device } => describe_device(state, side, device),
    };
    // The hint about hovering means nothing in an exported picture.
    let export = move || state.focus.with(|f| matches!(f, Focus::Nothing)).then_some("skip");
    // Said when the keyboard moves the focus to a piece or a device (an SVG element), not as the mouse passes
    // over them: hovering six pieces made eleven announcements.
    // The words are worked out only then: on a hover they were described twice, once unsaid.
    let spoken = Signal::derive(move || {
        state.focus.track();
        let focused_in_svg = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|e| e.namespace_uri().as_deref() == Some("http://www.w3.org/2000/svg"));
        if focused_in_svg { text() } else { String::new() }
    });
    view! {
        <p class="tv-focus-line" data-testid="focus-line" data-export=export>{text}</p>
        <crate::ui::announce::Announcer text=spoken test_id="focus-announce"/>
    }
}

/// `d5 (source) holds offset [40, 0], shape 8 × 8192 (65,536 entries) · sends 256 messages, 128 KiB`: the
/// entries as well as the bytes, since the article counts a device's share in entries (each destination
/// of the toy needs 36).
pub(crate) fn describe_device(state: AppState, side: Side, device: u32) -> String {
    let region = state.regions.with(|r| {
        let list = if side == Side::Source { &r.source } else { &r.destination };
        list.iter().find(|d| d.device == device).map(|d| d.region)
    });
    let holds = match region {
        Some(r) if r.is_empty() => "holds an empty shard".to_string(),
        Some(r) => format!(
            "holds offset {}, shape {} ({} entries)",
            format_offset(r.offset()),
            format_shape(r.shape()),
            format_count(r.entries())
        ),
        None => String::new(),
    };
    // Its side's direction always, the other too when it has traffic that way: gather's root is a source that
    // receives, a ring's destinations send (one direction left the other out).
    let traffic = state.summary.with(|s| {
        let s = s.as_ref().ok()?;
        let d = s.traffic.devices.iter().find(|d| d.device == device)?;
        let messages = crate::core::traffic::messages_text;
        let sends = format!("sends {}, {}", messages(d.messages_sent), format_bytes(d.bytes_sent));
        let receives = format!("receives {}, {}", messages(d.messages_received), format_bytes(d.bytes_received));
        Some(match side {
            Side::Source if d.messages_received > 0 => format!("{sends} · {receives}"),
            Side::Source => sends,
            Side::Destination if d.messages_sent > 0 => format!("{receives} · {sends}"),
            Side::Destination => receives,
        })
    });
    let side_word = if side == Side::Source { "source" } else { "destination" };
    let mut text = format!("d{device} ({side_word}) {holds}");
    if let Some(t) = traffic {
        text.push_str(" · ");
        text.push_str(&t);
    }
    text
}
