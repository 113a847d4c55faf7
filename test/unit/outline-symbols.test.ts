import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { isLintable } from '../../server/src/core/workspace/parseFile';
import { detectFileKind } from '../../server/src/core/fileKind';
import { computeSymbols, type CoreSymbol } from '../../server/src/core/features/outline';

/**
 * Document symbols must be valid LSP symbols: each `selectionRange` inside its `range`, every range
 * inside the document, children inside their parent. VS Code drops the whole outline ("No symbols
 * found") when one symbol breaks this, as it did for Ansible mount loops.
 */
const FIXTURES = join(__dirname, '../fixtures');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function problemsOf(symbols: readonly CoreSymbol[], length: number): string[] {
  const problems: string[] = [];
  for (const symbol of symbols) {
    const { span, selectionSpan } = symbol;
    if (span.start < 0 || span.end > length || span.start > span.end)
      problems.push(`${symbol.name}: range ${span.start}-${span.end} outside the document (${length})`);
    if (selectionSpan.start < span.start || selectionSpan.end > span.end)
      problems.push(
        `${symbol.name}: selection ${selectionSpan.start}-${selectionSpan.end} outside its range ${span.start}-${span.end}`,
      );
    problems.push(...problemsOf(symbol.children, length));
  }
  return problems;
}

describe('document symbols', () => {
  it('are valid for every fixture', () => {
    const problems: string[] = [];
    let files = 0;
    let symbols = 0;
    for (const path of filesUnder(FIXTURES)) {
      const text = readFileSync(path, 'utf8');
      const uri = `file://${path}`;
      if (!isLintable(detectFileKind(uri, text))) continue;
      const found = computeSymbols(parseFile(uri, text));
      files++;
      symbols += found.length;
      for (const problem of problemsOf(found, text.length)) problems.push(`${relative(FIXTURES, path)}: ${problem}`);
    }
    expect(problems).toEqual([]);
    expect(files).toBeGreaterThan(100);
    expect(symbols).toBeGreaterThan(100);
  });

  it('are valid for Ansible mount loops whatever the task takes from the item', () => {
    const text = [
      '- hosts: hana',
      '  tasks:',
      '    - name: Mount the HANA volumes',
      '      ansible.posix.mount:',
      '        src: "10.20.1.4:/{{ item.export }}"',
      '        path: "/hana/{{ item.name }}"',
      '        fstype: nfs',
      '        opts: "{{ item.opts }}"',
      '        state: mounted',
      '      loop:',
      '        - { name: data, export: hn1-data, opts: "rw,hard,vers=4.1,sec=sys" }',
      '        - { name: log, export: hn1-log, opts: "rw,hard,vers=3" }',
      '    - name: Mount with defaults',
      '      ansible.posix.mount:',
      '        src: "{{ item.src }}"',
      '        path: "{{ item.path }}"',
      '        fstype: nfs',
      '        opts: "{{ item.opts | default(\'rw,hard\') }}"',
      '        state: mounted',
      '      with_items:',
      '        - src: 10.20.1.4:/hn1-shared',
      '          path: /hana/shared',
      '          opts: rw,hard,vers=4.1,sec=sys',
      '',
    ].join('\n');
    const file = parseFile('file:///repo/roles/hana/tasks/main.yml', text);
    const symbols = computeSymbols(file);
    expect(symbols.length).toBeGreaterThanOrEqual(2);
    expect(problemsOf(symbols, text.length)).toEqual([]);
    // One mount per literal item, `{{ item.x }}` inside other text filled in from the item.
    expect(
      file.mounts
        .filter((m) => m.origin === 'ansible')
        .map((m) => [m.server, m.exportPath, m.mountPoint, m.templated ?? false]),
    ).toEqual([
      ['10.20.1.4', '/hn1-data', '/hana/data', false],
      ['10.20.1.4', '/hn1-log', '/hana/log', false],
      ['10.20.1.4', '/hn1-shared', '/hana/shared', true], // opts: `{{ item.opts | default(...) }}` is unknown
    ]);
    // The workload by mount path applies to each item as in fstab: NFSv3 on /hana/log is reported (ANF220).
    const ws = new Workspace();
    ws.set('file:///repo/roles/hana/tasks/main.yml', text);
    expect(
      visibleDiagnostics(lintFile(ws, 'file:///repo/roles/hana/tasks/main.yml', resolveConfig({}))).map(
        (d) => `${d.range.start.line + 1} ${d.code}`,
      ),
    ).toContain('12 ANF220');
  });
});
