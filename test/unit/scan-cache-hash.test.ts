/**
 * The scan cache's hash (lsp/scanCache.ts): Node's one-shot `crypto.hash` where the runtime has it,
 * a `createHash` object where it does not (an editor's older Node). Both must give the digest the
 * cache's keys were written with, or a restart would miss every entry.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../server/src/lsp/scanCache';

describe('the scan cache hash', () => {
  it.each([
    ['empty', ''],
    ['ASCII', '10.0.0.4:/vol1 /mnt/vol1 nfs rw,hard,vers=3 0 0\n'],
    ['non-ASCII and a lone surrogate', 'Prüfung → 卷 \uD800 end'],
  ])('is SHA-256 of the UTF-8 text, hex (%s)', (_, text) => {
    expect(sha256(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });
});
