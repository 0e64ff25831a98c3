/**
 * The Claude Code MCP elicitation loop (Elicitation / ElicitationResult).
 *
 * - Form mode (a `requested_schema`): a held `kind:"form"` request; a control answer is replied
 *   as `{action:"accept", content}`; anything else frees the hook neutrally (Claude Code shows its
 *   own dialog).
 * - URL mode (`mode:"url"`): a `kind:"auth"` request answered out of band only (the person opens
 *   the URL in Claude Code's UI). The hook is answered at once; the request stays open (ctx.open)
 *   until its ElicitationResult settles it, or the session ends (the kit dismisses it), so it is
 *   always closed.
 * - ElicitationResult for an open request of the same server (and the same `elicitation_id` when
 *   both carry one): `accept` → answered `via:"oob"` (a form with content: the content as
 *   values; otherwise `{option:"accept"}`), `decline` → answered `{option:"decline"}`, `cancel` → dismissed.
 *   An orphan result emits nothing: one terminal per request.
 */
import type { FieldSpec, HookContext, HookInput, PendingInfo } from '../../adapter-kit/types.js';
import { str } from '../../adapter-kit/mapping.js';
import { isPlainObject } from '../../core/event.js';
import { runFor, subagentCause } from './identity.js';
import { mapElicitationHook } from './map-hooks.js';
import { NEUTRAL, elicitationReply } from './replies.js';

const prefix = (session: string, input: HookInput): string => `elicitation:${session}:${str(input.mcp_server_name) ?? ''}:`;
const keyOf = (session: string, input: HookInput): string => prefix(session, input) + (str(input.elicitation_id) ?? '');

export async function onElicitation(input: HookInput, session: string, ctx: HookContext): Promise<string> {
  const mapped = mapElicitationHook(input, ctx.posture);
  const run = runFor(ctx, session, input);
  const cause = subagentCause(ctx, session, input);
  const spec = { session, ...(run ? { run } : {}), ...(cause ? { cause } : {}), mapped, key: keyOf(session, input) };
  if (!Array.isArray(mapped.data.fields)) {
    ctx.open(spec);
    return NEUTRAL;
  }
  const { settlement } = await ctx.hold({ ...spec, fields: mapped.data.fields as FieldSpec[] });
  if (settlement.kind !== 'values' || settlement.via !== 'control') return NEUTRAL;
  return elicitationReply(settlement.values);
}

/** The open request a result is about: same server, and the same elicitation id when it has one. */
function requestFor(input: HookInput, session: string, ctx: HookContext): PendingInfo | undefined {
  const open = ctx.pending(session).filter((p) => p.key?.startsWith(prefix(session, input)));
  const exact = open.find((p) => p.key === keyOf(session, input));
  if (exact) return exact;
  return str(input.elicitation_id) === undefined ? open[0] : open.find((p) => p.key === prefix(session, input));
}

export function onElicitationResult(input: HookInput, session: string, ctx: HookContext): void {
  const request = requestFor(input, session, ctx);
  if (request === undefined) return;
  const { id } = request;
  const action = str(input.action);
  const content = request.form && isPlainObject(input.content) && Object.keys(input.content).length > 0 ? input.content : undefined;
  if (action === 'accept' && content) ctx.settle(id, { kind: 'oob', answer: { values: content } });
  else if (action === 'accept') ctx.settle(id, { kind: 'oob', answer: { option: 'accept' } });
  else if (action === 'decline') ctx.settle(id, { kind: 'oob', answer: { option: 'decline' } });
  else ctx.settle(id, { kind: 'dismissed' });
}
