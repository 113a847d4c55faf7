import { resolve } from 'node:path';
import { combineInventories, estateInventory, type EstateInventory } from '../../core/estate/inventory';
import { diffInventories } from '../../core/estate/diff';
import { decodeBytes, isInside, isProjectFile, type Project, type ProjectRun } from '../../core/project';
import { Workspace } from '../../core/workspace/workspace';
import { toCorePath } from '../../node/nodeEnvironment';
import { colorsEnabled, createColors } from '../color';
import { displayPathOf } from '../files';
import { estateCsv, estateDiffMarkdown, estateJson, estateMarkdown, estateText, type FileOf } from '../format/estate';
import { loadIacReaders } from '../iacReaders';
import { EXIT, UsageError, type CliIo } from '../io';
import { openTargets } from '../lint';
import { parseOrUsage, wroteHelp } from './shared';

export const ESTATE_USAGE = `Usage: anf-lint estate [PATH|GLOB ...] [--format text|json|markdown|csv] [--config FILE]
       anf-lint estate [PATH ...] --diff REF [--format markdown|json]

Lists what the repository deploys on Azure NetApp Files: every account, pool and volume of the
sizing manifests and the infrastructure code (Terraform, Bicep, ARM, az CLI), each once, with
where it is written, its service level, quota, throughput, IOPS and monthly cost at list prices.
A value anf-lint cannot evaluate is shown as unknown (JSON: null) with the reason. PATH defaults
to the current folder; the files are those \`anf-lint\` lints.

  --diff REF   compare with the estate committed at REF (a commit, branch or tag): what changes in
               throughput, capacity and monthly cost, per volume and in total, as Markdown for a
               pull-request comment
`;

const FORMATS = ['text', 'json', 'markdown', 'csv'] as const;

/** `anf-lint estate`: the estate inventory of the files lint reads, or its change against a git ref. */
export async function runEstate(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrUsage(
    args,
    {
      format: { type: 'string', short: 'f' },
      config: { type: 'string', short: 'c' },
      diff: { type: 'string' },
    },
    true,
  );
  if (wroteHelp(values, ESTATE_USAGE, io)) return EXIT.ok;
  const diffRef = values.diff;
  const format = values.format ?? (diffRef !== undefined ? 'markdown' : 'text');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format: "${format}" is not a format of anf-lint estate; use ${FORMATS.join(', ')}`);
  if (diffRef !== undefined && format !== 'markdown' && format !== 'json')
    throw new UsageError('--diff prints markdown or json');
  if (diffRef !== undefined && diffRef.trim() === '') throw new UsageError('--diff: name a commit, branch or tag');

  // Terraform and Bicep: their readers load before any file is read (a file at REF may need them when the work tree has none).
  if (diffRef !== undefined) await loadIacReaders(io);
  const { project, run, errors } = await openTargets(
    { patterns: positionals, ruleOverrides: {}, ...(values.config !== undefined ? { configPath: values.config } : {}) },
    io,
  );
  for (const error of [...errors, ...project.errors.map((e) => `${displayPathOf(e.path, io.cwd)}: ${e.message}`)])
    io.stderr.write(`anf-lint: ${error}\n`);
  const fileOf: FileOf = (uri) => displayPathOf(project.env.pathOf(uri) ?? uri, io.cwd);
  const current = inventoryOfRun(run);

  if (diffRef !== undefined) {
    const before = inventoryAtRef(project, run, positionals, diffRef, io);
    const diff = diffInventories(before, current);
    if (format === 'json') {
      const json = {
        ref: diffRef,
        volumes: diff.volumes.map((c) => ({
          change: c.change,
          before: c.before
            ? volumeOnly(estateJson({ ...before, volumes: [c.before], accounts: [], pools: [] }, fileOf))
            : null,
          after: c.after
            ? volumeOnly(estateJson({ ...current, volumes: [c.after], accounts: [], pools: [] }, fileOf))
            : null,
        })),
        totals: {
          before: (estateJson(before, fileOf) as { totals: unknown }).totals,
          after: (estateJson(current, fileOf) as { totals: unknown }).totals,
        },
      };
      io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else io.stdout.write(estateDiffMarkdown(diff, diffRef, fileOf));
    return errors.length > 0 || project.errors.length > 0 ? EXIT.usage : EXIT.ok;
  }

  if (format === 'json') io.stdout.write(`${JSON.stringify(estateJson(current, fileOf), null, 2)}\n`);
  else if (format === 'csv') io.stdout.write(estateCsv(current, fileOf));
  else if (format === 'markdown') io.stdout.write(estateMarkdown(current, fileOf));
  else io.stdout.write(estateText(current, fileOf, createColors(colorsEnabled(io.stdout, io.env))));
  return errors.length > 0 || project.errors.length > 0 ? EXIT.usage : EXIT.ok;
}

function volumeOnly(json: unknown): unknown {
  return (json as { volumes: unknown[] }).volumes[0];
}

/** The targets' inventory: each root's workspace lists its targets (its other files are context). */
export function inventoryOfRun(run: ProjectRun): EstateInventory {
  const targets = new Set(run.targets.map((t) => t.uri));
  const workspaces = [...new Set(run.targets.map((t) => run.workspaceOf(t.uri)))];
  return combineInventories(
    workspaces.map((w) =>
      estateInventory(
        w,
        (uri) => run.configForUri(uri).resolved,
        (uri) => targets.has(uri),
      ),
    ),
  );
}

/**
 * The inventory of the same paths as committed at `ref`: the files git has there under the paths
 * (and every Terraform and Bicep file of the repository, which modules may call), read into a
 * workspace of their own, with the current configuration's prices.
 */
function inventoryAtRef(
  project: Project,
  run: ProjectRun,
  patterns: readonly string[],
  ref: string,
  io: CliIo,
): EstateInventory {
  const env = project.env;
  const root = project.rootOfFolder(toCorePath(io.cwd));
  const git = env.git;
  if (root.gitRoot === undefined || !git) throw new UsageError('--diff needs a git work tree');
  const gitRoot = root.gitRoot;
  let names: readonly string[];
  try {
    names = git.filesAt(gitRoot, ref);
  } catch {
    throw new UsageError(`--diff: "${ref}" is not a commit, branch or tag in this repository`);
  }
  const scopes = (patterns.length > 0 ? patterns : ['.']).map((p) => toCorePath(resolve(io.cwd, p)));
  const workspace = new Workspace((uri) => run.configForUri(uri).resolved);
  const listed = new Set<string>();
  for (const name of names) {
    const path = `${gitRoot}/${name}`;
    const inScope = scopes.some((scope) => scope === path || isInside(scope, path));
    if (!inScope && !/\.(?:tf|tfvars|tfvars\.json|bicep)$/i.test(name)) continue;
    let text: string;
    try {
      const decoded = decodeBytes(git.contentAt(gitRoot, ref, name));
      if (!decoded.decodable) continue;
      text = decoded.text;
    } catch {
      continue;
    }
    if (!isProjectFile(path, text)) continue;
    const uri = env.uriOf(path);
    workspace.set(uri, text);
    if (inScope) listed.add(uri);
  }
  return estateInventory(
    workspace,
    (uri) => run.configForUri(uri).resolved,
    (uri) => listed.has(uri),
  );
}
