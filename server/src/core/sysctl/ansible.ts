import { isMap, isScalar, isSeq, type Scalar, type YAMLMap } from 'yaml';
import { parseYaml, scalarContent } from '../mounts/yamlHosts';
import type { SourceText } from '../text/sourceText';
import { parseModprobeLine, parseSysctlLine, type Sink } from './lines';
import { contiguousPiece, isTemplated, normalizeSysctlKey } from './piece';
import { isModprobeFilePath, isSysctlFilePath } from './shell';

const SYSCTL_MODULES = new Set(['sysctl', 'ansible.posix.sysctl']);
/** Modules whose body is a file's content: the body is read as that file. */
const BODY_KEYS: Record<string, string> = {
  blockinfile: 'block',
  'ansible.builtin.blockinfile': 'block',
  copy: 'content',
  'ansible.builtin.copy': 'content',
  lineinfile: 'line',
  'ansible.builtin.lineinfile': 'line',
};

function get(map: YAMLMap, name: string): unknown {
  return map.items.find((p) => isScalar(p.key) && p.key.value === name)?.value;
}

/**
 * Kernel settings in Ansible: `ansible.posix.sysctl` tasks (`name`, `value`) and
 * `blockinfile`/`copy: content:`/`lineinfile` bodies written to sysctl.d or modprobe.d, parsed as
 * those files with offsets in the YAML. Bodies with escapes (`"a\nb"`) are skipped. Never throws.
 */
export function extractAnsibleKernel(source: SourceText, sink: Sink): void {
  const text = source.text;
  // The settings each body wrote, by the block it owns in its file: a later body with the same
  // file and `blockinfile` marker (or a `copy` of the whole file) replaces the earlier one.
  const bodies = new Map<string, { from: number; to: number }>();
  const visit = (node: unknown, depth: number) => {
    if (depth > 64) return; // not a fact: recursion guard against pathological nesting
    if (isSeq(node)) for (const item of node.items) visit(item, depth + 1);
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key && SYSCTL_MODULES.has(key) && isMap(pair.value)) {
        sysctlTask(text, pair.value, sink);
        continue;
      }
      const bodyKey = key ? BODY_KEYS[key] : undefined;
      if (bodyKey && isMap(pair.value)) {
        const path = get(pair.value, 'path') ?? get(pair.value, 'dest') ?? get(pair.value, 'name');
        const body = get(pair.value, bodyKey);
        const target = isScalar(path) && typeof path.value === 'string' ? path.value : undefined;
        if (target && isScalar(body)) {
          const from = sink.settings.length;
          writtenBody(text, target, body, sink);
          const block = blockOf(key!, target, get(pair.value, 'marker'));
          if (block !== undefined) {
            const earlier = bodies.get(block);
            if (earlier) for (let i = earlier.from; i < earlier.to; i++) sink.settings[i] = { ...sink.settings[i]!, replacedBody: true };
            bodies.set(block, { from, to: sink.settings.length });
          }
        }
        continue;
      }
      visit(pair.value, depth + 1);
    }
  };
  for (const doc of parseYaml(source)) visit(doc.contents, 0);
}

function sysctlTask(text: string, args: YAMLMap, sink: Sink): void {
  const name = get(args, 'name') ?? get(args, 'key');
  const value = get(args, 'value') ?? get(args, 'val');
  const state = get(args, 'state');
  if (isScalar(state) && state.value === 'absent') return;
  if (!isScalar(name) || !isScalar(value)) return;
  const keyContent = scalarContent(text, name);
  const valueContent = scalarContent(text, value);
  if (!keyContent || !valueContent) return;
  const rawKey = keyContent.raw.trim();
  const rawValue = valueContent.raw.trim();
  if (rawKey === '' || rawValue === '') return;
  const valueStart = valueContent.start + valueContent.raw.indexOf(rawValue);
  const keyStart = keyContent.start + keyContent.raw.indexOf(rawKey);
  const piece = contiguousPiece(rawValue, valueStart);
  const fields: { text: string; span: { start: number; end: number } }[] = [];
  for (const match of rawValue.matchAll(/\S+/g)) fields.push({ text: match[0], span: { start: piece.at(match.index!), end: piece.at(match.index!) + match[0].length } });
  sink.settings.push({
    uri: sink.uri,
    origin: 'sysctl',
    key: normalizeSysctlKey(rawKey),
    rawKey,
    keySpan: { start: keyStart, end: keyStart + rawKey.length },
    value: rawValue,
    valueSpan: { start: valueStart, end: valueStart + rawValue.length },
    span: { start: keyStart, end: valueStart + rawValue.length },
    ignoreFailure: false,
    templated: isTemplated(rawKey) || isTemplated(rawValue),
    fields,
    persistent: true,
  });
}

/** What part of its file a body owns: `blockinfile` its marker's block, `copy` the whole file; `lineinfile` no block. */
function blockOf(module: string, target: string, marker: unknown): string | undefined {
  if (module.endsWith('copy')) return `${target}\u0000`;
  if (!module.endsWith('blockinfile')) return undefined;
  const text = isScalar(marker) ? marker.value : undefined;
  if (marker !== undefined && typeof text !== 'string') return undefined; // a marker anf-lint cannot read
  return `${target}\u0000${text ?? '# {mark} ANSIBLE MANAGED BLOCK'}`;
}

function writtenBody(text: string, target: string, body: Scalar, sink: Sink): void {
  const sysctl = isSysctlFilePath(target);
  const modprobe = !sysctl && isModprobeFilePath(target);
  if (!sysctl && !modprobe) return;
  const content = scalarContent(text, body);
  if (!content) return;
  if (body.type === 'QUOTE_DOUBLE' && content.raw.includes('\\')) return;
  // Lines end with LF, CRLF or a lone CR (old Mac files; YAML 1.2 and editors break lines there too).
  const lineBreak = /\r\n?|\n/g;
  let start = content.start;
  let from = 0;
  for (;;) {
    const found = lineBreak.exec(content.raw);
    const line = content.raw.slice(from, found ? found.index : content.raw.length);
    const piece = contiguousPiece(line, start);
    // Ansible's own markers (`# BEGIN ANSIBLE MANAGED BLOCK`) are comments in both formats.
    if (sysctl) parseSysctlLine(piece, sink, 'sysctl', true);
    else parseModprobeLine(piece, sink, true);
    if (!found) break;
    start += found.index + found[0].length - from;
    from = found.index + found[0].length;
  }
}
