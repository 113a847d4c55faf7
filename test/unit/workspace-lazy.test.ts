/**
 * `Workspace.setLater` (issue 29): documents added unparsed are parsed, in the order they came,
 * when the workspace is first asked anything; every answer is the one an eager `set` of each gives.
 * The language server adds a whole repository this way and leaves it unparsed when its scan cache
 * holds every finding.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { workspaceFiles } from '../../bench/generate.mjs';

const EXAMPLES = join(__dirname, '../../examples');

function filesUnder(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (statSync(path).size < 1_000_000) out[relative(folder, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(folder);
  return out;
}

const config = resolveConfig({});
const uriOf = (path: string) => `file:///repo/${path}`;

/** Every file's findings, as the CLI and the server report them. */
function findings(workspace: Workspace, paths: readonly string[]): string[] {
  return paths.map((p) => `${p} ${JSON.stringify(lintFile(workspace, uriOf(p), config))}`);
}

describe('a workspace whose documents are parsed on first use', () => {
  // examples/ holds Terraform modules, Bicep with parameter files, ARM, manifests and hosts: the cross-file indexes.
  const examples = filesUnder(EXAMPLES);
  const generated = workspaceFiles(60) as Record<string, string>;

  for (const [name, files] of [
    ['examples/', examples],
    ['a generated repository', generated],
  ] as const) {
    it(`gives the findings of eager sets on ${name}`, () => {
      const paths = Object.keys(files);
      const eager = new Workspace();
      for (const p of paths) eager.set(uriOf(p), files[p]!);
      const lazy = new Workspace();
      for (const p of paths) lazy.setLater(uriOf(p), files[p]!);
      // Nothing parsed yet: URIs and texts are known without it.
      expect(lazy.uris()).toEqual(paths.map(uriOf));
      expect(lazy.has(uriOf(paths[0]!))).toBe(true);
      expect(lazy.textOf(uriOf(paths[0]!))).toBe(files[paths[0]!]);
      expect(findings(lazy, paths)).toEqual(findings(eager, paths));
    });
  }

  it('parses in slices as asked, and answers after a later document as an eager set would', () => {
    const paths = Object.keys(generated);
    const lazy = new Workspace();
    for (const p of paths) lazy.setLater(uriOf(p), generated[p]!);
    let parsed = 0;
    // One document per call when `enough` says so at once.
    while (!lazy.settle(() => true)) parsed++;
    expect(parsed).toBe(paths.length - 1);

    // A mount file asked first (the volume list is kept across edits of files without volumes),
    // then a manifest added later: the mount's findings must see the manifest's volumes.
    const fstab = paths.find((p) => p.endsWith('etc/fstab'))!;
    const manifests = paths.filter((p) => p.endsWith('.anf.yaml'));
    const without = new Workspace();
    for (const p of paths) if (!manifests.includes(p)) without.setLater(uriOf(p), generated[p]!);
    const before = findings(without, [fstab]);
    for (const p of manifests) without.setLater(uriOf(p), generated[p]!);
    const eager = new Workspace();
    for (const p of paths) if (!manifests.includes(p)) eager.set(uriOf(p), generated[p]!);
    for (const p of manifests) eager.set(uriOf(p), generated[p]!);
    // Asked directly (a rule's first question may be this one).
    expect(without.volumes().length).toBe(eager.volumes().length);
    expect(without.volumes().length).toBeGreaterThan(0);
    expect(findings(without, [fstab])).toEqual(findings(eager, [fstab]));
    expect(findings(without, [fstab])).not.toEqual(before);

    // set, delete and setLater of a parsed document keep the order of an eager workspace.
    without.setLater(uriOf(fstab), `${generated[fstab]}10.0.0.4:/x /mnt/x nfs soft 0 0\n`);
    eager.set(uriOf(fstab), `${generated[fstab]}10.0.0.4:/x /mnt/x nfs soft 0 0\n`);
    without.delete(uriOf(manifests[0]!));
    eager.delete(uriOf(manifests[0]!));
    expect(findings(without, paths.slice(0, 40))).toEqual(findings(eager, paths.slice(0, 40)));
  });
});
