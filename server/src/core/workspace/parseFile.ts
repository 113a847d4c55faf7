import { parseConfigFile } from '../configFile';
import { SourceText } from '../text/sourceText';
import { reparseManifest } from '../manifest/incremental';
import { parseManifest } from '../manifest/parse';
import { extractMounts } from '../mounts/extract';
import { extractKernelSettings } from '../sysctl/extract';
import { readIac, IAC_KINDS } from '../iac/read';
import { detectFileKind, type FileKind, kindsReading } from '../fileKind';
import type { LineEdit, ParsedFile, ParseProblem } from './parsedFile';
import { MOUNT_LINE_KINDS, rereadMountLines, rereadSettings } from './lineReuse';
import { readShellScript } from './shellReuse';
import { readFio } from '../perftest/fio';
import { readVdbench } from '../perftest/vdbench';
import type { PerfTestFile } from '../perftest/model';
import { parseMountstats, type MountstatsCapture } from '../mountstats/parse';
import { dropRequirementKeyProblems, readScriptEstate, SCRIPT_ESTATE_KINDS } from '../iac/scripts';

/** Reported when a reader throws (rules/general/ANF003-parser-failure.ts). */
export const PARSER_FAILURE = 'ANF003';

const MOUNT_KINDS = kindsReading('mounts');
const KERNEL_KINDS = kindsReading('kernel');

export function isLintable(kind: FileKind): boolean {
  return (
    IAC_KINDS.has(kind) ||
    SCRIPT_ESTATE_KINDS.has(kind) ||
    kind === 'manifest-yaml' ||
    kind === 'anf-lint-config' ||
    kind === 'manifest-json' ||
    kind === 'fio' ||
    kind === 'vdbench' ||
    kind === 'mountstats' ||
    MOUNT_KINDS.has(kind) ||
    KERNEL_KINDS.has(kind)
  );
}

/** Parses one document into everything rules read. The one place that dispatches on file kind. */
export function parseFile(
  uri: string,
  text: string,
  version = 0,
  kind: FileKind = detectFileKind(uri, text),
  previous?: ParsedFile,
): ParsedFile {
  // A new version of an open document: its line index is the previous one's, rescanned where the edit was.
  const source = previous ? SourceText.edited(previous.source, text) : new SourceText(text);
  const problems: ParseProblem[] = [];
  let manifest: ParsedFile['manifest'];
  let volumes: ParsedFile['volumes'] = [];
  let mounts: ParsedFile['mounts'] = [];
  let settings: ParsedFile['settings'] = [];
  let lastWellFormed: ParsedFile | undefined;
  let iac: ParsedFile['iac'];
  let lineEdit: LineEdit | undefined;
  let perftest: PerfTestFile | undefined;
  let mountstats: MountstatsCapture | undefined;

  // A reader that throws leaves the file unchecked: say so (ANF003) instead of a silently clean file.
  const guarded = (what: string, read: () => void): void => {
    try {
      read();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      problems.push({
        code: PARSER_FAILURE,
        span: { start: 0, end: 0 },
        message: `anf-lint's ${what} reader failed on this file, so it was not checked for ${what} problems: ${message}`,
      });
    }
  };

  if (kind === 'manifest-yaml' || kind === 'manifest-json')
    guarded('manifest', () => {
      // After a small edit of the same manifest, only the edited volume is read again (incremental.ts).
      const reusable = previous?.kind === kind && kind === 'manifest-yaml' ? previous : undefined;
      const parsed =
        (reusable && reparseManifest(reusable, source, uri)) ??
        parseManifest(source, uri, kind === 'manifest-json' ? 'json' : 'yaml');
      if (reusable && parsed.manifest?.syntaxErrors)
        lastWellFormed = reusable.manifest?.syntaxErrors ? reusable.lastWellFormed : reusable;
      manifest = parsed.manifest;
      volumes = parsed.volumes;
      append(problems, parsed.problems);
    });
  if (IAC_KINDS.has(kind))
    guarded('infrastructure-code', () => {
      // An open document (the editor's version, above 0) is read incrementally from its last version.
      const parsed = readIac(source, uri, kind, version > 0);
      manifest = parsed.manifest;
      volumes = parsed.volumes ?? [];
      iac = parsed.estate;
      append(problems, parsed.problems);
    });
  // Estate commands written in scripts, docs, pipelines and Kubernetes files (`az netappfiles ...`):
  // read besides the file's mounts; a file without any keeps no estate.
  if (SCRIPT_ESTATE_KINDS.has(kind))
    guarded('infrastructure-code', () => {
      const parsed = readScriptEstate(source, uri, kind);
      if (!parsed) return;
      manifest = parsed.manifest;
      volumes = parsed.volumes ?? [];
      iac = parsed.estate;
      append(problems, parsed.problems);
    });
  if (kind === 'fio' || kind === 'vdbench')
    guarded('performance-test', () => {
      const read = kind === 'fio' ? readFio(text) : readVdbench(text);
      perftest = read.file;
      append(problems, read.problems);
    });
  if (kind === 'mountstats')
    guarded('mountstats', () => {
      mountstats = parseMountstats(text);
    });
  if (kind === 'anf-lint-config') guarded('configuration', () => append(problems, parseConfigFile(text).problems));
  // A shell script in the editor: after an edit, only the commands it touched are read again (shellReuse.ts).
  const shell = kind === 'shell' && version > 0 ? readShellScript(source, uri, previous) : undefined;
  if (shell) lineEdit = shell.edit;
  if (MOUNT_KINDS.has(kind))
    guarded('mount', () => {
      if (shell) {
        mounts = shell.mounts;
        append(problems, shell.mountProblems);
        return;
      }
      // After an edit of the same fstab or autofs map, only the edited lines are read again (lineReuse.ts).
      const reread =
        previous?.kind === kind && MOUNT_LINE_KINDS.has(kind) ? rereadMountLines(previous, source, uri) : undefined;
      if (reread) {
        mounts = reread.mounts;
        lineEdit = reread.edit;
        append(problems, reread.problems);
        return;
      }
      const extracted = extractMounts(source, uri, kind);
      mounts = extracted.mounts;
      append(problems, extracted.problems);
    });
  if (KERNEL_KINDS.has(kind))
    guarded('kernel-setting', () => {
      if (shell) {
        settings = shell.settings;
        append(problems, shell.kernelProblems);
        return;
      }
      // After an edit of the same sysctl or modprobe.d file, only the edited lines are read again (lineReuse.ts).
      const reread =
        previous?.kind === kind && (kind === 'sysctl' || kind === 'modprobe')
          ? rereadSettings(previous, source, uri)
          : undefined;
      if (reread) {
        settings = reread.settings;
        lineEdit = reread.edit;
        append(problems, reread.problems);
        return;
      }
      const extracted = extractKernelSettings(source, uri, kind);
      settings = extracted.settings;
      append(problems, extracted.problems);
    });
  // `# anf: throughput=...` above an estate command is its requirement, not an unknown mount annotation key.
  if (iac && SCRIPT_ESTATE_KINDS.has(kind)) dropRequirementKeyProblems(problems, iac);
  return {
    uri,
    kind,
    version,
    source,
    problems,
    ...(manifest ? { manifest } : {}),
    volumes,
    mounts,
    settings,
    ...(lastWellFormed ? { lastWellFormed } : {}),
    ...(iac ? { iac } : {}),
    ...(lineEdit ? { lineEdit } : {}),
    ...(perftest ? { perftest } : {}),
    ...(mountstats ? { mountstats } : {}),
  };
}

/** Appends one by one: spreading 100k+ problems (a large malformed file) into push() overflows the stack. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
