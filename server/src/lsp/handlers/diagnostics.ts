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
 *
 * While the workspace is read and checked, the answer follows the scan. A client that passes a
 * `partialResultToken` (VS Code's does, with every pull) gets the files as they are checked, in
 * `$/progress` notifications on that token, and the request ends with the scan, its own result
 * empty as the protocol asks once parts were sent. A client without one gets the files checked so
 * far as the answer and asks again for the rest. VS Code asks again only 2 s after an answer, so
 * answers in pieces left it 2 s behind the scan for each piece (bench/notes.md, session 16).
 */
export async function workspaceDiagnostics(
  session: Session,
  params: WorkspaceDiagnosticParams,
  token: CancellationToken,
): Promise<WorkspaceDiagnosticReport> {
  const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
  const partialToken = params.partialResultToken;
  let sentParts = false;
  /** Sends these files' reports as part of the result; the client now holds their result ids. */
  const sendPart = (uris: readonly string[]) => {
    const items = uris.map((uri) => report(session, uri, previous));
    for (const item of items) previous.set(item.uri, item.resultId!);
    session.sendPartialResult(partialToken!, { items });
    sentParts = true;
  };
  const unseen = () => session.knownUris().filter((uri) => previous.get(uri) !== session.resultId(uri));
  // During a long scan, without a token, the answer holds the files checked so far that the client
  // has not seen, and leaves at the scan's next progress report. The scan runs in slices, so other
  // requests are answered meanwhile, and files come from its results instead of being checked here
  // at once. One answer at the scan's end held every file (megabytes on 1,000 files): encoding,
  // writing and reading it took most of a second after the scan; now that overlaps the scan.
  const duringScan = async (): Promise<WorkspaceDiagnosticReport | undefined> => {
    while (!token.isCancellationRequested) {
      if (partialToken !== undefined ? !session.scanPending : !session.scanning) break;
      // A short scan (the scan cache's, a few hundred ms) is held for one answer: answers in
      // pieces then only added round trips, each piece written between the background parse's
      // slices. Parts on a token cost no round trip: they go at every progress report.
      if (partialToken === undefined && !session.scanIsLong()) {
        await session.nextChange();
        continue;
      }
      const ready = session
        .knownUris()
        .filter((uri) => session.hasDiagnostics(uri) && previous.get(uri) !== session.resultId(uri));
      if (ready.length > 0) {
        if (partialToken === undefined) return { items: ready.map((uri) => report(session, uri, previous)) };
        sendPart(ready);
      }
      await changeOrTimeout(session, token);
    }
    return undefined;
  };
  /** After parts were sent: the rest as a last part, and the request's own result empty. */
  const lastPart = async (): Promise<WorkspaceDiagnosticReport> => {
    await session.editsApplied();
    const rest = unseen();
    if (rest.length > 0 && !token.isCancellationRequested) sendPart(rest);
    return { items: [] };
  };
  const piece = await duringScan();
  if (piece) return piece;
  if (sentParts) return lastPart();
  const allSeen = previous.size > 0 && session.knownUris().every((uri) => previous.get(uri) === session.resultId(uri));
  if (allSeen) {
    await changeOrTimeout(session, token);
    // What woke it may be the workspace read, which starts a scan: its results, not all files at once here.
    const scanned = await duringScan();
    if (scanned) return scanned;
    if (sentParts) return lastPart();
  }
  // An edit that came before its project was parsed (and woke this poll): the project is parsed in slices first.
  await session.editsApplied();
  return { items: session.knownUris().map((uri) => report(session, uri, previous)) };
}

/** Resolves at the session's next change, at cancellation, or after the long poll's bound. */
function changeOrTimeout(session: Session, token: CancellationToken): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      cancelled.dispose();
      resolve();
    };
    const timer = setTimeout(done, WORKSPACE_DIAGNOSTIC_HOLD_MS);
    const cancelled = token.onCancellationRequested(done);
    void session.nextChange().then(done);
  });
}
