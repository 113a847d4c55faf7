import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  applyEdits,
  detectFileKind,
  isLintable,
  kindNeedsText,
  lintFile,
  loadConfig,
  NO_FINDING_LIMITS,
  omittedFindings,
  SEVERITIES,
  resolveConfig,
  ruleByCode,
  visibleDiagnostics,
  Workspace,
  type Diagnostic,
  type FileKind,
  type LoadedConfig,
  type ResolvedConfig,
  type RuleSetting,
  type Severity,
  type TextEdit,
  type VolumeSummary,
} from '../core';
import { computeManifestFigures, type ManifestFigures } from '../core/manifest/figures';
import { collectFiles, displayPathOf, type InputFile } from './files';
import { changedLines, filesChangedSince, gitRoot, knownFiles, stagedFiles, stagedText } from './git';
import { readStream, UsageError, type CliIo } from './io';

/** One linted file and what anf-lint found in it. */
export interface FileResult {
  readonly path: string;
  readonly uri: string;
  /** Relative to the current folder, `/`-separated. */
  readonly displayPath: string;
  /** Relative to the repository root (or the current folder outside git): for SARIF and GitHub. */
  readonly repoPath: string;
  readonly kind: FileKind;
  /** The text the diagnostics refer to (after --fix, the fixed text). */
  readonly text: string;
  /** Every diagnostic, suppressed ones included (marked `suppressed`). */
  readonly diagnostics: readonly Diagnostic[];
  readonly volumes: readonly VolumeSummary[];
  /** Manifests: the computed figures of each pool and volume (what the editor's hovers show). */
  readonly figures?: ManifestFigures;
}

export interface LintRequest {
  readonly patterns: readonly string[];
  readonly stdinFilename?: string;
  readonly configPath?: string;
  readonly ruleOverrides: Readonly<Record<string, RuleSetting>>;
  readonly fix: 'none' | 'write' | 'dry-run';
  readonly changes?: 'staged' | { readonly ref: string };
  /** List every finding: no per-rule or per-file limit (ANF010). */
  readonly allFindings?: boolean;
}

export interface LintOutcome {
  readonly results: FileResult[];
  /** Lines for stderr: unreadable files, configuration warnings. */
  readonly errors: string[];
  readonly warnings: string[];
  readonly config: ResolvedConfig;
  readonly configPath?: string;
  /** The base for repository-relative paths. */
  readonly root: string;
  /** --fix-dry-run: each changed file's text before and after. */
  readonly fixes: { readonly displayPath: string; readonly before: string; readonly after: string }[];
  readonly workspace: Workspace;
}

/** How many times --fix re-lints a file; fixes that keep producing new fixes stop here. */
const MAX_FIX_PASSES = 10; // not a fact: loop bound

/** The folders a linted path's configuration is looked up from: the common ancestor of the paths. */
function configFolder(paths: readonly string[], cwd: string): string {
  const folders = paths.map((p) => {
    const absolute = resolve(cwd, p.replace(/[*?[{][\s\S]*$/, '') || '.');
    try {
      return statSync(absolute).isDirectory() ? absolute : dirname(absolute);
    } catch {
      return dirname(absolute);
    }
  });
  if (folders.length === 0) return cwd;
  let common = folders[0]!;
  for (const folder of folders.slice(1)) {
    while (common !== dirname(common) && folder !== common && !folder.startsWith(common.endsWith(sep) ? common : common + sep)) common = dirname(common);
  }
  return common;
}

const fsHost = {
  readFile(path: string): string | undefined {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/** Reads the configuration; exits with a usage error when it is missing or has errors. */
export function loadCliConfig(request: Pick<LintRequest, 'configPath' | 'patterns' | 'stdinFilename' | 'ruleOverrides'>, cwd: string): { loaded: LoadedConfig; resolved: ResolvedConfig; warnings: string[] } {
  let loaded: LoadedConfig;
  const explicit = request.configPath === undefined ? undefined : resolve(cwd, request.configPath);
  try {
    const startPaths = request.stdinFilename !== undefined ? [request.stdinFilename] : request.patterns.length > 0 ? request.patterns : ['.'];
    loaded = loadConfig(configFolder(startPaths, cwd), fsHost, explicit);
  } catch {
    throw new UsageError(`--config: cannot read ${request.configPath}`);
  }
  const warnings: string[] = [];
  if (loaded.path && loaded.text !== undefined) {
    // The configuration file judged like any file, with its own rule settings applied.
    const own = resolveConfig(loaded.config);
    const workspace = new Workspace(own);
    const uri = pathToFileURL(loaded.path).href;
    workspace.set(uri, loaded.text, 0, 'anf-lint-config');
    const diagnostics = visibleDiagnostics(lintFile(workspace, uri, own));
    const shown = displayPathOf(loaded.path, cwd);
    const lines = diagnostics.map((d) => `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}  ${d.severity}  ${d.message}  ${d.code}`);
    if (diagnostics.some((d) => d.severity === 'error')) {
      throw new UsageError(`the configuration file ${shown} has errors:\n${lines.map((l) => `  ${l}`).join('\n')}`);
    }
    warnings.push(...lines);
  }
  const config = { ...loaded.config, rules: { ...loaded.config.rules, ...request.ruleOverrides } };
  return { loaded, resolved: resolveConfig(config), warnings };
}

/** Parses `--rule CODE=severity` values. */
export function parseRuleOverrides(values: readonly string[]): Record<string, RuleSetting> {
  const result: Record<string, RuleSetting> = {};
  const settings: readonly string[] = ['off', 'hint', 'info', 'warning', 'error'];
  for (const value of values) {
    const match = /^\s*([A-Za-z0-9-]+)\s*[=:]\s*([A-Za-z]+)\s*$/.exec(value);
    if (!match) throw new UsageError(`--rule "${value}": write it as CODE=off|info|warning|error, e.g. --rule ANF204=off`);
    const code = match[1]!.toUpperCase();
    const setting = match[2]!.toLowerCase();
    if (!ruleByCode(code)) throw new UsageError(`--rule "${value}": anf-lint has no rule ${code} (see \`anf-lint rules\`)`);
    if (!settings.includes(setting)) throw new UsageError(`--rule "${value}": "${match[2]}" is not a severity; use off, hint, info, warning or error`);
    result[code] = setting as RuleSetting;
  }
  return result;
}

/** Lints what the request names and returns the results; nothing is printed here. */
export async function runLint(request: LintRequest, io: CliIo, progress?: (done: number, total: number) => void): Promise<LintOutcome> {
  const cwd = io.cwd;
  const root = gitRoot(cwd);
  const { loaded, resolved, warnings } = loadCliConfig(request, cwd);
  const errors: string[] = [];

  // The files to report on.
  let targets: InputFile[];
  if (request.stdinFilename !== undefined) {
    if (!io.stdin) throw new UsageError('--stdin: no standard input');
    const path = resolve(cwd, request.stdinFilename);
    targets = [{ path, displayPath: displayPathOf(path, cwd), text: await readStream(io.stdin) }];
  } else if (request.changes !== undefined) {
    if (!root) throw new UsageError(`${request.changes === 'staged' ? '--staged' : '--changed-since'} needs a git work tree`);
    targets = changedTargets(root, cwd, request.patterns, request.changes);
  } else {
    const collected = await collectFiles(request.patterns.length > 0 ? request.patterns : ['.'], cwd, root);
    targets = collected.files;
    errors.push(...collected.errors);
  }

  // The rest of the repository is context: a mount in fstab reaches the volume in a manifest.
  const workspace = new Workspace(resolved);
  const targetPaths = new Set(targets.map((t) => t.path));
  if (root) {
    for (const file of contextFiles(root)) if (!targetPaths.has(file.path)) workspace.set(pathToFileURL(file.path).href, file.text);
  }
  for (const target of targets) workspace.set(pathToFileURL(target.path).href, target.text);

  const fixes: LintOutcome['fixes'] = [];
  if (request.fix !== 'none') {
    const fixed = fixAll(workspace, targets, resolved);
    for (const target of targets) {
      const after = fixed.get(target.path);
      if (after === undefined || after === target.text) continue;
      fixes.push({ displayPath: target.displayPath, before: target.text, after });
      if (request.fix === 'write') {
        try {
          writeFileSync(target.path, after);
        } catch (error) {
          errors.push(`${target.displayPath}: cannot write the fixed file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
        }
      }
    }
    if (request.fix === 'dry-run') {
      // The files are unchanged: report what they hold now.
      for (const target of targets) workspace.set(pathToFileURL(target.path).href, target.text);
    }
  }

  const results: FileResult[] = [];
  const base = root ?? cwd;
  targets.forEach((target, index) => {
    const uri = pathToFileURL(target.path).href;
    const file = workspace.file(uri)!;
    let diagnostics = lintFile(workspace, uri, resolved, request.allFindings ? { limits: NO_FINDING_LIMITS } : {});
    if (request.changes !== undefined && root) {
      const lines = changedLines(root, request.changes, displayPathOf(target.path, root));
      if (lines !== 'all') diagnostics = diagnostics.filter((d) => touchesLines(d, lines));
    }
    results.push({
      path: target.path,
      uri,
      displayPath: target.displayPath,
      repoPath: displayPathOf(target.path, base),
      kind: file.kind,
      text: file.source.text,
      diagnostics,
      volumes: file.volumes,
      ...(file.manifest ? { figures: computeManifestFigures(file.manifest, resolved) } : {}),
    });
    progress?.(index + 1, targets.length);
  });
  // A configuration file that is linted too reports its warnings in the report itself.
  const shownWarnings = loaded.path !== undefined && targetPaths.has(resolve(loaded.path)) ? [] : warnings;
  return { results, errors, warnings: shownWarnings, config: resolved, ...(loaded.path ? { configPath: loaded.path } : {}), root: base, fixes, workspace };
}

function touchesLines(diagnostic: Diagnostic, lines: ReadonlySet<number>): boolean {
  const { start, end } = diagnostic.range;
  const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  for (let line = start.line; line <= last; line++) if (lines.has(line)) return true;
  return false;
}

/** Staged files (their index content) or files changed since a ref (their work-tree content). */
function changedTargets(root: string, cwd: string, patterns: readonly string[], changes: 'staged' | { readonly ref: string }): InputFile[] {
  const names = changes === 'staged' ? stagedFiles(root) : filesChangedSince(root, changes.ref);
  const scopes = patterns.map((p) => resolve(cwd, p));
  const targets: InputFile[] = [];
  for (const name of names) {
    const path = resolve(root, name);
    if (scopes.length > 0 && !scopes.some((scope) => path === scope || path.startsWith(scope.endsWith(sep) ? scope : scope + sep))) continue;
    let text: string;
    try {
      text = changes === 'staged' ? stagedText(root, name) : readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    if (text.includes('\0') || !isLintable(detectFileKind(path, text))) continue;
    targets.push({ path, displayPath: displayPathOf(path, cwd), text });
  }
  return targets.sort((a, b) => (a.displayPath < b.displayPath ? -1 : 1));
}

/** Every lintable file git knows, as context for cross-file rules. */
function contextFiles(root: string): { path: string; text: string }[] {
  const result: { path: string; text: string }[] = [];
  let names: string[];
  try {
    names = knownFiles(root);
  } catch {
    return result;
  }
  for (const name of names) {
    const path = resolve(root, name);
    const byName = detectFileKind(path);
    const base = name.slice(name.lastIndexOf('/') + 1);
    const needsContent = byName === 'unknown' && (kindNeedsText(base) || !base.includes('.'));
    if (byName === 'unknown' && !needsContent) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    if (text.includes('\0') || !isLintable(detectFileKind(path, text))) continue;
    result.push({ path, text });
  }
  return result;
}

/**
 * Applies safe fixes until nothing changes (bounded): each pass takes the first safe fix of each
 * visible diagnostic, applies the non-overlapping ones, re-parses and re-lints.
 */
function fixAll(workspace: Workspace, targets: readonly InputFile[], config: ResolvedConfig): Map<string, string> {
  const texts = new Map(targets.map((t) => [pathToFileURL(t.path).href, t.text]));
  const pathOfUri = new Map(targets.map((t) => [pathToFileURL(t.path).href, t.path]));
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    const editsByUri = new Map<string, TextEdit[]>();
    for (const uri of texts.keys()) {
      for (const diagnostic of visibleDiagnostics(lintFile(workspace, uri, config, { limits: NO_FINDING_LIMITS }))) {
        const fix = diagnostic.fixes.find((f) => f.safe);
        if (!fix) continue;
        // A fix is applied whole or not at all; edits in files we do not lint are left alone.
        if (!fix.edits.every((e) => texts.has(e.uri))) continue;
        for (const edit of fix.edits) editsByUri.set(edit.uri, [...(editsByUri.get(edit.uri) ?? []), edit]);
      }
    }
    let changed = false;
    for (const [uri, edits] of editsByUri) {
      const before = texts.get(uri)!;
      const after = applyEdits(before, dedupeEdits(edits)).text;
      if (after === before) continue;
      texts.set(uri, after);
      workspace.set(uri, after);
      changed = true;
    }
    if (!changed) break;
  }
  return new Map([...texts].map(([uri, text]) => [pathOfUri.get(uri)!, text]));
}

function dedupeEdits(edits: readonly TextEdit[]): TextEdit[] {
  const seen = new Set<string>();
  return edits.filter((e) => {
    const key = `${e.span.start}:${e.span.end}:${e.newText}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Exit code for a run: findings at or above --fail-on, or more warnings than --max-warnings. */
export function findingsExceed(results: readonly FileResult[], failOn: Severity, maxWarnings: number | undefined): boolean {
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
    for (const severity of SEVERITIES) if (omitted.bySeverity[severity] > 0 && SEVERITY_RANK[severity] <= SEVERITY_RANK[failOn]) failing = true;
  }
  return failing || (maxWarnings !== undefined && warnings > maxWarnings);
}

