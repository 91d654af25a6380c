// The correctness check's mismatching cells, drawn in red in the tensor view, as a test sees them.
import type { Page } from '@playwright/test';

/** Whether every mismatching cell of the tensor view is on screen, below the tour's bar (false while there is
 * no bar: read inside `expect.poll`, a throw would fail at once instead of reading again). */
export function redCellsOnScreen(page: Page) {
  return page.evaluate(() => {
    const tour = document.querySelector('.tour');
    if (!tour) return false;
    const bar = tour.getBoundingClientRect().bottom;
    const cells = [...document.querySelectorAll('[data-testid=mismatch-cell]')].map((c) => c.getBoundingClientRect());
    return cells.length > 0 && cells.every((c) => c.top >= bar && c.bottom <= innerHeight);
  });
}
