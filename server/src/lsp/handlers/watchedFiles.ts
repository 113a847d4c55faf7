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

export async function didChangeWatchedFiles(session: Session, params: DidChangeWatchedFilesParams): Promise<void> {
  for (const change of params.changes) {
    if (!session.wouldIndex(change.uri)) continue;
    await session.diskChanged(change.uri, change.type === FileChangeType.Deleted);
  }
}
