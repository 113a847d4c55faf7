/**
 * The bundle entry of the language server (dist/server/server.js). The transport comes from the
 * command line (`--stdio`, `--node-ipc`, `--socket=N`); without one, stdio.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const TRANSPORT_FLAGS = /^--(stdio|node-ipc|socket|pipe)/;

if (process.argv.slice(2).some((arg) => TRANSPORT_FLAGS.test(arg))) startServer();
else startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout));
