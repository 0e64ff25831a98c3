import { describe, expect, it } from 'vitest';
import { serveConfig, serveEnv } from './serve-host.js';

describe('the OpenCode/Kilo Code setup', () => {
  it('points the only provider at the scripted server, asks for bash, allows questions', () => {
    const c = serveConfig('http://127.0.0.1:5555') as Record<string, any>;
    expect(c.provider.scripted).toEqual({ npm: '@ai-sdk/openai-compatible', name: 'Scripted', options: { baseURL: 'http://127.0.0.1:5555/v1', apiKey: 'aep-vendor-lane-dummy' }, models: { 'scripted-1': { name: 'Scripted 1', tool_call: true } } });
    expect([c.model, c.small_model]).toEqual(['scripted/scripted-1', 'scripted/scripted-1']);
    expect(c.permission).toEqual({ bash: 'ask', edit: 'ask', question: 'allow' });
  });

  it('keeps every state folder in the throwaway HOME and passes the hook environment through', () => {
    const dirs = { root: '/r', home: '/r/home', work: '/r/work', bin: '/r/bin', records: '/r/records' };
    const env = serveEnv({ dirs, hookEnv: { AEP_OPENCODE_PORT: '4321' } });
    expect([env.HOME, env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_CACHE_HOME, env.XDG_STATE_HOME]).toEqual(['/r/home', '/r/home/.config', '/r/home/.local/share', '/r/home/.cache', '/r/home/.local/state']);
    expect(env.AEP_OPENCODE_PORT).toBe('4321');
  });
});
