/** What a judge did in one command, for the summary line on stderr and the exit code. */
export class JudgeStats {
  judged = 0;
  cached = 0;
  degenerate = 0;
  retries = 0;
  private readonly failures = new Map<string, number>();

  fail(reason: string): void {
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  get failed(): number {
    let n = 0;
    for (const c of this.failures.values()) n += c;
    return n;
  }

  /** `judge: 97 judged, 3 cached, 2 failed (2× HTTP 500, after 4 attempts), 1 degenerate reply`. */
  summary(): string {
    const why = [...this.failures]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([reason, n]) => `${n}× ${reason}`)
      .join("; ");
    const more = this.failures.size > 3 ? `; ${this.failures.size - 3} other reason(s)` : "";
    return [
      `judge: ${this.judged} judged`,
      `${this.cached} cached`,
      `${this.failed} failed${this.failed > 0 ? ` (${why}${more})` : ""}`,
      ...(this.degenerate > 0
        ? [`${this.degenerate} degenerate repl${this.degenerate === 1 ? "y" : "ies"}`]
        : []),
      ...(this.retries > 0 ? [`${this.retries} retr${this.retries === 1 ? "y" : "ies"}`] : []),
    ].join(", ");
  }
}
