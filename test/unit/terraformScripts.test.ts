import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** Mounts in Terraform `provisioner "remote-exec"` commands (issue 28 §2). */
const PATH = join(__dirname, '../fixtures/formats/carriers/terraform/main.tf');
const TEXT = readFileSync(PATH, 'utf8');

describe('Terraform remote-exec', () => {
  it('reads the inline commands in place, escaped strings from their values', () => {
    const mounts = parseFile(`file://${PATH}`, TEXT).mounts;
    expect(
      mounts.map((m) => `${m.origin} ${m.mountPoint} ${TEXT.slice(m.optionsSpan!.start, m.optionsSpan!.end)}`),
    ).toEqual([
      'mount-command /mnt/assets rw,hard,vers=3,rsize=262144,wsize=262144',
      'mount-command /mnt/cache rw,soft,vers=3',
      'fstab /mnt/cache rw,hard,vers=3,nconect=8',
    ]);
    // The interpolated server is unknown, never a guess.
    expect(mounts[0]!.templated).toBe(true);
  });

  it('finds their problems and leaves local-exec alone', () => {
    const ws = new Workspace();
    const uri = `file://${PATH}`;
    ws.set(uri, TEXT);
    const found = visibleDiagnostics(lintFile(ws, uri, resolveConfig({})))
      .filter((d) => d.code.startsWith('ANF2'))
      .map((d) => `${d.range.start.line + 1} ${d.code}`);
    expect(found).toEqual(expect.arrayContaining(['19 ANF207', '20 ANF202']));
    expect(found.some((f) => f.startsWith('27 '))).toBe(false);
  });
});
