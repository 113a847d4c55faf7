/**
 * A second thread for the first scan (issue 29): on a start without the scan cache, the main thread
 * parsed the whole project (about 1.4 s on 1,000 files) and then checked every file (about 1.7 s),
 * one after the other on one core. The worker reads the same project from the same texts and
 * configuration and checks the last part of the scan's files, while the main thread parses and
 * checks the first part: on two cores the whole workspace is checked in about the time of one
 * parse and part of the checks. Both threads run the same core on the same inputs, so a finding
 * is the one the main thread (and the CLI) would give; the session keeps a worker's result only
 * when nothing changed since the worker was given its inputs, and checks anything else itself.
 *
 * The worker runs the server bundle itself (`main.ts` starts the worker's loop instead of the
 * server when it runs in a worker with `workerData.anfLintScan`).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { lintFile, Workspace, type AnfLintConfig, type Diagnostic } from '../core';
import { readFolderConfigs } from './folderConfig';

/** What the worker is given: everything a file's findings depend on, as the session holds it. */
export interface ScanWorkerInput {
  readonly folders: readonly string[];
  /** The configuration files the session reads (open documents' text over the disk's). */
  readonly configFiles: readonly { uri: string; text: string }[];
  readonly editorSettings: AnfLintConfig;
  /** The project's files in the order its Workspace holds them. */
  readonly files: readonly { uri: string; text: string; version: number }[];
  /** The files to check, in this order. */
  readonly check: readonly string[];
}

/**
 * A batch of results as JSON (`{ uri, diagnostics }[]`), then `null` when the worker checked every
 * file it was given. JSON, as the scan cache keeps them: a result read back is the plain data a
 * restart served by the cache reports, whatever objects the engine built it from.
 */
type ScanWorkerMessage = string | null;

/** How often the worker sends what it checked (the session reports it while the scan goes on). */
const BATCH_MS = 50; // not a fact: pacing of the worker's messages

const WORKER_DATA_KEY = 'anfLintScan';

/** Whether this thread is a scan worker (main.ts runs `runScanWorker` then, not the server). */
export function isScanWorker(): boolean {
  return !isMainThread && typeof workerData === 'object' && workerData !== null && WORKER_DATA_KEY in workerData;
}

/** The worker's side: read the project, check the files asked, send the results in batches. */
export function runScanWorker(): void {
  const input = (workerData as Record<string, ScanWorkerInput>)[WORKER_DATA_KEY] as ScanWorkerInput;
  const configs = readFolderConfigs(input.folders, input.configFiles, input.editorSettings);
  const workspace = new Workspace((uri) => configs.configFor(uri));
  for (const file of input.files) workspace.setLater(file.uri, file.text, file.version);
  let batch: { uri: string; diagnostics: readonly Diagnostic[] }[] = [];
  let sent = performance.now();
  for (const uri of input.check) {
    let diagnostics: Diagnostic[];
    try {
      diagnostics = lintFile(workspace, uri, configs.configFor(uri));
    } catch {
      continue; // the session checks a file the worker gives no result for
    }
    batch.push({ uri, diagnostics });
    if (performance.now() - sent >= BATCH_MS) {
      parentPort?.postMessage(JSON.stringify(batch) satisfies ScanWorkerMessage);
      batch = [];
      sent = performance.now();
    }
  }
  parentPort?.postMessage(JSON.stringify(batch) satisfies ScanWorkerMessage);
  parentPort?.postMessage(null satisfies ScanWorkerMessage);
}

/** The script a worker runs: the server bundle, once its entry (main.ts) says where it is. */
let workerScript: string | undefined;

export function setScanWorkerScript(script: string): void {
  workerScript = script;
}

/** Whether a scan worker can be started (the server runs from its bundle). */
export function scanWorkerAvailable(): boolean {
  return workerScript !== undefined;
}

/**
 * The session's side: starts a worker on `input`; `onResults` gets each batch, and `done` resolves
 * when the worker has sent everything, failed or was stopped.
 */
export class ScanWorker {
  private readonly worker: Worker;
  readonly done: Promise<void>;

  constructor(
    input: ScanWorkerInput,
    onResults: (results: readonly { uri: string; diagnostics: readonly Diagnostic[] }[]) => void,
    onError: (message: string) => void,
  ) {
    if (!workerScript) throw new Error('no scan worker script');
    this.worker = new Worker(workerScript, { workerData: { [WORKER_DATA_KEY]: input } });
    this.done = new Promise<void>((resolve) => {
      this.worker.on('message', (message: ScanWorkerMessage) => {
        if (message === null) {
          resolve();
          void this.worker.terminate();
        } else onResults(JSON.parse(message) as { uri: string; diagnostics: readonly Diagnostic[] }[]);
      });
      this.worker.on('error', (error) => {
        onError(error instanceof Error ? error.message : String(error));
        resolve();
      });
      this.worker.on('exit', () => resolve());
    });
  }

  stop(): void {
    void this.worker.terminate();
  }
}
