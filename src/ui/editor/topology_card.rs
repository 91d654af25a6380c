//! The Topology card: devices per node, NVLink and NIC bandwidths, per-message latency (the cost model).

use leptos::prelude::*;

use super::EditorContext;
use super::field::{DecimalField, IntegerField};
use crate::core::model::Topology;
use crate::core::spec::{SpecInput, TopologyInput};
use crate::core::spec_edit::SpecField;

/// Changes the spec's topology, creating it on first edit.
fn edit(input: &mut SpecInput, change: impl FnOnce(&mut TopologyInput)) {
    change(input.topology.get_or_insert_with(TopologyInput::default));
}

/// The cost model's devices and links.
#[component]
pub fn TopologyCard() -> impl IntoView {
    let editor = expect_context::<EditorContext>();
    let state = editor.state;
    let defaults = Topology::default();
    let read = move |pick: fn(&TopologyInput) -> Option<f64>, default: f64| {
        Signal::derive(move || state.input.with(|input| input.topology.as_ref().and_then(pick).unwrap_or(default)))
    };
    view! {
        <section class="editor-card topology-card" aria-labelledby="topology-card-title" data-testid="topology-card">
            <h2 class="card-title" id="topology-card-title">"Topology"</h2>
            <div class="topology-grid">
                <div class="labelled-field">
                    <span class="field-label" aria-hidden="true">"Devices per node"</span>
                    <IntegerField
                        label="devices per node"
                        value=Signal::derive(move || {
                            Some(state.input.with(|input| {
                                input.topology.as_ref().and_then(|t| t.devices_per_node).unwrap_or(i64::from(defaults.devices_per_node))
                            }))
                        })
                        on_set=Callback::new(move |n| state.input.update(|input| edit(input, |t| t.devices_per_node = Some(n))))
                        problems=editor.messages_for(SpecField::DevicesPerNode)
                        min=1
                        max=1_000_000
                        key="topology-devices-per-node"
                    />
                </div>
                <DecimalField
                    label="NVLink"
                    unit="GB/s"
                    value=read(|t| t.nvlink_gbps, defaults.nvlink_gbps)
                    on_set=Callback::new(move |v| state.input.update(|input| edit(input, |t| t.nvlink_gbps = Some(v))))
                    problems=editor.messages_for(SpecField::NvlinkGbps)
                    key="topology-nvlink-gbps"
                />
                <DecimalField
                    label="NIC"
                    unit="GB/s"
                    value=read(|t| t.nic_gbps, defaults.nic_gbps)
                    on_set=Callback::new(move |v| state.input.update(|input| edit(input, |t| t.nic_gbps = Some(v))))
                    problems=editor.messages_for(SpecField::NicGbps)
                    key="topology-nic-gbps"
                />
                <DecimalField
                    label="Latency"
                    unit="µs / message"
                    value=read(|t| t.latency_us, defaults.latency_us)
                    on_set=Callback::new(move |v| state.input.update(|input| edit(input, |t| t.latency_us = Some(v))))
                    problems=editor.messages_for(SpecField::LatencyUs)
                    key="topology-latency-us"
                />
            </div>
            <p class="card-note">"Bandwidths per device, each way; GB = 10⁹ bytes."</p>
        </section>
    }
}
