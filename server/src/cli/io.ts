import type { Environment } from '../core/project/environment';
import type { CliOutput } from './stdio';

/** What the CLI touches of the process: streams, folder, environment. Tests pass their own. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly stdin?: NodeJS.ReadableStream;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Files and git (default: Node's); tests inject an in-memory one or one whose writes fail. */
  readonly environment?: Environment;
}

/** Exit codes (issue 8): stable, documented in docs/cli.md. */
export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  internal: 3, // not a fact: exit code
} as const;

/** A mistake in how anf-lint was called, or an unusable configuration: exit 2 with this message. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}
