// End-to-end tests against the release build in dist/ (run `trunk build --release` first; scripts/test.sh
// does). Playwright starts and stops a static file server on 127.0.0.1 and drives Debian's Chromium: never
// `playwright install` (it downloads browsers). Tests reach only 127.0.0.1.
import { defineConfig } from '@playwright/test';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const port = Number(process.env.E2E_PORT ?? 4178);

export default defineConfig({
  testDir: __dirname,
  outputDir: path.join(root, 'test-results'),
  forbidOnly: true,
  retries: 0,
  // Two workers on the two cores of the CI machine: most of a test's time is waiting on the page (a frame, a
  // settling edit), so two in parallel took the layer from 11 to 6 minutes; four gained nothing more.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results', 'e2e.json') }]],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, grepInvert: /@timings/ },
    // The tests that print timings for BENCHMARKS.md (tagged `@timings`) run alone, one at a time, after every
    // other test, so that a second worker does not share the CPU with them.
    { name: 'timings', use: { browserName: 'chromium' }, grep: /@timings/, dependencies: ['chromium'], workers: 1 },
  ],
  webServer: {
    command: `python3 -m http.server ${port} --bind 127.0.0.1 --directory dist`,
    cwd: root,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: false,
    timeout: 20_000,
    stdout: 'ignore',
    stderr: 'ignore',
  },
});
