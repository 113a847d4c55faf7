import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, resolveConfig, Workspace } from '../../server/src/core';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import {
  iacResourceOf,
  type IacAccount,
  type IacPool,
  type IacValue,
  type IacVolume,
} from '../../server/src/core/iac/estate';

/**
 * Golden dumps of realistic estates (test/fixtures/iac/estates/<name>/): every file of the folder
 * is read by a workspace as the editor and the CLI read a repository, and what it evaluated
 * (accounts, pools, volumes, their values, where each came from, why a value is unknown, and each
 * volume's quota and throughput figures) is written to `estate.golden.txt` beside it. The dump
 * takes whatever the workspace reads (Terraform, Bicep, ARM), so estates of any language fit.
 * A drift fails; `UPDATE_GOLDEN=1 npx vitest run test/iac/estate-golden.test.ts` rewrites them
 * (review the diff). Acceptance: every volume has a quota and a throughput, except the
 * addresses or symbols listed in the estate's `expected-unknown.txt`.
 */
const ROOT = join(__dirname, '../fixtures/iac/estates');
const GOLDEN = 'estate.golden.txt';
const config = resolveConfig(configSchema.parse({}));

function filesOf(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesOf(path));
    else if (name !== GOLDEN && name !== 'README.md' && name !== 'expected-unknown.txt') out.push(path);
  }
  return out;
}

function shown(v: IacValue<unknown> | undefined, unit = ''): string {
  if (!v) return '(not set)';
  const value = v.value === undefined ? `unknown: ${v.unknown ?? '(no reason)'}` : `${JSON.stringify(v.value)}${unit}`;
  return v.origin ? `${value}  [${v.origin}]` : value;
}

function header(r: IacAccount | IacPool | IacVolume): string {
  return `${r.kind} ${r.address ?? r.symbol}${r.repeated ? ' (repeated: how many is unknown)' : ''}${r.deployedIf ? ` (${r.deployedIf})` : ''}`;
}

interface Dump {
  readonly text: string;
  readonly volumes: { id: string; quota?: number; throughput?: number }[];
}

function dump(dir: string): Dump {
  const workspace = new Workspace(config);
  const files = filesOf(dir);
  for (const path of files) workspace.set(`file:///repo/${relative(dir, path)}`, readFileSync(path, 'utf8'));
  const lines: string[] = [];
  const volumes: Dump['volumes'] = [];
  for (const path of files) {
    const uri = `file:///repo/${relative(dir, path)}`;
    const file = workspace.file(uri);
    const iac = file?.iac;
    if (!file || !iac) continue;
    if (iac.calledBy) {
      lines.push(
        `${relative(dir, path)}: a module called by ${iac.calledBy.map((c) => c.replace('file:///repo/', '')).join(', ')} (its resources are read as the callers' instances)`,
        '',
      );
      continue;
    }
    if (iac.accounts.length + iac.pools.length + iac.volumes.length === 0) continue;
    lines.push(`${relative(dir, path)} (${iac.language})`);
    for (const a of iac.accounts) lines.push(`  ${header(a)}`, `    name: ${shown(a.name)}`);
    for (const p of iac.pools) {
      if (p.declaredIn) continue;
      lines.push(
        `  ${header(p)}`,
        `    name: ${shown(p.name)}`,
        `    service level: ${shown(p.serviceLevel)}`,
        `    size: ${shown(p.size, p.size ? ` ${p.size.unit}` : '')}`,
      );
      if (p.qos) lines.push(`    qos: ${shown(p.qos)}`);
    }
    const figures = file.manifest ? computeManifestFigures(file.manifest, config) : undefined;
    for (const v of iac.volumes) {
      lines.push(
        `  ${header(v)}`,
        `    name: ${shown(v.name)}`,
        `    pool: ${v.pool?.symbol ?? shown(v.pool?.name)}${v.pool?.name?.value !== undefined ? ` (${JSON.stringify(v.pool.name.value)})` : ''}`,
        `    service level: ${shown(v.serviceLevel)}`,
        `    quota: ${shown(v.quota, v.quota ? ` ${v.quota.unit}` : '')}`,
      );
      if (v.throughputMiBps) lines.push(`    throughput: ${shown(v.throughputMiBps, ' MiB/s')}`);
      if (v.protocols) lines.push(`    protocols: ${shown(v.protocols)}`);
      if (v.creationToken) lines.push(`    path: ${shown(v.creationToken)}`);
      if (v.workload) lines.push(`    workload: ${v.workload.kind} (from ${v.workload.from})`);
      // The figures of the volume as the manifest model computes them, found by the resource read (its identity), not its name.
      const manifestVolume = file.manifest?.accounts
        .flatMap((a) => a.pools.flatMap((p) => p.volumes))
        .find((m) => iacResourceOf(m) === v);
      const f = manifestVolume ? figures?.volume(manifestVolume) : undefined;
      lines.push(
        `    figures: quota ${f?.quotaGiB ?? 'unknown'} GiB, throughput ${f?.throughput ? `${f.throughput.mibps} MiB/s` : 'unknown'}`,
      );
      volumes.push({
        id: v.address ?? v.symbol,
        ...(f?.quotaGiB !== undefined ? { quota: f.quotaGiB } : {}),
        ...(f?.throughput ? { throughput: f.throughput.mibps } : {}),
      });
    }
    lines.push('');
  }
  return { text: `${lines.join('\n').trimEnd()}\n`, volumes };
}

const estates = existsSync(ROOT)
  ? readdirSync(ROOT)
      .filter((n) => statSync(join(ROOT, n)).isDirectory())
      .sort()
  : [];

describe('estate golden dumps', () => {
  it('has estates to dump', () => {
    expect(estates.length).toBeGreaterThan(0);
  });

  for (const name of estates) {
    describe(name, () => {
      const dir = join(ROOT, name);
      const result = dump(dir);

      it(`matches ${name}/${GOLDEN}`, () => {
        const golden = join(dir, GOLDEN);
        if (process.env.UPDATE_GOLDEN === '1' || !existsSync(golden)) writeFileSync(golden, result.text);
        expect(result.text).toBe(readFileSync(golden, 'utf8'));
      });

      it('knows the quota and throughput of every volume whose values the files hold', () => {
        const listed = join(dir, 'expected-unknown.txt');
        const unknownByDesign = new Set(
          existsSync(listed)
            ? readFileSync(listed, 'utf8')
                .split('\n')
                .map((l) => l.trim())
                .filter(Boolean)
            : [],
        );
        expect(result.volumes.length).toBeGreaterThan(0);
        const missing = result.volumes
          .filter((v) => !unknownByDesign.has(v.id) && (v.quota === undefined || v.throughput === undefined))
          .map((v) => v.id);
        expect(missing).toEqual([]);
      });
    });
  }
});
