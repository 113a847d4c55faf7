import { runCli } from './run';
import { syncOutput } from './stdio';

// `process.stdout`, `process.stderr` and `process.stdin` are getters that set up streams (a few
// ms each): the output is written on the file descriptors (cli/stdio.ts), and only `--stdin` reads
// standard input.
const stdout = syncOutput(1, () => process.stdout); // not a fact: file descriptor
const stderr = syncOutput(2, () => process.stderr); // not a fact: file descriptor
const io = {
  stdout,
  stderr,
  get stdin() {
    return process.stdin;
  },
  cwd: process.cwd(),
  env: process.env,
};
runCli(process.argv.slice(2), io).then(
  (code) => {
    // `lsp` keeps running: the language server owns the process from here.
    if (code === 'running') return;
    process.exitCode = code;
    // Exit once the output is written, not when the event loop runs dry: a large run leaves V8 an
    // incremental garbage collection to finish in an idle task (about 30 ms after a 10,000-line
    // fstab) on a heap about to be thrown away. A write's callback runs after the writes before it.
    stdout.flushed(() => stderr.flushed(() => process.exit(code)));
  },
  (error: unknown) => {
    stderr.write(
      `anf-lint: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    stderr.write('Please report this as a bug, with the command and the file if you can share it.\n');
    process.exitCode = 3; // not a fact: exit code (internal error)
  },
);
