// Runs the `reshard` CLI for end-to-end tests that compare the page with the core.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/**
 * The CLI's standard output for `args` (and `input` on its standard input). Built with the native tests'
 * features and profile, so after them (scripts/test.sh) this reuses their binary; the default features would
 * compile the whole web build natively first, which took minutes on a clean checkout. Alone, it may build.
 */
export function reshard(args: string[], input?: string): string {
  return execFileSync('cargo', ['run', '--quiet', '--no-default-features', '--profile', 'test', '--bin', 'reshard', '--', ...args], {
    cwd: root,
    encoding: 'utf8',
    input,
    timeout: 540_000,
  });
}
