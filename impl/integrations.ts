/**
 * The registry moved to impl/integrations/registry.ts. This re-export stays only for the modules
 * other work still has open (impl/console, impl/relay/config.ts); import the folder's module.
 */
export * from './integrations/registry.js';
