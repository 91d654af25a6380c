//! Colours for devices: the Okabe–Ito palette, distinguishable with the common colour-vision deficiencies.

/// Okabe & Ito (2008), without black (kept for text and lines).
pub const OKABE_ITO: [&str; 7] = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"];

/// The fill for the `index`-th source device. With more devices than colours the palette repeats; every
/// drawn piece is also labelled, so colour is never the only cue.
pub fn device_color(index: usize) -> &'static str {
    OKABE_ITO[index % OKABE_ITO.len()]
}

/// [`text_on`] of each palette colour, written out: a large mesh asks for a thousand tiles per edit, and
/// the luminance takes three `powf` each (a test checks the table against the formula).
const OKABE_ITO_TEXT: [&str; 7] = ["#111", "#111", "#fff", "#111", "#fff", "#fff", "#fff"];

/// Black or white text, whichever reads better on `hex` (relative luminance, WCAG).
pub fn text_on(hex: &str) -> &'static str {
    match OKABE_ITO.iter().position(|&c| c == hex) {
        Some(i) => OKABE_ITO_TEXT[i],
        None => text_by_luminance(hex),
    }
}

fn text_by_luminance(hex: &str) -> &'static str {
    let channel = |i: usize| {
        let v = u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0) as f64 / 255.0;
        if v <= 0.03928 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    let luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    if luminance > 0.35 { "#111" } else { "#fff" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_repeat_after_the_palette() {
        assert_eq!(device_color(0), device_color(7));
        assert_ne!(device_color(0), device_color(1));
    }

    #[test]
    fn the_palette_text_table_agrees_with_the_luminance() {
        for (fill, text) in OKABE_ITO.iter().zip(OKABE_ITO_TEXT) {
            assert_eq!(text_by_luminance(fill), text, "{fill}");
        }
        assert_eq!(text_on("#FFFFFF"), "#111", "colours outside the palette still get the formula");
        assert_eq!(text_on("#000000"), "#fff");
    }

    #[test]
    fn text_contrasts_with_its_fill() {
        assert_eq!(text_on("#F0E442"), "#111", "yellow takes dark text");
        assert_eq!(text_on("#0072B2"), "#fff", "blue takes light text");
    }
}
