// Interaction timings measured in the browser (the app's frame, and Event Timing: from real input to the next painted frame),
// printed for BENCHMARKS.md. The tests assert behaviour (the view reacted), never a time: the figures depend
// on the machine and its load.
import { test, expect, type Page } from '@playwright/test';
import { steady } from './settle';

/** Performs `act` (real input through Playwright) and says how long the browser took for the slowest event
 * named in `types`, two ways:
 * - "frame ready": from the `trigger` event (the one the app reacts to) until the main thread has built the
 *   next frame (the handlers, the reactive updates they start, style, layout and paint recording): taken
 *   in a task posted from the next animation frame's callback. This is the app's part of the frame.
 * - "next paint": the Event Timing API's `duration`, what browsers report as Interaction to Next Paint. It
 *   adds rasterising and presenting the frame (software rendering here, on two cores: ~25-40 ms for any
 *   frame, even a hover that runs 2 ms of script); 8 ms granularity, nothing reported under 16 ms. */
async function nextPaint(page: Page, types: string[], trigger: string, act: () => Promise<void>): Promise<string> {
  await page.evaluate((trigger) => {
    const w = window as unknown as {
      timing?: PerformanceObserver; events: { name: string; duration: number }[]; ready: number[];
      readyListener?: (e: Event) => void; trigger?: string;
    };
    w.timing?.disconnect();
    if (w.readyListener && w.trigger) window.removeEventListener(w.trigger, w.readyListener, { capture: true });
    w.events = [];
    w.ready = [];
    w.timing = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.events.push({ name: e.name, duration: e.duration });
    });
    w.timing.observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
    w.trigger = trigger;
    w.readyListener = (e: Event) => {
      const start = e.timeStamp;
      requestAnimationFrame(() => setTimeout(() => w.ready.push(performance.now() - start), 0));
    };
    window.addEventListener(trigger, w.readyListener, { capture: true });
  }, trigger);
  await act();
  // Entries arrive after the paint; leave room for it and for the panels that follow one paint later.
  await page.waitForTimeout(400);
  const [durations, ready] = await page.evaluate((types) => {
    const w = window as unknown as { events: { name: string; duration: number }[]; ready: number[] };
    return [w.events.filter((e) => types.includes(e.name)).map((e) => e.duration), w.ready];
  }, types);
  const paint = durations.length > 0 ? `${Math.max(...durations)} ms` : '< 16 ms';
  const frame = ready.length > 0 ? `${Math.max(...ready).toFixed(0)} ms` : 'none';
  return `${frame} / ${paint}`;
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

test('interaction timings, inside the page', { tag: '@timings' }, async ({ page }) => {
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
    // Pointed at where it stays (the page is still being laid out just after it is drawn).
    const box = await steady(page, () => target.boundingBox());
    if (!box) throw new Error('no destination device drawn');
    await page.mouse.move(box.x - 40, box.y - 40);
    const hover = await nextPaint(page, HOVER, 'pointerover', () => page.mouse.move(box.x + 4, box.y + 4));
    await expect(page.getByTestId('focus-region')).toHaveCount(1);
    await page.mouse.move(0, 0);
    lines.push(`${preset}: hover a destination device → frame ready / next paint ${hover}`);

    // Three edits: one more source device each time.
    const edits: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await page.getByTestId('change-description').textContent();
      edits.push(await nextPaint(page, CLICK, 'click', () => page.getByTestId('more-source-mesh-0').click()));
      await expect(page.getByTestId('change-description')).not.toHaveText(before ?? '');
    }
    lines.push(`${preset}: one more source device → re-planned, frame ready / next paint ${edits.join(', ')}`);
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
    wide.push(await nextPaint(page, CLICK, 'click', () => page.getByTestId(`${button}-destination-mesh-0`).click()));
    await expect(page.getByTestId('change-description')).toContainText(`→ ${count} destination devices`);
  }
  lines.push(`64 → 63/64 devices (4096 × 4096): one destination device more or less → re-planned, frame ready / next paint ${wide.join(', ')}`);
  lines.push(`64 → 64: inside the last edit: ${await measures(page)}`);
  // Hover where pieces are drawn one by one (512 × 512, 64 → 31: 1,984 pieces): each drawn piece read the
  // focus itself, so a hover re-ran every one of them (150–370 ms of it).
  await page.getByTestId('field-tensor-shape-0').fill('512');
  await page.getByTestId('field-tensor-shape-1').fill('512');
  await page.getByTestId('field-destination-mesh-0').fill('31');
  await expect(page.getByTestId('change-description')).toContainText('→ 31 destination devices');
  const drawn = await page.getByTestId('piece').count();
  expect(drawn).toBeGreaterThan(1000);
  const source = page.locator('[data-testid=device][data-side=source][data-flat="3"]');
  const tile = await steady(page, () => source.boundingBox());
  if (!tile) throw new Error('no source device drawn');
  await page.mouse.move(tile.x - 40, tile.y - 40);
  const hoverDevice = await nextPaint(page, HOVER, 'pointerover', () => page.mouse.move(tile.x + 4, tile.y + 4));
  await expect(page.getByTestId('focus-region')).toHaveCount(1);
  // In sight first: a line more over the pictures put it under the fold, where the mouse cannot point.
  await page.getByTestId('piece').nth(100).scrollIntoViewIfNeeded();
  const piece = await steady(page, () => page.getByTestId('piece').nth(100).boundingBox());
  if (!piece) throw new Error('no piece drawn');
  const hoverPiece = await nextPaint(page, HOVER, 'pointerover', () =>
    page.mouse.move(piece.x + piece.width / 2, piece.y + piece.height / 2),
  );
  await expect(page.locator('[data-testid=piece].is-related')).toHaveCount(1);
  await page.mouse.move(0, 0);
  lines.push(`64 → 31 (512 × 512, ${drawn} pieces drawn): hover a source device / a piece → frame ready / next paint ${hoverDevice}; ${hoverPiece}`);

  await page.goto('/?preset=cycle-120');
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  const typed: string[] = [];
  for (const s of ['8', '2', '16']) {
    typed.push(await nextPaint(page, TYPE, 'input', () => page.getByTestId('speedup-input').fill(s)));
    await expect(page.getByTestId('cycle-new')).not.toHaveText('112.5 s');
  }
  lines.push(`cycle-120: type s (8, 2, 16) → answer, timeline and curves, frame ready / next paint ${typed.join(', ')}`);
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
