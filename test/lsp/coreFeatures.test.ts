import { describe, expect, it } from 'vitest';
import { parseFile, type Diagnostic, type FixApplicability } from '../../server/src/core';
import { combinedFixEdits, computeCodeActions, disableOnLineAction } from '../../server/src/core/features/codeActions';
import { dependentsOf } from '../../server/src/core/features/dependents';
import { yamlContextAt } from '../../server/src/core/features/yamlPath';

/** The pure pieces behind the protocol tests, where a protocol round trip would hide the edge cases. */
describe('yamlContextAt: where the cursor is in a half-typed manifest', () => {
  const manifest = [
    'accounts:',
    '  - name: eda',
    '    pools:',
    '      - name: p',
    '        serviceLevel: Premium',
    '        volumes:',
    '          - name: tools',
    '            quota: 4 TiB',
    '',
  ].join('\n');
  const at = (text: string) => yamlContextAt(text, text.length);

  it('finds the volume mapping, its keys so far and the word typed', () => {
    expect(at(`${manifest}            wor`)).toEqual({
      path: ['accounts', 0, 'pools', 0, 'volumes', 0],
      typed: 'wor',
      siblings: ['quota', 'name'],
    });
  });
  it('finds a new list item', () => {
    expect(at(`${manifest}          - `)).toEqual({
      path: ['accounts', 0, 'pools', 0, 'volumes', 0],
      typed: '',
      siblings: [],
    });
  });
  it('finds a value being typed after a key', () => {
    expect(at(`${manifest}            workload: ed`)).toMatchObject({
      path: ['accounts', 0, 'pools', 0, 'volumes', 0],
      valueKey: 'workload',
      typed: 'ed',
    });
  });
  it("handles lists written at their key's indentation, and the root", () => {
    expect(at('accounts:\n- name: a\n  pools:\n  - name: p\n    ser')).toMatchObject({
      path: ['accounts', 0, 'pools', 0],
      typed: 'ser',
    });
    expect(at('reg')).toEqual({ path: [], typed: 'reg', siblings: [] });
  });
  it('gives up inside a flow value or a scalar block', () => {
    expect(at('accounts: [{name: a, po')).toBeUndefined();
  });
});

function diagnostic(
  file: ReturnType<typeof parseFile>,
  code: string,
  start: number,
  end: number,
  fix?: { title: string; applicability: FixApplicability; newText: string },
): Diagnostic {
  const span = { start, end };
  return {
    uri: file.uri,
    code,
    severity: 'warning',
    message: code,
    span,
    range: file.source.rangeOf(span),
    fixes: fix
      ? [
          {
            title: fix.title,
            applicability: fix.applicability,
            edits: [{ uri: file.uri, span, range: file.source.rangeOf(span), newText: fix.newText }],
          },
        ]
      : [],
    related: [],
    tags: [],
  };
}

describe('code actions', () => {
  const file = parseFile('file:///w/etc/fstab', 'UUID=1 /a xfs defaults 0 0\n  UUID=2 /b xfs defaults 0 0\n');

  it('combines fixes without overlapping edits; safe-only leaves unsafe ones out', () => {
    const a = diagnostic(file, 'ANF998', 0, 6, { title: 'a', applicability: 'safe', newText: 'UUID=9' });
    const overlapping = diagnostic(file, 'ANF998', 3, 8, { title: 'b', applicability: 'safe', newText: 'x' });
    const unsafe = diagnostic(file, 'ANF998', 30, 36, { title: 'c', applicability: 'unsafe', newText: 'UUID=8' });
    expect(combinedFixEdits([a, overlapping, unsafe], false).fixed).toEqual([a, unsafe]);
    expect(combinedFixEdits([a, overlapping, unsafe], true).fixed).toEqual([a]);
  });

  it('inserts the disable comment above the line with its indentation, or extends an existing one', () => {
    const d = diagnostic(file, 'ANF207', 30, 36);
    expect(disableOnLineAction(file, d)!.edits[0]).toMatchObject({
      newText: '  # anf-lint disable-next-line ANF207 -- reason\n',
      span: { start: 27, end: 27 },
    });
    const suppressed = parseFile(
      'file:///w/etc/fstab',
      '# anf-lint disable-next-line ANF204 -- legacy\nUUID=1 /a xfs defaults 0 0\n',
    );
    const edit = disableOnLineAction(suppressed, diagnostic(suppressed, 'ANF207', 47, 50))!.edits[0]!;
    expect(
      suppressed.source.text.slice(0, edit.span.start) + edit.newText + suppressed.source.text.slice(edit.span.end),
    ).toMatch(/^# anf-lint disable-next-line ANF204,ANF207 -- legacy\n/);
  });

  it('starts the disable comment above a continued shell command, and offers none in JSON', () => {
    const shell = parseFile('file:///w/mount.sh', '#!/bin/sh\nmount -t nfs \\\n  -o soft 10.0.0.4:/v /mnt\n');
    const d = diagnostic(shell, 'ANF207', 30, 34);
    expect(disableOnLineAction(shell, d)!.edits[0]!.range.start.line).toBe(1);
    const json = parseFile('file:///w/a.anf.json', '{"accounts": []}');
    expect(disableOnLineAction(json, diagnostic(json, 'ANF103', 1, 5))).toBeUndefined();
  });

  it('answers `only` kinds: quickfix, source.fixAll, source', () => {
    const d = diagnostic(file, 'ANF998', 0, 6, { title: 'a', applicability: 'safe', newText: 'UUID=9' });
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    expect(computeCodeActions(file, [d], { range, only: ['quickfix'] }).map((a) => a.kind)).toEqual([
      'quickfix',
      'quickfix',
    ]);
    expect(computeCodeActions(file, [d], { range, only: ['source.fixAll'] }).map((a) => a.kind)).toEqual([
      'source.fixAll.anf-lint',
    ]);
    expect(computeCodeActions(file, [d], { range, only: ['source'] }).map((a) => a.kind)).toEqual([
      'source.fixAll.anf-lint',
    ]);
    expect(computeCodeActions(file, [{ ...d, suppressed: {} }], { range })).toEqual([]);
  });
});

describe('dependentsOf', () => {
  const manifest = parseFile('file:///w/a.anf.yaml', 'accounts: []\n');
  const fstab = parseFile('file:///w/etc/fstab', '10.0.0.4:/v /v nfs hard 0 0\n');
  const sysctl = parseFile('file:///w/etc/sysctl.d/90.conf', 'vm.dirty_ratio = 10\n');
  const empty = parseFile('file:///w/etc/sysctl.d/00.conf', '# nothing\n');
  const files = [manifest, fstab, sysctl, empty];
  const names = (list: { uri: string }[]) => list.map((f) => f.uri.split('/w/')[1]);

  it('re-checks mounts and kernel files for a manifest change, and kernel files for a mount change', () => {
    expect(names(dependentsOf({ uri: manifest.uri, before: manifest, after: manifest }, files))).toEqual([
      'etc/fstab',
      'etc/sysctl.d/90.conf',
    ]);
    expect(names(dependentsOf({ uri: fstab.uri, after: fstab }, files))).toEqual([
      'a.anf.yaml',
      'etc/sysctl.d/90.conf',
    ]);
    expect(names(dependentsOf({ uri: sysctl.uri, after: sysctl }, files))).toEqual(['etc/fstab']);
    expect(names(dependentsOf({ uri: empty.uri, after: empty }, files))).toEqual([]);
  });

  it('re-checks the other .tf files of a Terraform module (its folder), and what reads their volumes, when variables.tf changes', () => {
    const variables = parseFile('file:///w/infra/variables.tf', 'variable "q" {\n  default = 100\n}\n');
    const volumes = parseFile(
      'file:///w/infra/volumes.tf',
      'resource "azurerm_netapp_volume" "v" {\n  name = "v"\n  service_level = "Premium"\n  storage_quota_in_gb = var.q\n}\n',
    );
    const elsewhere = parseFile('file:///w/other/main.tf', 'variable "q" {}\n');
    const all = [...files, variables, volumes, elsewhere];
    expect(names(dependentsOf({ uri: variables.uri, before: variables, after: variables }, all))).toEqual([
      'a.anf.yaml',
      'etc/fstab',
      'etc/sysctl.d/90.conf',
      'infra/volumes.tf',
    ]);
    expect(names(dependentsOf({ uri: elsewhere.uri, after: elsewhere }, all))).toEqual([]);
  });

  it("re-checks nothing for an fstab edit other files cannot see (a comment typed in), and the mounts' readers for one they can", () => {
    const text = '# data\n10.0.0.4:/v /v nfs hard 0 0\n';
    const readFresh = () => parseFile('file:///w/etc/fstab', text);
    const comment = readFresh();
    const commented = parseFile(comment.uri, text.replace('# data', '# data volume'), 1, 'fstab', comment);
    expect(commented.lineEdit).toBeDefined();
    expect(
      names(dependentsOf({ uri: comment.uri, before: comment, after: commented }, [manifest, commented, sysctl])),
    ).toEqual([]);
    const mount = readFresh();
    const nconnect = parseFile(mount.uri, text.replace('hard', 'hard,nconnect=8'), 1, 'fstab', mount);
    expect(
      names(dependentsOf({ uri: mount.uri, before: mount, after: nconnect }, [manifest, nconnect, sysctl])),
    ).toEqual(['a.anf.yaml', 'etc/sysctl.d/90.conf']);
    const line = readFresh();
    const newLine = parseFile(line.uri, text.replace('# data', '# data\n#'), 1, 'fstab', line);
    expect(names(dependentsOf({ uri: line.uri, before: line, after: newLine }, [manifest, newLine, sysctl]))).toEqual([
      'a.anf.yaml',
      'etc/sysctl.d/90.conf',
    ]);
  });
});
