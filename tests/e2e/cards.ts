// Whether a table shown as cards (`cards-on-phone`, style/inventory.css) fits its box: for end-to-end tests
// of the inventory's tables and the first mismatches on narrow screens.
import { type Locator } from '@playwright/test';

/** How `table` sits in its scrolling box: whether the box scrolls sideways, how many body cells stand past
 * its right edge, and how many figures have no column name before them. */
export async function cardsFit(table: Locator): Promise<{ wider: boolean; past: number; unnamed: number }> {
  return table.evaluate((t) => {
    const box = t.parentElement!;
    const right = box.getBoundingClientRect().right;
    const figures = [...t.querySelectorAll('tbody td')];
    const cells = [...t.querySelectorAll('tbody td, tbody th')];
    return {
      wider: box.scrollWidth > box.clientWidth,
      past: cells.filter((c) => c.getBoundingClientRect().right > right + 0.5).length,
      unnamed: figures.filter((c) => getComputedStyle(c, '::before').content === 'none').length,
    };
  });
}
