import { describe, expect, it } from 'vitest';
import { workloadFromName, workloadOrigin } from '../../server/src/core/iac/estate';
import { readIac } from '../../server/src/core/iac/read';
import { configSchema, resolveConfig, Workspace } from '../../server/src/core';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * The workload a volume's name or export path sets without any annotation: only strong
 * conventions (docs/iac.md "Workload"). A name that merely resembles one sets nothing; ANF411
 * hints at it instead. A wrong guess turns a vendor-prescribed configuration into an error (EDA's
 * and Oracle's NFSv3 under HANA's "needs NFSv4.1"), so every weak case here must stay undefined.
 */
describe('workload from a volume name', () => {
  it.each([
    ['HN1-data-mnt00001', 'sap-hana-data'],
    ['hn1-log-mnt00002', 'sap-hana-log'],
    ['HN1-data', 'sap-hana-data'],
    ['P02-log', 'sap-hana-log'],
    ['HN1-shared', 'sap-hana-shared'],
    ['hana-data-p01', 'sap-hana-data'],
    ['hanalog', 'sap-hana-log'],
  ])('%s is %s', (name, workload) => {
    expect(workloadFromName(name, undefined)).toBe(workload);
  });

  it.each([
    'eda-data',
    'ora-data',
    'env-data',
    'app-log',
    // A lower-case `<sid>-shared` alone: a web farm's or an app's shared files as often as HANA's.
    'web-shared',
    'app-shared',
    'hn1-shared',
    'HN1-data-backup',
    'hana-data-backup',
    'hanalog-backup',
    'eda-tools',
    'data',
  ])('%s sets none', (name) => {
    expect(workloadFromName(name, undefined)).toBeUndefined();
  });

  it('reads the export path when the name says nothing', () => {
    expect(workloadFromName('vol1', 'HN1-log-mnt00001')).toBe('sap-hana-log');
    expect(workloadFromName('vol1', 'eda-log')).toBeUndefined();
  });
});

/** A Terraform file of volumes `[name, export path?, annotation?]`, read as the workspace reads it. */
function workloads(volumes: readonly (readonly [string, string?, string?])[]): Record<string, string | undefined> {
  const text = volumes
    .map(
      ([name, path, annotation], i) =>
        `${annotation ? `# anf: workload=${annotation}\n` : ''}resource "azurerm_netapp_volume" "v${i}" {\n  name = "${name}"\n  pool_name = "p"\n  volume_path = "${path ?? name}"\n  service_level = "Premium"\n  storage_quota_in_gb = 1024\n}\n`,
    )
    .join('\n');
  const read = readIac(new SourceText(text), 'file:///repo/main.tf', 'terraform');
  return Object.fromEntries(
    (read.estate?.volumes ?? []).map((v) => [
      v.name?.value ?? '?',
      v.workload && `${v.workload.kind}: ${v.workload.from}`,
    ]),
  );
}

describe("a lower-case <sid>-shared is SAP HANA's beside its system's data or log volume", () => {
  it('takes the SID of a data or log volume of the same estate, in any case', () => {
    expect(workloads([['hn1-data-mnt00001'], ['hn1-shared']])['hn1-shared']).toBe(
      'sap-hana-shared: its name `hn1-shared` and SAP HANA volume `hn1-data-mnt00001` of the same SID',
    );
    expect(workloads([['HN1-log'], ['hn1-shared']])['hn1-shared']).toMatch(/^sap-hana-shared: .*`HN1-log`/);
    expect(workloads([['vol1', 'HN1-log-mnt00001'], ['Hn1-shared']])['Hn1-shared']).toMatch(/^sap-hana-shared: /);
  });

  it('sets nothing alone, beside another SID, or beside names that are no HANA data or log', () => {
    expect(workloads([['web-shared']])['web-shared']).toBeUndefined();
    expect(workloads([['hn1-shared']])['hn1-shared']).toBeUndefined();
    expect(workloads([['hn2-data-mnt00001'], ['hn1-shared']])['hn1-shared']).toBeUndefined();
    // `web-data` is no HANA data volume (lower case, no `-mntNNNNN`), so `web-shared` beside it is none either.
    expect(workloads([['web-data'], ['web-log'], ['web-shared']])).toEqual({
      'web-data': undefined,
      'web-log': undefined,
      'web-shared': undefined,
    });
    // A data volume stated to be no HANA's names no HANA system.
    expect(workloads([['hn1-data-mnt00001', undefined, 'general'], ['hn1-shared']])['hn1-shared']).toBeUndefined();
  });

  it("counts a data or log volume stated to be HANA's, and keeps a workload the shared volume states", () => {
    expect(workloads([['hn1-data', undefined, 'sap-hana-data'], ['hn1-shared']])['hn1-shared']).toMatch(
      /^sap-hana-shared: /,
    );
    expect(workloads([['hn1-data-mnt00001'], ['hn1-shared', undefined, 'general']])['hn1-shared']).toMatch(
      /^general: /,
    );
  });

  it('reads the export path when the name says nothing', () => {
    expect(workloads([['hn1-data-mnt00001'], ['vol3', 'hn1-shared']]).vol3).toBe(
      'sap-hana-shared: its export path `hn1-shared` and SAP HANA volume `hn1-data-mnt00001` of the same SID',
    );
  });
});

describe('a Terraform folder read as one: the SID of a HANA volume in another file', () => {
  const config = resolveConfig(configSchema.parse({}));
  const volume = (label: string, name: string) =>
    `resource "azurerm_netapp_volume" "${label}" {\n  name                = "${name}"\n  account_name        = azurerm_netapp_account.a.name\n  pool_name           = azurerm_netapp_pool.p.name\n  volume_path         = "${name}"\n  service_level       = "Premium"\n  storage_quota_in_gb = 1024\n  protocols           = ["NFSv4.1"]\n}\n`;
  const POOL =
    'resource "azurerm_netapp_account" "a" {\n  name = "sap"\n}\n\nresource "azurerm_netapp_pool" "p" {\n  name          = "hana"\n  account_name  = azurerm_netapp_account.a.name\n  service_level = "Premium"\n  size_in_tb    = 8\n}\n';
  const workloadIn = (files: Record<string, string>, uri: string) => {
    const workspace = new Workspace(config);
    for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/sap/${path}`, text);
    return workspace.file(`file:///repo/sap/${uri}`)?.iac?.volumes.map((v) => v.workload?.kind);
  };

  it('takes the SID of a data volume declared in another file of the folder', () => {
    const files = {
      'pool.tf': POOL,
      'data.tf': volume('data', 'hn1-data-mnt00001'),
      'shared.tf': volume('shared', 'hn1-shared'),
    };
    expect(workloadIn(files, 'shared.tf')).toEqual(['sap-hana-shared']);
    expect(workloadIn({ ...files, 'data.tf': volume('data', 'hn2-data-mnt00001') }, 'shared.tf')).toEqual([undefined]);
    expect(workloadIn({ ...files, 'shared.tf': volume('shared', 'web-shared') }, 'shared.tf')).toEqual([undefined]);
  });
});

describe('where a workload came from, in messages', () => {
  const estateOf = (text: string) => readIac(new SourceText(text), 'file:///repo/main.tf', 'terraform').estate!;
  const volume = (label: string, name: string, above = '', tags = '') =>
    `${above}resource "azurerm_netapp_volume" "${label}" {\n  name = "${name}"\n  pool_name = "p"${tags}\n}\n`;

  it('says how to override it by where it came from, not by words in a name', () => {
    // `TAG` and `annotation` in a name are no tag and no annotation.
    const named = estateOf(volume('d', 'TAG-data-mnt00001') + volume('s', 'tag-shared'));
    for (const symbol of ['azurerm_netapp_volume.d', 'azurerm_netapp_volume.s'])
      expect(workloadOrigin(named, symbol)).toContain('write `# anf: workload=<kind>` above the resource');
    const tagged = estateOf(volume('t', 'vol1', '', '\n  tags = { workload = "sap-hana-shared" }'));
    expect(workloadOrigin(tagged, 'azurerm_netapp_volume.t')).toBe(
      ' (from its `workload` tag; change the tag to override it)',
    );
    const annotated = estateOf(volume('a', 'vol1', '# anf: workload=sap-hana-shared\n'));
    expect(workloadOrigin(annotated, 'azurerm_netapp_volume.a')).toBe('');
  });
});
