// Saves what an Export menu button downloads, for end-to-end tests that read exported files.
import { type Page, type Download } from '@playwright/test';
import fs from 'node:fs';

/** Opens the Export menu if needed, clicks `testId` and returns the downloaded file. */
export async function download(page: Page, testId: string): Promise<{ name: string; text: string; bytes: Buffer }> {
  const menu = page.getByTestId('export-menu');
  if (!(await menu.evaluate((details: HTMLDetailsElement) => details.open))) {
    await menu.locator('summary').click();
  }
  const [file]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const where = await file.path();
  const bytes = fs.readFileSync(where);
  return { name: file.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}
