/** What the running service opened and must close, in reverse order, and what it tells a newcomer at start. */
export class Lifecycle {
  readonly notices: string[] = [];
  private readonly closers: Array<() => Promise<void>> = [];

  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  async closeAll(): Promise<void> {
    for (const close of this.closers.reverse()) await close();
  }
}
