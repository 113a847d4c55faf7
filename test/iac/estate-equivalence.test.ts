import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * The Terraform and Bicep versions of each example estate describe the same accounts, pools and
 * volumes as its manifest: the same figures (size, quota, throughput, monthly cost) and the same
 * sizing findings. Left out: findings about what a volume must deliver (ANF116, ANF117: the
 * manifest's `requirements`, which the example code does not repeat in `anf:` annotations), how a size is written (ANF124:
 * the manifest's "8 TB" is 7,451 GiB in the code), and the IaC-only rules (ANF4xx).
 */
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const ESTATES = [
  { name: 'EDA', manifest: 'eda/eda.anf.yaml', terraform: 'eda/terraform/main.tf', bicep: 'eda/bicep/main.bicep' },
  {
    name: 'SAP HANA',
    manifest: 'sap-hana/hana.anf.yaml',
    terraform: 'sap-hana/terraform/main.tf',
    bicep: 'sap-hana/bicep/main.bicep',
  },
];
const NOT_COMPARED = new Set(['ANF116', 'ANF117', 'ANF124']);
const config = resolveConfig(configSchema.parse({}));
// Rounding the "8 TB" of the EDA manifest to whole GiB moves its figures by less than this.
const RELATIVE_TOLERANCE = 1e-4;

function read(path: string) {
  const uri = pathToFileURL(join(EXAMPLES, path)).href;
  const workspace = new Workspace(config);
  workspace.set(uri, readFileSync(join(EXAMPLES, path), 'utf8'));
  // A Terraform module is its folder: variables.tf and terraform.tfvars set main.tf's sizes.
  if (path.endsWith('.tf')) {
    const folder = dirname(join(EXAMPLES, path));
    for (const name of readdirSync(folder))
      if (/\.tf(?:vars)?$/.test(name) && join(folder, name) !== join(EXAMPLES, path))
        workspace.set(pathToFileURL(join(folder, name)).href, readFileSync(join(folder, name), 'utf8'));
  }
  const file = workspace.file(uri)!;
  expect(file.manifest, `${path} gives an estate`).toBeDefined();
  const figures = computeManifestFigures(file.manifest!, config);
  const pools = figures.pools.map((p) => ({
    id: p.id,
    serviceLevel: p.serviceLevel,
    qos: p.qos,
    sizeTiB: p.sizeTiB,
    allocatedGiB: p.allocatedGiB,
    budgetMiBps: p.budgetMiBps,
    usedMiBps: p.usedMiBps,
    cost: p.monthlyCost?.totalUsd,
  }));
  const volumes = figures.volumes.map((v) => ({
    id: v.id,
    quotaGiB: v.quotaGiB,
    throughputMiBps: v.throughput?.mibps,
    workload: file.volumes.find((s) => `${s.account}/${s.pool}/${s.name}` === v.id)?.workload,
  }));
  const findings = visibleDiagnostics(lintFile(workspace, uri, config))
    .filter((d) => /^ANF1\d\d$/.test(d.code) && !NOT_COMPARED.has(d.code))
    .map((d) => `${d.code} ${d.message}`)
    .sort();
  return { pools, volumes, findings };
}

function close(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      Math.abs(expected) * RELATIVE_TOLERANCE,
    );
    return;
  }
  if (expected && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected))
      close((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`);
    return;
  }
  expect(actual, path).toEqual(expected);
}

describe.each(ESTATES)("$name: Terraform and Bicep give the manifest's figures and sizing findings", (estate) => {
  const manifest = read(estate.manifest);

  it.each(['terraform', 'bicep'] as const)('%s', (language) => {
    const iac = read(estate[language]);
    expect(iac.pools.map((p) => p.id)).toEqual(manifest.pools.map((p) => p.id));
    expect(iac.volumes.map((v) => v.id)).toEqual(manifest.volumes.map((v) => v.id));
    close(iac.pools, manifest.pools, 'pools');
    close(iac.volumes, manifest.volumes, 'volumes');
    // The same findings, messages included, except where the manifest states a size with a decimal
    // unit, and where infrastructure code says where a workload it took from a name came from.
    const normalize = (lines: string[]) =>
      lines.map((l) =>
        l
          .replace(/[\d,.]+ GiB \([\d.]+ TiB\) of quota/, 'N GiB of quota')
          .replace(/ \(from its name `[^`]+`; [^)]*to override it\)/g, ''),
      );
    expect(normalize(iac.findings)).toEqual(normalize(manifest.findings));
    expect(manifest.findings.length).toBeGreaterThan(0);
  });
});
