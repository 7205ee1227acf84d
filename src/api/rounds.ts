/**
 * Reads of several clients in one `fetchAll` per pass. Each client (each company, with its own
 * token and base URL) keeps its reads in a round that builds its own requests, headers
 * included, reads its own answers and decides its own retries; `runRounds` only carries them:
 * the pending requests of every round go out together, each round gets its slice back, and one
 * sleep covers the longest wait any of them asked for.
 */
import type { Clock, HttpRequest, HttpResponse, Transport } from "./transport";

/** What a round gets back for a pass: the answers to its requests, in order, or why none came. */
export type RoundAnswer = { responses: readonly HttpResponse[] } | { failure: unknown };

/** Reads that `runRounds` sends: a client's `startReads` makes one. */
export interface Round {
  /** The requests of this pass, never empty while not done; the same list until `receive`. */
  requests(): readonly HttpRequest[];
  /** The answers to `requests()`, or the failure of the batch they went in (sent at `startedAt`). */
  receive(answer: RoundAnswer, startedAt: number): void;
  /** Milliseconds to wait before the requests still pending go again. */
  delay(): number;
  /** Whether every read has its result. */
  done(): boolean;
}

/** Sends one batch; any throw, or an answer count other than the requests', is its failure. */
export function sendBatch(transport: Transport, requests: readonly HttpRequest[]): RoundAnswer {
  try {
    const responses = transport.sendAll(requests);
    if (responses.length !== requests.length) {
      throw new Error(`the transport answered ${responses.length} of ${requests.length} requests`);
    }
    return { responses };
  } catch (failure) {
    return { failure };
  }
}

/**
 * Runs `rounds` to the end through `transport`: each pass sends the requests of every round not
 * done in one `sendAll` and sleeps once, for the longest delay of the rounds still pending.
 * A batch that fails as a whole (one host's DNS error fails a whole fetchAll) is sent again
 * round by round, once, so only the reads of the round that really fails fail. Each round keeps
 * its own attempts and total wait; the requests are the rounds' own, none is built here.
 */
export function runRounds(transport: Transport, clock: Clock, rounds: readonly Round[]): void {
  for (let live = rounds.filter((r) => !r.done()); live.length > 0; live = live.filter((r) => !r.done())) {
    const slices = live.map((round) => round.requests());
    const startedAt = clock.now();
    const answer = sendBatch(transport, slices.flat());
    if ("failure" in answer && live.length > 1) {
      live.forEach((round, k) => {
        const soloStartedAt = clock.now();
        round.receive(sendBatch(transport, slices[k] as readonly HttpRequest[]), soloStartedAt);
      });
    } else {
      let from = 0;
      live.forEach((round, k) => {
        const count = (slices[k] as readonly HttpRequest[]).length;
        round.receive(
          "failure" in answer ? answer : { responses: answer.responses.slice(from, from + count) },
          startedAt,
        );
        from += count;
      });
    }
    const waiting = live.filter((r) => !r.done());
    if (waiting.length > 0) clock.sleep(Math.max(...waiting.map((r) => r.delay())));
  }
}
