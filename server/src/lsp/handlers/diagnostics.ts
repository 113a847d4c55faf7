/**
 * Pull diagnostics: `textDocument/diagnostic` and `workspace/diagnostic`, offered only to clients
 * that support them (the others get `publishDiagnostics`, never both). A file's result id changes
 * when its text, a file it reads or the configuration changes; otherwise it is reported unchanged.
 */
import {
  DocumentDiagnosticReportKind,
  type CancellationToken,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import { toLspDiagnostic } from '../convert';
import { WORKSPACE_DIAGNOSTIC_HOLD_MS } from '../limits';
import type { Session } from '../session';

export function documentDiagnostics(session: Session, params: DocumentDiagnosticParams): DocumentDiagnosticReport {
  const id = session.resultId(params.textDocument.uri);
  if (params.previousResultId === id) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId: id };
  return {
    kind: DocumentDiagnosticReportKind.Full,
    resultId: id,
    items: session.visibleDiagnostics(params.textDocument.uri).map(toLspDiagnostic),
  };
}

function report(session: Session, uri: string, previous: Map<string, string>): WorkspaceDocumentDiagnosticReport {
  const id = session.resultId(uri);
  const version = session.open.get(uri)?.version ?? null;
  if (previous.get(uri) === id) return { kind: DocumentDiagnosticReportKind.Unchanged, uri, version, resultId: id };
  return {
    kind: DocumentDiagnosticReportKind.Full,
    uri,
    version,
    resultId: id,
    items: session.visibleDiagnostics(uri).map(toLspDiagnostic),
  };
}

/**
 * Every known file's diagnostics. When nothing changed since the client's last pull, the request
 * is held until something does (or for a bounded time), as the protocol's long poll intends.
 */
export async function workspaceDiagnostics(
  session: Session,
  params: WorkspaceDiagnosticParams,
  token: CancellationToken,
): Promise<WorkspaceDiagnosticReport> {
  const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
  // During a long scan the answer holds the files checked so far that the client has not seen,
  // and leaves at the scan's next progress report; the client asks again for the rest. The scan
  // runs in slices, so other requests are answered meanwhile, and files come from its results
  // instead of being checked here at once. One answer at the scan's end held every file
  // (megabytes on 1,000 files): encoding, writing and reading it took most of a second after the
  // scan; now that overlaps the scan and the last answer is small.
  const duringScan = async (): Promise<WorkspaceDiagnosticReport | undefined> => {
    while (session.scanning && !token.isCancellationRequested) {
      // A short scan (the scan cache's, a few hundred ms) is held for one answer: answers in
      // pieces then only added round trips, each piece written between the background parse's slices.
      if (!session.scanIsLong()) {
        await session.nextChange();
        continue;
      }
      const ready = session
        .knownUris()
        .filter((uri) => session.hasDiagnostics(uri) && previous.get(uri) !== session.resultId(uri));
      if (ready.length > 0) return { items: ready.map((uri) => report(session, uri, previous)) };
      await session.nextChange();
    }
    return undefined;
  };
  const partial = await duringScan();
  if (partial) return partial;
  const allSeen = previous.size > 0 && session.knownUris().every((uri) => previous.get(uri) === session.resultId(uri));
  if (allSeen) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, WORKSPACE_DIAGNOSTIC_HOLD_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      void session.nextChange().then(done);
      token.onCancellationRequested(done);
    });
    // What woke it may be the workspace read, which starts a scan: its results, not all files at once here.
    const scanned = await duringScan();
    if (scanned) return scanned;
  }
  // An edit that came before its project was parsed (and woke this poll): the project is parsed in slices first.
  await session.editsApplied();
  return { items: session.knownUris().map((uri) => report(session, uri, previous)) };
}
