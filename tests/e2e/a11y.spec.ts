// What a keyboard or screen-reader user meets: results said by live regions that are on the page before
// their words change, a mesh's keys kept by the mesh at its edge, a tabbed-to field clear of the editor
// column's fade, and small coloured text with enough contrast.
import { test, expect } from '@playwright/test';
import { layoutSettled } from './settle';

test('a check, and each tour step, are said by a live region that was there before it', async ({ page }) => {
  // The verdict came as a new role=status element already holding its words, which screen readers often
  // skip; the tour changed steps with no live region at all.
  await page.goto('/?preset=toy');
  const verdict = page.getByTestId('verify-announce');
  await expect(verdict).toHaveAttribute('role', 'status');
  await expect(verdict).toHaveText('');
  await page.getByTestId('verify-button').click();
  await expect(verdict).toContainText('all 72 entries');
  await expect(page.getByTestId('verify-result')).not.toHaveAttribute('role', 'status');
  await page.getByTestId('fault-select').selectOption('offset');
  await expect(verdict).toHaveText('');
  await page.getByTestId('verify-button').click();
  await expect(verdict).toContainText('do not match');
  // Run again with the same verdict: said again (emptied, then filled), not left as it was, unread.
  await verdict.evaluate((region) => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true });
  });
  await page.getByTestId('verify-button').click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { said: string[] }).said))
    .toEqual([expect.stringMatching(/^$/), expect.stringContaining('do not match')]);

  await page.getByTestId('explain').click();
  const step = page.getByTestId('tour-announce');
  await expect(step).toHaveAttribute('aria-live', 'polite');
  await expect(step).toHaveText(/^Step 1 of \d+: /);
  const title = await page.getByTestId('tour-title').textContent();
  await page.getByTestId('tour-next').click();
  await expect(step).toHaveText(/^Step 2 of \d+: /);
  expect(await step.textContent()).not.toContain(title!);
  await expect(step).toContainText((await page.getByTestId('tour-title').textContent())!);
  // The step's words are said too: the focus stays on Next.
  await expect(step).toContainText((await page.getByTestId('tour-text').textContent())!.slice(0, 60));
});

test('an edit says what it did to the totals and the cycle; the heatmap speaks only while a cell is read', async ({ page }) => {
  // A screen reader heard only the heatmap's "Largest: … Point at a cell…" after every edit, and nothing
  // after "+ mesh dim" or a new s.
  await page.goto('/?preset=toy');
  const totals = page.getByTestId('totals-announce');
  await expect(totals).toHaveAttribute('aria-live', 'polite');
  // Another replica of the destination: twice the bytes received.
  await page.getByTestId('add-mesh-dim-destination').click();
  await expect(totals).toHaveText('72 unique logical entries, 288 B received by devices, 96 B crossing the busiest link');
  await expect(page.getByTestId('heatmap-readout')).toHaveAttribute('aria-live', 'off');
  await page.getByTestId('tab-cycle').click();
  await page.getByTestId('speedup-input').fill('8');
  await expect(page.getByTestId('cycle-announce')).toContainText('Refit got 8× faster; the cycle got');
});

test('typing a size says the answer once, when the typing stops, not once a key', async ({ page }) => {
  // Typing 100000 into a tensor dim had a screen reader queue five answers, each stale by the next
  // (review 41): the words wait for the typing to stop.
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('totals-announce')).toBeAttached();
  await page.evaluate(() => {
    const w = window as unknown as { said: string[] };
    w.said = [];
    const region = document.querySelector('[data-testid=totals-announce]')!;
    new MutationObserver(() => {
      if (region.textContent) w.said.push(region.textContent);
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
  const size = page.getByTestId('field-tensor-shape-0');
  await size.selectText();
  await page.keyboard.type('100000', { delay: 60 });
  await expect(page.getByTestId('total-unique-entries')).toContainText('600,000');
  await expect.poll(() => page.evaluate(() => (window as unknown as { said: string[] }).said)).toEqual([
    '600,000 unique logical entries, 1.14 MiB received by devices, 586 KiB crossing the busiest link',
  ]);
});

test("a field's unit is in its name, as it is beside its box", async ({ page }) => {
  // "NVLink 450" was said without GB/s (review 41).
  await page.goto('/?preset=toy');
  await expect(page.getByRole('textbox', { name: 'NVLink, in GB/s', exact: true })).toHaveValue('450');
  await expect(page.getByRole('textbox', { name: 'Latency, in µs / message', exact: true })).toHaveValue('5');
  await page.goto('/?view=inventory&model=llama-3-8b');
  await expect(page.getByRole('textbox', { name: 'NIC, in GB/s', exact: true })).toBeVisible();
});

test('undo and Back keep the focus on the control redrawn, or on the view, not on the page', async ({ page }) => {
  // Ctrl+Z after a placement chosen by key left the focus on <body>: the editors were drawn anew (review 41).
  await page.goto('/?preset=toy');
  const placement = page.getByTestId('field-source-placement-0');
  await placement.focus();
  await placement.selectOption('R');
  await expect(page.getByTestId('change-placements')).toHaveText('[Replicate()] → [Shard(1)]');
  await page.waitForTimeout(700);
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('change-placements')).toHaveText('[Shard(0)] → [Shard(1)]');
  await expect(placement).toBeFocused();
  // A view gone with what had the focus: the view shown takes it.
  await page.getByTestId('tab-inventory').click();
  await expect(page.getByTestId('tab-inventory')).toBeFocused();
  await page.waitForTimeout(700);
  await page.goBack();
  await expect(page.getByTestId('tab-layout')).toHaveAttribute('aria-selected', 'true');
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
});

test("a mesh's arrow keys at its edge move nothing and scroll nothing", async ({ page }) => {
  // ArrowDown on the toy's last source device scrolled the page by 40 px.
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto('/?preset=toy');
  const last = page.locator('[data-testid=device][data-side=source][data-device="2"]');
  // The scroll compared against is the page's once laid out (the panels below the pictures, the fonts).
  await expect(last).toBeVisible();
  await layoutSettled(page);
  await last.focus();
  const before = await page.evaluate(() => scrollY);
  for (const key of ['ArrowDown', 'ArrowUp', 'ArrowRight']) {
    await page.keyboard.press(key);
    await expect(last).toBeFocused();
    expect(await page.evaluate(() => scrollY), key).toBe(before);
  }
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('[data-testid=device][data-side=source][data-device="1"]')).toBeFocused();
});

test('a focused device is told from the devices it relates to by more than a shade of its stroke', async ({ page }) => {
  // Its accent stroke beside the related devices' near-black one of nearly the same width read as one mark.
  await page.goto('/?preset=toy');
  const device = (side: string, id: number) => page.locator(`[data-testid=device][data-side=${side}][data-device="${id}"]`);
  await device('source', 0).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect(device('source', 0)).toBeFocused();
  await expect(device('destination', 3)).toHaveClass(/is-related/);
  const ring = (side: string, id: number) =>
    device(side, id).locator('.tile-ring').evaluate((r) => getComputedStyle(r).display);
  expect(await ring('source', 0)).not.toBe('none');
  expect(await ring('destination', 3)).toBe('none');
  expect(await ring('source', 1)).toBe('none');
  // The ring is light inside the accent stroke: it differs from the related stroke's colour.
  const colours = await page.evaluate(() => {
    const stroke = (selector: string) => getComputedStyle(document.querySelector(selector)!).stroke;
    return {
      ring: stroke('[data-testid=device][data-side=source][data-device="0"] .tile-ring'),
      related: stroke('[data-testid=device][data-side=destination][data-device="3"] .tile-box'),
    };
  });
  expect(colours.ring).not.toBe(colours.related);
});

test("a field reached by Tab in the editor column stops above the column's fade", async ({ page }) => {
  // The destination's dtype was scrolled to the column's last 30 px, under its 2rem fade.
  await page.goto('/?preset=fsdp-tp');
  await expect(page.getByTestId('tensor-view')).toBeVisible();
  const field = page.getByTestId('field-destination-dtype');
  await page.getByTestId('field-tensor-name').focus();
  // From the field before it, one Tab, as a keyboard user arrives.
  await page.locator('[data-testid=field-destination-dtype]').evaluate((e) => {
    const fields = [...document.querySelectorAll<HTMLElement>('.editors select, .editors input, .editors textarea')];
    fields[fields.indexOf(e as HTMLElement) - 1].focus();
  });
  await page.keyboard.press('Tab');
  await expect(field).toBeFocused();
  const { bottom, columnBottom, fade } = await field.evaluate((e) => {
    const column = e.closest('.sticky-column')!;
    return {
      bottom: e.getBoundingClientRect().bottom,
      columnBottom: column.getBoundingClientRect().bottom,
      fade: parseFloat(getComputedStyle(column, '::after').height),
    };
  });
  expect(bottom).toBeLessThanOrEqual(columnBottom - fade + 1);
});

test("the link table's coloured link names and its sort arrows are readable against their rows", async ({ page }) => {
  await page.goto('/?preset=fsdp-tp');
  const table = page.getByTestId('link-table');
  await table.scrollIntoViewIfNeeded();
  const ratios = await page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    // The first opaque background behind an element.
    const background = (e: Element | null): string => {
      for (; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (!c.startsWith('rgba') || !c.endsWith(', 0)')) return c;
      }
      return 'rgb(255, 255, 255)';
    };
    const ratio = (e: Element) => {
      const [a, b] = [luminance(getComputedStyle(e).color), luminance(background(e))];
      const opacity = Number(getComputedStyle(e).opacity);
      return { ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), opacity };
    };
    return [...document.querySelectorAll('[data-testid=link-kind], .sort-arrow')].map((e) => ({ text: e.textContent, ...ratio(e) }));
  });
  expect(ratios.length).toBeGreaterThan(4);
  for (const r of ratios) {
    expect(r.opacity, r.text!).toBe(1);
    expect(r.ratio, `${r.text}: ${r.ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
  }
});

test('a control is named by its words, not by the arrow drawn beside it', async ({ page }) => {
  // "Share ▾", "Explain ▸", "Next ▸" and "▸ Constraint check …" were read out with their glyphs.
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('share-menu').locator('summary')).toHaveAccessibleName('Share');
  await expect(page.getByTestId('export-menu').locator('summary')).toHaveAccessibleName('Export');
  await expect(page.getByTestId('explain')).toHaveAccessibleName('Explain');
  await expect(page.locator('.constraints > summary')).toHaveAccessibleName(/^[A-Z]/);
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-next')).toHaveAccessibleName('Next');
});

test('every table of the layout view is named', async ({ page }) => {
  // The pieces, the strategies and the per-device bars were three tables without a name.
  await page.goto('/?preset=toy');
  await page.getByTestId('fault-select').selectOption('offset');
  await page.getByTestId('verify-button').click();
  await expect(page.getByTestId('mismatch-list')).toBeVisible();
  for (const id of ['piece-table', 'strategy-table', 'device-bars', 'link-table', 'mismatch-list']) {
    await expect(page.getByTestId(id), id).toHaveAccessibleName(/\w{4}/);
  }
});

test('the first Tab stop skips the page bar, the presets and the editors to the pictures', async ({ page }) => {
  // Without it the first piece is the 40th Tab stop, after every field of the editors.
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('piece')).toHaveCount(6);
  const skip = page.getByTestId('skip-to-pictures');
  const hidden = (await skip.boundingBox())!;
  expect(hidden.y + hidden.height, 'out of sight until focused').toBeLessThanOrEqual(0);
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  const shown = (await skip.boundingBox())!;
  expect(shown.y).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('#pictures')).toBeFocused();
  expect(page.url(), 'the share state in the address stays as it was').not.toContain('#pictures');
  // From the pictures, Tab goes on into them: the whole-shard toggle, then the first piece.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('piece').first()).toBeFocused();
  // The cycle has no editors before its answer, and no link.
  await page.getByTestId('tab-cycle').click();
  await expect(skip).toHaveCount(0);
  await expect(page.getByTestId('skip-to-results')).toHaveCount(0);
  // The inventory's model and layout fields were 32 stops before its first result (review 41).
  await page.goto('/?view=inventory&model=llama-3-8b');
  await expect(page.getByTestId('inventory-tensor').first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-to-results')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#inventory-results')).toBeFocused();
});

test('the link table sorts by buttons named by their column, in words, and the inventory draws the page focus ring', async ({ page }) => {
  await page.goto('/?preset=toy');
  // Named by the column alone: the button names the column, whose cells were each read with "Sort by device".
  await expect(page.getByTestId('link-sort-device')).toHaveAccessibleName('Device');
  await expect(page.getByTestId('link-table').getByRole('columnheader', { name: 'Device', exact: true })).toHaveAttribute('aria-sort', 'none');
  // The browser's thin ring was left on the inventory's primary button.
  await page.goto('/?view=inventory');
  const button = page.getByRole('button', { name: /See the whole-cycle effect/ });
  await button.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  expect(await button.evaluate((b) => { const s = getComputedStyle(b); return [s.outlineStyle, s.outlineWidth]; })).toEqual(['solid', '2px']);
});

test("a piece's details are said when the keyboard reaches it, not as the mouse passes over pieces", async ({ page }) => {
  // The readout under the tensor was itself a live region: hovering six pieces made eleven announcements.
  await page.goto('/?preset=toy');
  const said = page.getByTestId('focus-announce');
  await expect(said).toHaveAttribute('aria-live', 'polite');
  const pieces = page.getByTestId('piece');
  for (let i = 0; i < 6; i++) await pieces.nth(i).hover();
  await expect(page.getByTestId('focus-line')).toContainText('d2 → d4');
  await expect(said).toHaveText('');
  await expect(page.getByTestId('focus-line')).not.toHaveAttribute('aria-live', /.*/);
  await pieces.first().focus();
  await expect(said).toContainText('d0 → d3');
  await page.keyboard.press('ArrowRight');
  await expect(said).not.toContainText('d0 → d3');
  await expect(said).toContainText('→');
});
