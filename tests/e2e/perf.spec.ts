// Interaction timings measured inside the page (performance.now around the event and the next two animation
// frames), printed for BENCHMARKS.md. The tests assert behaviour (the view reacted), never a time: the
// figures depend on the machine and its load.
import { test, expect, type Page } from '@playwright/test';

/** Dispatches `event` on the element matching `selector`, waits until `done` holds and the next frame has
 * been painted, and returns the elapsed milliseconds (in the page, without Playwright's round trips). */
async function react(page: Page, selector: string, event: string, done: string, unlike = ''): Promise<[number, number]> {
  return page.evaluate(
    async ([selector, event, done, unlike]) => {
      const target = document.querySelector(selector);
      if (!target) throw new Error(`no ${selector}`);
      // Done when `done` is there and (if given) its text is no longer `unlike`.
      const finished = () => {
        const element = document.querySelector(done);
        return element !== null && (unlike === '' || element.textContent !== unlike);
      };
      const started = performance.now();
      target.dispatchEvent(new MouseEvent(event, { bubbles: true }));
      for (let i = 0; i < 6000 && !finished(); i++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      if (!finished()) throw new Error(`${done} never changed`);
      const updated = performance.now() - started;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return [updated, performance.now() - started];
    },
    [selector, event, done, unlike] as const,
  );
}

test('interaction timings, inside the page', async ({ page }) => {
  const lines: string[] = [];
  for (const preset of ['toy', 'large']) {
    await page.goto(`/?preset=${preset}`);
    await expect(page.getByTestId('tensor-view')).toBeVisible();
    const load = await page.evaluate(() => performance.now());
    lines.push(`${preset}: page load to views drawn ${load.toFixed(0)} ms`);

    const device = `[data-testid=device][data-side=destination][data-flat="1"]`;
    const hover = await react(page, device, 'mouseover', '[data-testid=focus-region]');
    await expect(page.getByTestId('focus-region')).toHaveCount(1);
    lines.push(`${preset}: hover a destination device → DOM updated ${hover[0].toFixed(1)} ms, painted ${hover[1].toFixed(1)} ms`);

    const before = await page.getByTestId('change-description').evaluate((e) => e.textContent ?? '');
    const replan = await react(page, '[data-testid="more-source-mesh-0"]', 'click', '[data-testid=change-description]', before);
    await expect(page.getByTestId('change-description')).not.toHaveText(before);
    const steps = await page.evaluate(() => {
      const last = new Map<string, number>();
      for (const m of performance.getEntriesByType('measure')) last.set(m.name, m.duration);
      return [...last].map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`).join(', ');
    });
    lines.push(`${preset}: one more source device, inside it: ${steps}`);
    lines.push(`${preset}: one more source device → re-planned, DOM updated ${replan[0].toFixed(1)} ms, painted ${replan[1].toFixed(1)} ms`);
  }
  await page.goto('/?preset=cycle-120');
  await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
  const cycle = await page.evaluate(async () => {
    const field = document.querySelector<HTMLInputElement>('[data-testid=speedup-input]');
    const answer = document.querySelector('[data-testid=cycle-new]');
    if (!field || !answer) throw new Error('no speedup field or answer');
    const before = answer.textContent;
    const started = performance.now();
    field.value = '8';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    for (let i = 0; i < 6000 && answer.textContent === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const updated = performance.now() - started;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return [updated, performance.now() - started];
  });
  await expect(page.getByTestId('cycle-new')).not.toHaveText('112.5 s');
  lines.push(`cycle-120: type s = 8 → answer, timeline and curves: DOM updated ${cycle[0].toFixed(1)} ms, painted ${cycle[1].toFixed(1)} ms`);
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
