import { runCli } from './run';

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env }).then(
  (code) => {
    // `lsp` keeps running: the language server owns the process from here.
    if (code === 'running') return;
    process.exitCode = code;
    // Exit once the output is written, not when the event loop runs dry: a large run leaves V8 an
    // incremental garbage collection to finish in an idle task (about 30 ms after a 10,000-line
    // fstab) on a heap about to be thrown away. A write's callback runs after the writes before it.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  },
  (error: unknown) => {
    process.stderr.write(`anf-lint: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.stderr.write('Please report this as a bug, with the command and the file if you can share it.\n');
    process.exitCode = 3; // not a fact: exit code (internal error)
  },
);
