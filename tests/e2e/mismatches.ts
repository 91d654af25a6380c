// The correctness check's mismatching cells, drawn in red in the tensor view, as a test sees them.
import type { Page } from '@playwright/test';

/** Whether every mismatching cell of the tensor view is on screen, below the tour's bar. */
export function redCellsOnScreen(page: Page) {
  return page.evaluate(() => {
    const bar = document.querySelector('.tour')!.getBoundingClientRect().bottom;
    const cells = [...document.querySelectorAll('[data-testid=mismatch-cell]')].map((c) => c.getBoundingClientRect());
    return cells.length > 0 && cells.every((c) => c.top >= bar && c.bottom <= innerHeight);
  });
}
