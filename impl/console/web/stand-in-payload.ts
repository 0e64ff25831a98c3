/**
 * Browser stand-in for `impl/core/payload.ts` in the page bundle (bundle.ts): the page validates
 * form answers only, whose rules `rules.ts` catalogues itself; the payload rules (ajv over the
 * JSON Schemas) are not shipped to the browser.
 */
export const PAYLOAD_RULES: ReadonlyArray<{ id: string; section: string; summary: string }> = [];
