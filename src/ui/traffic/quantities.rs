//! The three quantities, side by side, each with the one-line definition that keeps it from being confused
//! with the other two.

use leptos::prelude::*;

use super::{from_summary, link_name};
use crate::chart::scale::group_thousands;
use crate::core::traffic::format_bytes;
use crate::ui::AppState;

/// Unique logical entries, bytes received by devices, and bytes crossing the busiest link.
#[component]
pub fn Quantities() -> impl IntoView {
    let state = expect_context::<AppState>();
    let totals = from_summary(state, |s| s.traffic.totals());
    let busiest = from_summary(state, |s| s.traffic.max_link());

    let unique = move || totals.with(|t| t.as_ref().map(|t| group_thousands(t.unique_entries)));
    let tensors = Memo::new(move |_| state.reshard.with(|r| r.tensors.len()));
    let unique_definition = move || {
        format!(
            "The entries of {}, each counted once, however many devices hold or receive it.",
            crate::ui::totals::entries_of(tensors.get())
        )
    };
    let moved = move || {
        totals.with(|t| {
            t.as_ref().map(|t| {
                format!(
                    "This plan moves {} entries: an entry counts again for every device that receives it, local \
                     copies included.",
                    group_thousands(t.entries_moved)
                )
            })
        })
    };
    let received = move || totals.with(|t| t.as_ref().map(|t| format_bytes(t.bytes_received)));
    // Gather's messages into a root that is not a destination load links but are not received by a
    // destination: "in 5 messages" under 256 B counted them (the 256 B came in 2).
    let off_grid = from_summary(state, |s| s.pairs.off_grid.clone());
    let messages = move || {
        let off = off_grid.get().unwrap_or_default();
        totals.with(|t| {
            t.as_ref().map(|t| {
                // The root's own share is a local copy into the root: no destination receives it either.
                let local_bytes = t.local_bytes.saturating_sub(off.to_root_local_bytes);
                let local = if local_bytes > 0 {
                    format!("; {} stay on their device as local copies", format_bytes(local_bytes))
                } else {
                    String::new()
                };
                let count = crate::core::traffic::messages_text;
                match off.root {
                    Some(root) if off.to_root_messages > 0 => format!(
                        "In {}{local}. Not counted: the gather's {} into the root d{root} ({}), which is not a \
                         destination; they load its links.",
                        count(t.messages.saturating_sub(off.to_root_messages)),
                        count(off.to_root_messages),
                        format_bytes(off.to_root_bytes),
                    ),
                    _ => format!("In {}{local}.", count(t.messages)),
                }
            })
        })
    };
    let link_bytes = move || busiest.with(|b| b.flatten().map_or_else(|| "0 B".to_string(), |l| format_bytes(l.bytes)));
    let link_where = move || {
        busiest.with(|b| b.flatten().map_or_else(|| "no link is used".to_string(), |l| format!("on {}", link_name(&l))))
    };

    view! {
        <dl class="quantities" aria-label="The three quantities">
            <div class="quantity" data-testid="quantity-unique-entries">
                <dt class="quantity-label">"Unique logical entries"</dt>
                <dd class="quantity-value">{unique}</dd>
                <dd class="quantity-definition">{unique_definition}</dd>
                <dd class="quantity-note" data-testid="entries-moved">{moved}</dd>
            </div>
            <div class="quantity" data-testid="quantity-bytes-received">
                <dt class="quantity-label">"Bytes received by devices"</dt>
                <dd class="quantity-value">{received}</dd>
                <dd class="quantity-definition">
                    "Summed over destination devices: the bytes that arrive from another device."
                </dd>
                <dd class="quantity-note" data-testid="received-messages">{messages}</dd>
            </div>
            <div class="quantity" data-testid="quantity-link-bytes">
                <dt class="quantity-label">"Bytes crossing the busiest link"</dt>
                <dd class="quantity-value" data-testid="busiest-link">
                    {link_bytes} " " <span class="quantity-where">{link_where}</span>
                </dd>
                <dd class="quantity-definition">
                    "Counted per link and direction: a transfer loads the sender's outgoing and the receiver's incoming link; a local copy loads none."
                </dd>
            </div>
        </dl>
    }
}
