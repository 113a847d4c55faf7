/**
 * A frame the server cannot read (issue 32): a malformed header used to leave the process alive
 * and answering nothing. Now it ends with one line on stderr and exit code 1 (lsp/transport.ts);
 * a body that is not JSON, inside a well-formed frame, is logged and the connection goes on.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_JS } from './support/lspClient';

function frame(body: string): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const INITIALIZE = frame(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { processId: null, rootUri: null, capabilities: {} },
  }),
);

/** Starts the bundled server, writes `input` and keeps stdin open; resolves when it exits (or after `waitMs`). */
function runServer(args: string[], input: string, waitMs = 10_000) {
  return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [SERVER_JS, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), waitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.write(input);
  });
}

describe('a malformed frame ends the connection cleanly', () => {
  it.each([
    ['a Content-Length that is not a number', 'Content-Length: abc\r\n\r\n{}'],
    ['no Content-Length header', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}'],
    ['a header line without a colon', 'Garbage\r\n\r\n{}'],
    ['a broken header after a good message', `${INITIALIZE}Content-Length: -x\r\n\r\n{}`],
  ])(
    '%s: a message on stderr and exit code 1, not a live process',
    async (_, input) => {
      for (const args of [['--stdio'], []]) {
        const result = await runServer(args, input);
        expect(result.signal, `${args.join(' ')}: killed after 10 s, still alive`).toBeNull();
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/anf-lint: the language server stops: it cannot read the client's message frame/);
      }
    },
    60_000,
  );

  it('a body that is not JSON in a well-formed frame: logged, and the next message is answered', async () => {
    const result = await runServer(['--stdio'], `${frame('{not json}')}${INITIALIZE}`, 4000);
    expect(result.stderr).toMatch(/ignored a message that is not JSON/);
    expect(result.stdout).toMatch(/"id":1,"result":\{"capabilities"/);
  }, 30_000);
});
