import { parseConfigFile } from '../configFile';
import { SourceText } from '../text/sourceText';
import { reparseManifest } from '../manifest/incremental';
import { parseManifest } from '../manifest/parse';
import { extractMounts } from '../mounts/extract';
import { extractKernelSettings } from '../sysctl/extract';
import { readIac, IAC_KINDS } from '../iac/read';
import { detectFileKind, type FileKind } from './fileKind';
import type { ParsedFile, ParseProblem } from './parsedFile';

const MOUNT_KINDS: ReadonlySet<FileKind> = new Set(['fstab', 'shell', 'markdown', 'systemd-mount', 'autofs', 'ansible', 'ansible-vars', 'cloud-init', 'kubernetes', 'helm', 'yaml-options', 'json-options', 'rst']);
const KERNEL_KINDS: ReadonlySet<FileKind> = new Set(['sysctl', 'modprobe', 'shell', 'tuned', 'saptune', 'markdown', 'rst', 'cloud-init', 'ansible']);

export function isLintable(kind: FileKind): boolean {
  return IAC_KINDS.has(kind) || kind === 'manifest-yaml' || kind === 'anf-lint-config' || kind === 'manifest-json' || MOUNT_KINDS.has(kind) || KERNEL_KINDS.has(kind);
}

/** Parses one document into everything rules read. The one place that dispatches on file kind. */
export function parseFile(uri: string, text: string, version = 0, kind: FileKind = detectFileKind(uri, text), previous?: ParsedFile): ParsedFile {
  const source = new SourceText(text);
  const problems: ParseProblem[] = [];
  let manifest: ParsedFile['manifest'];
  let volumes: ParsedFile['volumes'] = [];
  let mounts: ParsedFile['mounts'] = [];
  let settings: ParsedFile['settings'] = [];
  let lastWellFormed: ParsedFile | undefined;
  let iac: ParsedFile['iac'];

  if (kind === 'manifest-yaml' || kind === 'manifest-json') {
    // After a small edit of the same manifest, only the edited volume is read again (incremental.ts).
    const reusable = previous?.kind === kind && kind === 'manifest-yaml' ? previous : undefined;
    const parsed = (reusable && reparseManifest(reusable, source, uri)) ?? parseManifest(source, uri, kind === 'manifest-json' ? 'json' : 'yaml');
    if (reusable && parsed.manifest?.syntaxErrors) lastWellFormed = reusable.manifest?.syntaxErrors ? reusable.lastWellFormed : reusable;
    manifest = parsed.manifest;
    volumes = parsed.volumes;
    append(problems, parsed.problems);
  }
  if (IAC_KINDS.has(kind)) {
    const parsed = readIac(source, uri, kind);
    manifest = parsed.manifest;
    volumes = parsed.volumes ?? [];
    iac = parsed.estate;
    append(problems, parsed.problems);
  }
  if (kind === 'anf-lint-config') append(problems, parseConfigFile(text).problems);
  if (MOUNT_KINDS.has(kind)) {
    const extracted = extractMounts(source, uri, kind);
    mounts = extracted.mounts;
    append(problems, extracted.problems);
  }
  if (KERNEL_KINDS.has(kind)) {
    const extracted = extractKernelSettings(source, uri, kind);
    settings = extracted.settings;
    append(problems, extracted.problems);
  }
  return { uri, kind, version, source, problems, ...(manifest ? { manifest } : {}), volumes, mounts, settings, ...(lastWellFormed ? { lastWellFormed } : {}), ...(iac ? { iac } : {}) };
}

/** Appends one by one: spreading 100k+ problems (a large malformed file) into push() overflows the stack. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
