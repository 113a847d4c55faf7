import { dirname, resolve } from 'node:path';
import picomatch from 'picomatch';
import {
  CONFIG_FILE_NAMES,
  NO_FINDING_LIMITS,
  omittedFindings,
  SEVERITIES,
  resolveConfig,
  ruleByCode,
  visibleDiagnostics,
  type AnfLintConfig,
  type Diagnostic,
  type FileKind,
  type ResolvedConfig,
  type RuleSetting,
  type Severity,
  type VolumeSummary,
} from '../core';
import { checkConfigFile } from '../core/features/configDiagnostics';
import { computeManifestFigures, type ManifestFigures } from '../core/manifest/figures';
import { fileInventory, listsEstate, type EstateInventory } from '../core/estate/inventory';
import {
  ConfigUnreadable,
  decodeBytes,
  isInside,
  isProjectFile,
  Project,
  relativeTo,
  type AppliedFix,
  type DroppedFix,
  type ConfigChoice,
  type Environment,
  type ProjectRun,
  type Root,
  type Target,
} from '../core/project';
import { DEFAULT_DISCOVERY_LIMITS, type DiscoveryLimits } from '../core/project/limits';
import { NodeEnvironment, RefNotFound, toCorePath } from '../node/nodeEnvironment';
import { displayPathOf } from './files';
import { loadIacReaders, needIacReaders, parsesLittle } from './iacReaders';
import { readStream, UsageError, type CliIo } from './io';

/** One linted file and what anf-lint found in it. */
export interface FileResult {
  readonly path: string;
  readonly uri: string;
  /** Relative to the current folder, `/`-separated. */
  readonly displayPath: string;
  /** Relative to the file's repository root (or the current folder outside git): for SARIF and GitHub. */
  readonly repoPath: string;
  readonly kind: FileKind;
  /** The text the diagnostics refer to (after --fix, the fixed text). */
  readonly text: string;
  /** Every diagnostic, suppressed ones included (marked `suppressed`). */
  readonly diagnostics: readonly Diagnostic[];
  readonly volumes: readonly VolumeSummary[];
  /** Manifests: the computed figures of each pool and volume (what the editor's hovers show). */
  readonly figures?: ManifestFigures;
  /**
   * Manifests and infrastructure code: the file's estate inventory (core/estate/inventory.ts, the
   * same as `anf-lint estate` and the tree); empty for a module its callers read (listed there).
   */
  readonly inventory?: FileInventory;
}

export type FileInventory = Omit<EstateInventory, 'totals'> & { readonly calledModule: boolean };

export interface LintRequest {
  readonly patterns: readonly string[];
  readonly stdinFilename?: string;
  readonly configPath?: string;
  readonly ruleOverrides: Readonly<Record<string, RuleSetting>>;
  readonly fix: 'none' | 'write' | 'dry-run';
  /** --unsafe-fixes: apply unsafe fixes too. */
  readonly unsafeFixes?: boolean;
  readonly changes?: 'staged' | { readonly ref: string };
  /** List every finding: no per-rule or per-file limit (ANF010). */
  readonly allFindings?: boolean;
  /**
   * --max-files N: read at most N candidate files per folder named. Without it the CLI reads every
   * file (no silent cap); the bound, when asked for, is reported as a note and never fails the run.
   */
  readonly maxFiles?: number;
}

export interface FileFix {
  readonly displayPath: string;
  readonly before: string;
  readonly after: string;
  /** The fixes applied to it, each marked safe or unsafe. */
  readonly applied: readonly AppliedFix[];
}

export interface LintOutcome {
  readonly results: FileResult[];
  /** Lines for stderr that fail the run (exit 2): unreadable files, failed writes. */
  readonly errors: string[];
  /** Lines for stderr that do not: skipped links and special files, files --fix refuses. */
  readonly notes: string[];
  readonly warnings: string[];
  readonly config: ResolvedConfig;
  readonly configPath?: string;
  /** The base for repository-relative paths. */
  readonly root: string;
  /** The files --fix changed (written, or for --fix-dry-run would change): text before and after. */
  readonly fixes: FileFix[];
  /** What --fix left out: fixes backed out because they did not compose, and the unsafe fixes still offered (without --unsafe-fixes). */
  readonly fixesLeft?: FixesLeft;
}

export interface FixesLeft {
  readonly dropped: readonly { readonly displayPath: string; readonly fix: DroppedFix }[];
  readonly unsafe: number;
}

/** The CLI's environment: Node's, unless a test injects its own. */
function environmentOf(io: CliIo): Environment {
  return io.environment ?? new NodeEnvironment({ rememberFolders: true });
}

function layered(overrides: Readonly<Record<string, RuleSetting>>): (config: AnfLintConfig) => ResolvedConfig {
  return (config) => resolveConfig({ ...config, rules: { ...config.rules, ...overrides } });
}

function newProject(request: Pick<LintRequest, 'configPath' | 'ruleOverrides' | 'maxFiles'>, io: CliIo): Project {
  const cwd = toCorePath(io.cwd);
  return new Project(environmentOf(io), {
    cwd,
    limits: cliDiscoveryLimits(request.maxFiles),
    ...(request.configPath !== undefined ? { explicitConfig: toCorePath(resolve(io.cwd, request.configPath)) } : {}),
    layer: layered(request.ruleOverrides),
  });
}

/**
 * The CLI reads every file of the folders it is given: a user who names a repository means all of
 * it (issue 26: a 2,888-file repository stopped at 2,000 and failed). Only --max-files bounds it.
 * Files larger than the discovered-file bound are still skipped with a note.
 */
function cliDiscoveryLimits(maxFiles: number | undefined): DiscoveryLimits {
  return {
    maxFiles: maxFiles ?? Number.POSITIVE_INFINITY,
    maxEntries: Number.POSITIVE_INFINITY,
    maxFileBytes: DEFAULT_DISCOVERY_LIMITS.maxFileBytes,
  };
}

function isConfigFileName(path: string): boolean {
  return (CONFIG_FILE_NAMES as readonly string[]).includes(path.slice(path.lastIndexOf('/') + 1));
}

/** A configuration file judged like any file: errors stop the run (exit 2), warnings are printed. */
function checkConfigChoice(choice: ConfigChoice, cwd: string, env: Environment): string[] {
  if (choice.path === undefined || choice.text === undefined) return [];
  const diagnostics = visibleDiagnostics(
    checkConfigFile(env.uriOf(choice.path), choice.text, resolveConfig(choice.config)).diagnostics,
  );
  const shown = displayPathOf(choice.path, cwd);
  const lines = diagnostics.map(
    (d) => `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}  ${d.severity}  ${d.message}  ${d.code}`,
  );
  if (diagnostics.some((d) => d.severity === 'error'))
    throw new UsageError(`the configuration file ${shown} has errors:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  return lines;
}

function configOf(project: Project, path: string, request: Pick<LintRequest, 'configPath'>, root?: Root): ConfigChoice {
  try {
    return project.configFor(path, root);
  } catch (error) {
    if (error instanceof ConfigUnreadable)
      throw new UsageError(
        request.configPath !== undefined ? `--config: cannot read ${request.configPath}` : error.message,
      );
    throw error;
  }
}

/** The configuration of the current folder (for `size` and `mount`); exits with a usage error when it has errors. */
export function loadCliConfig(
  request: Pick<LintRequest, 'configPath' | 'ruleOverrides'>,
  cwd: string,
  io?: CliIo,
): { loaded: { path?: string; text?: string; config: AnfLintConfig }; resolved: ResolvedConfig; warnings: string[] } {
  const project = newProject(request, io ?? { cwd, stdout: process.stdout, stderr: process.stderr, env: process.env });
  const choice = configOf(project, `${toCorePath(cwd)}/.`, request);
  const warnings = checkConfigChoice(choice, cwd, project.env);
  return {
    loaded: { ...(choice.path !== undefined ? { path: choice.path, text: choice.text! } : {}), config: choice.config },
    resolved: choice.resolved,
    warnings,
  };
}

/** Parses `--rule CODE=severity` values. */
export function parseRuleOverrides(values: readonly string[]): Record<string, RuleSetting> {
  const result: Record<string, RuleSetting> = {};
  const settings: readonly string[] = ['off', 'hint', 'info', 'warning', 'error'];
  for (const value of values) {
    const match = /^\s*([A-Za-z0-9-]+)\s*[=:]\s*([A-Za-z]+)\s*$/.exec(value);
    if (!match)
      throw new UsageError(`--rule "${value}": write it as CODE=off|info|warning|error, e.g. --rule ANF204=off`);
    const code = match[1]!.toUpperCase();
    const setting = match[2]!.toLowerCase();
    if (!ruleByCode(code))
      throw new UsageError(`--rule "${value}": anf-lint has no rule ${code} (see \`anf-lint rules\`)`);
    if (!settings.includes(setting))
      throw new UsageError(`--rule "${value}": "${match[2]}" is not a severity; use off, hint, info, warning or error`);
    result[code] = setting as RuleSetting;
  }
  return result;
}

/** The files the patterns name: files as named, folders and globs through the project's discovery. */
function patternTargets(
  project: Project,
  patterns: readonly string[],
  io: CliIo,
  errors: string[],
  notes: string[],
): Target[] {
  const cwd = toCorePath(io.cwd);
  const targets: Target[] = [];
  for (const pattern of patterns) {
    const absolute = toCorePath(resolve(io.cwd, pattern));
    const info = project.env.stat(absolute);
    if (info && info.kind !== 'directory') {
      targets.push({ path: absolute, named: true });
      continue;
    }
    if (info?.kind === 'directory') {
      const found = project.discover(absolute);
      // Outside git, the folder named is the files' root (their configuration is looked up no higher than it, or than the current folder when it lies below it).
      const root = found.root.context ? found.root : { ...found.root, path: absolute };
      for (const path of found.paths) targets.push({ path, root });
      // Only --max-files stops discovery in the CLI: the user asked for the bound, so it is a note, not a failure.
      if (found.stopped)
        notes.push(
          `${displayPathOf(absolute, io.cwd)}: read the first files only, because ${found.stopped} (--max-files)`,
        );
      continue;
    }
    const scan = picomatch.scan(pattern);
    if (scan.isGlob) {
      const base = toCorePath(resolve(io.cwd, scan.base || '.'));
      const found = project.env.stat(base)?.kind === 'directory' ? project.discover(base) : undefined;
      const isMatch = picomatch(pattern.replace(/^\.\//, ''), { dot: true });
      const kept = (found?.paths ?? []).filter((path) => isMatch(relativeTo(cwd, path) ?? path));
      if (kept.length === 0) errors.push(`${pattern}: no files match`);
      const root = found && !found.root.context ? { ...found.root, path: base } : found?.root;
      for (const path of kept) targets.push({ path, ...(root ? { root } : {}) });
      continue;
    }
    errors.push(`${pattern}: no such file or folder`);
  }
  return targets;
}

/** Staged files (their index content) or files changed since a ref (their work-tree content). */
function changedTargets(
  project: Project,
  patterns: readonly string[],
  changes: 'staged' | { readonly ref: string },
  io: CliIo,
): { targets: Target[]; root: Root } {
  const root = project.rootOfFolder(toCorePath(io.cwd));
  const git = project.env.git;
  if (root.gitRoot === undefined || !git)
    throw new UsageError(`${changes === 'staged' ? '--staged' : '--changed-since'} needs a git work tree`);
  const gitRoot = root.gitRoot;
  let names: readonly string[];
  try {
    names = changes === 'staged' ? git.stagedFiles(gitRoot) : git.changedSince(gitRoot, changes.ref);
  } catch (error) {
    if (error instanceof RefNotFound && changes !== 'staged')
      throw new UsageError(`--changed-since: "${changes.ref}" is not a commit, branch or tag in this repository`);
    throw error;
  }
  const scopes = patterns.map((p) => toCorePath(resolve(io.cwd, p)));
  const targets: Target[] = [];
  for (const name of names) {
    const path = `${gitRoot}/${name}`;
    if (scopes.length > 0 && !scopes.some((scope) => isInside(scope, path))) continue;
    if (changes === 'staged') {
      let staged: { text: string; decodable: boolean };
      try {
        staged = decodeBytes(git.stagedContent(gitRoot, name));
      } catch {
        continue;
      }
      if (!isProjectFile(path, staged.text)) continue;
      targets.push({ path, text: staged.text, decodable: staged.decodable, root });
    } else {
      targets.push({ path, root });
    }
  }
  return { targets, root };
}

function touchesLines(diagnostic: Diagnostic, lines: ReadonlySet<number>): boolean {
  const { start, end } = diagnostic.range;
  const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  for (let line = start.line; line <= last; line++) if (lines.has(line)) return true;
  return false;
}

/**
 * Reads what the request names (files, folders, globs, standard input, changed files) with their
 * roots' context into the project's workspaces. `anf-lint estate` reads the same files as lint.
 */
export async function openTargets(
  request: Omit<LintRequest, 'fix'>,
  io: CliIo,
): Promise<{
  project: Project;
  run: ProjectRun;
  errors: string[];
  discoveryNotes: string[];
  baseRoot: Root | undefined;
}> {
  const project = newProject(request, io);
  const env = project.env;
  const cwd = toCorePath(io.cwd);
  const errors: string[] = [];
  const discoveryNotes: string[] = [];

  // The files to report on.
  let targets: Target[];
  let baseRoot: Root | undefined;
  if (request.stdinFilename !== undefined) {
    if (!io.stdin) throw new UsageError('--stdin: no standard input');
    const path = toCorePath(resolve(io.cwd, request.stdinFilename));
    const root = env.stat(dirname(path))?.kind === 'directory' ? project.rootOf(path) : project.rootOfFolder(cwd);
    const { text, decodable } = decodeBytes(await readStream(io.stdin));
    targets = [{ path, text, decodable, named: true, root }];
  } else if (request.changes !== undefined) {
    const changed = changedTargets(project, request.patterns, request.changes, io);
    targets = changed.targets;
    baseRoot = changed.root;
  } else {
    targets = patternTargets(
      project,
      request.patterns.length > 0 ? request.patterns : ['.'],
      io,
      errors,
      discoveryNotes,
    );
  }
  const seen = new Set<string>();
  targets = targets.filter((t) => (seen.has(t.path) ? false : (seen.add(t.path), true)));

  // The Terraform and Bicep readers load only when a target or a context file needs them.
  const roots = new Map<string, Root>();
  for (const target of targets) {
    const root = target.root ?? project.rootOf(target.path);
    roots.set(root.path, root);
  }
  const paths = new Set([
    ...targets.map((t) => t.path),
    ...[...roots.values()].flatMap((root) => project.contextPaths(root)),
  ]);
  if (needIacReaders(paths)) {
    // A target read from standard input has no file to stat: its text's length stands for its size.
    const sizes = new Map(targets.flatMap((t) => (t.text !== undefined ? [[t.path, t.text.length] as const] : [])));
    await loadIacReaders(
      io,
      parsesLittle(paths, (path) => sizes.get(path) ?? env.stat(path)?.size),
    );
  }

  const run = project.open(targets);
  return { project, run, errors, discoveryNotes, baseRoot };
}

/** Lints what the request names and returns the results; nothing is printed here. */
export async function runLint(
  request: LintRequest,
  io: CliIo,
  progress?: (done: number, total: number) => void,
): Promise<LintOutcome> {
  const { project, run, errors, discoveryNotes, baseRoot } = await openTargets(request, io);
  const env = project.env;
  const cwd = toCorePath(io.cwd);
  // Each display path made once (in the comparison, n log n of them on 3,000 files).
  const shownPaths = new Map(run.targets.map((t) => [t, displayPathOf(t.path, io.cwd)]));
  const sorted = [...run.targets].sort((a, b) => {
    const x = shownPaths.get(a)!;
    const y = shownPaths.get(b)!;
    return x < y ? -1 : x > y ? 1 : 0;
  });

  // Every configuration in use is checked first: one with errors stops the run.
  const warnings: string[] = [];
  const checked = new Set<string>();
  // Configuration files linted as targets are reported like any file; the ones that configure other files must be sound.
  const configured = sorted.filter((t) => !isConfigFileName(t.path));
  const configs =
    configured.length > 0
      ? configured.map((t) => configOf(project, t.path, request, t.root))
      : [configOf(project, `${cwd}/.`, request)];
  for (const choice of configs) {
    if (choice.path === undefined || checked.has(choice.path)) continue;
    checked.add(choice.path);
    const lines = checkConfigChoice(choice, io.cwd, env);
    // A configuration file that is linted too reports its warnings in the report itself.
    if (!sorted.some((t) => t.path === choice.path)) warnings.push(...lines);
  }

  const fixes: FileFix[] = [];
  let fixesLeft: FixesLeft | undefined;
  if (request.fix !== 'none') {
    const fixed = run.fix(request.unsafeFixes ? 'unsafe' : 'safe');
    const pathOfUri = new Map(sorted.map((t) => [t.uri, displayPathOf(t.path, io.cwd)]));
    fixesLeft = {
      dropped: fixed.dropped.map((fix) => ({ displayPath: pathOfUri.get(fix.uri) ?? fix.uri, fix })),
      unsafe: fixed.unsafeLeft,
    };
    for (const target of sorted) {
      const before = fixed.before.get(target.uri);
      const after = fixed.after.get(target.uri);
      if (before === undefined || after === undefined || after === before) continue;
      const displayPath = displayPathOf(target.path, io.cwd);
      if (request.fix === 'write') {
        const failure = project.write(target.path, after, target.root);
        if (failure !== undefined) {
          errors.push(`${displayPath}: ${failure}`);
          run.restore(target.uri, before);
          continue;
        }
      } else {
        // The files are unchanged: report what they hold now.
        run.restore(target.uri, before);
      }
      fixes.push({ displayPath, before, after, applied: fixed.applied.filter((a) => a.uri === target.uri) });
    }
  }

  const results: FileResult[] = [];
  sorted.forEach((target, index) => {
    const linted = run.lint(target.uri, request.allFindings ? { limits: NO_FINDING_LIMITS } : {});
    let diagnostics = linted.diagnostics;
    const gitRoot = target.root.gitRoot;
    if (request.changes !== undefined && gitRoot !== undefined && env.git) {
      const lines = env.git.changedLines(gitRoot, request.changes, relativeTo(gitRoot, target.path) ?? target.path);
      if (lines !== 'all') diagnostics = diagnostics.filter((d) => touchesLines(d, lines));
    }
    const file = linted.file;
    results.push({
      path: target.path,
      uri: target.uri,
      displayPath: shownPaths.get(target)!,
      repoPath: displayPathOf(target.path, target.root.gitRoot ?? cwd),
      kind: file.kind,
      text: file.source.text,
      diagnostics,
      volumes: file.volumes,
      ...(file.manifest ? { figures: computeManifestFigures(file.manifest, linted.config.resolved) } : {}),
      ...(file.manifest
        ? {
            inventory: listsEstate(file)
              ? { ...fileInventory(file, linted.config.resolved), calledModule: false }
              : { accounts: [], pools: [], volumes: [], calledModule: true },
          }
        : {}),
    });
    progress?.(index + 1, sorted.length);
  });

  for (const error of project.errors) errors.push(`${displayPathOf(error.path, io.cwd)}: ${error.message}`);
  const notes = [...discoveryNotes, ...project.notes.map((n) => `${displayPathOf(n.path, io.cwd)}: ${n.message}`)];
  const first = configs[0]!;
  const root = baseRoot ?? sorted[0]?.root ?? project.rootOfFolder(cwd);
  return {
    results,
    errors,
    notes,
    warnings,
    config: first.resolved,
    ...(first.path !== undefined ? { configPath: first.path } : {}),
    root: root.gitRoot ?? cwd,
    fixes,
    ...(fixesLeft ? { fixesLeft } : {}),
  };
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Exit code for a run: findings at or above --fail-on, or more warnings than --max-warnings. */
export function findingsExceed(
  results: readonly FileResult[],
  failOn: Severity,
  maxWarnings: number | undefined,
): boolean {
  let warnings = 0;
  let failing = false;
  for (const result of results) {
    for (const d of visibleDiagnostics(result.diagnostics)) {
      if (SEVERITY_RANK[d.severity] <= SEVERITY_RANK[failOn]) failing = true;
      if (d.severity === 'warning') warnings++;
    }
    // Findings past the report's limits count as much as the listed ones.
    const omitted = omittedFindings(result.diagnostics);
    if (!omitted) continue;
    warnings += omitted.bySeverity.warning;
    for (const severity of SEVERITIES)
      if (omitted.bySeverity[severity] > 0 && SEVERITY_RANK[severity] <= SEVERITY_RANK[failOn]) failing = true;
  }
  return failing || (maxWarnings !== undefined && warnings > maxWarnings);
}
