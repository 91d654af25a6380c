//! What a plan costs (domain.md §3), keeping apart the three quantities that are easy to confuse:
//! unique logical entries, bytes received by devices, and bytes crossing one link.

use serde::Serialize;

use super::model::{Reshard, TensorChange, Topology};
use super::plan::{DeviceTable, LinkClass, Piece, Planner, Strategy};

/// One direction of one device's port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    NvlinkOut,
    NvlinkIn,
    NicOut,
    NicIn,
}

impl LinkKind {
    pub const ALL: [LinkKind; 4] = [LinkKind::NvlinkOut, LinkKind::NvlinkIn, LinkKind::NicOut, LinkKind::NicIn];

    pub fn name(self) -> &'static str {
        match self {
            LinkKind::NvlinkOut => "nvlink_out",
            LinkKind::NvlinkIn => "nvlink_in",
            LinkKind::NicOut => "nic_out",
            LinkKind::NicIn => "nic_in",
        }
    }
    /// Bandwidth of this link in bytes per second.
    pub fn bytes_per_second(self, topology: &Topology) -> f64 {
        match self {
            LinkKind::NvlinkOut | LinkKind::NvlinkIn => topology.nvlink_gbps * 1e9,
            LinkKind::NicOut | LinkKind::NicIn => topology.nic_gbps * 1e9,
        }
    }
}

/// What one device sends and receives.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DeviceTraffic {
    pub device: u32,
    /// Bytes this device sends to other devices.
    pub bytes_sent: u64,
    /// Bytes arriving at this device from other devices.
    pub bytes_received: u64,
    pub messages_sent: u64,
    pub messages_received: u64,
    /// Bytes copied within this device (no link).
    pub local_bytes: u64,
    /// Load of `nvlink_out`, `nvlink_in`, `nic_out`, `nic_in`, in that order.
    pub links: [u64; 4],
}

/// The load on one link.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LinkLoad {
    pub device: u32,
    pub link: LinkKind,
    pub bytes: u64,
    /// `bytes / bandwidth`, in seconds.
    pub seconds: f64,
}

/// Totals for one tensor of an inventory (or one group of tensors).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TensorTotals {
    pub name: String,
    pub unique_entries: u64,
    pub entries_moved: u64,
    pub bytes_received: u64,
    pub local_bytes: u64,
    pub messages: u64,
    /// Pieces, local copies included.
    pub pieces: u64,
}

/// The modelled transfer time: a lower bound, not a measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub seconds: f64,
    /// `max over links of load / bandwidth`.
    pub bandwidth_seconds: f64,
    /// `latency × the largest message count of any device`.
    pub latency_seconds: f64,
    /// The link whose load bounds the bandwidth term.
    pub bounding_link: Option<LinkLoad>,
    /// The bandwidth of that link's kind, GB/s (0 when no link is used), and the latency per message, µs:
    /// the numbers the formula divides and multiplies by.
    pub bandwidth_gbps: f64,
    pub latency_us: f64,
    /// The largest number of messages one device sends or receives.
    pub max_messages: u64,
    /// The formula with the numbers substituted.
    pub formula: String,
}

/// The headline numbers of a plan (the CLI's `totals`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Totals {
    /// Entries of the logical tensor(s): the product of each shape, summed over tensors.
    pub unique_entries: u64,
    /// Entries carried by all pieces, local copies included (counts an entry again for every receiver).
    pub entries_moved: u64,
    /// Sum over destination devices of bytes arriving from another device (domain §3): what gather's root
    /// gathers counts only when the root is a destination too; it is in the link loads either way.
    pub bytes_received: u64,
    /// Sum over all devices of bytes sent to another device: every message once, gather's collection into
    /// a root that is not a destination included (which bytes received leaves out).
    pub bytes_sent: u64,
    /// Bytes copied within a device (cross no link).
    pub local_bytes: u64,
    /// Pieces that cross a link (local copies excluded).
    pub messages: u64,
    /// Every piece, local copies included.
    pub pieces: u64,
    /// The largest load of any one link, in bytes.
    pub max_link_bytes: u64,
    pub estimated_seconds: f64,
}

/// Accumulates the cost of pieces as they stream out of a planner.
#[derive(Clone, Debug)]
pub struct Traffic {
    pub strategy: Strategy,
    pub devices: Vec<DeviceTraffic>,
    pub per_tensor: Vec<TensorTotals>,
    topology: Topology,
    /// Whether each device slot is a destination: "bytes received by devices" sums over destinations
    /// (domain §3), so gather's root counts what it gathers only when it is a destination too.
    destination: Vec<bool>,
    /// Every piece's bytes and entries added up: each count above is a part of one of these, so while
    /// they fit in 64 bits, so does every count. Validation bounds one tensor's bytes, not a plan's: a
    /// replicated destination multiplies them by its devices, and counts wrapped to 0 in the web build.
    all_bytes: u64,
    all_entries: u64,
    /// A piece did not fit in those sums; the plan is refused ([`Traffic::fitting`]).
    overflowed: bool,
}

/// The least and the most that one destination device receives over links: what "each destination needs
/// 36 entries, from 3 pieces" (the article's toy) says of every device at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DestinationSpread {
    /// Bytes received, least and most.
    pub bytes: (u64, u64),
    /// Pieces (messages) received, least and most.
    pub pieces: (u64, u64),
    /// Some destination also copies within itself (not counted in the above).
    pub local_copies: bool,
}

impl DestinationSpread {
    /// What one destination device receives, in a sentence: "Each destination device receives 36 entries
    /// (72 B) in 3 pieces." Entries are said where one tensor's bytes per entry (`entry_bytes`) make them
    /// exact; a spread is said "from … to …".
    pub fn sentence(&self, destinations: usize, entry_bytes: Option<u64>) -> String {
        let range = |(least, most): (u64, u64), say: &dyn Fn(u64) -> String| {
            if least == most { say(most) } else { format!("{} to {}", say(least), say(most)) }
        };
        if self.bytes.1 == 0 {
            return "No destination device receives anything over a link: every piece is a local copy.".into();
        }
        let bytes = range(self.bytes, &format_bytes);
        let amount = match entry_bytes.filter(|&e| e > 0) {
            Some(e) => {
                let counts = (self.bytes.0 / e, self.bytes.1 / e);
                let noun = if counts == (1, 1) { "entry" } else { "entries" };
                format!("{} {noun} ({bytes})", range(counts, &format_count))
            }
            None => bytes,
        };
        let pieces = range(self.pieces, &format_count);
        let noun = if self.pieces == (1, 1) { "piece" } else { "pieces" };
        let who = if destinations == 1 { "The destination device" } else { "Each destination device" };
        let local = if self.local_copies { " over links, not counting local copies" } else { "" };
        format!("{who} receives {amount} in {pieces} {noun}{local}.")
    }
}

impl Traffic {
    /// [`DestinationSpread`] over the destination devices (local copies apart, as in bytes received), or
    /// `None` with no destination.
    pub fn destination_spread(&self) -> Option<DestinationSpread> {
        let mut received = self.devices.iter().zip(&self.destination).filter(|&(_, &d)| d).map(|(device, _)| device);
        let first = received.next()?;
        let spread = |d: &DeviceTraffic| DestinationSpread {
            bytes: (d.bytes_received, d.bytes_received),
            pieces: (d.messages_received, d.messages_received),
            local_copies: d.local_bytes > 0,
        };
        Some(received.fold(spread(first), |s, d| DestinationSpread {
            bytes: (s.bytes.0.min(d.bytes_received), s.bytes.1.max(d.bytes_received)),
            pieces: (s.pieces.0.min(d.messages_received), s.pieces.1.max(d.messages_received)),
            local_copies: s.local_copies || d.local_bytes > 0,
        }))
    }

    pub fn new(reshard: &Reshard, table: &DeviceTable, strategy: Strategy) -> Traffic {
        Traffic {
            strategy,
            devices: table.devices.iter().map(|&device| DeviceTraffic { device, ..Default::default() }).collect(),
            per_tensor: reshard
                .tensors
                .iter()
                .map(|t| TensorTotals { name: t.name.clone(), unique_entries: t.entries(), ..Default::default() })
                .collect(),
            topology: reshard.topology,
            destination: {
                let mut destination = vec![false; table.devices.len()];
                for &slot in &table.destination_slots {
                    destination[slot as usize] = true;
                }
                destination
            },
            all_bytes: 0,
            all_entries: 0,
            overflowed: false,
        }
    }

    /// The cost model this traffic is priced with.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Prices this traffic with another cost model of the same devices per node: the loads are the plan's,
    /// only their seconds change. A new bandwidth or latency re-prices a plan instead of planning it again
    /// ([`Reshard::plan_key`]). `None` when the nodes differ: the links would be classed anew.
    pub fn reprice(&mut self, topology: Topology) -> Option<()> {
        (topology.devices_per_node == self.topology.devices_per_node).then(|| self.topology = topology)
    }

    /// This traffic priced with `topology`: itself when it is priced so already, else a re-priced copy (as
    /// planned when `topology` has other nodes, see [`Traffic::reprice`]).
    pub fn priced(&self, topology: Topology) -> std::borrow::Cow<'_, Traffic> {
        if self.topology == topology {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut priced = self.clone();
        priced.reprice(topology);
        std::borrow::Cow::Owned(priced)
    }

    /// `self`, unless its counts overflowed 64 bits.
    fn fitting(self) -> Result<Traffic, String> {
        if self.overflowed {
            return Err("this change would move more than 2⁶⁴ bytes (16 EiB) or entries in all, more than \
                        its counts can hold: fewer devices, or a smaller tensor"
                .into());
        }
        Ok(self)
    }

    /// Adds one piece. Cheap: a few additions on dense arrays.
    #[inline]
    pub fn add(&mut self, piece: &Piece) {
        let entries = piece.region.entries();
        match (self.all_bytes.checked_add(piece.bytes), self.all_entries.checked_add(entries)) {
            (Some(bytes), Some(all)) => (self.all_bytes, self.all_entries) = (bytes, all),
            _ => {
                self.overflowed = true;
                return;
            }
        }
        let tensor = &mut self.per_tensor[piece.tensor];
        tensor.entries_moved += entries;
        tensor.pieces += 1;
        if piece.link == LinkClass::Local {
            tensor.local_bytes += piece.bytes;
            self.devices[piece.src_slot as usize].local_bytes += piece.bytes;
            return;
        }
        if self.destination[piece.dst_slot as usize] {
            tensor.bytes_received += piece.bytes;
        }
        tensor.messages += 1;
        let (out, inn) = match piece.link {
            LinkClass::Nvlink => (0, 1),
            _ => (2, 3),
        };
        let sender = &mut self.devices[piece.src_slot as usize];
        sender.bytes_sent += piece.bytes;
        sender.messages_sent += 1;
        sender.links[out] += piece.bytes;
        let receiver = &mut self.devices[piece.dst_slot as usize];
        receiver.bytes_received += piece.bytes;
        receiver.messages_received += 1;
        receiver.links[inn] += piece.bytes;
    }

    /// Every link with a non-zero load, in device order.
    fn link_loads(&self) -> impl Iterator<Item = LinkLoad> + '_ {
        self.devices.iter().flat_map(|d| {
            LinkKind::ALL.iter().enumerate().filter(|(i, _)| d.links[*i] > 0).map(|(i, &link)| LinkLoad {
                device: d.device,
                link,
                bytes: d.links[i],
                seconds: d.links[i] as f64 / link.bytes_per_second(&self.topology),
            })
        })
    }

    /// Every link with a non-zero load, busiest first (ties: device id, then link).
    pub fn links(&self) -> Vec<LinkLoad> {
        let mut loads: Vec<LinkLoad> = self.link_loads().collect();
        loads.sort_unstable_by(busiest_first);
        loads
    }

    /// The link with the largest load in bytes: the first of [`Traffic::links`], found without sorting
    /// them all (an edit asks for it several times).
    pub fn max_link(&self) -> Option<LinkLoad> {
        self.link_loads().min_by(busiest_first)
    }

    pub fn estimate(&self) -> Estimate {
        let topology = &self.topology;
        // The first of the slowest links in the busiest-first order, so that a tie names the same link as
        // `max_link` (colocated: the headline said nvlink_out of d0, the estimate nvlink_in of d0).
        let bounding_link =
            self.link_loads().min_by(|a, b| b.seconds.total_cmp(&a.seconds).then_with(|| busiest_first(a, b)));
        let bandwidth_seconds = bounding_link.map_or(0.0, |l| l.seconds);
        let max_messages = self.devices.iter().map(|d| d.messages_sent.max(d.messages_received)).max().unwrap_or(0);
        let latency_seconds = topology.latency_us * 1e-6 * max_messages as f64;
        let seconds = bandwidth_seconds + latency_seconds;
        let bandwidth_gbps = bounding_link.map_or(0.0, |l| match l.link {
            LinkKind::NvlinkIn | LinkKind::NvlinkOut => topology.nvlink_gbps,
            LinkKind::NicIn | LinkKind::NicOut => topology.nic_gbps,
        });
        let link_text = match bounding_link {
            Some(l) => format!("{} B on {}(d{}) / {bandwidth_gbps} GB/s", l.bytes, l.link.name(), l.device),
            None => "no link used".into(),
        };
        let formula = format!(
            "max over links (load / bandwidth) + latency × most messages one device sends or receives = {link_text} + {} µs × {max_messages} = {}",
            topology.latency_us,
            format_seconds(seconds)
        );
        Estimate {
            seconds,
            bandwidth_seconds,
            latency_seconds,
            bounding_link,
            bandwidth_gbps,
            latency_us: topology.latency_us,
            max_messages,
            formula,
        }
    }

    /// Bytes by the class of link they cross: copies within a device, sends within a node (NVLink), sends
    /// across nodes (NIC). Each sent byte is counted once, at its sender's out port, so NVLink's and the
    /// NIC's add up to the bytes sent; the per-link table has them port by port, and a reviewer added 81 rows
    /// by hand to split a plan between NVLink and the NIC (review 37).
    pub fn by_link_class(&self) -> [(LinkClass, u64); 3] {
        let sum = |port: usize| self.devices.iter().map(|d| d.links[port]).fold(0u64, u64::saturating_add);
        let local = self.devices.iter().map(|d| d.local_bytes).fold(0u64, u64::saturating_add);
        [(LinkClass::Local, local), (LinkClass::Nvlink, sum(0)), (LinkClass::Nic, sum(2))]
    }

    pub fn totals(&self) -> Totals {
        let sum = |f: fn(&TensorTotals) -> u64| self.per_tensor.iter().map(f).fold(0u64, u64::saturating_add);
        Totals {
            unique_entries: sum(|t| t.unique_entries),
            entries_moved: sum(|t| t.entries_moved),
            bytes_received: sum(|t| t.bytes_received),
            bytes_sent: self.devices.iter().map(|d| d.bytes_sent).fold(0u64, u64::saturating_add),
            local_bytes: sum(|t| t.local_bytes),
            messages: sum(|t| t.messages),
            pieces: sum(|t| t.pieces),
            max_link_bytes: self.devices.iter().flat_map(|d| d.links).max().unwrap_or(0),
            estimated_seconds: self.estimate().seconds,
        }
    }

    /// Totals per group of `tensors` (the change these counts come from, whose order they follow): each
    /// tensor's own `group`, else [`group_of`] its name; groups in first-seen order. The inventory's table
    /// and the plan's JSON export both add up by this, so they agree.
    pub fn per_group(&self, tensors: &[TensorChange]) -> Vec<TensorTotals> {
        let mut groups: Vec<TensorTotals> = Vec::new();
        for (tensor, t) in tensors.iter().zip(&self.per_tensor) {
            let name = group_name(tensor);
            let index = match groups.iter().position(|g| g.name == name) {
                Some(i) => i,
                None => {
                    groups.push(TensorTotals { name, ..Default::default() });
                    groups.len() - 1
                }
            };
            // Parts of the counts checked against overflow as pieces were added, and of the spec's sizes.
            let group = &mut groups[index];
            group.unique_entries += t.unique_entries;
            group.entries_moved += t.entries_moved;
            group.bytes_received += t.bytes_received;
            group.local_bytes += t.local_bytes;
            group.messages += t.messages;
            group.pieces += t.pieces;
        }
        groups
    }
}

/// The group `tensor`'s totals are added up in: the spec's own label, else [`group_of`] its name.
pub fn group_name(tensor: &TensorChange) -> String {
    tensor.group.clone().unwrap_or_else(|| group_of(&tensor.name))
}

/// A tensor's group: its name with numeric path segments replaced by `*` (`layers.3.attn.wq` →
/// `layers.*.attn.wq`), so that per-layer weights add up per kind.
pub fn group_of(name: &str) -> String {
    name.split('.')
        .map(|part| if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) { "*" } else { part })
        .collect::<Vec<_>>()
        .join(".")
}

/// Plans `strategy` for the whole change and accumulates its traffic without keeping any piece.
pub fn analyse(reshard: &Reshard, strategy: Strategy) -> Result<Traffic, String> {
    let mut planner = Planner::new(reshard, strategy);
    let mut traffic = Traffic::new(reshard, &planner.table, strategy);
    planner.run(|piece| traffic.add(piece))?;
    traffic.fitting()
}

/// The order of [`Traffic::links`]: most bytes first, then the lower device id, then the link.
fn busiest_first(a: &LinkLoad, b: &LinkLoad) -> std::cmp::Ordering {
    b.bytes.cmp(&a.bytes).then(a.device.cmp(&b.device)).then(a.link.cmp(&b.link))
}

/// The intersection plan with relaying inside destination nodes: when one source sends the same box to
/// several devices of one node (the replicas of a replicated destination), the box crosses the NIC once
/// and its receivers pass it on down a chain over NVLink. The article's point that a replicated
/// destination can need several copies while an expensive link carries a contribution only once: bytes
/// received by devices stay the same, the NICs carry less and NVLink more.
#[derive(Clone, Debug)]
pub struct Relayed {
    pub traffic: Traffic,
    /// Pieces that would be forwarded inside a node instead of crossing a NIC.
    pub forwarded: u64,
    /// Their bytes.
    pub forwarded_bytes: u64,
}

/// Beyond this many pieces in the plan of a replicated destination, [`analyse_relayed`] gives up (it holds
/// them to choose each box's first receiver).
pub const MAX_RELAYED_PIECES: usize = 1 << 20;

/// [`Relayed`] for `reshard`, or `None` when no box crosses a NIC to several devices of one node (only a
/// replicated destination can make that happen, so other changes are not planned again) or when the plan
/// has more than [`MAX_RELAYED_PIECES`] pieces (they are held to choose each box's first receiver). Each
/// box's first receiver is the one whose NIC has received the least so far, so that the NIC loads spread
/// over the node; the box then travels down a chain, each receiver forwarding it to the next, as NCCL's
/// broadcast does. A star (the first receiver sending every copy) loaded one NVLink with all but one of
/// them: 7 boxes out of one device for 8 replicas, against at most one per box in a chain.
///
/// Written for the web build's size: the plan is materialised with [`super::plan::plan`] (a new closure
/// for the planner would copy the whole planner into the bundle), and the boxes are grouped with map types
/// the app already has.
pub fn analyse_relayed(reshard: &Reshard) -> Result<Option<Relayed>, String> {
    use super::geometry::Region;
    use super::placement::Placement;
    use std::collections::HashMap;
    if !reshard.tensors.iter().any(|t| t.destination.placements.contains(&Placement::Replicate))
        || super::plan::count_pieces(reshard, MAX_RELAYED_PIECES as u64 + 1) > MAX_RELAYED_PIECES as u64
    {
        return Ok(None);
    }
    let plan = super::plan::plan(reshard, Strategy::Intersection)?;
    let mut traffic = Traffic::new(reshard, &plan.table, Strategy::Intersection);
    // A box is one source's region to one node: (tensor, source, contributor, node) as a small id, found
    // by a hash with exact comparison (a collision probes the next slot), then the region.
    let mut id_of: HashMap<u64, u32> = HashMap::new();
    let mut senders: Vec<(usize, u32, usize, u32)> = Vec::new();
    let mut group_of: HashMap<(Region, usize), usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (index, piece) in plan.pieces.iter().enumerate() {
        if piece.link != LinkClass::Nic {
            traffic.add(piece);
            continue;
        }
        let sender = (piece.tensor, piece.src, piece.contributor, reshard.topology.node_of(piece.dst));
        let mut hash = (sender.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(sender.1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (sender.2 as u64).wrapping_mul(0x1656_67B1_9E37_79F9)
            ^ u64::from(sender.3).wrapping_mul(0x27D4_EB2F_1656_67C5);
        let id = loop {
            let id = *id_of.entry(hash).or_insert(senders.len() as u32) as usize;
            if id == senders.len() {
                senders.push(sender);
            }
            if senders[id] == sender {
                break id;
            }
            hash = hash.wrapping_add(1);
        };
        match group_of.get(&(piece.region, id)) {
            Some(&group) => groups[group].push(index),
            None => {
                group_of.insert((piece.region, id), groups.len());
                groups.push(vec![index]);
            }
        }
    }
    let mut received = vec![0u64; traffic.devices.len()];
    let (mut forwarded, mut forwarded_bytes) = (0u64, 0u64);
    for group in &groups {
        let pieces = || group.iter().map(|&i| &plan.pieces[i]);
        let Some(first) = pieces().min_by_key(|p| received[p.dst_slot as usize]) else { continue };
        received[first.dst_slot as usize] = received[first.dst_slot as usize].saturating_add(first.bytes);
        traffic.add(first);
        let mut previous = first;
        for piece in pieces().filter(|p| p.dst_slot != first.dst_slot) {
            forwarded += 1;
            forwarded_bytes = forwarded_bytes.saturating_add(piece.bytes);
            traffic.add(&Piece { src: previous.dst, src_slot: previous.dst_slot, link: LinkClass::Nvlink, ..*piece });
            previous = piece;
        }
    }
    let traffic = traffic.fitting()?;
    Ok((forwarded > 0).then_some(Relayed { traffic, forwarded, forwarded_bytes }))
}

/// Seconds in the unit that reads best: `12.5 s`, `3.2 ms`, `41 µs`.
pub fn format_seconds(seconds: f64) -> String {
    if seconds == 0.0 {
        "0 s".into()
    } else if seconds >= 1.0 {
        format!("{} s", trim_float(seconds, 4))
    } else if seconds >= 1e-3 {
        format!("{} ms", trim_float(seconds * 1e3, 4))
    } else if seconds >= 1e-6 {
        format!("{} µs", trim_float(seconds * 1e6, 4))
    } else if seconds >= 1e-9 {
        format!("{} ns", trim_float(seconds * 1e9, 4))
    } else {
        // Below a nanosecond only the bandwidth term of a few bytes lands: its fourth digit claims a
        // precision the cost model does not have (`0.3815 ns`).
        format!("{} ns", trim_float(seconds * 1e9, 2))
    }
}

/// A number with at most `sig` significant digits and no trailing zeros.
pub fn trim_float(value: f64, sig: usize) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (sig as i32 - 1 - magnitude).max(0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// A count of messages as a sentence says it: `1 message`, `1,024 messages`.
pub fn messages_text(count: u64) -> String {
    if count == 1 { "1 message".to_string() } else { format!("{} messages", format_count(count)) }
}

/// A count with thousands separators: `1234567` → `1,234,567`.
pub fn format_count(count: u64) -> String {
    grouped_digits(&count.to_string())
}

/// A number written in decimals (`1000000`, `-12345.678`) with its whole part's digits grouped in threes:
/// `1,000,000`, `-12,345.678`. Text in scientific notation, or not a number, is returned as it is. For
/// sentences a reader reads ("Refit got 1,000,000× faster"), not for values a text format reads back.
pub fn grouped_digits(text: &str) -> String {
    let (sign, rest) = text.strip_prefix('-').map_or(("", text), |rest| ("-", rest));
    let (whole, fraction) = rest.split_once('.').map_or((rest, None), |(w, f)| (w, Some(f)));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.is_none_or(|f| f.bytes().all(|b| b.is_ascii_digit()))
    {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + whole.len() / 3);
    out.push_str(sign);
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    if let Some(fraction) = fraction {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// Bytes with a binary unit: `144 B`, `1.5 KiB`, `128 MiB`. Bytes stay exact up to 1023; above, never
/// four digits before the point: from 1000 of a unit on, the next one (`0.979 TiB`, not `1002 GiB` in a
/// column that also holds `5.62 TiB`).
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let (mut value, mut unit) = (bytes as f64 / 1024.0, 1);
    // 999.5 and up would round to four digits.
    while value >= 999.5 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{} {}", trim_float(value, 3), UNITS[unit])
}

/// How many of `count` devices share one row (or column) of a heatmap at most `max_side` wide: the least
/// size that fits, or a larger one up to twice that when it divides `count` evenly. A last bucket with fewer
/// devices sums fewer bytes and looks lighter for no reason (1024 devices by 22 left 12 in the last row;
/// by 32 every row holds 32).
pub fn bucket_size(count: usize, max_side: usize) -> usize {
    let least = count.div_ceil(max_side.max(1)).max(1);
    (least..=least.saturating_mul(2)).find(|size| count.is_multiple_of(*size)).unwrap_or(least)
}

/// Bytes from source devices to destination devices, bucketed so that a 1024 × 256 change still fits a
/// small heatmap: source mesh index `i` falls in row `i * rows / sources`, likewise for columns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairMatrix {
    pub rows: usize,
    pub cols: usize,
    /// How many source (destination) devices share one row (column).
    pub sources_per_row: usize,
    pub destinations_per_col: usize,
    /// Row-major, `rows × cols`; local copies included (they are bytes a destination gets, over no link).
    pub bytes: Vec<u64>,
    /// The part of each cell's bytes that are local copies (a device to itself, over no link), so a picture
    /// can tell them from transfers.
    pub local: Vec<u64>,
    /// What the grid cannot show, so that a picture can say it: gather's messages into a root that is not a
    /// destination (its column does not exist), and broadcast hops sent by a device that is not a source.
    /// With the grid's cells they add up to every byte the plan sends.
    pub off_grid: OffGrid,
}

/// Messages outside a [`PairMatrix`]'s source × destination grid.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct OffGrid {
    /// Gather's root, when sources send to it and it is not a destination.
    pub root: Option<u32>,
    /// What the other sources send it, over links.
    pub to_root_bytes: u64,
    pub to_root_messages: u64,
    /// The root's own share: local copies, over no link.
    pub to_root_local_bytes: u64,
    /// Ring hops from one destination to the next (the root's own first hop is a source → destination cell).
    pub ring_bytes: u64,
    pub ring_messages: u64,
}

impl PairMatrix {
    pub fn new(sources: usize, destinations: usize, max_side: usize) -> PairMatrix {
        let sources_per_row = bucket_size(sources, max_side);
        let destinations_per_col = bucket_size(destinations, max_side);
        let rows = sources.div_ceil(sources_per_row).max(1);
        let cols = destinations.div_ceil(destinations_per_col).max(1);
        let cells = rows * cols;
        PairMatrix {
            rows,
            cols,
            sources_per_row,
            destinations_per_col,
            bytes: vec![0; cells],
            local: vec![0; cells],
            off_grid: OffGrid::default(),
        }
    }
    pub fn get(&self, row: usize, col: usize) -> u64 {
        self.bytes[row * self.cols + col]
    }
    /// The local copies' part of cell `(row, col)`.
    pub fn local(&self, row: usize, col: usize) -> u64 {
        self.local[row * self.cols + col]
    }
}

/// Device id → position in a mesh, looked up once per piece: a table indexed by id when ids are compact
/// (the usual case: a hash lookup per piece was a sizeable part of planning a large change in the browser),
/// a hash map otherwise.
enum MeshIndex {
    Dense(Vec<u32>),
    Sparse(std::collections::HashMap<u32, usize>),
}

impl MeshIndex {
    /// Ids beyond this many per device (plus a margin) make the dense table too sparse to be worth it.
    const DENSITY: usize = 16;

    fn new(devices: &[u32]) -> MeshIndex {
        let max = devices.iter().copied().max().unwrap_or(0) as usize;
        if max < Self::DENSITY * devices.len() + 4096 {
            let mut table = vec![u32::MAX; max + 1];
            for (i, &d) in devices.iter().enumerate() {
                table[d as usize] = i as u32;
            }
            MeshIndex::Dense(table)
        } else {
            MeshIndex::Sparse(devices.iter().enumerate().map(|(i, &d)| (d, i)).collect())
        }
    }

    #[inline(always)]
    fn get(&self, device: u32) -> Option<usize> {
        match self {
            MeshIndex::Dense(table) => {
                table.get(device as usize).copied().filter(|&i| i != u32::MAX).map(|i| i as usize)
            }
            MeshIndex::Sparse(map) => map.get(&device).copied(),
        }
    }
}

/// Everything a view needs from one strategy, computed in one pass over the pieces: the traffic, the pair
/// matrix, and the pieces themselves when there are at most `keep_limit` of them.
#[derive(Clone, Debug)]
pub struct PlanSummary {
    pub strategy: Strategy,
    pub traffic: Traffic,
    pub pairs: PairMatrix,
    /// `None` when the plan has more than `keep_limit` pieces (draw aggregates instead).
    pub pieces: Option<Vec<Piece>>,
    pub table: DeviceTable,
}

/// Plans `strategy` once, accumulating traffic and the pair matrix, keeping pieces only up to `keep_limit`.
pub fn summarise(
    reshard: &Reshard,
    strategy: Strategy,
    keep_limit: usize,
    heatmap_side: usize,
) -> Result<PlanSummary, String> {
    let mut planner = Planner::new(reshard, strategy);
    let mut traffic = Traffic::new(reshard, &planner.table, strategy);
    let source_index = MeshIndex::new(&reshard.source_mesh.devices);
    let destination_index = MeshIndex::new(&reshard.destination_mesh.devices);
    let mut pairs = PairMatrix::new(reshard.source_mesh.size(), reshard.destination_mesh.size(), heatmap_side);
    let mut pieces = Some(Vec::new());
    planner.run(|piece| {
        traffic.add(piece);
        match (source_index.get(piece.src), destination_index.get(piece.dst)) {
            (Some(s), Some(d)) => {
                let cell = (s / pairs.sources_per_row) * pairs.cols + d / pairs.destinations_per_col;
                pairs.bytes[cell] = pairs.bytes[cell].saturating_add(piece.bytes);
                if piece.link == LinkClass::Local {
                    pairs.local[cell] = pairs.local[cell].saturating_add(piece.bytes);
                }
            }
            // A source sending to gather's root, which is not a destination: no column to put it in.
            (Some(_), None) => {
                let off = &mut pairs.off_grid;
                off.root = Some(piece.dst);
                if piece.link == LinkClass::Local {
                    off.to_root_local_bytes = off.to_root_local_bytes.saturating_add(piece.bytes);
                } else {
                    off.to_root_bytes = off.to_root_bytes.saturating_add(piece.bytes);
                    off.to_root_messages += 1;
                }
            }
            // Ring hops of a broadcast start at destinations that are not sources: no row.
            _ => {
                let off = &mut pairs.off_grid;
                off.ring_bytes = off.ring_bytes.saturating_add(piece.bytes);
                off.ring_messages += 1;
            }
        }
        if let Some(list) = &mut pieces {
            if list.len() < keep_limit {
                list.push(*piece);
            } else {
                pieces = None;
            }
        }
    })?;
    Ok(PlanSummary { strategy, traffic: traffic.fitting()?, pairs, pieces, table: planner.table })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::presets;
    use crate::core::spec::parse_spec;

    #[test]
    fn whole_parts_are_grouped_in_threes_and_other_text_kept() {
        for (text, want) in [
            ("1000000", "1,000,000"),
            ("-12345.678", "-12,345.678"),
            ("999", "999"),
            ("1000", "1,000"),
            ("0.0001", "0.0001"),
            ("1e-7", "1e-7"),
            ("inf", "inf"),
            ("", ""),
            ("12.3.4", "12.3.4"),
        ] {
            assert_eq!(grouped_digits(text), want, "{text}");
        }
        assert_eq!(format_count(1_234_567), "1,234,567");
    }

    #[test]
    fn a_tensor_planned_alone_has_its_pieces_of_the_whole_plan() {
        // The web app draws a tensor of a plan too large to keep from the tensor planned alone (but gather's,
        // whose tensors share the root's and the ring's messages).
        let inventory = crate::core::spec::parse_spec(&presets::llama_inventory_json(2)).expect("the inventory");
        let nested = presets::build(presets::PRESETS.iter().find(|p| p.name == "nested").expect("nested"));
        for reshard in [inventory, nested] {
            for strategy in [Strategy::Intersection, Strategy::WholeShard] {
                let whole = summarise(&reshard, strategy, usize::MAX, 8).expect("plans").pieces.expect("kept");
                for index in [0, reshard.tensors.len() / 2, reshard.tensors.len() - 1] {
                    let alone = reshard.tensor_alone(index).expect("a tensor");
                    let mut own = summarise(&alone, strategy, usize::MAX, 8).expect("plans").pieces.expect("kept");
                    own.iter_mut().for_each(|p| p.tensor = index);
                    let of_whole: Vec<Piece> = whole.iter().filter(|p| p.tensor == index).copied().collect();
                    assert_eq!(own, of_whole, "tensor {index}, {strategy:?}");
                }
            }
        }
        assert!(presets::toy().tensor_alone(1).is_none());
    }

    #[test]
    fn bytes_by_link_class_are_the_pieces_bytes_by_their_link_and_add_up_to_the_bytes_sent() {
        for preset in presets::PRESETS.iter().filter(|p| p.name != "large") {
            let reshard = presets::build(preset);
            for strategy in Strategy::ALL {
                let summary = summarise(&reshard, strategy, usize::MAX, 8).expect("plans");
                let pieces = summary.pieces.expect("kept");
                let of_pieces =
                    |class: LinkClass| pieces.iter().filter(|p| p.link == class).map(|p| p.bytes).sum::<u64>();
                let by_class = summary.traffic.by_link_class();
                for (class, bytes) in by_class {
                    assert_eq!(bytes, of_pieces(class), "{} {strategy:?} {class:?}", preset.name);
                }
                assert_eq!(by_class[1].1 + by_class[2].1, summary.traffic.totals().bytes_sent, "{}", preset.name);
            }
        }
        // The article's toy: all 144 B within one node; colocated: copies within devices too.
        let toy = summarise(&presets::toy(), Strategy::Intersection, 0, 1).expect("plans").traffic.by_link_class();
        assert_eq!(toy, [(LinkClass::Local, 0), (LinkClass::Nvlink, 144), (LinkClass::Nic, 0)]);
        let colocated = presets::build(presets::PRESETS.iter().find(|p| p.name == "colocated").expect("colocated"));
        let colocated = summarise(&colocated, Strategy::Intersection, 0, 1).expect("plans").traffic.by_link_class();
        assert!(colocated[0].1 > 0, "{colocated:?}");
    }

    #[test]
    fn the_destination_spread_is_the_least_and_most_any_destination_receives() {
        // The article's toy: each destination needs 36 entries (72 B of bf16), from 3 pieces of 12.
        let toy = analyse(&presets::toy(), Strategy::Intersection).expect("plans");
        assert_eq!(
            toy.destination_spread(),
            Some(DestinationSpread { bytes: (72, 72), pieces: (3, 3), local_copies: false })
        );
        // Whole shards: each of the 3 overlapping shards arrives whole, 144 B.
        let whole = analyse(&presets::toy(), Strategy::WholeShard).expect("plans");
        assert_eq!(
            whole.destination_spread(),
            Some(DestinationSpread { bytes: (144, 144), pieces: (3, 3), local_copies: false })
        );
        // Every preset and strategy: the spread bounds every destination's own count, and is reached.
        for preset in presets::PRESETS.iter().filter(|p| p.name != "large") {
            let reshard = presets::build(preset);
            for strategy in Strategy::ALL {
                let traffic = analyse(&reshard, strategy).expect("plans");
                let spread = traffic.destination_spread().expect("destinations");
                let destinations: Vec<&DeviceTraffic> =
                    traffic.devices.iter().zip(&traffic.destination).filter(|&(_, &d)| d).map(|(d, _)| d).collect();
                let bytes: Vec<u64> = destinations.iter().map(|d| d.bytes_received).collect();
                let pieces: Vec<u64> = destinations.iter().map(|d| d.messages_received).collect();
                let range = |v: &[u64]| (*v.iter().min().unwrap(), *v.iter().max().unwrap());
                let local_copies = destinations.iter().any(|d| d.local_bytes > 0);
                let want = DestinationSpread { bytes: range(&bytes), pieces: range(&pieces), local_copies };
                assert_eq!(spread, want, "{}", preset.name);
                // Their sum is the bytes received by devices.
                assert_eq!(bytes.iter().sum::<u64>(), traffic.totals().bytes_received, "{} {strategy:?}", preset.name);
            }
        }
        assert_eq!(
            toy.destination_spread().unwrap().sentence(2, Some(2)),
            "Each destination device receives 36 entries (72 B) in 3 pieces."
        );
        let spread = |bytes, pieces| DestinationSpread { bytes, pieces, local_copies: false };
        assert_eq!(
            spread((48, 72), (2, 3)).sentence(4, Some(2)),
            "Each destination device receives 24 to 36 entries (48 B to 72 B) in 2 to 3 pieces."
        );
        assert_eq!(
            spread((4, 4), (1, 1)).sentence(1, Some(4)),
            "The destination device receives 1 entry (4 B) in 1 piece."
        );
        assert_eq!(
            spread((0, 3 << 30), (0, 2000)).sentence(8, None),
            "Each destination device receives 0 B to 3 GiB in 0 to 2,000 pieces."
        );
        assert_eq!(
            spread((0, 0), (0, 0)).sentence(8, Some(2)),
            "No destination device receives anything over a link: every piece is a local copy."
        );
        // Colocated: the copies a device makes within itself are apart, and said to be.
        let colocated = presets::build(presets::PRESETS.iter().find(|p| p.name == "colocated").expect("colocated"));
        let spread = analyse(&colocated, Strategy::Intersection).expect("plans").destination_spread().expect("some");
        assert!(spread.local_copies);
        assert!(
            spread.sentence(8, Some(2)).ends_with(" over links, not counting local copies."),
            "{}",
            spread.sentence(8, Some(2))
        );
        // Uneven: an empty destination shard receives nothing while another receives its rows.
        let uneven = presets::build(presets::PRESETS.iter().find(|p| p.name == "uneven").expect("uneven"));
        let spread = analyse(&uneven, Strategy::Intersection).expect("plans").destination_spread().expect("some");
        assert!(spread.bytes.0 < spread.bytes.1, "{spread:?}");
    }

    #[test]
    fn a_change_plans_as_its_plan_key_does() {
        // The web app keeps a plan across a rename (Reshard::plan_key): names and groups must not reach it.
        for preset in presets::PRESETS.iter().filter(|p| p.name != "large") {
            let mut reshard = presets::build(preset);
            reshard.tensors[0].name = "renamed".into();
            reshard.tensors[0].group = Some("a group".into());
            for strategy in Strategy::ALL {
                let (named, keyed) = (
                    summarise(&reshard, strategy, 100_000, 48).expect("plans"),
                    summarise(&reshard.plan_key(), strategy, 100_000, 48).expect("plans"),
                );
                assert_eq!(named.pieces, keyed.pieces, "{} {strategy:?}", preset.name);
                assert_eq!(named.traffic.totals(), keyed.traffic.totals());
                assert_eq!(named.traffic.links(), keyed.traffic.links());
                assert_eq!(named.pairs.bytes, keyed.pairs.bytes);
            }
            let mut other = reshard.clone();
            other.tensors[0].name = "again".into();
            assert_eq!(other.plan_key(), reshard.plan_key());
            other.tensors[0].shape[0] += 1;
            assert_ne!(other.plan_key(), reshard.plan_key(), "a new shape is a new plan");
        }
    }

    #[test]
    fn a_plan_priced_anew_is_the_plan_made_with_that_cost_model() {
        // The web app plans the plan key (no bandwidths nor latency) and prices it with the change's own
        // cost model: every number shown must be what planning the change itself gives.
        for preset in presets::PRESETS.iter().filter(|p| p.name != "large") {
            let mut reshard = presets::build(preset);
            reshard.topology.nvlink_gbps = 123.0;
            reshard.topology.nic_gbps = 7.5;
            reshard.topology.latency_us = 40.0;
            assert_ne!(reshard.plan_key().topology, reshard.topology, "the key must leave the prices out");
            for strategy in Strategy::ALL {
                let direct = summarise(&reshard, strategy, 100_000, 48).expect("plans");
                let mut keyed = summarise(&reshard.plan_key(), strategy, 100_000, 48).expect("plans");
                assert_ne!(keyed.traffic.estimate(), direct.traffic.estimate(), "{} {strategy:?}", preset.name);
                assert_eq!(keyed.traffic.priced(reshard.topology).estimate(), direct.traffic.estimate());
                keyed.traffic.reprice(reshard.topology).expect("same nodes");
                assert_eq!(keyed.traffic.estimate(), direct.traffic.estimate(), "{} {strategy:?}", preset.name);
                assert_eq!(keyed.traffic.totals(), direct.traffic.totals());
                assert_eq!(keyed.traffic.links(), direct.traffic.links());
                assert_eq!(keyed.pieces, direct.pieces);
            }
            let mut other = reshard.clone();
            other.topology.latency_us = 1.0;
            other.topology.nic_gbps = 1.0;
            assert_eq!(other.plan_key(), reshard.plan_key(), "a price is not a new plan");
            assert_ne!(other.check_key(), reshard.check_key(), "but the check reads it");
            other.topology.devices_per_node = 2;
            assert_ne!(other.plan_key(), reshard.plan_key(), "new nodes are a new plan");
            let mut traffic = analyse(&reshard, Strategy::Intersection).expect("plans");
            assert_eq!(traffic.reprice(other.topology), None, "links classed by other nodes are not re-priced");
            assert_eq!(traffic.topology(), reshard.topology);
        }
    }

    #[test]
    fn the_busiest_and_the_bounding_link_are_the_sorted_lists_first_and_first_slowest() {
        // Found without sorting every link; they must still name what the sorted table names first.
        for preset in presets::PRESETS {
            let reshard = presets::build(preset);
            for strategy in Strategy::ALL {
                let traffic = analyse(&reshard, strategy).unwrap();
                let links = traffic.links();
                assert_eq!(traffic.max_link(), links.first().copied(), "{} {strategy:?}", preset.name);
                let slowest = links.iter().map(|l| l.seconds).fold(0.0, f64::max);
                let first_slowest = links.iter().find(|l| l.seconds == slowest).copied();
                assert_eq!(traffic.estimate().bounding_link, first_slowest, "{} {strategy:?}", preset.name);
            }
        }
    }

    #[test]
    fn a_plan_whose_counts_overflow_64_bits_is_refused_not_wrapped() {
        // One tensor of 2⁶² bytes is valid; four replicas receiving it are 2⁶⁴ bytes received. The web build
        // wrapped that to 0 B, and a native build panicked.
        let spec = |replicas: u32| {
            format!(
                r#"{{"tensor": {{"shape": [4611686018427387904], "dtype": "int8"}},
                    "source": {{"mesh": [1], "placements": ["R"]}},
                    "destination": {{"mesh": [{replicas}], "placements": ["R"]}}}}"#
            )
        };
        let four = parse_spec(&spec(4)).expect("a valid spec");
        for strategy in Strategy::ALL {
            let refused = analyse(&four, strategy).expect_err("counts past 2⁶⁴");
            assert!(refused.contains("more than 2⁶⁴ bytes"), "{refused}");
            assert!(summarise(&four, strategy, 10, 48).is_err());
        }
        // Three replicas, 3 × 2⁶² bytes: counted exactly.
        let three = parse_spec(&spec(3)).expect("a valid spec");
        let totals = analyse(&three, Strategy::Intersection).expect("fits").totals();
        assert_eq!(totals.bytes_received, 3 << 62);
    }

    #[test]
    fn groups_are_the_specs_own_labels_else_the_names_pattern() {
        let spec = r#"{"tensors": [
                {"name": "layers.0.wq", "shape": [8], "group": "attention"},
                {"name": "layers.1.wq", "shape": [8], "group": "attention"},
                {"name": "layers.0.w1", "shape": [4]},
                {"name": "layers.1.w1", "shape": [4]}],
            "source": {"mesh": [2], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "placements": ["R"]}}"#;
        let reshard = parse_spec(spec).expect("a valid inventory");
        let groups = analyse(&reshard, Strategy::Intersection).expect("plans").per_group(&reshard.tensors);
        let names: Vec<(&str, u64)> = groups.iter().map(|g| (g.name.as_str(), g.unique_entries)).collect();
        assert_eq!(names, [("attention", 16), ("layers.*.w1", 8)]);
    }

    #[test]
    fn the_pair_grid_and_what_it_cannot_show_add_up_to_every_byte_sent() {
        // The partial preset's gather: d1–d3 send their 128 B contributions to the root d0, which is a source
        // and no destination (its own is a local copy); the root's first hop to d4 is a cell, d4 → d5 is not.
        let partial = summarise(&presets::partial(), Strategy::Gather, 0, 48).unwrap();
        let off = &partial.pairs.off_grid;
        assert_eq!(
            (off.root, off.to_root_bytes, off.to_root_messages, off.to_root_local_bytes),
            (Some(0), 384, 3, 128)
        );
        assert_eq!((off.ring_bytes, off.ring_messages), (128, 1));
        assert_eq!(partial.pairs.bytes.iter().sum::<u64>(), 128);
        for reshard in [
            presets::toy(),
            presets::uneven(),
            presets::nested(),
            presets::partial(),
            presets::fsdp_tp(),
            presets::colocated(),
        ] {
            for strategy in Strategy::ALL {
                let summary = summarise(&reshard, strategy, usize::MAX, 48).unwrap();
                let mut sent = 0u64;
                Planner::new(&reshard, strategy).run(|piece| sent += piece.bytes).unwrap();
                let off = &summary.pairs.off_grid;
                let grid: u64 = summary.pairs.bytes.iter().sum();
                assert_eq!(grid + off.to_root_bytes + off.to_root_local_bytes + off.ring_bytes, sent, "{strategy:?}");
                // Bytes sent counts every message once: all the planner's bytes but the local copies'.
                let totals = summary.traffic.totals();
                assert_eq!(totals.bytes_sent + totals.local_bytes, sent, "{strategy:?}");
                if strategy != Strategy::Gather {
                    assert_eq!(
                        totals.bytes_sent, totals.bytes_received,
                        "{strategy:?}: every sender sends to a destination"
                    );
                }
                // Every message over a link that is not into the root reaches a destination.
                let to_destinations = summary.traffic.totals().messages - off.to_root_messages;
                let received: u64 = summary
                    .traffic
                    .devices
                    .iter()
                    .filter(|d| reshard.destination_mesh.devices.contains(&d.device))
                    .map(|d| d.messages_received)
                    .sum();
                assert_eq!(to_destinations, received, "{strategy:?}");
                if strategy != Strategy::Gather {
                    assert_eq!(*off, OffGrid::default(), "{strategy:?}: every message is a source → destination cell");
                }
            }
        }
    }

    #[test]
    fn message_counts_read_as_words() {
        assert_eq!(messages_text(1), "1 message");
        assert_eq!(messages_text(0), "0 messages");
        assert_eq!(messages_text(262_144), "262,144 messages");
    }

    #[test]
    fn counts_get_thousands_separators() {
        let cases = [(0, "0"), (999, "999"), (1_000, "1,000"), (72_000, "72,000"), (1_234_567, "1,234,567")];
        for (count, text) in cases {
            assert_eq!(format_count(count), text);
        }
        assert_eq!(format_count(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn heatmap_buckets_are_even_when_a_size_nearby_divides_the_mesh() {
        assert_eq!(bucket_size(8, 48), 1, "a small mesh is not bucketed");
        assert_eq!(bucket_size(1024, 48), 32, "not 22, which left 12 devices in the last row");
        assert_eq!(bucket_size(256, 48), 8);
        assert_eq!(bucket_size(997, 48), 21, "a prime: the least size, the last bucket partial");
        assert_eq!(bucket_size(0, 48), 1);
        let large = PairMatrix::new(1024, 256, 48);
        assert_eq!((large.rows, large.cols), (32, 32));
    }

    #[test]
    fn the_toy_keeps_the_three_quantities_apart() {
        let t = analyse(&presets::toy(), Strategy::Intersection).unwrap().totals();
        assert_eq!(t.unique_entries, 72);
        assert_eq!(t.bytes_received, 144, "72 entries of bf16 arrive at the destinations");
        assert_eq!(t.max_link_bytes, 72, "each destination's nvlink_in carries 36 entries");
        assert_eq!(t.messages, 6);
        let whole = analyse(&presets::toy(), Strategy::WholeShard).unwrap().totals();
        assert_eq!(whole.entries_moved, 144);
        assert_eq!(whole.bytes_received, 288);
        // Gather: the root d0 takes in d1's and d2's 48 B shards, then the ring brings each of the two
        // destinations the whole 144 B. Only the destinations' 288 B are bytes received by devices; the
        // root's 96 B load its links.
        let gather = analyse(&presets::toy(), Strategy::Gather).unwrap();
        assert_eq!(gather.totals().bytes_received, 288);
        assert_eq!(gather.totals().bytes_sent, 384, "bytes sent counts the root's 96 B too");
        assert_eq!(t.bytes_sent, 144);
        assert_eq!(gather.devices.iter().find(|d| d.device == 0).unwrap().bytes_received, 96);
        assert_eq!(gather.links().iter().filter(|l| l.link == LinkKind::NvlinkIn).map(|l| l.bytes).sum::<u64>(), 384);
    }

    #[test]
    fn mesh_index_finds_every_device_whether_ids_are_compact_or_not() {
        for devices in [vec![3u32, 0, 7, 5], vec![10, 4_000_000_000, 77, 1_000_000]] {
            let index = MeshIndex::new(&devices);
            assert_eq!(matches!(index, MeshIndex::Dense(_)), devices[1] < 1000);
            for (i, &d) in devices.iter().enumerate() {
                assert_eq!(index.get(d), Some(i));
            }
            assert_eq!(index.get(1), None);
            assert_eq!(index.get(u32::MAX), None);
        }
    }

    #[test]
    fn local_copies_cross_no_link() {
        let t = analyse(&presets::colocated(), Strategy::Intersection).unwrap();
        let totals = t.totals();
        assert_eq!(totals.local_bytes, 4 * 4 * 2, "one 2×2 bf16 piece stays on each device");
        assert_eq!(totals.bytes_received, 12 * 4 * 2);
        assert_eq!(totals.pieces, 16);
        assert_eq!(totals.messages, 12);
    }

    #[test]
    fn a_tie_names_the_same_link_in_the_headline_and_the_estimate() {
        // Colocated: every loaded link carries the same bytes at the same bandwidth.
        for (spec, strategy) in [(presets::colocated(), Strategy::Intersection), (presets::toy(), Strategy::WholeShard)]
        {
            let t = analyse(&spec, strategy).unwrap();
            let (busiest, bounding) = (t.max_link().unwrap(), t.estimate().bounding_link.unwrap());
            assert_eq!((bounding.device, bounding.link), (busiest.device, busiest.link));
        }
    }

    #[test]
    fn relaying_inside_a_node_halves_the_senders_nic_and_keeps_the_bytes_received() {
        // FSDP-8 → TP-4 × 2 on another node: each source's rows go to two replicas on node 1.
        let spec = presets::fsdp_tp();
        let direct = analyse(&spec, Strategy::Intersection).unwrap();
        let relayed = analyse_relayed(&spec).unwrap().expect("a replicated destination on one node");
        let (before, after) = (direct.totals(), relayed.traffic.totals());
        assert_eq!(after.bytes_received, before.bytes_received, "every replica still receives its copy");
        assert_eq!(relayed.forwarded, 8, "one of the two copies of each source's box");
        assert_eq!(relayed.forwarded_bytes, before.bytes_received / 2);
        let nic_out =
            |t: &Traffic| t.links().iter().filter(|l| l.link == LinkKind::NicOut).map(|l| l.bytes).max().unwrap_or(0);
        assert_eq!(nic_out(&relayed.traffic) * 2, nic_out(&direct));
        let nic_total = |t: &Traffic| {
            t.links()
                .iter()
                .filter(|l| matches!(l.link, LinkKind::NicOut | LinkKind::NicIn))
                .map(|l| l.bytes)
                .sum::<u64>()
        };
        assert_eq!(nic_total(&relayed.traffic) * 2, nic_total(&direct), "each box crosses to the node once");
        assert!(relayed.traffic.links().iter().any(|l| l.link == LinkKind::NvlinkOut), "forwarded over NVLink");
        // The first receivers alternate, so no device's NIC takes both replicas' boxes.
        assert_eq!(relayed.traffic.max_link().unwrap().bytes * 2, direct.max_link().unwrap().bytes);
        // Without replicas there is nothing to relay.
        assert!(analyse_relayed(&presets::large()).unwrap().is_none());
        assert!(analyse_relayed(&presets::toy()).unwrap().is_none());
    }

    #[test]
    fn relayed_copies_travel_down_a_chain_so_no_nvlink_carries_more_than_one_copy_of_a_box() {
        // Two sources' row halves to 8 replicas on one other node.
        let spec = crate::core::spec::parse_spec(
            r#"{"tensor": {"name": "w", "shape": [8, 8], "dtype": "bf16"},
                "source": {"mesh": [2], "placements": ["S(0)"]},
                "destination": {"mesh": [8], "placements": ["R"], "devices": [8, 9, 10, 11, 12, 13, 14, 15]}}"#,
        )
        .unwrap();
        let relayed = analyse_relayed(&spec).unwrap().expect("replicas on one node");
        let half = 4 * 8 * 2;
        assert_eq!(relayed.forwarded, 2 * 7, "each half crosses the NIC once and is forwarded 7 times");
        assert_eq!(relayed.forwarded_bytes, 2 * 7 * half);
        let loads = relayed.traffic.links();
        let nvlink_out: Vec<u64> = loads.iter().filter(|l| l.link == LinkKind::NvlinkOut).map(|l| l.bytes).collect();
        // In a chain every device but the last of each half's chain forwards it once: at most one copy of
        // each half per device (a star sent 7 copies out of each first receiver).
        assert!(nvlink_out.iter().all(|&bytes| bytes <= 2 * half), "{nvlink_out:?}");
        assert_eq!(nvlink_out.iter().sum::<u64>(), 2 * 7 * half);
        let nvlink_in: Vec<u64> = loads.iter().filter(|l| l.link == LinkKind::NvlinkIn).map(|l| l.bytes).collect();
        assert!(nvlink_in.iter().all(|&bytes| bytes <= 2 * half));
        assert_eq!(relayed.traffic.totals().bytes_received, 8 * 8 * 8 * 2, "every replica still gets the tensor");
    }

    #[test]
    fn cross_node_pieces_load_the_nic() {
        let t = analyse(&presets::large(), Strategy::Intersection).unwrap();
        let busiest = t.max_link().unwrap();
        // Each destination receives 8192 × 32 bf16 entries, all from other nodes' devices but 8.
        assert_eq!(busiest.link, LinkKind::NicIn);
        assert_eq!(t.devices.iter().find(|d| d.device == 1024).unwrap().bytes_received, 8192 * 32 * 2);
        let estimate = t.estimate();
        assert_eq!(estimate.bounding_link.unwrap().link, LinkKind::NicIn);
        assert!(estimate.formula.contains("nic_in"));
    }

    #[test]
    fn estimate_adds_bandwidth_and_latency_terms() {
        let t = analyse(&presets::toy(), Strategy::Intersection).unwrap();
        let e = t.estimate();
        assert_eq!(e.max_messages, 3);
        assert!((e.latency_seconds - 15e-6).abs() < 1e-12);
        assert!((e.bandwidth_seconds - 72.0 / 450e9).abs() < 1e-18);
    }

    #[test]
    fn summaries_drop_pieces_past_the_limit_but_keep_totals() {
        let s = summarise(&presets::toy(), Strategy::Intersection, 4, 64).unwrap();
        assert!(s.pieces.is_none());
        assert_eq!(s.traffic.totals().pieces, 6);
        assert_eq!(s.pairs.bytes.iter().sum::<u64>(), 144);
        let large = summarise(&presets::large(), Strategy::Intersection, 1000, 64).unwrap();
        assert_eq!((large.pairs.rows, large.pairs.cols), (64, 64));
        assert_eq!(large.pairs.bytes.iter().sum::<u64>(), 8192 * 8192 * 2);
    }

    #[test]
    fn the_pair_matrix_tells_local_copies_from_transfers() {
        // Colocated: the same four GPUs on both sides; each keeps its own part (the diagonal) and sends the
        // rest. Every cell holds bytes; only the diagonal's are local.
        let s = summarise(&presets::colocated(), Strategy::Intersection, 1000, 64).unwrap();
        let p = &s.pairs;
        let mut local_cells = 0;
        for row in 0..p.rows {
            for col in 0..p.cols {
                assert!(p.local(row, col) <= p.get(row, col));
                if p.local(row, col) > 0 {
                    local_cells += 1;
                    assert_eq!(p.local(row, col), p.get(row, col), "a device to itself is all local");
                }
            }
        }
        assert_eq!(local_cells, p.rows.min(p.cols));
        assert_eq!(p.local.iter().sum::<u64>(), s.traffic.totals().local_bytes);
        // Disjoint devices: nothing is local.
        let toy = summarise(&presets::toy(), Strategy::Intersection, 1000, 64).unwrap();
        assert!(toy.pairs.local.iter().all(|&b| b == 0));
    }

    #[test]
    fn groups_collapse_layer_numbers() {
        assert_eq!(group_of("layers.12.mlp.w1"), "layers.*.mlp.w1");
        assert_eq!(group_of("lm_head"), "lm_head");
    }

    #[test]
    fn formatting_picks_readable_units() {
        assert_eq!(format_bytes(144), "144 B");
        assert_eq!(format_bytes(1536), "1.5 KiB");
        assert_eq!(format_bytes(999), "999 B");
        assert_eq!(format_bytes(1000), "1000 B");
        assert_eq!(format_bytes(1000 << 10), "0.977 MiB");
        assert_eq!(format_bytes(1002 << 30), "0.979 TiB");
        assert_eq!(format_bytes(1 << 30), "1 GiB");
        assert_eq!(format_seconds(3.815e-10), "0.38 ns");
        assert_eq!(format_seconds(2.5e-9), "2.5 ns");
        assert_eq!(format_seconds(15e-6), "15 µs");
        assert_eq!(format_seconds(112.5), "112.5 s");
    }
}
