/**
 * A document for the app's views in Node (test/app-dom/read-sections.test.ts): the views build the page
 * with createElement, setAttribute and append (app/src/dom.ts), so elements that keep their tag,
 * attributes and children are enough to read what a view shows; a form's controls take listeners,
 * which no test here fires, and properties (`value`, `checked`), which only the page's events read.
 */
export interface FakeElement { tag: string; attrs: Record<string, string>; children: (FakeElement | string)[]; text: () => string }

function element(tag: string): FakeElement {
  const el = {
    tag, attrs: {} as Record<string, string>, children: [] as (FakeElement | string)[],
    setAttribute(name: string, value: string) { el.attrs[name] = value; },
    append(...children: (FakeElement | string)[]) { el.children.push(...children); },
    replaceChildren(...children: (FakeElement | string)[]) { el.children.splice(0, el.children.length, ...children); },
    addEventListener() {},
    text: (): string => el.children.map((c) => (typeof c === 'string' ? c : c.text())).join(''),
  };
  return el;
}

export const fakeDocument = { createElement: element };

/** Every element below `root` (itself included) with the tag. */
export function all(root: FakeElement, tag: string): FakeElement[] {
  const below = root.children.flatMap((c) => (typeof c === 'string' ? [] : all(c, tag)));
  return root.tag === tag ? [root, ...below] : below;
}
