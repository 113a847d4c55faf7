import type { SourceText } from '../text/sourceText';
import type { FileKind } from '../fileKind';
import type { ParseProblem } from '../diagnostics';
import { annotateNewMount, annotationFor, LineCursor, readAnnotations } from './annotation';
import { parseAutofsMap } from './autofs';
import { parseFstab } from './fstab';
import { parseMarkdown } from './markdown';
import type { MountEntry } from './model';
import { shellMounts } from './shellMounts';
import { parseSystemdMount } from './systemd';
import { parseAnsible, parseCloudInit } from './yamlHosts';
import { lineOptionStrings, shellOptionStrings, yamlOptionStrings } from './contentStrings';
import { markdownOptionStrings } from './markdown';
import { parseRst } from './rst';
import { parseSalt } from './salt';
import { parsePuppet } from './puppet';
import { parseChef } from './chef';
import { parseKubernetes } from './kubernetes';
import { terraformScriptMounts } from './terraformScripts';

export interface MountExtraction {
  readonly mounts: readonly MountEntry[];
  readonly problems: readonly ParseProblem[];
}

/**
 * Finds the mounts in any host format (fstab, shell, Markdown, systemd, autofs, Ansible, cloud-init).
 * A reader bug throws: parseFile reports it as ANF003 on the file instead of a silently clean file.
 */
export function extractMounts(source: SourceText, uri: string, kind: FileKind): MountExtraction {
  const problems: ParseProblem[] = [];
  const mounts: MountEntry[] = extractByKind(source, uri, kind, problems);
  for (const entry of byContent(source, uri, kind, mounts)) mounts.push(entry);
  // Terraform's `# anf:` annotations belong to its resources (iac/common.ts reads them, with keys of their own).
  if (kind === 'terraform') return { mounts, problems };
  const annotations = readAnnotations(source, problems);
  if (annotations.size > 0) {
    // A systemd unit is one mount: an annotation anywhere in it applies.
    const fileWide = kind === 'systemd-mount' ? [...annotations.values()].find((a) => a.workload) : undefined;
    // The parsers above made these mounts for this call: annotate them in place (no copies).
    // Mounts come mostly in order: their lines from one walk of the line-start table.
    const lines = new LineCursor(source);
    for (const mount of mounts) annotateNewMount(mount, source, annotations, fileWide, lines);
  }
  return { mounts, problems };
}

function extractByKind(source: SourceText, uri: string, kind: FileKind, problems: ParseProblem[]): MountEntry[] {
  switch (kind) {
    case 'fstab':
      return parseFstab(source, uri, problems);
    case 'shell':
      return shellMounts(source.text, { uri, host: 'shell', problems });
    case 'markdown':
      return parseMarkdown(source, uri, problems);
    case 'systemd-mount':
      return parseSystemdMount(source, uri, problems);
    case 'autofs':
      return parseAutofsMap(source, uri, problems);
    case 'ansible':
      return parseAnsible(source, uri, problems);
    case 'cloud-init':
      return parseCloudInit(source, uri, problems);
    case 'rst':
      return parseRst(source, uri, problems);
    case 'salt':
      return parseSalt(source, uri, problems);
    case 'kubernetes':
      return parseKubernetes(source, uri, problems);
    case 'puppet':
      return parsePuppet(source, uri, problems);
    case 'terraform':
      return terraformScriptMounts(source, uri, problems);
    case 'chef':
      return parseChef(source, uri, problems);
    default:
      return [];
  }
}

/** Option strings found by their content (optionStrings.ts) where the position said nothing. */
function byContent(source: SourceText, uri: string, kind: FileKind, found: readonly MountEntry[]): MountEntry[] {
  switch (kind) {
    case 'ansible':
    case 'ansible-vars':
      return yamlOptionStrings(source, uri, 'ansible', found);
    case 'cloud-init':
      return yamlOptionStrings(source, uri, 'cloud-init', found);
    case 'kubernetes':
      return yamlOptionStrings(source, uri, 'kubernetes', found);
    case 'yaml-options':
    case 'ci-pipeline':
      return yamlOptionStrings(source, uri, 'yaml', found);
    case 'json-options':
      // JSON is YAML 1.2: the same reader, with offsets in the JSON text.
      return yamlOptionStrings(source, uri, 'json', found);
    case 'helm':
      return source.text.includes('{{')
        ? lineOptionStrings(source, uri, 'helm', found)
        : yamlOptionStrings(source, uri, 'helm', found);
    case 'shell':
      return shellOptionStrings(source.text, uri, 'shell', found);
    case 'markdown':
    case 'rst':
      return markdownOptionStrings(source, uri, kind, found);
    default:
      return [];
  }
}

export { annotationFor };
