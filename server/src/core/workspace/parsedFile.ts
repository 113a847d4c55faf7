import type { SourceText } from '../text/sourceText';
import type { MountEntry } from '../mounts/model';
import type { KernelSetting } from '../sysctl/model';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { ManifestDocument } from '../manifest/model';
import type { FileKind } from '../fileKind';
import type { IacEstate } from '../iac/estate';
import type { Span } from '../text/sourceText';
import type { PerfTestFile } from '../perftest/model';
import type { MountstatsCapture } from '../mountstats/parse';

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
  /** A performance-test job file (fio, vdbench): its jobs, for the ANF5xx rules, hover and inlay hints. */
  readonly perftest?: PerfTestFile;
  /** A captured `/proc/self/mountstats` of the host whose folder holds it (or the live one, `anf-lint host`). */
  readonly mountstats?: MountstatsCapture;
  /** Read from the previous version of the document by re-reading only the edited lines (workspace/lineReuse.ts). */
  readonly lineEdit?: LineEdit;
}

/** What a line-based file's items are: mounts (fstab) or kernel settings (sysctl files). */
export type LineItem = MountEntry | KernelSetting;

/**
 * How a file was read from the previous version of the same document. The previous version's
 * items (mounts of an fstab, settings of a sysctl file) after the edit are this file's too, with
 * their offsets moved in place: the previous ParsedFile no longer describes its own text once a
 * newer one is read from it (the workspace replaces it at once; nothing else may keep it).
 */
export interface LineEdit {
  /** The previous version's item list (not the file: versions must not keep each other alive). */
  readonly previousItems: readonly LineItem[];
  /** `items[from, to)` were read again; every other item is an object of `previous`. */
  readonly itemsFrom: number;
  readonly itemsTo: number;
  /** The previous version's items that the re-read ones replace. */
  readonly removed: readonly LineItem[];
  /** Where the re-read text is, in the new text, and how far everything after it moved. */
  readonly changed: Span;
  readonly delta: number;
  /**
   * A shell script's items are its mounts and settings together (shellReuse.ts `shellItems`): the
   * same edit over the mount list alone, when its re-read mounts are one run of that list (the
   * mount rules' indexes update from it: mounts/rules/firstMounts.ts `mountEditOf`).
   */
  readonly mounts?: LineEdit;
}
