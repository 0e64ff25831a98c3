/**
 * Just enough of a DOM for Preact to render the console's views in Node (no browser, no jsdom):
 * elements with attributes, children and listeners, text nodes, and a `click` that runs a
 * button's handler the way a browser's click does. For unit tests of what a click sends; the
 * browser tests (playwright) hold the real page.
 */
const HTML_NS = 'http://www.w3.org/1999/xhtml';

export class MiniNode {
  parentNode: MiniElement | null = null;
  readonly childNodes: MiniNode[] = [];
  get firstChild(): MiniNode | null {
    return this.childNodes[0] ?? null;
  }
  get nextSibling(): MiniNode | null {
    const siblings = this.parentNode?.childNodes ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }
  remove(): void {
    const siblings = this.parentNode?.childNodes;
    if (siblings) siblings.splice(siblings.indexOf(this), 1);
    this.parentNode = null;
  }
  get textContent(): string {
    return this.childNodes.map((n) => n.textContent).join('');
  }
}

export class MiniText extends MiniNode {
  readonly nodeType = 3;
  constructor(public data: string) {
    super();
  }
  override get textContent(): string {
    return this.data;
  }
}

export class MiniElement extends MiniNode {
  readonly nodeType = 1;
  readonly namespaceURI = HTML_NS;
  readonly ownerDocument: MiniDocument;
  readonly attributes = new Map<string, string>();
  readonly #listeners = new Map<string, Set<(this: MiniElement, e: unknown) => unknown>>();
  constructor(
    readonly localName: string,
    doc: MiniDocument,
  ) {
    super();
    this.ownerDocument = doc;
  }
  insertBefore(node: MiniNode, ref: MiniNode | null): MiniNode {
    node.remove();
    const at = ref === null ? -1 : this.childNodes.indexOf(ref);
    if (at < 0) this.childNodes.push(node);
    else this.childNodes.splice(at, 0, node);
    node.parentNode = this;
    return node;
  }
  appendChild(node: MiniNode): MiniNode {
    return this.insertBefore(node, null);
  }
  removeChild(node: MiniNode): MiniNode {
    node.remove();
    return node;
  }
  setAttribute(name: string, value: unknown): void {
    this.attributes.set(name, String(value));
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  focus(): void {
    this.ownerDocument.activeElement = this;
  }
  addEventListener(type: string, fn: (this: MiniElement, e: unknown) => unknown): void {
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type)!.add(fn);
  }
  removeEventListener(type: string, fn: (this: MiniElement, e: unknown) => unknown): void {
    this.#listeners.get(type)?.delete(fn);
  }
  /** A click: the element's own `click` listeners, then its ancestors' (bubbling). */
  click(): void {
    const event = { type: 'click', target: this, currentTarget: this as MiniElement, preventDefault: () => {}, stopPropagation: () => {} };
    for (let el: MiniElement | null = this; el; el = el.parentNode) {
      event.currentTarget = el;
      for (const fn of el.#listeners.get('click') ?? []) fn.call(el, event);
    }
  }
  /** Every element below this one (depth first) that `test` accepts. */
  findAll(test: (el: MiniElement) => boolean): MiniElement[] {
    const out: MiniElement[] = [];
    for (const n of this.childNodes) {
      if (!(n instanceof MiniElement)) continue;
      if (test(n)) out.push(n);
      out.push(...n.findAll(test));
    }
    return out;
  }
}

export class MiniDocument {
  readonly body: MiniElement = new MiniElement('body', this);
  activeElement: MiniElement | null = null;
  createElementNS(_ns: string | null, tag: string): MiniElement {
    return new MiniElement(tag, this);
  }
  createElement(tag: string): MiniElement {
    return new MiniElement(tag, this);
  }
  createTextNode(text: string): MiniText {
    return new MiniText(text);
  }
  getElementById(id: string): MiniElement | null {
    return this.body.findAll((el) => el.getAttribute('id') === id)[0] ?? null;
  }
  /** Only what the views ask for after an answer (focus moves): no selector engine. */
  querySelectorAll(): MiniElement[] {
    return [];
  }
}
