import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 26.9: test/e2e/vscode/setup.sh ran for minutes (downloading Node 24 and code-server) before
 * failing on a system package that .ci/install-system-packages lists. It now checks first.
 */
const ROOT = join(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'anf-lint-setup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('test/e2e/vscode/setup.sh', () => {
  it('names a missing prerequisite and stops before installing anything', () => {
    const bin = join(scratch, 'bin');
    const npmCalled = join(scratch, 'npm-called');
    spawnSync('mkdir', ['-p', bin]);
    // dpkg that knows no package, and an npm that records being called.
    writeFileSync(join(bin, 'dpkg'), '#!/bin/sh\nexit 1\n');
    writeFileSync(join(bin, 'npm'), `#!/bin/sh\ntouch '${npmCalled}'\nexit 0\n`);
    chmodSync(join(bin, 'dpkg'), 0o755);
    chmodSync(join(bin, 'npm'), 0o755);
    const result = spawnSync('bash', [join(ROOT, 'test/e2e/vscode/setup.sh')], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, ANF_E2E_DIR: join(scratch, 'e2e') },
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/missing libkrb5-dev/);
    expect(result.stderr).toMatch(/install-system-packages/);
    expect(spawnSync('test', ['-e', npmCalled]).status).not.toBe(0);
  });
});
