/**
 * The Node environment's shortcuts for a one-shot run (issue 29): a file's real path from its
 * folder's remembered one, and a file URI without pathToFileURL. Each must answer exactly as the
 * long way does, links and odd names included.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeEnvironment, toCorePath } from '../../server/src/node/nodeEnvironment';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with plain files, links to files and folders (inside and out), a dangling link and odd names. */
function tree(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'anf-lint-env-')));
  made.push(dir);
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'anf-lint-env-out-')));
  made.push(outside);
  mkdirSync(join(dir, 'etc/sysctl.d'), { recursive: true });
  mkdirSync(join(dir, 'real folder/deeper'), { recursive: true });
  writeFileSync(join(dir, 'etc/fstab'), 'x\n');
  writeFileSync(join(dir, 'etc/sysctl.d/90-nfs.conf'), 'x\n');
  writeFileSync(join(dir, 'real folder/deeper/main.tf'), 'x\n');
  writeFileSync(join(dir, 'real folder/~tilde#hash?.tf'), 'x\n');
  writeFileSync(join(outside, 'secret.conf'), 'x\n');
  symlinkSync(join(dir, 'real folder'), join(dir, 'linked'));
  symlinkSync(outside, join(dir, 'out'));
  symlinkSync(join(dir, 'etc/fstab'), join(dir, 'etc/fstab.link'));
  symlinkSync(join(dir, 'missing'), join(dir, 'dangling'));
  return dir;
}

describe('NodeEnvironment with remembered folders', () => {
  it('gives every path the stat the long way gives, through links and after a folder is asked twice', () => {
    const dir = toCorePath(tree());
    const paths = [
      dir,
      `${dir}/etc`,
      `${dir}/etc/fstab`,
      `${dir}/etc/fstab.link`,
      `${dir}/etc/sysctl.d/90-nfs.conf`,
      `${dir}/real folder/deeper/main.tf`,
      `${dir}/linked/deeper/main.tf`,
      `${dir}/linked/deeper`,
      `${dir}/linked`,
      `${dir}/linked/~tilde#hash?.tf`,
      `${dir}/out/secret.conf`,
      `${dir}/out`,
      `${dir}/dangling`,
      `${dir}/nothing-here`,
      `${dir}/etc/.`,
      `${dir}/etc/..`,
      '/',
    ];
    const plain = new NodeEnvironment();
    const remembering = new NodeEnvironment({ rememberFolders: true });
    // Twice over: the second round answers from the remembered folders.
    for (const round of [1, 2])
      for (const path of paths)
        expect({ round, path, info: remembering.stat(path) }).toEqual({ round, path, info: plain.stat(path) });
    // A file reached through a linked folder has the real folder's path.
    expect(remembering.stat(`${dir}/linked/deeper/main.tf`)?.realPath).toBe(`${dir}/real folder/deeper/main.tf`);
    expect(remembering.stat(`${dir}/out/secret.conf`)?.realPath).not.toContain(dir);
  });

  it('gives the same stats after every folder was listed (names a listing lacks are answered from it)', () => {
    const dir = toCorePath(tree());
    const remembering = new NodeEnvironment({ rememberFolders: true });
    for (const folder of [
      dir,
      `${dir}/etc`,
      `${dir}/etc/sysctl.d`,
      `${dir}/real folder`,
      `${dir}/linked`,
      `${dir}/out`,
    ])
      remembering.list(folder);
    const plain = new NodeEnvironment();
    for (const path of [
      `${dir}/etc/fstab`,
      `${dir}/etc/.anf-lint.yaml`,
      `${dir}/etc/FSTAB`,
      `${dir}/linked/deeper`,
      `${dir}/linked/.anf-lint.yml`,
      `${dir}/out/secret.conf`,
      `${dir}/dangling`,
      `${dir}/nothing-here`,
      `${dir}/etc/.`,
      `${dir}/etc/..`,
    ])
      expect({ path, info: remembering.stat(path) }).toEqual({ path, info: plain.stat(path) });
  });

  it('answers from a folder listing made earlier in the run (one run sees one state of each folder)', () => {
    const dir = toCorePath(tree());
    const remembering = new NodeEnvironment({ rememberFolders: true });
    const listed = remembering.list(`${dir}/etc`);
    writeFileSync(join(dir, 'etc/.anf-lint.yaml'), 'rules: {}\n');
    expect(remembering.list(`${dir}/etc`)).toBe(listed);
    expect(remembering.stat(`${dir}/etc/.anf-lint.yaml`)).toBeUndefined();
    // A name that differs only in case is looked at: a case-insensitive file system would find it.
    writeFileSync(join(dir, 'etc/Fstab'), 'x\n');
    expect(remembering.stat(`${dir}/etc/FSTAB`)).toEqual(new NodeEnvironment().stat(`${dir}/etc/FSTAB`));
    expect(new NodeEnvironment().stat(`${dir}/etc/.anf-lint.yaml`)?.kind).toBe('file');
  });
});

describe('NodeEnvironment.uriOf', () => {
  it('is pathToFileURL for plain and odd paths alike', () => {
    const env = new NodeEnvironment();
    for (const path of [
      '/repo/stacks/dev-1/main.tf',
      '/repo/a_b-c.d/e+f=g,h@i/x.bicep',
      '/repo/~user/x.tf',
      '/repo/with space/x.tf',
      '/repo/percent%20/x.tf',
      '/repo/hash#/q?.tf',
      '/repo/ünïcode/x.tf',
      '/repo/./x.tf',
      '/repo/../x.tf',
      '/repo//x.tf',
      '/repo/folder/',
      '/repo/.hidden/.anf-lint.yaml',
      '/repo/..x/x..',
      '/',
    ])
      expect(env.uriOf(path)).toBe(pathToFileURL(path).href);
  });
});
