// Interaction timings measured by the browser (Event Timing: from real input to the next painted frame),
// printed for BENCHMARKS.md. The tests assert behaviour (the view reacted), never a time: the figures depend
// on the machine and its load.
import { test, expect, type Page } from '@playwright/test';

/** Performs `act` (real input through Playwright) and says how long the browser took from the input to the
 * next painted frame, for the slowest event named in `types`: the Event Timing API's `duration`, what
 * browsers report as Interaction to Next Paint. It covers the handlers, the reactive updates they start
 * (re-planning, DOM changes), style, layout and paint; it has 8 ms granularity, and the browser reports no
 * event under 16 ms (then "< 16 ms": within one frame). */
async function nextPaint(page: Page, types: string[], act: () => Promise<void>): Promise<string> {
  await page.evaluate(() => {
    const w = window as unknown as { timing?: PerformanceObserver; events: { name: string; duration: number }[] };
    w.timing?.disconnect();
    w.events = [];
    w.timing = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.events.push({ name: e.name, duration: e.duration });
    });
    w.timing.observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  });
  await act();
  // Entries arrive after the paint; leave room for it and for the panels that follow one paint later.
  await page.waitForTimeout(400);
  const durations = await page.evaluate((types) => {
    const w = window as unknown as { events: { name: string; duration: number }[] };
    return w.events.filter((e) => types.includes(e.name)).map((e) => e.duration);
  }, types);
  return durations.length > 0 ? `${Math.max(...durations)} ms` : '< 16 ms';
}

/** The last duration of each performance measure the app made (`plan`, `compare strategies`, …). */
async function measures(page: Page): Promise<string> {
  return page.evaluate(() => {
    const last = new Map<string, number>();
    for (const m of performance.getEntriesByType('measure')) last.set(m.name, m.duration);
    return [...last].map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`).join(', ');
  });
}

const CLICK = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click'];
const HOVER = ['pointerover', 'mouseover', 'pointerenter', 'mouseenter'];
const TYPE = ['keydown', 'keyup', 'beforeinput', 'input'];

test('interaction timings, inside the page', async ({ page }) => {
  const lines: string[] = [];
  for (const preset of ['toy', 'large']) {
    await page.goto(`/?preset=${preset}`);
    await expect(page.getByTestId('tensor-view')).toBeVisible();
    const load = await page.evaluate(() => performance.now());
    lines.push(`${preset}: page load to views drawn ${load.toFixed(0)} ms`);

    // Point at a destination device (the large preset's 256 are paths, read by position).
    await page.getByTestId('mesh-destination').scrollIntoViewIfNeeded();
    const target = preset === 'large'
      ? page.locator('[data-testid=device-paths-destination] .tile-path').first()
      : page.locator('[data-testid=device][data-side=destination][data-flat="1"]');
    const box = await target.boundingBox();
    if (!box) throw new Error('no destination device drawn');
    await page.mouse.move(box.x - 40, box.y - 40);
    const hover = await nextPaint(page, HOVER, () => page.mouse.move(box.x + 4, box.y + 4));
    await expect(page.getByTestId('focus-region')).toHaveCount(1);
    await page.mouse.move(0, 0);
    lines.push(`${preset}: hover a destination device → next paint ${hover}`);

    // Three edits: one more source device each time.
    const edits: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await page.getByTestId('change-description').textContent();
      edits.push(await nextPaint(page, CLICK, () => page.getByTestId('more-source-mesh-0').click()));
      await expect(page.getByTestId('change-description')).not.toHaveText(before ?? '');
    }
    lines.push(`${preset}: one more source device → re-planned, next paint ${edits.join(', ')}`);
    lines.push(`${preset}: inside the last edit: ${await measures(page)}`);
  }
  // The bar for one frame is "meshes up to 64 devices a side": a 4096 × 4096 tensor, 64 source
  // devices by rows → 63, then 64 destination devices by columns (4,096 pieces, every tile drawn).
  await page.goto('/?preset=toy');
  await expect(page.getByTestId('tensor-view')).toBeVisible();
  await page.getByTestId('field-tensor-shape-0').fill('4096');
  await page.getByTestId('field-tensor-shape-1').fill('4096');
  await page.getByTestId('field-source-mesh-0').fill('64');
  await page.getByTestId('field-destination-mesh-0').fill('63');
  await expect(page.getByTestId('change-description')).toContainText('64 source devices → 63 destination devices');
  const wide: string[] = [];
  for (const [button, count] of [['more', 64], ['less', 63], ['more', 64]] as const) {
    wide.push(await nextPaint(page, CLICK, () => page.getByTestId(`${button}-destination-mesh-0`).click()));
    await expect(page.getByTestId('change-description')).toContainText(`→ ${count} destination devices`);
  }
  lines.push(`64 → 63/64 devices (4096 × 4096): one destination device more or less → re-planned, next paint ${wide.join(', ')}`);
  lines.push(`64 → 64: inside the last edit: ${await measures(page)}`);

  await page.goto('/?preset=cycle-120');
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  const typed: string[] = [];
  for (const s of ['8', '2', '16']) {
    typed.push(await nextPaint(page, TYPE, () => page.getByTestId('speedup-input').fill(s)));
    await expect(page.getByTestId('cycle-new')).not.toHaveText('112.5 s');
  }
  lines.push(`cycle-120: type s (8, 2, 16) → answer, timeline and curves, next paint ${typed.join(', ')}`);
  // The 70B-like inventory on 1024 → 256 devices: every strategy planned (the app's `inventory plan` marks).
  await page.goto('/?view=inventory&model=llama-3-70b');
  await expect(page.getByTestId('inventory-strategy')).toHaveCount(3);
  const inventory = await page.evaluate(() => {
    const plans = performance.getEntriesByType('measure').filter((m) => m.name === 'inventory plan');
    return [plans.length, plans.reduce((sum, m) => sum + m.duration, 0), performance.now()];
  });
  expect(inventory[0]).toBeGreaterThanOrEqual(3);
  lines.push(`llama-3-70b inventory (1024 → 256): ${inventory[0]} strategy plans took ${inventory[1].toFixed(0)} ms in all; page ready at ${inventory[2].toFixed(0)} ms`);
  console.log(lines.join('\n'));
});
