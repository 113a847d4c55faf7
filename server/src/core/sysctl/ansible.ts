import { isMap, isScalar, isSeq, type Scalar, type YAMLMap } from 'yaml';
import { parseYaml, scalarContent } from '../mounts/yamlHosts';
import type { SourceText } from '../text/sourceText';
import { JinjaBranches } from '../text/templateLines';
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

/** Where a task runs and when: what enclosing plays, blocks and the task itself say. */
interface TaskContext {
  /** `when:`, loops and `rescue:` sections, outermost first. */
  readonly conditions: readonly string[];
  /** The play's `hosts:` and a task's `delegate_to:`. */
  readonly hosts: readonly string[];
}

const PLAY_KEYS = ['tasks', 'pre_tasks', 'post_tasks', 'handlers', 'roles'];
const LOOP_KEY = /^(?:loop|with_\w+)$/;

/** The source text of a node, blanks folded: conditions are compared as written. */
function nodeText(text: string, node: unknown): string | undefined {
  const range = (node as { range?: [number, number, number] } | undefined)?.range;
  if (!range) return undefined;
  return text.slice(range[0], range[1]).trim().replace(/\s+/g, ' ');
}

/** What a task, block or play map adds to its context: its `when:`, loop, `hosts:`, `delegate_to:`. */
function contextOf(text: string, map: YAMLMap, outer: TaskContext): TaskContext {
  let conditions = outer.conditions;
  let hosts = outer.hosts;
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    if (key === 'when') {
      // A list of conditions is their `and`.
      const parts = isSeq(pair.value)
        ? pair.value.items.map((item) => nodeText(text, item) ?? '?')
        : [nodeText(text, pair.value) ?? '?'];
      conditions = [...conditions, ...parts.map((part) => `when ${part}`)];
    } else if (LOOP_KEY.test(key)) conditions = [...conditions, `${key} ${nodeText(text, pair.value) ?? '?'}`];
    else if (key === 'delegate_to') hosts = [...hosts, `delegate_to ${nodeText(text, pair.value) ?? '?'}`];
    else if (key === 'hosts' && map.items.some((p) => isScalar(p.key) && PLAY_KEYS.includes(String(p.key.value))))
      hosts = [...hosts, `hosts ${nodeText(text, pair.value) ?? '?'}`];
  }
  return conditions === outer.conditions && hosts === outer.hosts ? outer : { conditions, hosts };
}

/**
 * Kernel settings in Ansible: `ansible.posix.sysctl` tasks (`name`, `value`) and
 * `blockinfile`/`copy: content:`/`lineinfile` bodies written to sysctl.d or modprobe.d, parsed as
 * those files with offsets in the YAML. Bodies with escapes (`"a\nb"`) are skipped. Each setting
 * carries the conditions it is written under (`when:` of its task and blocks, loops, `rescue:`), the
 * file and hosts it is written to, and where its text lands (model.ts): a rule that calls one
 * setting "overwritten" by another compares only settings that are surely written together, in
 * that order. Never throws.
 */
export function extractAnsibleKernel(source: SourceText, sink: Sink): void {
  const text = source.text;
  const blocks = new Set<string>();
  // Names for what cannot be named (a templated path or marker, a `rescue:`): by order, which an edit elsewhere does not change.
  let unnamed = 0;
  const unknown = () => `unknown#${unnamed++}`;
  const visit = (node: unknown, depth: number, context: TaskContext) => {
    if (depth > 64) return; // not a fact: recursion guard against pathological nesting
    if (isSeq(node)) for (const item of node.items) visit(item, depth + 1, context);
    if (!isMap(node)) return;
    const here = contextOf(text, node, context);
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === 'when' || key === 'hosts' || key === 'delegate_to' || (key !== undefined && LOOP_KEY.test(key)))
        continue;
      if (key && SYSCTL_MODULES.has(key) && isMap(pair.value)) {
        const from = sink.settings.length;
        sysctlTask(text, pair.value, sink);
        const file = get(pair.value, 'sysctl_file');
        annotate(sink, from, here, targetOf(file === undefined ? '/etc/sysctl.conf' : file, unknown), { last: true });
        continue;
      }
      const bodyKey = key ? BODY_KEYS[key] : undefined;
      if (bodyKey && isMap(pair.value)) {
        const args = pair.value;
        const path = get(args, 'path') ?? get(args, 'dest') ?? get(args, 'destfile') ?? get(args, 'name');
        // blockinfile's `block` is also spelled `content`.
        const body = get(args, bodyKey) ?? (bodyKey === 'block' ? get(args, 'content') : undefined);
        const written = isScalar(path) && typeof path.value === 'string' ? path.value : undefined;
        const state = get(args, 'state');
        // `state: absent` removes the block or the lines: it writes nothing.
        if (written && isScalar(body) && !(isScalar(state) && state.value === 'absent')) {
          const from = sink.settings.length;
          writtenBody(text, written, body, sink);
          const target = targetOf(path, unknown);
          const placement = placementOf(key!, args, unknown);
          // A block written before lands where it was, not at the end: only the same block is known to replace it.
          const owned =
            placement.block === undefined
              ? undefined
              : `${[target, ...here.hosts].join('\u0000')}\u0000${placement.block}`;
          if (owned !== undefined && blocks.has(owned) && placement.block !== 'whole file') placement.last = false;
          if (owned !== undefined) blocks.add(owned);
          annotate(sink, from, here, target, placement);
        }
        continue;
      }
      // `rescue:` runs only when its block failed: a condition of its own.
      const inner =
        key === 'rescue' && isSeq(pair.value)
          ? { ...here, conditions: [...here.conditions, `rescue ${unknown()}`] }
          : here;
      visit(pair.value, depth + 1, inner);
    }
  };
  for (const doc of parseYaml(source)) visit(doc.contents, 0, { conditions: [], hosts: [] });
}

/** The target file as written, or one of its own (never equal to another's) when it is a template. */
function targetOf(path: unknown, unknown: () => string): string {
  const value = isScalar(path) ? path.value : path;
  if (typeof value !== 'string' || isTemplated(value)) return unknown();
  return value;
}

/** Adds the task's conditions, target and placement to the settings it wrote (sink.settings[from...]). */
function annotate(
  sink: Sink,
  from: number,
  context: TaskContext,
  target: string,
  placement: { block?: string; last: boolean },
): void {
  const place = [target, ...context.hosts].join('\u0000');
  for (let i = from; i < sink.settings.length; i++) {
    const setting = sink.settings[i]!;
    const conditions = [...context.conditions, ...(setting.condition ? [setting.condition] : [])];
    sink.settings[i] = {
      ...setting,
      target: place,
      placement: placement.block
        ? { block: `${place}\u0000${placement.block}`, last: placement.last }
        : { last: placement.last },
      ...(conditions.length > 0 ? { condition: conditions.join(' && ') } : {}),
    };
  }
}

/**
 * What part of its file a body owns and whether it lands after every earlier write
 * (ansible.builtin.blockinfile, lineinfile, copy): a `blockinfile` owns the block between its
 * markers (`marker:` with `{mark}` replaced by `marker_begin`/`marker_end`) and replaces that block
 * in place, or appends it at the end of the file unless `insertbefore:`/`insertafter:` say
 * otherwise; `lineinfile` replaces the line its `regexp:`/`search_string:` matches, else inserts
 * like blockinfile, and with `backrefs:` writes nothing when nothing matches; `copy` owns the file.
 */
function placementOf(module: string, args: YAMLMap, unknown: () => string): { block?: string; last: boolean } {
  // `last` may be cleared by the caller.
  if (module.endsWith('copy')) return { block: 'whole file', last: true };
  const insertBefore = get(args, 'insertbefore');
  const insertAfter = get(args, 'insertafter');
  const atEnd =
    insertBefore === undefined && (insertAfter === undefined || (isScalar(insertAfter) && insertAfter.value === 'EOF'));
  if (module.endsWith('lineinfile')) {
    const backrefs = get(args, 'backrefs');
    return {
      last:
        atEnd &&
        !(isScalar(backrefs) && backrefs.value !== false && backrefs.value !== 'no' && backrefs.value !== 'false'),
    };
  }
  const marker = get(args, 'marker');
  const text =
    marker === undefined
      ? '# {mark} ANSIBLE MANAGED BLOCK'
      : isScalar(marker) && typeof marker.value === 'string'
        ? marker.value
        : undefined;
  // A marker anf-lint cannot read owns a block of its own.
  if (text === undefined) return { block: unknown(), last: false };
  const begin = get(args, 'marker_begin');
  const end = get(args, 'marker_end');
  const beginText = isScalar(begin) ? String(begin.value) : 'BEGIN';
  const endText = isScalar(end) ? String(end.value) : 'END';
  const block = isTemplated(text)
    ? unknown()
    : `${text.replace('{mark}', beginText)}\u0000${text.replace('{mark}', endText)}`;
  return { block, last: atEnd };
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
  for (const match of rawValue.matchAll(/\S+/g))
    fields.push({
      text: match[0],
      span: { start: piece.at(match.index!), end: piece.at(match.index!) + match[0].length },
    });
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
  const branches = new JinjaBranches(`@${content.start}:`);
  for (;;) {
    const found = lineBreak.exec(content.raw);
    const line = content.raw.slice(from, found ? found.index : content.raw.length);
    const piece = contiguousPiece(line, start);
    // Module arguments are Jinja templates: a `{% if %}` in a body makes its lines conditional.
    branches.feed(line);
    const before = sink.settings.length;
    // Ansible's own markers (`# BEGIN ANSIBLE MANAGED BLOCK`) are comments in both formats.
    if (sysctl) parseSysctlLine(piece, sink, 'sysctl', true);
    else parseModprobeLine(piece, sink, true);
    const branch = branches.branch;
    if (branch)
      for (let i = before; i < sink.settings.length; i++)
        sink.settings[i] = { ...sink.settings[i]!, condition: branch };
    if (!found) break;
    start += found.index + found[0].length - from;
    from = found.index + found[0].length;
  }
}
