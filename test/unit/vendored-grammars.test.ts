import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * server/grammars/ holds a grammar built here (server/grammars/README.md, scripts/build-grammar.mjs)
 * and committed, so that CI needs no Emscripten. grammars.json records what it was built from.
 * These checks fail when the committed .wasm or patch changed without a rebuild, or when the npm
 * package it is built from was bumped: then check the patch against the new version and rebuild.
 */
const ROOT = join(__dirname, '..', '..');
const GRAMMARS = join(ROOT, 'server', 'grammars');
const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

interface Built {
  package: string;
  version: string;
  patch: string;
  patchSha256: string;
  sources: Record<string, string>;
  sha256: string;
}

const manifest = JSON.parse(readFileSync(join(GRAMMARS, 'grammars.json'), 'utf8')) as Record<string, Built>;
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

describe.each(Object.entries(manifest))('server/grammars/%s', (file, built) => {
  const packageDir = join(ROOT, 'node_modules', ...built.package.split('/'));

  it('is the file the build recorded, built with the patch as committed', () => {
    expect(sha256(join(GRAMMARS, file))).toBe(built.sha256);
    expect(sha256(join(GRAMMARS, built.patch))).toBe(built.patchSha256);
  });

  it('was built from the package version package.json asks for and npm installed', () => {
    expect(packageJson.devDependencies[built.package]?.replace(/^[\^~]/, '')).toBe(built.version);
    const installed = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(built.version);
    for (const [source, hash] of Object.entries(built.sources))
      expect(sha256(join(packageDir, source)), source).toBe(hash);
  });
});
