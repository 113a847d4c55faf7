import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  detectFileKind,
  lintFile,
  parseFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
} from '../../server/src/core';
import { persistsToFstab } from '../../server/src/core/mounts/persistence';
import { candidateByName } from '../../server/src/core/project/discovery';

/** Chef Infra `mount` resources in recipes (issue 28 §2). */
const PATH = join(__dirname, '../fixtures/formats/carriers/chef/cookbooks/anf/recipes/default.rb');
const TEXT = readFileSync(PATH, 'utf8');

describe('Chef mount resources', () => {
  it('reads recipes with a mount resource, and no other Ruby', () => {
    expect(detectFileKind(PATH, TEXT)).toBe('chef');
    expect(detectFileKind('/repo/lib/helper.rb', 'def mount_all\n  system("mount -a")\nend\n')).toBe('unknown');
    // A folder walk reads the text of recipes only (Chef's `recipes/` folder), never all Ruby.
    expect(candidateByName('/repo/cookbooks/anf/recipes/default.rb')).toBe('maybe');
    expect(candidateByName('/repo/app/models/user.rb')).toBe('no');
  });

  it('reads device, mount point, type and options as a string, a %w() or a [] array', () => {
    const mounts = parseFile(`file://${PATH}`, TEXT).mounts.filter((m) => m.origin === 'chef');
    expect(
      mounts.map(
        (m) =>
          `${m.source} ${m.mountPoint} ${m.fsType} ${m.options.map((o) => TEXT.slice(o.span.start, o.span.end)).join(',')}`,
      ),
    ).toEqual([
      '10.60.2.4:/render /mnt/render nfs rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4',
      '10.60.2.4:/scratch /mnt/scratch nfs rw,soft,vers=3',
      'undefined /mnt/tools nfs4 rw,hard,nfsvers=4.2',
      '10.60.2.4:/home /mnt/home nfs ',
      '/dev/sdc1 /data xfs ',
    ]);
    expect(mounts.map(persistsToFstab)).toEqual([true, false, true, true, false]);
    expect(mounts[2]!.templated).toBe(true);
    expect(mounts.filter((m) => m.isNfs).length).toBe(4);
  });

  it('finds their problems', () => {
    const ws = new Workspace();
    const uri = `file://${PATH}`;
    ws.set(uri, TEXT);
    const found = visibleDiagnostics(lintFile(ws, uri, resolveConfig({}))).map(
      (d) => `${d.range.start.line + 1} ${d.code}`,
    );
    expect(found).toEqual(expect.arrayContaining(['23 ANF207']));
    // The unmount is not read.
    expect(found.some((f) => f.startsWith('45 ') || f.startsWith('46 '))).toBe(false);
  });
});
