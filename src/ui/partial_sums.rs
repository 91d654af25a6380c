//! Where a Partial source's values are added: each destination as the sum of its partials, coloured by the
//! source devices that send them, and what reducing first would move instead. The tensor view draws a
//! Partial change as one hatched box "4 partial sums → d4, d5"; a lecturer asked for the sum itself and for the
//! reason to reduce first, which only a collapsed constraint finding said.

use leptos::prelude::*;

use super::AppState;
use super::after_paint::after_paint;
use crate::chart::palette::{device_color, text_on};
use crate::chart::readout::units_kept;
use crate::core::geometry::Dtype;
use crate::core::partial::{PartialSums, ReduceFirst, Sum, partial_sums};
use crate::core::traffic::{format_bytes, trim_float};

/// Destinations drawn as sums; the rest are counted.
const SHOWN_SUMS: usize = 8;
/// Partials drawn in one sum: the first ones and the last, with "…" between.
const SHOWN_TERMS: usize = 6;

/// What the panel draws: the sums, with the tensor's name and the source mesh's devices (for colours).
#[derive(Clone, PartialEq)]
struct Drawn {
    name: String,
    /// The partials' own dtype, which a reduce-scatter among the sources adds in.
    dtype: Dtype,
    sources: Vec<u32>,
    sums: PartialSums,
}

/// The panel, present only while the viewed tensor's source is Partial; it follows an edit one paint later.
#[component]
pub fn PartialSumsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let drawn = after_paint(
        move || {
            state.settled_change.track();
            state.view.with(|v| v.tensor);
        },
        move || {
            let index = state.view.with_untracked(|v| v.tensor);
            state.reshard.with_untracked(|r| {
                let sums = partial_sums(r, index).ok().flatten()?;
                let tensor = &r.tensors[index];
                let (name, dtype) = (tensor.name.clone(), tensor.source.dtype);
                Some(Drawn { name, dtype, sources: r.source_mesh.devices.clone(), sums })
            })
        },
    );
    move || {
        drawn.get().map(|Drawn { name, dtype, sources, sums }| {
            let k = sums.contributors;
            let dims = sums.dims.join(" × ");
            let all = if k == 2 { "both".to_string() } else { format!("all {k}") };
            let lede = format!(
                " is held as {k} partial values, one on each device along {dims} (Partial: the value is their \
                 sum). As planned, each destination receives {all} and adds them itself."
            );
            let more = sums.sums.len().saturating_sub(SHOWN_SUMS);
            let rows = sums.sums.iter().take(SHOWN_SUMS).map(|sum| sum_row(sum, &sources)).collect_view();
            let callout = sums.reduce_first.as_ref().and_then(|first| reduce_first_text(&sums, first, dtype));
            let rounded = sums.rounded_before_sum.map(|(from, to)| rounded_text(k, from, to));
            view! {
                <section class="panel below-pictures" aria-label="Partial sums" data-testid="partial-sums">
                    <div class="analysis">
                        <header class="analysis-head">
                            <h2 class="analysis-title">"Where the partial sums are added"</h2>
                            <p class="analysis-lede">"Every entry of " <code>{name}</code> {lede}</p>
                        </header>
                        <ul class="partial-sums">{rows}</ul>
                        {(more > 0).then(|| view! {
                            <p class="analysis-caption more">{format!("… and {more} more destinations, each adding its partials the same way.")}</p>
                        })}
                        {rounded.map(|text| view! {
                            <p class="relay-note" data-testid="rounded-before-sum"><strong>"Rounded before the sum."</strong>" "{units_kept(&text)}</p>
                        })}
                        {callout.map(|(headline, text)| view! {
                            <p class="relay-note" data-testid="reduce-first"><strong>{headline}</strong>" "{units_kept(&text)}</p>
                        })}
                    </div>
                </section>
            }
        })
    }
}

/// One destination: `d4 = P0 · d0 + P1 · d1 + …`, each partial in its sender's colour, and what arrives.
fn sum_row(sum: &Sum, sources: &[u32]) -> impl IntoView + use<> {
    let terms = sum.sources.len();
    // The first partials, then "…" and the last one, when there are too many to draw.
    let shown: Vec<Option<usize>> = if terms <= SHOWN_TERMS {
        (0..terms).map(Some).collect()
    } else {
        (0..SHOWN_TERMS - 2).map(Some).chain([None, Some(terms - 1)]).collect()
    };
    let chips = shown
        .into_iter()
        .enumerate()
        .map(|(i, term)| {
            let plus = (i > 0).then_some(" + ");
            let chip = match term {
                Some(c) => {
                    let senders = &sum.sources[c];
                    // Coloured by the first sender, as the tensor view colours a piece.
                    let fill = sources.iter().position(|d| Some(d) == senders.first()).map_or("#AAAAAA", device_color);
                    let names: Vec<String> = senders.iter().map(|d| format!("d{d}")).collect();
                    // Set through the CSSOM (`style:`), which the page's CSP allows; a `style` attribute it refuses.
                    view! { <span class="partial-term" style:background=fill style:color=text_on(fill) data-testid="partial-term">{format!("P{c} · {}", names.join(", "))}</span> }
                        .into_any()
                }
                None => view! { <span class="partial-more">"…"</span> }.into_any(),
            };
            view! { {plus}{chip} }
        })
        .collect_view();
    let arrived = if sum.local_bytes > 0 {
        let total = (terms as u64).saturating_mul(sum.bytes_each);
        format!(
            "{terms} × {} partials, {} already local: {} arrive; added on d{}",
            format_bytes(sum.bytes_each),
            format_bytes(sum.local_bytes),
            format_bytes(total.saturating_sub(sum.local_bytes)),
            sum.device
        )
    } else {
        format!("{terms} × {} arrive; added on d{}", format_bytes(sum.bytes_each), sum.device)
    };
    view! {
        <li class="partial-sum" data-testid="partial-sum" data-dst=sum.device.to_string()>
            <span class="partial-device">{format!("d{}", sum.device)}</span>
            <span class="partial-equals">" = "</span>
            <span class="partial-terms">{chips}</span>
            <span class="partial-bytes">{arrived}</span>
        </li>
    }
}

/// Why the sums differ from the converted sum when each partial is converted at its sender (`from` → `to`).
fn rounded_text(contributors: u64, from: Dtype, to: Dtype) -> String {
    format!(
        "Each partial is converted {from} → {to} at its sender, so every destination adds {contributors} rounded \
         {to} values: its sum carries a rounding per partial, where converting the finished sum carries one. \
         Reducing first in {from}, or converting at the receiver, keeps one rounding."
    )
}

/// "Reduce first: 4× fewer bytes reach the destinations.", then the reduce-scatter's cost and both totals;
/// `None` when nothing would arrive either way.
fn reduce_first_text(sums: &PartialSums, first: &ReduceFirst, dtype: Dtype) -> Option<(String, String)> {
    if sums.received == 0 || sums.contributors < 2 {
        return None;
    }
    let headline = if first.received == 0 {
        "Reduce first: nothing needs to reach the destinations.".to_string()
    } else {
        let ratio = sums.received as f64 / first.received as f64;
        format!("Reduce first: {}× fewer bytes reach the destinations.", trim_float(ratio, 3))
    };
    let text = format!(
        "A reduce-scatter among each group of {k} sources (along dim {dim}, in {dtype}) sends {among} between \
         them and adds each entry once, on a source; the destinations then receive {after} instead of {received} \
         (bytes received by devices). Both steps together: {total} against {received}.",
        k = sums.contributors,
        dim = first.dim,
        among = format_bytes(first.among_sources),
        after = format_bytes(first.received),
        received = format_bytes(sums.received),
        total = format_bytes(first.among_sources.saturating_add(first.received)),
    );
    Some((headline, text))
}
