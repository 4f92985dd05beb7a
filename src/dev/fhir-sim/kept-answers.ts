/**
 * The development FHIR server's GET answers, kept until the repository changes. Medplum's in-memory
 * repository matches a search against every resource it holds, and the test suites ask the same few
 * searches thousands of times: a fifth of the COS object-level authorisation suite's CPU went to it.
 * Any other method is a change: it empties the store as it begins and as it ends, and an answer
 * computed while a change ran is answered but not kept, so what is kept is always what the repository
 * holds now. Bounded, as fuzzing asks many searches once each.
 */
export interface Answer { status: number; headers: Record<string, string>; text: string }

const KEPT_ANSWERS = 512;

export class KeptAnswers {
  readonly #answers = new Map<string, Answer>();
  /** Changes in flight. */
  #changing = 0;
  /** Moved on as each change begins and as it ends. */
  #generation = 0;

  /** The answer to a GET of `key` (the path and query), computed by `compute` unless kept. */
  async read(key: string, compute: () => Promise<Answer>): Promise<Answer> {
    const kept = this.#answers.get(key);
    if (kept !== undefined) return kept;
    const generation = this.#generation;
    const quiet = this.#changing === 0;
    const answer = await compute();
    if (quiet && this.#changing === 0 && generation === this.#generation) {
      if (this.#answers.size >= KEPT_ANSWERS) this.#answers.clear();
      this.#answers.set(key, answer);
    }
    return answer;
  }

  /** Runs a request that may change the repository; nothing kept before it, or computed while it runs, is answered after. */
  async change(run: () => Promise<Answer>): Promise<Answer> {
    this.#changing += 1;
    this.#moveOn();
    try {
      return await run();
    } finally {
      this.#changing -= 1;
      this.#moveOn();
    }
  }

  #moveOn(): void {
    this.#generation += 1;
    this.#answers.clear();
  }
}
