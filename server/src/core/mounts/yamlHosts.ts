import {
  isMap,
  isScalar,
  isSeq,
  Pair,
  parseAllDocuments,
  Scalar,
  YAMLMap as YAMLMapClass,
  type Node,
  type YAMLMap,
} from 'yaml';
import { SourceText as SourceTextClass, type SourceText, type Span } from '../text/sourceText';
import { parseAutofsMap } from './autofs';
import { parseSystemdMount } from './systemd';
import { stackExhaustion, yamlReadableText } from '../text/yamlText';
import { nestingPastBound } from '../text/nesting';
import type { ParseProblem } from '../diagnostics';
import { MALFORMED_CODE, parseFstabLine } from './fstab';
import type { MountEntry, MountOption } from './model';
import { isNfsType, isTemplated, looksLikeNfsSource, literalParts, splitNfsSource, splitOptions } from './optionText';
import {
  carriedScript,
  derivedScriptMounts,
  mountCommandFromWords,
  shellMounts,
  type ShellHost,
  type Word,
} from './shellMounts';
import type { OffsetRun } from '../text/shell';
import { commandBaseName } from '../text/shell';
import { readOptionText } from './optionStrings';

const SHELL_SHEBANG = /^#!\s*\S*\b(?:ba|da|k|z)?sh\b/;
const ANSIBLE_MOUNT_MODULES = new Set(['mount', 'ansible.posix.mount', 'ansible.builtin.mount']);
const ANSIBLE_SHELL_MODULES = new Set([
  'shell',
  'command',
  'ansible.builtin.shell',
  'ansible.builtin.command',
  'raw',
  'ansible.builtin.raw',
]);

/** A command found in a task keeps its own span; the task's start lets an annotation above the task apply. */
function withTask(entry: MountEntry, task: YAMLMap): MountEntry {
  const taskStart = task.range?.[0];
  return taskStart !== undefined && taskStart < entry.span.start
    ? { ...entry, span: { start: taskStart, end: entry.span.end } }
    : entry;
}

/** The text of a scalar as written (without quotes or block header) and where it starts. */
export function scalarContent(text: string, node: Scalar): { raw: string; start: number; end: number } | undefined {
  const range = node.range;
  if (!range) return undefined;
  const [start, end] = range;
  switch (node.type) {
    case 'QUOTE_DOUBLE':
    case 'QUOTE_SINGLE':
      return {
        raw: text.slice(start + 1, Math.max(start + 1, end - 1)),
        start: start + 1,
        end: Math.max(start + 1, end - 1),
      };
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED': {
      // The body starts after the header's line break: LF, CRLF or a lone CR (yamlReadableText).
      const lineBreak = /\r\n?|\n/g;
      lineBreak.lastIndex = start;
      const found = lineBreak.exec(text);
      const from = !found || found.index >= end ? end : found.index + found[0].length;
      return { raw: text.slice(from, end), start: from, end };
    }
    default:
      return { raw: text.slice(start, end), start, end };
  }
}

function scalarString(node: unknown): string | undefined {
  return isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : undefined;
}

/**
 * The mounts of a shell script held in a YAML scalar (an Ansible `shell:`, a cloud-init `runcmd`
 * item or a script in `write_files`). A block scalar (`|`, `>`) is read without its indentation
 * (a here-document's delimiter line must stand alone) and folded as YAML folds `>`; its spans are
 * taken back to the document. Other scalars are read in place. A double-quoted scalar with escapes
 * is not its text and is skipped.
 */
export function scalarScriptMounts(source: SourceText, node: Scalar, host: ShellHost): MountEntry[] {
  const content = scalarContent(source.text, node);
  if (!content) return [];
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
    const script = blockScript(content.raw, content.start, node.type === 'BLOCK_FOLDED');
    return derivedScriptMounts({ ...script, span: { start: content.start, end: content.end } }, host);
  }
  if (node.type === 'QUOTE_DOUBLE' && content.raw.includes('\\')) return [];
  return shellMounts(source.text, host, content.start, content.end);
}

/** A block scalar's lines without their common indentation, with where each run of characters stands. */
function blockScript(raw: string, start: number, folded: boolean): { value: string; runs: OffsetRun[] } {
  const lines = raw.split('\n');
  let indent = Infinity;
  for (const line of lines) {
    const body = line.replace(/\r$/, '');
    if (body.trim() === '') continue;
    indent = Math.min(indent, body.length - body.trimStart().length);
  }
  if (!Number.isFinite(indent)) indent = 0;
  let value = '';
  const runs: OffsetRun[] = [];
  let at = start;
  lines.forEach((line, index) => {
    const body = line.replace(/\r$/, '');
    const from = Math.min(indent, body.length);
    if (index > 0) {
      // `>` joins lines with a space; a blank line (or `|`) keeps the line break.
      const previous = lines[index - 1]!.trim();
      value += folded && previous !== '' && body.trim() !== '' ? ' ' : '\n';
    }
    runs.push({ at: value.length, offset: at + from });
    value += body.slice(from);
    at += line.length + 1;
  });
  return { value, runs };
}

function spanOf(node: Node | null | undefined): Span | undefined {
  return node?.range ? { start: node.range[0], end: node.range[1] } : undefined;
}

export function parseYaml(source: SourceText) {
  // Too deep for the parser, which could abort the process (text/nesting.ts): read none of it.
  if (nestingPastBound(source.text)) return [];
  try {
    const docs = parseAllDocuments(yamlReadableText(source.text), { prettyErrors: false });
    // Past a stack overflow the documents differ from one parse to the next: read none of them.
    return docs.some((doc) => stackExhaustion(doc.errors)) ? [] : docs;
  } catch {
    return [];
  }
}

/** Ansible `mount` / `ansible.posix.mount` tasks in playbooks and role task files. Never throws. */
export function parseAnsible(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const mounts: MountEntry[] = [];
  const docs = parseYaml(source);
  const visit = (node: unknown, depth: number) => {
    if (depth > 64) return; // not a fact: recursion guard against pathological nesting
    if (isSeq(node)) for (const item of node.items) visit(item, depth + 1);
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = scalarString(pair.key);
      if (key !== undefined && ANSIBLE_SHELL_MODULES.has(key)) {
        // `shell: mount -t nfs ...` and `command: mount ...` tasks, including `cmd:` arguments.
        const value = isMap(pair.value)
          ? pair.value.items.find((p) => scalarString(p.key) === 'cmd')?.value
          : pair.value;
        if (isScalar(value))
          for (const entry of scalarScriptMounts(source, value, { uri, host: 'ansible', problems }))
            mounts.push(withTask(entry, node));
        continue;
      }
      if (key !== undefined && (key === 'lineinfile' || key === 'ansible.builtin.lineinfile') && isMap(pair.value)) {
        // `lineinfile: { path: /etc/fstab, line: "srv:/x /x nfs opts 0 0" }`
        const args = pair.value;
        const target = scalarString(
          args.items.find((p) => ['path', 'dest', 'name'].includes(scalarString(p.key) ?? ''))?.value,
        );
        const line = args.items.find((p) => scalarString(p.key) === 'line')?.value;
        const content =
          target && /(?:^|\/)fstab$/.test(target) && isScalar(line) ? scalarContent(source.text, line) : undefined;
        const entry =
          content && !content.raw.includes('\n')
            ? parseFstabLine(content.raw, content.start, uri, problems, 'ansible')
            : undefined;
        if (entry) mounts.push(withTask(entry, node));
        continue;
      }
      const bodyKey = key !== undefined ? BODY_KEYS[key] : undefined;
      if (bodyKey && isMap(pair.value)) {
        // `blockinfile: { path: /etc/fstab, block: | ... }`, `copy: { dest: /etc/auto.hpc, content: | ... }`:
        // the body is read as that file, with offsets in the YAML.
        const args = pair.value;
        const target = scalarString(
          args.items.find((p) => ['path', 'dest', 'name'].includes(scalarString(p.key) ?? ''))?.value,
        );
        const body = args.items.find((p) => scalarString(p.key) === bodyKey)?.value;
        if (target && isScalar(body))
          for (const entry of writtenBody(source, uri, target, body, problems, 'ansible'))
            mounts.push(withTask(entry, node));
        continue;
      }
      if (key !== undefined && ANSIBLE_MOUNT_MODULES.has(key)) {
        const looped = isMap(pair.value) ? loopMounts(source, uri, node, pair.value) : [];
        if (looped.length > 0) {
          for (const entry of looped) mounts.push(entry);
          continue;
        }
        const entry = isMap(pair.value)
          ? ansibleTask(source, uri, node, pair.value)
          : isScalar(pair.value)
            ? ansibleFreeForm(source, uri, node, pair.value)
            : undefined;
        if (entry) mounts.push(entry);
        continue;
      }
      visit(pair.value, depth + 1);
    }
  };
  for (const doc of Array.isArray(docs) ? docs : [docs]) visit(doc.contents, 0);
  void problems;
  return mounts;
}

const BODY_KEYS: Record<string, string> = {
  blockinfile: 'block',
  'ansible.builtin.blockinfile': 'block',
  copy: 'content',
  'ansible.builtin.copy': 'content',
};

/**
 * The mounts of a file body a task (Ansible) or a `write_files` item (cloud-init) writes: fstab
 * lines, an autofs map (`/etc/auto.*`) or a systemd mount unit (`*.mount`).
 */
function writtenBody(
  source: SourceText,
  uri: string,
  target: string,
  body: Scalar,
  problems: ParseProblem[],
  host: 'ansible' | 'cloud-init',
): MountEntry[] {
  const fstab = /(?:^|\/)fstab$/.test(target);
  const autofs = /(?:^|\/)auto\.(?!master)[^/]+$/.test(target);
  const unit = /(?:^|\/)systemd\/.*\.mount$/.test(target);
  if (!fstab && !autofs && !unit) return [];
  const content = scalarContent(source.text, body);
  if (!content || (body.type === 'QUOTE_DOUBLE' && content.raw.includes('\\'))) return [];
  if (autofs || unit) {
    // The file's lines keep their document offsets: everything outside the body is blanked.
    const masked = new SourceTextClass(
      source.text.slice(0, content.start).replace(/[^\r\n]/g, ' ') +
        content.raw +
        source.text.slice(content.end).replace(/[^\r\n]/g, ' '),
    );
    const found = autofs ? parseAutofsMap(masked, uri, problems) : parseSystemdMount(masked, uri, problems);
    return found.map((m) => ({ ...m, host }));
  }
  const mounts: MountEntry[] = [];
  let start = content.start;
  for (const line of content.raw.split('\n')) {
    const entry = parseFstabLine(line.replace(/\r$/, ''), start, uri, problems, host);
    if (entry) mounts.push(entry);
    start += line.length + 1;
  }
  return mounts;
}

const ITEM_FIELD = /^\{\{\s*item(?:\.(\w+)|\[\s*['"](\w+)['"]\s*\])\s*\}\}$/;
const MOUNT_ARGS = ['src', 'path', 'name', 'fstype', 'opts', 'state', 'passno', 'dump'];

/**
 * A mount task over a literal `loop:`/`with_items:` list whose arguments are `{{ item.x }}`: one
 * mount per item, read from the item's own values (so `/hana/log/...` with `vers=3` is a HANA log
 * mount on NFSv3). Arguments that are not `{{ item.x }}` keep the task's value. Anything else (a
 * list from a variable, `{{ item.opts | default(...) }}`) gives nothing here: the task is read as usual.
 */
function loopMounts(source: SourceText, uri: string, task: YAMLMap, args: YAMLMap): MountEntry[] {
  const list = task.items.find((p) => ['loop', 'with_items', 'with_list'].includes(scalarString(p.key) ?? ''))?.value;
  if (!isSeq(list) || list.items.length === 0 || !list.items.every((item) => isMap(item))) return [];
  const fields = new Map<string, string>();
  // `src: "{{ anf_ip }}:/{{ item.export }}"`, `path: "/hana/{{ item.name }}"`: literal text around `{{ item.x }}`.
  const composed = new Map<string, Pair>();
  for (const pair of args.items) {
    const key = scalarString(pair.key);
    const value = scalarString(pair.value);
    const match = value !== undefined ? ITEM_FIELD.exec(value.trim()) : null;
    if (key && match) fields.set(key, match[1] ?? match[2]!);
    else if (
      key &&
      (key === 'src' || key === 'path' || key === 'name') &&
      value !== undefined &&
      ITEM_IN_TEXT.test(value)
    )
      composed.set(key, pair);
  }
  if (
    (fields.size === 0 && composed.size === 0) ||
    (!fields.has('src') && !fields.has('opts') && !fields.has('path') && !fields.has('name') && composed.size === 0)
  )
    return [];
  const mounts: MountEntry[] = [];
  for (const item of list.items as YAMLMap[]) {
    // A map standing for the task's arguments: the item's value where the task says `{{ item.x }}`.
    const merged = new YAMLMapClass<unknown, unknown>();
    for (const name of MOUNT_ARGS) {
      const field = fields.get(name);
      const template = composed.get(name);
      const filled = template ? fillItemFields(template.value as Scalar, item) : undefined;
      const pair = field
        ? item.items.find((p) => scalarString(p.key) === field)
        : filled
          ? new Pair(new Scalar(name), filled)
          : args.items.find((p) => scalarString(p.key) === name);
      if (pair) merged.items.push(new Pair(new Scalar(name), pair.value));
    }
    const entry = ansibleTask(source, uri, task, merged);
    if (!entry) continue;
    const span = spanOf(item);
    mounts.push(span ? { ...entry, span } : entry);
  }
  return mounts;
}

/** `{{ item.x }}` (or `{{ item['x'] }}`) inside other text. */
const ITEM_IN_TEXT = /\{\{\s*item(?:\.\w+|\[\s*['"]\w+['"]\s*\])\s*\}\}/;
const ITEM_REFERENCE = /\{\{\s*item(?:\.(\w+)|\[\s*['"](\w+)['"]\s*\])\s*\}\}/g;

/**
 * The task's value with each `{{ item.x }}` replaced by the item's literal `x`, as a scalar that
 * stands where the task's value is written (its spans are the task's). Undefined when the item
 * lacks a field or its value is not a plain string; other placeholders stay in the text (unknown).
 */
function fillItemFields(template: Scalar, item: YAMLMap): Scalar | undefined {
  const text = scalarString(template);
  if (text === undefined) return undefined;
  let missing = false;
  const value = text.replace(ITEM_REFERENCE, (_, dotted: string | undefined, quoted: string | undefined) => {
    const found = item.items.find((p) => scalarString(p.key) === (dotted ?? quoted));
    const literal = isScalar(found?.value) && typeof found.value.value === 'string' ? found.value.value : undefined;
    if (literal === undefined) missing = true;
    return literal ?? '';
  });
  if (missing) return undefined;
  const filled = new Scalar(value);
  filled.range = template.range;
  filled.type = template.type;
  return filled;
}

export function ansibleTask(source: SourceText, uri: string, task: YAMLMap, args: YAMLMap): MountEntry | undefined {
  const get = (name: string) => args.items.find((p) => scalarString(p.key) === name);
  const src = get('src');
  const path = get('path') ?? get('name');
  const fstype = get('fstype');
  const opts = get('opts');
  const passno = get('passno');
  const dump = get('dump');
  const state = scalarString(get('state')?.value);
  if (!src && !fstype) return undefined;
  if (state === 'absent' || state === 'unmounted') return undefined;
  const srcText = scalarString(src?.value);
  const fsTypeText = scalarString(fstype?.value);
  const optsNode = opts?.value;
  const optsContent = isScalar(optsNode) ? scalarContent(source.text, optsNode) : undefined;
  // `opts` goes to the fstab line as is: a file system type or quotes written in it reach mount (ANF240, ANF241).
  const shape = optsContent ? readOptionText(optsContent.raw, optsContent.start) : undefined;
  const options = shape ? shape.options : [];
  const parts = srcText ? splitNfsSource(srcText) : undefined;
  const taskSpan = spanOf(task) ?? spanOf(args)!;
  const srcSpan = isScalar(src?.value) ? scalarContent(source.text, src!.value as Scalar) : undefined;
  const pathSpan = isScalar(path?.value) ? scalarContent(source.text, path!.value as Scalar) : undefined;
  const typeSpan = isScalar(fstype?.value) ? scalarContent(source.text, fstype!.value as Scalar) : undefined;
  const pathText = scalarString(path?.value);
  const passSpan = isScalar(passno?.value) ? scalarContent(source.text, passno!.value as Scalar) : undefined;
  const dumpSpan = isScalar(dump?.value) ? scalarContent(source.text, dump!.value as Scalar) : undefined;
  const templated = [srcText, fsTypeText, pathText, optsContent?.raw].some((t) => t !== undefined && isTemplated(t));
  // No `opts:` yet: a new line after `fstype:` (block mappings only).
  const anchor = fstype ?? src;
  const anchorEnd = anchor?.value && (anchor.value as Node).range ? (anchor.value as Node).range![1] : undefined;
  const keyColumn =
    anchor?.key && (anchor.key as Node).range ? source.positionAt((anchor.key as Node).range![0]).character : undefined;
  const insertion =
    !opts && !args.flow && anchorEnd !== undefined && keyColumn !== undefined
      ? {
          optionsSpan: { start: anchorEnd, end: anchorEnd },
          optionsInsertion: { before: `${source.eol}${' '.repeat(keyColumn)}opts: `, after: '' },
        }
      : {};
  return {
    uri,
    origin: 'ansible',
    host: 'ansible',
    ...(srcText !== undefined ? { source: srcText } : {}),
    ...(srcSpan ? { sourceSpan: { start: srcSpan.start, end: srcSpan.end } } : {}),
    ...(parts && srcText && !isTemplated(parts.server) ? { server: parts.server } : {}),
    ...(parts && !isTemplated(parts.exportPath) ? { exportPath: parts.exportPath } : {}),
    ...(pathText !== undefined ? { mountPoint: pathText, mountPointDecoded: pathText } : {}),
    ...(pathSpan ? { mountPointSpan: { start: pathSpan.start, end: pathSpan.end } } : {}),
    ...(fsTypeText !== undefined ? { fsType: fsTypeText } : {}),
    ...(typeSpan ? { fsTypeSpan: { start: typeSpan.start, end: typeSpan.end } } : {}),
    options,
    ...(shape ? { optionsSpan: shape.body } : insertion),
    isNfs: isNfsType(fsTypeText),
    span: taskSpan,
    ...(templated || options.some((o) => o.templated) ? { templated: true } : {}),
    ...(passSpan ? { fsckPass: passSpan.raw, fsckPassSpan: { start: passSpan.start, end: passSpan.end } } : {}),
    ...(dumpSpan ? { dump: dumpSpan.raw, dumpSpan: { start: dumpSpan.start, end: dumpSpan.end } } : {}),
    ...(shape?.fsType ? { optionsFsType: shape.fsType } : {}),
    ...(shape?.quotes ? { optionsQuotes: { ...shape.quotes, certain: true } } : {}),
  };
}

/** `mount: src=srv:/x path=/mnt fstype=nfs opts=rw,hard state=mounted` (Ansible's free form). */
function ansibleFreeForm(source: SourceText, uri: string, task: YAMLMap, node: Scalar): MountEntry | undefined {
  const content = scalarContent(source.text, node);
  if (!content) return undefined;
  const args = new Map<string, { value: string; start: number }>();
  // Keys start at a word start: a long word without `=` would otherwise be retried from each character.
  for (const match of content.raw.matchAll(/(?<!\w)(\w+)=(\S*)/g)) {
    args.set(match[1]!, { value: match[2]!, start: content.start + match.index! + match[1]!.length + 1 });
  }
  const src = args.get('src');
  const fstype = args.get('fstype');
  if (!src && !fstype) return undefined;
  const state = args.get('state')?.value;
  if (state === 'absent' || state === 'unmounted') return undefined;
  const path = args.get('path') ?? args.get('name');
  const opts = args.get('opts');
  const options: MountOption[] = opts ? splitOptions(opts.value, opts.start) : [];
  const parts = src ? splitNfsSource(src.value) : undefined;
  const at = (a: { value: string; start: number }) => ({ start: a.start, end: a.start + a.value.length });
  return {
    uri,
    origin: 'ansible',
    host: 'ansible',
    ...(src ? { source: src.value, sourceSpan: at(src) } : {}),
    ...(parts && !isTemplated(parts.server) ? { server: parts.server } : {}),
    ...(parts && !isTemplated(parts.exportPath) ? { exportPath: parts.exportPath } : {}),
    ...(path ? { mountPoint: path.value, mountPointSpan: at(path), mountPointDecoded: path.value } : {}),
    ...(fstype ? { fsType: fstype.value, fsTypeSpan: at(fstype) } : {}),
    options,
    ...(opts
      ? { optionsSpan: at(opts) }
      : { optionsSpan: { start: content.end, end: content.end }, optionsInsertion: { before: ' opts=', after: '' } }),
    isNfs: isNfsType(fstype?.value),
    span: spanOf(task) ?? { start: content.start, end: content.end },
    ...(isTemplated(content.raw) ? { templated: true } : {}),
  };
}

/** cloud-init: `mount` commands in `runcmd` (strings or argument lists) and the `mounts:` list. */
export function parseCloudInit(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const mounts: MountEntry[] = [];
  for (const doc of parseYaml(source)) {
    const root = doc.contents;
    if (!isMap(root)) continue;
    for (const pair of root.items) {
      const key = scalarString(pair.key);
      if ((key === 'runcmd' || key === 'bootcmd') && isSeq(pair.value)) {
        for (const item of pair.value.items) {
          if (isScalar(item)) {
            for (const entry of scalarScriptMounts(source, item, { uri, host: 'cloud-init', problems }))
              mounts.push(entry);
          } else if (isSeq(item)) {
            const words: Word[] = [];
            for (const arg of item.items) {
              if (!isScalar(arg)) continue;
              const content = scalarContent(source.text, arg);
              if (!content) continue;
              const value = scalarString(arg) ?? content.raw;
              words.push({
                raw: content.raw,
                value,
                span: { start: content.start, end: content.end },
                templated: isTemplated(content.raw),
              });
            }
            const entry = mountCommandFromWords(words, { uri, host: 'cloud-init', problems });
            if (entry) mounts.push(entry);
            // `[sh, -c, "mount ... && ..."]`, `[su, -c, '...']`, `[ssh, host, '...']`: the script is read in place.
            const carried = words[0] ? carriedScript(words, commandBaseName(words[0].value)) : undefined;
            const script =
              carried && 'script' in carried
                ? item.items.find(
                    (arg) =>
                      isScalar(arg) &&
                      arg.range?.[0] !== undefined &&
                      arg.range[0] <= carried.script.span.start &&
                      arg.range[1] >= carried.script.span.end,
                  )
                : undefined;
            if (isScalar(script))
              for (const found of scalarScriptMounts(source, script, { uri, host: 'cloud-init', problems }))
                mounts.push(found);
          }
        }
      }
      if (key === 'write_files' && isSeq(pair.value)) {
        // `write_files: [{ path: /etc/fstab, append: true, content: | ... }]`: the content is read as
        // that file. Encoded content (`encoding: b64`, `gzip`) is not text and is skipped.
        for (const item of pair.value.items) {
          if (!isMap(item)) continue;
          const field = (name: string) => item.items.find((p) => scalarString(p.key) === name)?.value;
          const target = scalarString(field('path'));
          const encoding = scalarString(field('encoding'));
          const body = field('content');
          if (!target || !isScalar(body) || (encoding !== undefined && encoding !== 'text/plain')) continue;
          for (const entry of writtenBody(source, uri, target, body, problems, 'cloud-init')) mounts.push(entry);
          // A script the VM runs later (`/usr/local/bin/mount-anf.sh`, or any file starting `#!/bin/sh`): read as shell.
          const content = typeof body.value === 'string' ? body.value : '';
          if (/\.(?:sh|bash)$/.test(target) || SHELL_SHEBANG.test(content))
            for (const entry of scalarScriptMounts(source, body, { uri, host: 'cloud-init', problems }))
              mounts.push(entry);
        }
      }
      if (key === 'mounts' && isSeq(pair.value)) {
        for (const item of pair.value.items) {
          if (!isSeq(item)) continue;
          const fields = item.items.map((f) =>
            isScalar(f) ? { value: scalarString(f) ?? '', content: scalarContent(source.text, f) } : undefined,
          );
          const [spec, file, type, opts, dump, pass] = fields;
          const itemSpan = spanOf(item);
          if (!spec?.content || !itemSpan) continue;
          if (fields.length < 2) {
            problems.push({
              code: MALFORMED_CODE,
              span: itemSpan,
              message: 'A cloud-init `mounts:` entry needs at least a device and a mount point.',
            });
            continue;
          }
          const parts = splitNfsSource(spec.value);
          const fsType = type?.value;
          const at = (c: { start: number; end: number }) => ({ start: c.start, end: c.end });
          const options = opts?.content ? splitOptions(opts.content.raw, opts.content.start) : [];
          const templated = fields.some((f) => f !== undefined && isTemplated(f.value));
          mounts.push({
            uri,
            origin: 'fstab',
            host: 'cloud-init',
            source: spec.value,
            sourceSpan: at(spec.content),
            ...(parts ? literalParts(parts) : {}),
            ...(file?.content
              ? { mountPoint: file.value, mountPointSpan: at(file.content), mountPointDecoded: file.value }
              : {}),
            ...(type?.content && fsType ? { fsType, fsTypeSpan: at(type.content) } : {}),
            options,
            ...(opts?.content ? { optionsSpan: at(opts.content) } : {}),
            isNfs: isNfsType(fsType) || (fsType === undefined && looksLikeNfsSource(spec.value)),
            span: itemSpan,
            ...(templated ? { templated: true } : {}),
            ...(dump?.content ? { dump: dump.value, dumpSpan: at(dump.content) } : {}),
            ...(pass?.content ? { fsckPass: pass.value, fsckPassSpan: at(pass.content) } : {}),
          });
        }
      }
    }
  }
  return mounts;
}
