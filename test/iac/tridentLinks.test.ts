import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, resolveConfig, Workspace } from '../../server/src/core';
import { estateInventory } from '../../server/src/core/estate/inventory';

/**
 * Trident claims whose StorageClass (and backend) are in other files of the repository: each
 * claim of an azure-netapp-files class is a volume with its size and the virtual pool's level.
 */
const config = resolveConfig(configSchema.parse({}));
const DIR = join(__dirname, '../fixtures/iac/sources/trident-split');
const FILES = ['platform/backend-anf.yaml', 'platform/storageclasses.yaml', 'app/postgres.yaml'];

function workspace(files = FILES): Workspace {
  const w = new Workspace(config);
  for (const f of files) w.set(`file:///repo/${f}`, readFileSync(join(DIR, f), 'utf8'));
  return w;
}

describe('Trident claims across files', () => {
  it('reads each ANF claim with its size and the level of the pool its class selects', () => {
    const app = workspace().file('file:///repo/app/postgres.yaml')!;
    const volumes = app.iac!.volumes.map((v) => [v.name?.value, v.quota?.value, v.serviceLevel?.value]);
    expect(volumes).toEqual([
      ['pg-data', 2 * 2 ** 40, 'Ultra'],
      ['pg-wal', 500 * 2 ** 30, 'Premium'],
    ]);
    const level = app.iac!.volumes[0]!.serviceLevel!;
    expect(level.origin).toMatch(/virtual pool .* in \.\.\/platform\/backend-anf\.yaml line \d+/);
    // Anchored in this file, on the claim's class.
    expect(app.source.text.slice(level.span.start, level.span.end)).toBe('anf-gold');
  });

  it('lists them in the inventory, once, with throughput; Azure Disk and ONTAP claims stay out', () => {
    const inv = estateInventory(workspace(), config);
    expect(inv.volumes.map((v) => [v.name, v.quotaGiB, v.throughputMiBps])).toEqual([
      ['pg-data', 2048, 256],
      ['pg-wal', 500, 31.25],
    ]);
  });

  it('without the backend, the level is unknown with its reason; without the classes, nothing is read', () => {
    const noBackend = workspace(['platform/storageclasses.yaml', 'app/postgres.yaml']).file(
      'file:///repo/app/postgres.yaml',
    )!;
    expect(noBackend.iac!.volumes.map((v) => v.serviceLevel?.unknown)).toEqual([
      expect.stringMatching(/selects no azure-netapp-files backend pool written in the repository/),
      expect.stringMatching(/selects no azure-netapp-files backend pool/),
    ]);
    const alone = workspace(['app/postgres.yaml']).file('file:///repo/app/postgres.yaml')!;
    expect(alone.iac?.volumes ?? []).toEqual([]);
  });

  it('a class name other folders declare too is the nearest one; two as near link none', () => {
    const w = workspace();
    const classes = readFileSync(join(DIR, 'platform/storageclasses.yaml'), 'utf8');
    // A copy elsewhere in the repository (another example, another environment) with another selector.
    w.set('file:///other/env/classes.yaml', classes.replace('performance=gold', 'performance=silver'));
    const near = w.file('file:///repo/app/postgres.yaml')!;
    expect(near.iac!.volumes.map((v) => v.serviceLevel?.value)).toEqual(['Ultra', 'Premium']);
    // As near as platform/ (a sibling folder of app/): ambiguous, so not linked.
    w.set('file:///repo/platform2/classes.yaml', classes.replace('performance=gold', 'performance=silver'));
    const app = w.file('file:///repo/app/postgres.yaml')!;
    expect(app.iac?.volumes ?? []).toEqual([]);
  });
});

describe('Trident links and re-checks', () => {
  it('an edit of the backend re-checks the file with the claims, and its level follows', async () => {
    const { dependentsOf } = await import('../../server/src/core/features/dependents');
    const w = workspace();
    const before = w.file('file:///repo/platform/backend-anf.yaml')!;
    const after = w.set(before.uri, before.source.text.replace('serviceLevel: Premium', 'serviceLevel: Standard'));
    expect(dependentsOf({ uri: after.uri, before, after }, w.files()).map((f) => f.uri)).toContain(
      'file:///repo/app/postgres.yaml',
    );
    const app = w.file('file:///repo/app/postgres.yaml')!;
    expect(app.iac!.volumes.map((v) => v.serviceLevel?.value)).toEqual(['Ultra', 'Standard']);
  });
});
