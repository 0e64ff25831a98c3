/**
 * The `Descriptor` type moved to impl/integrations/descriptor.ts. This re-export stays only for
 * impl/operator/hook-wiring/vendors.ts, which other work still has open; import the new module.
 */
export type * from '../integrations/descriptor.js';
