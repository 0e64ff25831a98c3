import { describe, expect, it } from 'vitest';
import { INTEGRATIONS } from '../../impl/integrations/registry.js';
import { PORTS_BEGIN, PORTS_END, environmentDoc, portsTable, variablesTable, withBlock } from './env-tables.js';

describe('docs/environment.md tables from the registry', () => {
  it('lists every listening integration once, with its port and variable', () => {
    const table = portsTable();
    for (const i of INTEGRATIONS.filter((x) => x.port !== 0)) {
      const rows = table.split('\n').filter((l) => l.startsWith(`| ${i.port} |`));
      expect(rows, i.name).toHaveLength(1);
      expect(rows[0]).toContain(`\`${i.portEnv}\``);
      expect(rows[0]).toContain(` ${i.command}\``);
    }
  });

  it('lists every variable an integration declares', () => {
    const table = variablesTable();
    for (const v of INTEGRATIONS.flatMap((i) => i.env)) expect(table).toContain(`| \`${v.name}\` |`);
  });

  it('replaces only the text between the markers, and refuses a document without them', () => {
    expect(withBlock(`a\n${PORTS_BEGIN}\nold\n${PORTS_END}\nb`, PORTS_BEGIN, PORTS_END, 'new')).toBe(`a\n${PORTS_BEGIN}\nnew\n${PORTS_END}\nb`);
    expect(withBlock('no markers', PORTS_BEGIN, PORTS_END, 'new')).toBeNull();
    expect(environmentDoc(`${PORTS_BEGIN}\n${PORTS_END}\n`)).toBeNull();
  });
});
