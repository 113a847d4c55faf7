import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import { SourceText } from '../text/sourceText';
import { type FileKind, kindsReading } from '../fileKind';
import type { ParseProblem } from '../diagnostics';
import { fencedBlocks, onlyBlocks } from '../text/fencedBlocks';
import { parseYaml, scalarContent } from '../mounts/yamlHosts';
import { ANNOTATION_CODE } from '../mounts/annotation';
import { azCommands, mayHoldAzCommands, type ShellRegion } from './azCli';
import { estateFromCommands, type ResourceCommand } from './commands';
import { mayHoldPowerShellCommands, powerShellCommands } from './powershell';
import { mayHoldTrident, readTrident } from './trident';
import { estateRead, type IacRead } from './read';
import type { IacEstate } from './estate';

/**
 * The estate written as commands in files that are not infrastructure code: `az netappfiles`
 * commands in shell scripts, Markdown shell blocks and CI pipeline steps. Each file's commands
 * make one estate, read with the file's other readings (mounts, kernel settings). A file with no
 * such command has no estate (undefined), so nothing else about it changes.
 */

/** Kinds whose text may hold estate commands besides what else they hold. */
export const SCRIPT_ESTATE_KINDS = kindsReading('estateCommands');
/** Kinds a Trident backend, StorageClass or claim is written in. */
const TRIDENT_KINDS: ReadonlySet<FileKind> = new Set<FileKind>(['kubernetes', 'yaml-options', 'json-options']);

/** Markdown info strings of shell blocks (Microsoft Learn writes `azurecli`). */
const SHELL_BLOCKS = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'azurecli',
  'azurecli-interactive',
  'azure-cli',
  'azcli',
  'console',
  'shell-session',
  'shellsession',
  'terminal',
]);
const PROMPT_BLOCKS = new Set(['console', 'shell-session', 'shellsession', 'terminal']);
/** Markdown info strings of PowerShell blocks (Microsoft Learn writes `azurepowershell`). */
const POWERSHELL_BLOCKS = new Set([
  'powershell',
  'pwsh',
  'ps1',
  'ps',
  'azurepowershell',
  'azurepowershell-interactive',
  'azure-powershell',
]);

/**
 * Whether a file of a kind that may hold estate commands can hold any (a cheap look at the text):
 * the lazy context (project/contextSelection.ts) reads such a file whole, as infrastructure code.
 */
export function mayDescribeEstate(kind: FileKind, text: string): boolean {
  if (!SCRIPT_ESTATE_KINDS.has(kind)) return false;
  return TRIDENT_KINDS.has(kind)
    ? mayHoldTrident(text)
    : mayHoldAzCommands(text) || mayHoldPowerShellCommands(text) || (kind === 'markdown' && mayHoldTrident(text));
}

export function readScriptEstate(source: SourceText, uri: string, kind: FileKind): IacRead | undefined {
  const text = source.text;
  if (TRIDENT_KINDS.has(kind)) {
    const trident = mayHoldTrident(text) ? readTrident(source) : undefined;
    return trident ? { problems: [], ...estateRead(trident, uri, false) } : undefined;
  }
  const az = mayHoldAzCommands(text);
  const ps = mayHoldPowerShellCommands(text);
  if (!az && !ps && !(kind === 'markdown' && mayHoldTrident(text))) return undefined;
  const problems: ParseProblem[] = [];
  const commands: ResourceCommand[] = [];
  const psCommands: ResourceCommand[] = [];
  if (kind === 'shell' && az) commands.push(...azCommands(source, [{ from: 0, to: text.length }]));
  else if (kind === 'powershell' && ps) psCommands.push(...powerShellCommands(source, [{ from: 0, to: text.length }]));
  else if (kind === 'markdown') {
    const blocks = fencedBlocks(source);
    const regions = blocks
      .filter((b) => SHELL_BLOCKS.has(b.language))
      .map(
        (b): ShellRegion => ({
          from: b.from,
          to: b.to,
          ...(PROMPT_BLOCKS.has(b.language) ? { stripPrompt: true } : {}),
        }),
      );
    if (az) commands.push(...azCommands(source, regions));
    if (ps)
      psCommands.push(
        ...powerShellCommands(
          source,
          blocks.filter((b) => POWERSHELL_BLOCKS.has(b.language)),
        ),
      );
  } else if (kind === 'ci-pipeline') {
    const regions = pipelineScripts(source);
    if (az)
      commands.push(
        ...azCommands(
          source,
          regions.filter((r) => r.shell === 'sh'),
        ),
      );
    if (ps)
      psCommands.push(
        ...powerShellCommands(
          source,
          regions.filter((r) => r.shell === 'ps'),
        ),
      );
  }
  // Trident resources in a document's `yaml` blocks (the AKS how-tos show the StorageClass and the claim).
  const trident = kind === 'markdown' && mayHoldTrident(text) ? markdownTrident(source) : undefined;
  if (commands.length === 0 && psCommands.length === 0 && !trident) return undefined;
  // One estate per file; a file that mixes both names the az CLI (its commands come first).
  const made: IacEstate =
    commands.length > 0 || psCommands.length > 0
      ? estateFromCommands(commands.length > 0 ? 'az-cli' : 'az-powershell', source, [...commands, ...psCommands])
      : trident!;
  const estate: IacEstate =
    trident && made !== trident
      ? { ...made, pools: [...made.pools, ...trident.pools], volumes: [...made.volumes, ...trident.volumes] }
      : made;
  return { problems, ...estateRead(estate, uri, false) };
}

const YAML_BLOCKS = new Set(['yaml', 'yml']);

function markdownTrident(source: SourceText): IacEstate | undefined {
  const blocks = fencedBlocks(source).filter((b) => YAML_BLOCKS.has(b.language));
  if (blocks.length === 0) return undefined;
  return readTrident(new SourceText(onlyBlocks(source, blocks)));
}

// ---------------------------------------------------------------------------------------------
// CI pipelines

export interface PipelineScript extends ShellRegion {
  readonly shell: 'sh' | 'ps';
}

/** Keys whose value is a script a pipeline step runs, and the shell each implies. */
const SCRIPT_KEYS: Record<string, 'sh' | 'ps' | 'by-sibling'> = {
  run: 'by-sibling', // GitHub Actions; `shell: pwsh` beside it makes it PowerShell
  script: 'sh', // Azure Pipelines (bash on Linux agents), GitLab CI
  before_script: 'sh',
  after_script: 'sh',
  bash: 'sh',
  pwsh: 'ps',
  powershell: 'ps',
  inlineScript: 'by-sibling', // AzureCLI@2: `scriptType: bash | pscore | ps`
  Inline: 'ps', // AzurePowerShell@5
  inline: 'by-sibling',
};

/**
 * The scripts of a CI pipeline (GitHub Actions `run:`, Azure Pipelines `script:`/`bash:`/`pwsh:`,
 * AzureCLI@2 `inlineScript:`, AzurePowerShell@5 `Inline:`, GitLab `script:` lists), each with the
 * `env:` values of its step, job and workflow.
 */
export function pipelineScripts(source: SourceText): PipelineScript[] {
  const found: PipelineScript[] = [];
  const text = source.text;
  const lineOf = (offset: number) => source.positionAt(offset).line + 1;
  const visit = (
    node: Node | null | undefined,
    env: NonNullable<ShellRegion['env']>,
    macros: NonNullable<ShellRegion['env']>,
    depth: number,
  ): void => {
    if (!node || depth > 64) return; // not a fact: pipelines nest a few levels
    if (isSeq(node)) {
      for (const item of node.items) visit(item as Node, env, macros, depth + 1);
      return;
    }
    if (!isMap(node)) return;
    const map = node as YAMLMap;
    const own = [...env, ...envOf(map, lineOf, 'env')];
    const ownMacros = [...macros, ...envOf(map, lineOf, 'variables')];
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const how = key !== undefined ? SCRIPT_KEYS[key] : undefined;
      if (how) {
        const shell = how === 'by-sibling' ? siblingShell(map) : how;
        if (shell)
          for (const r of scriptRanges(pair.value as Node, text))
            found.push({ ...r, shell, env: own, macros: ownMacros });
        continue;
      }
      visit(pair.value as Node, own, ownMacros, depth + 1);
    }
  };
  for (const doc of parseYaml(source)) visit(doc.contents as Node, [], [], 0);
  return found;
}

function siblingShell(map: YAMLMap): 'sh' | 'ps' | undefined {
  const value = (key: string) => {
    const v = map.get(key, true);
    return isScalar(v) ? String(v.value).toLowerCase() : undefined;
  };
  const shell = value('shell') ?? value('scriptType') ?? value('scripttype');
  if (shell === undefined || /^(?:bash|sh)\b/.test(shell)) return 'sh';
  if (/^(?:pwsh|powershell|ps|pscore)\b/.test(shell)) return 'ps';
  return undefined; // cmd, batch, python
}

function scriptRanges(node: Node | null | undefined, text: string): { from: number; to: number }[] {
  if (isScalar(node)) {
    const content = scalarContent(text, node);
    return content ? [{ from: content.start, to: content.end }] : [];
  }
  if (isSeq(node)) return node.items.flatMap((item) => scriptRanges(item as Node, text));
  return [];
}

/**
 * `env:` (GitHub Actions, Azure Pipelines steps) or `variables:` (Azure Pipelines `$(name)`, in the
 * map form or the `- name: x / value: y` list form) values: plain ones known, expressions unknown
 * with the reason.
 */
function envOf(
  map: YAMLMap,
  lineOf: (offset: number) => number,
  key: 'env' | 'variables',
): NonNullable<ShellRegion['env']> {
  const out: { name: string; value?: string; line: number; unknown?: string }[] = [];
  const env = map.get(key, true);
  const pairs: { key: unknown; value: unknown }[] = isMap(env) ? [...env.items] : [];
  if (isSeq(env)) {
    for (const item of env.items) {
      if (!isMap(item)) continue;
      const name = item.get('name', true);
      const value = item.get('value', true);
      if (isScalar(name) && isScalar(value)) pairs.push({ key: name, value });
    }
  }
  for (const pair of pairs) {
    if (!isScalar(pair.key) || !isScalar(pair.value)) continue;
    const name = String(pair.key.value);
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) continue;
    const value = pair.value.value === null ? '' : String(pair.value.value);
    const line = lineOf(pair.value.range?.[0] ?? 0);
    const written = key === 'env' ? `$${name}` : `$(${name})`;
    if (value.includes('${{'))
      out.push({
        name,
        line,
        unknown: `\`${written}\` is set from a pipeline expression \`${value.trim()}\` (line ${line}), evaluated when the pipeline runs`,
      });
    else if (/\$\(|\$\{?[A-Za-z_]/.test(value))
      out.push({
        name,
        line,
        unknown: `\`$${name}\` is set from \`${value.trim()}\` (line ${line}), evaluated when the pipeline runs`,
      });
    else out.push({ name, value, line });
  }
  return out;
}

/**
 * The mount readers know `# anf: workload=<kind>` only and report other keys (ANF201). Above an
 * estate resource `throughput=` and `capacity=` state its requirements (common.ts
 * `requirementsFor`): those keys, where a volume read them, are not unknown.
 */
export function dropRequirementKeyProblems(problems: ParseProblem[], estate: IacEstate): void {
  const used = estate.volumes
    .flatMap((v) => [v.requirements?.throughput?.span, v.requirements?.capacity?.span])
    .filter((s) => s !== undefined);
  if (used.length === 0) return;
  for (let i = problems.length - 1; i >= 0; i--) {
    const p = problems[i]!;
    // The key ends just before `=` and the value the volume read.
    if (p.code === ANNOTATION_CODE && used.some((s) => s.start > p.span.end && s.start - p.span.end <= 4))
      problems.splice(i, 1);
  }
}
