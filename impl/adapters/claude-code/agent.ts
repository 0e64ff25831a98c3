/** The AEP `agent` name of the Claude Code adapter (also its `x.claude-code.*` vendor token). */
export const AGENT_NAME = 'claude-code';
