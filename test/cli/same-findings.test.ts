/**
 * One project core under the CLI and the language server (issue 12): the same repository gives the
 * same findings from `anf-lint --format json .` inside it, from the CLI started in another folder,
 * from the CLI started inside another git repository full of ANF files, and from the server's
 * workspace/diagnostic. Compared: file (repository-relative), code, range and message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { multiHostRepository, repositoryFrom, writeRepository } from '../support/generatedRepo';
import { LspClient, PULL_CLIENT_CAPABILITIES, type LspDiagnostic } from '../lsp/support/lspClient';
import { ROOT, run } from './helpers';

interface JsonFile {
  file: string;
  diagnostics: { code: string; message: string; line: number; column: number; endLine: number; endColumn: number }[];
}

const created: string[] = [];
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `file code l:c-l:c message`, 1-based, file relative to the repository, sorted. */
function fromCli(repo: string, cwd: string, args: readonly string[]): string[] {
  const result = run(['--format', 'json', '--exit-zero', ...args], { cwd });
  expect(result.stderr.split('\n').filter((l) => l && !l.startsWith('anf-lint: note:'))).toEqual([]);
  expect(result.code).toBe(0);
  const files = JSON.parse(result.stdout) as JsonFile[];
  return files
    .flatMap((f) =>
      f.diagnostics.map(
        (d) =>
          `${relative(repo, resolve(cwd, f.file)).split('\\').join('/')} ${d.code} ${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.message}`,
      ),
    )
    .sort();
}

async function fromServer(repo: string): Promise<string[]> {
  const { client } = await LspClient.startIndexed({
    rootUri: pathToFileURL(repo).href,
    capabilities: PULL_CLIENT_CAPABILITIES,
  });
  try {
    const report = await client.request<{ items: { uri: string; items: LspDiagnostic[] }[] }>('workspace/diagnostic', {
      previousResultIds: [],
    });
    return report.items
      .flatMap((item) =>
        item.items.map((d) => {
          const { start, end } = d.range;
          return `${relative(repo, fileURLToPath(item.uri)).split('\\').join('/')} ${String(d.code)} ${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1} ${d.message}`;
        }),
      )
      .sort();
  } finally {
    await client.shutdown().catch(() => undefined);
    client.dispose();
  }
}

/** Another repository full of ANF files: the same mount target with other nconnect values, a default workload. */
function otherRepository(): string {
  const dir = writeRepository(
    {
      '.anf-lint.yaml': 'workload: sap-hana-data\nrules:\n  ANF207: error\n',
      'etc/fstab': '10.20.1.4:/eda-tools /tools nfs rw,hard,vers=4.1,nconnect=16,_netdev 0 0\n',
      'other.anf.yaml':
        'region: westeurope\naccounts:\n  - name: other\n    pools:\n      - name: p\n        serviceLevel: Ultra\n        size: 4 TiB\n        volumes:\n          - name: eda-tools\n            quota: 1 TiB\n            protocols: [NFSv4.1]\n            workload: sap-hana-log\n            exportPath: /eda-tools\n            mountTarget: 10.20.1.4\n',
    },
    { prefix: 'anf-lint-other-' },
  );
  created.push(dir);
  return dir;
}

function elsewhere(): string {
  const dir = mkdtempSync(join(tmpdir(), 'anf-lint-elsewhere-'));
  created.push(dir);
  return dir;
}

describe('the same findings from every entry point', () => {
  for (const [name, make] of [
    ['examples/', () => repositoryFrom(join(ROOT, 'examples'))],
    ['a generated repository with several hosts', multiHostRepository],
  ] as const) {
    it(`${name}: CLI inside, CLI from another folder, CLI from inside another repository, server's workspace/diagnostic`, async () => {
      const repo = make();
      created.push(repo);
      const inside = fromCli(repo, repo, ['.']);
      expect(inside.length).toBeGreaterThan(3);
      // The extension-less shell script is read by both (the server's index used to skip it).
      if (name.startsWith('a generated'))
        expect(inside.filter((l) => l.startsWith('hostB/bin/mount-results '))).toHaveLength(1);
      expect(fromCli(repo, elsewhere(), [repo])).toEqual(inside);
      expect(fromCli(repo, otherRepository(), [repo])).toEqual(inside);
      // One file named from inside another repository still gets its own repository's context and configuration.
      const fstab = inside.filter((l) => l.startsWith('hostA/etc/fstab ') || l.startsWith('eda/etc/fstab '));
      const named = fstab[0]?.split(' ')[0];
      if (named) expect(fromCli(repo, otherRepository(), [join(repo, named)])).toEqual(fstab);
      expect(await fromServer(repo)).toEqual(inside);
    }, 120_000);
  }

  it('lazy context (issue 17): one named file and --staged get the findings of a run over the whole repository', () => {
    const repo = multiHostRepository();
    created.push(repo);
    // A new file on host B, staged: every line is a change, so --staged reports all of its findings.
    const added = 'hostB/bin/mount-scratch';
    writeFileSync(
      join(repo, added),
      '#!/bin/sh\nmount -t nfs -o rw,vers=3,nconnect=16,soft 10.20.1.4:/eda-scratch /scratch\n',
    );
    execFileSync('git', ['add', added], { cwd: repo, stdio: 'ignore' });
    const whole = fromCli(repo, repo, ['.']);
    const of = (path: string) => whole.filter((l) => l.startsWith(`${path} `));
    expect(of(added).length).toBeGreaterThan(0);
    expect(fromCli(repo, repo, ['--staged'])).toEqual(of(added));
    for (const named of [
      'hostA/etc/fstab',
      'hostB/etc/fstab',
      'hostA/etc/sysctl.d/90-nfs.conf',
      'hostB/bin/mount-results',
    ]) {
      expect(of(named).length, named).toBeGreaterThan(0);
      expect(fromCli(repo, elsewhere(), [join(repo, named)]), named).toEqual(of(named));
    }
  }, 120_000);
});
