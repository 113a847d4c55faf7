import type { SourceText } from '../text/sourceText';
import type { FileKind } from '../workspace/fileKind';
import type { ParseProblem } from '../workspace/parsedFile';
import type { KernelSetting } from './model';

export interface KernelSettingExtraction {
  readonly settings: readonly KernelSetting[];
  readonly problems: readonly ParseProblem[];
}

/** Finds kernel settings in sysctl files, modprobe.d, shell scripts and tuned profiles. Never throws. */
export function extractKernelSettings(_source: SourceText, _uri: string, _kind: FileKind): KernelSettingExtraction {
  return { settings: [], problems: [] };
}
