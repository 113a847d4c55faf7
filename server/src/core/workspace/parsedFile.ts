import type { SourceText } from '../text/sourceText';
import type { MountEntry } from '../mounts/model';
import type { KernelSetting } from '../sysctl/model';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { ManifestDocument } from '../manifest/model';
import type { FileKind } from '../fileKind';
import type { IacEstate } from '../iac/estate';

/** Defined with the findings (diagnostics.ts), a leaf the readers import; re-exported here for the rules. */
export type { ParseProblem } from '../diagnostics';
import type { ParseProblem } from '../diagnostics';

/** One document after parsing: everything rules read, with offsets into `source`. */
export interface ParsedFile {
  readonly uri: string;
  readonly kind: FileKind;
  readonly version: number;
  readonly source: SourceText;
  readonly problems: readonly ParseProblem[];
  readonly manifest?: ManifestDocument;
  readonly volumes: readonly VolumeSummary[];
  readonly mounts: readonly MountEntry[];
  readonly settings: readonly KernelSetting[];
  /** A manifest with YAML syntax errors: its last version without any, for re-reading after the next edit. */
  readonly lastWellFormed?: ParsedFile;
  /** Infrastructure code (Terraform, Bicep, ARM, az output): the estate as read, for the ANF4xx rules. */
  readonly iac?: IacEstate;
}
