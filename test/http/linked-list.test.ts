import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../scripts/soak/plan.js';
import { LinkedList, type Linked } from '../../src/http/linked-list.js';

interface Item extends Linked<Item> {
  readonly id: number;
}
const item = (id: number): Item => ({ id, prev: undefined, next: undefined, listed: false });
const ids = (list: LinkedList<Item>): number[] => [...list].map((i) => i.id);

describe('the list of answers in flight (src/http/send-deadline.ts)', () => {
  it('holds what a set would, newest first, through 20,000 adds and deletes of 40 items (seed 56)', () => {
    const random = seededRandom(56);
    const items = Array.from({ length: 40 }, (_, i) => item(i));
    const list = new LinkedList<Item>();
    // The oracle: an array, newest first.
    let model: number[] = [];
    for (let step = 0; step < 20_000; step++) {
      const chosen = items[Math.floor(random() * items.length)] as Item;
      if (random() < 0.5) {
        list.add(chosen);
        if (!model.includes(chosen.id)) model = [chosen.id, ...model];
      } else {
        list.delete(chosen);
        model = model.filter((id) => id !== chosen.id);
      }
      if (step % 97 === 0) expect(ids(list)).toEqual(model);
      expect(list.size).toBe(model.length);
    }
    expect(ids(list)).toEqual(model);
  });

  it('lets the item being visited be deleted, as a sweep cuts an answer, and visits every other one', () => {
    const list = new LinkedList<Item>();
    const items = Array.from({ length: 6 }, (_, i) => item(i));
    for (const i of items) list.add(i);
    const visited: number[] = [];
    for (const i of list) {
      visited.push(i.id);
      if (i.id % 2 === 0) list.delete(i);
    }
    expect(visited).toEqual([5, 4, 3, 2, 1, 0]);
    expect(ids(list)).toEqual([5, 3, 1]);
    expect(list.size).toBe(3);
  });

  it('keeps nothing of a deleted item: its links are cleared, and a second delete changes nothing', () => {
    const list = new LinkedList<Item>();
    const [a, b, c] = [item(1), item(2), item(3)];
    list.add(a);
    list.add(b);
    list.add(c);
    list.delete(b);
    expect([b.prev, b.next, b.listed]).toEqual([undefined, undefined, false]);
    list.delete(b);
    expect(ids(list)).toEqual([3, 1]);
    expect(list.size).toBe(2);
  });
});
