import type { Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { parseFstabLine } from './fstab';
import { filesystemResource } from './clusterResources';
import type { MountEntry, MountOption } from './model';
import { isNfsType, isTemplated, looksLikeNfsSource, splitNfsSource, splitOptions } from './optionText';
import {
  bodyLines,
  commandBaseName,
  commandIndex,
  forEachPipeline,
  offsetAt,
  pipesToNext,
  type ShellCommand,
  type ShellOptions,
  type ShellWord,
} from '../text/shell';

/** What mount recognition reads of a word; cloud-init argument lists build their own. */
export type Word = Pick<ShellWord, 'raw' | 'value' | 'span' | 'templated'>;
/** mount(8) options that take an argument, besides -t and -o. */
const MOUNT_OPTIONS_WITH_ARGUMENT = new Set([
  '-O',
  '--test-opts',
  '-L',
  '--label',
  '-U',
  '--uuid',
  '-N',
  '--namespace',
  '--source',
  '--target',
  '--target-prefix',
  '-T',
  '--fstab',
  '--options-mode',
  '--options-source',
]);
const MOUNT_NAMES = new Set(['mount', 'mount.nfs', 'mount.nfs4']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'ksh', 'zsh']);
const MAX_NESTING = 2; // not a fact: sh -c inside sh -c is as deep as scripts go

export interface ShellMountResult {
  readonly mounts: MountEntry[];
}

export interface ShellHost {
  readonly uri: string;
  readonly host: NonNullable<MountEntry['host']>;
  readonly problems: ParseProblem[];
}

/** Finds `mount` commands and fstab lines written by the script in `text[from, to)`. */
export function shellMounts(text: string, host: ShellHost, from = 0, to = text.length, depth = 0): MountEntry[] {
  // Cheap pre-check: a 1 MB line without "mount" or "fstab" costs one scan.
  const slice = from === 0 && to === text.length ? text : text.slice(from, to);
  if (!mayHoldMounts(slice)) return [];
  return shellMountsWith(text, host, from, to, literalVariables(text, from, to, slice), depth);
}

/** Whether a script can hold a mount at all (a cheap look before reading it): `mount` commands and fstab writes name themselves. */
export function mayHoldMounts(text: string): boolean {
  return text.includes('mount') || text.includes('fstab') || text.includes('Filesystem');
}

/**
 * `shellMounts` without the look for `mount` and `fstab` in the text and with the script's literal
 * variables given: for re-reading some commands of a script (workspace/shellReuse.ts), where both
 * are answered for the whole script.
 */
export function shellMountsWith(
  text: string,
  host: ShellHost,
  from: number,
  to: number,
  variables: ReadonlyMap<string, LiteralVariable>,
  depth = 0,
): MountEntry[] {
  const mounts: MountEntry[] = [];
  // A pipeline at a time (text/shell.ts): `echo ... | tee -a /etc/fstab` looks at the next command only.
  forEachPipeline(text, from, to, {}, (commands) =>
    commands.forEach((command, index) => {
      const words = commandWords(command.words);
      const name = words[0];
      if (!name) return;
      const base = commandBaseName(name.value);
      if (MOUNT_NAMES.has(base)) {
        const entry = mountCommand(words, base, host, variables);
        if (entry) mounts.push(entry);
        return;
      }
      // `ssh host <<'EOF' ... EOF`, `sudo bash -s <<EOF`: a here-document that is a script for the shell it feeds.
      const fed = depth < MAX_NESTING ? fedScript(command, words, base) : undefined;
      if (fed) {
        for (const entry of shellMounts(text, host, fed.start, fed.end, depth + 1)) mounts.push(entry);
        return;
      }
      // `sudo sh -c "mount ..."`, `su - root -c '...'`, `ssh host "sudo mount ..."`: the script is read again.
      const carried = depth < MAX_NESTING ? carriedScript(words, base) : undefined;
      if (carried) {
        for (const entry of carriedMounts(text, carried, host, depth + 1)) mounts.push(entry);
        return;
      }
      // `pcs resource create … Filesystem device=… directory=…`, `crm configure primitive … Filesystem params …`.
      const resource = base === 'pcs' || base === 'crm' ? filesystemResource(words, host) : undefined;
      if (resource) {
        mounts.push(resource);
        return;
      }
      for (const entry of fstabWrites(text, command, words, commands[index + 1], host)) mounts.push(entry);
    }),
  );
  return mounts;
}

/**
 * What a command runs as a script of its own: the word after `-c` of `sh`/`bash` (`bash -ec '…'`)
 * and of `su`/`runuser` (`--command`), the command of `ssh [options] host …` (one word is a script
 * for the remote shell; several words are the command itself). Undefined for any other command.
 */
export function carriedScript(
  words: readonly Word[],
  base: string,
): { script: Word } | { command: readonly Word[] } | undefined {
  if (SHELLS.has(base)) {
    for (let i = 1; i < words.length - 1; i++) {
      const v = words[i]!.value;
      if (!v.startsWith('-') || v.startsWith('--')) break;
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(v)) return { script: words[i + 1]! };
    }
    return undefined;
  }
  if (SWITCH_USER.has(base)) {
    for (let i = 1; i < words.length; i++) {
      const v = words[i]!.value;
      if ((v === '-c' || v === '--command') && words[i + 1]) return { script: words[i + 1]! };
      if (v.startsWith('--command=')) {
        const word = words[i]!;
        const eq = word.raw.indexOf('=') + 1;
        // Read as the text after `=` (no offset runs: `inPlace` decides whether it stands as is).
        return {
          script: {
            raw: word.raw.slice(eq),
            value: v.slice('--command='.length),
            span: { start: word.span.start + eq, end: word.span.end },
            templated: word.templated,
          },
        };
      }
    }
    return undefined;
  }
  if (base === 'ssh') {
    let i = 1;
    while (i < words.length && words[i]!.value.startsWith('-')) {
      const v = words[i]!.value;
      // `-p 22`, `-i key`, `-o Opt=x`: the option's argument is the next word unless written in it.
      i += v.length === 2 && SSH_OPTIONS_WITH_ARGUMENT.has(v[1]!) ? 2 : 1;
    }
    const rest = words.slice(i + 1); // past the destination
    if (rest.length === 0) return undefined;
    return rest.length === 1 ? { script: rest[0]! } : { command: rest };
  }
  const parallel = PARALLEL_SHELLS.get(base);
  if (parallel) {
    // `pdsh -w node[01-16] "sudo mount ..."`, `clush -b -w @compute 'mount ...'`, `pssh -h hosts -i "..."`:
    // the words after the options are the remote command, as for ssh but with no destination word.
    let i = 1;
    while (i < words.length && words[i]!.value.startsWith('-')) {
      const v = words[i]!.value;
      // clush's copy mode takes files, not a command.
      if (parallel.copy.has(v)) return undefined;
      i += (v.length === 2 && parallel.short.has(v[1]!)) || parallel.long.has(v) ? 2 : 1;
    }
    const rest = words.slice(i);
    if (rest.length === 0) return undefined;
    return rest.length === 1 ? { script: rest[0]! } : { command: rest };
  }
  return undefined;
}

/**
 * Parallel shells: the options that take an argument (the next word unless written in it), from
 * pdsh(1) (`-w -x -g -X -l -t -u -f -R -M -F`), clush(1) (`-w -x -g -X -s -l -o -f -t -u -R`,
 * `--nodes`...; `-c`/`--copy`/`--rcopy` copy files) and pssh(1)/parallel-ssh (`-h -H -l -p -o -e -t
 * -O -x -X`).
 */
const PARALLEL_SHELLS: ReadonlyMap<
  string,
  { short: ReadonlySet<string>; long: ReadonlySet<string>; copy: ReadonlySet<string> }
> = new Map([
  ['pdsh', { short: new Set([...'wxgXltufRMF']), long: new Set<string>(), copy: new Set<string>() }],
  [
    'clush',
    {
      short: new Set([...'wxgXslotufR']),
      long: new Set([
        '--nodes',
        '--exclude',
        '--group',
        '--groupsource',
        '--user',
        '--options',
        '--fanout',
        '--connect_timeout',
        '--command_timeout',
        '--worker',
        '--dest',
      ]),
      copy: new Set(['-c', '--copy', '--rcopy']),
    },
  ],
  ['pssh', { short: new Set([...'hHlpoetOxX']), long: new Set<string>(), copy: new Set<string>() }],
  ['parallel-ssh', { short: new Set([...'hHlpoetOxX']), long: new Set<string>(), copy: new Set<string>() }],
]);

/**
 * A here-document fed to a shell: `ssh [options] host <<EOF` (no remote command, or a shell:
 * `bash`, `bash -s`, `sudo bash`, `sudo -i`), or a local `bash`/`sh` (`sudo bash -s <<EOF`) with no
 * `-c` script. Its body is the script that shell runs. Undefined otherwise (`cat <<EOF > file`).
 */
function fedScript(command: ShellCommand, words: readonly Word[], base: string): Span | undefined {
  const heredoc = command.redirects.find((r) => (r.op === '<<' || r.op === '<<-') && r.body);
  if (!heredoc?.body || heredoc.body.end <= heredoc.body.start) return undefined;
  const readsScript = (rest: readonly Word[]): boolean => {
    const inner = commandWords(rest);
    if (inner.length === 0) return rest.length === 0 || /^(sudo|doas)$/.test(rest[0]!.value);
    const innerBase = commandBaseName(inner[0]!.value);
    if (innerBase === 'sudo' || innerBase === 'doas') return true; // `sudo -i`, `sudo -s`: a root shell reading stdin
    if (!SHELLS.has(innerBase)) return false;
    const args = inner.slice(1);
    // `bash -c '...'` runs its argument; `bash script.sh` runs the file (stdin is its input); `bash -s x` reads stdin.
    if (args.some((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.value))) return false;
    const firstOperand = args.findIndex((w) => !w.value.startsWith('-'));
    return firstOperand < 0 || args.slice(0, firstOperand).some((w) => /^-[a-zA-Z]*s[a-zA-Z]*$/.test(w.value));
  };
  if (base === 'ssh') {
    let i = 1;
    while (i < words.length && words[i]!.value.startsWith('-')) {
      const v = words[i]!.value;
      i += v.length === 2 && SSH_OPTIONS_WITH_ARGUMENT.has(v[1]!) ? 2 : 1;
    }
    if (i >= words.length) return undefined; // no destination
    return readsScript(words.slice(i + 1)) ? heredoc.body : undefined;
  }
  if (SHELLS.has(base)) return readsScript(words) ? heredoc.body : undefined;
  return undefined;
}

/** ssh(1) options that take an argument. */
const SSH_OPTIONS_WITH_ARGUMENT = new Set([...'BbcDEeFIiJLlmOoPpQRSWw']);
/** Commands that run `-c SCRIPT` as another user. */
const SWITCH_USER = new Set(['su', 'runuser']);

/**
 * The mounts of a script carried by a command (`carriedScript`). A word written in one piece
 * (`'…'`, or `"…"` without escapes) is read in place; a word whose value differs from its text
 * (`"mount -o \"rw,hard\" …"`) is read from its value and every span is taken back to where its
 * characters stand in the document.
 */
function carriedMounts(
  text: string,
  carried: NonNullable<ReturnType<typeof carriedScript>>,
  host: ShellHost,
  depth: number,
): MountEntry[] {
  if ('command' in carried) {
    const words = commandWords(carried.command);
    const name = words[0];
    if (!name) return [];
    const base = commandBaseName(name.value);
    if (MOUNT_NAMES.has(base)) {
      const entry = mountCommand(words, base, host);
      return entry ? [entry] : [];
    }
    const resource = filesystemResource(words, host);
    if (resource) return [resource];
    const inner = carriedScript(words, base);
    return inner && depth < MAX_NESTING ? carriedMounts(text, inner, host, depth + 1) : [];
  }
  const script = carried.script;
  const runs = 'runs' in script ? (script as ShellWord).runs : undefined;
  const contiguous =
    runs === undefined
      ? inPlace(script)
      : runs.length <= 1
        ? {
            start: runs[0]?.offset ?? script.span.start,
            end: (runs[0]?.offset ?? script.span.start) + script.value.length,
          }
        : undefined;
  if (contiguous) return shellMounts(text, host, contiguous.start, contiguous.end, depth);
  return derivedScriptMounts(script as ShellWord, host, depth);
}

/**
 * The mounts of a script that is not written as is in the document (a quoted word with escapes, a
 * YAML block scalar without its indentation): read from `script.value`, each span taken back to
 * the document through `script.runs`.
 */
export function derivedScriptMounts(
  script: Pick<ShellWord, 'value' | 'runs' | 'span'>,
  host: ShellHost,
  depth = 0,
): MountEntry[] {
  const problems: ParseProblem[] = [];
  const found = shellMounts(script.value, { ...host, problems }, 0, script.value.length, depth);
  const at = (offset: number) => offsetAt(script, offset);
  for (const problem of problems) host.problems.push({ ...problem, span: mapSpan(problem.span, at) });
  return found.map((entry) => mapMountSpans(entry, at));
}

/** A word of an argument list (cloud-init) whose text stands as is: its quotes left out. */
function inPlace(word: Word): Span | undefined {
  const q = word.raw[0];
  if ((q === '"' || q === "'") && word.raw.length >= 2 && word.raw.endsWith(q)) {
    const inner = word.raw.slice(1, -1);
    return inner === word.value ? { start: word.span.start + 1, end: word.span.end - 1 } : undefined;
  }
  return word.raw === word.value ? word.span : undefined;
}

/** A span of a derived text taken back to the document through `at` (an offset of the derived text to one of the document). */
export function mapSpan(span: Span, at: (offset: number) => number): Span {
  const start = at(span.start);
  return span.end > span.start ? { start, end: at(span.end - 1) + 1 } : { start, end: start };
}

/** Every span of a mount read from a derived text, taken back to the document. */
export function mapMountSpans(entry: MountEntry, at: (offset: number) => number): MountEntry {
  const map = (span: Span | undefined) => (span ? mapSpan(span, at) : undefined);
  const mapped: { -readonly [K in keyof MountEntry]: MountEntry[K] } = { ...entry, span: mapSpan(entry.span, at) };
  for (const key of [
    'sourceSpan',
    'mountPointSpan',
    'fsTypeSpan',
    'optionsSpan',
    'annotationSpan',
    'dumpSpan',
    'fsckPassSpan',
  ] as const) {
    if (entry[key]) mapped[key] = map(entry[key]);
  }
  mapped.options = entry.options.map((o) => ({
    ...o,
    span: mapSpan(o.span, at),
    nameSpan: mapSpan(o.nameSpan, at),
    ...(o.valueSpan ? { valueSpan: mapSpan(o.valueSpan, at) } : {}),
  }));
  if (entry.optionsQuotes)
    mapped.optionsQuotes = {
      ...entry.optionsQuotes,
      open: mapSpan(entry.optionsQuotes.open, at),
      close: mapSpan(entry.optionsQuotes.close, at),
    };
  if (entry.optionsFsType)
    mapped.optionsFsType = { ...entry.optionsFsType, span: mapSpan(entry.optionsFsType.span, at) };
  return mapped;
}

/** A `mount` command given as an argument list (cloud-init `runcmd: [[mount, -t, nfs, ...]]`). */
export function mountCommandFromWords(words: readonly Word[], host: ShellHost): MountEntry | undefined {
  const command = commandWords(words);
  const name = command[0];
  if (!name) return undefined;
  const base = commandBaseName(name.value);
  return MOUNT_NAMES.has(base)
    ? mountCommand(command, base, host)
    : base === 'pcs' || base === 'crm'
      ? filesystemResource(command, host)
      : undefined;
}

/** Drops `sudo -E`, `env A=b`, `VAR=x` and shell keywords in front of the command. */
function commandWords(words: readonly Word[]): Word[] {
  return words.slice(commandIndex(words));
}

/** A variable assigned once to a literal option text (`OPTS="rw,hard,vers=3"`) and used once. */
export interface LiteralVariable {
  readonly raw: string;
  readonly start: number;
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/**
 * `OPTS="rw,hard"` assignments standing alone (or after `export`/`readonly`/`local`) whose value is
 * literal, for `mount -o "$OPTS"`. A variable assigned more than once, or used more than once, is
 * left unknown: its options are then found by their content alone (contentStrings.ts).
 */
function literalVariables(text: string, from: number, to: number, slice: string): Map<string, LiteralVariable> {
  const found = new Map<string, LiteralVariable | null>();
  const literals = new Map<string, LiteralVariable>();
  // Only a `$` can use a variable: without one, no script needs this reading of its commands.
  if (!slice.includes('$')) return literals;
  forEachAssignment(text, from, to, (name, value) => found.set(name, found.has(name) || !value ? null : value));
  if (found.size === 0) return literals;
  // One pass over the script counts every reference (a pass per variable would be quadratic).
  const uses = new Map<string, number>();
  for (const match of slice.matchAll(VARIABLE_USE))
    if (found.get(match[1]!)) uses.set(match[1]!, (uses.get(match[1]!) ?? 0) + 1);
  for (const [name, value] of found) if (value && uses.get(name) === 1) literals.set(name, value);
  return literals;
}

/** A reference to a variable: `$NAME` or `${NAME`. */
export const VARIABLE_USE = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Each assignment standing alone (or after `export`/`readonly`/`local`/`declare`) in
 * `text[from, to)`, in order: its name, its value when literal (null otherwise) and where its word starts.
 */
export function forEachAssignment(
  text: string,
  from: number,
  to: number,
  visit: (name: string, value: LiteralVariable | null, at: number) => void,
  options: ShellOptions = {},
): void {
  forEachPipeline(text, from, to, options, (commands) => commands.forEach(readAssignments));
  function readAssignments(command: ShellCommand): void {
    const words = command.words;
    const first = words[0]?.value;
    const skip = first === 'export' || first === 'readonly' || first === 'local' || first === 'declare' ? 1 : 0;
    if (commandIndex(words) < words.length && skip === 0) return;
    for (const word of words.slice(skip)) {
      const match = ASSIGNMENT.exec(word.raw);
      if (!match) continue;
      const name = match[1]!;
      let raw = word.raw.slice(match[0].length);
      let start = word.span.start + match[0].length;
      const q = raw[0];
      if ((q === '"' || q === "'") && raw.length >= 2 && raw.endsWith(q)) {
        raw = raw.slice(1, -1);
        start++;
      }
      const literal = !word.templated && !/["'\\$`]/.test(raw);
      visit(name, literal ? { raw, start } : null, word.span.start);
    }
  }
}

function mountCommand(
  words: readonly Word[],
  name: string,
  host: ShellHost,
  variables?: ReadonlyMap<string, LiteralVariable>,
): MountEntry | undefined {
  let fsType: Word | undefined;
  let fsTypeValue: string | undefined = name === 'mount.nfs4' ? 'nfs4' : name === 'mount.nfs' ? 'nfs' : undefined;
  let fsTypeSpan: Span | undefined;
  const optionWords: { word: Word; offset: number }[] = [];
  const operands: Word[] = [];
  let all = false;
  let afterDashes = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const v = word.value;
    if (afterDashes || !v.startsWith('-') || v === '-') {
      operands.push(word);
      continue;
    }
    if (v === '--') {
      afterDashes = true;
      continue;
    }
    if (v === '-t' || v === '--types') {
      fsType = words[++i];
      continue;
    }
    if (v.startsWith('--types=')) {
      fsType = {
        ...word,
        value: v.slice('--types='.length),
        span: { start: word.span.start + word.raw.indexOf('=') + 1, end: word.span.end },
      };
      continue;
    }
    if (v === '-o' || v === '--options') {
      const next = words[++i];
      if (next) optionWords.push({ word: next, offset: 0 });
      continue;
    }
    if (v.startsWith('--options=')) {
      optionWords.push({ word, offset: word.raw.indexOf('=') + 1 });
      continue;
    }
    if (v === '--source' || v === '--target') {
      const next = words[++i];
      if (next) operands.push(next);
      continue;
    }
    if (/^-o[^-]/.test(v) && word.raw.startsWith('-o')) {
      optionWords.push({ word, offset: 2 });
      continue;
    }
    if (/^-t[a-z]/.test(v) && word.raw === word.value) {
      fsType = {
        raw: v.slice(2),
        value: v.slice(2),
        span: { start: word.span.start + 2, end: word.span.end },
        templated: word.templated,
      };
      continue;
    }
    if (MOUNT_OPTIONS_WITH_ARGUMENT.has(v)) {
      i++;
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(v)) {
      // Bundled short flags: `-vt nfs`, `-ort,hard`, `-a`.
      const letters = v.slice(1);
      if (letters.includes('a')) all = true;
      const t = letters.indexOf('t');
      const o = letters.indexOf('o');
      const firstArg = [t, o].filter((x) => x >= 0).sort((a, b) => a - b)[0];
      if (firstArg === undefined) continue;
      const rest = v.slice(firstArg + 2);
      const letter = letters[firstArg];
      if (rest.length > 0 && word.raw === word.value) {
        const restStart = word.span.start + firstArg + 2;
        if (letter === 't')
          fsType = {
            raw: rest,
            value: rest,
            span: { start: restStart, end: word.span.end },
            templated: word.templated,
          };
        else optionWords.push({ word, offset: firstArg + 2 });
      } else if (rest.length === 0) {
        const next = words[++i];
        if (letter === 't') fsType = next;
        else if (next) optionWords.push({ word: next, offset: 0 });
      }
    }
    // Any other long option without an argument (--bind, --verbose, --fake).
  }
  if (fsType) {
    fsTypeValue = fsType.templated ? undefined : fsType.value;
    fsTypeSpan = fsType.span;
  }
  if (all && operands.length === 0) return undefined;
  const [sourceWord, targetWord] = operands;
  if (!sourceWord) return undefined;
  // `mount /data` or `mount -t nfs $DIR` mount from fstab: nothing to judge here.
  const sourceText = sourceWord.value;
  const nfsSource = looksLikeNfsSource(sourceText);
  if (!targetWord && !nfsSource) return undefined;
  const typeIsNfs = isNfsType(fsTypeValue);
  const isNfs = typeIsNfs || (fsType === undefined && nfsSource);

  const options: MountOption[] = [];
  let variableSpan: Span | undefined;
  const substituted = new Set<Word>();
  for (const { word, offset } of optionWords) {
    // `-o "$OPTS"` with `OPTS="rw,hard"` earlier in the script: the assignment's options, where they are written.
    const reference = offset === 0 ? /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(word.value) : null;
    const variable = reference ? variables?.get(reference[1]!) : undefined;
    if (variable) {
      for (const option of splitOptions(variable.raw, variable.start)) options.push(option);
      variableSpan = { start: variable.start, end: variable.start + variable.raw.length };
      substituted.add(word);
      continue;
    }
    for (const option of splitOptions(word.raw.slice(offset), word.span.start + offset)) options.push(option);
  }
  for (const { word } of optionWords) {
    if (word.templated && !substituted.has(word) && options.every((o) => !o.templated)) {
      // `-o "$OPTS"` whose raw text held quotes only around a placeholder.
      options.push({ name: word.raw, span: word.span, nameSpan: word.span, templated: true });
    }
  }
  // `-o "'rw,hard'"`: the shell removes one pair of quotes and mount receives the other (ANF241).
  const quoted = optionWords.length === 1 && optionWords[0]!.offset === 0 ? optionWords[0]!.word : undefined;
  const extraQuotes =
    quoted && /^(?:"'[^']*'"|'"[^"]*"')$/.test(quoted.raw)
      ? {
          open: { start: quoted.span.start + 1, end: quoted.span.start + 2 },
          close: { start: quoted.span.end - 2, end: quoted.span.end - 1 },
          certain: true,
        }
      : undefined;
  const lastOptionWord = optionWords[optionWords.length - 1]?.word;
  const parts = splitNfsSource(sourceText);
  const first = words[0]!;
  const last = words[words.length - 1]!;
  const templated =
    sourceWord.templated ||
    (targetWord?.templated ?? false) ||
    (fsType?.templated ?? false) ||
    options.some((o) => o.templated);
  const sourceSpan = unquotedSpan(sourceWord);
  const mountPointSpan = targetWord ? unquotedSpan(targetWord) : undefined;
  return {
    uri: host.uri,
    origin: 'mount-command',
    host: host.host,
    source: sourceText,
    sourceSpan,
    ...(parts && !sourceWord.templated
      ? { server: parts.server, exportPath: parts.exportPath }
      : parts && isNfs
        ? templatedParts(parts)
        : {}),
    ...(targetWord
      ? { mountPoint: targetWord.value, mountPointSpan: mountPointSpan!, mountPointDecoded: targetWord.value }
      : {}),
    ...(fsTypeValue !== undefined || fsType
      ? { fsType: fsType?.value ?? fsTypeValue!, ...(fsTypeSpan ? { fsTypeSpan } : {}) }
      : {}),
    options,
    ...(variableSpan && optionWords.length === 1
      ? { optionsSpan: variableSpan }
      : lastOptionWord
        ? { optionsSpan: optionsSpanOf(lastOptionWord, optionWords[optionWords.length - 1]!.offset) }
        : {
            optionsSpan: { start: sourceWord.span.start, end: sourceWord.span.start },
            optionsInsertion: { before: '-o ', after: ' ' },
          }),
    isNfs,
    span: { start: first.span.start, end: last.span.end },
    ...(templated ? { templated: true } : {}),
    ...(extraQuotes ? { optionsQuotes: extraQuotes } : {}),
  };
}

/** A templated server with a literal export path still identifies the volume. */
function templatedParts(parts: { server: string; exportPath: string }): Partial<MountEntry> {
  return isTemplated(parts.exportPath) ? {} : { exportPath: parts.exportPath };
}

function unquotedSpan(word: Word): Span {
  const q = word.raw[0];
  if ((q === '"' || q === "'") && word.raw.length >= 2 && word.raw[word.raw.length - 1] === q)
    return { start: word.span.start + 1, end: word.span.end - 1 };
  return word.span;
}

function optionsSpanOf(word: Word, offset: number): Span {
  const start = word.span.start + offset;
  const inner = unquotedSpan({ ...word, raw: word.raw.slice(offset), span: { start, end: word.span.end } });
  return inner;
}

const FSTAB_PATH = /(?:^|\/)fstab$/;

/** `echo "srv:/x /mnt nfs opts 0 0" >> /etc/fstab`, `... | tee -a /etc/fstab`, `cat >> /etc/fstab <<EOF`. */
function fstabWrites(
  text: string,
  command: ShellCommand,
  words: readonly Word[],
  next: ShellCommand | undefined,
  host: ShellHost,
): MountEntry[] {
  const name = words[0]?.value;
  if (!name) return [];
  const writesFstab =
    command.redirects.some((r) => r.op.startsWith('>') && r.target !== undefined && FSTAB_PATH.test(r.target.value)) ||
    (name === 'tee' && words.some((w) => FSTAB_PATH.test(w.value)));
  const pipesToFstab =
    pipesToNext(command) &&
    next !== undefined &&
    (() => {
      const nextWords = commandWords(next.words);
      return nextWords[0]?.value === 'tee' && nextWords.some((w) => FSTAB_PATH.test(w.value));
    })();
  const mounts: MountEntry[] = [];
  if (writesFstab) {
    for (const redirect of command.redirects) {
      if (!redirect.body) continue;
      for (const line of bodyLines(text, redirect.body)) {
        const entry = parseFstabLine(line.text, line.start, host.uri, host.problems, host.host);
        if (entry) mounts.push(entry);
      }
    }
  }
  if ((writesFstab || pipesToFstab) && (name === 'echo' || name === 'printf')) {
    for (const word of words.slice(1)) {
      if (word.value.startsWith('-')) continue;
      const q = word.raw[0];
      const quoted = (q === '"' || q === "'") && word.raw.endsWith(q) && word.raw.length >= 2;
      const inner = quoted ? word.raw.slice(1, -1) : word.raw;
      if (inner.includes('\\n') || (quoted && inner.includes(q!))) continue;
      // Only lines that look like fstab entries: four fields or more.
      if (inner.trim().split(/\s+/).length < 4) continue;
      const entry = parseFstabLine(inner, word.span.start + (quoted ? 1 : 0), host.uri, host.problems, host.host);
      if (entry) mounts.push(entry);
    }
  }
  return mounts;
}
