import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** Mounts run on many hosts at once by a parallel shell (pdsh, clush, pssh): issue 28 §2. */
const PATH = join(__dirname, '../fixtures/formats/carriers/parallel/mount-compute.sh');
const TEXT = readFileSync(PATH, 'utf8');

describe('parallel shells', () => {
  it('reads the command after the options of pdsh, clush and pssh, quoted or as words', () => {
    const mounts = parseFile(`file://${PATH}`, TEXT).mounts.filter((m) => m.origin !== 'option-string');
    expect(mounts.map((m) => `${m.server}:${m.exportPath} ${m.mountPoint}`)).toEqual([
      '10.40.2.4:/scratch /scratch',
      '10.40.2.4:/tools /tools',
      '10.40.2.4:/home /home',
      '10.40.2.4:/models /models',
      '10.40.2.4:/apps /apps',
    ]);
    // Options stay where they are written, so findings underline them.
    const tools = mounts[1]!;
    expect(TEXT.slice(tools.optionsSpan!.start, tools.optionsSpan!.end)).toBe('rw,soft,vers=3');
  });

  it('finds the problems of those mounts', () => {
    const ws = new Workspace();
    const uri = `file://${PATH}`;
    ws.set(uri, TEXT);
    const found = visibleDiagnostics(lintFile(ws, uri, resolveConfig({}))).map(
      (d) => `${d.range.start.line + 1} ${d.code}`,
    );
    expect(found).toEqual(expect.arrayContaining(['5 ANF207', '6 ANF211', '7 ANF206', '8 ANF208']));
  });

  it('reads a here-document fed to ssh or a local shell as a script, not one fed to another command', () => {
    const path = join(__dirname, '../fixtures/formats/carriers/parallel/remote-heredoc.sh');
    const text = readFileSync(path, 'utf8');
    const mounts = parseFile(`file://${path}`, text).mounts.filter((m) => m.origin !== 'option-string');
    expect(mounts.map((m) => `${m.origin} ${m.mountPoint}`)).toEqual([
      'mount-command /shared',
      'fstab /shared',
      'mount-command /apps',
      'mount-command /local',
    ]);
    const ws = new Workspace();
    ws.set(`file://${path}`, text);
    const found = visibleDiagnostics(lintFile(ws, `file://${path}`, resolveConfig({}))).map(
      (d) => `${d.range.start.line + 1} ${d.code}`,
    );
    expect(found).toEqual(expect.arrayContaining(['6 ANF213', '11 ANF208', '21 ANF202']));
    expect(found.some((f) => f.startsWith('16 '))).toBe(false);
  });
});
