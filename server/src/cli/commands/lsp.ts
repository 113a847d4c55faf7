import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, type CliIo } from '../io';

/**
 * `anf-lint lsp --stdio`: hosts the language server, as taplo's `lsp stdio` does. The server is
 * the bundled sibling dist/server/server.js; it reads the transport (`--stdio`, `--node-ipc`,
 * `--socket=N`) from the process arguments, which still hold this command's.
 */
export function runLsp(io: CliIo): number | 'running' {
  const serverPath = join(__dirname, '..', 'server', 'server.js');
  if (!existsSync(serverPath)) {
    io.stderr.write(`anf-lint: the language server is not built (${serverPath}); run npm run build\n`);
    return EXIT.internal;
  }
  // A runtime require on purpose: the server stays its own bundle.
  require(serverPath);
  return 'running';
}
