/**
 * The connection the server runs on. Over stdio (`--stdio`, or no transport flag) the server reads
 * the frames itself, so that a frame it cannot read ends the process: vscode-jsonrpc reports a
 * malformed header (`Content-Length: abc`, no `Content-Length`, a line without `:`) to an error
 * handler nobody listens to and then reads nothing more, which left a live process answering
 * nothing (issue 32). Now the reason goes to stderr and the process exits with 1, so the client
 * sees the server end and can restart it. Over Node IPC the writer counts the writes in flight
 * (`outputDrained`); sockets and named pipes are the library's as before.
 */
import {
  AbstractMessageWriter,
  createConnection,
  IPCMessageReader,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
  type Message,
  type MessageWriter,
} from 'vscode-languageserver/node';

const TRANSPORT_FLAGS = /^--(socket|pipe)/;

/** Exit code when the client's frames cannot be read (1, as when stdin ends before `shutdown`). */
export const BROKEN_FRAME_EXIT_CODE = 1;

/**
 * A body that is not JSON arrives in a frame of the right length: the next frame can still be
 * read, so that is logged and the connection goes on. Anything else the reader reports (the
 * header) leaves no way to find the next frame.
 */
function framingLost(error: Error): boolean {
  return !(error instanceof SyntaxError);
}

/** The stdio output the connection writes to (undefined on the library's transports). */
let stdioOutput: NodeJS.WritableStream | undefined;

/** The messages Node's IPC channel has not finished writing, and who waits for none to be left. */
let ipcWritesPending = 0;
const ipcDrained: (() => void)[] = [];

/**
 * Resolves once the messages written so far have left the process (at once on sockets and named
 * pipes). Work in the background waits for it: a large answer (`workspace/diagnostic`: megabytes)
 * leaves in socket-sized writes, one per turn of the event loop, so slices of work between them
 * made it take seconds to arrive (over Node IPC, as VS Code starts the server, the scan cache's
 * 12 MB part took 1.2 s after a warm start's scan; bench/notes.md, session 17).
 */
export function outputDrained(): Promise<void> {
  if (ipcWritesPending > 0) return new Promise((resolve) => ipcDrained.push(resolve));
  const output = stdioOutput as (NodeJS.WritableStream & { writableLength?: number }) | undefined;
  if (!output?.writableLength) return Promise.resolve();
  return new Promise((resolve) => output?.once('drain', () => resolve()));
}

/**
 * vscode-jsonrpc's IPC writer (`process.send` for each message, errors to the connection), which
 * also counts the messages whose write has not completed, for `outputDrained`: the library's own
 * writer passes its callback nowhere we can see.
 */
export class CountingIpcWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly channel: Pick<NodeJS.Process, 'send' | 'on'>) {
    super();
    // As the library's: what ends the process when the client goes is the reader and the watchdog.
    channel.on('error', (error: Error) => this.fireError(error));
    channel.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    // Started with --node-ipc but without a channel (not by an editor): as the library's writer, nothing is sent.
    if (typeof this.channel.send !== 'function') return Promise.resolve();
    try {
      ipcWritesPending++;
      this.channel.send(message, undefined, undefined, (error: Error | null) => {
        ipcWritesPending--;
        if (error) this.fireError(error, message, ++this.errorCount);
        else this.errorCount = 0;
        if (ipcWritesPending === 0) for (const resolve of ipcDrained.splice(0)) resolve();
      });
      return Promise.resolve();
    } catch (error) {
      ipcWritesPending--;
      this.fireError(error, message, ++this.errorCount);
      return Promise.reject(error);
    }
  }

  end(): void {}
}

export function connectionFromCommandLine(
  argv: readonly string[] = process.argv.slice(2),
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  exit: (code: number) => void = (code) => process.exit(code),
): Connection {
  if (argv.includes('--node-ipc'))
    return createConnection(ProposedFeatures.all, new IPCMessageReader(process), new CountingIpcWriter(process));
  if (argv.some((arg) => TRANSPORT_FLAGS.test(arg))) return createConnection(ProposedFeatures.all);
  stdioOutput = output;
  const reader = new StreamMessageReader(input);
  const writer = new StreamMessageWriter(output);
  reader.onError((error) => {
    if (!framingLost(error)) {
      process.stderr.write(`anf-lint: ignored a message that is not JSON: ${error.message}\n`);
      return;
    }
    process.stderr.write(
      `anf-lint: the language server stops: it cannot read the client's message frame (${error.message.split('\n')[0]}). Each message must start with a "Content-Length: <bytes>" header and a blank line.\n`,
    );
    exit(BROKEN_FRAME_EXIT_CODE);
  });
  // The library ends the process when its own stdin stream ends; with a reader of ours, so do we.
  let shutdownReceived = false;
  const end = () => exit(shutdownReceived ? 0 : 1);
  input.on('end', end);
  input.on('close', end);
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  // The server's own shutdown handler (server.ts) runs as before; this notes that it was asked.
  const onShutdown = connection.onShutdown.bind(connection);
  connection.onShutdown = (handler) =>
    onShutdown((token) => {
      shutdownReceived = true;
      return handler(token);
    });
  // stdout carries the protocol: a stray console.log must not corrupt it (the library does this for --stdio).
  const toStderr = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
  return connection;
}
