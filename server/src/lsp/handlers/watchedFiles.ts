/** `workspace/didChangeWatchedFiles`, registered dynamically for the files the index keeps. */
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type DidChangeWatchedFilesParams,
} from 'vscode-languageserver';
import type { Session } from '../session';

/** Glob patterns for every file kind anf-lint reads (see core/workspace/fileKind.ts). */
export const WATCHED_GLOBS = [
  '**/*.anf.{yaml,yml,json}',
  '**/.anf-lint.{yaml,yml}',
  '**/fstab*',
  '**/*.fstab',
  '**/*.mount',
  '**/auto.*',
  '**/*.conf',
  '**/*.{sh,bash}',
  '**/*.{md,markdown}',
  '**/*.{yaml,yml}',
  '**/*.{tf,tfvars,bicep}',
  '**/*.json',
];

export async function registerFileWatchers(session: Session): Promise<void> {
  if (!session.support.watchedFilesRegistration) {
    session.log(
      'anf-lint: the client cannot watch files for us; files changed outside the editor are re-read only when opened.',
    );
    return;
  }
  await session.connection.client.register(DidChangeWatchedFilesNotification.type, {
    watchers: WATCHED_GLOBS.map((globPattern) => ({ globPattern })),
  });
}

/** Queued and applied in slices (Session.queueDiskChanges): the notification returns at once. */
export function didChangeWatchedFiles(session: Session, params: DidChangeWatchedFilesParams): void {
  const changes = Array.isArray(params?.changes) ? params.changes : [];
  session.queueDiskChanges(
    changes
      .filter((change) => typeof change?.uri === 'string' && session.wouldIndex(change.uri))
      .map((change) => ({ uri: change.uri, deleted: change.type === FileChangeType.Deleted })),
  );
}
