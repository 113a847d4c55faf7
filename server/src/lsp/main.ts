/**
 * The bundle entry of the language server (dist/server/server.js). The transport comes from the
 * command line (`--stdio`, `--node-ipc`, `--socket=N`); without one, stdio.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const TRANSPORT_FLAGS = /^--(stdio|node-ipc|socket|pipe)/;

const connection = process.argv.slice(2).some((arg) => TRANSPORT_FLAGS.test(arg)) ? startServer() : startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout));

// Last line of defence: whatever escapes a handler is logged, and the server stays up.
const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));
process.on('uncaughtException', (error) => connection.console.error(`anf-lint: uncaught: ${describe(error)}`));
process.on('unhandledRejection', (error) => connection.console.error(`anf-lint: unhandled rejection: ${describe(error)}`));
