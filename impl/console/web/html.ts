/** `html`: htm bound to Preact's `h` (tagged templates instead of JSX: no JSX build step). */
export { html } from 'htm/preact';
