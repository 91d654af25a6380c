// Geometry read once the page holds still, for end-to-end tests that measure what the app drew. Just after a
// navigation, a resize or an edit the app may still be laying it out: the body is empty until the wasm has
// started (`page.goto` can return before), the app's fonts swap in once text first asks for them, a chart's
// viewBox and a slide's pictures are fitted to the room a ResizeObserver measures a frame or two later, and
// the panels under the pictures follow an edit one paint later. A value read once then may be one the page
// is about to leave (a clean-clone CI run on a busy machine read `.tensor-svg` before it was drawn).
import { expect, type Frame, type Page } from '@playwright/test';
import zlib from 'node:zlib';

/** Two animation frames of `target`'s document, then its fonts loaded (those asked for by then). */
export async function nextFrames(target: Page | Frame): Promise<void> {
  await target.evaluate(async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    await document.fonts.ready;
  });
}

/**
 * What `read` returns once two reads in a row, a couple of frames apart (and `quietMs` at least, for a page
 * that corrects itself on a timer), give the same answer. A read that throws (an element not drawn yet) is
 * read again; fails after `timeout` ms with what it last saw. Never looser than a single read: the value
 * returned is one the page has stopped changing.
 */
export async function steady<T>(
  target: Page | Frame,
  read: () => Promise<T>,
  { timeout = 10_000, quietMs = 0 }: { timeout?: number; quietMs?: number } = {},
): Promise<T> {
  const until = Date.now() + timeout;
  let last: string | undefined;
  let seen = 'nothing read';
  for (;;) {
    try {
      const value = await read();
      const now = JSON.stringify(value);
      if (now === last) return value;
      last = now;
      seen = now;
    } catch (error) {
      last = undefined;
      seen = String(error);
    }
    if (Date.now() > until) throw new Error(`the page did not hold still within ${timeout} ms; last read: ${seen.slice(0, 500)}`);
    await nextFrames(target);
    if (quietMs > 0) await new Promise((done) => setTimeout(done, quietMs));
  }
}

/**
 * Waits until what the page has drawn holds still: the boxes of its pictures, legends and panels, and the
 * page's scroll, the same over a few frames (with at least one of them drawn). For a test that then reads
 * their geometry once.
 */
export async function layoutSettled(page: Page, options?: { timeout?: number; quietMs?: number }): Promise<void> {
  await steady(
    page,
    () =>
      page.evaluate(() => {
        const drawn = [...document.querySelectorAll('svg, .legend, .panel, .change-panel, .editors, .tour')];
        if (drawn.length === 0) throw new Error('nothing drawn yet');
        const boxes = drawn.map((e) => {
          const r = e.getBoundingClientRect();
          return [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 100) / 100);
        });
        return { scroll: [scrollX, scrollY], boxes };
      }),
    options,
  );
}

/** The state an address's fragment carries (`#v1.<base64url(deflate(json))>`, src/share/fragment.rs), as JSON
 * text; empty while it carries none. */
export function linkedState(url: string): string {
  const hash = new URL(url).hash;
  return hash.startsWith('#v1.') ? zlib.inflateRawSync(Buffer.from(hash.slice(4), 'base64url')).toString('utf8') : '';
}

/**
 * Waits until the page's address carries a state that `wanted` matches: the state on screen is written into
 * the address once an edit settles (400 ms after it, later on a busy machine), and a reload or a link read
 * before then opens the state before. A fixed wait was the race.
 */
export async function addressHolds(page: Page, wanted: RegExp): Promise<void> {
  await expect.poll(() => linkedState(page.url()), { timeout: 10_000 }).toMatch(wanted);
}
