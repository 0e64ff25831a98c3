/** Browser stand-in for `node:os` in the page bundle (bundle.ts): only `hostname`, for the operator source URI. */
export function hostname(): string {
  return typeof location === 'undefined' ? 'console' : location.hostname;
}
