//! Per-device traffic: bytes sent and received as bars on one scale, and messages per device.
//!
//! Bounded: up to [`LIMIT`] devices are drawn, all of them in mesh order when there are few, otherwise the
//! busiest first with a count of the rest.

use leptos::prelude::*;

use super::from_summary;
use crate::chart::bars::bar_length;
use crate::chart::ranking::busiest_devices;
use crate::chart::scale::group_thousands;
use crate::core::traffic::{DeviceTraffic, format_bytes};
use crate::ui::AppState;
use crate::ui::ScrollRegion;

/// Most devices drawn.
const LIMIT: usize = 16;
/// The length of a full bar, in CSS pixels.
const BAR: f64 = 110.0;

/// The devices drawn, the largest byte count among them (the full bar), and how many are left out.
#[derive(Clone, Debug, PartialEq, Default)]
struct Selection {
    devices: Vec<DeviceTraffic>,
    max_bytes: u64,
    left_out: usize,
    total: usize,
}

fn select(devices: &[DeviceTraffic]) -> Selection {
    let chosen: Vec<DeviceTraffic> = if devices.len() <= LIMIT {
        devices.to_vec()
    } else {
        busiest_devices(devices, LIMIT).into_iter().map(|i| devices[i].clone()).collect()
    };
    let max_bytes = chosen.iter().map(|d| d.bytes_sent.max(d.bytes_received)).max().unwrap_or(0);
    Selection { left_out: devices.len() - chosen.len(), total: devices.len(), devices: chosen, max_bytes }
}

/// Bytes and messages per device for the current plan.
#[component]
pub fn DeviceBars() -> impl IntoView {
    let state = expect_context::<AppState>();
    let selection = from_summary(state, |s| select(&s.traffic.devices));
    let rows = move || selection.with(|s| s.as_ref().map(|s| s.devices.clone()).unwrap_or_default());
    let max_bytes = Signal::derive(move || selection.with(|s| s.as_ref().map_or(0, |s| s.max_bytes)));
    let caption = move || {
        selection.with(|s| match s {
            Some(s) if s.left_out > 0 => format!(
                "The {} busiest of {} devices (by bytes sent plus received), busiest first.",
                s.devices.len(),
                group_thousands(s.total as u64)
            ),
            Some(s) => format!("All {} devices, in mesh order (source mesh first).", s.total),
            None => String::new(),
        })
    };
    let more = move || {
        selection.with(|s| {
            s.as_ref().filter(|s| s.left_out > 0).map(|s| {
                let idle = if s.devices.len() < LIMIT { " (the rest move nothing)" } else { "" };
                format!("and {} more devices, not drawn{idle}", group_thousands(s.left_out as u64))
            })
        })
    };

    view! {
        <section class="device-bars" aria-labelledby="device-bars-title">
            <h3 class="analysis-subtitle" id="device-bars-title">"Bytes and messages per device"</h3>
            <p class="analysis-caption" data-testid="device-bars-caption">{caption}</p>
            <ScrollRegion label="Devices, scrollable">
                <table class="device-table" data-testid="device-bars" aria-labelledby="device-bars-title">
                    <thead>
                        <tr>
                            <th scope="col">"Device"</th>
                            <th scope="col">
                                <span class="swatch swatch-sent" aria-hidden="true"></span> "Bytes sent"
                            </th>
                            <th scope="col">
                                <span class="swatch swatch-received" aria-hidden="true"></span> "Bytes received"
                            </th>
                            <th scope="col" class="num">"Messages out"</th>
                            <th scope="col" class="num">"Messages in"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=rows
                            key=|d| (d.device, d.bytes_sent, d.bytes_received, d.messages_sent, d.messages_received)
                            let(device)
                        >
                            <DeviceRow device=device max_bytes=max_bytes/>
                        </For>
                    </tbody>
                </table>
            </ScrollRegion>
            {move || more().map(|text| view! { <p class="analysis-caption more" data-testid="device-bars-more">{text}</p> })}
        </section>
    }
}

/// One device of [`DeviceBars`].
#[component]
fn DeviceRow(
    /// The device's traffic.
    device: DeviceTraffic,
    /// The largest byte count drawn: a full bar.
    max_bytes: Signal<u64>,
) -> impl IntoView {
    let sent = device.bytes_sent;
    let received = device.bytes_received;
    let local = (device.local_bytes > 0).then(|| format!("+ {} local", format_bytes(device.local_bytes)));
    view! {
        <tr data-testid="device-bar-row" data-device=device.device>
            <th scope="row" class="device-name">"d" {device.device}</th>
            <td>
                <Bar bytes=sent max_bytes=max_bytes class="bar-sent"/>
            </td>
            <td>
                <Bar bytes=received max_bytes=max_bytes class="bar-received"/>
                {local.map(|text| view! { <span class="muted bar-local">{text}</span> })}
            </td>
            <td class="num">{group_thousands(device.messages_sent)}</td>
            <td class="num">{group_thousands(device.messages_received)}</td>
        </tr>
    }
}

/// A bar and its value.
#[component]
fn Bar(
    /// The bytes the bar stands for.
    bytes: u64,
    /// The bytes of a full bar.
    max_bytes: Signal<u64>,
    /// The colour class of the bar.
    class: &'static str,
) -> impl IntoView {
    let length = move || bar_length(bytes as f64, max_bytes.get() as f64, BAR, 1.5);
    view! {
        <span class="bar-cell">
            <svg class="bar-svg" viewBox=format!("0 0 {BAR} 10") width=BAR height="10" aria-hidden="true">
                <rect class="bar-track" x="0" y="0" width=BAR height="10" rx="2"/>
                <rect class=class x="0" y="0" width=length height="10" rx="2"/>
            </svg>
            <span class="bar-value">{format_bytes(bytes)}</span>
        </span>
    }
}
