import { describe, expect, it } from 'vitest';
import { isTemplateDirectiveLine } from '../../server/src/core/text/templateLines';

describe('template lines', () => {
  it('are Jinja statements and comments, ERB control and lines that are one whole placeholder', () => {
    for (const line of [
      '{% for m in mounts %}',
      '  {%- endif -%}',
      '{# note #}',
      '<% if @nfs %>',
      '{{ extra_fstab_lines }}',
      '  {{ lines | join("\\n") }}  ',
    ]) {
      expect(isTemplateDirectiveLine(line), line).toBe(true);
    }
  });
  it('are not lines with a placeholder among literal text, ERB output or ordinary lines', () => {
    for (const line of [
      '{{ ip }}:/data /data nfs rw,hard 0 0',
      '<%= @server %>:/x /x nfs rw 0 0',
      'net.core.rmem_max = {{ rmem }}',
      '# {% comment %}x',
      '10.0.0.4:/a /a nfs rw 0 0',
      '{{ a }} {{ b }}',
    ]) {
      expect(isTemplateDirectiveLine(line), line).toBe(false);
    }
  });
});
