/**
 * What the three YAML readers (manifests, `.anf-lint.yaml`, Ansible and cloud-init hosts) share
 * before and after handing text to the `yaml` library.
 */
import type { YAMLError } from 'yaml';

/**
 * The text as `yaml` should see it. YAML 1.2 and every editor (and SourceText) treat a lone CR
 * as a line break; the `yaml` library does not, and reads a file whose line breaks were doubled
 * to `\r\r\n` as one line of ever deeper implicit keys (a stack overflow on a 500-volume
 * manifest). Same length, so every offset the library reports is still an offset into the text.
 */
export function yamlReadableText(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/**
 * The error `yaml` records when nesting exhausts the call stack. Where it happens depends on how
 * deep the stack already was, so the errors around it differ from one parse to the next: a
 * reader that finds it reports this one fact instead, the same every time.
 */
export function stackExhaustion(errors: readonly YAMLError[]): YAMLError | undefined {
  return errors.find((error) => error.code === 'RESOURCE_EXHAUSTION');
}

export const TOO_DEEP_MESSAGE =
  'The file nests deeper than anf-lint can follow (the parser ran out of stack). Flatten the nesting.';
