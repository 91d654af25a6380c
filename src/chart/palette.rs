//! Colours for devices and for the stages of an RL cycle: the Okabe–Ito palette and a grey, distinguishable
//! with the common colour-vision deficiencies.

/// Okabe & Ito (2008) without black (kept for text and lines), then a light grey, as in the common
/// eight-colour "colour-blind palette": eight colours, so the eight GPUs of a node (FSDP-8, TP-8) never share
/// one; with seven, the last device of a node took the first one's colour.
pub const PALETTE: [&str; 8] = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#AAAAAA"];

/// The fill for the `index`-th source device. With more devices than colours the palette repeats; every
/// drawn piece is also labelled, so colour is never the only cue.
pub fn device_color(index: usize) -> &'static str {
    PALETTE[index % PALETTE.len()]
}

/// The refit's colour in every cycle picture (its legend entries use it too).
pub const REFIT_COLOUR: &str = PALETTE[3];

/// The usual stages of an RL cycle and their palette slots (the refit's is [`REFIT_COLOUR`]).
const NAMED_STAGES: [(&str, usize); 4] = [("generation", 0), ("scoring", 1), ("training", 2), ("refit", 3)];

/// The colour of each stage of a cycle, by what the stage is rather than where it is, so that moving a
/// stage, or opening a preset that starts with the refit, does not recolour it: the refit (the stage at
/// `refit`, or without one a stage named `refit`) is always [`REFIT_COLOUR`], generation, scoring and
/// training keep their own colours, and any other stage takes the colours left, in order.
pub fn stage_colours<S: AsRef<str>>(names: &[S], refit: Option<usize>) -> Vec<&'static str> {
    let fixed: Vec<Option<usize>> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if refit == Some(i) {
                return Some(3);
            }
            let name = name.as_ref().trim();
            NAMED_STAGES
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(name) && (*known != "refit" || refit.is_none()))
                .map(|n| n.1)
        })
        .collect();
    // Not the grey: the timeline draws the refit's waiting in grey.
    let mut left: Vec<usize> = (4..7).chain(0..4).filter(|slot| !fixed.contains(&Some(*slot))).collect();
    if left.is_empty() {
        // More kinds of stage than colours: they repeat (the lanes are named, so colour is not the only cue).
        left = (4..7).collect();
    }
    let mut others = left.iter().cycle();
    fixed.into_iter().map(|slot| PALETTE[slot.unwrap_or_else(|| *others.next().unwrap_or(&0))]).collect()
}

/// [`text_on`] of each palette colour, written out: a large mesh asks for a thousand tiles per edit, and
/// the luminance takes three `powf` each (a test checks the table against the formula).
const PALETTE_TEXT: [&str; 8] = ["#111", "#111", "#111", "#111", "#fff", "#111", "#111", "#111"];

/// Black or white text, whichever reads better on `hex` (relative luminance, WCAG).
pub fn text_on(hex: &str) -> &'static str {
    match PALETTE.iter().position(|&c| c == hex) {
        Some(i) => PALETTE_TEXT[i],
        None => text_by_luminance(hex),
    }
}

fn text_by_luminance(hex: &str) -> &'static str {
    let channel = |i: usize| {
        let v = u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0) as f64 / 255.0;
        if v <= 0.03928 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    let luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    // Above ~0.18 dark text has the higher WCAG contrast (the two contrasts cross there): white on the
    // palette's green, vermillion or pink measured about 3:1, dark text 5–6:1.
    if luminance > 0.18 { "#111" } else { "#fff" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_repeat_after_the_palette() {
        assert_eq!(device_color(0), device_color(PALETTE.len()));
        let node: std::collections::HashSet<&str> = (0..8).map(device_color).collect();
        assert_eq!(node.len(), 8, "the eight devices of a node have eight colours");
    }

    #[test]
    fn the_palette_text_table_agrees_with_the_luminance() {
        for (fill, text) in PALETTE.iter().zip(PALETTE_TEXT) {
            assert_eq!(text_by_luminance(fill), text, "{fill}");
        }
        assert_eq!(text_on("#FFFFFF"), "#111", "colours outside the palette still get the formula");
        assert_eq!(text_on("#000000"), "#fff");
    }

    #[test]
    fn a_stage_keeps_its_colour_when_moved() {
        let usual = stage_colours(&["generation", "scoring", "training", "refit"], Some(3));
        let moved = stage_colours(&["refit", "generation", "training", "scoring"], Some(0));
        assert_eq!(usual, [PALETTE[0], PALETTE[1], PALETTE[2], REFIT_COLOUR]);
        assert_eq!(moved, [REFIT_COLOUR, usual[0], usual[2], usual[1]]);
    }

    #[test]
    fn the_refit_is_the_marked_stage_whatever_its_name() {
        let colours = stage_colours(&["Rollout", "weight sync", "refit"], Some(1));
        assert_eq!(colours[1], REFIT_COLOUR);
        assert_ne!(colours[2], REFIT_COLOUR, "an unmarked stage named refit is not the refit");
        // Without a marked stage (measured timings), the one named refit is taken for it.
        assert_eq!(stage_colours(&["generation", " Refit "], None)[1], REFIT_COLOUR);
    }

    #[test]
    fn other_stages_take_the_colours_left_and_repeat_only_past_the_palette() {
        let colours = stage_colours(&["generation", "reward model", "judge", "training", "refit", "eval"], Some(4));
        let mut distinct = colours.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), colours.len(), "{colours:?}");
        let many: Vec<String> = (0..9).map(|i| format!("stage {i}")).collect();
        let colours = stage_colours(&many, None);
        assert_eq!(colours.len(), 9);
        assert_eq!(colours[..7].iter().collect::<std::collections::HashSet<_>>().len(), 7);
    }

    #[test]
    fn text_contrasts_with_its_fill() {
        assert_eq!(text_on("#F0E442"), "#111", "yellow takes dark text");
        assert_eq!(text_on("#0072B2"), "#fff", "blue takes light text");
    }
}
