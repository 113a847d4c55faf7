import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { fixFiles } from '../../server/src/core/project/fixes';
import { HANA_AVG_ESTATE as ESTATE } from '../support/hanaEstate';

/**
 * Fixes must compose (issue 32): ANF405 shrinks an over-sized manual-QoS pool to the smallest size
 * whose throughput budget holds the throughput assigned today, and ANF408 raises a HANA volume's
 * throughput to the storage KPI. Each is right alone; together the raised throughput overruns the
 * shrunk pool's budget (ANF114, an error neither made alone). The engine keeps the first and backs
 * out what would make the new error.
 */

describe('fixes that compose', () => {
  it('a pool shrink and a throughput raise: the pair that makes ANF114 is not applied together', () => {
    const config = resolveConfig({});
    const uri = 'file:///estate/sap/main.tf';
    const workspace = new Workspace(config);
    workspace.set(uri, ESTATE);
    const codes = (found: readonly { code: string; severity: string }[]) =>
      found.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => d.code);
    const before = visibleDiagnostics(lintFile(workspace, uri, config));
    expect(before.map((d) => d.code)).toContain('ANF405');
    expect(codes(before)).toContain('ANF408');
    expect(codes(before)).not.toContain('ANF114');

    const run = fixFiles(workspace, [uri], () => config, 'unsafe');
    const after = visibleDiagnostics(lintFile(workspace, uri, config));
    expect(codes(after), run.texts.get(uri)).not.toContain('ANF114');
    expect(run.applied.map((a) => a.code)).toContain('ANF405');
    expect(run.dropped.length).toBeGreaterThan(0);
    expect(run.dropped.map((d) => d.code)).toEqual(['ANF408', 'ANF408']);
    expect(run.dropped.every((d) => d.newFindings.some((f) => f.startsWith('ANF114 ')))).toBe(true);
    expect(run.texts.get(uri)).toContain('size_in_tb          = 4');
  });

  it('each fix alone still applies', () => {
    const config = resolveConfig({ rules: { ANF405: 'off' } });
    const uri = 'file:///estate/sap/main.tf';
    const workspace = new Workspace(config);
    workspace.set(uri, ESTATE);
    const run = fixFiles(workspace, [uri], () => config, 'unsafe');
    expect(run.dropped).toEqual([]);
    expect(run.applied.filter((a) => a.code === 'ANF408').length).toBe(2);
  });
});
