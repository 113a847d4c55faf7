import { createTwoFilesPatch } from 'diff';
import { SEVERITIES, type Severity } from '../core';
import packageJson from '../../../package.json';
import { colorsEnabled, createColors } from './color';
import { runEstate } from './commands/estate';
import { runHost } from './commands/host';
import { runMount } from './commands/mount';
import { runExplain, runRules } from './commands/rules';
import { runLsp } from './commands/lsp';
import { parseOrUsage, wroteHelp } from './commands/shared';
import { runSize } from './commands/size';
import { formatGithub } from './format/github';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { loadIacReaders } from './iacReaders';
import { EXIT, UsageError, type CliIo } from './io';
import { findingsExceed, parseRuleOverrides, runLint, type FixesLeft, type LintRequest } from './lint';

export type { CliIo } from './io';

export const VERSION: string = packageJson.version;

export const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
type Format = (typeof FORMATS)[number];

export const USAGE = `Usage: anf-lint [options] [PATH|GLOB ...]
       anf-lint size --capacity 50TiB --throughput 3000MiB/s [...]   the sizing advisor
       anf-lint mount VOLUME [--manifest FILE] [--style fstab|command|systemd]
       anf-lint estate [PATH ...] [--format text|json|markdown|csv] [--diff REF]   what the repository deploys
       anf-lint host [PATH] [--host NAME]                           this NFS client against its host folder
       anf-lint explain CODE                                        a rule's page
       anf-lint rules                                               every rule
       anf-lint lsp --stdio                                         the language server

Lints Azure NetApp Files configuration: sizing manifests, NFS mounts (fstab, scripts, Markdown,
systemd, autofs, Ansible, cloud-init) and kernel tuning (sysctl, modprobe). PATH defaults to the
current folder; inside a git work tree only files git knows are read.

Options:
  -f, --format FORMAT        text (default), json, sarif or github (default when GITHUB_ACTIONS=true)
  -c, --config FILE          use this configuration instead of the nearest .anf-lint.yaml
      --rule CODE=SEVERITY   off, hint, info, warning or error; repeatable
      --stdin                lint standard input ...
      --stdin-filename NAME  ... as if it were this file (its name decides the kind)
      --fix                  apply safe fixes in place
      --fix-dry-run          print the fixes as a unified diff; change nothing
      --unsafe-fixes         with --fix or --fix-dry-run: apply unsafe fixes too
      --staged               lint the staged content of staged files; report changed lines only
      --changed-since REF    lint files changed since REF; report changed lines only
      --fail-on SEVERITY     lowest severity that fails the run: error, warning (default), info, hint
      --max-warnings N       also fail when there are more than N warnings
      --exit-zero            report findings but exit 0 (usage and internal errors still exit 2 and 3)
      --all-findings         list every finding (by default a file lists the first 100 of each rule and
                             1,000 in all, and counts the rest)
      --max-files N          read at most N files of each folder named (default: every file); a note
                             says where it stopped, the exit code does not change
  -h, --help                 this help
  -v, --version              the version

Exit codes: 0 no finding at or above --fail-on; 1 findings; 2 usage or configuration error,
missing or unreadable file; 3 internal error.
`;

/** The commands besides lint (the default) and lsp, by name. */
const COMMANDS: ReadonlyMap<string, (args: readonly string[], io: CliIo) => Promise<number>> = new Map([
  ['size', runSize],
  ['mount', runMount],
  ['estate', runEstate],
  ['host', runHost],
  ['explain', runExplain],
  ['rules', runRules],
]);

/** The CLI: parses flags, runs a command, prints. Returns the exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number | 'running'> {
  try {
    // The Terraform and Bicep readers run on WebAssembly, which loads asynchronously: the lint
    // command loads them when it reads such a file (cli/iacReaders.ts), the others here.
    const [command, ...rest] = args;
    if (command === 'size' || command === 'mount') await loadIacReaders(io);
    if (command === 'lsp') return runLsp(io);
    const subcommand = command !== undefined ? COMMANDS.get(command) : undefined;
    return await (subcommand ? subcommand(rest, io) : lintCommand(args, io));
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`anf-lint: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

async function lintCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrUsage(
    args,
    {
      format: { type: 'string', short: 'f' },
      config: { type: 'string', short: 'c' },
      rule: { type: 'string', multiple: true },
      stdin: { type: 'boolean' },
      'stdin-filename': { type: 'string' },
      fix: { type: 'boolean' },
      'fix-dry-run': { type: 'boolean' },
      'unsafe-fixes': { type: 'boolean' },
      staged: { type: 'boolean' },
      'changed-since': { type: 'string' },
      'fail-on': { type: 'string' },
      'max-warnings': { type: 'string' },
      'exit-zero': { type: 'boolean' },
      'all-findings': { type: 'boolean' },
      'max-files': { type: 'string' },
      version: { type: 'boolean', short: 'v' },
    },
    true,
  );
  if (wroteHelp(values, USAGE, io)) return EXIT.ok;
  if (values.version) {
    io.stdout.write(`anf-lint ${VERSION}\n`);
    return EXIT.ok;
  }

  const format = (values.format ?? (io.env.GITHUB_ACTIONS === 'true' ? 'github' : 'text')) as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`--format: "${values.format}" is not a format; use ${FORMATS.join(', ')}`);
  const failOn = (values['fail-on'] ?? 'warning') as Severity;
  if (!SEVERITIES.includes(failOn))
    throw new UsageError(`--fail-on: "${values['fail-on']}" is not a severity; use error, warning, info or hint`);
  let maxWarnings: number | undefined;
  if (values['max-warnings'] !== undefined) {
    if (!/^\d+$/.test(values['max-warnings']))
      throw new UsageError(`--max-warnings: "${values['max-warnings']}" is not a whole number of warnings`);
    maxWarnings = Number(values['max-warnings']);
  }
  let maxFiles: number | undefined;
  if (values['max-files'] !== undefined) {
    if (!/^[1-9]\d*$/.test(values['max-files']))
      throw new UsageError(`--max-files: "${values['max-files']}" is not a whole number of files above 0`);
    maxFiles = Number(values['max-files']);
  }
  if (values.stdin && values['stdin-filename'] === undefined)
    throw new UsageError('--stdin needs --stdin-filename NAME (the name decides the file kind)');
  if (!values.stdin && values['stdin-filename'] !== undefined)
    throw new UsageError('--stdin-filename is only for --stdin');
  if (values.stdin && positionals.length > 0)
    throw new UsageError(`--stdin lints standard input only; remove ${positionals.join(' ')}`);
  if (values.fix && values['fix-dry-run']) throw new UsageError('--fix and --fix-dry-run: choose one');
  if (values.staged && values['changed-since'] !== undefined)
    throw new UsageError('--staged and --changed-since: choose one');
  if (values['unsafe-fixes'] && !values.fix && !values['fix-dry-run'])
    throw new UsageError('--unsafe-fixes goes with --fix or --fix-dry-run');
  if (values.fix && values.stdin)
    throw new UsageError('--fix cannot write to standard input; use --fix-dry-run to see the fixes');
  if (values.fix && values.staged)
    throw new UsageError('--fix cannot write to the index; run --fix on the work tree, then stage the result');

  const request: LintRequest = {
    patterns: positionals,
    ...(values.stdin ? { stdinFilename: values['stdin-filename']! } : {}),
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ruleOverrides: parseRuleOverrides(values.rule ?? []),
    fix: values.fix ? 'write' : values['fix-dry-run'] ? 'dry-run' : 'none',
    ...(values['all-findings'] ? { allFindings: true } : {}),
    ...(values['unsafe-fixes'] ? { unsafeFixes: true } : {}),
    ...(maxFiles !== undefined ? { maxFiles } : {}),
    ...(values.staged
      ? { changes: 'staged' as const }
      : values['changed-since'] !== undefined
        ? { changes: { ref: values['changed-since'] } }
        : {}),
  };

  const progress = makeProgress(io);
  const outcome = await runLint(request, io, progress.update);
  progress.done();
  for (const warning of outcome.warnings) io.stderr.write(`anf-lint: configuration: ${warning}\n`);
  for (const note of outcome.notes) io.stderr.write(`anf-lint: note: ${note}\n`);
  for (const error of outcome.errors) io.stderr.write(`anf-lint: ${error}\n`);

  if (request.fix === 'dry-run') {
    for (const fix of outcome.fixes) {
      io.stdout.write(
        createTwoFilesPatch(
          `a/${fix.displayPath}`,
          `b/${fix.displayPath}`,
          fix.before,
          fix.after,
          undefined,
          undefined,
          { context: 3 },
        ).replace(/^=+\n/, ''),
      );
    }
    // With --unsafe-fixes, which fixes the diff holds, each marked safe or unsafe (without it, all are safe).
    if (request.unsafeFixes)
      for (const fix of outcome.fixes) {
        for (const applied of fix.applied)
          io.stderr.write(
            `anf-lint: ${fix.displayPath}:${applied.line + 1}: ${applied.code} ${applied.title} [${applied.applicability}]\n`,
          );
      }
    io.stderr.write(
      `anf-lint: ${outcome.fixes.length} file${outcome.fixes.length === 1 ? '' : 's'} would change with --fix${request.unsafeFixes ? ' --unsafe-fixes' : ''}.\n`,
    );
    writeFixesLeft(io, outcome.fixesLeft, 'dry-run');
  } else {
    if (request.fix === 'write' && outcome.fixes.length > 0) {
      io.stderr.write(
        `anf-lint: fixed ${outcome.fixes.length} file${outcome.fixes.length === 1 ? '' : 's'}: ${outcome.fixes.map((f) => f.displayPath).join(', ')}\n`,
      );
    }
    if (request.fix === 'write') writeFixesLeft(io, outcome.fixesLeft, 'write');
    switch (format) {
      case 'text':
        io.stdout.write(
          formatText(outcome.results, createColors(colorsEnabled(io.stdout, io.env)), {
            filesChecked: outcome.results.length,
          }),
        );
        break;
      case 'json':
        io.stdout.write(formatJson(outcome.results));
        break;
      case 'sarif':
        io.stdout.write(formatSarif(outcome.results, outcome.root, VERSION, outcome.errors));
        break;
      case 'github':
        io.stdout.write(formatGithub(outcome.results));
        break;
    }
  }
  if (outcome.errors.length > 0) return EXIT.usage;
  if (values['exit-zero']) return EXIT.ok;
  return findingsExceed(outcome.results, failOn, maxWarnings) ? EXIT.findings : EXIT.ok;
}

/**
 * What --fix and --fix-dry-run left out, on stderr (stdout keeps the report or the diff, so JSON
 * and SARIF stay valid): fixes backed out because together with the others they made a new error
 * or warning, and how many unsafe fixes wait for `--unsafe-fixes` or the editor's quick-fix menu.
 */
function writeFixesLeft(io: CliIo, left: FixesLeft | undefined, mode: 'dry-run' | 'write'): void {
  if (!left) return;
  for (const { displayPath, fix } of left.dropped) {
    io.stderr.write(
      `anf-lint: ${displayPath}:${fix.line + 1}: ${fix.code} ${fix.title}: not applied: together with the other fixes it makes ${fix.newFindings[0] ?? 'a new finding'}\n`,
    );
  }
  if (left.unsafe > 0) {
    const n = left.unsafe;
    const see =
      mode === 'dry-run'
        ? 'see them with --fix-dry-run --unsafe-fixes'
        : 'see them with --fix-dry-run --unsafe-fixes, apply them with --fix --unsafe-fixes';
    io.stderr.write(
      `anf-lint: ${n} unsafe fix${n === 1 ? '' : 'es'} left out (an unsafe fix may change what a host or deployment does, so it needs review): ${see}, or one at a time from the editor's quick-fix menu.\n`,
    );
  }
}

/** How many files make a run long enough to show progress (on a TTY only). */
const PROGRESS_MIN_FILES = 50; // not a fact: UX threshold
const PROGRESS_INTERVAL_MS = 100; // not a fact: UX refresh

function makeProgress(io: CliIo): { update?: (done: number, total: number) => void; done: () => void } {
  if (io.env.CI === 'true') return { done: () => {} };
  let last = 0;
  let shown = false;
  // Asked only for a long run: whether standard error is a terminal costs Node's stream set-up.
  let terminal: boolean | undefined;
  return {
    update: (done, total) => {
      if (total < PROGRESS_MIN_FILES || !(terminal ??= io.stderr.isTTY === true)) return;
      const now = Date.now();
      if (now - last < PROGRESS_INTERVAL_MS && done < total) return;
      last = now;
      shown = true;
      io.stderr.write(`\ranf-lint: ${done}/${total} files`);
    },
    done: () => {
      if (shown) io.stderr.write('\r\u001b[K');
    },
  };
}
