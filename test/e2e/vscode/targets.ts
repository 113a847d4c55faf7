import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
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
} from '../../../server/src/core';
import { computeHover } from '../../../server/src/core/features/hover';

/**
 * What the end-to-end test looks for in the workspace, found with the core itself so the test
 * follows examples/ as it changes: a manifest volume (tree view and hover), a diagnostic with a
 * one-line quick fix, and the codes the Problems panel must show.
 */
export interface Targets {
  readonly manifest: {
    readonly path: string;
    readonly account: string;
    readonly pool: string;
    readonly volume: string;
    readonly exportPath: string;
    readonly mountPoint: string;
    readonly server: string;
  };
  readonly fix: {
    readonly path: string;
    readonly line: number;
    readonly character: number;
    readonly code: string;
    readonly title: string;
    readonly fixedLine: string;
    readonly originalLine: string;
  };
  /** The first file of each kind anf-lint colors with its own grammar (for the coloring check). */
  readonly colored: readonly { readonly kind: string; readonly path: string }[];
  /** Codes of visible warnings and errors, by workspace-relative path. */
  readonly codes: ReadonlyMap<string, readonly string[]>;
  /** Infrastructure code: a Terraform and a Bicep file of the examples, and a one-line fix in the Terraform. */
  readonly iac: { readonly terraform: IacTarget; readonly bicep: IacTarget; readonly fix: Targets['fix'] };
}

/** A volume's size value in a `.tf` or `.bicep` file, what its hover says, and its estate names for the tree. */
export interface IacTarget {
  readonly path: string;
  /** Where the size's value starts (0-based): `storage_quota_in_gb = ` / `usageThreshold: `. */
  readonly line: number;
  readonly character: number;
  /** The hover's throughput line as the rendered hover shows it, e.g. `Throughput limit at this quota: 256 MiB/s`. */
  readonly hoverFigure: string;
  readonly account: string;
  readonly pool: string;
  readonly volume: string;
  /** The volume's throughput as the tree shows it, e.g. `256 MiB/s`. */
  readonly throughput: string;
}

/** The size key of a volume, by file kind: the hover with figures sits on its value. */
const SIZE_KEYS: Readonly<Record<'terraform' | 'bicep', RegExp>> = {
  terraform: /^(\s*storage_quota_in_gb\s*=\s*)\S/,
  bicep: /^(\s*usageThreshold\s*:\s*)\S/,
};

function iacTarget(
  root: string,
  workspace: Workspace,
  files: readonly string[],
  kind: 'terraform' | 'bicep',
  config: ReturnType<typeof resolveConfig>,
): IacTarget {
  for (const path of files) {
    const uri = pathToFileURL(path).href;
    const file = workspace.file(uri);
    if (file?.kind !== kind) continue;
    const lines = file.source.text.split('\n');
    for (const [line, text] of lines.entries()) {
      const key = SIZE_KEYS[kind].exec(text);
      if (!key) continue;
      const character = key[1]!.length;
      const offset = lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0) + character;
      const markdown = computeHover(workspace, uri, offset, config)?.markdown ?? '';
      const figure = /Throughput limit at this quota: \*\*([\d,.]+ MiB\/s)\*\*/.exec(markdown);
      if (!figure) continue;
      // The volume whose text holds this line: the last one that starts before it.
      const volume = workspace
        .volumes()
        .filter(
          (v) =>
            v.uri === uri && v.account && v.pool && v.name && file.source.positionAt(v.nameSpan.start).line <= line,
        )
        .at(-1);
      if (!volume) continue;
      return {
        path: relative(root, path),
        line,
        character,
        hoverFigure: `Throughput limit at this quota: ${figure[1]}`,
        account: volume.account,
        pool: volume.pool,
        volume: volume.name,
        throughput: figure[1]!,
      };
    }
  }
  throw new Error(`no ${kind} volume size with a throughput hover under ${root}`);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** File kinds with an anf-lint grammar (syntaxes/). */
const GRAMMAR_KINDS = ['fstab', 'sysctl', 'systemd-mount', 'autofs']; // the manifest is seen colored in the hover step

export function findTargets(root: string): Targets {
  const configPath = join(root, '.anf-lint.yaml');
  const config = resolveConfig(
    existsSync(configPath) ? configSchema.parse(parseYaml(readFileSync(configPath, 'utf8')) ?? {}) : {},
  );
  const workspace = new Workspace(config);
  const files = walk(root)
    .filter((path) => isLintable(detectFileKind(path, readFileSync(path, 'utf8'))))
    .sort();
  for (const path of files) workspace.set(pathToFileURL(path).href, readFileSync(path, 'utf8'));

  const volume = workspace.volumes().find((v) => v.account && v.pool && v.name && v.mountTargets.length > 0);
  if (!volume) throw new Error(`no manifest volume with a mount target under ${root}`);
  const exportPath = volume.exportPath
    ? volume.exportPath.startsWith('/')
      ? volume.exportPath
      : `/${volume.exportPath}`
    : `/${volume.name}`;
  const manifest = {
    path: relative(root, new URL(volume.uri).pathname),
    account: volume.account,
    pool: volume.pool,
    volume: volume.name,
    exportPath,
    mountPoint: volume.mountPath ?? `/mnt/${volume.name}`,
    server: volume.mountTargets[0]!,
  };

  const codes = new Map<string, string[]>();
  let fix: Targets['fix'] | undefined;
  for (const path of files) {
    const uri = pathToFileURL(path).href;
    const diagnostics = visibleDiagnostics(lintFile(workspace, uri, config));
    const rel = relative(root, path);
    const problems = diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
    if (problems.length > 0)
      codes.set(
        rel,
        problems.map((d) => d.code),
      );
    fix ??= oneLineFix(rel, workspace.file(uri)!.source.text, problems);
  }
  if (!fix) throw new Error(`no warning or error with a one-line fix under ${root}`);
  let iacFix: Targets['fix'] | undefined;
  for (const path of files) {
    const uri = pathToFileURL(path).href;
    if (workspace.file(uri)?.kind !== 'terraform') continue;
    const problems = visibleDiagnostics(lintFile(workspace, uri, config)).filter(
      (d) => d.severity === 'error' || d.severity === 'warning',
    );
    iacFix ??= oneLineFix(relative(root, path), workspace.file(uri)!.source.text, problems);
  }
  if (!iacFix) throw new Error(`no Terraform warning or error with a one-line fix under ${root}`);
  const iac = {
    terraform: iacTarget(root, workspace, files, 'terraform', config),
    bicep: iacTarget(root, workspace, files, 'bicep', config),
    fix: iacFix,
  };
  const colored = GRAMMAR_KINDS.flatMap((kind) => {
    const path = files.find((f) => workspace.file(pathToFileURL(f).href)?.kind === kind);
    return path ? [{ kind, path: relative(root, path) }] : [];
  });
  return { manifest, fix, codes, colored, iac };
}

function oneLineFix(path: string, text: string, diagnostics: readonly Diagnostic[]): Targets['fix'] | undefined {
  const lines = text.split('\n');
  for (const d of diagnostics) {
    const first = d.fixes[0];
    if (first?.edits.length !== 1) continue;
    const edit = first.edits[0]!;
    if (edit.uri !== d.uri || edit.range.start.line !== edit.range.end.line || edit.newText.includes('\n')) continue;
    const line = edit.range.start.line;
    const fixed = applyEdits(text, [edit]).text.split('\n')[line] ?? '';
    const original = lines[line] ?? '';
    if (fixed.trim() === '' || fixed === original) continue;
    return {
      path,
      line: d.range.start.line,
      character: d.range.start.character,
      code: d.code,
      title: first.title,
      fixedLine: fixed,
      originalLine: original,
    };
  }
  return undefined;
}

/**
 * A rule page (docs/rules/ANFnnn.md, as the extension ships it) that anf-lint would report findings
 * in if it linted the page as a file: the page "Show rule documentation" must open without them
 * reaching Problems. The Problems panel shows errors, warnings and infos.
 */
export function ruleDocWithFindings(rulesDir: string): { code: string; findings: number } {
  const config = resolveConfig({});
  for (const name of readdirSync(rulesDir)
    .filter((n) => /^ANF\d{3}\.md$/.test(n))
    .sort()) {
    const workspace = new Workspace(config);
    const uri = pathToFileURL(join(rulesDir, name)).href;
    workspace.set(uri, readFileSync(join(rulesDir, name), 'utf8'));
    const findings = visibleDiagnostics(lintFile(workspace, uri, config)).filter((d) => d.severity !== 'hint').length;
    if (findings > 0) return { code: name.replace(/\.md$/, ''), findings };
  }
  throw new Error(`no rule page under ${rulesDir} has findings of its own`);
}
