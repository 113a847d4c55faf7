import { describe, expect, it } from 'vitest';
import {
  applyEdits,
  lintFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type Diagnostic,
} from '../../server/src/core';

/** Network features belong to each volume (the pool's `networkFeatures` is the default): issue 15, item 22. */
const config = resolveConfig();

function lint(text: string): Diagnostic[] {
  const workspace = new Workspace(config);
  const uri = 'file:///repo/estate.anf.yaml';
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config));
}

const pool = (poolFeatures: string, volumes: string) => `accounts:
  - name: eda-prod
    pools:
      - name: small
        serviceLevel: Premium
        size: 2 TiB
${poolFeatures}        volumes:
${volumes}`;

describe('volume networkFeatures', () => {
  it('is a known key of a volume (no ANF102), and an old manifest with the pool value alone still reads', () => {
    const text = pool(
      '        networkFeatures: Standard\n',
      '          - name: bin\n            quota: 1 TiB\n            networkFeatures: Standard\n',
    );
    expect(lint(text).map((d) => d.code)).toEqual([]);
  });

  it('a volume with Basic network features in a 2 TiB pool makes the pool too small (ANF110), and the fix edits the volume', () => {
    const text = pool(
      '',
      '          - name: bin\n            quota: 1 TiB\n          - name: legacy\n            quota: 1 TiB\n            networkFeatures: Basic\n',
    );
    const finding = lint(text).find((d) => d.code === 'ANF110')!;
    expect(finding.message).toContain('use Basic network features (`legacy`)');
    const standard = finding.fixes.find((f) => f.title === 'Use Standard network features')!;
    expect(applyEdits(text, standard.edits).text).toBe(
      text.replace('networkFeatures: Basic', 'networkFeatures: Standard'),
    );
  });

  it('the pool value is only a default: a pool marked Basic whose volumes all say Standard may be 2 TiB', () => {
    const text = pool(
      '        networkFeatures: Basic\n',
      '          - name: bin\n            quota: 1 TiB\n            networkFeatures: Standard\n',
    );
    expect(lint(text).filter((d) => d.code === 'ANF110')).toEqual([]);
  });

  it('a pool marked Basic with volumes that inherit it is still too small', () => {
    const text = pool('        networkFeatures: Basic\n', '          - name: bin\n            quota: 1 TiB\n');
    expect(lint(text).map((d) => d.code)).toContain('ANF110');
  });
});
