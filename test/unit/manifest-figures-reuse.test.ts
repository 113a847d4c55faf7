/**
 * After an incremental read (manifest/incremental.ts), the figures of unchanged volumes are taken
 * from the version before (manifest/lineage.ts, figures.ts). They must be exactly the figures a
 * whole parse computes, on the benchmark's kind of edits: a character typed anywhere, then deleted.
 */
import { describe, expect, it } from 'vitest';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import { resolveConfig } from '../../server/src/core/config';
import { parseFile } from '../../server/src/core/workspace/parseFile';
import type { ParsedFile } from '../../server/src/core/workspace/parsedFile';
import { manifest as generatedManifest, prng } from '../../bench/generate.mjs';

const URI = 'file:///repo/manifest/estate.anf.yaml';
const config = resolveConfig();

function figuresOf(file: ParsedFile) {
  const figures = computeManifestFigures(file.manifest!, config);
  return JSON.stringify({ pools: figures.pools, volumes: figures.volumes });
}

describe('manifest figures reused across edits', () => {
  it('equal the figures of a whole parse after typed and deleted characters, values included', () => {
    const text = generatedManifest(50, 25, 12).replace('region: eastus', 'region: westeurope');
    const lines = text.split('\n');
    const random = prng(7);
    let previous = parseFile(URI, text, 0, 'manifest-yaml');
    figuresOf(previous);
    let reused = 0;
    for (let i = 0; i < 50; i++) {
      const index = Math.floor(random() * lines.length);
      const line = lines[index]!;
      const at = Math.floor(random() * (line.length + 1));
      // Digits change quotas and requirements (new figures); letters and spaces break values or indentation.
      const typed = '1x 9:'[Math.floor(random() * 5)]!;
      for (const version of [
        [...lines.slice(0, index), line.slice(0, at) + typed + line.slice(at), ...lines.slice(index + 1)].join('\n'),
        text,
      ]) {
        const read = parseFile(URI, version, i + 1, 'manifest-yaml', previous);
        const whole = parseFile(URI, version, i + 1, 'manifest-yaml');
        if (!read.manifest || !whole.manifest) continue;
        if (read.manifest !== previous.manifest && read.manifest.accounts[0] === previous.manifest?.accounts[0])
          reused++;
        expect(figuresOf(read)).toBe(figuresOf(whole));
        previous = read;
      }
    }
    expect(reused).toBeGreaterThan(10);
  }, 120_000);
});
