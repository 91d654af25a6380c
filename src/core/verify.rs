//! The correctness check (domain.md §6): execute a plan on in-memory buffers whose every entry is made
//! from its coordinates and a version, then compare each destination with what its region requires.
//!
//! Values are `u64` and sums wrap: wrapping addition is exact modulo 2⁶⁴, so a Partial split that wraps
//! still sums back to the original value, and any misplaced, missing, doubled or stale entry changes it.

use std::collections::HashMap;

use serde::Serialize;

use super::geometry::Region;
use super::model::{ConvertAt, Reshard};
use super::plan::{PieceRole, Plan, Strategy};
use super::region::SideRegions;

/// The default limit on entries held in memory by one check (sources plus destinations).
pub const DEFAULT_MAX_ENTRIES: u64 = 16 * 1024 * 1024;

/// The default limit on the pieces of the plan one check holds (some 300 B each in the web build). Within
/// the entries' limit, a 4,096 → 2,048 crossing of 16,777,216 entries is 8,388,608 pieces: growing their
/// list past 2³¹ bytes aborted the page ("capacity overflow", review 40).
pub const DEFAULT_MAX_PIECES: u64 = 1024 * 1024;

/// A deliberate mistake, for teaching: each must be caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fault {
    /// One piece is read shifted by one along its first dim (an off-by-one offset).
    Offset,
    /// One piece is read with tensor dims 0 and 1 exchanged.
    Swap,
    /// One source device still holds the previous version.
    Stale,
}

impl Fault {
    pub const ALL: [Fault; 3] = [Fault::Offset, Fault::Swap, Fault::Stale];
    pub fn name(self) -> &'static str {
        match self {
            Fault::Offset => "offset",
            Fault::Swap => "swap",
            Fault::Stale => "stale",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Fault::Offset => "offset by one",
            Fault::Swap => "swapped dims",
            Fault::Stale => "stale version",
        }
    }
    pub fn parse(text: &str) -> Option<Fault> {
        Fault::ALL.into_iter().find(|f| f.name() == text)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// The version written into every source entry (the stale fault writes `version - 1`).
    pub version: u64,
    pub max_entries: u64,
    /// The most pieces of a plan [`plan_and_verify`] plans to check.
    pub max_pieces: u64,
    /// How many mismatches to keep with their coordinates (all are counted).
    pub max_reported: usize,
    pub fault: Option<Fault>,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            version: 7,
            max_entries: DEFAULT_MAX_ENTRIES,
            max_pieces: DEFAULT_MAX_PIECES,
            max_reported: 1000,
            fault: None,
        }
    }
}

/// One destination entry that is not what its region requires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    pub tensor: usize,
    pub device: u32,
    pub coord: Vec<u64>,
    pub expected: u64,
    /// The value found, or `None` when nothing arrived.
    pub found: Option<u64>,
    /// Some contribution was read from outside the piece its sender sent (so `found` is garbage), even where
    /// the sender holds that entry: a send reads only its piece's box.
    pub read_outside_sender: bool,
}

impl Mismatch {
    /// What arrived, in words: a value, nothing, or a read outside the piece sent.
    pub fn found_text(&self) -> String {
        match self.found {
            None => "nothing arrived".into(),
            Some(_) if self.read_outside_sender => "a read outside the piece sent".into(),
            Some(v) => v.to_string(),
        }
    }

    /// The value found read as [`value`]'s entry and version: this entry at another version is stale,
    /// another entry at this version was read from the wrong place, and a wrong Partial sum is no entry's
    /// value ("3084005441886518607" alone told a reader nothing). `None` when no value arrived.
    pub fn found_reading(&self) -> Option<String> {
        let found = self.found.filter(|_| !self.read_outside_sender)?;
        let (entry, version) = (self.expected / 1000, self.expected % 1000);
        let (found_entry, found_version) = (found / 1000, found % 1000);
        Some(if found_entry == entry {
            format!("this entry at version {found_version}: stale")
        } else if found_version == version {
            format!("entry {found_entry}'s value: read from the wrong place")
        } else {
            "no entry's value at this version".to_string()
        })
    }
}

/// Which piece a fault was injected into, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InjectedFault {
    pub fault: Fault,
    pub piece: usize,
    pub description: String,
}

/// The outcome of a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verification {
    pub version: u64,
    pub checked_entries: u64,
    pub destinations: usize,
    pub mismatch_count: u64,
    pub mismatches: Vec<Mismatch>,
    pub fault: Option<InjectedFault>,
    /// The comparison of values after a declared dtype conversion, when some tensor converts.
    pub values: Option<ValueCheck>,
}

/// domain.md §5: the check compares values after the declared conversion. Every entry is also compared by
/// its identity (coordinates and version): converted values alone can miss a misplaced entry, because the
/// conversion makes different entries equal (the article: "a loose output comparison may miss a misplaced
/// shard"). Counted over the tensors that convert; a conversion that loses nothing (bf16 → fp32) compares
/// exactly. A value is `x × 1000 + v` as a number, and a garbage read never matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueCheck {
    /// The conversions, e.g. `fp32 → bf16`.
    pub conversion: String,
    /// Identity mismatches in the tensors that convert.
    pub identity_mismatches: u64,
    /// Those whose converted value also differs from the expected one (a subset: an entry that matches its
    /// identity matches its value).
    pub mismatch_count: u64,
    /// Entries of those tensors whose value is beyond the destination dtype's largest number (fp16 holds up
    /// to 65,504, fp8 448): as values they all read alike (infinity, or NaN for fp8 e4m3).
    pub beyond_range: u64,
    /// Whether a Partial tensor's shares are converted at their senders, losing precision, before they are
    /// added: real numbers would carry a rounding per share, which the check (adding exact shares) does not
    /// model.
    pub shares_rounded: bool,
}

impl Verification {
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0
    }
    pub fn summary(&self) -> String {
        use crate::chart::scale::group_thousands as n;
        let s = |count: u64| if count == 1 { "" } else { "s" };
        if self.passed() && self.checked_entries == 1 {
            format!("the 1 entry matches version {}", self.version)
        } else if self.passed() {
            format!(
                "all {} entries of {} destination{} match version {}",
                n(self.checked_entries),
                self.destinations,
                s(self.destinations as u64),
                self.version
            )
        } else {
            format!(
                "{} of {} entr{} {} not match version {}",
                n(self.mismatch_count),
                n(self.checked_entries),
                if self.checked_entries == 1 { "y" } else { "ies" },
                if self.mismatch_count == 1 { "does" } else { "do" },
                self.version
            )
        }
    }

    /// What comparing the converted values alone says, when the change converts.
    pub fn value_summary(&self) -> Option<String> {
        use crate::chart::scale::group_thousands as n;
        let values = self.values.as_ref()?;
        let conversion = &values.conversion;
        // Out of range, values all read alike (fp16's infinity, fp8 e4m3's NaN): they tell no entry apart.
        let range = match values.beyond_range {
            0 => String::new(),
            1 => " (1 entry's value x × 1000 + v is beyond the destination dtype's largest number, where all \
                  values read alike)"
                .to_string(),
            count => format!(
                " ({} entries' values x × 1000 + v are beyond the destination dtype's largest number, where all \
                 values read alike)",
                n(count)
            ),
        };
        let (identity, shown) = (values.identity_mismatches, values.mismatch_count);
        let sentence = if self.passed() && values.beyond_range > 0 {
            // A green "every value matches" over values that were nearly all out of range read as reassurance.
            let (count, are) = match values.beyond_range {
                1 => ("1 entry's value".to_string(), "is"),
                count => (format!("{} entries' values", n(count)), "are"),
            };
            format!(
                "After the declared conversion ({conversion}), no value differs, but {count} x × 1000 + v {are} \
                 beyond the destination dtype's largest number, where all values read alike (infinity, or NaN in \
                 fp8 e4m3): for those, only the check by identity above tells them apart."
            )
        } else if self.passed() {
            format!("After the declared conversion ({conversion}), every value matches too.")
        } else if identity == 0 {
            "The mismatching tensors keep their dtype: their values compare exactly.".to_string()
        } else if shown == identity {
            match identity {
                1 => format!("Compared as converted values ({conversion}), the mismatch shows as well{range}."),
                _ => format!(
                    "Compared as converted values ({conversion}), all {} mismatches show as well{range}.",
                    n(identity)
                ),
            }
        } else {
            let some = if shown == 0 { "none".to_string() } else { format!("only {}", n(shown)) };
            format!(
                "Compared as converted values alone ({conversion}), {some} of these {} would show{range}: the \
                 conversion makes different entries equal, so layout and version need a check of their own.",
                n(identity)
            )
        };
        Some(if values.shares_rounded {
            format!(
                "{sentence} The partial shares are converted at their senders, before they are added: real values \
                 would carry a rounding per share, which this check, adding exact shares, does not model."
            )
        } else {
            sentence
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum VerifyError {
    /// The buffers would hold more entries than allowed.
    TooLarge {
        entries: u64,
        limit: u64,
    },
    /// The plan would have more pieces than allowed (`pieces` is at least `limit + 1`: counting stops there).
    TooManyPieces {
        pieces: u64,
        limit: u64,
    },
    /// No piece of this plan can show the fault (e.g. swapped dims on a rank-1 tensor).
    FaultNotApplicable {
        fault: Fault,
        reason: String,
    },
    /// The check runs the direct strategies; gather-then-broadcast is modelled for traffic only.
    Unsupported {
        strategy: Strategy,
    },
    Plan(String),
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::TooLarge { entries, limit } => write!(
                f,
                "the check would hold {} entries in memory (every source device's region and every destination's, \
                 copies counted), more than the limit of {}; use a smaller shape",
                crate::core::traffic::format_count(*entries),
                crate::core::traffic::format_count(*limit)
            ),
            VerifyError::TooManyPieces { limit, .. } => write!(
                f,
                "the check would hold more than {} pieces of the plan in memory, its limit; use fewer devices on \
                 either side",
                crate::core::traffic::format_count(*limit)
            ),
            VerifyError::FaultNotApplicable { fault, reason } => {
                write!(f, "cannot inject `{}`: {reason}", fault.name())
            }
            VerifyError::Unsupported { strategy } => write!(
                f,
                "the check executes intersection and whole-shard plans; `{}` is modelled for traffic only",
                strategy.name()
            ),
            VerifyError::Plan(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// The value of the entry at row-major flat index `flat`, version `version`: injective while
/// `version < 1000`.
pub fn value(flat: u64, version: u64) -> u64 {
    flat.wrapping_mul(1000).wrapping_add(version)
}

/// Contributor `c`'s share of `value(flat, version)` when `count` devices hold partial sums. Every share
/// depends on the version, so a stale contributor is caught even when the others are current.
pub fn share(flat: u64, version: u64, c: usize, count: usize) -> u64 {
    let other = |c: usize| {
        (flat.wrapping_add(1))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add((c as u64).wrapping_mul(0x2545_F491_4F6C_DD1D))
            .wrapping_add(version.wrapping_mul(1_000_003))
    };
    if c > 0 { other(c) } else { (1..count).fold(value(flat, version), |acc, k| acc.wrapping_sub(other(k))) }
}

fn flat_index(coord: &[u64], shape: &[u64]) -> u64 {
    coord.iter().zip(shape).fold(0u64, |acc, (&x, &n)| acc.wrapping_mul(n).wrapping_add(x))
}

/// Index of `coord` inside `region`'s row-major buffer, or `None` outside it.
fn index_in(region: &Region, coord: &[u64]) -> Option<usize> {
    let mut index = 0u64;
    for (d, &x) in coord.iter().enumerate() {
        let interval = region.interval(d);
        if x < interval.start || x >= interval.end {
            return None;
        }
        index = index * region.shape()[d] + (x - interval.start);
    }
    Some(index as usize)
}

/// Calls `visit` with every coordinate of `region`, row-major.
fn for_each_coord(region: &Region, mut visit: impl FnMut(&[u64])) {
    if region.is_empty() {
        return;
    }
    let rank = region.rank();
    let mut coord: Vec<u64> = region.offset().to_vec();
    loop {
        visit(&coord);
        let mut d = rank;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            coord[d] += 1;
            if coord[d] < region.interval(d).end {
                break;
            }
            coord[d] = region.offset()[d];
        }
    }
}

/// Each tensor's source and destination regions, and how many entries the check's buffers hold for them
/// (every source device's region and every destination's), refused past `max_entries`.
fn held_sides(reshard: &Reshard, max_entries: u64) -> Result<Vec<(SideRegions, SideRegions)>, VerifyError> {
    let mut sides = Vec::with_capacity(reshard.tensors.len());
    let mut entries = 0u64;
    for tensor in &reshard.tensors {
        let source = SideRegions::new(&tensor.source, &reshard.source_mesh, &tensor.shape, reshard.split)
            .map_err(VerifyError::Plan)?;
        let destination =
            SideRegions::new(&tensor.destination, &reshard.destination_mesh, &tensor.shape, reshard.split)
                .map_err(VerifyError::Plan)?;
        for flat in 0..reshard.source_mesh.size() {
            entries = entries.saturating_add(source.region_of(flat).entries());
        }
        for flat in 0..reshard.destination_mesh.size() {
            entries = entries.saturating_add(destination.region_of(flat).entries());
        }
        sides.push((source, destination));
    }
    if entries > max_entries {
        return Err(VerifyError::TooLarge { entries, limit: max_entries });
    }
    Ok(sides)
}

/// Plans `reshard` with `strategy` and executes the plan on buffers: what the app's Verify button and the
/// CLI's `verify` run. The size is checked before planning, because the plan itself is held in memory
/// (some 300 B a piece): a change too large to check is refused before its millions of pieces would be
/// (they ran the page out of memory first).
pub fn plan_and_verify(
    reshard: &Reshard,
    strategy: Strategy,
    options: VerifyOptions,
) -> Result<Verification, VerifyError> {
    if strategy == Strategy::Gather {
        return Err(VerifyError::Unsupported { strategy });
    }
    let sides = held_sides(reshard, options.max_entries)?;
    // The whole-shard plan has as many pieces as the intersection's, which this counts without planning.
    let pieces = crate::core::plan::count_pieces(reshard, options.max_pieces.saturating_add(1));
    if pieces > options.max_pieces {
        return Err(VerifyError::TooManyPieces { pieces, limit: options.max_pieces });
    }
    let plan = crate::core::plan::plan(reshard, strategy).map_err(VerifyError::Plan)?;
    run_plan(reshard, &plan, options, sides)
}

/// Executes `plan` on buffers and compares every destination entry.
pub fn verify(reshard: &Reshard, plan: &Plan, options: VerifyOptions) -> Result<Verification, VerifyError> {
    if plan.strategy == Strategy::Gather {
        return Err(VerifyError::Unsupported { strategy: plan.strategy });
    }
    run_plan(reshard, plan, options, held_sides(reshard, options.max_entries)?)
}

/// [`verify`] on the regions `sides` that [`held_sides`] gave (and checked for size) for `reshard`.
fn run_plan(
    reshard: &Reshard,
    plan: &Plan,
    options: VerifyOptions,
    sides: Vec<(SideRegions, SideRegions)>,
) -> Result<Verification, VerifyError> {
    let injected = match options.fault {
        Some(fault) => Some(choose_fault(reshard, plan, fault)?),
        None => None,
    };
    let stale_device = match &injected {
        Some(InjectedFault { fault: Fault::Stale, piece, .. }) => {
            Some((plan.pieces[*piece].tensor, plan.pieces[*piece].src))
        }
        _ => None,
    };

    let source_flat: HashMap<u32, usize> =
        reshard.source_mesh.devices.iter().enumerate().map(|(i, &d)| (d, i)).collect();
    let destination_flat: HashMap<u32, usize> =
        reshard.destination_mesh.devices.iter().enumerate().map(|(i, &d)| (d, i)).collect();
    let mut result = Verification {
        version: options.version,
        checked_entries: 0,
        destinations: reshard.destination_mesh.size(),
        mismatch_count: 0,
        mismatches: Vec::new(),
        fault: injected.clone(),
        values: None,
    };
    let mut conversions: Vec<String> = Vec::new();
    for t in reshard.tensors.iter().filter(|t| t.source.dtype != t.destination.dtype) {
        let pair = format!("{} → {}", t.source.dtype, t.destination.dtype);
        if !conversions.contains(&pair) {
            conversions.push(pair);
        }
    }
    if !conversions.is_empty() {
        result.values = Some(ValueCheck {
            conversion: conversions.join(", "),
            identity_mismatches: 0,
            mismatch_count: 0,
            beyond_range: 0,
            shares_rounded: reshard.convert_at == ConvertAt::Sender
                && reshard.tensors.iter().zip(&sides).any(|(tensor, (source, _))| {
                    source.contributors() > 1 && !tensor.destination.dtype.holds_every(tensor.source.dtype)
                }),
        });
    }

    // Each tensor's direct pieces, found in one pass (a scan of the whole plan per tensor was quadratic in
    // an inventory's size).
    let mut pieces_of: Vec<Vec<usize>> = vec![Vec::new(); reshard.tensors.len()];
    for (index, piece) in plan.pieces.iter().enumerate().filter(|(_, p)| p.role == PieceRole::Direct) {
        let Some(list) = pieces_of.get_mut(piece.tensor) else {
            return Err(VerifyError::Plan(format!("piece {index} names a tensor outside the change")));
        };
        list.push(index);
    }
    for (t, tensor) in reshard.tensors.iter().enumerate() {
        let (source, destination) = &sides[t];
        let contributors = source.contributors();
        // Fill the sources: each device holds its region, a share of each value when Partial.
        let strides = reshard.source_mesh.strides();
        let mut source_buffers: Vec<(Region, Vec<u64>)> = Vec::with_capacity(reshard.source_mesh.size());
        for flat in 0..reshard.source_mesh.size() {
            let region = source.region_of(flat);
            let device = reshard.source_mesh.devices[flat];
            let version =
                if stale_device == Some((t, device)) { options.version.wrapping_sub(1) } else { options.version };
            let contributor = contributor_index(&tensor.source.placements, &reshard.source_mesh.shape, &strides, flat);
            let mut buffer = Vec::with_capacity(region.entries() as usize);
            for_each_coord(&region, |c| {
                buffer.push(share(flat_index(c, &tensor.shape), version, contributor, contributors))
            });
            source_buffers.push((region, buffer));
        }
        let mut sums: Vec<Received> = (0..reshard.destination_mesh.size())
            .map(|flat| {
                let region = destination.region_of(flat);
                let n = region.entries() as usize;
                Received { region, sums: vec![0; n], counts: vec![0; n], outside: vec![false; n] }
            })
            .collect();

        // Run the pieces of this tensor.
        for &index in &pieces_of[t] {
            let piece = &plan.pieces[index];
            let (Some(&src_flat), Some(&dst_flat)) = (source_flat.get(&piece.src), destination_flat.get(&piece.dst))
            else {
                return Err(VerifyError::Plan(format!("piece {index} names a device outside the meshes")));
            };
            let fault = injected.as_ref().filter(|f| f.piece == index).map(|f| f.fault);
            let (src_region, src_buffer) = &source_buffers[src_flat];
            let Received { region: dst_region, sums: dst_sum, counts: dst_count, outside: dst_outside } =
                &mut sums[dst_flat];
            let mut read = vec![0u64; tensor.shape.len()];
            for_each_coord(&piece.keep, |coord| {
                read.copy_from_slice(coord);
                match fault {
                    Some(Fault::Offset) => read[0] += 1,
                    Some(Fault::Swap) => read.swap(0, 1),
                    _ => {}
                }
                // A read outside what the sender holds (or outside the box it sent) yields garbage.
                let got = if piece.region.rank() == read.len() && index_in(&piece.region, &read).is_some() {
                    index_in(src_region, &read).map(|i| src_buffer[i])
                } else {
                    None
                };
                if let Some(i) = index_in(dst_region, coord) {
                    dst_sum[i] = dst_sum[i].wrapping_add(got.unwrap_or(0xDEAD_BEEF_DEAD_BEEF));
                    dst_count[i] += 1;
                    dst_outside[i] |= got.is_none();
                }
            });
        }

        // Compare every destination entry: by identity, and, when this tensor converts, by its value in the
        // destination dtype (a Partial sum converted once reduced, wherever the conversion happens: the
        // shares are tags, not numbers). A conversion that loses nothing compares exactly.
        let (from, to) = (tensor.source.dtype, tensor.destination.dtype);
        let converts = from != to;
        let convert = |v: u64| if to.holds_every(from) { v } else { to.represent(v) };
        for (flat, Received { region, sums: sum, counts: count, outside }) in sums.iter().enumerate() {
            let device = reshard.destination_mesh.devices[flat];
            let mut i = 0usize;
            for_each_coord(region, |coord| {
                let expected = value(flat_index(coord, &tensor.shape), options.version);
                result.checked_entries += 1;
                let arrived = count[i] as usize == contributors;
                let ok = arrived && sum[i] == expected;
                if let Some(values) = result.values.as_mut().filter(|_| converts) {
                    // Only a float saturates (to infinity); an integer keeps its low bits.
                    let saturates = to.represent(u64::MAX) == u64::MAX;
                    if saturates && convert(expected) == u64::MAX {
                        values.beyond_range += 1;
                    }
                    if !ok {
                        values.identity_mismatches += 1;
                        // A read from outside its sender is garbage, whatever number it converts to.
                        if !arrived || outside[i] || convert(sum[i]) != convert(expected) {
                            values.mismatch_count += 1;
                        }
                    }
                }
                if !ok {
                    result.mismatch_count += 1;
                    if result.mismatches.len() < options.max_reported {
                        result.mismatches.push(Mismatch {
                            tensor: t,
                            device,
                            coord: coord.to_vec(),
                            expected,
                            found: (count[i] > 0).then_some(sum[i]),
                            read_outside_sender: outside[i],
                        });
                    }
                }
                i += 1;
            });
        }
    }
    Ok(result)
}

/// What one destination has received so far: per entry, the sum of contributions, how many arrived, and
/// whether any was read from outside its sender's region.
struct Received {
    region: Region,
    sums: Vec<u64>,
    counts: Vec<u32>,
    outside: Vec<bool>,
}

/// Index of the device at `flat` among the Partial contributors (mixed radix over Partial mesh dims).
fn contributor_index(
    placements: &[super::placement::Placement],
    shape: &[u64],
    strides: &[usize],
    flat: usize,
) -> usize {
    let mut index = 0usize;
    for (m, p) in placements.iter().enumerate() {
        if *p == super::placement::Placement::Partial {
            index = index * shape[m] as usize + (flat / strides[m]) % shape[m] as usize;
        }
    }
    index
}

/// The first piece in which `fault` is visible.
fn choose_fault(reshard: &Reshard, plan: &Plan, fault: Fault) -> Result<InjectedFault, VerifyError> {
    let candidates = plan.pieces.iter().enumerate().filter(|(_, p)| p.role == PieceRole::Direct && !p.keep.is_empty());
    for (index, piece) in candidates {
        let shown = match fault {
            Fault::Offset | Fault::Stale => true,
            // Swapping is visible when some kept entry lies off the diagonal of dims 0 and 1.
            Fault::Swap => {
                piece.keep.rank() >= 2 && {
                    let (a, b) = (piece.keep.interval(0), piece.keep.interval(1));
                    !(a.len() == 1 && b.len() == 1 && a.start == b.start)
                }
            }
        };
        if shown {
            let name = &reshard.tensors[piece.tensor].name;
            // Counted from 1, as the pieces table and the CSV's rows number them (the app's table called
            // "piece 0" its #1).
            let number = index + 1;
            let description = match fault {
                Fault::Offset => format!(
                    "piece #{number} ({name}, d{} → d{}) is read shifted by one along dim 0 (an off-by-one offset)",
                    piece.src, piece.dst
                ),
                Fault::Swap => {
                    let (src, dst) = (piece.src, piece.dst);
                    format!("piece #{number} ({name}, d{src} → d{dst}) is read with dims 0 and 1 swapped")
                }
                Fault::Stale => format!("source d{} still holds version {} of {name}", piece.src, "v − 1"),
            };
            return Ok(InjectedFault { fault, piece: index, description });
        }
    }
    let reason = match fault {
        Fault::Swap => "no piece has two dims to swap with an entry off the diagonal".to_string(),
        _ => "the plan has no piece to alter".to_string(),
    };
    Err(VerifyError::FaultNotApplicable { fault, reason })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::Dtype;
    use crate::core::plan::plan;
    use crate::core::presets;

    fn check(reshard: &Reshard, strategy: Strategy, fault: Option<Fault>) -> Verification {
        let plan = plan(reshard, strategy).unwrap();
        verify(reshard, &plan, VerifyOptions { fault, ..Default::default() }).unwrap()
    }

    #[test]
    fn a_found_value_is_read_as_an_entry_and_a_version_where_it_is_one() {
        let first = |v: &Verification| v.mismatches.first().and_then(Mismatch::found_reading).expect("a value");
        // The toy: a stale source sends version 6 of the same entries.
        let stale = first(&check(&presets::toy(), Strategy::Intersection, Some(Fault::Stale)));
        assert_eq!(stale, "this entry at version 6: stale");
        // An offset read takes a neighbour's value at the right version.
        let offset = first(&check(&presets::toy(), Strategy::Intersection, Some(Fault::Offset)));
        assert!(offset.starts_with("entry ") && offset.ends_with("'s value: read from the wrong place"), "{offset}");
        // A Partial sum of misplaced shares is no entry's value.
        let partial = first(&check(&presets::partial(), Strategy::Intersection, Some(Fault::Offset)));
        assert_eq!(partial, "no entry's value at this version");
        let nothing =
            Mismatch { tensor: 0, device: 0, coord: vec![0], expected: 7, found: None, read_outside_sender: false };
        assert_eq!((nothing.found_text().as_str(), nothing.found_reading()), ("nothing arrived", None));
    }

    #[test]
    fn a_conversion_is_checked_by_value_and_converted_values_alone_miss_misplaced_entries() {
        // FSDP-8 → TP-4 × 2 converts fp32 → bf16.
        let reshard = presets::fsdp_tp();
        let v = check(&reshard, Strategy::Intersection, None);
        assert!(v.passed());
        let values = v.values.as_ref().expect("the change converts");
        assert_eq!(values.conversion, "fp32 → bf16");
        assert_eq!((values.mismatch_count, values.beyond_range), (0, 0));
        assert_eq!(
            v.value_summary().as_deref(),
            Some("After the declared conversion (fp32 → bf16), every value matches too.")
        );
        // A stale source: every value it sends is off by one, which bf16 (8 significant bits) cannot tell
        // apart above 256: nearly all of the piece's entries would pass a comparison of converted values.
        let v = check(&reshard, Strategy::Intersection, Some(Fault::Stale));
        let values = v.values.as_ref().expect("the change converts");
        assert!(v.mismatch_count > 1000);
        assert_eq!(values.identity_mismatches, v.mismatch_count, "the only tensor converts");
        assert!(values.mismatch_count * 100 < v.mismatch_count, "{} of {}", values.mismatch_count, v.mismatch_count);
        let summary = v.value_summary().unwrap_or_default();
        assert!(summary.contains("would show: the conversion makes different entries equal"), "{summary}");
        // Read one row further: never more mismatches by value than by identity.
        let v = check(&reshard, Strategy::Intersection, Some(Fault::Offset));
        let values = v.values.as_ref().expect("the change converts");
        assert!(values.mismatch_count <= v.mismatch_count);
        // Without a conversion there is no second comparison.
        assert_eq!(check(&presets::toy(), Strategy::Intersection, Some(Fault::Offset)).values, None);
    }

    #[test]
    fn partial_shares_converted_at_their_senders_are_said_to_be_rounded_before_the_sum() {
        // The partial preset (Partial over 4 → Replicate) with fp32 partials sent as bf16: the check adds
        // exact shares, so it passes, and says what it does not model.
        let mut reshard = with_dtypes(presets::partial(), Dtype::Fp32, Dtype::Bf16);
        let v = check(&reshard, Strategy::Intersection, None);
        assert!(v.passed() && v.values.as_ref().is_some_and(|values| values.shares_rounded));
        let summary = v.value_summary().unwrap_or_default();
        assert!(summary.starts_with("After the declared conversion (fp32 → bf16), every value matches too."));
        assert!(summary.ends_with("which this check, adding exact shares, does not model."), "{summary}");
        // Converted by the receiver, after the sum; or a conversion that loses nothing: nothing to say.
        reshard.convert_at = ConvertAt::Receiver;
        assert!(!check(&reshard, Strategy::Intersection, None).values.is_some_and(|values| values.shares_rounded));
        let up = with_dtypes(presets::partial(), Dtype::Bf16, Dtype::Fp32);
        assert!(!check(&up, Strategy::Intersection, None).values.is_some_and(|values| values.shares_rounded));
        // Not Partial: nothing is added.
        let plain = with_dtypes(presets::toy(), Dtype::Fp32, Dtype::Bf16);
        assert!(!check(&plain, Strategy::Intersection, None).values.is_some_and(|values| values.shares_rounded));
    }

    /// `spec` with its dtypes replaced.
    fn with_dtypes(mut spec: Reshard, from: Dtype, to: Dtype) -> Reshard {
        for t in &mut spec.tensors {
            t.source.dtype = from;
            t.destination.dtype = to;
        }
        spec
    }

    #[test]
    fn a_lossless_conversion_compares_exactly_and_garbage_never_matches() {
        // bf16 → fp32 loses nothing: the values show every mismatch the identities do (rounding the tags into
        // the source's bf16 first had made this look weaker than no conversion at all).
        let up = with_dtypes(presets::fsdp_tp(), Dtype::Bf16, Dtype::Fp32);
        let v = check(&up, Strategy::Intersection, Some(Fault::Stale));
        let values = v.values.as_ref().expect("the change converts");
        assert_eq!(values.mismatch_count, v.mismatch_count);
        assert!(v.value_summary().unwrap_or_default().contains("mismatches show as well"));
        // fp16 holds at most 65,504: most tags are beyond it, and the sentence says so. A read from outside
        // its sender is garbage and counts as a value mismatch even when both convert to infinity.
        let toy16 = with_dtypes(presets::toy(), Dtype::Fp32, Dtype::Fp16);
        let v = check(&toy16, Strategy::Intersection, None);
        let values = v.values.as_ref().expect("the change converts");
        assert_eq!(values.beyond_range, (0..72u64).filter(|&x| x * 1000 + 7 > 65_504).count() as u64);
        let summary = v.value_summary().unwrap_or_default();
        assert!(summary.contains("no value differs, but"), "{summary}");
        assert!(summary.contains(&format!("{} entries' values", values.beyond_range)), "{summary}");
        assert!(summary.contains("only the check by identity above tells them apart"), "{summary}");
        let v = check(&toy16, Strategy::Intersection, Some(Fault::Offset));
        let outside = v.mismatches.iter().filter(|m| m.read_outside_sender).count() as u64;
        assert!(outside > 0);
        let first = v.mismatches.iter().find(|m| m.read_outside_sender).map(Mismatch::found_text);
        assert_eq!(first.as_deref(), Some("a read outside the piece sent"));
        assert!(v.values.as_ref().is_some_and(|values| values.mismatch_count >= outside));
        // fp8 swaps: nothing shows by value, and the sentence says none, not "only 0".
        let v =
            check(&with_dtypes(presets::fsdp_tp(), Dtype::Fp32, Dtype::Fp8), Strategy::Intersection, Some(Fault::Swap));
        let summary = v.value_summary().unwrap_or_default();
        assert!(!summary.contains("only 0"), "{summary}");
        // An inventory where the fault lands in a tensor that keeps its dtype: no claim about conversions.
        let mut inventory = presets::toy();
        let mut second = inventory.tensors[0].clone();
        second.name = "w2".into();
        second.destination.dtype = Dtype::Fp32;
        inventory.tensors.push(second);
        let v = check(&inventory, Strategy::Intersection, Some(Fault::Stale));
        assert_eq!(
            v.fault.as_ref().map(|f| plan(&inventory, Strategy::Intersection).unwrap().pieces[f.piece].tensor),
            Some(0)
        );
        assert_eq!(
            v.value_summary().as_deref(),
            Some("The mismatching tensors keep their dtype: their values compare exactly.")
        );
    }

    #[test]
    fn the_toy_plan_delivers_every_entry() {
        let v = check(&presets::toy(), Strategy::Intersection, None);
        assert!(v.passed(), "{:?}", v.mismatches);
        assert_eq!(v.checked_entries, 72);
        assert_eq!(v.summary(), "all 72 entries of 2 destinations match version 7");
    }

    #[test]
    fn summaries_group_thousands_and_count_one_destination_as_one() {
        let v = |checked_entries, destinations, mismatch_count| Verification {
            version: 7,
            checked_entries,
            destinations,
            mismatch_count,
            mismatches: Vec::new(),
            fault: None,
            values: None,
        };
        assert_eq!(v(2_097_152, 1, 0).summary(), "all 2,097,152 entries of 1 destination match version 7");
        assert_eq!(v(2_097_152, 8, 1_024).summary(), "1,024 of 2,097,152 entries do not match version 7");
        assert_eq!(v(1, 1, 1).summary(), "1 of 1 entry does not match version 7");
        assert_eq!(v(1, 1, 0).summary(), "the 1 entry matches version 7");
    }

    #[test]
    fn every_preset_verifies_with_both_direct_strategies() {
        for preset in presets::PRESETS.iter().filter(|p| p.name != "large") {
            for strategy in [Strategy::Intersection, Strategy::WholeShard] {
                let v = check(&presets::build(preset), strategy, None);
                assert!(v.passed(), "{} {strategy:?}: {:?}", preset.name, &v.mismatches[..v.mismatches.len().min(3)]);
            }
        }
    }

    #[test]
    fn each_fault_is_caught_on_the_toy() {
        for fault in Fault::ALL {
            let v = check(&presets::toy(), Strategy::Intersection, Some(fault));
            assert!(!v.passed(), "{fault:?} went unnoticed");
            assert!(v.fault.is_some());
        }
        // The altered piece is named as the pieces table numbers it: the plan's first piece is #1.
        let v = check(&presets::toy(), Strategy::Intersection, Some(Fault::Offset));
        let injected = v.fault.expect("a fault");
        assert_eq!(injected.piece, 0);
        assert_eq!(
            injected.description,
            "piece #1 (w, d0 → d3) is read shifted by one along dim 0 (an off-by-one offset)"
        );
    }

    #[test]
    fn a_stale_partial_contributor_is_caught() {
        let v = check(&presets::partial(), Strategy::Intersection, Some(Fault::Stale));
        assert!(!v.passed());
    }

    #[test]
    fn a_missing_piece_is_reported_as_nothing_arrived() {
        let toy = presets::toy();
        let mut p = plan(&toy, Strategy::Intersection).unwrap();
        p.pieces.remove(0);
        let v = verify(&toy, &p, VerifyOptions::default()).unwrap();
        assert_eq!(v.mismatch_count, 12);
        assert!(v.mismatches.iter().all(|m| m.found.is_none()));
    }

    #[test]
    fn oversized_checks_are_refused_with_the_numbers() {
        let large = presets::large();
        let p = plan(&large, Strategy::Intersection).unwrap();
        let err = verify(&large, &p, VerifyOptions::default()).unwrap_err();
        assert_eq!(err, VerifyError::TooLarge { entries: 2 * 8192 * 8192, limit: DEFAULT_MAX_ENTRIES });
        assert!(
            err.to_string().contains(
                "hold 134,217,728 entries in memory (every source device's region and every destination's, copies \
                 counted), more than the limit of 16,777,216"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_change_too_large_to_check_is_refused_before_its_plan_is_built() {
        // 4,096 × 4,096 pieces: some 5 GB of plan, past what a wasm32 page can allocate (the app aborted
        // before the size was checked). The refusal must come without planning, as quickly as the toy's check.
        let r = crate::core::spec::parse_spec(
            r#"{"tensor": {"shape": [16384, 16384]}, "source": {"mesh": [4096], "placements": ["S(0)"]},
                "destination": {"mesh": [4096], "placements": ["S(1)"]}}"#,
        )
        .unwrap();
        let err = plan_and_verify(&r, Strategy::Intersection, VerifyOptions::default()).unwrap_err();
        assert_eq!(err, VerifyError::TooLarge { entries: 2 * 16384 * 16384, limit: DEFAULT_MAX_ENTRIES });
        let toy = plan_and_verify(&presets::toy(), Strategy::Intersection, VerifyOptions::default()).unwrap();
        assert_eq!((toy.checked_entries, toy.mismatch_count), (72, 0));
        // Within the entries' limit (16,777,216 exactly), but 8,388,608 pieces: a wasm32 page aborted growing
        // their list (review 40). Refused as quickly, by counting.
        let r = crate::core::spec::parse_spec(
            r#"{"tensor": {"shape": [4096, 2048]}, "source": {"mesh": [4096], "placements": ["S(0)"]},
                "destination": {"mesh": [2048], "placements": ["S(1)"]}}"#,
        )
        .unwrap();
        for strategy in [Strategy::Intersection, Strategy::WholeShard] {
            let err = plan_and_verify(&r, strategy, VerifyOptions::default()).unwrap_err();
            assert!(
                matches!(err, VerifyError::TooManyPieces { pieces, limit: DEFAULT_MAX_PIECES } if pieces > DEFAULT_MAX_PIECES)
            );
            assert_eq!(
                err.to_string(),
                "the check would hold more than 1,048,576 pieces of the plan in memory, its limit; use fewer \
                 devices on either side"
            );
        }
        // At the limit, checked.
        let options = VerifyOptions { max_pieces: 6, ..VerifyOptions::default() };
        assert!(plan_and_verify(&presets::toy(), Strategy::Intersection, options).is_ok());
        let options = VerifyOptions { max_pieces: 5, ..VerifyOptions::default() };
        assert!(plan_and_verify(&presets::toy(), Strategy::Intersection, options).is_err());
        let gather = plan_and_verify(&presets::toy(), Strategy::Gather, VerifyOptions::default());
        assert_eq!(gather.unwrap_err(), VerifyError::Unsupported { strategy: Strategy::Gather });
    }

    #[test]
    fn an_inventorys_tensors_are_each_checked_against_their_own_pieces() {
        // Pieces are found per tensor in one pass: every tensor of a small inventory checks out, and a
        // piece taken from the second tensor shows up as that tensor's mismatches only.
        let toy_pair = crate::core::spec::parse_spec(
            r#"{"tensors": [{"name": "a", "shape": [12, 6]}, {"name": "b", "shape": [6, 4]}],
                "source": {"mesh": [3], "placements": ["S(0)"]},
                "destination": {"mesh": [2], "placements": ["S(1)"]}}"#,
        )
        .unwrap();
        let mut p = plan(&toy_pair, Strategy::Intersection).unwrap();
        assert_eq!(verify(&toy_pair, &p, VerifyOptions::default()).unwrap().mismatch_count, 0);
        let first_of_b = p.pieces.iter().position(|piece| piece.tensor == 1).unwrap();
        let lost = p.pieces.remove(first_of_b).keep.entries();
        let v = verify(&toy_pair, &p, VerifyOptions::default()).unwrap();
        assert_eq!(v.mismatch_count, lost);
        assert!(v.mismatches.iter().all(|m| m.tensor == 1));
    }

    #[test]
    fn swap_needs_two_dims() {
        let r = crate::core::spec::parse_spec(
            r#"{"tensor": {"shape": [8]}, "source": {"mesh": [2], "placements": ["S(0)"]},
               "destination": {"mesh": [2], "placements": ["R"]}}"#,
        )
        .unwrap();
        let p = plan(&r, Strategy::Intersection).unwrap();
        let err = verify(&r, &p, VerifyOptions { fault: Some(Fault::Swap), ..Default::default() }).unwrap_err();
        assert!(matches!(err, VerifyError::FaultNotApplicable { fault: Fault::Swap, .. }));
    }

    #[test]
    fn partial_shares_sum_back_to_the_value() {
        for count in 1..6 {
            let total = (0..count).fold(0u64, |acc, c| acc.wrapping_add(share(41, 3, c, count)));
            assert_eq!(total, value(41, 3));
        }
    }
}
