/** The links an item of a LinkedList carries itself. */
export interface Linked<T> {
  prev: T | undefined;
  next: T | undefined;
  /** Whether it is in a list now: deleting an item twice, or one never added, changes nothing. */
  listed: boolean;
}

/**
 * A set of items in order of addition, newest first, threaded through the items themselves: adding and
 * deleting allocate nothing. For what every request adds and deletes again; a JavaScript Set churned
 * that way made the garbage collector's work grow threefold (src/http/send-deadline.ts).
 */
export class LinkedList<T extends Linked<T>> implements Iterable<T> {
  private head: T | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(item: T): void {
    if (item.listed) return;
    item.prev = undefined;
    item.next = this.head;
    if (this.head) this.head.prev = item;
    this.head = item;
    item.listed = true;
    this.count += 1;
  }

  delete(item: T): void {
    if (!item.listed) return;
    if (item.prev) item.prev.next = item.next;
    else this.head = item.next;
    if (item.next) item.next.prev = item.prev;
    item.prev = undefined;
    item.next = undefined;
    item.listed = false;
    this.count -= 1;
  }

  /**
   * Each item, newest first. The item being visited may be deleted meanwhile; deleting the one after
   * it ends the walk there.
   */
  *[Symbol.iterator](): Iterator<T> {
    for (let item = this.head; item !== undefined;) {
      const next = item.next;
      yield item;
      item = next;
    }
  }
}
