import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../server/src/core/config';
import { volumeSchema } from '../../server/src/core/manifest/model';

const SRC = join(__dirname, '..', '..', 'server', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The schemas use zod's functional build through server/src/core/zod.ts: importing `zod` itself
 * anywhere puts its method-carrying classes back into the bundles (about 140 KiB of the server's
 * 1 MiB budget) and builds slower schemas at start-up.
 */
describe('zod/mini', () => {
  it('no source imports the `zod` package directly (core/zod.ts is the one way in)', () => {
    const offenders = sources(SRC)
      .filter((file) => !file.endsWith(join('core', 'zod.ts')))
      .filter((file) => /from ['"]zod(\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });

  it("keeps zod's English messages, which the findings quote", () => {
    const volume = volumeSchema.safeParse({ name: '', quota: '4 TiB', protocols: [] });
    expect(volume.success).toBe(false);
    expect(volume.error?.issues.map((issue) => issue.message)).toEqual([
      'Too small: expected string to have >=1 characters',
      'Too small: expected array to have >=1 items',
    ]);
    const config = configSchema.safeParse({ prices: { flexibleThroughputPerMiBpsHour: -1 } });
    expect(config.error?.issues.map((issue) => issue.message)).toEqual(['Too small: expected number to be >0']);
  });
});
