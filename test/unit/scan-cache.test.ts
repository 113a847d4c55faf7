/**
 * The scan cache's file (lsp/scanCache.ts): the format on the first line, one entry a line (key,
 * tab, the JSON of its findings), each entry's JSON parsed when the entry is first asked for; and
 * its hash, Node's one-shot `crypto.hash` where the runtime has it, a `createHash` object where it
 * does not (an editor's older Node). Both hashes must give the digest the keys were written with,
 * or a restart would miss every entry.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../server/src/core';
import { ScanCache, sha256 } from '../../server/src/lsp/scanCache';

describe('the scan cache hash', () => {
  it.each([
    ['empty', ''],
    ['ASCII', '10.0.0.4:/vol1 /mnt/vol1 nfs rw,hard,vers=3 0 0\n'],
    ['non-ASCII and a lone surrogate', 'Prüfung → 卷 \uD800 end'],
  ])('is SHA-256 of the UTF-8 text, hex (%s)', (_, text) => {
    expect(sha256(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });
});

describe('the scan cache file', () => {
  const folders: string[] = [];
  const folder = () => {
    folders.push(mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-unit-')));
    return folders.at(-1)!;
  };
  afterEach(() => {
    for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
  });

  const soft = {
    span: { start: 24, end: 28 },
    code: 'ANF207',
    severity: 'warning',
    // A line separator and a line break inside a message must not split the entry's line.
    message: '`soft` can lose writes\u2028on a timeout;\nuse `hard`.',
  } as unknown as Diagnostic;
  const keyA = sha256('a');
  const keyB = sha256('b');

  it('gives back what a scan stored, after a restart, and says the file was already up to date', () => {
    const dir = folder();
    const logs: string[] = [];
    const first = ScanCache.open(dir, (m) => logs.push(m));
    first.set(keyA, [soft]);
    first.set(keyB, []);
    expect(first.save()).toBe(true);
    const lines = readFileSync(join(dir, 'scan-cache.json'), 'utf8').split('\n');
    expect(lines[0]).toBe('anf-lint-scan-cache-2');
    expect(lines.filter((l) => l !== '')).toHaveLength(3);

    const second = ScanCache.open(dir, (m) => logs.push(m));
    expect(second.has(keyA) && second.has(keyB)).toBe(true);
    expect(second.get(keyA)).toEqual([soft]);
    expect(second.get(keyB)).toEqual([]);
    expect(second.get(sha256('c'))).toBeUndefined();
    expect(second.hits).toBe(2);
    // Every stored entry used, none made: nothing to write.
    expect(second.save()).toBe(false);
    expect(logs).toEqual([]);
  });

  it('takes a damaged entry for a miss and keeps the others; a file of another format is not read', () => {
    const dir = folder();
    const path = join(dir, 'scan-cache.json');
    writeFileSync(path, `anf-lint-scan-cache-2\n${keyA}\t[{"broken"\n${keyB}\t[]\n`);
    const logs: string[] = [];
    const cache = ScanCache.open(dir, (m) => logs.push(m));
    expect(cache.get(keyA)).toBeUndefined();
    expect(cache.has(keyA)).toBe(false);
    expect(cache.get(keyB)).toEqual([]);
    expect(logs.join('\n')).toMatch(/scan cache entry ignored/);

    writeFileSync(path, JSON.stringify({ format: 'anf-lint-scan-cache-1', entries: { [keyB]: [] } }));
    expect(ScanCache.open(dir, () => undefined).has(keyB)).toBe(false);
  });
});
