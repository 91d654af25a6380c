//! Orders for the traffic panel's bounded lists: the sortable per-link table and the busiest devices.

use std::cmp::Ordering;

use crate::core::traffic::{DeviceTraffic, LinkLoad};

/// A column of the per-link table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkColumn {
    Device,
    Link,
    Bytes,
    /// Time to carry the load at the link's bandwidth.
    Seconds,
}

impl LinkColumn {
    pub const ALL: [LinkColumn; 4] = [LinkColumn::Device, LinkColumn::Link, LinkColumn::Bytes, LinkColumn::Seconds];

    /// The direction a first click sorts by: amounts largest first, names in reading order.
    pub fn natural(self) -> Direction {
        match self {
            LinkColumn::Device | LinkColumn::Link => Direction::Ascending,
            LinkColumn::Bytes | LinkColumn::Seconds => Direction::Descending,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            LinkColumn::Device => "device",
            LinkColumn::Link => "link",
            LinkColumn::Bytes => "bytes",
            LinkColumn::Seconds => "seconds",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Ascending,
    Descending,
}

impl Direction {
    /// The value of `aria-sort` for a column sorted this way.
    pub fn aria(self) -> &'static str {
        match self {
            Direction::Ascending => "ascending",
            Direction::Descending => "descending",
        }
    }
}

/// How the per-link table is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LinkSort {
    pub column: LinkColumn,
    pub direction: Direction,
}

impl Default for LinkSort {
    /// Busiest first: the order in which the question "which link is the bottleneck?" is answered.
    fn default() -> Self {
        LinkSort { column: LinkColumn::Bytes, direction: Direction::Descending }
    }
}

impl LinkSort {
    /// The sort after a click on `column`: the same column flips, another starts in its natural direction.
    pub fn clicked(self, column: LinkColumn) -> LinkSort {
        if self.column == column {
            let direction = match self.direction {
                Direction::Ascending => Direction::Descending,
                Direction::Descending => Direction::Ascending,
            };
            LinkSort { column, direction }
        } else {
            LinkSort { column, direction: column.natural() }
        }
    }

    /// Sorts `links` in place. Ties fall back to busiest first, then device id, then link kind, so the order
    /// is total and the same on every run.
    pub fn apply(self, links: &mut [LinkLoad]) {
        let tie =
            |a: &LinkLoad, b: &LinkLoad| b.bytes.cmp(&a.bytes).then(a.device.cmp(&b.device)).then(a.link.cmp(&b.link));
        links.sort_unstable_by(|a, b| {
            let primary = match self.column {
                LinkColumn::Device => a.device.cmp(&b.device),
                LinkColumn::Link => a.link.name().cmp(b.link.name()),
                LinkColumn::Bytes => a.bytes.cmp(&b.bytes),
                LinkColumn::Seconds => a.seconds.total_cmp(&b.seconds),
            };
            let primary = if self.direction == Direction::Descending { primary.reverse() } else { primary };
            match primary {
                Ordering::Equal => tie(a, b),
                other => other,
            }
        });
    }
}

/// The indices of the `n` devices that move the most bytes (sent plus received), busiest first; ties in
/// device-table order. Devices that move nothing are never chosen.
pub fn busiest_devices(devices: &[DeviceTraffic], n: usize) -> Vec<usize> {
    let moved = |d: &DeviceTraffic| d.bytes_sent.saturating_add(d.bytes_received);
    let mut order: Vec<usize> = (0..devices.len()).filter(|&i| moved(&devices[i]) > 0).collect();
    order.sort_unstable_by(|&a, &b| moved(&devices[b]).cmp(&moved(&devices[a])).then(a.cmp(&b)));
    order.truncate(n);
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::traffic::LinkKind;

    fn load(device: u32, link: LinkKind, bytes: u64) -> LinkLoad {
        let bandwidth = if matches!(link, LinkKind::NicIn | LinkKind::NicOut) { 50e9 } else { 450e9 };
        LinkLoad { device, link, bytes, seconds: bytes as f64 / bandwidth }
    }

    fn toy_links() -> Vec<LinkLoad> {
        vec![
            load(0, LinkKind::NvlinkOut, 48),
            load(1, LinkKind::NvlinkOut, 48),
            load(2, LinkKind::NvlinkOut, 48),
            load(3, LinkKind::NvlinkIn, 72),
            load(4, LinkKind::NvlinkIn, 72),
        ]
    }

    fn order(links: &[LinkLoad]) -> Vec<u32> {
        links.iter().map(|l| l.device).collect()
    }

    #[test]
    fn the_default_puts_the_busiest_link_first_with_ties_by_device() {
        let mut links = toy_links();
        LinkSort::default().apply(&mut links);
        assert_eq!(order(&links), [3, 4, 0, 1, 2]);
    }

    #[test]
    fn each_column_sorts_both_ways() {
        let mut links = toy_links();
        LinkSort { column: LinkColumn::Device, direction: Direction::Descending }.apply(&mut links);
        assert_eq!(order(&links), [4, 3, 2, 1, 0]);
        LinkSort { column: LinkColumn::Bytes, direction: Direction::Ascending }.apply(&mut links);
        assert_eq!(order(&links), [0, 1, 2, 3, 4], "equal loads stay in device order");
        LinkSort { column: LinkColumn::Link, direction: Direction::Ascending }.apply(&mut links);
        assert_eq!(order(&links), [3, 4, 0, 1, 2], "nvlink_in before nvlink_out");
    }

    #[test]
    fn time_and_bytes_can_disagree() {
        // A NIC is nine times slower: 10 B on a NIC takes longer than 72 B on NVLink.
        let mut links = vec![load(3, LinkKind::NvlinkIn, 72), load(9, LinkKind::NicIn, 10)];
        LinkSort { column: LinkColumn::Seconds, direction: Direction::Descending }.apply(&mut links);
        assert_eq!(order(&links), [9, 3]);
        LinkSort::default().apply(&mut links);
        assert_eq!(order(&links), [3, 9]);
    }

    #[test]
    fn clicking_flips_the_same_column_and_starts_others_naturally() {
        let sort = LinkSort::default();
        assert_eq!(sort.clicked(LinkColumn::Bytes).direction, Direction::Ascending);
        assert_eq!(
            sort.clicked(LinkColumn::Device),
            LinkSort { column: LinkColumn::Device, direction: Direction::Ascending }
        );
        assert_eq!(sort.clicked(LinkColumn::Seconds).direction, Direction::Descending);
        assert_eq!(Direction::Descending.aria(), "descending");
    }

    #[test]
    fn the_busiest_devices_come_first_and_idle_ones_never() {
        let device = |device, sent, received| DeviceTraffic {
            device,
            bytes_sent: sent,
            bytes_received: received,
            ..Default::default()
        };
        let devices = [device(0, 48, 0), device(1, 0, 0), device(2, 48, 0), device(3, 0, 72), device(4, 0, 72)];
        assert_eq!(busiest_devices(&devices, 3), [3, 4, 0]);
        assert_eq!(busiest_devices(&devices, 10), [3, 4, 0, 2], "the idle device 1 is left out");
        assert_eq!(busiest_devices(&[], 3), Vec::<usize>::new());
    }
}
