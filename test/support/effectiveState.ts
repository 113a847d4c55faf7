import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  applyEdits,
  configSchema,
  detectFileKind,
  isLintable,
  lintFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type Diagnostic,
  type ResolvedConfig,
  type Span,
  type TextEdit,
} from '../../server/src/core';
import { effectiveOptions } from '../../server/src/core/mounts/catalog';
import { scopeOf, type SettingScope } from '../../server/src/core/sysctl/rules/scope';
import { selectFixes, MAX_FIX_PASSES } from '../../server/src/core/project/fixes';
import { NO_FINDING_LIMITS } from '../../server/src/core/rules/findingLimits';

/**
 * What the machines a workspace describes end up with, for the fix engine's meaning check: each
 * host's (or file's) winning kernel values per key, per target file and per condition ("world":
 * the `when:` of an Ansible task, a template's `{% if %}` branch), and each mount's source, type
 * and options (the last value of an option wins). Each entry remembers the text it comes from, so
 * a difference can be traced to the fix that touched that text.
 */
export interface EffectiveEntry {
  readonly value: string;
  readonly uri: string;
  readonly span: Span;
}

export interface EffectiveState {
  readonly entries: ReadonlyMap<string, EffectiveEntry>;
  /** The conditions seen per kernel key: the after state is read in the before state's worlds. */
  readonly worlds: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A setting applies in world `world` when it has no condition, the same one, or one `world` starts with. */
function appliesIn(condition: string | undefined, world: string): boolean {
  return condition === undefined || condition === world || world.startsWith(`${condition} && `);
}

export function effectiveState(
  workspace: Workspace,
  worldsFrom?: ReadonlyMap<string, ReadonlySet<string>>,
): EffectiveState {
  const entries = new Map<string, EffectiveEntry>();
  const worlds = new Map<string, Set<string>>();
  const scopes = new Set<SettingScope>();
  for (const file of workspace.files()) if (file.settings.length > 0) scopes.add(scopeOf(workspace, file));
  for (const scope of scopes) {
    const scopeId = scope.root ?? scope.ordered[0]?.uri ?? '?';
    const groups = new Map<string, (typeof scope.ordered)[number][]>();
    for (const setting of scope.ordered) {
      if (setting.templated) continue;
      const group = `kernel|${scopeId}|${setting.persistent ? 'boot' : 'now'}|${setting.target ?? ''}|${setting.key}`;
      const list = groups.get(group);
      if (list) list.push(setting);
      else groups.set(group, [setting]);
    }
    for (const [group, settings] of groups) {
      const seen = new Set<string>([
        '',
        ...settings.map((s) => scope.conditions.get(s) ?? ''),
        ...(worldsFrom?.get(group) ?? []),
      ]);
      worlds.set(group, seen);
      for (const world of seen) {
        let winner: (typeof settings)[number] | undefined;
        for (const setting of settings) if (appliesIn(scope.conditions.get(setting), world)) winner = setting;
        if (winner)
          entries.set(`${group}|${world}`, {
            value: winner.value.trim().replace(/\s+/g, ' '),
            uri: winner.uri,
            span: winner.span,
          });
      }
    }
  }
  for (const host of workspace.hosts().scopes) {
    const occurrences = new Map<string, number>();
    for (const mount of host.mounts) {
      const at = `${mount.uri}|${mount.mountPoint ?? '?'}`;
      const n = occurrences.get(at) ?? 0;
      occurrences.set(at, n + 1);
      const id = `mount|${host.id}|${at}|${n}`;
      if (mount.source !== undefined)
        entries.set(`${id}|source`, { value: mount.source, uri: mount.uri, span: mount.sourceSpan ?? mount.span });
      if (mount.fsType !== undefined)
        entries.set(`${id}|type`, { value: mount.fsType, uri: mount.uri, span: mount.fsTypeSpan ?? mount.span });
      // The options the kernel uses: the last of each group (`hard` after `soft`, `vers=` or `nfsvers=`).
      const effective = effectiveOptions(mount);
      const lost = new Set(effective.overridden.map((o) => o.option));
      mount.options.forEach((option, index) => {
        if (lost.has(option)) return;
        const group = effective.specs[index]?.group ?? option.name;
        entries.set(`${id}|option ${group}`, {
          value: option.value === undefined ? option.name : `${option.name}=${option.value}`,
          uri: mount.uri,
          span: option.span,
        });
      });
    }
  }
  return { entries, worlds };
}

/** Rules whose fix claims to change nothing a host ends up with (it removes what never takes effect). */
export const NEUTRAL_FIX_RULES: ReadonlySet<string> = new Set(['ANF204', 'ANF306']);

/** Where each edit's new text lies after the edits are applied (edits of one file, not overlapping). */
function rangesAfter(edits: readonly TextEdit[]): Span[] {
  let delta = 0;
  return [...edits]
    .sort((a, b) => a.span.start - b.span.start)
    .map((edit) => {
      const start = edit.span.start + delta;
      delta += edit.newText.length - (edit.span.end - edit.span.start);
      return { start, end: start + edit.newText.length };
    });
}

const touches = (a: Span, b: Span) => a.start <= b.end && b.start <= a.end;

export interface MeaningViolation {
  readonly pass: number;
  readonly key: string;
  readonly before?: string;
  readonly after?: string;
  readonly fixes: readonly string[];
}

/**
 * Applies the safe fixes pass by pass as the engine does (project/fixes.ts selectFixes) and checks
 * after each pass that the effective state changed only where a fix meant it to: an entry may
 * differ only when a fix of a rule that means to change a value edited that entry's text. A
 * removed value, a value moved to another file or condition, or a change a neutral fix made
 * (ANF306 deletes a value that "never takes effect") is a violation.
 */
export function checkFixMeaning(workspace: Workspace, configFor: (uri: string) => ResolvedConfig): MeaningViolation[] {
  const violations: MeaningViolation[] = [];
  const uris = workspace.files().map((f) => f.uri);
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const diagnostics: Diagnostic[] = uris.flatMap((uri) =>
      visibleDiagnostics(lintFile(workspace, uri, configFor(uri), { limits: NO_FINDING_LIMITS })),
    );
    const { edits, chosen } = selectFixes(diagnostics, 'safe');
    if (edits.length === 0) break;
    const before = effectiveState(workspace);
    const byUri = new Map<string, TextEdit[]>();
    for (const edit of edits) byUri.set(edit.uri, [...(byUri.get(edit.uri) ?? []), edit]);
    const after = new Map<string, Span[]>();
    let changed = false;
    for (const [uri, fileEdits] of byUri) {
      const file = workspace.file(uri)!;
      const text = applyEdits(file.source.text, fileEdits).text;
      after.set(uri, rangesAfter(fileEdits));
      if (text === file.source.text) continue;
      workspace.set(uri, text, file.version, file.kind);
      changed = true;
    }
    if (!changed) break;
    const now = effectiveState(workspace, before.worlds);
    const meant = (entry: EffectiveEntry | undefined, side: 'before' | 'after') =>
      entry !== undefined &&
      chosen.some(({ diagnostic, fix }) => {
        if (NEUTRAL_FIX_RULES.has(diagnostic.code)) return false;
        if (side === 'before') return fix.edits.some((e) => e.uri === entry.uri && touches(e.span, entry.span));
        return (
          (after.get(entry.uri) ?? []).some((range) => touches(range, entry.span)) &&
          fix.edits.some((e) => e.uri === entry.uri)
        );
      });
    for (const key of new Set([...before.entries.keys(), ...now.entries.keys()])) {
      const was = before.entries.get(key);
      const is = now.entries.get(key);
      if (was?.value === is?.value) continue;
      if (meant(was, 'before') || meant(is, 'after')) continue;
      violations.push({
        pass,
        key,
        ...(was ? { before: was.value } : {}),
        ...(is ? { after: is.value } : {}),
        fixes: chosen.map(({ diagnostic, fix }) => `${diagnostic.code} ${fix.title}`),
      });
    }
  }
  return violations;
}

function walk(dir: string, skip: (entry: string, dir: string) => boolean = () => false): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (skip(entry, dir)) return [];
    return statSync(path).isDirectory() ? walk(path, skip) : [path];
  });
}

/** A workspace of a folder's lintable files (a rule fixture without expected.txt and fixed/, or examples/). */
export function folderWorkspace(
  dir: string,
  transform: (text: string, path: string) => string = (t) => t,
): { workspace: Workspace; config: ResolvedConfig; uris: string[] } {
  const configPath = join(dir, '.anf-lint.yaml');
  const config = resolveConfig(
    existsSync(configPath) ? configSchema.parse(parseYaml(readFileSync(configPath, 'utf8')) ?? {}) : {},
  );
  const workspace = new Workspace(config);
  const uris: string[] = [];
  const paths = walk(
    dir,
    (entry, parent) => parent === dir && (entry === 'expected.txt' || entry === 'fixed' || entry === '.anf-lint.yaml'),
  ).sort();
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    const rel = relative(dir, path);
    if (!isLintable(detectFileKind(rel, text))) continue;
    const uri = `file:///fixture/${rel}`;
    workspace.set(uri, transform(text, rel));
    uris.push(uri);
  }
  return { workspace, config, uris };
}
