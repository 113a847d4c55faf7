/**
 * The layers of docs/architecture.md never import each other both ways, and no module cycle
 * exists: scripts/import-cycles.mjs --check over server/src exits 0. A new pair (a reader that
 * asks the workspace, a workspace that asks a rule helper) fails here with the script's listing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'import-cycles.mjs');

function check(folder: string): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, [SCRIPT, folder, '--check'], { cwd: ROOT, encoding: 'utf8' });
  return { code: result.status, out: result.stdout + result.stderr };
}

describe('layers', () => {
  it('server/src has no import cycle and no pair of layers importing each other', () => {
    const { code, out } = check(join(ROOT, 'server', 'src'));
    expect(out).toContain('0 cycle(s)');
    expect(out).toContain('0 pair(s) of layers importing each other');
    expect(code, out).toBe(0);
  });

  it('--check fails on a pair of layers that import each other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anf-lint-layers-'));
    try {
      const files: Record<string, string> = {
        'core/workspace/workspace.ts': "import { scope } from '../sysctl/scope';\nexport const w = scope;\n",
        'core/sysctl/scope.ts':
          "import type { W } from '../workspace/types';\nexport const scope = 1;\nexport type S = W;\n",
        'core/workspace/types.ts': 'export type W = string;\n',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const { code, out } = check(dir);
      expect(out).toContain('layers core/sysctl <-> core/workspace');
      expect(code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
