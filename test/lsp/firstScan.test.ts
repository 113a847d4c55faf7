/**
 * The language server's first scan (issue 29) and the server under load (issue 32), on the bundled
 * server in a child process:
 * - open documents are answered while the workspace is read; the rest is checked in the
 *   background with `$/progress` and `anf/scanProgress`, and `workspace/diagnostic` reports the
 *   files checked so far;
 * - the scan's results are kept in the client's storage folder across restarts, by a key that
 *   changes with anything a finding can depend on (a changed file in the project misses);
 * - watched-file events are applied in slices (20,000 in one notification used to block the server
 *   for about 100 s) and keep the index's bound.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceFiles } from '../../bench/generate.mjs';
import { LspClient, PULL_CLIENT_CAPABILITIES, TempWorkspace } from './support/lspClient';

const CAPABILITIES = { ...PULL_CLIENT_CAPABILITIES, window: { workDoneProgress: true } };

interface Report {
  uri: string;
  kind: string;
  resultId?: string;
  items?: { code: string; message: string; range: unknown }[];
}

/** Starts a server on the folder and pulls workspace diagnostics as VS Code does until every file has a report. */
async function scan(rootUri: string, storagePath: string, expectFiles: number, options: { scanWorker?: boolean } = {}) {
  const client = new LspClient();
  const progress: string[] = [];
  const scanProgress: { checked: number; total: number; done: boolean }[] = [];
  client.connection.onRequest('window/workDoneProgress/create', () => null);
  client.connection.onNotification('$/progress', (p: { value: { kind: string } }) => {
    progress.push(p.value.kind);
  });
  client.connection.onNotification('anf/scanProgress', (p: (typeof scanProgress)[number]) => {
    scanProgress.push(p);
  });
  try {
    await client.initialize({
      rootUri,
      capabilities: CAPABILITIES,
      initializationOptions: { storagePath, ...options },
    });
    const reports = new Map<string, Report>();
    const answers: number[] = [];
    /** How many full reports of each file left the server (a file checked once is reported once). */
    const fullReports = new Map<string, number>();
    const started = Date.now();
    while (reports.size < expectFiles || !client.logs.some((l) => /checked \d+ files/.test(l))) {
      // Every file reported, the scan's last log line not read yet: a pull now would be held (the
      // long poll, 60 s) when it comes after the scan's end, as nothing changes after it.
      if (reports.size >= expectFiles) {
        await client.until(() => client.logs.some((l) => /checked \d+ files/.test(l)), 120_000, 'the scan');
        break;
      }
      const { items } = await client.request<{ items: Report[] }>('workspace/diagnostic', {
        previousResultIds: [...reports.values()].map((r) => ({ uri: r.uri, value: r.resultId })),
      });
      answers.push(items.length);
      for (const item of items)
        if (item.kind === 'full') {
          reports.set(item.uri, item);
          fullReports.set(item.uri, (fullReports.get(item.uri) ?? 0) + 1);
        }
      if (Date.now() - started > 120_000)
        throw new Error(`scan incomplete: ${reports.size}; ${client.logs.join(' | ')}`);
    }
    // The cache file is written after the last answer: its log line says it is on disk.
    await client.until(() => client.logs.some((l) => /scan cache (written|unchanged)/.test(l)), 60_000, 'the cache');
    const findings = [...reports.values()]
      .map((r) => `${r.uri} ${JSON.stringify((r.items ?? []).map((d) => [d.code, d.message, d.range]))}`)
      .sort();
    return { findings, answers, fullReports, progress, scanProgress, logs: [...client.logs] };
  } finally {
    client.dispose();
  }
}

describe('the first scan', () => {
  const files = workspaceFiles(300);
  const ws = new TempWorkspace(files);
  const storage = mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-test-'));
  afterAll(() => {
    ws.remove();
    rmSync(storage, { recursive: true, force: true });
  });

  it('checks the workspace in the background with progress, keeps its results, and never serves a stale one', async () => {
    const total = Object.keys(files).length;
    const cold = await scan(ws.uri, storage, total);
    expect(cold.progress[0]).toBe('begin');
    expect(cold.progress.at(-1)).toBe('end');
    expect(cold.scanProgress.at(-1)).toEqual({ checked: total - 1, total: total - 1, done: true });
    expect(cold.logs.join('\n')).toMatch(/checked \d+ files in \d+ ms \(0 from the scan cache\)/);
    // The files checked so far leave while the scan goes on, each once: not one answer of every file at the end.
    expect(cold.answers.filter((n) => n > 0).length).toBeGreaterThan(1);
    // (The configuration file is read first, and reported again once every result id changes with the workspace read.)
    expect([...cold.fullReports].filter(([uri, n]) => n !== 1 && !uri.endsWith('/.anf-lint.yaml'))).toEqual([]);
    expect(cold.fullReports.size).toBe(total);

    // A restart on the unchanged folder: every result from the cache, the same findings.
    const warm = await scan(ws.uri, storage, total);
    expect(warm.logs.join('\n')).toMatch(
      new RegExp(`checked ${total - 1} files in \\d+ ms \\(${total - 1} from the scan cache\\)`),
    );
    expect(warm.findings).toEqual(cold.findings);
    // Nothing parsed for that: every finding came from the cache.
    expect(warm.logs.join('\n')).toMatch(new RegExp(`\\(${total - 1} files parsed later`));

    // One file changes between two starts: nothing of its project comes from the cache, and the
    // findings are those of a start without any cache.
    const fstab = Object.keys(files).find((p) => p.endsWith('etc/fstab'))!;
    ws.write(fstab, `${files[fstab]}10.0.0.4:/changed /mnt/changed nfs soft,vers=3 0 0\n`);
    const changed = await scan(ws.uri, storage, total, { scanWorker: true });
    expect(changed.logs.join('\n')).toMatch(/\(0 from the scan cache\)/);
    // A worker thread checked part of the files: a start without it gives the same findings.
    expect(changed.logs.join('\n')).toMatch(/\(\d+ by a worker thread\)/);
    const fresh = await scan(ws.uri, mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-none-')), total, {
      scanWorker: false,
    });
    expect(fresh.logs.join('\n')).not.toMatch(/by a worker thread/);
    expect(changed.findings).toEqual(fresh.findings);
    expect(changed.findings).not.toEqual(cold.findings);
  }, 600_000);
});

describe('a client that takes partial results (VS Code)', () => {
  const files = workspaceFiles(300);
  const ws = new TempWorkspace(files);
  const storages: string[] = [];
  const storage = (name: string) => {
    storages.push(mkdtempSync(join(tmpdir(), `anf-lint-scan-cache-${name}-`)));
    return storages.at(-1)!;
  };
  afterAll(() => {
    ws.remove();
    for (const folder of storages) rmSync(folder, { recursive: true, force: true });
  });

  it('gets every file in parts on its token as the scan checks them, one pull from before `initialized` to the end', async () => {
    const total = Object.keys(files).length;
    const client = new LspClient();
    const token = 'workspace-pull-1';
    const parts: Report[][] = [];
    let answeredAfterScan: boolean | undefined;
    client.connection.onNotification('$/progress', (p: { token: unknown; value: { items?: Report[] } }) => {
      if (p.token === token && p.value.items) parts.push(p.value.items);
    });
    try {
      // VS Code's order: its first workspace pull goes before `initialized`, and the next one only
      // 2 s after an answer; this pull is held until the scan ends and its answer is then empty.
      await client.connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: ws.uri,
        workspaceFolders: [{ uri: ws.uri, name: 'ws' }],
        capabilities: CAPABILITIES,
        initializationOptions: { storagePath: storage('parts') },
      });
      const pull = client
        .request<{ items: Report[] }>('workspace/diagnostic', { previousResultIds: [], partialResultToken: token })
        .then((answer) => {
          answeredAfterScan = client.logs.some((l) => /checked \d+ files/.test(l));
          return answer;
        });
      await client.connection.sendNotification('initialized', {});
      const answer = await pull;
      expect(answer.items).toEqual([]);
      expect(answeredAfterScan).toBe(true);
      // Parts while the scan runs, not one at its end; each file in full once (the configuration
      // file is read first, and reported again once every result id changes with the workspace read).
      expect(parts.length).toBeGreaterThan(1);
      const fullReports = new Map<string, number>();
      const reports = new Map<string, Report>();
      for (const item of parts.flat())
        if (item.kind === 'full') {
          fullReports.set(item.uri, (fullReports.get(item.uri) ?? 0) + 1);
          reports.set(item.uri, item);
        }
      expect([...fullReports].filter(([uri, n]) => n !== 1 && !uri.endsWith('/.anf-lint.yaml'))).toEqual([]);
      expect(fullReports.size).toBe(total);
      // The same findings as a client that pulls again for each piece.
      const findings = [...reports.values()]
        .map((r) => `${r.uri} ${JSON.stringify((r.items ?? []).map((d) => [d.code, d.message, d.range]))}`)
        .sort();
      const eager = await scan(ws.uri, storage('eager'), total);
      expect(findings).toEqual(eager.findings);
    } finally {
      client.dispose();
    }
  }, 300_000);

  it('sends a file again when an edit changes it during the scan, and still ends with the scan', async () => {
    const client = new LspClient();
    const token = 'workspace-pull-2';
    const parts: Report[][] = [];
    client.connection.onNotification('$/progress', (p: { token: unknown; value: { items?: Report[] } }) => {
      if (p.token === token && p.value.items) parts.push(p.value.items);
    });
    try {
      await client.initialize({
        rootUri: ws.uri,
        capabilities: CAPABILITIES,
        initializationOptions: { storagePath: storage('edit') },
      });
      const pull = client.request<{ items: Report[] }>('workspace/diagnostic', {
        previousResultIds: [],
        partialResultToken: token,
      });
      // Once parts come, an fstab of the workspace is opened and gets a soft mount on a new last line.
      await client.until(() => parts.length > 0, 120_000, 'the first part');
      const fstab = Object.keys(files).find((p) => p.endsWith('etc/fstab'))!;
      const uri = ws.uriOf(fstab);
      const line = files[fstab]!.split('\n').length - 1;
      client.open(uri, files[fstab]!);
      client.change(uri, [{ text: `${files[fstab]}10.0.0.4:/edited /mnt/edited nfs soft,vers=3 0 0\n` }]);
      const answer = await pull;
      expect(answer.items).toEqual([]);
      // The file's last report is the edited text's: the soft mount on the new line is found.
      const last = parts
        .flat()
        .filter((item) => item.uri === uri && item.kind === 'full')
        .at(-1);
      expect(
        last?.items?.some((d) => d.code === 'ANF207' && (d.range as { start: { line: number } }).start.line === line),
      ).toBe(true);
    } finally {
      client.dispose();
    }
  }, 300_000);
});

describe('requests during the scan', () => {
  // Large enough for a few progress reports (every 200 ms) while the scan checks files: about
  // 2.5 s here, so a machine several times faster still has a whole interval between two.
  const ws = new TempWorkspace(workspaceFiles(1000));
  const storage = mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-probes-'));
  afterAll(() => {
    ws.remove();
    rmSync(storage, { recursive: true, force: true });
  });

  it('lets requests in every few milliseconds while it checks files, not only at its progress reports (node IPC, as VS Code starts it)', async () => {
    // The scan reports progress every 200 ms. Most files are checked in well under a slice (8 ms),
    // and it used to let requests and edits in only at those reports: one or two turns of the
    // event loop between reports. A slice now spans files. The client here sends the next request
    // as soon as the last one is answered, so the answers between two reports count the turns.
    const client = new LspClient({ transport: 'ipc' });
    const events: string[] = [];
    let pinging: Promise<void> | undefined;
    const ping = async () => {
      while (!events.includes('done')) {
        await client.requestErrorCode('anf/probe', {});
        events.push('answer');
      }
    };
    client.connection.onRequest('window/workDoneProgress/create', () => null);
    client.connection.onNotification('anf/scanProgress', (p: { checked: number; done: boolean }) => {
      // From the first report after a file was checked: the report at the start comes before any slice.
      if (!p.done && p.checked === 0) return;
      events.push(p.done ? 'done' : 'report');
      pinging ??= ping();
    });
    try {
      await client.initialize({
        rootUri: ws.uri,
        capabilities: CAPABILITIES,
        initializationOptions: { storagePath: storage },
      });
      await client.until(() => events.includes('done'), 120_000, 'the scan');
      await pinging;
      // The intervals between two reports (the last one ends at the scan's end).
      const answersPerInterval: number[] = [];
      for (const event of events.slice(0, events.indexOf('done'))) {
        if (event === 'report') answersPerInterval.push(0);
        else answersPerInterval[answersPerInterval.length - 1]! += 1;
      }
      // The last interval ends with the scan, not with a report: counted only when it is the one.
      const complete = answersPerInterval.length > 1 ? answersPerInterval.slice(0, -1) : answersPerInterval;
      expect(complete.length).toBeGreaterThan(0);
      const median = [...complete].sort((a, b) => a - b)[Math.floor(complete.length / 2)]!;
      // Not a time: the server before gave 0-2 answers between reports (a median of 1-2), this one
      // 9-16 (10-15 with two busy processes beside it on this 2-core machine).
      expect(median).toBeGreaterThanOrEqual(5);
    } finally {
      client.dispose();
    }
  }, 300_000);
});

describe('a start served by the scan cache', () => {
  const files = workspaceFiles(120);
  const ws = new TempWorkspace(files);
  const storage = mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-test-'));
  afterAll(() => {
    ws.remove();
    rmSync(storage, { recursive: true, force: true });
  });

  /** Opens an fstab as soon as the server is initialized, edits it when the workspace is read, and pulls its diagnostics. */
  async function editAfterStart(storagePath: string) {
    const client = new LspClient();
    try {
      await client.initialize({ rootUri: ws.uri, capabilities: CAPABILITIES, initializationOptions: { storagePath } });
      const fstab = Object.keys(files).find((p) => p.endsWith('etc/fstab'))!;
      const uri = ws.uriOf(fstab);
      client.open(uri, files[fstab]!, 'fstab');
      await client.indexed(120_000);
      const line = files[fstab]!.split('\n').length - 1;
      client.change(uri, [
        {
          range: { start: { line, character: 0 }, end: { line, character: 0 } },
          text: '10.0.0.4:/x /mnt/x nfs soft 0 0\n',
        },
      ]);
      const report = await client.request<{ items: { code: string; message: string; range: unknown }[] }>(
        'textDocument/diagnostic',
        { textDocument: { uri } },
      );
      return { findings: report.items.map((d) => [d.code, d.message, d.range]), logs: [...client.logs] };
    } finally {
      client.dispose();
    }
  }

  it('is written a while after the scan: a pull that comes right after the scan is answered first', async () => {
    const client = new LspClient();
    const storagePath = mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-later-'));
    try {
      await client.initialize({ rootUri: ws.uri, capabilities: CAPABILITIES, initializationOptions: { storagePath } });
      await client.until(() => client.logs.some((l) => /checked \d+ files/.test(l)), 120_000, 'the scan');
      const { items } = await client.request<{ items: Report[] }>('workspace/diagnostic', { previousResultIds: [] });
      expect(items.length).toBe(Object.keys(files).length);
      // Written at the scan's end, the cache (170 ms on 1,000 files) held this answer.
      expect(client.logs.filter((l) => /scan cache (written|unchanged|not written)/.test(l))).toEqual([]);
      await client.until(() => client.logs.some((l) => /scan cache written/.test(l)), 60_000, 'the cache');
    } finally {
      client.dispose();
      rmSync(storagePath, { recursive: true, force: true });
    }
  }, 600_000);

  it('parses on first need: an edit right after the start gives the findings of a start without cache', async () => {
    const total = Object.keys(files).length;
    await scan(ws.uri, storage, total);
    const warm = await editAfterStart(storage);
    expect(warm.logs.join('\n')).toMatch(/files parsed later/);
    const fresh = await editAfterStart(mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-none-')));
    expect(fresh.logs.join('\n')).not.toMatch(/files parsed later/);
    expect(warm.findings).toEqual(fresh.findings);
  }, 600_000);
});

describe('watched-file events under load', () => {
  const ws = new TempWorkspace({
    'etc/fstab': '10.0.0.4:/vol1 /mnt/vol1 nfs soft,vers=3 0 0\n',
    ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`h${i}/etc/fstab`, '10.0.0.4:/v /m nfs hard 0 0\n'])),
  });
  afterAll(() => ws.remove());

  it('20,000 changes in one notification: requests are answered meanwhile, and the index keeps its bound', async () => {
    const { client } = await LspClient.startIndexed({
      rootUri: ws.uri,
      capabilities: CAPABILITIES,
      initializationOptions: { index: { maxFiles: 10 } },
    });
    try {
      // 20,000 events for the ten indexed files (as a branch switch or a formatter run gives), and
      // five new files on disk past the bound of 10.
      for (let i = 0; i < 5; i++) ws.write(`new${i}/etc/fstab`, '10.0.0.4:/n /n nfs soft 0 0\n');
      const indexed = ['etc/fstab', ...Array.from({ length: 9 }, (_, i) => `h${i}/etc/fstab`)];
      const changes = [
        ...Array.from({ length: 19_995 }, (_, i) => ({ uri: ws.uriOf(indexed[i % 10]!), type: 2 })),
        ...Array.from({ length: 5 }, (_, i) => ({ uri: ws.uriOf(`new${i}/etc/fstab`), type: 1 })),
      ];
      client.notify('workspace/didChangeWatchedFiles', { changes });
      const asked = Date.now();
      await client.request('textDocument/hover', {
        textDocument: { uri: ws.uriOf('etc/fstab') },
        position: { line: 0, character: 20 },
      });
      expect(Date.now() - asked).toBeLessThan(10_000);
      await client.until(() => client.logs.some((l) => /holds its bound of 10 files/.test(l)), 120_000, 'the bound');
      const { items } = await client.request<{ items: Report[] }>('workspace/diagnostic', { previousResultIds: [] });
      expect(items.map((i) => i.uri).filter((u) => u.includes('/new'))).toEqual([]);
      expect(items.length).toBe(10);
    } finally {
      client.dispose();
    }
  }, 300_000);
});
