/**
 * The `anf/hierarchy` tree lists manifests in a stable order: by URI, whatever order the files
 * reached the workspace in (that order changes when the workspace index finishes, and the tree
 * in the editor would reorder under the user).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, Workspace } from '../../server/src/core';
import { buildHierarchy } from '../../server/src/core/features/buildHierarchy';

const config = resolveConfig();
const manifest = (account: string) =>
  `accounts:\n  - name: ${account}\n    pools:\n      - name: pool\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: v\n            quota: 1 TiB\n`;
const FILES = [
  { uri: 'file:///repo/sap/hana.anf.yaml', text: manifest('sap-prod') },
  { uri: 'file:///repo/eda/eda.anf.yaml', text: manifest('eda-prod') },
  { uri: 'file:///repo/hpc/hpc.anf.yaml', text: manifest('hpc-prod') },
];

function accountsInTree(files: typeof FILES): string[] {
  const workspace = new Workspace(config);
  for (const file of files) workspace.set(file.uri, file.text);
  return buildHierarchy(workspace, config, () => []).manifests.flatMap((m) => m.accounts.map((a) => a.name));
}

describe('anf/hierarchy order', () => {
  it('lists manifests by URI, whatever order they were added in', () => {
    const expected = ['eda-prod', 'hpc-prod', 'sap-prod'];
    expect(accountsInTree(FILES)).toEqual(expected);
    expect(accountsInTree([...FILES].reverse())).toEqual(expected);
  });
});

describe('anf/hierarchy figures', () => {
  it('carry stable keys that clients pick them by (the label is display text)', () => {
    const workspace = new Workspace(config);
    workspace.set(FILES[0]!.uri, FILES[0]!.text);
    const [account] = buildHierarchy(workspace, config, () => []).manifests[0]!.accounts;
    const pool = account!.pools[0]!;
    const volume = pool.volumes[0]!;
    expect(account!.figures.map((f) => f.key)).toEqual(['pools', 'monthlyCost']);
    expect(pool.figures.map((f) => f.key)).toEqual(expect.arrayContaining(['budget', 'used', 'allocated']));
    expect(volume.figures.map((f) => f.key)).toEqual(expect.arrayContaining(['throughput', 'quota']));
    expect(volume.figures.find((f) => f.key === 'throughput')?.value).toMatch(/MiB\/s$/);
  });
});
