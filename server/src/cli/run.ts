import { pathToFileURL } from 'node:url';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace, type Diagnostic } from '../core';
import { formatMiBps } from '../core/units/units';
import { collectFiles } from './files';

export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** Lints the given paths and prints diagnostics and volume figures. Returns the exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const paths = args.length > 0 ? args : ['.'];
  const { files, errors } = await collectFiles(paths, io.cwd);
  for (const error of errors) io.stderr.write(`anf-lint: ${error}\n`);
  const config = resolveConfig();
  const workspace = new Workspace(config);
  const uris = files.map((file) => {
    const uri = pathToFileURL(file.path).href;
    workspace.set(uri, file.text);
    return { uri, file };
  });
  let findings = 0;
  for (const { uri, file } of uris) {
    const diagnostics = visibleDiagnostics(lintFile(workspace, uri, config));
    const volumes = workspace.file(uri)?.volumes ?? [];
    if (diagnostics.length === 0 && volumes.length === 0) continue;
    io.stdout.write(`${file.displayPath}\n`);
    for (const volume of volumes) {
      io.stdout.write(`  volume ${volume.account}/${volume.pool}/${volume.name}: ${volume.serviceLevel}, ${volume.quotaGiB} GiB, ${formatMiBps(volume.throughputMiBps)}\n`);
    }
    for (const diagnostic of diagnostics) io.stdout.write(`  ${formatDiagnostic(file.displayPath, diagnostic)}\n`);
    findings += diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning').length;
  }
  io.stdout.write(`${files.length} files checked, ${findings} findings at warning or above.\n`);
  return errors.length > 0 ? 2 : findings > 0 ? 1 : 0;
}

function formatDiagnostic(path: string, diagnostic: Diagnostic): string {
  const { line, character } = diagnostic.range.start;
  return `${path}:${line + 1}:${character + 1}  ${diagnostic.severity}  ${diagnostic.message}  ${diagnostic.code}`;
}
