// The guided tour end to end: walked with the keyboard from the first step to the last, a screenshot of
// every step, the article's numbers on the steps that quote them (computed by the core from the state the
// step sets), and leaving keeps the state.
import { test, expect, type Page } from '@playwright/test';
import path from 'node:path';
import { redCellsOnScreen } from './mismatches';
import { addressHolds, steady } from './settle';

const screenshots = path.join(__dirname, 'screenshots');

/** Starts the tour on the toy and goes to step 3, which looks at the traffic panel far below the editors. */
async function tourAtTheTraffic(page: Page) {
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of/);
  await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(300);
}

test('the tour walks the article with the keyboard, setting the state each step talks about', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/?preset=large');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour')).toBeVisible();
  const progress = await page.getByTestId('tour-progress').innerText();
  const count = Number(progress.match(/of (\d+)/)![1]);
  expect(count).toBeGreaterThanOrEqual(10);
  const titles: string[] = [];
  for (let i = 0; i < count; i++) {
    await expect(page.getByTestId('tour-progress')).toHaveText(`Step ${i + 1} of ${count}`);
    const title = await page.getByTestId('tour-title').innerText();
    titles.push(title);
    const text = await page.getByTestId('tour-text').innerText();
    if (title.startsWith('The destination layout')) {
      expect(text).toContain('6 intersections');
      expect(text).toContain('moves 72 entries');
      expect(text).toContain('moves 144');
      await expect(page.locator('.tensor-view [data-testid=piece]')).toHaveCount(6);
    }
    if (title.startsWith('Check it')) {
      await expect(page.getByTestId('verify-panel')).toContainText('all 72 entries of 2 destinations match');
    }
    if (title.startsWith('Nested sharding')) {
      // d0 (rows 0–1) and d7 (rows 14–15) hold the same rows in either order: not "every device".
      expect(text).toContain('6 of the 8 devices would hold different rows; only d0 and d7 keep theirs');
      // The step names the box that shows the other order, and it is in the outlined view, ready to tick.
      const named = text.match(/tick “([^”]+)”/)?.[1];
      expect(named, 'the step says where to see the other order').toBeTruthy();
      const box = page.locator('.tour-look').getByLabel(named!, { exact: true });
      await expect(box).toBeVisible();
      await expect(box).not.toBeChecked();
    }
    if (title.startsWith('A fault')) {
      expect(text).toContain('do not match');
      await expect(page.getByTestId('verify-panel')).toContainText('do not match');
      // The red cells the text points at are on screen, below the bar (the step showed the check's panel,
      // ~2,800 px below them).
      await expect(page.getByTestId('mismatch-cell')).toHaveCount(12);
      await expect.poll(() => redCellsOnScreen(page)).toBe(true);
    }
    if (title.startsWith('Give the multiplier')) {
      expect(text).toContain('112.5 s');
      await expect(page.getByTestId('cycle-new')).toHaveText('112.5 s');
    }
    if (title.startsWith('The same multiplier')) {
      expect(text).toContain('122.5 s from 160 s');
      await expect(page.getByTestId('cycle-new')).toHaveText('122.5 s');
    }
    await page.waitForTimeout(150);
    await expect(page.locator('.tour-look')).toHaveCount(1);
    // What the step talks about sits just below the sticky tour bar, also on a first jump past panels that
    // had not been laid out yet, unless the page cannot scroll that far (its top or its end).
    await expect
      .poll(() =>
        page.evaluate(() => {
          // Nothing outlined or no bar is a "not yet", not a throw: a throw inside expect.poll fails at once.
          const [outlined, tour] = [document.querySelector('.tour-look'), document.querySelector('.tour')];
          if (!outlined || !tour) return 'nothing outlined under a bar';
          const look = outlined.getBoundingClientRect().top;
          const bar = tour.getBoundingClientRect().bottom;
          const end = document.scrollingElement!.scrollHeight - innerHeight - scrollY < 2;
          const clamped = (end || scrollY < 1) && look >= bar;
          return clamped || Math.abs(look - bar - 24) < 3 ? 'below the bar' : `${Math.round(look - bar)} px below`;
        }),
      )
      .toBe('below the bar');
    await page.screenshot({ path: path.join(screenshots, `tour-${String(i + 1).padStart(2, '0')}.png`) });
    await expect(page.getByTestId('tour-next')).toHaveText(i + 1 < count ? 'Next ▸' : 'Done');
    // Read out with the button the focus is put on: the step's place, title and text.
    await expect(page.getByTestId('tour-next')).toHaveAccessibleDescription(
      new RegExp(`^Step ${i + 1} of ${count} ${titles[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\S`),
    );
    await page.keyboard.press('ArrowRight');
  }
  expect(new Set(titles).size).toBe(count);
  await expect(page.getByTestId('tour-progress')).toHaveText(`Step ${count} of ${count}`);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('tour-progress')).toHaveText(`Step ${count - 1} of ${count}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  // "Done" on the last step ends the tour too.
  await page.getByTestId('explain').click();
  for (let i = 1; i < count; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(`Step ${count} of ${count}`);
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  // Leaving keeps the state the tour set (the cycle view of the step before last).
  await expect(page.getByTestId('tab-cycle')).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});

test('the tour keeps Back and Next in one place from step to step', async ({ page }) => {
  // Below the text they moved with its length (120 px between steps 3 and 4 at 1280), and a click meant
  // for Next landed on the diagram.
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  const places = new Set<number>();
  for (let step = 1; step <= 12; step++) {
    await expect(page.getByTestId('tour-progress')).toHaveText(new RegExp(`^Step ${step} of`));
    // Both read at once: the page may scroll between two reads (the bar is sticky only once stuck).
    const place = await page.evaluate(() => {
      const top = (id: string) => document.querySelector(`[data-testid=${id}]`)!.getBoundingClientRect().top;
      return Math.round(top('tour-next') - top('tour'));
    });
    places.add(place);
    if (step < 12) await page.getByTestId('tour-next').click();
  }
  expect([...places]).toHaveLength(1);
});

test("keys a view uses are not the tour's: arrows on a mesh move between devices, Escape closes a menu", async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of/);
  await page.locator('[data-testid=device][data-side=source][data-device="0"]').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('focus-line')).toContainText('d1 (source)');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of/);
  await page.getByTestId('share-menu').locator('summary').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toBeVisible();
  // With nothing else using it, Escape still ends the tour, and the focus goes back to Explain.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(page.getByTestId('explain')).toBeFocused();
  // Started from the keyboard, the tour takes the focus to Next, which stays there step after step.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tour-next')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of/);
  await expect(page.getByTestId('tour-next')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of/);
  await page.getByTestId('tour-leave').click();
  await expect(page.getByTestId('explain')).toBeFocused();
});

test('while the tour runs, a field focused from the keyboard is not left under its bar', async ({ page }) => {
  await tourAtTheTraffic(page);
  // The editors' column stays in sight under the bar, as it does without the tour (scrolling with the page,
  // it left the left third of the screen blank beside the steps about the panels below the pictures). Read
  // where the step leaves it: the tour corrects its scroll every 70 ms until the traffic holds in place.
  const column = await steady(
    page,
    () =>
      page.evaluate(() => {
        const editors = document.querySelector('.editors')!.getBoundingClientRect();
        return { top: editors.top, bar: document.querySelector('.tour')!.getBoundingClientRect().bottom, bottom: editors.bottom };
      }),
    { quietMs: 100 },
  );
  expect(column.top).toBeGreaterThanOrEqual(column.bar);
  expect(column.top).toBeLessThan(column.bar + 40);
  const field = page.getByTestId('field-tensor-shape-0');
  await field.focus();
  // Where the focus leaves it, once nothing scrolls it further.
  const [top, bar] = await steady(
    page,
    () =>
      page.evaluate(() => [
        document.querySelector('[data-testid=field-tensor-shape-0]')!.getBoundingClientRect().top,
        document.querySelector('.tour')!.getBoundingClientRect().bottom,
      ]),
    { quietMs: 100 },
  );
  expect(top).toBeGreaterThan(bar);
  await page.screenshot({ path: path.join(screenshots, 'tour-field-focused.png') });
});

test('the tour shows its own examples; leaving can bring back what was there before it', async ({ page }) => {
  await page.goto('/?preset=toy');
  await page.getByTestId('more-tensor-shape-0').click();
  await page.getByTestId('field-tensor-name').fill('mine');
  const description = page.getByTestId('change-description');
  await expect(description).toContainText('mine · 13 × 6');
  await page.getByTestId('explain').click();
  await expect(description).toContainText('w · 12 × 6');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of/);
  await page.getByTestId('tour-restore').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect(description).toContainText('mine · 13 × 6');
  await expect(page.getByTestId('tab-layout')).toHaveAttribute('aria-selected', 'true');
  // "Leave" keeps the tour's state, as it says.
  await page.getByTestId('explain').click();
  await expect(description).toContainText('w · 12 × 6');
  await page.getByTestId('tour-leave').click();
  await expect(description).toContainText('w · 12 × 6');
  // After a reload mid-tour (which resumes the step), what was there before the tour still comes back: the
  // tab keeps it, not the step's example the reload opened on.
  await page.getByTestId('field-tensor-name').fill('again');
  await expect(description).toContainText('again · 12 × 6');
  await page.getByTestId('explain').click();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of/);
  await addressHolds(page, /"name":"w"/);
  await page.reload();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of/);
  await expect(description).toContainText('w · 12 × 6');
  await page.getByTestId('tour-restore').click();
  await expect(description).toContainText('again · 12 × 6');
  // A tour left for another site keeps its "before" in the tab; a link to a step opened later in that tab
  // brings back what that link opened on, not that old state.
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of/);
  await page.goto('about:blank');
  await page.goto('/?preset=uneven&tour=3');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of/);
  await expect(description).toContainText('layers.0.attn.wq');
  await page.getByTestId('tour-restore').click();
  await expect(description).toContainText('w · 6 × 10');
});

test("Tab among the tour's own buttons leaves the page where the step put it", async ({ page }) => {
  // Each Tab among Back, Next and Leave scrolled the page ~240 px up, away from the outlined panel.
  await page.setViewportSize({ width: 1440, height: 900 });
  await tourAtTheTraffic(page);
  // Where the step leaves the page: the tour corrects its scroll every 70 ms until the panel holds in place
  // (a fixed 500 ms could end before that on a busy machine).
  const settled = await steady(page, () => page.evaluate(() => scrollY), { quietMs: 250 });
  for (const key of ['Shift+Tab', 'Tab', 'Tab', 'Tab']) {
    await page.keyboard.press(key);
    expect(await page.evaluate(() => document.activeElement!.closest('.tour') !== null), `${key} stays in the bar`).toBe(true);
  }
  expect(await page.evaluate(() => scrollY)).toBe(settled);
});

test('a step taken by key with the focus on the page brings the focus to the bar', async ({ page }) => {
  // The focused preset link was scrolled under the bar, where Enter would have opened another preset unseen.
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  await page.getByTestId('preset-nested').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of/);
  await expect(page.getByTestId('tour-next')).toBeFocused();
});

test("at 200 % zoom the tour's controls take one row, and its words most of a bar under half the screen", async ({ page }) => {
  // 1280 × 800 at 200 %: four rows of controls left a line and a half of the step's words in a bar half the
  // screen high (review 41).
  await page.setViewportSize({ width: 640, height: 400 });
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  const bar = await page.getByTestId('tour').boundingBox();
  expect(bar!.height).toBeLessThanOrEqual(0.45 * 400 + 1);
  const tops = await Promise.all(['tour-progress', 'tour-next', 'tour-leave', 'tour-restore'].map(async (id) => {
    const box = (await page.getByTestId(id).boundingBox())!;
    return box.y + box.height / 2;
  }));
  for (const middle of tops) expect(Math.abs(middle - tops[0])).toBeLessThan(8);
  // The short words, named in full ("Leave" said nothing of what it keeps), and Back as compact as Next.
  expect(await page.getByTestId('tour-leave').innerText()).toBe('Leave');
  await expect(page.getByTestId('tour-leave')).toHaveAccessibleName('Leave the tour (keeps this state)');
  const heights = await Promise.all(['tour-back', 'tour-next'].map(async (id) => Math.round((await page.getByTestId(id).boundingBox())!.height)));
  expect(Math.abs(heights[0] - heights[1])).toBeLessThanOrEqual(2);
  const text = (await page.getByTestId('tour-text').boundingBox())!;
  const shown = Math.min(text.y + text.height, bar!.y + bar!.height) - text.y;
  expect(shown).toBeGreaterThan(0.45 * bar!.height);
  await page.screenshot({ path: path.join(screenshots, 'tour-zoom-200.png') });
});

test("on a phone the tour's ways out are short words, named in full, and Leave shares the buttons' row", async ({ page }) => {
  // At 360 px the long words took a line each: four lines of controls before the step's first word.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of/);
  expect(await page.getByTestId('tour-leave').innerText()).toBe('Leave');
  expect(await page.getByTestId('tour-restore').innerText()).toBe('Leave and bring back');
  await expect(page.getByTestId('tour-leave')).toHaveAccessibleName('Leave the tour (keeps this state)');
  await expect(page.getByTestId('tour-restore')).toHaveAccessibleName('Leave and bring back what I had');
  const middle = async (id: string) => {
    const box = (await page.getByTestId(id).boundingBox())!;
    return box.y + box.height / 2;
  };
  expect(Math.abs((await middle('tour-leave')) - (await middle('tour-next')))).toBeLessThan(8);
  const bar = (await page.getByTestId('tour').boundingBox())!;
  const restore = (await page.getByTestId('tour-restore').boundingBox())!;
  expect(restore.x + restore.width).toBeLessThanOrEqual(bar.x + bar.width);
  // Every step's dot is inside the bar, down to a 320 px screen (the last two stood past its edge).
  await page.setViewportSize({ width: 320, height: 700 });
  const last = (await page.getByTestId('tour-dot').last().boundingBox())!;
  const narrow = (await page.getByTestId('tour').boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual(narrow.x + narrow.width - 8);
});

test("a presenter's clicker drives the tour (Page Down and Up), and Next stands still from step 9 to 10", async ({ page }) => {
  // Page Down scrolled the page under the bar; at step 10 the wider "Step 10 of 12" moved Back and Next 9 px.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?preset=toy&present=1');
  await page.getByTestId('explain').click();
  const progress = page.getByTestId('tour-progress');
  await expect(progress).toHaveText(/^Step 1 of/);
  const next = async () => (await page.getByTestId('tour-next').boundingBox())!.x;
  const first = await next();
  for (let step = 2; step <= 10; step++) {
    await page.keyboard.press('PageDown');
    await expect(progress).toHaveText(new RegExp(`^Step ${step} of`));
    expect(Math.abs((await next()) - first), `Next at step ${step}`).toBeLessThan(0.5);
  }
  await page.keyboard.press('PageUp');
  await expect(progress).toHaveText(/^Step 9 of/);
});

test("a link opens the tour at its step, the dots jump to a step, and the address follows the step", async ({ page }) => {
  // A lecture's slide is linked or bookmarked as `?tour=N`; a reload mid-tour comes back to the step.
  await page.goto('/?preset=toy&tour=4');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 4 of 12$/);
  await expect(page.getByTestId('tour-title')).toHaveText('Cross the NIC once, then relay over NVLink');
  await expect(page.locator('.tour-look')).toHaveCount(1);
  const dots = page.getByTestId('tour-dot');
  await expect(dots).toHaveCount(12);
  // Each dot names its step; the one on screen is the current step and the bar's one stop for Tab.
  await expect(dots.nth(6)).toHaveAccessibleName(/^Step 7: Check it/);
  await expect(dots.nth(3)).toHaveAttribute('aria-current', 'step');
  await expect(page.locator('[data-testid=tour-dot][tabindex="0"]')).toHaveCount(1);
  // Targets of 24 × 24 px at least (WCAG 2.5.8), beside each other.
  for (const box of await dots.evaluateAll((all) => all.map((d) => d.getBoundingClientRect().toJSON()))) {
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.height).toBeGreaterThanOrEqual(24);
  }
  await dots.nth(6).click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 7 of 12$/);
  // The step sets its state as when walked to: the check has run.
  await expect(page.getByTestId('verify-panel')).toContainText('all 72 entries of 2 destinations match');
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.search).get('tour'))).toBe('7');
  // From the dots the keys stay among them: an arrow steps, End and Home go to the last and the first.
  await expect(dots.nth(6)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 8 of 12$/);
  await expect(dots.nth(7)).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 12 of 12$/);
  await expect(dots.nth(11)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of 12$/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of 12$/);
  // The step's state settles into a history entry, which keeps the step in its address: a reload resumes.
  await addressHolds(page, /"name":"layers\.0\.attn\.wq"/);
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.search).get('tour'))).toBe('3');
  await page.reload();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of 12$/);
  // Leaving takes the step out of the address: a reload then shows the state without the tour.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => location.search)).not.toContain('tour');
  await page.reload();
  await expect(page.getByTestId('piece').first()).toBeVisible();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  // A step the tour does not have says so beside the default, and the tour starts at its first step.
  for (const asked of ['13', '0', 'three']) {
    await page.goto(`/?tour=${asked}`);
    await expect(page.getByTestId('link-problem')).toContainText(`There is no tour step “${asked}”; the steps are 1 to 12.`);
    await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of 12$/);
  }
});

test('a link whose step is wrong says so in the bar; Back leaves the tour; an old entry does not restart it', async ({ page }) => {
  // The step scrolls the page to what it outlines: the note at the page's top was out of sight.
  await page.goto('/?preset=toy&present&tour=13');
  await expect(page.getByTestId('tour-note')).toHaveText('There is no tour step “13”; the steps are 1 to 12. Starting at step 1.');
  await expect(page.getByTestId('tour-note')).toBeInViewport();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of 12$/);
  await expect(page.getByTestId('tour-note')).toHaveCount(0);
  // `?tour` alone starts the tour, with nothing to say.
  await page.goto('/?tour');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of 12$/);
  await expect(page.getByTestId('tour-note')).toHaveCount(0);
  // Back shows an entry's state, which the step's words do not describe: it leaves the tour (the step's text
  // stood over another preset's picture).
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-title')).toHaveText('Count the right thing');
  await addressHolds(page, /"name":"layers\.0\.attn\.wq"/);
  await page.goBack();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => location.search)).not.toContain('tour');
  // An entry written while the tour ran keeps its step in its address; reached from another page by Back,
  // it shows its state without starting the tour again.
  await page.goto('/?tour=1');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of 12$/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of 12$/);
  await addressHolds(page, /"name":"layers\.0\.attn\.wq"/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await page.goto('/?preset=uneven');
  await expect(page.getByTestId('piece').first()).toBeVisible();
  await page.evaluate(() => history.go(-2));
  await page.waitForURL(/tour=/);
  await expect(page.getByTestId('piece').first()).toBeVisible();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => location.search)).not.toContain('tour');
});

test("a step's state is in the address as soon as its number is: a reload at once resumes the step's example", async ({ page }) => {
  // The address named the next step at once and held its state 400 ms later: a reload in between showed
  // the new step over the previous step's example, under "something else than this step's example" (review 49).
  const settled = (ms: number) => page.evaluate((ms) => new Promise((done) => setTimeout(done, ms)), ms);
  await page.goto('/?preset=toy&tour=2');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 2 of 12$/);
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of 12$/);
  // Once the tasks the step queued have run: a timer set now fires after them.
  await settled(0);
  await page.reload();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of 12$/);
  await expect(page.getByTestId('change-description')).toContainText('layers.0.attn.wq');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  // A step that runs the check is written once checked: in one history entry, not one before the check and
  // one after, and a reload at once shows it checked.
  await page.goto('/?preset=nested&tour=6');
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 6 of 12$/);
  await page.waitForTimeout(600);
  const entries = await page.evaluate(() => history.length);
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 7 of 12$/);
  await settled(100);
  await page.waitForTimeout(600);
  expect(await page.evaluate(() => history.length)).toBe(entries + 1);
  await page.reload();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 7 of 12$/);
  await expect(page.getByTestId('verify-panel')).toContainText('all 72 entries of 2 destinations match');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
});

test('left by Esc on its example, the tour offers back what the page had before it', async ({ page }) => {
  // A presenter's own cycle, replaced by the article's for the tour, stayed replaced after Esc (which the bar
  // advertises) with nothing to say how to get it back (review 50).
  await page.goto('/?preset=cycle-160');
  await page.getByTestId('speedup-input').fill('7');
  await expect(page.getByTestId('cycle-old')).toHaveText('160 s');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 9 of 12$/);
  await expect(page.getByTestId('cycle-old')).toHaveText('120 s');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  const note = page.getByTestId('tour-left');
  await expect(note).toContainText('The tour left its example on the page.');
  await expect(page.getByTestId('cycle-old')).toHaveText('120 s');
  await page.getByTestId('tour-left-restore').click();
  await expect(page.getByTestId('cycle-old')).toHaveText('160 s');
  await expect(page.getByTestId('speedup-input')).toHaveValue('7');
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId('explain')).toBeFocused();
  // Left where it changed nothing (the toy, its first example), or by "Leave and bring back": nothing to offer.
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of 12$/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await page.waitForTimeout(300);
  await expect(note).toHaveCount(0);
  await page.getByTestId('explain').click();
  await page.getByTestId('tour-next').click();
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of 12$/);
  await page.getByTestId('tour-restore').click();
  await expect(page.getByTestId('tour')).toHaveCount(0);
  await page.waitForTimeout(300);
  await expect(note).toHaveCount(0);
});

test("another example opened during the tour is said in the bar, with a way back to the step's", async ({ page }) => {
  // The step's words stood over a preset clicked mid-tour (or another tab) with nothing to say so.
  await page.goto('/?tour=3');
  await expect(page.getByTestId('tour-title')).toHaveText('Count the right thing');
  const description = page.getByTestId('change-description');
  await expect(description).toContainText('layers.0.attn.wq');
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  await page.getByTestId('preset-partial').click();
  await expect(description).toContainText('out · 8 × 8');
  await expect(page.getByTestId('tour-away')).toContainText("something else than this step's example");
  // A reload shows what was on screen, the preset, under the step and the line that says so (it brought
  // the step's example back, although the address named the preset).
  await addressHolds(page, /"name":"out"/);
  await page.reload();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of/);
  await expect(description).toContainText('out · 8 × 8');
  await expect(page.getByTestId('tour-away')).toContainText("something else than this step's example");
  await page.getByTestId('tour-reopen').click();
  await expect(description).toContainText('layers.0.attn.wq');
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  await expect(page.getByTestId('tour-title')).toHaveText('Count the right thing');
  // Reloaded over the step's own example, there is nothing to say.
  await addressHolds(page, /"name":"layers\.0\.attn\.wq"/);
  await page.reload();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 3 of/);
  await expect(description).toContainText('layers.0.attn.wq');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  // Another tab is something else too; the step's own example brings its view back.
  await page.getByTestId('tab-cycle').click();
  await expect(page.getByTestId('tour-away')).toBeVisible();
  await page.getByTestId('tour-reopen').click();
  await expect(page.getByTestId('tab-layout')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  // An edit a step invites is not another example: nested's step, with its order box ticked.
  await page.goto('/?tour=6');
  await expect(page.getByTestId('tour-title')).toHaveText(/^Nested sharding/);
  const named = (await page.getByTestId('tour-text').innerText()).match(/tick “([^”]+)”/)![1];
  await page.locator('.tour-look').getByLabel(named, { exact: true }).check();
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  // The next step opens its own example, and says nothing either.
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 7 of/);
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  // On a cycle step, another cycle (a preset chip) is another example too, also after a reload.
  await page.goto('/?tour=10');
  await expect(page.getByTestId('tour-title')).toHaveText(/larger share/);
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  await page.getByTestId('cycle-preset-cycle-queue').click();
  await expect(page.getByTestId('tour-away')).toBeVisible();
  await addressHolds(page, /"wait":8/);
  await page.reload();
  await expect(page.getByTestId('tour-away')).toBeVisible();
  await expect(page.getByTestId('cycle-preset-cycle-queue')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('tour-reopen').click();
  await expect(page.getByTestId('tour-away')).toHaveCount(0);
  await expect(page.getByTestId('cycle-preset-cycle-160')).toHaveAttribute('aria-pressed', 'true');
});

test("the bar never says another example is shown over the step's own, not even for a moment", async ({ page }) => {
  // The line was drawn with the bar, before the step had put its example on the page, and went a moment
  // later: it flashed, and a screen reader could say it.
  await page.addInitScript(() => {
    const seen = { away: 0 };
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof Element && (node.matches('[data-testid=tour-away]') || node.querySelector('[data-testid=tour-away]'))) {
            seen.away += 1;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const seen = () => page.evaluate(() => (window as unknown as { seen: { away: number } }).seen.away);
  await page.goto('/?tour=3');
  await expect(page.getByTestId('tour-title')).toHaveText('Count the right thing');
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 4 of/);
  await page.goto('/?preset=toy');
  await page.getByTestId('explain').click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 1 of/);
  await page.getByTestId('tour-dot').nth(9).click();
  await expect(page.getByTestId('tour-progress')).toHaveText(/^Step 10 of/);
  await page.waitForTimeout(300);
  expect(await seen()).toBe(0);
  // The line itself is still drawn when it is true.
  await page.getByTestId('cycle-preset-cycle-queue').click();
  await expect(page.getByTestId('tour-away')).toBeVisible();
  expect(await seen()).toBe(1);
});
