/**
 * The bundle entry of the language server (dist/server/server-bundle.js, run by the loader
 * dist/server/server.js: scripts/serverBundle.mjs). The transport comes from the
 * command line (`--stdio`, `--node-ipc`, `--socket=N`); without one, stdio (transport.ts).
 */
import { initIacParsers } from '../core/iac/treeSitter';
import { loadIacWasm } from '../iacWasm';
import { isScanWorker, runScanWorker, setScanWorkerScript } from './scanWorker';
import { startServer } from './server';
import { connectionFromCommandLine } from './transport';

const start = () => startServer(connectionFromCommandLine());
let connection: ReturnType<typeof startServer> | undefined;
// The first scan's worker runs this bundle too (scanWorker.ts).
setScanWorkerScript(__filename);
// The Terraform and Bicep readers run on WebAssembly, loaded asynchronously before the first parse.
void initIacParsers(loadIacWasm)
  .catch((error: unknown) => process.stderr.write(`anf-lint: Terraform/Bicep reader not loaded: ${describe(error)}\n`))
  .then(() => {
    if (isScanWorker()) runScanWorker();
    else connection = start();
  });

// Last line of defence: whatever escapes a handler is logged, and the server stays up.
const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));
process.on('uncaughtException', (error) => connection?.console.error(`anf-lint: uncaught: ${describe(error)}`));
process.on('unhandledRejection', (error) =>
  connection?.console.error(`anf-lint: unhandled rejection: ${describe(error)}`),
);
